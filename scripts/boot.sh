#!/bin/bash
# Boot one cell: a kernel, a 9p server on a fresh export, one mount mode.
#
# usage: boot.sh [options]
#   --kernel PATH       bzImage to boot (required)
#   --label NAME        kernel name in the cell name (vanilla|patched|custom)
#   --server S          qemu-passthrough | qemu-mapped-xattr | diod
#   --access A          client | user
#   --cache C           none | loose
#   --mode M            check | demo | shell            (default check)
#   --initrd PATH       initramfs (default build/guest/initramfs.cpio.gz)
#   --out DIR           results dir (default build/results/CELL)
#   --timeout SECONDS   wall-clock limit of the whole VM (default 600)
#   --append TEXT       more kernel command line (later acl9p.* win)
#
# Environment: TESTS, a glob over test binaries without the acl9p_
# prefix (e.g. TESTS=hostchange): run only those.  ACL9P_REQUIRE_ACL=1|0:
# whether the kernel must support 9p POSIX ACLs (default: 1, except
# "auto" for --label custom: the guest looks at the mount options).
#
# The cell's results land in DIR: ktap.txt (second serial port, raw),
# console.log (first serial port), qemu.log, status (key=value, read by
# acl9p-report).  The export stays in build/run/CELL/export for a look.
# Exit status: 0 when the VM ended cleanly (the tests' verdicts are in
# ktap.txt), 1 otherwise (timeout, splat, setup failure).
set -eu
. "$(dirname "$0")/lib.sh"

kernel= label=custom server=qemu-passthrough access=client cache=none
mode=check initrd=$ACL9P_BUILD/guest/initramfs.cpio.gz out= timeout=600
extra=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2 ;;
	--label) label=$2 ;;
	--server) server=$2 ;;
	--access) access=$2 ;;
	--cache) cache=$2 ;;
	--mode) mode=$2 ;;
	--initrd) initrd=$2 ;;
	--out) out=$2 ;;
	--timeout) timeout=$2 ;;
	--append) extra=$2 ;;
	*) die "boot: unknown option $1" ;;
	esac
	shift 2
done
[ -n "$kernel" ] || die "boot: --kernel is required"
[ -r "$kernel" ] || die "boot: kernel $kernel not found"
[ -r "$initrd" ] || die "boot: initramfs $initrd not found (run: make guest)"
case $access in client | user) ;; *) die "boot: access must be client or user" ;; esac
case $cache in none | loose) ;; *) die "boot: cache must be none or loose" ;; esac

cell=$label.$server.$access.$cache
run=$ACL9P_BUILD/run/$cell
[ -n "$out" ] || out=$ACL9P_BUILD/results/$cell
export_dir=$run/export
rm -rf "$out"
mkdir -p "$out" "$run"
"$ACL9P_TOP/server/prepare-export.sh" "$server" "$export_dir"

args=()
# loglevel=5: KERN_WARNING (WARN(), lockdep) must reach the console log
append="console=ttyS0 panic=-1 oops=panic loglevel=5"
append="$append acl9p.mode=$mode acl9p.server=$server acl9p.access=$access"
append="$append acl9p.cache=$cache acl9p.kernel=$label"
case $server in
qemu-passthrough | qemu-mapped-xattr)
	mapfile -t args < <("$ACL9P_TOP/server/qemu-virtfs.sh" "${server#qemu-}" "$export_dir")
	append="$append acl9p.trans=virtio"
	;;
diod)
	mapfile -t args < <("$ACL9P_TOP/server/diod.sh" "$export_dir" "$out/diod.log")
	append="$append acl9p.trans=tcp acl9p.aname=$export_dir"
	append="$append ip=10.0.2.15::10.0.2.2:255.255.255.0::eth0:off"
	;;
*) die "boot: unknown server '$server'" ;;
esac
[ ${#args[@]} -gt 0 ] || die "boot: server $server gave no QEMU arguments"
[ -z "${TESTS:-}" ] || append="$append acl9p.tests=$TESTS"
# The rig's own kernels are built with 9p POSIX ACL support, so a test
# whose ACL probe meets EOPNOTSUPP fails instead of skipping there; for
# other kernels the guest decides from the mount (or ACL9P_REQUIRE_ACL).
require_acl=${ACL9P_REQUIRE_ACL:-}
[ -n "$require_acl" ] || { [ "$label" = custom ] && require_acl=auto || require_acl=1; }
append="$append acl9p.require_acl=$require_acl"
[ -z "$extra" ] || append="$append $extra"

read -r -a accel < <("$ACL9P_TOP/scripts/kvm-probe.sh" "$kernel" "$initrd")

# Host control channel (tests/host/hostctl.c): a third serial port on a
# Unix socket, through which guest tests change the export mid-run.
hostctl_pid= ctl=()
hostctl=$ACL9P_BUILD/tests/acl9p-hostctl
if [ "$mode" = check ] && [ -x "$hostctl" ]; then
	sock=$(mktemp -u -t acl9p-hostctl.XXXXXXXX)
	"$hostctl" "$server" "$export_dir" --socket "$sock" 2>"$out/hostctl.log" &
	hostctl_pid=$!
	for _ in $(seq 50); do
		if [ -S "$sock" ] || ! kill -0 $hostctl_pid 2>/dev/null; then break; fi
		sleep 0.1
	done
	[ -S "$sock" ] || die "boot: acl9p-hostctl did not listen: $(tail -n 1 "$out/hostctl.log")"
	# After the console and results ports, so the guest sees ttyS2.
	ctl=(-chardev "socket,id=hostctl,path=$sock" -serial chardev:hostctl)
	append="$append acl9p.hostctl=/dev/ttyS2"
fi

qemu=(qemu-system-x86_64 -nodefaults -no-reboot -M pc -m 512
	-smp "${ACL9P_SMP:-2}" "${accel[@]}"
	-kernel "$kernel" -initrd "$initrd" -append "$append"
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 "${args[@]}")

start=$(now_ms)
rc=0
if [ "$mode" = shell ]; then
	echo "acl9p: host export: $export_dir"
	"${qemu[@]}" -display none -serial mon:stdio -serial "file:$out/ktap.txt" || rc=$?
else
	timeout --kill-after=5 "$timeout" "${qemu[@]}" -display none \
		-serial "file:$out/console.log" -serial "file:$out/ktap.txt" "${ctl[@]}" \
		</dev/null >"$out/qemu.log" 2>&1 || rc=$?
fi
wall=$(( $(now_ms) - start ))
if [ -n "$hostctl_pid" ]; then
	# It ends when QEMU closes the socket; bound the wait all the same.
	timeout 5 tail --pid=$hostctl_pid -f /dev/null || kill $hostctl_pid 2>/dev/null || true
	wait $hostctl_pid 2>/dev/null || true
	rm -f "$sock" "$sock.tmp"
fi

# QEMU exits with (code << 1) | 1 through isa-debug-exit, 0 when the
# guest rebooted (our panic=-1 path), 124/137 when timeout killed it.
timed_out=0 guest=-1 reason=
case $rc in
124 | 137) timed_out=1; reason="killed after ${timeout}s wall clock" ;;
0) reason="guest rebooted or panicked (no exit code)" ;;
*)
	if [ $((rc & 1)) -eq 1 ]; then
		guest=$((rc >> 1))
		[ $guest -eq 0 ] || reason="guest setup failed (exit $guest): $(grep -m1 'FATAL' "$out/console.log" 2>/dev/null || true)"
	else
		reason="qemu failed (rc $rc): $(head -n 1 "$out/qemu.log" 2>/dev/null || true)"
	fi
	;;
esac

# Any of these in the console fails the cell, whatever the tests said.
splat=0
splats='Oops|BUG:|WARNING:|Kernel panic|KASAN|UBSAN|possible circular locking|possible recursive locking|INFO: task .* blocked|general protection fault|Call Trace:'
if [ -f "$out/console.log" ] && grep -qE "$splats" "$out/console.log"; then
	splat=1
	reason="${reason:+$reason; }kernel splat: $(grep -m1 -E "$splats" "$out/console.log")"
fi

# The host half of the tests: bytes stored on the export.
if [ "$mode" = check ] && [ -x "$ACL9P_BUILD/tests/acl9p-hostcheck" ]; then
	"$ACL9P_BUILD/tests/acl9p-hostcheck" "$server" "$export_dir" \
		<"$out/ktap.txt" >"$out/hostcheck.ktap" 2>>"$out/qemu.log" || true
	cat "$out/hostcheck.ktap" >>"$out/ktap.txt"
fi

cat >"$out/status" <<EOS
cell=$cell
exit=$guest
timeout=$timed_out
splat=$splat
wall_ms=$wall
reason=$reason
console=$out/console.log
export=$export_dir
EOS

if [ $timed_out -eq 1 ] || [ $splat -eq 1 ] || [ "$guest" != 0 ]; then
	note "boot: $cell: $reason"
	exit 1
fi
exit 0
