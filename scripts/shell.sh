#!/bin/bash
# Boot a guest with the share mounted at /mnt/share and an interactive
# shell on the console.
# usage: shell.sh [CELL]   (default: the first cell of the "default" set
# for the kernel pick_kernel chooses; KERNEL=path boots yours as custom)
# Only the cell's kernel is (re)built, not both.
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/matrix.sh"

pick_kernel
cell=${1:-}
[ -n "$cell" ] || cell=$(matrix_cells default "$label" | head -n 1)
matrix_cell "$cell"
if [ -z "${KERNEL:-}" ]; then
	kernel_known "$c_kernel" ||
		die "shell: kernel '$c_kernel' of cell $cell is not in kernel/kernels.conf (KERNEL=path for your own)"
	"$ACL9P_TOP/scripts/kernel-build.sh" "$c_kernel"
	kernel=$ACL9P_BUILD/kernels/$c_kernel.bzImage
fi
exec "$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" --cell "$cell" \
	--mode shell --out "$ACL9P_BUILD/shell"
