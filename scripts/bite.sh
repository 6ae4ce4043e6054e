#!/bin/bash
# Does the suite bite?  Build the patched kernel once more with a known
# bug put into it (tests/bugs/*.patch, applied on top of the series),
# run the "bite" set of tests/matrix.conf on it with make check's own
# runner, and judge it as make check judges the series: the same
# report, the same expected lists, the bugged kernel in the place of
# "patched".  The unbugged series is green under those lists, so what
# fails now is what the bug did.
#
# A bug counts as caught only by a test failing unexpectedly that no
# flaky: entry names in that cell (a race that bites without the bug
# proves nothing), or by an unexpected XPASS (a listed failure that the
# bug turned into a pass is a change the suite saw).  A cell that only
# crashed is reported but is not a catch by a test.  A bug that no test
# catches makes this script fail.
#
# usage: bite.sh [BUG.patch ...]   (default: every tests/bugs/*.patch)
# Environment: JOBS (cells in parallel), RACE_MS, TESTS, as make check.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || set -- "$ACL9P_TOP"/tests/bugs/*.patch
out=$ACL9P_BUILD/bite
mkdir -p "$out"

missed=0
for bug in "$@"; do
	name=$(basename "$bug" .patch)
	kernel=$ACL9P_BUILD/kernels/bite-$name.bzImage
	"$ACL9P_TOP/scripts/bugged-kernel.sh" "$bug" "$kernel"
	res=$out/$name
	rm -rf "$res"
	# check.sh's exit status is the verdict, and with a bug in the
	# kernel a failing verdict is what we hope for.
	KERNEL=$kernel ACL9P_KERNEL_LABEL=patched ACL9P_RESULTS=$res \
		ACL9P_RIG_TESTS=0 MATRIX=bite CELL= \
		"$ACL9P_TOP/scripts/check.sh" >"$out/$name.report" 2>&1 || true
	[ -r "$res/unexpected.tsv" ] ||
		die "bite: $name: no verdict (build/bite/$name.report: $(tail -n 1 "$out/$name.report"))"
	echo "== $name: $(tail -n 1 "$out/$name.report")"
	# cell, test, verdict, flaky, reason (acl9p-report's unexpected.tsv)
	caught=$(awk -F'\t' '!/^#/ && $2 != "(boot)" && $4 != "flaky"' "$res/unexpected.tsv")
	awk -F'\t' '!/^#/ && $2 == "(boot)" { print "  " $1 ": cell failed: " $5 }' \
		"$res/unexpected.tsv"
	awk -F'\t' '!/^#/ && $2 != "(boot)" && $4 == "flaky" { n++ }
		END { if (n) print "  " n " unexpected results of flaky-listed race tests (not counted)" }' \
		"$res/unexpected.tsv"
	if [ -z "$caught" ]; then
		echo "  NOT CAUGHT"
		missed=1
		continue
	fi
	# unexpected.tsv comes cell by cell
	printf '%s\n' "$caught" | awk -F'\t' '
		function flush() { if (cell != "") print "  " cell ": " n " tests" lines }
		$1 != cell { flush(); cell = $1; n = 0; lines = "" }
		{ n++; if (n <= 3) lines = lines "\n      " $3 " " $2 }
		END { flush() }'
done
exit $missed
