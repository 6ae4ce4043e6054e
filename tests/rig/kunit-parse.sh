#!/bin/bash
# Read each cell's ktap.txt with the kernel's own KTAP parser
# (tools/testing/kunit/kunit_parser.py of the extracted tree) and add
# what it found to the cell's status: ktap_errors=N and ktap_error=the
# first message.  acl9p-report fails a cell with errors, so the guest's
# output stays standard KTAP and not just what acl9p-report accepts.
# The parser's log goes to CELL/kunit-parse.log.
#
# usage: kunit-parse.sh CELLDIR...
set -eu
. "$(dirname "$0")/../../scripts/lib.sh"

kunit=$ACL9P_BUILD/linux/vanilla/tools/testing/kunit
[ -r "$kunit/kunit_parser.py" ] || die "kunit-parse: $kunit/kunit_parser.py missing (run: make kernel-vanilla)"
command -v python3 >/dev/null || die "kunit-parse: python3 not installed (run: make deps)"

for dir in "$@"; do
	[ -f "$dir/status" ] || continue
	if [ -f "$dir/ktap.txt" ]; then
		python3 - "$kunit" "$dir/ktap.txt" >"$dir/kunit-parse.log" 2>&1 <<'PY' || true
import sys
sys.path.insert(0, sys.argv[1])
import kunit_parser
with open(sys.argv[2], errors='replace') as f:
	test = kunit_parser.parse_run_tests(f.readlines())
print('acl9p-errors=%d' % test.counts.errors)
PY
	else
		echo "no ktap.txt" >"$dir/kunit-parse.log"
	fi
	n=$(sed -n 's/^acl9p-errors=//p' "$dir/kunit-parse.log")
	first=$(grep -m1 -F '[ERROR]' "$dir/kunit-parse.log" | sed 's/^.*\[ERROR\] *//' || true)
	if [ -z "$n" ]; then
		n=1 first="kunit_parser.py did not finish: $(tail -n 1 "$dir/kunit-parse.log")"
	fi
	{
		echo "ktap_errors=$n"
		[ "$n" = 0 ] || echo "ktap_error=$first"
	} >>"$dir/status"
done
