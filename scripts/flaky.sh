#!/bin/bash
# make flaky: how often each race test fails, per cell, on both kernels.
#
# One run's pass or fail of a race says nothing: the lists' flaky:
# entries let such a test pass or fail freely.  A rate does.  Every cell
# of the set boots once per kernel and runs the binaries that hold the
# lists' flaky tests FLAKY_RUNS times over (guest/init.c, ACL9P_REPEAT);
# each test's failures are counted per kernel, and a test the patched
# kernel fails significantly more often than vanilla in the same
# configuration fails this run: a race the series makes more likely is
# a bug of the series, whatever the lists excuse.
#
# Significance: Fisher's exact test, one-sided (patched worse), with
# Holm's correction over the (cell, test) pairs that failed at all, at
# FLAKY_ALPHA (default 0.05) for the family.  A test that did not
# report in every round (a timeout, a crash, a cell that did not boot)
# has no rate: that fails the run too.
#
# Host checks are not judged: the host sees only the last round's value.
#
# Environment: MATRIX (default "default"; a flavoured set is refused),
# CELL (glob over the set's cells without the kernel part, e.g.
# 'diod.user.*'), FLAKY_RUNS (rounds, default 10), JOBS (default 2),
# FLAKY_RESULTS (default build/results-flaky).  Prints a table of every
# pair that failed at least once and ends with one summary line; exit
# status 1 when the series is worse somewhere or a rate is missing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/matrix.sh"

set_name=${MATRIX:-default}
filter=${CELL:-*}
runs=${FLAKY_RUNS:-10}
jobs=${JOBS:-2}
alpha=${FLAKY_ALPHA:-0.05}
results=${FLAKY_RESULTS:-$ACL9P_BUILD/results-flaky}
case $runs in '' | *[!0-9]*) die "flaky: FLAKY_RUNS=$runs is not a count" ;; esac
if [ "$runs" -lt 2 ] || [ "$runs" -gt 1000 ]; then
	die "flaky: FLAKY_RUNS=$runs: 2 to 1000 rounds"
fi
[ -z "$(matrix_flavour "$set_name")" ] ||
	die "flaky: set $set_name boots a kernel flavour; rates are measured on the plain kernels"
"$ACL9P_TOP/scripts/series-available.sh" ||
	die "flaky: no series (kernel/patches/series): nothing to compare vanilla with"
for k in vanilla patched; do
	[ -r "$ACL9P_BUILD/kernels/$k.bzImage" ] ||
		die "flaky: build/kernels/$k.bzImage missing (make kernels)"
done
[ -r "$ACL9P_BUILD/guest/initramfs.cpio" ] || die "flaky: no guest (make guest)"

# The flaky tests are the lists' own: every guest test a flaky: entry
# names (host checks left out), and the binaries that hold them.
flaky_globs=$(cat "$ACL9P_TOP"/tests/expected/differences* "$ACL9P_TOP"/tests/expected/xfail.* |
	awk '!/^[[:space:]]*#/ && / flaky:/ && $2 !~ /^hostcheck\./ { print $2 }' | sort -u)
[ -n "$flaky_globs" ] || die "flaky: no flaky: entry in tests/expected"
binaries=$(printf '%s\n' "$flaky_globs" | sed -n 's/^acl9p_\([a-z0-9_]*\)\..*/\1/p' | sort -u)
[ -n "$binaries" ] || die "flaky: the flaky: entries name no acl9p_ binary"
tests_glob="@($(printf '%s\n' "$binaries" | paste -sd '|'))"

configs=()
for c in $(matrix_configs "$set_name"); do
	# shellcheck disable=SC2053 # glob match on purpose
	[[ $c == $filter ]] && configs+=("$c")
done
[ ${#configs[@]} -gt 0 ] || die "flaky: no cell of set '$set_name' matches CELL='$filter'"

rm -rf "$results"
mkdir -p "$results" "$ACL9P_BUILD/logs"
note "flaky: ${#configs[@]} configurations x 2 kernels, $runs rounds of acl9p_$tests_glob each, $jobs at a time"

# A round of both binaries takes 7-10 s in a plain cell under TCG
# (2026-12-06); the whole boot gets a minute a round on top of a start.
timeout=$((120 + 60 * runs))
run_cell() {
	local cell=$1
	if TESTS=$tests_glob "$ACL9P_TOP/scripts/boot.sh" \
		--kernel "$ACL9P_BUILD/kernels/${cell%%.*}.bzImage" --cell "$cell" \
		--timeout "$timeout" --out "$results/$cell" --set "ACL9P_REPEAT=$runs" \
		>"$ACL9P_BUILD/logs/$cell.flaky.log" 2>&1; then
		echo "  $cell: ran in $(sed -n 's/^wall_ms=//p' "$results/$cell/status") ms" >&2
	else
		echo "  $cell: FAILED: $(tail -n 1 "$ACL9P_BUILD/logs/$cell.flaky.log")" >&2
	fi
}

start=$(now_ms)
running=0
for c in "${configs[@]}"; do
	for k in vanilla patched; do
		run_cell "$k.$c" &
		running=$((running + 1))
		if [ $running -ge "$jobs" ]; then
			wait -n || true
			running=$((running - 1))
		fi
	done
done
wait
note "flaky: ran in $(( ($(now_ms) - start) / 1000 )) s"

# Counts: one line per kernel, configuration and test: "K C TEST FAILS
# RUNS", from each cell's nested KTAP (a subtest line indented by four
# spaces under "# selftests: acl9p: BINARY").  A skip is no run.
for c in "${configs[@]}"; do
	for k in vanilla patched; do
		f=$results/$k.$c/ktap.txt
		[ -r "$f" ] || { echo "$k $c (no results) 1 0"; continue; }
		awk -v k="$k" -v c="$c" '
			/^# selftests: acl9p: / { bin = $4; next }
			/^    (not )?ok [0-9]+ / && !/# SKIP/ {
				t = $0; sub(/^    (not )?ok [0-9]+ /, "", t); sub(/ #.*/, "", t)
				t = bin "." t
				runs[t]++
				if ($0 ~ /^    not ok/) fails[t]++
			}
			END { for (t in runs) print k, c, t, fails[t] + 0, runs[t] }
		' "$f"
	done
done | sort -k2,2 -k3,3 -k1,1 >"$results/counts"

# The judge: per (configuration, test), vanilla's and patched's failures
# (scripts/flaky-judge.awk).
awk -v runs="$runs" -v alpha="$alpha" -f "$ACL9P_TOP/scripts/flaky-judge.awk" \
	"$results/counts" | tee "$results/rates.txt"
