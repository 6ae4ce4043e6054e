#!/bin/bash
# Which in-kernel callers still take the raw xattr path for ACL names on
# inodes of the ACL api?  A grep for vfs_*xattr() cannot see wrappers,
# macros or function pointers (it missed overlayfs' ovl_do_*xattr()).
# This asks the kernel instead: tests/probes/raw-acl-warn.patch puts a
# WARN_ONCE where __vfs_{set,get,remove}xattr() refuse such a name, the
# cells of the bite set run on that kernel (the broad set and more,
# tmpfs and overlayfs over tmpfs and 9p included), and
# each report's call trace is resolved against System.map.  Code the
# suite does not run is not seen: the result covers what runs.
#
# usage: raw-acl-probe.sh   (exit 1 if a caller was found)
set -eu
. "$(dirname "$0")/lib.sh"

probe=$ACL9P_TOP/tests/probes/raw-acl-warn.patch
kernel=$ACL9P_BUILD/kernels/probe-raw-acl.bzImage
res=$ACL9P_BUILD/probe-raw-acl
"$ACL9P_TOP/scripts/bugged-kernel.sh" "$probe" "$kernel"
rm -rf "$res"
# A report fails its cell (a WARNING on the console); the verdict here
# is the list of callers, not the report's last line.
KERNEL=$kernel ACL9P_KERNEL_LABEL=patched ACL9P_RESULTS=$res \
	ACL9P_RIG_TESTS=0 MATRIX=bite CELL= \
	"$ACL9P_TOP/scripts/check.sh" >"$res.report" 2>&1 || true
map=${kernel%.bzImage}.System.map

# resolve ADDR (16 hex digits): the text symbol at or below it, as
# symbol+offset.  System.map's addresses have 16 digits too, so they
# compare as strings (awk's numbers are doubles, too short for them);
# the offset comes from the low 8 digits.
resolve() {
	awk -v a="$1" 'function hex(s,  i, n) { n = 0
			for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return n }
		$2 ~ /^[tT]$/ && $1 <= a { best = $1; sym = $3 }
		END { if (sym != "") printf "%s+0x%x\n", sym, hex(substr(a, 9)) - hex(substr(best, 9)); else print a }' "$map"
}

found=0
for log in "$res"/*/console.log; do
	[ -r "$log" ] || continue
	grep -q 'acl9p probe:' "$log" || continue
	found=1
	cell=$(basename "$(dirname "$log")")
	grep -m1 'acl9p probe:' "$log" | sed "s/^.*acl9p probe: /$cell: /"
	# RIP and the frames of the trace: without KALLSYMS the kernel
	# prints them as 0xffffffff81xxxxxx
	sed -n '/acl9p probe:/,/---\[ end trace/p' "$log" |
		grep -oE '0xffffffff[0-9a-f]{8}' | sed 's/^0x//' | head -n 16 |
		while read -r a; do echo "    $(resolve "$a")"; done | uniq
done
ncells=$(find "$res" -mindepth 1 -maxdepth 1 -type d | wc -l)
if [ $found -eq 0 ]; then
	echo "raw-acl-probe: no raw ACL xattr access on an ACL api inode in $ncells cells"
	exit 0
fi
exit 1
