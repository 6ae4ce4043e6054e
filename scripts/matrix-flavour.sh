#!/bin/bash
# Print the kernel flavour that set SET (default: "default") of
# tests/matrix.conf boots, nothing for the plain kernels; with --arch,
# the architecture it builds for (x86_64 unless the set has an "arch"
# line): the Makefile builds the kernels a "make check MATRIX=..." needs.
#
# usage: matrix-flavour.sh [--arch] [SET]
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/matrix.sh"
if [ "${1:-}" = --arch ]; then
	matrix_arch "${2:-default}"
else
	matrix_flavour "${1:-default}"
fi
