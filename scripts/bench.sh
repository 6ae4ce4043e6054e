#!/bin/bash
# make bench: what POSIX ACL operations cost over 9p, patched against
# vanilla, as a report for a pull request (build/report/bench.md and its
# plots).
#
#  1. Builds what it boots, timed, since the rig's own costs are part of
#     the report: both kernels (scripts/kernel-build.sh, which also
#     records each build in build/logs/kernel-NAME.time), the patched one
#     again with nothing changed, and once more after touching
#     fs/9p/acl.c; then make guest.
#  2. Counts the 9P requests of each operation: one boot per cell of the
#     bench set (tests/matrix.conf) and kernel, acl9p-bench
#     (tests/bench/bench.c) in count mode, each operation once after a
#     marker, split as make wire splits them: QEMU's trace of its server
#     (acl9p-p9trace), or for diod the same diod behind ninep-proxy,
#     which counts by the same markers.  Apart from the timed boots: the
#     trace costs time on every request.
#  3. Times them: ROUNDS rounds; in each, every cell boots both
#     kernels back to back, one guest at a time (a second guest would
#     take the host core the measured one needs), so the kernels
#     alternate boot by boot and a drift of the machine's speed hits
#     both alike.  Odd rounds boot vanilla first, even rounds the
#     series: whatever the first boot of a pair leaves behind (the
#     host's page cache of the export, QEMU's binary in memory) favours
#     neither kernel over an even number of rounds.
#  4. scripts/bench-stats.awk: medians, ranges and patched/vanilla
#     ratios; scripts/bench-report.sh: the report and its plots.
#
# Variables (environment or make's command line):
#   ROUNDS              timed rounds (4: an even number, see 3.)
#   BENCH_SET           the set of tests/matrix.conf (bench)
#   BENCH_ITERS         timed iterations of a single operation (100)
#   BENCH_WARMUP        untimed iterations before them (10)
#   BENCH_NAMED         ACL sizes, named-user entries (1,10,50,100,250)
#   BENCH_WALK          directory sizes of create/walk (100,1000; 10000
#                       is possible: the report prices it)
#   BENCH_WALK_ENTRIES  entries each walk size reads in all (1000)
#   BENCH_LOCAL_X       iterations times this on the tmpfs floor (10)
#   BENCH_TIMEOUT       wall-clock limit of one boot, seconds (300)
#   BENCH_ICOUNT_BOOTS  boots of each kernel counting the floor's guest
#                       instructions under QEMU's -icount (2; 0: none)
#   BENCH_BUILD=0       boot what is built: no builds, no rig timings
#                       (to re-run the measurements alone)
#
# Files, replaced by each run: build/bench/ host.tsv, rig.tsv, boots.tsv,
# results.tsv, icount.tsv (results.tsv's columns; ns are instructions),
# counts.tsv, counts-types.tsv, stats.tsv, ratios.tsv, and raw/count/CELL/,
# raw/rN/CELL/, raw/icountN/CELL/: each boot's files (ktap.txt with the
# guest's lines, console.log, status, the trace or the proxy's counts,
# cmd: the boot.sh command as run).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/matrix.sh
. "$ACL9P_TOP/scripts/matrix.sh"

t_start=$(now_ms)
rounds=${ROUNDS:-4}
set_name=${BENCH_SET:-bench}
timeout=${BENCH_TIMEOUT:-300}
build=${BENCH_BUILD:-1}
out=$ACL9P_BUILD/bench
raw=$out/raw
p9trace=$ACL9P_BUILD/tests/acl9p-p9trace

case $rounds in '' | *[!0-9]* | 0) die "bench: ROUNDS=$rounds is not a number of rounds" ;; esac
case $timeout in '' | *[!0-9]*) die "bench: BENCH_TIMEOUT=$timeout is not seconds" ;; esac
[ "$timeout" -ge 60 ] || die "bench: BENCH_TIMEOUT=$timeout: at least 60 s"
[ -z "$(matrix_flavour "$set_name")" ] ||
	die "bench: set $set_name boots a kernel flavour; make bench compares the plain kernels"
"$ACL9P_TOP/scripts/series-available.sh" ||
	die "bench: kernel/patches/series lists no patch: nothing to compare with vanilla"
mapfile -t configs < <(matrix_configs "$set_name")
[ ${#configs[@]} -gt 0 ] || die "bench: set $set_name of tests/matrix.conf is empty"

# The guest's parameters: only those given, acl9p-bench has the defaults
# (and prints every value it used, which the report shows).
guest_params=()
for v in ITERS WARMUP NAMED WALK WALK_ENTRIES LOCAL_X; do
	n=BENCH_$v
	[ -z "${!n:-}" ] || guest_params+=(--set "ACL9P_BENCH_$v=${!n}")
done

rm -rf "$out"
mkdir -p "$raw" "$ACL9P_BUILD/logs"
# what the invocation was, for the report: make bench and the variables set
invocation="make bench"
for v in ROUNDS BENCH_SET BENCH_ITERS BENCH_WARMUP BENCH_NAMED BENCH_WALK \
	BENCH_WALK_ENTRIES BENCH_LOCAL_X BENCH_TIMEOUT BENCH_BUILD BENCH_ICOUNT_BOOTS; do
	[ -z "${!v:-}" ] || invocation="$invocation $v=${!v}"
done

# step NAME NOTE COMMAND...: run and time one step of the build into
# rig.tsv (NAME<TAB>MS<TAB>NOTE); a NOTE of "-" is the kind of kernel
# build that kernel-build.sh recorded (clean or rebuild).
step() {
	local name=$1 what=$2 t0 ms
	shift 2
	t0=$(now_ms)
	"$@"
	ms=$(( $(now_ms) - t0 ))
	[ "$what" != - ] ||
		what=$(tail -n 1 "$ACL9P_BUILD/logs/kernel-${name#kernel-}.time" | awk '{ print $3 }')
	printf '%s\t%s\t%s\n' "$name" "$ms" "$what" >>"$out/rig.tsv"
}

: >"$out/rig.tsv"
if [ "$build" != 0 ]; then
	echo "bench: building (timed: the report's section on the rig)"
	step deps "install what is missing" "$ACL9P_TOP/scripts/deps.sh"
	step kernel-vanilla - "$ACL9P_TOP/scripts/kernel-build.sh" vanilla
	step kernel-patched - "$ACL9P_TOP/scripts/kernel-build.sh" patched
	step kernel-noop "scripts/kernel-build.sh patched, nothing changed" \
		"$ACL9P_TOP/scripts/kernel-build.sh" patched
	touch "$ACL9P_BUILD/linux/patched/fs/9p/acl.c"
	step kernel-touch "the same after touch build/linux/patched/fs/9p/acl.c" \
		"$ACL9P_TOP/scripts/kernel-build.sh" patched
	what="incremental (build/guest/initramfs.cpio was there)"
	[ -e "$ACL9P_BUILD/guest/initramfs.cpio" ] || what="from nothing (no build/guest/initramfs.cpio)"
	step guest "$what" make -s --no-print-directory -C "$ACL9P_TOP" guest
fi
for f in "$ACL9P_BUILD/kernels/vanilla.bzImage" "$ACL9P_BUILD/kernels/patched.bzImage" \
	"$ACL9P_BUILD/guest/initramfs.cpio" "$p9trace"; do
	[ -r "$f" ] || die "bench: ${f#"$ACL9P_TOP"/} missing (run: make kernels guest)"
done

# The machine, as read now (host.tsv: key<TAB>value).  The accelerator
# is what boot.sh will give QEMU: kvm-probe.sh's verdict.
{
	printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'nproc\t%s\n' "$(nproc)"
	printf 'cpu\t%s\n' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | sort | uniq -c |
		awk '{ n = $1; $1 = ""; printf "%s%s x%s", s, substr($0, 2), n; s = ", " }')"
	printf 'memory\t%s\n' "$(awk '$1 == "MemTotal:" { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
	printf 'host_kernel\t%s\n' "$(uname -sr)"
	printf 'os\t%s\n' "$(. /etc/os-release && echo "${PRETTY_NAME:-$ID}")"
	printf 'qemu\t%s\n' "$(qemu-system-x86_64 --version | head -n 1)"
	printf 'accel\t%s\n' "$("$ACL9P_TOP/scripts/kvm-probe.sh" "$ACL9P_BUILD/kernels/vanilla.bzImage" \
		"$ACL9P_BUILD/guest/initramfs.cpio")"
	printf 'tcg_thread\t%s\n' "${ACL9P_TCG_THREAD:-single}"
	printf 'smp\t%s\n' "${ACL9P_SMP:-2}"
	printf 'load_start\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'commit\t%s\n' "$(git -C "$ACL9P_TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)"
	git -C "$ACL9P_TOP" diff --quiet HEAD -- 2>/dev/null || printf 'dirty\tyes\n'
	printf 'patches\t%s\n' "$(sed 's/#.*//' "$ACL9P_TOP/kernel/patches/series" | grep -c '[^[:space:]]')"
	printf 'invocation\t%s\n' "$invocation"
	printf 'rounds\t%s\n' "$rounds"
	printf 'set\t%s\n' "$set_name"
	printf 'configs\t%s\n' "${configs[*]}"
} >"$out/host.tsv"

printf 'kind\tround\tkernel\tconfig\twall_ms\tbench_ms\tstart_ms\tcpu_ms\tothers\n' >"$out/boots.tsv"
results_header=$(printf 'round\tkernel\tconfig\tfs\top\tsize\titers\tns\tns_op_median\tbatches')
echo "$results_header" >"$out/results.tsv"
printf 'kernel\tconfig\top\tsize\ttype\tn\n' >"$out/counts-types.tsv"

# CPU time the whole machine spent busy, in ms (/proc/stat: user, nice,
# system, irq, softirq, steal)
hz=$(getconf CLK_TCK)
cpu_busy_ms() {
	awk -v hz="$hz" '$1 == "cpu" { printf "%d\n", ($2 + $3 + $4 + $7 + $8 + $9) * 1000 / hz }' /proc/stat
}

# bench_boot KIND ROUND CELL DIR [boot.sh options]: one guest of
# acl9p-bench, checked: a boot that did not end with the program's
# "bench-done" and "bench-exit 0" ends the run (its numbers would be
# partial), with the program's own error line when it printed one.
# boots.tsv gets its times and the contention it met: cpu_ms is the CPU
# time of the boot itself (QEMU, its server threads, boot.sh), others
# what the rest of the machine used meanwhile, in cores.
bench_boot() {
	local kind=$1 round=$2 cell=$3 dir=$4 busy0 busy1 rc=0 why wall cpu w
	shift 4
	local -a cmd=(scripts/boot.sh --kernel "${ACL9P_BUILD#"$ACL9P_TOP"/}/kernels/${cell%%.*}.bzImage"
		--cell "$cell" --mode bench --timeout "$timeout" --out "${dir#"$ACL9P_TOP"/}"
		--set "ACL9P_BENCH_LIMIT=$((timeout - 20))" "${guest_params[@]}" "$@")
	local TIMEFORMAT='%3U %3S' t0 el
	t0=$(now_ms)
	busy0=$(cpu_busy_ms)
	{ time (cd "$ACL9P_TOP" && "${cmd[@]}" >"$dir.log" 2>&1); } 2>"$dir.cpu" || rc=$?
	busy1=$(cpu_busy_ms)
	el=$(( $(now_ms) - t0 ))
	# the command as one can paste it (quoted only where the shell needs it)
	for w in "${cmd[@]}"; do
		if [[ $w =~ ^[][A-Za-z0-9_./=,:+*-]+$ ]]; then printf '%s ' "$w"; else printf '%q ' "$w"; fi
	done >"$dir/cmd" 2>/dev/null || true
	if [ $rc -ne 0 ] || ! grep -qx 'bench-exit 0' "$dir/ktap.txt" 2>/dev/null ||
		! grep -q '^bench-done ' "$dir/ktap.txt"; then
		why=$(grep -m 1 '^bench-error' "$dir/ktap.txt" 2>/dev/null ||
			sed -n 's/^reason=//p' "$dir/status" 2>/dev/null || true)
		[ -n "$why" ] || why=$(tail -n 1 "$dir.log")
		die "bench: $cell ($kind boot): ${why:-no reason}; files: ${dir#"$ACL9P_TOP"/}"
	fi
	wall=$(sed -n 's/^wall_ms=//p' "$dir/status")
	cpu=$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$dir.cpu")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$round" "${cell%%.*}" "${cell#*.}" \
		"$wall" "$(awk '$1 == "bench-done" { print $2 }' "$dir/ktap.txt")" \
		"$(awk '$1 == "bench-start" { print $2 }' "$dir/ktap.txt")" "$cpu" \
		"$(awk -v b="$((busy1 - busy0))" -v c="$cpu" -v w="$el" \
			'BEGIN { o = w > 0 ? (b - c) / w : 0; printf "%.2f", o < 0 ? 0 : o }')" >>"$out/boots.tsv"
}

# count_boot KERNEL CONFIG: the requests of each operation into
# counts-types.tsv.  QEMU's own servers log them (--trace-9p); diod is
# counted as the same diod behind ninep-proxy; other servers have no
# counter (the report says so).
count_boot() {
	local kernel=$1 config=$2 server cell dir
	server=${config%%.*}
	case $server in
	qemu-*) cell=$kernel.$config ;;
	diod) cell=$kernel.ninep-proxy.${config#*.} ;;
	*) return 0 ;;
	esac
	dir=$raw/count/$kernel.$config
	mkdir -p "${dir%/*}"
	if [ "$cell" = "$kernel.$config" ]; then
		echo "bench: counting $cell"
	else
		echo "bench: counting $kernel.$config as $cell"
	fi
	if [ "$server" = diod ]; then
		bench_boot count 0 "$cell" "$dir" --set ACL9P_BENCH_COUNT=1
		# the proxy's buckets are the markers' numbers: N<TAB>Ttype<TAB>C
		awk -F'\t' '$1 ~ /^[0-9]+$/ { t = $2; sub(/^T/, "", t)
			print $1 "\t" tolower(t) "\t" $3 }' "$dir/ninep-proxy.counts" >"$dir/slices.tsv"
	else
		bench_boot count 0 "$cell" "$dir" --set ACL9P_BENCH_COUNT=1 --trace-9p
		"$p9trace" "$dir/9p-trace.log" >"$dir/slices.tsv" ||
			die "bench: acl9p-p9trace could not split ${dir#"$ACL9P_TOP"/}/9p-trace.log"
	fi
	# slice N is the operation of the guest's "op N OP SIZE"; an
	# operation that sent nothing has no line, and gets a total of 0
	awk -v k="$kernel" -v c="$config" '
		NR == FNR { if ($1 == "op") { op[$2] = $3 "\t" $4; n++ } next }
		($1 in op) { print k "\t" c "\t" op[$1] "\t" $2 "\t" $3 }
		END { if (!n) exit 1 }' "$dir/ktap.txt" FS='\t' "$dir/slices.tsv" \
		>>"$out/counts-types.tsv" ||
		die "bench: no \"op\" lines in ${dir#"$ACL9P_TOP"/}/ktap.txt"
	awk -v k="$kernel" -v c="$config" '$1 == "op" { print k "\t" c "\t" $3 "\t" $4 "\t-\t0" }' \
		"$dir/ktap.txt" >>"$out/counts-types.tsv"
}

# measured_boot KIND ROUND KERNEL CONFIG TSV LABEL [boot.sh options]: one
# boot of acl9p-bench into raw/rROUND/ (KIND time) or raw/icountROUND/,
# its "bench" lines appended to TSV as rows of results.tsv's columns,
# and a progress line with the boot's wall time.
measured_boot() {
	local kind=$1 round=$2 kernel=$3 config=$4 tsv=$5 label=$6 dir
	shift 6
	dir=$raw/${kind/#time/r}$round/$kernel.$config
	mkdir -p "${dir%/*}"
	bench_boot "$kind" "$round" "$kernel.$config" "$dir" "$@"
	awk -v r="$round" -v k="$kernel" -v c="$config" -v OFS='\t' \
		'$1 == "bench" { print r, k, c, $2, $3, $4, $5, $6, $7, $8 }' \
		"$dir/ktap.txt" >>"$tsv"
	echo "bench: $label: $(tail -n 1 "$out/boots.tsv" | awk -F'\t' '{ printf "%.1f s", $5 / 1000 }')"
}

echo "bench: ${#configs[@]} cells x 2 kernels; request counts, then $rounds timed rounds, one guest at a time"
for config in "${configs[@]}"; do
	for kernel in vanilla patched; do
		count_boot "$kernel" "$config"
	done
done

# The floor in guest instructions: QEMU's -icount makes the guest's
# clock count the instructions it executes (shift=0: 1 ns each), so the
# tmpfs loops, which never wait, time themselves in instructions, the
# same on every boot whatever the host's speed (which under TCG differs
# by up to 1.67x from one boot to the next).  The share's loops wait
# for the server, and an idle guest's clock jumps to its next timer:
# only the floor is run (ACL9P_BENCH_SHARE=0).  Two boots of each kernel show
# how exact the count is.  One CPU: QEMU 7.2 hangs bringing up a second
# one under -icount.  TCG only (KVM has no -icount).
icount_boots=${BENCH_ICOUNT_BOOTS:-2}
case $icount_boots in '' | *[!0-9]*) die "bench: BENCH_ICOUNT_BOOTS=$icount_boots is not a number" ;; esac
echo "$results_header" >"$out/icount.tsv"
case $(awk -F'\t' '$1 == "accel" { print $2 }' "$out/host.tsv") in
*tcg*) ;;
*) icount_boots=0 ;;
esac
for round in $(seq "$icount_boots"); do
	for kernel in vanilla patched; do
		measured_boot icount "$round" "$kernel" "${configs[0]}" "$out/icount.tsv" \
			"instructions $round/$icount_boots $kernel" \
			--icount shift=0,sleep=off --smp 1 --set ACL9P_BENCH_SHARE=0
	done
done

for round in $(seq "$rounds"); do
	order="vanilla patched"
	[ $((round % 2)) = 1 ] || order="patched vanilla"
	for config in "${configs[@]}"; do
		for kernel in $order; do
			measured_boot time "$round" "$kernel" "$config" "$out/results.tsv" \
				"round $round/$rounds $kernel.$config"
		done
	done
done
printf 'load_end\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/host.tsv"

# requests per operation: the total of every type (the "-" lines add 0)
awk -F'\t' -v OFS='\t' 'NR > 1 { key = $1 OFS $2 OFS $3 OFS $4
		if (!(key in n)) order[++m] = key
		n[key] += $6 }
	END { print "kernel", "config", "op", "size", "requests"
		for (i = 1; i <= m; i++) print order[i], n[order[i]] }' \
	"$out/counts-types.tsv" >"$out/counts.tsv"
# the tmpfs floor is the same in every cell: its rows merge them (config "all")
for what in stats ratios; do
	awk -f "$ACL9P_TOP/scripts/bench-stats.awk" -v what=$what -v floor=tmpfs \
		"$out/results.tsv" >"$out/$what.tsv"
done
printf 'bench\t%s\t%s\n' "$(( $(now_ms) - t_start ))" "the whole of this run, until the report" >>"$out/rig.tsv"
"$ACL9P_TOP/scripts/bench-report.sh"
total=$(( ($(now_ms) - t_start) / 1000 ))
echo "bench: report: ${ACL9P_BUILD#"$ACL9P_TOP"/}/report/bench.md; total $((total / 60)) min $((total % 60)) s"
