#!/bin/bash
# make fuzz: the 9p client against ACL replies that ninep-proxy mutates.
#
# Boots each kernel asked for in the cell KERNEL.ninep-proxy.client.none
# (access=client,posixacl, cache=none: the client reads and enforces
# ACLs itself, and every lookup fetches afresh) in fuzz mode: the guest
# program (tests/fuzz/guest.c) makes files with valid ACLs, turns the
# proxy's fuzz mode on (server/README.md: every ACL reply mutated,
# deterministically from the seed, and logged with the bytes sent), and
# makes FUZZ_COUNT calls, each after a marker; then acl9p-fuzzjudge
# (tests/host/fuzzjudge.c) holds every call's outcome against the
# strict reading of the bytes the proxy sent inside it.  A kernel
# report on the console fails the boot (boot.sh, outside a check run).
#
# Variables:
#   FUZZ_SEED     0-4294967295 (default 1): the proxy's mutations and the
#                 guest's calls; the same seed makes the same run
#   FUZZ_COUNT    calls the guest makes (default 300)
#   FUZZ_KERNEL   the kernels, blank- or comma-separated (default
#                 patched; vanilla when the series lists no patch):
#                 patched, vanilla, debug (the debug flavour's patched
#                 kernel, build/kernels/patched-debug.bzImage, booted
#                 with the flavour's command line), vanilla-debug, or a
#                 bzImage's path (labelled custom)
#   FUZZ_TIMEOUT  wall-clock limit of each boot in seconds (default
#                 60 + COUNT / 10: 100 ms a call, ten times an idle
#                 machine's; ten times that on the debug flavour)
#   FUZZ_IDS_SORTED=1  judge named ids unsorted or repeated as invalid
#                 (posix_acl_valid() takes them: see fuzzjudge.c)
#   FUZZ_RESULTS  where the boots' results go (default build/results-fuzz)
#
# Per boot, in FUZZ_RESULTS/NAME.ninep-proxy.client.none/: ninep-proxy.log
# (a "fuzz seed=..." line per reply), ktap.txt (the guest's lines),
# console.log, kernel-reports, status, judge.txt (every failure).
# Prints per boot its failures (the first 20), one summary line
# (replies fuzzed, calls judged, failures, kernel reports, replies
# fuzzed per minute of the calls), and as the last line "N passed, N
# failed, 0 skipped": calls that kept the invariant, calls that did not
# plus boots without a verdict or with a kernel report.  Exit status 1
# on any failure.
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/matrix.sh"

seed=${FUZZ_SEED:-1}
count=${FUZZ_COUNT:-300}
case $seed in '' | *[!0-9]*) die "fuzz: FUZZ_SEED=$seed is not a number 0-4294967295" ;; esac
case $count in '' | *[!0-9]*) die "fuzz: FUZZ_COUNT=$count is not a number" ;; esac
if [ ${#seed} -gt 10 ] || [ "$seed" -gt 4294967295 ]; then
	die "fuzz: FUZZ_SEED=$seed is over 4294967295"
fi
if [ -n "${FUZZ_KERNEL:-}" ]; then
	kernels=${FUZZ_KERNEL//,/ }
elif "$ACL9P_TOP/scripts/series-available.sh"; then
	kernels=patched
else
	kernels=vanilla
fi
results=${FUZZ_RESULTS:-$ACL9P_BUILD/results-fuzz}
case $results in /*) ;; *) results=$PWD/$results ;; esac
judge=$ACL9P_BUILD/tests/acl9p-fuzzjudge
[ -x "$judge" ] || die "fuzz: ${judge#"$ACL9P_TOP"/} missing (run: make tools)"
judge_args=()
[ "${FUZZ_IDS_SORTED:-0}" = 0 ] || judge_args=(--ids-sorted)
mkdir -p "$results" "$ACL9P_BUILD/logs"

pass=0 fail=0
for k in $kernels; do
	extra='' scale=1
	case $k in
	patched | vanilla) image=$ACL9P_BUILD/kernels/$k.bzImage label=$k name=$k ;;
	debug | patched-debug | vanilla-debug)
		[ "$k" = debug ] && k=patched-debug
		image=$ACL9P_BUILD/kernels/$k.bzImage label=${k%-debug} name=$k scale=10
		extra=$(matrix_flavour_boot debug) ;;
	*/*) image=$k label=custom name=custom ;;
	*) die "fuzz: FUZZ_KERNEL word '$k' is none of patched, vanilla, debug, vanilla-debug or a path" ;;
	esac
	cell=$label.ninep-proxy.client.none
	out=$results/$name.ninep-proxy.client.none
	if [ ! -r "$image" ]; then
		case $name in
		*-debug) how="make kernels MATRIX=debug" ;;
		vanilla) how="make kernel-vanilla" ;;
		*) how="make kernel" ;;
		esac
		echo "fuzz: $name: ${image#"$ACL9P_TOP"/} missing (run: $how)"
		fail=$((fail + 1))
		continue
	fi
	timeout=${FUZZ_TIMEOUT:-$(( (60 + count / 10) * scale ))}
	log=$ACL9P_BUILD/logs/fuzz-$name.boot.log
	start=$(now_ms)
	boot_rc=0
	ACL9P_BOOT_EXTRA=$extra "$ACL9P_TOP/scripts/boot.sh" --kernel "$image" --cell "$cell" \
		--mode fuzz --out "$out" --timeout "$timeout" \
		--set ACL9P_FUZZ_SEED="$seed" --set ACL9P_FUZZ_COUNT="$count" \
		--set ACL9P_FUZZ_LIMIT="$((timeout > 60 ? timeout - 30 : timeout))" \
		>"$log" 2>&1 || boot_rc=$?
	wall=$(( $(now_ms) - start ))
	nreports=$(wc -l <"$out/kernel-reports" 2>/dev/null || echo 0)
	judge_rc=0
	"$judge" "${judge_args[@]}" "$out/ninep-proxy.log" "$out/ktap.txt" \
		>"$out/judge.txt" 2>&1 || judge_rc=$?
	grep '^FAIL' "$out/judge.txt" | head -n 20 || true
	nfail=$(grep -c '^FAIL' "$out/judge.txt" || true)
	[ "$nfail" -le 20 ] || echo "  ... $((nfail - 20)) more in ${out#"$ACL9P_TOP"/}/judge.txt"
	while read -r r; do echo "  kernel report: $r"; done <"$out/kernel-reports"
	last=$(tail -n 1 "$out/judge.txt")
	if [ $judge_rc -le 1 ] && [[ $last == replies=* ]]; then
		read -r replies calls failed eio ms <<<"$(echo "$last" |
			sed 's/replies=\([0-9]*\) calls=\([0-9]*\) failed=\([0-9]*\) eio=\([0-9]*\) ms=\([0-9-]*\)/\1 \2 \3 \4 \5/')"
		rate=-
		[ "$ms" -le 0 ] || rate=$(( replies * 60000 / ms ))
		echo "fuzz: $name seed $seed: $replies replies fuzzed, $calls calls judged ($eio EIO), $failed failed, $nreports kernel reports; boot $((wall / 1000)) s, calls $((ms / 1000)) s: $rate replies fuzzed/min"
		pass=$((pass + calls - failed))
		fail=$((fail + failed))
	else
		echo "fuzz: $name seed $seed: no verdict: $(tail -n 1 "$out/judge.txt"); boot: $(sed -n 's/^reason=//p' "$out/status" 2>/dev/null) (${log#"$ACL9P_TOP"/})"
		fail=$((fail + 1))
	fi
	if [ "$nreports" -gt 0 ] || { [ $boot_rc -ne 0 ] && [ $judge_rc -le 1 ]; }; then
		echo "fuzz: $name: the boot failed: $(sed -n 's/^reason=//p' "$out/status" 2>/dev/null)"
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed, 0 skipped"
[ $fail -eq 0 ]
