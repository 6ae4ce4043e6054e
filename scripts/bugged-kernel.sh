#!/bin/bash
# Build the patched kernel with one more patch on top of the series (a
# known bug of tests/bugs/, a probe of tests/probes/), in a worktree of
# its own (build/linux/bite, objects in build/obj/bite), so the rig's
# patched kernel stays as it is.
#
# usage: bugged-kernel.sh PATCH OUT.bzImage
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/kernels.sh"

patch=$(readlink -f "${1:?usage: bugged-kernel.sh PATCH OUT.bzImage}")
out=${2:?usage: bugged-kernel.sh PATCH OUT.bzImage}
name=$(basename "$patch" .patch)
wt=$ACL9P_BUILD/linux/bite
obj=$ACL9P_BUILD/obj/bite
mkdir -p "$ACL9P_BUILD/logs" "$(dirname "$out")"

"$ACL9P_TOP/scripts/kernel-src.sh" patched
base=$(git -C "$(kernel_tree patched)" rev-parse HEAD)
ensure_worktree "$(kernel_repo patched)" "$wt" "$base"
kbuild_env
git -C "$wt" -c advice.detachedHead=false checkout -q -f --detach "$base"
git -C "$wt" apply "$patch" || die "bugged-kernel: $name does not apply to the series"
# shellcheck disable=SC2046 # one fragment per line
"$ACL9P_TOP/scripts/kernel-config.sh" "$wt" "$obj" $(kernel_fragments patched)
# kbuild_bzimage: one bug after another in the same objects, and two
# bugs whose kernels compress to the same size were one kernel through
# ccache's piggy.o.
if ! kbuild_bzimage "$wt" "$obj" >"$ACL9P_BUILD/logs/bite-$name.log" 2>&1; then
	git -C "$wt" checkout -q -f --detach "$base"
	die "bugged-kernel: $name does not build (build/logs/bite-$name.log)"
fi
cp "$obj/arch/x86/boot/bzImage" "$out"
cp "$obj/System.map" "${out%.bzImage}.System.map"
git -C "$wt" checkout -q -f --detach "$base"
