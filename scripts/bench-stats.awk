# The statistics of make bench (scripts/bench.sh), from build/bench/results.tsv
# ("round kernel config fs op size iters ns ns_op_median batches", a
# header line first).  Throughput is 1e9 / ns_op_median operations a
# second, one figure per boot: the median batch of the boot's timed
# loop (tests/bench/bench.c, timed()), which a burst of other load on
# the host hits less than the total would; over the rounds:
#
#   -v what=stats    config fs op size kernel rounds median min max
#                    (operations a second; the median of an even count
#                    is the mean of the two middle ones)
#   -v what=ratios   config fs op size rounds ratio min max: patched
#                    over vanilla, so above 1 the series is faster;
#                    ratio is the ratio of the two medians, min and max
#                    the extremes of the per-round ratios (each round's
#                    patched boot against the vanilla boot just before
#                    it: the pairs the alternation makes)
#
# -v floor=FS merges the cells for that filesystem (the tmpfs floor,
# the same in every cell's guest): its rows are config "all", each
# boot a "round" of its own (round/config, so the per-round ratios
# still pair the two kernels' boots of one round and cell).
#
# Rows in the order the keys first appear in the results.  POSIX awk
# (Debian's mawk has no asort): sorting is by insertion, the counts are
# the rounds.
BEGIN { FS = OFS = "\t" }

NR == 1 { next }

{
	if (floor != "" && $4 == floor) {
		$1 = $1 "/" $3
		$3 = "all"
	}
	key = $3 OFS $4 OFS $5 OFS $6
	if (!(key in seen)) { seen[key]; keys[++nkeys] = key }
	if ($9 <= 0) {
		printf "bench-stats: %s line %d: %s ns\n", FILENAME, NR, $9 > "/dev/stderr"
		bad = 1
		exit 2
	}
	v = 1e9 / $9
	k = key OFS $2
	vals[k, ++n[k]] = v
	by_round[k, $1] = v
	if (!((key, $1) in rseen)) { rseen[key, $1]; rounds[key, ++nr[key]] = $1 }
}

# sort vals[k, 1..m] into s[1..m]
function sorted(k, m,    i, j, t) {
	for (i = 1; i <= m; i++) {
		t = vals[k, i]
		for (j = i - 1; j >= 1 && s[j] > t; j--)
			s[j + 1] = s[j]
		s[j + 1] = t
	}
}

function median(m) {
	return m % 2 ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
}

END {
	if (bad)
		exit 2
	if (what == "stats") {
		print "config", "fs", "op", "size", "kernel", "rounds", "median", "min", "max"
		for (i = 1; i <= nkeys; i++)
			for (kk = 1; kk <= 2; kk++) {
				kern = kk == 1 ? "vanilla" : "patched"
				k = keys[i] OFS kern
				if (!n[k])
					continue
				sorted(k, n[k])
				printf "%s\t%s\t%d\t%.6g\t%.6g\t%.6g\n", keys[i], kern, n[k],
					median(n[k]), s[1], s[n[k]]
			}
	} else if (what == "ratios") {
		print "config", "fs", "op", "size", "rounds", "ratio", "min", "max"
		for (i = 1; i <= nkeys; i++) {
			kv = keys[i] OFS "vanilla"; kp = keys[i] OFS "patched"
			if (!n[kv] || !n[kp])
				continue
			sorted(kv, n[kv]); mv = median(n[kv])
			sorted(kp, n[kp]); mp = median(n[kp])
			lo = hi = ""; m = 0
			for (r = 1; r <= nr[keys[i]]; r++) {
				rd = rounds[keys[i], r]
				if (!((kv, rd) in by_round) || !((kp, rd) in by_round))
					continue
				q = by_round[kp, rd] / by_round[kv, rd]
				if (lo == "" || q < lo) lo = q
				if (hi == "" || q > hi) hi = q
				m++
			}
			printf "%s\t%d\t%.4f\t%.4f\t%.4f\n", keys[i], m, mp / mv, lo, hi
		}
	} else {
		print "bench-stats: -v what=stats or what=ratios" > "/dev/stderr"
		exit 2
	}
}
