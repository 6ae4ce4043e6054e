#!/bin/bash
# For each cell of the "demo" set of tests/matrix.conf: boot the guest
# (patched kernel when the series is there, else vanilla; built here
# when missing or stale), let it set
# ACLs on the share (guest/demo.sh) and print, side by side, getfacl as
# the guest saw it and as the host sees the export.  A server that keeps
# the ACL under a prefix (SERVER_XATTR_PREFIX, e.g. user.virtfs. for
# mapped-xattr) has its bytes decoded through a scratch file.
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/matrix.sh"

pick_kernel
[ -n "${KERNEL:-}" ] || "$ACL9P_TOP/scripts/kernel-build.sh" "$label"

mapped_id() { # PREFIX uid|gid PATH STAT-FORMAT
	local v
	v=$(getfattr --only-values -n "$1$2" "$3" 2>/dev/null | od -An -tu4 | tr -d ' ')
	[ -n "$v" ] || v=$(stat -c "$4" "$3")
	echo "$v"
}

host_view() {
	local prefix=$1 path=$2 name hex scratch
	if [ -z "$prefix" ]; then
		getfacl -n "$path" 2>/dev/null | sed 's/^# file: .*/# file: (host) '"${path##*/}"'/'
		return
	fi
	scratch=$(mktemp -d)
	[ -d "$path" ] && mkdir "$scratch/x" || touch "$scratch/x"
	for name in system.posix_acl_access system.posix_acl_default; do
		hex=$(getfattr -e hex -n "$prefix$name" "$path" 2>/dev/null |
			sed -n 's/^[^=]*=//p')
		[ -z "$hex" ] || setfattr -n "$name" -v "$hex" "$scratch/x"
	done
	# the owner and group the server keeps beside the ACL
	# (user.virtfs.uid/gid, le32, for QEMU's mapped-xattr), else the
	# file's own, so the rows line up with the guest's getfacl -n
	echo "# file: (host $prefix*) ${path##*/}"
	echo "# owner: $(mapped_id "$prefix" uid "$path" %u)"
	echo "# group: $(mapped_id "$prefix" gid "$path" %g)"
	getfacl -n --omit-header "$scratch/x" 2>/dev/null
	rm -rf "$scratch"
}

last_access=
# grouped by access mode, in the matrix' order otherwise
for cell in $(matrix_cells demo "$label" | sort -s -t. -k3,3); do
	matrix_cell "$cell"
	server=$c_server
	if [ "$c_access" != "$last_access" ]; then
		echo
		echo "=== demo: $label kernel, access=$c_access: getfacl in the guest | on the host"
		last_access=$c_access
	fi
	prefix=$(. "$ACL9P_TOP/server/$server.sh"; echo "$SERVER_XATTR_PREFIX")
	out=$ACL9P_BUILD/demo/$cell
	mkdir -p "${out%/*}"
	if ! "$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" --cell "$cell" \
		--mode demo --out "$out" --timeout 120 2>"$out.err"; then
		echo "--- $server: boot failed: $(tail -n 1 "$out.err")"
		continue
	fi
	export_dir=$(sed -n 's/^export=//p' "$out/status")
	for f in demo.txt demo.dir; do
		echo "--- $server: $f"
		pr -m -t -w 80 \
			<(sed -n "/^=== getfacl -n $f/,/^===/p" "$out/ktap.txt" |
				grep -v '^===' |
				sed 's/^# file: /# file: (guest) /') \
			<(host_view "$prefix" "$export_dir/$f")
	done
done
echo
echo "demo: the whole matrix, patched against vanilla: make check"
