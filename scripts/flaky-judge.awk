# The judge of make flaky (scripts/flaky.sh), on its own so a rig
# self-test (tests/rig/flaky-judge.sh) can feed it planted counts.
#
# Input: "KERNEL CONFIG TEST FAILS RUNS" lines, KERNEL vanilla or
# patched.  Variables: runs (the rounds every test must have reported),
# alpha (family-wise significance).  Per (configuration, test) pair that
# failed at all: Fisher's exact test, one-sided (patched fails more
# often), p values corrected by Holm's step-down over those pairs.
# Prints a table and a summary line; exit status 1 when the series is
# worse on some pair or a pair lacks a rate.
function lf(n,   i, s) { if (n in LF) return LF[n]; s = 0; for (i = 2; i <= n; i++) s += log(i); return LF[n] = s }
function lc(n, r) { return lf(n) - lf(r) - lf(n - r) }
# P(patched fails >= a) for a failures of n1 and b of n2, margins fixed
function fisher(a, n1, b, n2,   K, x, p, hi) {
	K = a + b; p = 0; hi = (K < n1) ? K : n1
	for (x = a; x <= hi; x++)
		if (K - x <= n2)
			p += exp(lc(n1, x) + lc(n2, K - x) - lc(n1 + n2, K))
	return p > 1 ? 1 : p
}
{
	key = $2 " " $3
	if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
	F[$1, key] = $4; R[$1, key] = $5
}
END {
	missing = 0; nf = 0
	for (i = 1; i <= nk; i++) {
		key = keys[i]
		for (kk = 1; kk <= 2; kk++) {
			k = kk == 1 ? "vanilla" : "patched"
			if (R[k, key] != runs) { print "NO RATE  " k " " key ": " R[k, key] + 0 " of " runs " rounds reported"; missing++ }
		}
		if (F["vanilla", key] + F["patched", key] > 0) {
			cand[++nf] = key
			P[key] = fisher(F["patched", key], R["patched", key], F["vanilla", key], R["vanilla", key])
		}
	}
	# Holm: the k-th smallest p against alpha / (m - k + 1)
	for (i = 1; i <= nf; i++) for (j = i + 1; j <= nf; j++)
		if (P[cand[j]] < P[cand[i]]) { t = cand[i]; cand[i] = cand[j]; cand[j] = t }
	worse = 0; stop = 0
	printf "%-34s %-62s %8s %8s %9s  %s\n", "configuration", "test", "vanilla", "patched", "p", "verdict"
	for (i = 1; i <= nf; i++) {
		key = cand[i]; split(key, kv, " ")
		v = "not worse"
		if (!stop && P[key] <= alpha / (nf - i + 1) && F["patched", key] > F["vanilla", key]) { v = "SERIES WORSE"; worse++ }
		else stop = 1
		printf "%-34s %-62s %4d/%-3d %4d/%-3d %9.2g  %s\n", kv[1], kv[2], F["vanilla", key], R["vanilla", key], F["patched", key], R["patched", key], P[key], v
	}
	printf "flaky: %d tests x configurations, %d failed at least once, %d worse on the series, %d without a rate (%d rounds)\n", nk, nf, worse, missing, runs
	exit (worse || missing) ? 1 : 0
}
