#!/bin/bash
# Make a fresh export directory for one cell and put in it what the host
# sets before boot, so the guest can check the host-to-guest direction:
#   hostset/f  ACL u::rw-,u:1001:r--,g::r--,m::r--,o::---
#   hostset/d  default ACL d:u::rwx,d:u:1002:r-x,d:g::r-x,d:m::r-x,d:o::---
#   hostbad/f  a malformed access ACL (servers with SERVER_XATTR_PREFIX only)
#   hostbad/{nomask,dupentry,unsorted}  access ACLs that parse but are
#              invalid (the same servers)
#   hostbad/d  a directory with a malformed default ACL (the same servers)
# A server with no SERVER_XATTR_PREFIX keeps ACLs as the host's own
# system.posix_acl_*, so setfacl sets them; one with a prefix keeps the
# guest's bytes under PREFIX.system.posix_acl_*, so those are copied
# from a scratch file set by setfacl.
#
# usage: prepare-export.sh SERVER EXPORT
set -eu
server=$1 export=$2
here=$(dirname "$0")
# the server files may use the rig's paths (ACL9P_BUILD), as under boot.sh
. "$here/../scripts/lib.sh"
[ -r "$here/$server.sh" ] || { echo "prepare-export: no server/$server.sh" >&2; exit 2; }
. "$here/$server.sh"

rm -rf "$export"
mkdir -p "$export/hostset/d"
chmod 0755 "$export"
echo "set on the host" >"$export/hostset/f"
chmod 0640 "$export/hostset/f"
chmod 0750 "$export/hostset/d"

acl_f='u::rw-,u:1001:r--,g::r--,m::r--,o::---'
acl_d='u::rwx,u:1002:r-x,g::r-x,m::r-x,o::---'
if [ -z "$SERVER_XATTR_PREFIX" ]; then
	setfacl -m "$acl_f" "$export/hostset/f"
	setfacl -d -m "$acl_d" "$export/hostset/d"
	exit 0
fi
scratch=$export.scratch
rm -rf "$scratch"
mkdir -p "$scratch/d"
touch "$scratch/f"
setfacl -m "$acl_f" "$scratch/f"
setfacl -d -m "$acl_d" "$scratch/d"
for x in f:access d:default; do
	name=system.posix_acl_${x#*:}
	v=$(getfattr -e hex -n "$name" "$scratch/${x%%:*}" | sed -n 's/^[^=]*=//p')
	setfattr -n "$SERVER_XATTR_PREFIX$name" -v "$v" "$export/hostset/${x%%:*}"
done
rm -rf "$scratch"

# A malformed ACL as the server keeps it: version 1 (POSIX_ACL_XATTR_VERSION
# is 2), u::rw-,g::r--,o::r-- on a file of mode 0644.  Only an opaque
# xattr can hold one: a real system.posix_acl_* is validated by the host
# kernel, so the servers without a prefix have no hostbad/.
mkdir -p "$export/hostbad"
bad() {
	echo "malformed ACL" >"$export/hostbad/$1"
	chmod 0644 "$export/hostbad/$1"
	setfattr -n "${SERVER_XATTR_PREFIX}system.posix_acl_access" -v "0x$2" \
		"$export/hostbad/$1"
}
bad f 0100000001000600ffffffff04000400ffffffff20000400ffffffff
# Values that parse entry by entry but are no ACL the kernel could have
# stored (posix_acl_valid() refuses them); version 2, each entry
# tag/perm/id little-endian, on a file of mode 0644:
#   nomask    u::rw-,u:1001:rw-,g::r--,o::---  (named user, no mask)
#   dupentry  u::rw-,u:1001:r--,u:1001:rw-,g::r--,m::rw-,o::---
#   unsorted  u::rw-,g::r--,u:1001:rw-,m::r--,o::---
bad nomask 0200000001000600ffffffff02000600e903000004000400ffffffff20000000ffffffff
bad dupentry 0200000001000600ffffffff02000400e903000002000600e903000004000400ffffffff10000600ffffffff20000000ffffffff
bad unsorted 0200000001000600ffffffff04000400ffffffff02000600e903000010000400ffffffff20000000ffffffff
# d: a directory (mode 0755) whose default ACL does not parse (version 1)
mkdir "$export/hostbad/d"
chmod 0755 "$export/hostbad/d"
setfattr -n "${SERVER_XATTR_PREFIX}system.posix_acl_default" \
	-v 0x0100000001000700ffffffff04000500ffffffff20000500ffffffff "$export/hostbad/d"
