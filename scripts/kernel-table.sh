#!/bin/bash
# The README's table of behaviours (tests/behaviours) across the kernels
# of kernel/kernels.conf, from results of make check: a markdown row per
# behaviour, a column per kernel, each cell the outcome its test had in
# that kernel's cell (pass, FAIL, skip; "-" where no results dir given
# holds the cell).
#
# usage: kernel-table.sh RESULTS-DIR...   (the first that has a cell wins)
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/kernels.sh"

[ $# -gt 0 ] || die "usage: kernel-table.sh RESULTS-DIR..."
mapfile -t ks < <(kernels_all)

# outcome DIR TEST: pass, FAIL, skip or "-" for one cell's results
outcome() {
	local dir=$1 test=$2 n line
	if [ "$test" = console.kernel_reports ]; then
		n=$(sed -n 's/^kernel_reports=//p' "$dir/status" 2>/dev/null)
		case $n in '') echo - ;; 0) echo pass ;; *) echo "FAIL ($n)" ;; esac
		return
	fi
	line=$(grep -E "^    (not )?ok [0-9]+ ${test//./\\.}( |$)" "$dir/ktap.txt" 2>/dev/null | head -n 1)
	case $line in
	'') echo - ;;
	*'# SKIP'*) echo skip ;;
	*'not ok'*) echo FAIL ;;
	*) echo pass ;;
	esac
}

printf '| behaviour | cell |'
printf ' %s |' "${ks[@]}"
printf '\n|---|---|'
printf -- '---|%.0s' "${ks[@]}"
printf '\n'
while read -r config test what; do
	case $config in '' | '#'*) continue ;; esac
	# shellcheck disable=SC2016 # the backquotes are markdown
	printf '| %s | `%s` `%s` |' "$what" "$config" "$test"
	for k in "${ks[@]}"; do
		o=-
		for r in "$@"; do
			if [ -d "$r/$k.$config" ]; then
				o=$(outcome "$r/$k.$config" "$test")
				break
			fi
		done
		printf ' %s |' "$o"
	done
	printf '\n'
done <"$ACL9P_TOP/tests/behaviours"
