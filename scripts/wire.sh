#!/bin/bash
# What an ACL operation costs on the wire: boot each cell of the "wire"
# set of tests/matrix.conf in wire mode (guest/wire.sh runs the
# operations, each after a marker), count the 9P requests between the
# markers (QEMU's server: its trace events, split by acl9p-p9trace;
# diod: through ninep-proxy, which counts by the same markers), and
# print one table of requests per operation and cell, a column per
# kernel of the run (KERNELS=, else kernel/kernels.conf's run=default).
#
# Then judge the counts against tests/expected/wire-bounds ("CELL-GLOB
# OP[:TYPE] MAX reason": at most MAX requests, or MAX of that request
# type): the last line is
# "N passed, N failed, N skipped", and the exit status is 1 on any
# bound exceeded or any cell without counts.
#
# Results: build/results-wire/CELL/{ktap.txt,9p-trace.log,wire.tsv}, where
# wire.tsv is "OP<TAB>TYPE<TAB>COUNT" lines, and build/results-wire/
# summary.tsv ("CELL<TAB>OP<TAB>TOTAL<TAB>XATTRWALK").
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/matrix.sh"
. "$ACL9P_TOP/scripts/kernels.sh"

results=$ACL9P_BUILD/results-wire
bounds=$ACL9P_TOP/tests/expected/wire-bounds
p9trace=$ACL9P_BUILD/tests/acl9p-p9trace
[ -x "$p9trace" ] || die "wire: ${p9trace#"$ACL9P_TOP"/} missing (run: make tools)"

read -r -a labels <<<"$(kernels_run | tr '\n' ' ')"
[ ${#labels[@]} -gt 0 ] || die "wire: no kernel to run"
mapfile -t cells < <(matrix_cells wire "${labels[@]}")
[ ${#cells[@]} -gt 0 ] || die "wire: the wire set of tests/matrix.conf is empty"
rm -rf "$results"
mkdir -p "$results" "$ACL9P_BUILD/logs"

# count CELL: the cell's requests per operation into wire.tsv (the
# guest's "op N NAME" lines name the slices).  QEMU's own server: its
# trace, split by acl9p-p9trace; ninep-proxy (diod): the proxy's counts,
# whose buckets the same markers begin ("N<TAB>Txattrwalk<TAB>C").
count() {
	local dir=$results/$1
	if [ -s "$dir/ninep-proxy.counts" ]; then
		awk -F'\t' '$1 ~ /^[0-9]+$/ { t = $2; sub(/^T/, "", t)
			print $1 "\t" tolower(t) "\t" $3 }' \
			"$dir/ninep-proxy.counts" >"$dir/slices.tsv"
	else
		"$p9trace" "$dir/9p-trace.log" >"$dir/slices.tsv" || return 1
	fi
	awk -F'\t' 'NR == FNR { if ($1 == "op") name[$2] = $3; next }
		($1 in name) { print name[$1] "\t" $2 "\t" $3 }' \
		FS=' ' "$dir/ktap.txt" FS='\t' "$dir/slices.tsv" >"$dir/wire.tsv"
	[ -s "$dir/wire.tsv" ]
}

fail=0
for cell in "${cells[@]}"; do
	if "$ACL9P_TOP/scripts/boot.sh" --kernel "$ACL9P_BUILD/kernels/${cell%%.*}.bzImage" \
		--cell "$cell" --mode wire --trace-9p --timeout 120 --out "$results/$cell" \
		>"$ACL9P_BUILD/logs/$cell.wire.log" 2>&1 && count "$cell"; then
		# every operation the guest ran, in its order, 0 when it sent nothing
		awk -v c="$cell" 'NR == FNR { if ($1 == "op") o[++n] = $3; next }
			{ t[$1] += $3; if ($2 == "xattrwalk") x[$1] += $3 }
			END { for (i = 1; i <= n; i++) print c "\t" o[i] "\t" t[o[i]] + 0 "\t" x[o[i]] + 0 }' \
			"$results/$cell/ktap.txt" FS='\t' "$results/$cell/wire.tsv" >>"$results/summary.tsv"
	else
		echo "  $cell: no counts: $(tail -n 1 "$ACL9P_BUILD/logs/$cell.wire.log")"
		fail=$((fail + 1))
	fi
done

# The table: one row per operation and configuration, requests
# (of which Txattrwalk) for each kernel.
echo
echo "9P requests per operation (of which Txattrwalk): QEMU's trace of its server, ninep-proxy's counts for diod"
awk -F'\t' -v kernels="${labels[*]}" '
	BEGIN { nk = split(kernels, ks, " ")
		printf "%-36s %-20s", "server.access.cache", "operation"
		for (j = 1; j <= nk; j++) printf " %-14s", ks[j]
		printf "\n" }
	{ split($1, p, "."); k = substr($1, length(p[1]) + 2)
	key = k SUBSEP $2; if (!(key in seen)) { seen[key]; order[++n] = key }
	v[p[1], key] = $3 " (" $4 ")" }
	END { for (i = 1; i <= n; i++) { split(order[i], kk, SUBSEP)
		printf "%-36s %-20s", kk[1], kk[2]
		for (j = 1; j <= nk; j++)
			printf " %-14s", ((ks[j], order[i]) in v) ? v[ks[j], order[i]] : "-"
		printf "\n" } }' "$results/summary.tsv"
echo

# The bounds: every line must name a cell and an operation that ran.
# OP counts every request of the operation, OP:TYPE only that type.
pass=0 skipped=0
while read -r glob what max reason; do
	case $glob in '' | '#'*) continue ;; esac
	[ -n "$reason" ] || die "wire: $bounds: '$glob $what $max' has no reason"
	op=${what%%:*} type=
	[ "$op" = "$what" ] || type=${what#*:}
	seen=0
	for dir in "$results"/*/; do
		cell=$(basename "$dir")
		# shellcheck disable=SC2053 # glob match on purpose
		[[ $cell == $glob && -s $dir/wire.tsv ]] || continue
		grep -q "^$op"$'\t' "$dir/wire.tsv" || continue
		seen=1
		n=$(awk -F'\t' -v op="$op" -v t="$type" \
			'$1 == op && (t == "" || $2 == t) { n += $3 } END { print n + 0 }' "$dir/wire.tsv")
		if [ "$n" -le "$max" ]; then
			pass=$((pass + 1))
		else
			echo "  FAIL $cell $what: $n requests, the bound is $max ($reason)"
			fail=$((fail + 1))
		fi
	done
	if [ $seen = 0 ] && [ -n "${KERNELS:-}" ]; then
		# KERNELS= chose the kernels: a bound of another is not run
		skipped=$((skipped + 1))
	elif [ $seen = 0 ]; then
		echo "  FAIL no cell ran '$glob' '$what' (a bound that judges nothing)"
		fail=$((fail + 1))
	fi
done <"$bounds"
echo "$pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
