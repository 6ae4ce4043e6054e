#!/bin/bash
# The judge of make flaky (scripts/flaky-judge.awk) on planted counts:
# it must call the series worse where patched fails a race far more
# often than vanilla, and only there.  Prints one line per case and a
# last line "flaky-judge: N cases, N wrong"; exit 1 on any wrong one.
set -eu
. "$(dirname "$0")/../../scripts/lib.sh"

# FLAKY_JUDGE: another judge, to check that these cases catch a broken one
judge=${FLAKY_JUDGE:-$ACL9P_TOP/scripts/flaky-judge.awk}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 wrong=0

# case NAME WANT-EXIT WANT-WORSE: the counts on stdin ("K C T F R")
case_() {
	local name=$1 want_rc=$2 want_worse=$3 rc=0 worse
	n=$((n + 1))
	cat >"$tmp/counts"
	awk -v runs=10 -v alpha=0.05 -f "$judge" "$tmp/counts" >"$tmp/out" || rc=$?
	worse=$(grep -c 'SERIES WORSE' "$tmp/out" || true)
	if [ "$rc" = "$want_rc" ] && [ "$worse" = "$want_worse" ]; then
		echo "ok - $name"
	else
		echo "not ok - $name: exit $rc, $worse worse (wanted $want_rc, $want_worse)"
		sed 's/^/    /' "$tmp/out"
		wrong=$((wrong + 1))
	fi
}

# A race the series makes certain, beside two it leaves alone.
case_ "patched 10/10 against vanilla 0/10 is worse" 1 1 <<'E'
vanilla c t.a 0 10
patched c t.a 10 10
vanilla c t.b 5 10
patched c t.b 5 10
vanilla c t.c 0 10
patched c t.c 0 10
E
# 3 of 10 against none: one-sided Fisher p = 0.105, not significant.
case_ "patched 3/10 against vanilla 0/10 is not worse" 0 0 <<'E'
vanilla c t.a 0 10
patched c t.a 3 10
E
# The other direction is the series fixing a race, never worse.
case_ "vanilla 10/10 against patched 0/10 is not worse" 0 0 <<'E'
vanilla c t.a 10 10
patched c t.a 0 10
E
# 6 of 10 against none: p = 0.0054 alone, significant; beside 19 other
# pairs that failed once on each kernel Holm asks p <= 0.05/20 = 0.0025,
# so the same counts are no longer enough.
case_ "patched 6/10 against 0/10 is worse alone" 1 1 <<'E'
vanilla c t.a 0 10
patched c t.a 6 10
E
{
	echo "vanilla c t.a 0 10"
	echo "patched c t.a 6 10"
	for i in $(seq 1 19); do
		echo "vanilla c t.x$i 1 10"
		echo "patched c t.x$i 1 10"
	done
} >"$tmp/holm"
case_ "the same among 20 failing pairs is not worse (Holm)" 0 0 <"$tmp/holm"
# A test that did not report every round has no rate: that fails.
case_ "a rate from 9 of 10 rounds is missing" 1 0 <<'E'
vanilla c t.a 1 10
patched c t.a 1 9
E

echo "flaky-judge: $n cases, $wrong wrong"
[ "$wrong" -eq 0 ]
