#!/bin/bash
# The README's table of the tools people check a shared folder with
# (acl9p_usertools) and the acl package's own suite (acl9p_aclsuite),
# from results of make check: a markdown row per configuration (a cell
# name without its kernel part), a column per tool, each entry the
# verdict of that test in the configuration's cells of every kernel of
# kernel/kernels.conf: "pass" when every kernel that ran it passed, the
# failing kernels otherwise, "skip" when all skipped; for the acl suite
# the files passed of those run, per kernel when they differ.
#
# usage: tools-table.sh RESULTS-DIR...   (every dir's cells are read)
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/kernels.sh"

[ $# -gt 0 ] || die "usage: tools-table.sh RESULTS-DIR..."
mapfile -t ks < <(kernels_all)
tools="cp_a_round_trip:cp -a
cp_preserve_all_round_trip:cp --preserve=all
tar_acls_xattrs_round_trip:tar --acls --xattrs
rsync_aAX_round_trip:rsync -aAX
find_exec_setfacl_many_ids:find -exec setfacl
getfacl_R_then_restore_big_tree:getfacl -R, setfacl --restore (1000 files)"

# the KTAP line of TEST in cell dir DIR: pass, FAIL, skip or ""
verdict() {
	local line
	line=$(grep -E "^    (not )?ok [0-9]+ ${2//./\\.}( |$)" "$1/ktap.txt" 2>/dev/null | head -n 1)
	case $line in
	'') ;;
	*'# SKIP'*) echo skip ;;
	*'not ok'*) echo FAIL ;;
	*) echo pass ;;
	esac
}

configs=$(for d in "$@"; do
	for c in "$d"/*/ktap.txt; do
		[ -f "$c" ] || continue
		c=${c%/ktap.txt}
		c=${c##*/}
		echo "${c#*.}"
	done
done | sort -u)

printf '| configuration |'
while IFS=: read -r _ label; do printf ' %s |' "$label"; done <<<"$tools"
printf ' acl suite (files passed) |\n|---|'
while IFS=: read -r _ _; do printf -- '---|'; done <<<"$tools"
printf -- '---|\n'
for cfg in $configs; do
	printf '| %s |' "$cfg"
	while IFS=: read -r t _; do
		fails= ran=0 skips=0
		for k in "${ks[@]}"; do
			for d in "$@"; do
				[ -d "$d/$k.$cfg" ] || continue
				v=$(verdict "$d/$k.$cfg" "usertools.$t")
				case $v in
				pass) ran=$((ran + 1)) ;;
				FAIL) ran=$((ran + 1)); fails="$fails${fails:+, }$k" ;;
				skip) skips=$((skips + 1)) ;;
				esac
				break
			done
		done
		if [ -n "$fails" ]; then printf ' FAIL: %s |' "$fails"
		elif [ $ran -gt 0 ]; then printf ' pass |'
		elif [ $skips -gt 0 ]; then printf ' skip |'
		else printf ' - |'
		fi
	done <<<"$tools"
	# the acl suite: files passed of those run, per kernel
	per=
	for k in "${ks[@]}"; do
		for d in "$@"; do
			[ -d "$d/$k.$cfg" ] || continue
			p=$(grep -cE '^    ok [0-9]+ aclsuite\.[a-zA-Z0-9_]+$' "$d/$k.$cfg/ktap.txt" 2>/dev/null || true)
			f=$(grep -cE '^    not ok [0-9]+ aclsuite\.' "$d/$k.$cfg/ktap.txt" 2>/dev/null || true)
			[ $((p + f)) -eq 0 ] || per="$per${per:+, }$k $p/$((p + f))"
			break
		done
	done
	printf ' %s |\n' "${per:--}"
done
