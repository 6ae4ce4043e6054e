#!/bin/bash
# Boot a guest with the share mounted at /mnt/share and an interactive
# shell on the console, or (--run) run one command there.
# usage: shell.sh [--run] [CELL]
#   CELL     default: the first cell of the "default" set for the
#            kernel pick_kernel chooses; KERNEL=path boots yours as
#            custom.  Only the cell's kernel is (re)built, not all.
#   --run    run CMD (environment: a shell command line) by /bin/sh in
#            the share, its stdout on ours, its stderr on ours once the
#            guest is done, and exit with its status; 125 when the guest
#            could not run it (the reason on stderr).  The guest's root
#            is the host's (ROOT=host, the default here): the command
#            has every host tool.  RUN_TIMEOUT: the VM's wall-clock limit
#            in seconds (default 600).
# ROOT=host|initramfs (scripts/boot.sh --root) picks the guest's root.
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/matrix.sh"

mode=shell
if [ "${1:-}" = --run ]; then
	mode=run
	shift
	[ -n "${CMD:-}" ] || die "run: CMD is empty: make run CMD='getfacl -R .' [CELL=...]"
	export ROOT=${ROOT:-host}
fi
pick_kernel
cell=${1:-}
[ -n "$cell" ] || cell=$(matrix_cells default "$label" | head -n 1)
matrix_cell "$cell"
if [ -z "${KERNEL:-}" ]; then
	kernels_load
	kernel_known "$c_kernel" ||
		die "$mode: kernel '$c_kernel' of cell $cell is not in kernel/kernels.conf (KERNEL=path for your own)"
	"$ACL9P_TOP/scripts/kernel-build.sh" "$c_kernel" >&2
	kernel=$ACL9P_BUILD/kernels/$c_kernel.bzImage
fi
if [ $mode = shell ]; then
	exec "$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" --cell "$cell" \
		--mode shell --out "$ACL9P_BUILD/shell"
fi

# The guest reads the command from the host's root: a file beside the
# results, which boot.sh empties at its start.
out=$ACL9P_BUILD/run-cmd
cmdfile=$ACL9P_BUILD/run-cmd.sh
printf '%s\n' "$CMD" >"$cmdfile"
rc=0
"$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" --cell "$cell" --mode run \
	--timeout "${RUN_TIMEOUT:-600}" --set ACL9P_RUN="$cmdfile" --out "$out" || rc=$?
[ ! -s "$out/run.stderr" ] || cat "$out/run.stderr" >&2
status=$(sed -n 's/^run-exit \(-\{0,1\}[0-9]*\).*/\1/p' "$out/run-status" 2>/dev/null | tail -n 1)
if [ -z "$status" ]; then
	note "run: the guest did not run the command: $(sed -n 's/^reason=//p' "$out/status" 2>/dev/null) (console: ${out#"$ACL9P_TOP"/}/console.log)"
	exit 125
fi
if [ "$status" = -1 ]; then
	note "run: the command ran past its limit and was killed"
	exit 125
fi
[ $rc = 0 ] || note "run: the guest ended badly after the command: $(sed -n 's/^reason=//p' "$out/status")"
exit "$status"
