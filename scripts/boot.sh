#!/bin/bash
# Boot one cell: a kernel, a 9p server on a fresh export, one mount mode.
#
# usage: boot.sh [options]
#   --kernel PATH       bzImage to boot (required)
#   --cell NAME         KERNEL.SERVER.ACCESS.CACHE[.OPTS] (tests/matrix.conf);
#                       its kernel part is only a label
#   --mode M            check | demo | wire | bench | fuzz | shell | run
#                       (default check; guest/init.c says what each runs;
#                       run: scripts/shell.sh --run)
#   --arch ARCH         the kernel's and guest's architecture, one of
#                       kernel/kernels.conf (default ACL9P_ARCH, else
#                       x86_64): its QEMU, and its guest's initramfs
#                       (build/guest-ARCH/, scripts/guest-build.sh)
#   --initrd PATH       initramfs (default build/guest[-ARCH]/initramfs.cpio)
#   --root R            initramfs (default, or ROOT=) | host: the guest's
#                       root is the host's / over virtio-9p, read-only
#                       (multidevs=remap: without it host mounts whose
#                       inode numbers collide alias each other, and
#                       mounting sysfs hides /proc), with the rig's
#                       init (build/guest/init) as PID 1 and every host
#                       tool on its PATH; the share is mounted as with
#                       the initramfs
#   --out DIR           results dir (default build/results/CELL)
#   --timeout SECONDS   wall-clock limit of the whole VM (default 600)
#   --set NAME=VALUE    one more (or another) setting for the guest's
#                       environment, e.g. --set ACL9P_TESTS_DIR=/tests/rig
#   --trace-9p          log every request of QEMU's own 9p server (its
#                       v9fs_* trace events) to DIR/9p-trace.log; other
#                       servers have no such events, and it asks nothing
#                       of them (scripts/wire.sh, scripts/check.sh)
#   --icount OPTS       QEMU's -icount OPTS (TCG only): the guest's clock
#                       counts its instructions (shift=0: one ns each), so
#                       a loop that never waits is timed in instructions,
#                       whatever the host's speed (scripts/bench.sh).
#                       QEMU 7.2 hangs bringing up a second CPU with it:
#                       give --smp 1 too
#   --smp N             guest CPUs (default: ACL9P_SMP, else 2)
#
# Environment: TESTS, a glob over test binaries without the acl9p_
# prefix (e.g. TESTS=hostchange): run only those.  ACL9P_BOOT_EXTRA:
# kernel command line words of the kernel's flavour (check.sh).  RACE_MS: how long
# the race tests race when nothing bites (default 1000; they stop at the
# first error).  ACL9P_REQUIRE_ACL=1|0:
# whether the kernel must support 9p POSIX ACLs (default: 1, except
# "auto" for a kernel labelled custom: the guest probes the mount).
#
# The guest is configured the kernel's way: undotted NAME=VALUE kernel
# parameters reach its init as environment (guest/init.c lists them).
#
# The cell's results land in DIR: ktap.txt (second serial port, raw),
# hostcheck.ktap (bytes on the host after the run), console.log (first
# serial port), kernel-reports (the first line of each kernel report on
# the console), qemu.log, status (key=value, read by acl9p-report), and
# in a check run traffic.tsv (9P requests per test) where they were
# counted (--trace-9p on QEMU's server, ninep-proxy's counts).  The
# export stays in build/run/CELL/export for a look (an export=tmpfs one
# goes with the boot).  Exit status: 0 when
# the VM ended cleanly (the tests' verdicts, and in a check run the
# kernel reports', are for acl9p-report), 1 otherwise (timeout, setup
# failure, a kernel report outside a check run).
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/matrix.sh"

kernel= cell= mode=check initrd= out=
arch=${ACL9P_ARCH:-x86_64}
root=${ROOT:-initramfs}
smp=${ACL9P_SMP:-2}
timeout=600
declare -a sets=() trace=() icount=()
while [ $# -gt 0 ]; do
	case $1 in
	--trace-9p) trace=(-trace 'v9fs_*') ; shift; continue ;;
	--icount) icount=(-icount "$2") ;;
	--smp) smp=$2 ;;
	--kernel) kernel=$2 ;;
	--cell) cell=$2 ;;
	--mode) mode=$2 ;;
	--initrd) initrd=$2 ;;
	--arch) arch=$2 ;;
	--root) root=$2 ;;
	--out) out=$2 ;;
	--timeout) timeout=$2 ;;
	--set) sets+=("$2") ;;
	*) die "boot: unknown option $1" ;;
	esac
	shift 2
done
[ -n "$kernel" ] || die "boot: --kernel is required"
[ -n "$cell" ] || die "boot: --cell is required"
[ -r "$kernel" ] || die "boot: kernel $kernel not found"
qemu_bin=$(arch_get "$arch" qemu)
command -v "$qemu_bin" >/dev/null || die "boot: no $qemu_bin for $arch (run: make deps)"
initrd=${initrd:-$ACL9P_BUILD/guest$(arch_suffix "$arch")/initramfs.cpio}
if [ ! -r "$initrd" ]; then
	[ "$arch" = x86_64 ] && die "boot: initramfs $initrd not found (run: make guest)"
	die "boot: initramfs $initrd not found (run: scripts/guest-build.sh $arch)"
fi
case $root in
initramfs | host) ;;
*) die "boot: --root $root: initramfs or host" ;;
esac
matrix_cell "$cell"
# A cell that says root=host (tests/matrix.conf) boots the host's root
# whatever the caller asked.
[ -z "$c_root" ] || root=$c_root
# The host's root holds the host's binaries: an x86_64 guest's only.
[ "$root" != host ] || [ "$arch" = x86_64 ] ||
	die "boot: a host-root guest runs the host's x86_64 binaries: not on $arch"
# A kernel with modules (a distribution's, scripts/distro-kernel.sh)
# has them beside it as NAME.modules.cpio, for the initramfs.
mods=${kernel%.bzImage}.modules.cpio
[ -r "$mods" ] || mods=
[ "$mode" != run ] || [ "$root" = host ] ||
	die "boot: --mode run reads its command from the host: it needs --root host"
# The noacl mount is access=client without posixacl, the probe one with.
noacl_mount=$(matrix_mount "$cell" access=noposixacl)
probe_mount=$(matrix_mount "$cell" access=client)
server=$c_server label=$c_kernel
# shellcheck source=/dev/null
. "$ACL9P_TOP/server/$server.sh"
server_check || die "boot: server $server cannot run: see the line above"

run=$ACL9P_BUILD/run/$cell
[ -n "$out" ] || out=$ACL9P_BUILD/results/$cell
# Absolute: servers get paths under it and run in other directories
# (ninep-proxy starts diod in the cell's directory: a relative diod -L
# failed diod and the guest's mount with it, EIO).
case $out in /*) ;; *) out=$PWD/$out ;; esac
# Only QEMU's own server (server/virtfs.inc) has the v9fs_* events.
[ "${SERVER_QEMU_9P:-0}" = 1 ] || trace=()
[ ${#trace[@]} -eq 0 ] || trace+=(-D "$out/9p-trace.log")
export_dir=$run/export
rm -rf "$out"
mkdir -p "$out" "$run"
# export=tmpfs (tests/matrix.conf): the export on a tmpfs of its own,
# mounted for this boot and gone with it (a stale one, of a boot that
# was killed, first).  256 MiB: the suite writes a few MiB.
xfs=$run/xfs
if mountpoint -q "$xfs" 2>/dev/null; then umount "$xfs"; fi
if [ "$c_export" = tmpfs ]; then
	mkdir -p "$xfs"
	mount -t tmpfs -o size=256m,mode=0755 acl9p-export "$xfs" ||
		die "boot: cannot mount a tmpfs for the export at $xfs"
	trap 'umount "$xfs" 2>/dev/null || true' EXIT
	export_dir=$xfs/export
fi
"$ACL9P_TOP/server/prepare-export.sh" "$server" "$export_dir"
# The guest's RAM, which a vhost-user server (virtiofsd) maps too.
export ACL9P_GUEST_MEM_MB=512
mapfile -t args < <(server_qemu_args "$export_dir" "$out")
fstype=${SERVER_FSTYPE:-9p}
# A server on the host must give QEMU a device; a guest-local share
# (tmpfs) has none.
case $fstype in
9p | virtiofs)
	[ ${#args[@]} -gt 0 ] || die "boot: server $server gave no QEMU arguments" ;;
esac
trans=$(server_transport "$export_dir")
# Whether the server has a host side at all (SERVER_CANNOT word "host"):
# without one there is nothing for acl9p-hostctl to change and nothing
# for acl9p-hostcheck to read, and the guest is told so.
host_side=1
[[ " ${SERVER_CANNOT:-} " != *" host "* ]] || host_side=0

# The rig's own kernels are built with 9p POSIX ACL support, so a test
# whose ACL probe meets EOPNOTSUPP fails instead of skipping there,
# unless the cell has no ACLs by design (a "noacl" value); for other
# kernels the guest decides from a probe mount (or ACL9P_REQUIRE_ACL).
require_acl=${ACL9P_REQUIRE_ACL:-}
if [ -z "$require_acl" ]; then
	if [ "$c_noacl" = 1 ]; then require_acl=0
	elif [ "$label" = custom ]; then require_acl=auto
	else require_acl=1
	fi
fi

guest_env=(
	ACL9P_MODE="$mode" ACL9P_CELL="$cell" ACL9P_KERNEL="$label"
	ACL9P_SERVER="$server" ACL9P_ACCESS="$c_access" ACL9P_CACHE="$c_cache"
	ACL9P_REQUIRE_ACL="$require_acl"
)
if [ "$fstype" = 9p ]; then
	guest_env+=(ACL9P_SRC="$(server_source share)" ACL9P_OPTS="$c_mount,$trans"
		ACL9P_NOACL_SRC="$(server_source noacl)" ACL9P_NOACL_OPTS="$noacl_mount,$trans"
		ACL9P_OWN_SRC="$(server_source own)")
else
	# The cell's 9p options mean nothing to another filesystem, and
	# there is no second mount of a guest-local export.
	guest_env+=(ACL9P_FSTYPE="$fstype" ACL9P_SRC="$(server_source share)"
		ACL9P_OPTS="$trans")
fi
[ $host_side = 1 ] || guest_env+=(ACL9P_NOHOST=1)
# What the host stores the share on, for tests whose outcome it decides
# (statfs's name: tmpfs, ext2/ext3 for ext4, ...)
case $fstype in
9p | virtiofs) guest_env+=(ACL9P_EXPORT_FS="$(stat -f -c %T "$export_dir")") ;;
esac
# The probe is a second 9p mount of the share: a local cell has none, so
# its guest decides without one.
[ "$require_acl" != auto ] || [ "$fstype" != 9p ] ||
	guest_env+=(ACL9P_PROBE_OPTS="$probe_mount,$trans")
[ -z "${TESTS:-}" ] || guest_env+=(ACL9P_TESTS="$TESTS")
[ -z "${RACE_MS:-}" ] || guest_env+=(ACL9P_RACE_MS="$RACE_MS")
read -r -a accel < <("$ACL9P_TOP/scripts/kvm-probe.sh" "$kernel" "$initrd")

# Host control channel (tests/host/hostctl.c): a third serial port on a
# Unix socket, through which guest tests change the export mid-run.
hostctl_pid= ctl=()
hostctl=$ACL9P_BUILD/tests/acl9p-hostctl
hostcheck=$ACL9P_BUILD/tests/acl9p-hostcheck
# A check run without them would pass on less: the host-change tests
# would lose their channel, the stored bytes would go unchecked.
if [ "$mode" = check ] && [ $host_side = 1 ]; then
	for t in "$hostctl" "$hostcheck"; do
		[ -x "$t" ] || die "boot: ${t#$ACL9P_TOP/} missing (run: make tools)"
	done
	sock=$(mktemp -u -t acl9p-hostctl.XXXXXXXX)
	"$hostctl" --prefix "$SERVER_XATTR_PREFIX" --cannot "${SERVER_CANNOT:--}" \
		"$export_dir" --socket "$sock" 2>"$out/hostctl.log" &
	hostctl_pid=$!
	for _ in $(seq 50); do
		if [ -S "$sock" ] || ! kill -0 $hostctl_pid 2>/dev/null; then break; fi
		sleep 0.1
	done
	[ -S "$sock" ] || die "boot: acl9p-hostctl did not listen: $(tail -n 1 "$out/hostctl.log")"
	# After the console and results ports, so the guest sees ttyS2.
	ctl=(-chardev "socket,id=hostctl,path=$sock" -serial chardev:hostctl)
	guest_env+=(ACL9P_HOSTCTL=/dev/ttyS2)
fi
# The host's root: the rig's static init and binaries where make guest
# left them, read by the guest through the root share.  Its own 9p
# mount, apart from the share under test: cache=loose (the host's tree
# does not change under a boot that only reads it), and a large msize
# for the loader's and tools' reads.
rootdev=() rootargs=
if [ "$root" = host ]; then
	[ -x "$ACL9P_BUILD/guest/init" ] || die "boot: build/guest/init missing (run: make guest)"
	rootdev=(-fsdev "local,id=acl9proot,path=/,security_model=none,readonly=on,multidevs=remap"
		-device virtio-9p-pci,fsdev=acl9proot,mount_tag=acl9proot)
	rootopts=trans=virtio,version=9p2000.L,cache=loose,msize=262144
	if [ -z "$mods" ]; then
		rootargs="root=acl9proot rootfstype=9p rootflags=$rootopts ro init=$ACL9P_BUILD/guest/init"
	else
		# 9p is a module: the kernel cannot mount that root itself.
		# The initramfs' init loads it, mounts the host's root and
		# enters it (guest/init.c, ACL9P_ROOT_SRC), as an initramfs
		# of a distribution would.
		guest_env+=(ACL9P_ROOT_SRC=acl9proot ACL9P_ROOT_OPTS=$rootopts)
	fi
	guest_env+=(ACL9P_ROOT=host ACL9P_FUSED="$ACL9P_BUILD/guest/acl9p-fused"
		ACL9P_TESTS_DIR="$ACL9P_BUILD/tests")
	# the acl package's own suite, where scripts/acl-tools.sh left it
	# with its lookup library (acl9p_aclsuite)
	suite=$(find "$ACL9P_BUILD/acl/src" -mindepth 1 -maxdepth 1 -type d -name 'acl-*' 2>/dev/null | head -n 1)
	[ -z "$suite" ] || [ ! -r "$suite/.libs/libtestlookup.so" ] ||
		guest_env+=(ACL9P_ACL_SUITE="$suite")
fi
guest_env+=("${sets[@]}")

# loglevel=5: KERN_WARNING (WARN(), lockdep) must reach the console log
append="console=ttyS0 panic=-1 oops=panic loglevel=5${rootargs:+ $rootargs} $(server_cmdline)${c_boot:+ $c_boot}${ACL9P_BOOT_EXTRA:+ $ACL9P_BOOT_EXTRA}"
for e in "${guest_env[@]}"; do
	case $e in
	*[[:space:]]*) die "boot: guest setting '$e' has white space (a kernel parameter cannot)" ;;
	[A-Z]*=*) ;;
	*) die "boot: guest setting '$e' is not NAME=VALUE" ;;
	esac
	append="$append $e"
done
# The kernel hands PID 1 at most CONFIG_INIT_ENV_ARG_LIMIT (32)
# variables, HOME and TERM among them, and keeps 2048 bytes of command
# line (x86): past either the guest would boot half-configured.
[ ${#guest_env[@]} -le 30 ] || die "boot: ${#guest_env[@]} guest settings, the kernel passes at most 30"
[ ${#append} -lt 2048 ] || die "boot: kernel command line of ${#append} bytes, x86 keeps 2047"

# qboot (QEMU's minimal firmware, in qemu-system-data) hands over to the
# kernel sooner than SeaBIOS under TCG (one probe boot: 3.3 s against
# 3.6 s), and passes QEMU's ACPI tables on: the guest still finds both
# CPUs (the rig self-test checks it).
bios=()
qboot=/usr/share/qemu/qboot.rom
[ ! -r "$qboot" ] || bios=(-bios "$qboot")
initrd_arg=(-initrd "$initrd")
[ "$root" = initramfs ] || initrd_arg=()
# A kernel's modules are appended to the initramfs, which the kernel
# unpacks as one archive, for the init to load.
if [ -n "$mods" ]; then
	cat "$initrd" "$mods" >"$run/initrd.cpio"
	initrd_arg=(-initrd "$run/initrd.cpio")
fi
qemu=("$qemu_bin" -nodefaults -no-reboot -M pc -m "$ACL9P_GUEST_MEM_MB" "${bios[@]}"
	-smp "$smp" "${accel[@]}" "${icount[@]}"
	-kernel "$kernel" "${initrd_arg[@]}" -append "$append"
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 "${rootdev[@]}" "${args[@]}" "${trace[@]}")

start=$(now_ms)
rc=0
if [ "$mode" = shell ]; then
	echo "acl9p: host export: $export_dir"
	"${qemu[@]}" -display none -serial mon:stdio -serial "file:$out/ktap.txt" || rc=$?
elif [ "$mode" = run ]; then
	# the command's stdout live on ours; its stderr and status to files
	# that scripts/shell.sh --run hands on
	timeout --kill-after=5 "$timeout" "${qemu[@]}" -display none \
		-serial "file:$out/console.log" -serial stdio \
		-serial "file:$out/run.stderr" -serial "file:$out/run-status" \
		</dev/null 2>"$out/qemu.log" || rc=$?
else
	timeout --kill-after=5 "$timeout" "${qemu[@]}" -display none \
		-serial "file:$out/console.log" -serial "file:$out/ktap.txt" "${ctl[@]}" \
		</dev/null >"$out/qemu.log" 2>&1 || rc=$?
fi
wall=$(( $(now_ms) - start ))
# A server QEMU did not start itself (virtiofsd) ends with QEMU's
# connection; server_stop makes sure when QEMU never connected.
! declare -F server_stop >/dev/null || server_stop "$out"
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

# The kernel's reports on the console (oops, BUG, WARNING, sanitizers,
# lockdep, hung tasks, leaks): each one's first line, by the rules of
# tests/lib/kernel-reports (the guest tests compile the same file in),
# into the cell's kernel-reports.  In a check run acl9p-report judges
# them as the cell's test console.kernel_reports, by the expected lists
# like any test; elsewhere (demo, wire, shell) a report fails the boot.
# A console that cannot be scanned is a report of its own: it fails too.
kernel_reports() { # RULES CONSOLE
	awk -v rules="$1" '
	BEGIN {
		while ((r = (getline l < rules)) > 0) {
			if (l ~ /^[ \t]*(#|$)/)
				continue
			k = l; sub(/[ \t].*/, "", k)
			re = l; sub(/^[^ \t]+[ \t]+/, "", re)
			if ((k != "report" && k != "trace" && k != "quiet" && k != "end") || re == l) {
				print "acl9p: " rules ": not a rule: " l
				exit 2
			}
			kind[++n] = k; rx[n] = re
		}
		if (r < 0 || !n) {
			print "acl9p: no kernel report rules in " rules
			exit 2
		}
	}
	{
		sub(/\r+$/, "")
		hit = ""
		for (i = 1; i <= n; i++)
			if ($0 ~ rx[i]) {
				if (kind[i] == "report") { hit = "report"; break }
				if (hit == "" || kind[i] == "trace") hit = kind[i]
			}
		if (open && ++age > 200) open = 0
		if (hit == "report" || (hit == "trace" && !open)) {
			print; open = 1; age = 0
		} else if (hit == "quiet") {
			open = 1; age = 0
		} else if (hit == "end") {
			open = 0
		}
	}' "$2"
}
reports=$out/kernel-reports
: >"$reports"
if [ -f "$out/console.log" ]; then
	kernel_reports "$ACL9P_TOP/tests/lib/kernel-reports" "$out/console.log" >"$reports" ||
		echo "acl9p: the console log could not be scanned for kernel reports" >>"$reports"
fi
nreports=$(wc -l <"$reports")
if [ "$nreports" -gt 0 ] && [ "$mode" != check ]; then
	reason="${reason:+$reason; }kernel report: $(head -n 1 "$reports")"
fi
# The host half of the tests: bytes stored on the export.
if [ "$mode" = check ] && [ $host_side = 1 ]; then
	"$hostcheck" --prefix "$SERVER_XATTR_PREFIX" "$export_dir" \
		<"$out/ktap.txt" >"$out/hostcheck.ktap" 2>>"$out/qemu.log" || true
fi

# The 9P requests of each test (traffic.tsv, which acl9p-report reads):
# in a check run every test sends a marker first and names it on a
# "# acl9p-mark N TEST" line (tests/lib/mark.c), and acl9p-p9trace
# gives each slice of QEMU's trace, or each bucket of ninep-proxy's
# counts, to its test.  All or nothing: when that fails the file is its
# "# error" line alone.  The trace (some 6 MB a cell) stays, gzipped.
if [ "$mode" = check ]; then
	src=()
	if [ -f "$out/9p-trace.log" ]; then
		src=("$out/9p-trace.log")
	elif [ -f "$out/ninep-proxy.counts" ]; then
		src=(--proxy-counts "$out/ninep-proxy.counts")
	fi
	p9trace=$ACL9P_BUILD/tests/acl9p-p9trace
	if [ ${#src[@]} -gt 0 ] && [ ! -x "$p9trace" ]; then
		echo "# error ${p9trace#"$ACL9P_TOP"/} missing (run: make tools)" >"$out/traffic.tsv"
	elif [ ${#src[@]} -gt 0 ] && ! err=$("$p9trace" --marks "$out/ktap.txt" "${src[@]}" \
		2>&1 >"$out/traffic.tsv"); then
		echo "# error ${err%%$'\n'*}" >"$out/traffic.tsv"
	fi
	[ ! -f "$out/9p-trace.log" ] || gzip -f "$out/9p-trace.log"
fi

cat >"$out/status" <<EOS
cell=$cell
exit=$guest
timeout=$timed_out
kernel_reports=$nreports
wall_ms=$wall
reason=$reason
console=$out/console.log
export=$export_dir
EOS

if [ $timed_out -eq 1 ] || [ "$guest" != 0 ] ||
	{ [ "$nreports" -gt 0 ] && [ "$mode" != check ]; }; then
	note "boot: $cell: $reason"
	exit 1
fi
exit 0
