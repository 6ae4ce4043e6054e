#!/bin/bash
# Boot a guest with the share mounted at /mnt/share and an interactive
# shell on the console (patched kernel when the series is there).
# usage: shell.sh SERVER ACCESS CACHE
set -eu
. "$(dirname "$0")/lib.sh"

pick_kernel
exec "$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" --label "$label" \
	--server "$1" --access "$2" --cache "$3" --mode shell \
	--out "$ACL9P_BUILD/shell"
