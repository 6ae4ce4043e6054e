#!/bin/bash
# Does the suite bite?  Build the patched kernel once more with a known
# bug put into it (tests/bugs/*.patch, applied on top of the series),
# run a few cells on it and on the unbugged patched kernel, and list the
# tests that fail only with the bug.  A bug that no test catches makes
# this script fail.
#
# usage: bite.sh [BUG.patch ...]   (default: every tests/bugs/*.patch)
# Environment: ACL9P_BITE_CELLS, the cells to run without their kernel
# part (default: the "bite" set of tests/matrix.conf).
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/matrix.sh"

cells=${ACL9P_BITE_CELLS:-$(matrix_configs bite)}
[ $# -gt 0 ] || set -- "$ACL9P_TOP"/tests/bugs/*.patch
wt=$ACL9P_BUILD/linux/bite
obj=$ACL9P_BUILD/obj/bite
out=$ACL9P_BUILD/bite
mkdir -p "$out" "$ACL9P_BUILD/kernels" "$ACL9P_BUILD/logs"

"$ACL9P_TOP/scripts/kernel-src.sh" patched
base=$(git -C "$ACL9P_BUILD/linux/patched" rev-parse HEAD)
ensure_worktree "$wt" "$base"
kbuild_env

# passes DIR: the tests that passed in DIR/ktap.txt.  A test that fails
# or skips with the bug counts as caught: a broken ACL api makes the
# suite's feature probes say "not supported" and skip (the A/B
# differential of make check flags those too).
passes() {
	{
		awk '/^# selftests: acl9p: / { bin = $4 }
		     /^    ok [0-9]+ / && !/ # SKIP/ { print bin "." $3 }' "$1/ktap.txt"
		awk '/^ok [0-9]+ / { print "hostcheck." $3 }' "$1/hostcheck.ktap"
	} 2>/dev/null | sort -u
}

run_cells() { # KERNEL LABEL DIR
	local c
	for c in $cells; do
		"$ACL9P_TOP/scripts/boot.sh" --kernel "$1" --cell "$2.$c" \
			--out "$3/$c" --timeout 300 >/dev/null 2>&1 || true
	done
}

note "bite: baseline cells on the patched kernel"
[ -r "$ACL9P_BUILD/kernels/patched.bzImage" ] || "$ACL9P_TOP/scripts/kernel-build.sh" patched
run_cells "$ACL9P_BUILD/kernels/patched.bzImage" patched "$out/baseline"

missed=0
for bug in "$@"; do
	name=$(basename "$bug" .patch)
	git -C "$wt" -c advice.detachedHead=false checkout -q -f --detach "$base"
	git -C "$wt" apply "$(readlink -f "$bug")" || die "bite: $name does not apply to the series"
	# shellcheck disable=SC2086
	"$ACL9P_TOP/scripts/kernel-config.sh" "$wt" "$obj" "$ACL9P_TOP/kernel/config/acl9p.config"
	if ! make -C "$wt" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" bzImage \
		>"$ACL9P_BUILD/logs/bite-$name.log" 2>&1; then
		die "bite: $name does not build (build/logs/bite-$name.log)"
	fi
	cp "$obj/arch/x86/boot/bzImage" "$ACL9P_BUILD/kernels/bite-$name.bzImage"
	run_cells "$ACL9P_BUILD/kernels/bite-$name.bzImage" bite "$out/$name"
	echo "== $name"
	caught=0
	for c in $cells; do
		new=$(comm -23 <(passes "$out/baseline/$c") <(passes "$out/$name/$c"))
		st=$(sed -n 's/^reason=//p' "$out/$name/$c/status")
		n=$(printf '%s' "$new" | grep -c . || true)
		echo "  $c: $n tests pass only without the bug${st:+ (cell: $st)}"
		printf '%s\n' "$new" | grep . | head -n 8 | sed 's/^/      /'
		[ "$n" -gt 0 ] && caught=1
	done
	[ $caught -eq 1 ] || { echo "  NOT CAUGHT"; missed=1; }
done
git -C "$wt" checkout -q -f --detach "$base"
exit $missed
