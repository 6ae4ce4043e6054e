#!/bin/bash
# Make a fresh export directory for one cell and put in it what the host
# sets before boot, so the guest can check the host-to-guest direction:
#   hostset/f  ACL u::rw-,u:1001:r--,g::r--,m::r--,o::---
#   hostset/d  default ACL d:u::rwx,d:u:1002:r-x,d:g::r-x,d:m::r-x,d:o::---
# passthrough and diod keep ACLs as the host's own system.posix_acl_*;
# mapped-xattr keeps the guest's in user.virtfs.system.posix_acl_*, with
# the same bytes, so those are copied from a scratch file set by setfacl.
#
# usage: prepare-export.sh SERVER EXPORT
set -eu
server=$1 export=$2

rm -rf "$export"
mkdir -p "$export/hostset/d"
chmod 0755 "$export"
echo "set on the host" >"$export/hostset/f"
chmod 0640 "$export/hostset/f"
chmod 0750 "$export/hostset/d"

acl_f='u::rw-,u:1001:r--,g::r--,m::r--,o::---'
acl_d='u::rwx,u:1002:r-x,g::r-x,m::r-x,o::---'
case $server in
qemu-passthrough | diod)
	setfacl -m "$acl_f" "$export/hostset/f"
	setfacl -d -m "$acl_d" "$export/hostset/d"
	;;
qemu-mapped-xattr)
	scratch=$export.scratch
	rm -rf "$scratch"
	mkdir -p "$scratch/d"
	touch "$scratch/f"
	setfacl -m "$acl_f" "$scratch/f"
	setfacl -d -m "$acl_d" "$scratch/d"
	v=$(getfattr -e hex -n system.posix_acl_access "$scratch/f" | sed -n 's/^[^=]*=//p')
	setfattr -n user.virtfs.system.posix_acl_access -v "$v" "$export/hostset/f"
	v=$(getfattr -e hex -n system.posix_acl_default "$scratch/d" | sed -n 's/^[^=]*=//p')
	setfattr -n user.virtfs.system.posix_acl_default -v "$v" "$export/hostset/d"
	rm -rf "$scratch"
	;;
*) echo "prepare-export: unknown server '$server'" >&2; exit 2 ;;
esac
