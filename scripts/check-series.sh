#!/bin/bash
# Prove the series bisectable and warning-neutral:
#  1. every prefix of the kernel's series builds bzImage with the rig's
#     configuration (one commit per patch, refs/acl9p/KERNEL/step/NNNN,
#     checked out in turn in build/linux/series-KERNEL so each step
#     rebuilds only what its patch touched);
#  2. with kernel/config/wide.config (every subsystem the series touches),
#     the directories the series changes compile with the full series and
#     with the source as shipped, and the series adds no warning;
#  3. scripts/checkpatch.pl reports no error on any patch.
# Logs: build/logs/series-*.log; a summary table on stdout.
#
# usage: check-series.sh [KERNEL]   a kernel of kernel/kernels.conf with
# a series (default patched).
# Environment: ACL9P_SERIES_STEPS=0 skips step 1, ACL9P_SERIES_WIDE=0
# skips step 2; ACL9P_SERIES_KEEP=DIR keeps each step's bzImage as
# DIR/KERNEL-step-NNNN.bzImage, to boot the series patch by patch.
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/kernels.sh"

name=${1:-patched}
series_dir=$(kernel_series "$name")
[ -n "$series_dir" ] || die "check-series: $name has no series"
[ -n "$(kernel_patches "$name")" ] ||
	die "check-series: $series_dir/series lists no patch"
"$ACL9P_TOP/scripts/kernel-src.sh" "$name"

repo=$(kernel_repo "$name")
wt=$ACL9P_BUILD/linux/series-$name
frags=$(kernel_fragments "$name" | tr '\n' ' ')
logs=$ACL9P_BUILD/logs
mkdir -p "$logs"
# The summary also goes to a file, for scripts/cover-results.sh.
exec > >(tee "$logs/series-summary-$name.log")
fail=0
kbuild_env

ensure_worktree "$repo" "$wt" pristine

# build SRC OBJ LOG FRAGMENTS TARGETS...: configure and build; prints
# secs.  The target bzImage goes through kbuild_bzimage (the image must
# carry the vmlinux of its own step).
build() {
	local src=$1 obj=$2 log=$3 frags=$4 t0
	shift 4
	t0=$(date +%s)
	# shellcheck disable=SC2086 # fragment list split on purpose
	"$ACL9P_TOP/scripts/kernel-config.sh" "$src" "$obj" $frags >"$log" 2>&1 &&
		if [ "$*" = bzImage ]; then
			kbuild_bzimage "$src" "$obj" >>"$log" 2>&1
		else
			make -C "$src" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" \
				-j"$(nproc)" "$@" >>"$log" 2>&1
		fi
	local rc=$?
	echo $(( $(date +%s) - t0 ))
	return $rc
}

# warnings LOG: the warnings of a build, without line numbers, which
# patches shift, and without the tree's path, which differs per tree.
warnings() {
	grep -E 'warning:' "$1" | sed -E \
		-e 's#^.*/build/linux/[^/]+/##' -e 's#:[0-9]+:[0-9]+:#:#' | sort -u
}

if [ "${ACL9P_SERIES_STEPS:-1}" != 0 ]; then
echo "== step builds (tinyconfig + acl9p.config)"
printf '%-5s %-60s %6s %s\n' step patch secs result
total0=$(date +%s)
for ref in $(git -C "$repo" for-each-ref --format='%(refname)' "refs/acl9p/$name/step"); do
	n=${ref##*/}
	subj=$(git -C "$repo" log -1 --format=%s "$ref")
	git -C "$wt" -c advice.detachedHead=false checkout -q -f --detach "$ref"
	log=$logs/series-$name-step-$n.log
	if secs=$(build "$wt" "$ACL9P_BUILD/obj/series-$name" "$log" \
		"$frags" bzImage); then
		res=ok
		if [ -n "${ACL9P_SERIES_KEEP:-}" ]; then
			mkdir -p "$ACL9P_SERIES_KEEP"
			cp "$ACL9P_BUILD/obj/series-$name/arch/x86/boot/bzImage" \
				"$ACL9P_SERIES_KEEP/$name-step-$n.bzImage"
		fi
	else
		res="FAILED ($log)"
		fail=1
	fi
	printf '%-5s %-60.60s %6s %s\n' "$n" "$subj" "$secs" "$res"
done
echo "steps built in $(( $(date +%s) - total0 )) s"
else
	# The wide build needs the series worktree at the last step.
	git -C "$wt" -c advice.detachedHead=false checkout -q -f --detach \
		"$(git -C "$repo" for-each-ref --format='%(refname)' "refs/acl9p/$name/step" | tail -n 1)"
fi

echo "== checkpatch"
for p in $(kernel_patches "$name"); do
	out=$("$wt/scripts/checkpatch.pl" --no-tree --terse --show-types \
		"$series_dir/$p" 2>&1 || true)
	e=$(printf '%s\n' "$out" | grep -c ': ERROR:' || true)
	w=$(printf '%s\n' "$out" | grep -c ': WARNING:' || true)
	c=$(printf '%s\n' "$out" | grep -c ': CHECK:' || true)
	printf '%-60.60s errors %s warnings %s checks %s\n' "$p" "$e" "$w" "$c"
	printf '%s\n' "$out" >"$logs/series-checkpatch-${p%.patch}.log"
	[ "$e" -eq 0 ] || fail=1
done

if [ "${ACL9P_SERIES_WIDE:-1}" != 0 ]; then
	wide=$ACL9P_TOP/kernel/config/wide.config
	[ -f "$wide" ] || die "check-series: $wide missing"
	# The top-level directories the series touches (fs/, mm/, security/):
	# kbuild cannot take a directory and one of its subdirectories as
	# targets in one run (their modules.order files race).
	dirs=$(git -C "$repo" diff --name-only pristine "$(git -C "$wt" rev-parse HEAD)" |
		grep -E '\.[ch]$' | grep -vE '^(include|Documentation|tools)/' |
		cut -d/ -f1 | sort -u | sed 's#$#/#' | tr '\n' ' ')
	echo "== wide build: $dirs"
	# The repository's own tree is the source as shipped (pristine); the
	# series worktree is at the last step after the loop above.
	for v in base series; do
		src=$repo
		[ $v = base ] || src=$wt
		log=$logs/series-wide-$name-$v.log
		# shellcheck disable=SC2086 # directory targets split on purpose
		if secs=$(build "$src" "$ACL9P_BUILD/obj/wide-$name-$v" "$log" \
			"$frags $wide" $dirs); then
			echo "wide $v: built in $secs s, $(warnings "$log" | wc -l) distinct warnings"
		else
			echo "wide $v: FAILED after $secs s ($log)"
			fail=1
		fi
	done
	new=$(comm -13 <(warnings "$logs/series-wide-$name-base.log") \
		<(warnings "$logs/series-wide-$name-series.log"))
	if [ -n "$new" ]; then
		echo "new warnings with the series:"
		printf '  %s\n' "$new"
		fail=1
	else
		echo "no new warnings with the series"
	fi
fi

[ $fail -eq 0 ] && echo "check-series: PASS" || echo "check-series: FAIL"
exit $fail
