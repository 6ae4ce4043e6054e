#!/bin/bash
# Print the kernel flavour that set $1 (default: "default") of
# tests/matrix.conf boots, nothing for the plain kernels: the Makefile
# builds the kernels a "make check MATRIX=..." needs.
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/matrix.sh"
matrix_flavour "${1:-default}"
