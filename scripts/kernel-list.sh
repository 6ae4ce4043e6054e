#!/bin/bash
# Print kernels of kernel/kernels.conf, one per line, for make and the
# scripts that do not source kernels.sh.
#
#   kernel-list.sh run        the kernels a run builds and boots
#                             (KERNELS=, else those marked run=default)
#   kernel-list.sh all        every defined kernel
#   kernel-list.sh compares   "A B" per compare line ("A B across" for
#                             kernels of different sources)
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/kernels.sh"

case ${1:-run} in
run) kernels_run ;;
all) kernels_all ;;
compares) kernel_compares ;;
*) die "usage: kernel-list.sh run|all|compares" ;;
esac
