#!/bin/bash
# Configure and build one kernel of kernel/kernels.conf out of tree,
# with ccache:
#   build/linux/NAME/acl9p-obj[-FLAVOUR]  kbuild object directory
#   build/kernels/NAME[-FLAVOUR].bzImage  the result, replaced only when it changed
#                                         (ACL9P_KERNEL_OUT: elsewhere)
# A second run with nothing changed only re-runs kbuild's checks.
#
# The object directory sits directly inside the source tree because
# kbuild then names the source by the relative path ".." (srctree), not
# by its absolute path.  The compiler's command line is then the same
# in build/linux/vanilla and build/linux/patched, and ccache serves the
# patched build every object whose inputs the series does not change:
# from a fresh clone (make bench, ccache in depend mode, 2026-12-05
# 08:29) 530 hits and 772 misses, 506 s after vanilla's 672 s (1277
# misses); with build/obj/VARIANT, where the tree's name was in every
# path, 95 hits of about 1,430.  The shared objects are the light ones
# (ACPICA, arch/x86, lib/); those that include fs.h, security.h or
# posix_acl.h compile again.
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/kernels.sh"

variant=${1:?usage: kernel-build.sh KERNEL [MAKE ARGS] (kernel/kernels.conf: $(kernels_all | tr '\n' ' '))}
shift
# A distribution's kernel (image=) is fetched, not built.
if [ -n "$(kernel_get "$variant" image)" ]; then
	[ -z "${ACL9P_KERNEL_FLAVOUR:-}" ] ||
		die "kernel: $variant is a distribution's image: it has no flavour ${ACL9P_KERNEL_FLAVOUR}"
	exec "$ACL9P_TOP/scripts/distro-kernel.sh" "$variant"
fi
# A flavour (ACL9P_KERNEL_FLAVOUR=debug) is the same source with one
# more fragment, kernel/config/FLAVOUR.config, built beside the plain
# kernel as NAME-FLAVOUR.  Another architecture of kernel/kernels.conf
# (ACL9P_KERNEL_ARCH=i386) is kbuild's ARCH= with that architecture's
# fragment, built beside the x86_64 kernel as NAME[-FLAVOUR]-ARCH.
flavour=${ACL9P_KERNEL_FLAVOUR:-}
arch=${ACL9P_KERNEL_ARCH:-x86_64}
asfx=$(arch_suffix "$arch")
name=$variant${flavour:+-$flavour}$asfx
frags=${ACL9P_CONFIG_FRAGMENTS:-$(kernel_fragments "$variant" "$flavour" "$arch" | tr '\n' ' ')}
src=$(kernel_tree "$variant")
obj=$src/acl9p-obj${flavour:+-$flavour}$asfx
# kbuild takes ARCH from the environment (kernel-config.sh's make too).
export ARCH
ARCH=$(arch_get "$arch" kbuild)
out=${ACL9P_KERNEL_OUT:-$ACL9P_BUILD/kernels/$name.bzImage}
log=$ACL9P_BUILD/logs/kernel-$name.log
mkdir -p "${out%/*}" "${log%/*}"

"$ACL9P_TOP/scripts/kernel-src.sh" "$variant"
# After kernel-src.sh: it may create the tree (rm -rf, then extract or
# git worktree add, which wants the directory absent or empty).
mkdir -p "$obj"
# Keep the object directories out of git status of both trees (the
# worktree shares the repository's info/exclude).
exclude=$(kernel_repo "$variant")/.git/info/exclude
grep -qxF '/acl9p-obj*/' "$exclude" 2>/dev/null || {
	mkdir -p "${exclude%/*}"; echo '/acl9p-obj*/' >>"$exclude"; }
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

# What the build cost, appended to build/logs/kernel-NAME.time (make
# bench reports it): "DATE SECONDS clean|rebuild HITS MISSES", clean
# when the object directory held no vmlinux yet; HITS and MISSES are
# ccache's counters across the build (another build beside it on the
# same cache counts there too): a clean build's time means little
# without knowing whether ccache was cold.
kind=rebuild
[ -e "$obj/vmlinux" ] || kind=clean
ccache_counts() {
	ccache --print-stats 2>/dev/null | awk '$1 ~ /_cache_hit$/ { h += $2 }
		$1 == "cache_miss" { m += $2 } END { print h + 0, m + 0 }'
}
read -r hits0 misses0 < <(ccache_counts)
start=$(date +%s)

# A clean build is 7-12 silent minutes: say what is built, what it cost
# last time and where its log is, then how far it got once a minute
# (the files kbuild compiled, against the count of the last clean
# build, kept in build/logs/kernel-NAME.files).  A build with nothing
# to do ends before the first progress line.
files=$ACL9P_BUILD/logs/kernel-$name.files
last=$(tail -n 1 "$ACL9P_BUILD/logs/kernel-$name.time" 2>/dev/null |
	awk 'NF >= 3 { print $2 " s, " $3 }')
total=$(cat "$files" 2>/dev/null || true)
note "kernel: building $name ($kind${last:+; last build: $last}); log: ${log#"$ACL9P_TOP"/}"
compiled() {
	grep -cE '^  (CC|AS) ' "$log" 2>/dev/null || true
}
progress() { # PID
	local t=0
	while kill -0 "$1" 2>/dev/null; do
		sleep 5
		t=$((t + 5))
		[ $((t % 60)) = 0 ] || continue
		note "kernel: $name: $(compiled) ${total:+of about $total }files compiled in $((t / 60)) min"
	done
}
# What is booted must be what was built (kbuild_bzimage checks it), so a
# stale boot image can never pass for the kernel under test.
kbuild_bzimage "$src" "$obj" "$@" >"$log" 2>&1 &
bpid=$!
progress $bpid &
ppid=$!
brc=0
wait $bpid || brc=$?
kill $ppid 2>/dev/null || true
wait $ppid 2>/dev/null || true
if [ $brc != 0 ]; then
	grep -E 'error|Error|bzimage-carries' "$log" | head -n 20 >&2 || tail -n 20 "$log" >&2
	die "kernel: $name build failed; full log: $log"
fi
[ $kind != clean ] || compiled >"$files"
cmp -s "$obj/arch/x86/boot/bzImage" "$out" ||
	cp "$obj/arch/x86/boot/bzImage" "$out"
secs=$(( $(date +%s) - start ))
read -r hits misses < <(ccache_counts)
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $secs $kind $((hits - hits0)) $((misses - misses0))" \
	>>"$ACL9P_BUILD/logs/kernel-$name.time"
note "kernel: $name ready in $secs s: ${out#"$ACL9P_TOP"/}"
