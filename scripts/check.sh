#!/bin/bash
# Run the test matrix: the cells of a set of tests/matrix.conf, JOBS
# at a time, then hand the results to acl9p-report, whose last line
# counts them and whose exit status is ours.
#
# Environment: MATRIX (the set, default "default"), KERNELS (kernels of
# kernel/kernels.conf, default those marked run=default), KERNEL (a bzImage
# to test as "custom" instead of the rig's kernels; make turns a name of
# kernel/kernels.conf given as KERNEL= into KERNELS=; ACL9P_KERNEL_LABEL
# names it otherwise: make bite judges a bugged kernel as "patched",
# by the lists of the series), ACL9P_RESULTS (where the cells' results
# go, default build/results), CELL (glob over the
# set's cell names), JOBS, ACL9P_TIMEOUT (seconds per VM, default 300; 1200 for a flavour),
# TESTS (glob over test binaries, passed on to boot.sh and to the
# report, which fails a test of build/tests/manifest that a cell of the
# selected binaries did not report).
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/matrix.sh"
. "$ACL9P_TOP/scripts/kernels.sh"

set_name=${MATRIX:-default}
filter=${CELL:-*}
jobs=${JOBS:-2}
# A set may boot a flavour of the kernels (debug): the same names,
# vanilla and patched, so the same lists judge them, from their own
# bzImages, into their own results.
flavour=$(matrix_flavour "$set_name")
# Its architecture (an "arch" line; x86_64 without one): the same
# kernels built for it, NAME[-FLAVOUR]-ARCH, and its own guest; the
# cells keep their names, the results go apart, the same lists judge.
arch=$(matrix_arch "$set_name")
sfx=${flavour:+-$flavour}$(arch_suffix "$arch")
ACL9P_BOOT_EXTRA=$(matrix_flavour_boot "$set_name")
ACL9P_ARCH=$arch
export ACL9P_BOOT_EXTRA ACL9P_ARCH
# a plain cell takes 6-40 s under TCG, a debug-flavour one 207-1446 s
# (2026-12-04, the whole debug set with acl9p_allocfail's sweeps; the
# slowest vanilla.diod.client.none, which overran an earlier 1200 s)
timeout=300
[ -z "$flavour" ] || timeout=2400
# make fuzz's short run before the matrix: its seed and calls
CHECK_FUZZ_SEED=20261206
CHECK_FUZZ_COUNT=2000
results=${ACL9P_RESULTS:-$ACL9P_BUILD/results$sfx}
# Absolute: servers get paths under it and may run in other directories
# (ninep-proxy starts diod in the cell's directory, where a relative
# diod -L path named nothing and the mount failed with EFAULT).
case $results in /*) ;; *) results=$PWD/$results ;; esac

declare -A kernels=()
order=()
if [ -n "${KERNEL:-}" ]; then
	[ -r "$KERNEL" ] || die "check: KERNEL=$KERNEL not readable"
	[ "$arch" = x86_64 ] || die "check: KERNEL= is an x86_64 kernel; set $set_name is $arch"
	order=("${ACL9P_KERNEL_LABEL:-custom}")
	kernels[${order[0]}]=$(readlink -f "$KERNEL")
else
	# kernel/kernels.conf: KERNELS=, else the kernels marked run=default
	read -r -a order <<<"$(kernels_run | tr '\n' ' ')"
	[ ${#order[@]} -gt 0 ] || die "check: no kernel to run"
	for k in "${order[@]}"; do
		kernels[$k]=$ACL9P_BUILD/kernels/$k$sfx.bzImage
		[ -z "$(kernel_get "$k" image)" ] || [ "$arch" = x86_64 ] ||
			die "check: $k is a distribution's x86_64 image: not a kernel of set $set_name ($arch)"
		[ -r "${kernels[$k]}" ] || die "check: ${kernels[$k]#"$ACL9P_TOP"/} missing (run: make kernels MATRIX=$set_name KERNELS=${order[*]})"
	done
fi

cells=()
all=$(matrix_cells "$set_name" "${order[@]}")
for cell in $all; do
	# shellcheck disable=SC2053 # glob match on purpose
	[[ $cell == $filter ]] && cells+=("$cell")
done
[ ${#cells[@]} -gt 0 ] || die "check: no cell of set '$set_name' matches CELL='$filter'"

# The virtiofs cells' server is built, not installed (make virtiofsd):
# once, before the cells that would race to build it.
for cell in "${cells[@]}"; do
	case $cell in
	*.virtiofs*)
		"$ACL9P_TOP/scripts/virtiofsd-build.sh" || die "check: the virtiofs cells have no server"
		break
		;;
	esac
done

# Another architecture's guest: built here, once, as make guest builds
# x86_64's (a no-op when nothing changed).
if [ "$arch" != x86_64 ]; then
	note "check: the $arch guest"
	"$ACL9P_TOP/scripts/guest-build.sh" "$arch" || die "check: no $arch guest"
fi

# The rig's own tests first: a verdict from a rig that cannot fail is
# worth nothing, so when they fail the matrix does not run.  They boot
# the plain x86_64 vanilla kernel, which a run of a flavour or another
# architecture does not build: without it they are make check's.
rig_tests=${ACL9P_RIG_TESTS:-1}
if [ "$rig_tests" != 0 ] && [ -n "$sfx" ] && [ ! -r "$ACL9P_BUILD/kernels/vanilla.bzImage" ]; then
	note "check: no rig self-tests: they boot build/kernels/vanilla.bzImage, which this run did not build (make check runs them)"
	rig_tests=0
fi
if [ "$rig_tests" != 0 ]; then
	note "check: rig self-tests"
	# They boot the plain x86_64 kernels: a flavour's command line
	# words (the debug flavour's pci=noacpi) are not theirs.
	if ! ACL9P_BOOT_EXTRA= ACL9P_ARCH=x86_64 "$ACL9P_TOP/tests/rig/run.sh" >"$ACL9P_BUILD/logs/rig-tests.log" 2>&1; then
		cat "$ACL9P_BUILD/logs/rig-tests.log"
		echo "rig self-tests failed: the matrix was not run"
		sed -n 's/^rig: \([0-9]*\) passed, \([0-9]*\) failed$/\1 passed, \2 failed, 0 skipped/p' \
			"$ACL9P_BUILD/logs/rig-tests.log"
		exit 1
	fi
	sed 's/^/  /' "$ACL9P_BUILD/logs/rig-tests.log"
fi

# What the series' ACL operations cost on the wire, judged by
# tests/expected/wire-bounds (scripts/wire.sh: 8 short boots, ~50 s):
# traffic the series saved cannot come back unnoticed.  Only for the
# rig's own plain x86_64 kernels, and not in a run narrowed by CELL or
# TESTS.
if [ -z "${KERNEL:-}" ] && [ -z "$sfx" ] && [ "$filter" = '*' ] && [ -z "${TESTS:-}" ]; then
	note "check: 9P requests per ACL operation (make wire)"
	if ! "$ACL9P_TOP/scripts/wire.sh" >"$ACL9P_BUILD/logs/wire.log" 2>&1; then
		cat "$ACL9P_BUILD/logs/wire.log"
		echo "wire bounds failed: the matrix was not run"
		tail -n 1 "$ACL9P_BUILD/logs/wire.log"
		exit 1
	fi
	sed 's/^/  /' "$ACL9P_BUILD/logs/wire.log"
fi

# The client against mutated ACL replies (scripts/fuzz.sh, make fuzz):
# a short run of one fixed seed on the series' kernel, ~30 s, judged
# call by call; a failure names the seed and the reply, which replay
# it with make fuzz.  The same conditions as make wire's.
if [ -z "${KERNEL:-}" ] && [ -z "$sfx" ] && [ "$filter" = '*' ] && [ -z "${TESTS:-}" ] &&
	"$ACL9P_TOP/scripts/series-available.sh"; then
	note "check: mutated ACL replies (make fuzz, seed $CHECK_FUZZ_SEED, $CHECK_FUZZ_COUNT calls)"
	if ! FUZZ_SEED=$CHECK_FUZZ_SEED FUZZ_COUNT=$CHECK_FUZZ_COUNT FUZZ_KERNEL=patched \
		FUZZ_IDS_SORTED=0 FUZZ_TIMEOUT='' FUZZ_RESULTS=$ACL9P_BUILD/results-fuzz-check \
		"$ACL9P_TOP/scripts/fuzz.sh" >"$ACL9P_BUILD/logs/fuzz.log" 2>&1; then
		cat "$ACL9P_BUILD/logs/fuzz.log"
		echo "fuzz failed: the matrix was not run"
		tail -n 1 "$ACL9P_BUILD/logs/fuzz.log"
		exit 1
	fi
	sed 's/^/  /' "$ACL9P_BUILD/logs/fuzz.log"
fi

[ "$filter" = '*' ] && rm -rf "$results"
mkdir -p "$results" "$ACL9P_BUILD/logs"
# What the run asks for, before anything can go wrong with it: the report
# fails a cell of this list that left no results (--cells), and a test of
# the build's manifest that a cell did not report (--manifest, --tests).
printf '%s\n' "${cells[@]}" >"$results/cells.list.tmp"
mv "$results/cells.list.tmp" "$results/cells.list"
note "check: set $set_name, ${#cells[@]} cells, $jobs at a time"

# --trace-9p: the 9P requests of each test (traffic.tsv), from QEMU's
# trace where the server is QEMU's own.  Every such cell: the cost is
# within a cell's noise (2026-12-04, TCG, a qemu-passthrough cell: 28-43
# s of host CPU in 10 runs with and without it), 6 MB of log, gzipped.
# A cell whose guest scales its time limits (an ACL9P_TIMEOUT_SCALE=N
# word of its own, tests/matrix.conf) has its VM's limit scaled too.
run_cell() {
	local cell=$1 limit=${ACL9P_TIMEOUT:-$timeout} w
	matrix_cell "$cell"
	for w in $c_boot; do
		[[ $w != ACL9P_TIMEOUT_SCALE=* ]] || limit=$((limit * ${w#*=}))
	done
	if "$ACL9P_TOP/scripts/boot.sh" --kernel "${kernels[${cell%%.*}]}" \
		--cell "$cell" --timeout "$limit" --out "$results/$cell" \
		--trace-9p >"$ACL9P_BUILD/logs/$cell.boot.log" 2>&1; then
		echo "  $cell: ran in $(sed -n 's/^wall_ms=//p' "$results/$cell/status") ms"
	else
		echo "  $cell: FAILED: $(tail -n 1 "$ACL9P_BUILD/logs/$cell.boot.log")"
	fi
}

start=$(now_ms)
running=0
for cell in "${cells[@]}"; do
	run_cell "$cell" &
	running=$((running + 1))
	if [ $running -ge "$jobs" ]; then
		wait -n || true
		running=$((running - 1))
	fi
done
wait
note "check: matrix ran in $(( ($(now_ms) - start) / 1000 )) s"
# Standard KTAP, as the kernel's own parser reads it (status: ktap_errors).
"$ACL9P_TOP/tests/rig/kunit-parse.sh" "${cells[@]/#/$results/}"

# The comparisons of kernel/kernels.conf, every one: the lists' fails=
# names are checked against them; one whose kernels did not both run
# reports nothing.
compare=()
while read -r a b x; do compare+=(--compare "$a:$b${x:+:$x}"); done < <(kernel_compares)
# A distribution's kernel (judged=) is judged by its source's entries.
while read -r a b; do compare+=(--judge "$a:$b"); done < <(kernel_judges)
exec "$ACL9P_BUILD/report/acl9p-report" --results "$results" \
	--expected "$ACL9P_TOP/tests/expected" --cell-filter "$filter" \
	--cells "$results/cells.list" --manifest "$ACL9P_BUILD/tests/manifest" \
	--tests "${TESTS:-}" --flavour "${flavour:-plain},$arch" "${compare[@]}"
