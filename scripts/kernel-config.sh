#!/bin/bash
# Configure a kernel object directory: tinyconfig, then the fragments
# merged with the kernel's own merge_config.sh, then a check that every
# option a fragment asks for survived olddefconfig.  A dependency that
# Kconfig silently drops would otherwise give a kernel that boots but
# cannot mount 9p, and the failure would surface as a confusing hang.
#
# usage: kernel-config.sh SRCDIR OBJDIR FRAGMENT...
set -eu

src=$1 obj=$2
shift 2
[ $# -gt 0 ] || { echo "kernel-config: no config fragment given" >&2; exit 2; }

# tinyconfig merges into a hard-coded ".config" of its O= directory, so
# generate in a scratch directory and copy the result over only when it
# differs: an unchanged .config keeps its mtime and kbuild has nothing
# to redo.
scratch=$obj/.config-scratch
mkdir -p "$scratch"
new=$scratch/.config
make -s -C "$src" O="$scratch" tinyconfig >/dev/null
# -m: merge only; olddefconfig below resolves dependencies once.
(cd "$scratch" && "$src/scripts/kconfig/merge_config.sh" -m -O "$scratch" \
	"$new" "$@" >/dev/null 2>"$scratch/merge.log") || {
	cat "$scratch/merge.log" >&2; exit 1; }
make -s -C "$src" O="$scratch" olddefconfig >"$scratch/olddefconfig.log" 2>&1 || {
	cat "$scratch/olddefconfig.log" >&2; exit 1; }

missing=0
for frag in "$@"; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			if ! grep -qxF -- "$line" "$new"; then
				opt=${line%%=*}
				got=$(grep -E "^(# )?$opt[= ]" "$new" || echo "absent")
				echo "kernel-config: $line (from ${frag##*/}) did not survive: $got" >&2
				missing=1
			fi ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }; opt=${opt%% *}
			if grep -q "^$opt=" "$new"; then
				echo "kernel-config: $opt should be unset (from ${frag##*/})" >&2
				missing=1
			fi ;;
		esac
	done < "$frag"
done
[ $missing -eq 0 ] || exit 1

# Replace .config only when it changed, so an unchanged configuration
# does not make kbuild re-run syncconfig and touch include/config.
cmp -s "$new" "$obj/.config" || cp "$new" "$obj/.config"
