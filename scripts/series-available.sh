#!/bin/bash
# Succeeds when the series kernel "patched" (kernel/kernels.conf) names
# at least one patch.
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/kernels.sh"
[ -n "$(kernel_patches patched)" ]
