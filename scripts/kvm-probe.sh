#!/bin/bash
# Print the QEMU accelerator arguments for this machine: KVM only when a
# bounded probe boot proves it works, TCG otherwise.  /dev/kvm alone is
# no proof: here QEMU aborts with -cpu host ("failed to set MSR") or
# hangs.  The verdict (tcg or kvm) is cached in build/accel (delete it,
# or set ACL9P_ACCEL=tcg|kvm, to decide by hand).
#
# Under TCG the guest's CPUs share one host thread (thread=single): the
# guest still has two CPUs, SMP locking and preemption, but two cells
# at a time then keep the host's two cores busy without oversubscribing
# them.  Measured on 2 cores with JOBS=2 and -smp 2: multi-threaded TCG
# made the first cells 62-125 s, thread=single 39-55 s (the whole full
# set: 39-96 s, median 49 s).  ACL9P_TCG_THREAD=multi gives every vCPU
# its own host thread (truly parallel races; then use JOBS=1).
#
# usage: kvm-probe.sh KERNEL INITRD
set -eu
. "$(dirname "$0")/lib.sh"

tcg="-accel tcg,thread=${ACL9P_TCG_THREAD:-single}"
kvm="-accel kvm -cpu host"
case ${ACL9P_ACCEL:-} in
tcg) echo "$tcg"; exit 0 ;;
kvm) echo "$kvm"; exit 0 ;;
esac

cache=$ACL9P_BUILD/accel
if [ -f "$cache" ]; then
	case $(cat "$cache") in
	kvm) echo "$kvm" ;;
	*) echo "$tcg" ;;
	esac
	exit 0
fi
mkdir -p "$ACL9P_BUILD"
verdict=$tcg why="no /dev/kvm"
if [ -w /dev/kvm ]; then
	rc=0
	# ACL9P_MODE=probe: init fails at once on the unknown mode, exit 1.
	# The subshell keeps bash's "Aborted" job notice out of the output.
	(timeout --kill-after=2 20 qemu-system-x86_64 -nodefaults -no-reboot \
		-display none -M pc -m 256 $kvm -kernel "$1" -initrd "$2" \
		-append "console=ttyS0 panic=-1 ACL9P_MODE=probe" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		</dev/null >"$ACL9P_BUILD/kvm-probe.log" 2>&1; exit $?) 2>/dev/null || rc=$?
	if [ $rc -eq 3 ]; then
		verdict=$kvm why="probe boot finished"
	elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		why="KVM probe boot hung (killed after 20 s)"
	else
		why="KVM probe failed: $(grep -m1 -iE 'error|fail' "$ACL9P_BUILD/kvm-probe.log" || echo "qemu exit $rc")"
	fi
fi
note "accel: ${verdict#-accel } (${why})"
[ "$verdict" = "$kvm" ] && echo kvm >"$cache" || echo tcg >"$cache"
echo "$verdict"
