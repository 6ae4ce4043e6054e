#!/bin/bash
# The report of make bench: build/report/bench.md and its plots
# (build/report/bench-*.png, their data in build/report/bench-data/),
# from the files scripts/bench.sh left in build/bench/ (it runs this
# last; run it again to remake the report from the same files).  Every
# figure is read or computed from those files and build/logs/: nothing
# here is a number typed in.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

in=$ACL9P_BUILD/bench
rep=$ACL9P_BUILD/report
md=$rep/bench.md
data=$rep/bench-data
for f in host.tsv rig.tsv boots.tsv stats.tsv ratios.tsv counts.tsv counts-types.tsv; do
	[ -r "$in/$f" ] || die "bench-report: ${in#"$ACL9P_TOP"/}/$f missing (run: make bench)"
done
command -v gnuplot >/dev/null || die "bench-report: gnuplot missing (run: make deps)"
rm -rf "$data" "$rep"/bench-*.png
mkdir -p "$data"

host() { awk -F'\t' -v k="$1" '$1 == k { sub(/^[^\t]*\t/, ""); print; exit }' "$in/host.tsv"; }
mapfile -t configs < <(host configs | tr ' ' '\n')
rounds=$(host rounds)
# the guest program's parameters and the guest, as the first timed boot printed them
first=$in/raw/r1/vanilla.${configs[0]}/ktap.txt
param() { awk -v k="$1" '$1 == "bench-param" && $2 == k { print $3; exit }' "$2"; }
p() { param "$1" "$first"; }
walks=$(p ACL9P_BENCH_WALK)
named=$(p ACL9P_BENCH_NAMED)

# The tables, one awk program over the result files: L holds the loading
# and the formatting, each table adds its own BEGIN.
# shellcheck disable=SC2016 # awk's $ in single quotes
L='
function load(f,    line, a) {
	while ((getline line < f) > 0) {
		split(line, a, "\t")
		if (f ~ /stats.tsv$/) {
			S[a[1], a[2], a[3], a[4], a[5]] = a[7]
			LO[a[1], a[2], a[3], a[4], a[5]] = a[8]
			HI[a[1], a[2], a[3], a[4], a[5]] = a[9]
		} else if (f ~ /ratios.tsv$/) {
			R[a[1], a[2], a[3], a[4]] = a[6]
			RLO[a[1], a[2], a[3], a[4]] = a[7]
			RHI[a[1], a[2], a[3], a[4]] = a[8]
		} else if (f ~ /counts.tsv$/) {
			C[a[1], a[2], a[3], a[4]] = a[5]
		}
	}
	close(f)
}
function num(v) {
	if (v == "") return "-"
	if (v >= 100) return sprintf("%.0f", v)
	if (v >= 10) return sprintf("%.1f", v)
	if (v >= 1) return sprintf("%.2f", v)
	return sprintf("%.3f", v)
}
# ops/s: median (min-max) over the rounds
function ops(c, fs, op, sz, k) {
	if (!((c, fs, op, sz, k) in S)) return "-"
	return num(S[c, fs, op, sz, k]) " (" num(LO[c, fs, op, sz, k]) "–" num(HI[c, fs, op, sz, k]) ")"
}
# time per operation in unit u (1e3: ms, 1e6: us), the median and its range
function per(c, fs, op, sz, k, u) {
	if (!((c, fs, op, sz, k) in S)) return "-"
	return num(u / S[c, fs, op, sz, k]) " (" num(u / HI[c, fs, op, sz, k]) "–" num(u / LO[c, fs, op, sz, k]) ")"
}
function ratio(c, fs, op, sz) {
	if (!((c, fs, op, sz) in R)) return "-"
	return sprintf("**%.2f** (%.2f–%.2f)", R[c, fs, op, sz], RLO[c, fs, op, sz], RHI[c, fs, op, sz])
}
function req(c, op, sz,    v, p) {
	v = ((("vanilla", c, op, sz) in C) ? C["vanilla", c, op, sz] : "-")
	p = ((("patched", c, op, sz) in C) ? C["patched", c, op, sz] : "-")
	return v " → " p
}
BEGIN {
	FS = "\t"
	load(dir "/stats.tsv"); load(dir "/ratios.tsv"); load(dir "/counts.tsv")
	nw = split(walks, W, ","); nn = split(named, N, ",")
	# the walk of the main table: 1,000 files if measured, else the largest
	wm = W[1]; for (i = 1; i <= nw; i++) if (W[i] == 1000 || (wm != 1000 && W[i] > wm)) wm = W[i]
	# count mode walks the smallest directory
	wc = W[1]; for (i = 1; i <= nw; i++) if (W[i] < wc) wc = W[i]
	NOPS = split("getxattr setxattr chmod create unlink walk lswalk", OPS, " ")
	SZ["getxattr"] = SZ["setxattr"] = SZ["chmod"] = 5
	SZ["create"] = SZ["walk"] = SZ["lswalk"] = wm; SZ["unlink"] = W[1]
	CSZ["getxattr"] = CSZ["setxattr"] = CSZ["chmod"] = 5
	CSZ["create"] = CSZ["unlink"] = 1; CSZ["walk"] = CSZ["lswalk"] = wc
	LABEL["getxattr"] = "getxattr, 5-entry access ACL (size probe + read)"
	LABEL["setxattr"] = "setxattr, 5-entry access ACL"
	LABEL["chmod"] = "chmod, file with a 5-entry ACL"
	LABEL["create"] = "create under a 5-entry default ACL (" wm " files)"
	LABEL["unlink"] = "unlink (" W[1] " files)"
	LABEL["walk"] = "getfacl -R walk of " wm " files (walks/s)"
	LABEL["lswalk"] = "find -ls walk of " wm " files, no ACL read (walks/s)"
	CLABEL["create"] = "create (one file)"
	CLABEL["unlink"] = "unlink (one file)"
	CLABEL["walk"] = "getfacl -R walk of " wc " files"
	CLABEL["lswalk"] = "find -ls walk of " wc " files"
}
'
# The floor in guest instructions (icount.tsv, bench.sh's -icount boots):
# per operation and size, each kernel's instructions per operation
# (exact when its boots agree, else the range) and vanilla over patched
# (above 1: the series executes fewer).
icount_section() {
	local n
	n=$(awk -F'\t' 'NR > 1 { b[$1 FS $2] } END { print length(b) }' "$in/icount.tsv" 2>/dev/null || echo 0)
	echo "## The floor in guest instructions"
	echo
	if [ "${n:-0}" = 0 ]; then
		echo "Not measured: QEMU's \`-icount\` needs TCG (the accelerator was $(host accel)), or BENCH_ICOUNT_BOOTS=0."
		echo
		return 0
	fi
	# how far apart the timed boots ran: the floor's getxattr, slowest over fastest
	spread=$(awk -F'\t' 'NR > 1 && $4 == "tmpfs" && $5 == "getxattr" && $6 == 5 {
		if (lo == "" || $9 < lo) lo = $9; if ($9 > hi) hi = $9 }
		END { if (lo > 0) printf "%.2f", hi / lo }' "$in/results.tsv")
	echo "Under TCG the same guest work took up to ${spread:-?} times as long in one timed boot as in another (the floor's getxattr, slowest boot over fastest, both kernels alike), which the timed figures above carry as spread. Here the floor is counted instead of timed: in $n boots (\`--icount shift=0,sleep=off --smp 1\`, the tmpfs only: \`ACL9P_BENCH_SHARE=0\`) the guest's clock advanced one nanosecond per instruction it executed, so each operation's median batch is its guest instructions, interrupts taken meanwhile included, whatever the host's speed. One CPU: QEMU 7.2 hangs bringing up a second under \`-icount\`. The share is not counted this way: its operations wait for the server, and an idle guest's clock jumps to its next timer."
	echo
	awk -F'\t' '
	NR == 1 { next }
	$4 == "tmpfs" {
		key = $5 FS $6
		if (!(key in seen)) { seen[key]; keys[++nk] = key }
		k = key FS $2
		if (!(k in lo) || $9 < lo[k]) lo[k] = $9
		if (!(k in hi) || $9 > hi[k]) hi[k] = $9
		sum[k] += $9; cnt[k]++
	}
	function show(k) {
		if (!(k in lo)) return "-"
		return lo[k] == hi[k] ? lo[k] : lo[k] "–" hi[k]
	}
	END {
		print "| operation | entries or files | vanilla instructions | patched instructions | vanilla/patched |"
		print "| --- | ---: | ---: | ---: | ---: |"
		for (i = 1; i <= nk; i++) {
			split(keys[i], a, FS)
			v = keys[i] FS "vanilla"; p = keys[i] FS "patched"
			r = (cnt[v] && cnt[p]) ? sprintf("**%.3f**", (sum[v] / cnt[v]) / (sum[p] / cnt[p])) : "-"
			printf "| %s | %s | %s | %s | %s |\n", a[1], a[2], show(v), show(p), r
		}
	}' "$in/icount.tsv"
	echo
}
total_ms=$(awk -F'\t' '$1 == "bench" { print $2 }' "$in/rig.tsv")
tab() {
	awk -v dir="$in" -v walks="$walks" -v named="$named" -v rounds="$rounds" \
		-v total_ms="${total_ms:-0}" -v config="${2:-}" "$L$1"
}

# --- plot data: one file per cell, tab-separated, labels first ---
for c in "${configs[@]}"; do
	tab '
	BEGIN {
		for (i = 1; i <= NOPS; i++) {
			o = OPS[i]; s = SZ[o]; lab = o (o == "create" || o ~ /walk$/ || o == "unlink" ? " " s : "")
			printf "%s", lab
			for (k = 1; k <= 2; k++) {
				kk = k == 1 ? "vanilla" : "patched"
				printf "\t%s\t%s\t%s", S[config, "share", o, s, kk], LO[config, "share", o, s, kk], HI[config, "share", o, s, kk]
			}
			printf "\t%s\t%s\t%s", R[config, "share", o, s], RLO[config, "share", o, s], RHI[config, "share", o, s]
			cs = CSZ[o]
			printf "\t%s\t%s\n", C["vanilla", config, o, cs], C["patched", config, o, cs]
		}
	}' "$c" >"$data/main.$c.tsv"
	# requests of one operation each: a walk's per entry (of the walk counted)
	tab '
	BEGIN {
		for (i = 1; i <= NOPS; i++) {
			o = OPS[i]; cs = CSZ[o]; d = o ~ /walk$/ ? cs + 1 : 1
			v = C["vanilla", config, o, cs]; q = C["patched", config, o, cs]
			printf "%s\t%s\t%s\n", o ~ /walk$/ ? o ", per entry" : o, v == "" ? "" : v / d, q == "" ? "" : q / d
		}
	}' "$c" >"$data/requests.$c.tsv"
	# ACL size: entries, then us per getxattr and setxattr (median, fast, slow) per kernel
	tab '
	BEGIN {
		for (i = 1; i <= nn; i++) {
			e = N[i] + 4
			printf "%d", e
			split("getxattr setxattr", O, " ")
			for (j = 1; j <= 2; j++) for (k = 1; k <= 2; k++) {
				kk = k == 1 ? "vanilla" : "patched"
				x = S[config, "share", O[j], e, kk]
				if (x == "") { printf "\t\t\t"; continue }
				printf "\t%g\t%g\t%g", 1e6 / x, 1e6 / HI[config, "share", O[j], e, kk], 1e6 / LO[config, "share", O[j], e, kk]
			}
			printf "\n"
		}
	}' "$c" >"$data/acl.$c.tsv"
	# directory size: files, then ms per walk (median, fast, slow): share v, p, tmpfs v, p
	tab '
	BEGIN {
		for (i = 1; i <= nw; i++) {
			printf "%d", W[i]
			for (f = 1; f <= 2; f++) for (k = 1; k <= 2; k++) {
				kk = k == 1 ? "vanilla" : "patched"
				cc = f == 1 ? config : "all"; fs = f == 1 ? "share" : "tmpfs"
				x = S[cc, fs, "walk", W[i], kk]
				if (x == "") { printf "\t\t\t"; continue }
				printf "\t%g\t%g\t%g", 1e3 / x, 1e3 / HI[cc, fs, "walk", W[i], kk], 1e3 / LO[cc, fs, "walk", W[i], kk]
			}
			printf "\n"
		}
	}' "$c" >"$data/walk.$c.tsv"
done
# the ratios of every cell and the floor side by side: op, then ratio lo hi per series
tab '
BEGIN {
	n = split(config, CF, " "); CF[++n] = "all"
	for (i = 1; i <= NOPS; i++) {
		o = OPS[i]; s = SZ[o]
		printf "%s", o (o == "create" || o ~ /walk$/ || o == "unlink" ? " " s : "")
		for (j = 1; j <= n; j++) {
			fs = CF[j] == "all" ? "tmpfs" : "share"
			printf "\t%s\t%s\t%s", R[CF[j], fs, o, s], RLO[CF[j], fs, o, s], RHI[CF[j], fs, o, s]
		}
		printf "\n"
	}
}' "${configs[*]}" >"$data/ratios.tsv"

# --- plots ---
n=${#configs[@]}
short() { echo "${1%.bench}"; }
gp() {
	gnuplot -e "set terminal pngcairo size $1 font ',9'; set output '$2'" - ||
		die "bench-report: gnuplot failed on ${2#"$ACL9P_TOP"/}"
}
{
	printf '%s\n' "set datafile separator '\t'; set multiplot layout $n,1"
	echo "set style data histogram; set style histogram errorbars gap 1 lw 1"
	echo "set style fill solid 0.6 border -1; set logscale y; set grid ytics"
	echo "set ylabel 'operations/s (median, min-max)'; set key top right"
	for c in "${configs[@]}"; do
		echo "set title 'share, $(short "$c"): vanilla and patched'"
		echo "plot '$data/main.$c.tsv' using 2:3:4:xtic(1) title 'vanilla' lc rgb '#8c8c8c', '' using 5:6:7 title 'patched' lc rgb '#1f77b4'"
	done
	echo "unset multiplot"
} | gp "1000,$((300 * n))" "$rep/bench-throughput.png"
{
	printf '%s\n' "set datafile separator '\t'"
	echo "set style data histogram; set style histogram errorbars gap 1 lw 1"
	echo "set style fill solid 0.6 border -1; set grid ytics; set yrange [0:*]"
	echo "set title 'patched/vanilla throughput: ratio of the medians, min-max of the per-round ratios (above 1: the series is faster)'"
	echo "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5"
	echo "set key top left"
	printf "plot "
	i=0
	for c in "${configs[@]}" tmpfs; do
		col=$((2 + 3 * i))
		t=$(short "$c"); [ "$c" != tmpfs ] || t="tmpfs floor (all boots)"
		if [ $i -eq 0 ]; then
			printf "'%s' using %d:%d:%d:xtic(1) title '%s'" "$data/ratios.tsv" $col $((col + 1)) $((col + 2)) "$t"
		else
			printf ", '' using %d:%d:%d title '%s'" $col $((col + 1)) $((col + 2)) "$t"
		fi
		i=$((i + 1))
	done
	echo
} | gp "1000,420" "$rep/bench-ratios.png"
{
	printf '%s\n' "set datafile separator '\t'; set multiplot layout $n,1"
	echo "set logscale xy; set grid; set key top left"
	echo "set xlabel 'ACL entries (4 + named users)'; set ylabel 'us per operation (median, min-max)'"
	for c in "${configs[@]}"; do
		echo "set title 'getxattr and setxattr against ACL size, share, $(short "$c")'"
		echo "plot '$data/acl.$c.tsv' using 1:2:3:4 with yerrorlines title 'getxattr vanilla' lc rgb '#8c8c8c', \
'' using 1:5:6:7 with yerrorlines title 'getxattr patched' lc rgb '#1f77b4', \
'' using 1:8:9:10 with yerrorlines title 'setxattr vanilla' lc rgb '#8c8c8c' dt 2, \
'' using 1:11:12:13 with yerrorlines title 'setxattr patched' lc rgb '#1f77b4' dt 2"
	done
	echo "unset multiplot"
} | gp "1000,$((320 * n))" "$rep/bench-scaling-acl.png"
{
	printf '%s\n' "set datafile separator '\t'; set multiplot layout $n,1"
	echo "set logscale xy; set grid; set key top left"
	echo "set xlabel 'files in the directory'; set ylabel 'ms per getfacl -R walk (median, min-max)'"
	for c in "${configs[@]}"; do
		echo "set title 'recursive walk against directory size, $(short "$c") and the tmpfs floor'"
		echo "plot '$data/walk.$c.tsv' using 1:2:3:4 with yerrorlines title 'share vanilla' lc rgb '#8c8c8c', \
'' using 1:5:6:7 with yerrorlines title 'share patched' lc rgb '#1f77b4', \
'' using 1:8:9:10 with yerrorlines title 'tmpfs vanilla' lc rgb '#8c8c8c' dt 2, \
'' using 1:11:12:13 with yerrorlines title 'tmpfs patched' lc rgb '#1f77b4' dt 2"
	done
	echo "unset multiplot"
} | gp "1000,$((320 * n))" "$rep/bench-scaling-walk.png"
{
	printf '%s\n' "set datafile separator '\t'; set multiplot layout $n,1"
	echo "set style data histogram; set style histogram clustered gap 1"
	echo "set style fill solid 0.6 border -1; set grid ytics; set yrange [0:*]; set key top left"
	echo "set ylabel '9P requests per operation'"
	for c in "${configs[@]}"; do
		echo "set title '9P requests of one operation (counted between markers; the walk per entry), $(short "$c")'"
		echo "plot '$data/requests.$c.tsv' using 2:xtic(1) title 'vanilla' lc rgb '#8c8c8c', '' using 3 title 'patched' lc rgb '#1f77b4'"
	done
	echo "unset multiplot"
} | gp "1000,$((300 * n))" "$rep/bench-requests.png"

# --- the figures of the text ---
# timed boots: median (min-max) of a boots.tsv column, scaled
boots() {
	awk -F'\t' -v col="$1" -v div="$2" -v fmt="$3" 'NR > 1 && $1 == "time" && $col != "" { v[++n] = $col / div }
		END { if (!n) { print "-"; exit }
			for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
			m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			printf fmt " (" fmt "–" fmt ")\n", m, v[1], v[n] }' "$in/boots.tsv"
}
ntimed=$(awk -F'\t' 'NR > 1 && $1 == "time"' "$in/boots.tsv" | wc -l)
others=$(boots 9 1 "%.2f")
others_med=$(awk -F'\t' 'NR > 1 && $1 == "time" { v[++n] = $9 } END {
	for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
	printf "%.2f\n", n ? (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2) : 0 }' "$in/boots.tsv")
rig() { awk -F'\t' -v k="$1" '$1 == k { printf "%.1f s", $2 / 1000; exit }' "$in/rig.tsv"; }
rig_note() { awk -F'\t' -v k="$1" '$1 == k { print $3; exit }' "$in/rig.tsv"; }
# the last clean build kernel-build.sh recorded, with its date and ccache counters
clean_build() {
	local f=$ACL9P_BUILD/logs/kernel-$1.time
	awk '$3 == "clean" { l = $0 } END { if (l == "") exit 1; split(l, a, " ")
		printf "%d s (%d min %d s) on %s, ccache %d hits / %d misses", a[2], a[2] / 60, a[2] % 60, a[1], a[4], a[5] }' \
		"$f" 2>/dev/null || echo "not recorded (no clean build since kernel-build.sh records one in build/logs/kernel-$1.time)"
}
check_time() {
	local f=$ACL9P_BUILD/logs/check.time
	awk '$3 == "MATRIX=default" && $4 == "rc=0" && $5 == "whole" { l = $0 } END { if (l == "") exit 1; split(l, a, " ")
		printf "%d min %d s on %s (build/logs/check.time: the last passing run of the default set)", a[2] / 60, a[2] % 60, a[1] }' \
		"$f" 2>/dev/null || echo "not measured in this run (no passing \`make check\` recorded in build/logs/check.time)"
}
# the 9p mount options of a cell (as boot.sh composes them, less the transport)
mount_of() {
	# shellcheck source=scripts/matrix.sh
	(. "$ACL9P_TOP/scripts/matrix.sh" && matrix_cell "vanilla.$1" && echo "$c_mount")
}
cmd_of() { cat "$in/raw/$1/cmd" 2>/dev/null || echo "(not recorded)"; }

{
	echo "# acl9p benchmark: POSIX ACL operations over 9p, the series against vanilla 6.1"
	echo
	echo "Made by \`make bench\`, measurements from $(host date), commit $(host commit)$([ -z "$(host dirty)" ] || echo ' with uncommitted changes'): $rounds timed rounds of ${#configs[@]} cells × 2 kernels, $ntimed timed boots, one guest at a time."
	echo "Every figure below is read or computed from the files of that run (\`build/bench/\`, per boot \`build/bench/raw/\`) and \`build/logs/\`."
	echo
	echo "**Throughput** is operations a second inside the guest. A boot times each operation's loop in up to 10 batches and takes the median batch's time per operation (a burst of other load on the host slows a batch or two, which the median leaves out); the figure is the median of those over the rounds, with their range (min–max) in brackets."
	echo "**patched/vanilla** is the ratio of the two medians (above 1: the series is faster), with the lowest and highest ratio of a single round in brackets: in each round a cell boots both kernels back to back (vanilla first in odd rounds, the series first in even ones), and those two boots make the round's ratio."
	echo "**9P requests** are those of one un-timed instance of the operation, counted in separate boots (vanilla → patched)."
	echo
	if awk -v o="$others_med" 'BEGIN { exit !(o >= 0.25) }'; then
		echo "> **Under contention**: during the timed boots other processes on this $(host nproc)-CPU machine used a median of ${others_med} CPUs ${others#* }; absolute figures are lower than on an idle machine. The ratios pair boots taken back to back, which a slow drift of the load hits alike; their range shows what it did not."
		echo
	fi
	for c in "${configs[@]}"; do
		echo "## $(short "$c")"
		echo
		echo "Mount: \`$(mount_of "$c")\` (server \`${c%%.*}\`)."
		echo
		tab '
		BEGIN {
			print "| operation | vanilla ops/s | patched ops/s | patched/vanilla | 9P requests |"
			print "| --- | ---: | ---: | ---: | ---: |"
			for (i = 1; i <= NOPS; i++) {
				o = OPS[i]
				printf "| %s | %s | %s | %s | %s%s |\n", LABEL[o], ops(config, "share", o, SZ[o], "vanilla"),
					ops(config, "share", o, SZ[o], "patched"), ratio(config, "share", o, SZ[o]),
					req(config, o, CSZ[o]), o ~ /walk$/ ? " (walk of " wc ")" : (o == "create" || o == "unlink" ? " (one file)" : "")
			}
		}' "$c"
		echo
	done
	echo "![throughput per cell](bench-throughput.png)"
	echo
	echo "![patched/vanilla ratios](bench-ratios.png)"
	echo
	echo "## The floor: the same operations on a tmpfs in the same guests"
	echo
	echo "\`/mnt/local\`, a tmpfs with POSIX ACLs, measured in every timed boot before the share ($(p ACL9P_BENCH_LOCAL_X) times the iterations): no 9p at all, so this is the VFS ACL code of each kernel (the series changes \`fs/posix_acl.c\` and \`fs/xattr.c\` too). Medians over all $ntimed timed boots."
	echo
	tab '
	BEGIN {
		print "| operation | vanilla ops/s | patched ops/s | patched/vanilla |"
		print "| --- | ---: | ---: | ---: |"
		for (i = 1; i <= NOPS; i++) {
			o = OPS[i]
			printf "| %s | %s | %s | %s |\n", LABEL[o], ops("all", "tmpfs", o, SZ[o], "vanilla"),
				ops("all", "tmpfs", o, SZ[o], "patched"), ratio("all", "tmpfs", o, SZ[o])
		}
	}'
	echo
	icount_section
	echo "## 9P requests per operation"
	echo
	echo "One boot per cell and kernel runs each operation once, un-timed, after a marker (a \`utimensat()\` of the share's root to 1000000000 + N s, one Tsetattr, as \`make wire\` does); the requests between two markers are that operation's: QEMU's trace of its own server (\`-trace 'v9fs_*'\`, split by \`acl9p-p9trace\`), or for diod the same diod behind \`ninep-proxy\`, which splits its counts at the same markers. A marker with nothing after it gives the baseline (what a marker itself leaves behind). QEMU's trace has no event for Tunlinkat, Tstatfs and Trenameat, so with QEMU's server the unlink count lacks its Tunlinkat."
	echo
	for c in "${configs[@]}"; do
		echo "<details><summary>$(short "$c"): requests by type</summary>"
		echo
		echo "| operation | vanilla | patched |"
		echo "| --- | --- | --- |"
		awk -F'\t' -v c="$c" '
			NR > 1 && $2 == c && $5 != "-" && $3 != "end" {
				key = $3 " " $4
				if (!(key in seen)) { seen[key]; order[++n] = key }
				d[$1, key] = d[$1, key] (d[$1, key] == "" ? "" : ", ") $5 " " $6
				t[$1, key] += $6
			}
			NR > 1 && $2 == c && $5 == "-" && $3 != "end" {
				key = $3 " " $4
				if (!(key in seen)) { seen[key]; order[++n] = key }
			}
			END { for (i = 1; i <= n; i++) {
				k = order[i]; split(k, a, " ")
				lab = a[1] == "getxattr" || a[1] == "setxattr" ? a[1] " (" a[2] " entries)" : \
					a[1] ~ /walk$/ ? a[1] " (" a[2] " files)" : a[1] == "baseline" ? "baseline (marker alone)" : a[1]
				printf "| %s | %d: %s | %d: %s |\n", lab, t["vanilla", k], d["vanilla", k] == "" ? "none" : d["vanilla", k],
					t["patched", k], d["patched", k] == "" ? "none" : d["patched", k] } }' "$in/counts-types.tsv"
		echo
		echo "</details>"
		echo
	done
	echo "![requests per operation](bench-requests.png)"
	echo
	echo "## Scaling"
	echo
	echo "### ACL size"
	echo
	echo "getxattr (size probe + read) and setxattr of an access ACL of 4 + n entries (u::, g::, m::, o:: and n named users; 4 + 8 × entries bytes), n = $named: µs per operation, median (range)."
	echo
	for c in "${configs[@]}"; do
		echo "**$(short "$c")**"
		echo
		tab '
		BEGIN {
			print "| entries (named, bytes) | getxattr vanilla µs | getxattr patched µs | ratio | setxattr vanilla µs | setxattr patched µs | ratio |"
			print "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
			for (i = 1; i <= nn; i++) {
				e = N[i] + 4
				printf "| %d (%d, %d) | %s | %s | %s | %s | %s | %s |\n", e, N[i], 4 + 8 * e,
					per(config, "share", "getxattr", e, "vanilla", 1e6), per(config, "share", "getxattr", e, "patched", 1e6),
					ratio(config, "share", "getxattr", e),
					per(config, "share", "setxattr", e, "vanilla", 1e6), per(config, "share", "setxattr", e, "patched", 1e6),
					ratio(config, "share", "setxattr", e)
			}
		}' "$c"
		echo
	done
	echo "![getxattr and setxattr against ACL size](bench-scaling-acl.png)"
	echo
	echo "### Directory size"
	echo
	echo "A getfacl -R walk (lstat, the access ACL of every entry, the default ACL of the directory, read as libacl 2.3.1's acl_get_file() reads them) of a directory of N files, each with an access ACL inherited from the directory's 5-entry default ACL; N = $walks. Each size is walked max(1, $(p ACL9P_BENCH_WALK_ENTRIES) / N) times a boot. ms per walk and µs per entry, median (range)."
	echo
	for c in "${configs[@]}"; do
		echo "**$(short "$c")**"
		echo
		tab '
		BEGIN {
			print "| files | walk vanilla ms | walk patched ms | ratio | vanilla µs/entry | patched µs/entry | tmpfs vanilla µs/entry | tmpfs patched µs/entry |"
			print "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
			for (i = 1; i <= nw; i++) {
				w = W[i]
				printf "| %d | %s | %s | %s | %s | %s | %s | %s |\n", w,
					per(config, "share", "walk", w, "vanilla", 1e3), per(config, "share", "walk", w, "patched", 1e3),
					ratio(config, "share", "walk", w),
					per(config, "share", "walk", w, "vanilla", 1e6 / (w + 1)), per(config, "share", "walk", w, "patched", 1e6 / (w + 1)),
					per("all", "tmpfs", "walk", w, "vanilla", 1e6 / (w + 1)), per("all", "tmpfs", "walk", w, "patched", 1e6 / (w + 1))
			}
		}' "$c"
		echo
	done
	# 10,000 files: measured when asked for, else priced from this run
	if [[ ",$walks," != *,10000,* ]]; then
		# shellcheck disable=SC2016 # markdown backquotes in awk text
		tab '
		BEGIN {
			# the slowest cell and kernel at the largest size measured:
			# 10,000 creates and one walk more per boot
			n = split(config, CF, " ")
			for (j = 1; j <= n; j++) for (k = 1; k <= 2; k++) {
				kk = k == 1 ? "vanilla" : "patched"
				cr = S[CF[j], "share", "create", wm, kk]; wk = S[CF[j], "share", "walk", wm, kk]
				if (cr == "" || wk == "") continue
				t = 10000 / cr + (10001 / (wm + 1)) / wk
				if (t > worst) { worst = t; wc_ = 10000 / cr; ww_ = (10001 / (wm + 1)) / wk }
				sum += t
			}
			if (!worst) exit
			printf "\n10,000 files are not in this run: at its medians for %d files, a 10,000-file directory would add about %.0f s to a boot of the slowest cell and kernel (%.0f s of creates, %.0f s for one walk), and about %.0f min to the run (%d cells × 2 kernels × %d rounds), which took %.0f min without it; `make bench` is meant to take at most 20 minutes with its kernel builds. `make bench BENCH_WALK=100,1000,10000` measures it.\n", \
				wm, worst, wc_, ww_, sum * rounds / 60, n, rounds, total_ms / 60000
		}' "${configs[*]}"
		echo
	fi
	echo "![walk time against directory size](bench-scaling-walk.png)"
	echo
	echo "## The machine"
	echo
	echo "| | |"
	echo "| --- | --- |"
	echo "| host | $(host nproc) CPUs ($(host cpu)), $(host memory), $(host os), $(host host_kernel) |"
	echo "| QEMU | $(host qemu) |"
	echo "| accelerator | $(host accel | sed 's/-accel //') (what \`scripts/kvm-probe.sh\` gave \`boot.sh\`) |"
	echo "| guest | $(p cpus) CPUs, $(p memory_mib) MiB; kernels $(param kernel "$in/raw/r1/vanilla.${configs[0]}/ktap.txt") (vanilla) and $(param kernel "$in/raw/r1/patched.${configs[0]}/ktap.txt") (patched: $(host patches) patches of \`kernel/patches/series\`) |"
	echo "| contention | other processes' CPU use during a timed boot, in CPUs: median ${others} (from \`/proc/stat\` less the boot's own CPU time) |"
	echo "| load average | $(host load_start) at the start, $(host load_end) at the end |"
	echo
	echo "## How it was run"
	echo
	echo '```'
	host invocation
	echo '```'
	echo
	echo "Guest program \`acl9p-bench\` (\`tests/bench/bench.c\`): $(p ACL9P_BENCH_ITERS) timed iterations of each single operation after $(p ACL9P_BENCH_WARMUP) un-timed ones, $(p ACL9P_BENCH_LOCAL_X) times as many on the tmpfs; create fills each directory, whose files the walks then read; one warm-up walk of the first size; unlink empties the first directory. Every call's result is checked (sizes, bytes, the mode and mask after the chmods, the number of entries walked): a failure ends the run. Time is CLOCK_MONOTONIC around each batch. One timed boot, as run from the top of the tree:"
	echo
	echo '```'
	cmd_of "r1/vanilla.${configs[0]}"
	echo
	echo '```'
	echo
	echo "One counting boot (QEMU's server; diod's would name the ninep-proxy cell):"
	echo
	echo '```'
	cmd_of "count/vanilla.${configs[0]}"
	echo
	echo '```'
	echo
	echo "## The rig itself"
	echo
	echo "| what | time |"
	echo "| --- | --- |"
	echo "| clean kernel build, vanilla | $(clean_build vanilla) |"
	echo "| clean kernel build, patched | $(clean_build patched) |"
	if [ -n "$(rig kernel-vanilla)" ]; then
		echo "| kernels in this run (\`scripts/kernel-build.sh\`) | vanilla $(rig kernel-vanilla) ($(rig_note kernel-vanilla)), patched $(rig kernel-patched) ($(rig_note kernel-patched)) |"
		echo "| no-op rebuild (patched) | $(rig kernel-noop) |"
		echo "| rebuild after touching \`fs/9p/acl.c\` (patched) | $(rig kernel-touch) |"
		echo "| \`make guest\` | $(rig guest), $(rig_note guest) |"
	else
		echo "| kernel builds, no-op rebuild, rebuild after a touch, \`make guest\` | not measured in this run (BENCH_BUILD=0) |"
	fi
	echo "| boot to the first operation (guest uptime as acl9p-bench starts) | median $(boots 7 1000 "%.1f") s |"
	echo "| a boot's overhead: QEMU, firmware, kernel, init, mount, exit (wall less the program's run) | median $(awk -F'\t' 'NR > 1 && $1 == "time" { print $5 - $6 }' "$in/boots.tsv" | sort -n |
		awk '{ v[++n] = $1 } END { if (!n) { print "-"; exit }; m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			printf "%.1f s (%.1f–%.1f)", m / 1000, v[1] / 1000, v[n] / 1000 }') |"
	echo "| a timed boot, whole | median $(boots 5 1000 "%.1f") s |"
	echo "| whole \`make check\` | $(check_time) |"
	echo "| this \`make bench\`, until the report | $(rig bench) |"
} >"$md"
echo "bench: report written: ${md#"$ACL9P_TOP"/}"
