#!/bin/bash
# Succeeds when kernel/patches/series names at least one patch.
set -eu
. "$(dirname "$0")/lib.sh"
series=$ACL9P_TOP/kernel/patches/series
[ -f "$series" ] && sed 's/#.*//' "$series" | grep -q '[^[:space:]]'
