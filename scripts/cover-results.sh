#!/bin/bash
# Regenerate the "Results" section of kernel/patches/0000-cover-letter.patch
# from the last real runs: the matrix of build/results/summary.md (make
# check) as patched-versus-vanilla rows, and the step/warning/checkpatch
# lines of build/logs/series-summary-patched.log (make check-series) when there.
# The section runs from the line "Results" to the line before "acl9p (".
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/matrix.sh"

cover=$ACL9P_TOP/kernel/patches/0000-cover-letter.patch
summary=$ACL9P_BUILD/results/summary.md
series_log=$ACL9P_BUILD/logs/series-summary-patched.log
[ -f "$summary" ] || die "cover-results: $summary missing (run: make check)"
grep -q '^Results$' "$cover" || die "cover-results: no Results section in the cover letter"
# A partial run (make check CELL=... or TESTS=...) would read as the
# series' result: ask for the whole set (MATRIX, as make check took it),
# both kernels.
set_name=${MATRIX:-default}
want=$(matrix_cells "$set_name" vanilla patched | wc -l)
cells=$(awk -F'|' '/^## / { m = ($0 == "## Matrix") } m && /^\| `(vanilla|patched)\./' "$summary" | wc -l)
[ "$cells" -eq "$want" ] || die "cover-results: $summary has $cells vanilla/patched cells, not the $want of set $set_name (run a full make check MATRIX=$set_name)"
nbin=$(ls "$ACL9P_TOP"/tests/*.c | wc -l)
for cell in $(matrix_cells "$set_name" vanilla patched); do
	k=$ACL9P_BUILD/results/$cell/ktap.txt
	n=$(grep -c '^# selftests: acl9p: acl9p_' "$k" 2>/dev/null || true)
	[ "$n" -eq "$nbin" ] ||
		die "cover-results: $cell ran $n of $nbin test binaries (TESTS=...?): run a full make check"
done
# the build's own list of the tests (variants expanded), not a count of
# TEST() macros
manifest=$ACL9P_BUILD/tests/manifest
[ -r "$manifest" ] || die "cover-results: $manifest missing (run: make guest)"
ntests=$(grep -c . "$manifest")

table() {
	echo "make check MATRIX=$set_name, $(date -u -r "$summary" '+%Y-%m-%d %H:%M UTC'): pass/fail/xfail"
	echo "per cell ($ntests guest tests, plus host checks of the stored bytes);"
	echo "fail counts unexpected results only."
	echo
	printf '  %-40s %-15s %-15s\n' "server.access.cache" vanilla patched
	# | `vanilla.diod.client.loose` | 295 | 0 | 0 | 24 | 0 | 41.8 | |
	# Only the "## Matrix" table: later sections name cells too.
	awk -F'|' '/^## / { m = ($0 == "## Matrix") }
	m && /^\| `(vanilla|patched)\./ {
		gsub(/[` ]/, "", $2); k = $2; sub(/\..*/, "", k)
		c = $2; sub(/^[^.]*\./, "", c)
		v[c, k] = ($3 + 0) "/" ($4 + 0) "/" ($6 + 0); seen[c] = 1
	} END {
		for (c in seen) printf "  %-40s %-15s %-15s\n", c, v[c, "vanilla"], v[c, "patched"]
	}' "$summary" | sort
	echo
	sed -n 's/^\*\*\(.*\)\*\*.*/  totals: \1/p' "$summary" | head -n 1
	# The line after the "## A/B differences" heading counts them.
	awk '/^## A\/B/ { h = 1; next } h && NF { print "  A/B: " $0; exit }' "$summary"
	# Only a finished check-series run: a partial table would read as
	# a result.
	if [ -f "$series_log" ] && grep -qE '^check-series: (PASS|FAIL)$' "$series_log"; then
		echo
		echo "make check-series, $(date -u -r "$series_log" '+%Y-%m-%d %H:%M UTC'):"
		sed 's/^/  /' "$series_log"
	fi
	echo
}

tmp=$(mktemp)
awk -v body="$(table)" '
	/^Results$/ { print; getline; print; print ""; print body; print ""; skip = 1; next }
	skip && /^acl9p \(/ { skip = 0 }
	!skip { print }' "$cover" >"$tmp"
mv "$tmp" "$cover"
note "cover-results: Results section of ${cover#$ACL9P_TOP/} regenerated"
