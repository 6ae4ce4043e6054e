#!/bin/bash
# Configure and build one kernel variant out of tree, with ccache:
#   build/obj/VARIANT[-FLAVOUR]       kbuild object directory
#   build/kernels/VARIANT[-FLAVOUR].bzImage  the result, replaced only when it changed
# A second run with nothing changed only re-runs kbuild's checks.
set -eu
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: kernel-build.sh vanilla|patched}
shift
# A flavour (ACL9P_KERNEL_FLAVOUR=debug) is the same source with one
# more fragment, kernel/config/FLAVOUR.config, built beside the plain
# kernel as VARIANT-FLAVOUR.
flavour=${ACL9P_KERNEL_FLAVOUR:-}
name=$variant${flavour:+-$flavour}
frags=${ACL9P_CONFIG_FRAGMENTS:-$ACL9P_TOP/kernel/config/acl9p.config${flavour:+ $ACL9P_TOP/kernel/config/$flavour.config}}
src=$ACL9P_BUILD/linux/$variant
obj=$ACL9P_BUILD/obj/$name
out=$ACL9P_BUILD/kernels/$name.bzImage
log=$ACL9P_BUILD/logs/kernel-$name.log
mkdir -p "$obj" "${out%/*}" "${log%/*}"

"$ACL9P_TOP/scripts/kernel-src.sh" "$variant"
# Configuring costs seconds (tinyconfig in a scratch dir): skip it when
# neither the fragments, the source commit nor the script changed.
# shellcheck disable=SC2086 # the fragment list is split on purpose
stamp=$( (cat $frags "$ACL9P_TOP/scripts/kernel-config.sh"
	git -C "$src" rev-parse HEAD) | sha1sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.acl9p-config" 2>/dev/null)" != "$stamp" ]; then
	# shellcheck disable=SC2086
	"$ACL9P_TOP/scripts/kernel-config.sh" "$src" "$obj" $frags
	echo "$stamp" >"$obj/.acl9p-config"
fi

kbuild_env

start=$(date +%s)
if ! make -C "$src" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" \
	-j"$(nproc)" "$@" bzImage >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 20 >&2 || tail -n 20 "$log" >&2
	die "kernel: $name build failed; full log: $log"
fi
cmp -s "$obj/arch/x86/boot/bzImage" "$out" ||
	cp "$obj/arch/x86/boot/bzImage" "$out"
note "kernel: $name ready in $(( $(date +%s) - start )) s: ${out#$ACL9P_TOP/}"
