#!/bin/bash
# For each 9p server: boot the guest (patched kernel when the series is
# there, else vanilla), let it set ACLs on the share (guest/demo.sh) and
# print, side by side, getfacl as the guest saw it and as the host sees
# the export.  mapped-xattr keeps the ACL in user.virtfs.* on the host,
# so its bytes are decoded through a scratch file.
set -eu
. "$(dirname "$0")/lib.sh"

pick_kernel
accesses=${ACCESS:-client user}

host_view() {
	local server=$1 path=$2 name hex scratch
	if [ "$server" != qemu-mapped-xattr ]; then
		getfacl -n "$path" 2>/dev/null | sed 's/^# file: .*/# file: (host) '"${path##*/}"'/'
		return
	fi
	scratch=$(mktemp -d)
	[ -d "$path" ] && mkdir "$scratch/x" || touch "$scratch/x"
	for name in system.posix_acl_access system.posix_acl_default; do
		hex=$(getfattr -e hex -n "user.virtfs.$name" "$path" 2>/dev/null |
			sed -n 's/^[^=]*=//p')
		[ -z "$hex" ] || setfattr -n "$name" -v "$hex" "$scratch/x"
	done
	echo "# file: (host user.virtfs.*) ${path##*/}"
	getfacl -n --omit-header "$scratch/x" 2>/dev/null
	rm -rf "$scratch"
}

for access in $accesses; do
	echo
	echo "=== demo: $label kernel, access=$access: getfacl in the guest | on the host"
	for server in qemu-passthrough qemu-mapped-xattr diod; do
		out=$ACL9P_BUILD/demo/$server.$access
		mkdir -p "${out%/*}"
		if ! "$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" --label "$label" \
			--server "$server" --access "$access" --cache none --mode demo \
			--out "$out" --timeout 120 2>"$out.err"; then
			echo "--- $server: boot failed: $(tail -n 1 "$out.err")"
			continue
		fi
		export_dir=$(sed -n 's/^export=//p' "$out/status")
		for f in demo.txt demo.dir; do
			echo "--- $server: $f"
			pr -m -t -w 80 \
				<(sed -n "/^=== getfacl -n $f/,/^===/p" "$out/ktap.txt" |
					grep -v -e '^===' -e '^# ACL9P' |
					sed 's/^# file: /# file: (guest) /') \
				<(host_view "$server" "$export_dir/$f")
		done
	done
done
