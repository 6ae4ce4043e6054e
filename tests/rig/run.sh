#!/bin/bash
# The rig's own tests: the parts that decide a verdict must themselves
# be able to say "failed".  Run by "make check" before the matrix.
#   - acl9p-report's selftest (fixture result trees);
#   - kernel/kernels.conf: a malformed image= kernel is refused, a good
#     one is judged as its kernel and compared as the same source; a
#     malformed arch line is refused, x86_64 must be defined, another
#     architecture's kernels get its suffix and fragment
#     (kernels-conf.sh);
#   - kernel-config.sh rejects an option that does not survive Kconfig;
#   - make flaky's judge calls the series worse on a planted race rate,
#     and not on chance, the other direction, or within Holm's margin
#     (flaky-judge.sh);
#   - a rebuilt bzImage carries the vmlinux just built, also when the
#     compressed size did not change (stale-bzimage.sh);
#   - boot.sh kills a VM that runs over its wall-clock limit and fails
#     the cell (timeout=1 in its status), instead of waiting for it;
#   - boot.sh refuses a check run without acl9p-hostctl;
#   - boot.sh fails a cell whose guest cannot mount the share;
#   - a kernel report on the console fails the cell, tests or not
#     (boot.sh's kernel-reports, acl9p-report's console.kernel_reports);
#   - the guest kernel brings up every CPU QEMU gives it;
#   - the guest kernel ends a hung test at its harness timeout;
#   - the kernel's kunit_parser.py reads the guest's nested KTAP without
#     an error, and reports one for a nameless "ok N # SKIP";
#   - acl9p-hostctl refuses requests outside the export or with bad
#     values and changes nothing, and stores what a good request says;
#   - ninep-proxy (server/ninep-proxy.sh), built with ASan and UBSan:
#     its parser takes valid frames of every type to their fields and
#     refuses each class of corruption, and survives a fixed-seed fuzz;
#     in front of the real diod, it passes the host's ACL bytes
#     through, applies each fault as specified, drops and refuses
#     malformed frames from either side by exiting (never a signal),
#     and counts exactly; its fuzz mode keeps every frame valid 9P for
#     thousands of seeds, logs exactly the bytes it sent, and gives the
#     same bytes for the same seed; the strict POSIX ACL reading of the
#     fuzz judge accepts and refuses known values (aclfuzz-test);
#   - a host-root guest (make run): the host's tools run in the share,
#     their stdout and exit status come back, a failing command's too;
#   - guest death mid-write (guest-death.sh): QEMU SIGKILLed while the
#     guest sets ACLs in a loop, on diod and on QEMU's own server,
#     leaves one whole value of the sequence on the export, never an
#     older one than the guest saw acknowledged.
set -eu
. "$(dirname "$0")/../../scripts/lib.sh"

pass=0 failn=0
ok() { echo "ok - $1"; pass=$((pass + 1)); }
bad() { echo "not ok - $1"; failn=$((failn + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if VALGRIND=${VALGRIND:-0} "$ACL9P_TOP/tests/report/selftest/run.sh" >"$tmp/report.log" 2>&1; then
	ok "acl9p-report selftest ($(tail -n 1 "$tmp/report.log"))"
else
	bad "acl9p-report selftest"; tail -n 20 "$tmp/report.log"
fi

if "$ACL9P_TOP/tests/rig/kernels-conf.sh" >"$tmp/kconf.log" 2>&1; then
	ok "$(tail -n 1 "$tmp/kconf.log")"
else
	bad "$(tail -n 1 "$tmp/kconf.log")"; grep -v '^kernels.conf:' "$tmp/kconf.log"
fi

if "$ACL9P_TOP/tests/rig/flaky-judge.sh" >"$tmp/flaky.log" 2>&1; then
	ok "$(tail -n 1 "$tmp/flaky.log")"
else
	bad "$(tail -n 1 "$tmp/flaky.log")"; grep -v '^ok' "$tmp/flaky.log"
fi

echo 'CONFIG_ACL9P_NO_SUCH_OPTION=y' >"$tmp/bogus.config"
if "$ACL9P_TOP/scripts/kernel-config.sh" "$ACL9P_BUILD/linux/vanilla" "$tmp/obj" \
	"$ACL9P_TOP/kernel/config/acl9p.config" "$tmp/bogus.config" 2>"$tmp/cfg.err"; then
	bad "kernel-config accepts an option Kconfig drops"
elif grep -q 'CONFIG_ACL9P_NO_SUCH_OPTION=y.*did not survive' "$tmp/cfg.err"; then
	ok "kernel-config names the option that did not survive"
else
	bad "kernel-config failed without naming the option"; cat "$tmp/cfg.err"
fi

# A rebuilt kernel is the new kernel, never the previous one that
# ccache's piggy.o carried (stale-bzimage.sh, ~30 s: three rebuilds).
if "$ACL9P_TOP/tests/rig/stale-bzimage.sh" >"$tmp/stale.log" 2>&1; then
	ok "$(tail -n 1 "$tmp/stale.log")"
else
	bad "$(tail -n 1 "$tmp/stale.log")"; cat "$tmp/stale.log"
fi

kernel=$ACL9P_BUILD/kernels/vanilla.bzImage
if [ -r "$kernel" ]; then
	t0=$(date +%s)
	cell=rigtest.qemu-passthrough.client.none
	if "$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" --cell $cell \
		--out "$tmp/slow" --timeout 2 >/dev/null 2>&1; then
		bad "a VM over its time limit passes"
	elif grep -qx 'timeout=1' "$tmp/slow/status" && [ $(( $(date +%s) - t0 )) -lt 30 ]; then
		ok "a VM over its time limit is killed and its cell fails"
	else
		bad "timeout not reported"; cat "$tmp/slow/status"
	fi

	# A check run without acl9p-hostctl (or acl9p-hostcheck) would
	# pass on less; boot.sh refuses it, before QEMU starts.  A build
	# dir that lends the real one everything but that binary.
	mkdir -p "$tmp/b/tests"
	for x in guest accel kernels; do ln -s "$ACL9P_BUILD/$x" "$tmp/b/$x"; done
	ln -s "$ACL9P_BUILD/tests/acl9p-hostcheck" "$tmp/b/tests/"
	if ACL9P_BUILD=$tmp/b "$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" \
		--cell $cell --out "$tmp/notool" --timeout 30 >"$tmp/notool.log" 2>&1; then
		bad "a check run without acl9p-hostctl passes"
	elif grep -q 'acl9p-hostctl missing' "$tmp/notool.log"; then
		ok "a check run without acl9p-hostctl fails, naming it"
	else
		bad "missing acl9p-hostctl not named"; tail -n 3 "$tmp/notool.log"
	fi

	# A guest whose share cannot be mounted (a virtio tag that no
	# device has) fails with its reason, not a hang.
	if "$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" --cell $cell \
		--set ACL9P_SRC=no-such-tag --out "$tmp/nomount" --timeout 60 \
		>/dev/null 2>&1; then
		bad "a guest without its share passes"
	elif grep -q '^reason=guest setup failed' "$tmp/nomount/status" 2>/dev/null; then
		ok "a guest that cannot mount fails its cell with the reason"
	else
		bad "mount failure not reported"; cat "$tmp/nomount/status" 2>/dev/null || true
	fi

	# A kernel report in the console fails the cell although the guest
	# ended cleanly and every test passed (the init writes a fake one to
	# /dev/kmsg on request, at KERN_WARNING like WARN(): the console
	# loglevel must show it): boot.sh puts its line in the cell's
	# kernel-reports, and acl9p-report fails the cell's
	# console.kernel_reports with it when no list names it.
	splat=$tmp/splat/$cell
	mkdir -p "$tmp/splat" "$tmp/noexp"
	rec='WARNING: acl9p rig self-test, not a kernel bug'
	if ! "$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" --cell $cell \
		--set ACL9P_TESTS_DIR=/tests/rig --set ACL9P_TESTS=rig_splat \
		--out "$splat" --timeout 60 >/dev/null 2>&1; then
		bad "a check run with a kernel report does not end cleanly: $(grep -h '^reason=' "$splat/status" 2>/dev/null)"
	elif ! grep -qx 'kernel_reports=1' "$splat/status" || ! grep -qx 'exit=0' "$splat/status" ||
		! grep -qxF "$rec" "$splat/kernel-reports"; then
		bad "the kernel report is not in kernel-reports"; cat "$splat/status" "$splat/kernel-reports" 2>/dev/null || true
	elif "$ACL9P_BUILD/report/acl9p-report" --results "$tmp/splat" --expected "$tmp/noexp" \
		>"$tmp/splat.report" 2>&1; then
		bad "acl9p-report passes a cell with a kernel report"
	elif grep -qF "FAIL   console.kernel_reports  [$cell]" "$tmp/splat.report" &&
		grep -qF "| # $rec" "$tmp/splat.report"; then
		ok "a kernel report in the console fails the cell (console.kernel_reports)"
	else
		bad "acl9p-report did not fail console.kernel_reports"; cat "$tmp/splat.report"
	fi

	# A kernel given by KERNEL= (labelled custom) decides from a probe
	# mount whether ACL tests may skip; that mount is a second 9p source,
	# which a local cell has none of, so its guest must boot without it.
	if "$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" --cell custom.local-tmpfs.client.none \
		--set ACL9P_TESTS_DIR=/tests/rig --set ACL9P_TESTS=rig_splat \
		--out "$tmp/custom-local" --timeout 60 >/dev/null 2>&1 &&
		grep -qx 'exit=0' "$tmp/custom-local/status"; then
		ok "a kernel labelled custom boots a local cell"
	else
		bad "a kernel labelled custom fails a local cell: $(grep -h '^reason=' "$tmp/custom-local/status" 2>/dev/null)"
	fi

	# make run: the host's / as the guest's root, a command in the share
	# with host tools (Debian's getfacl, dynamically linked, and perl),
	# its stdout and its exit status ours, and its stderr after.
	if out=$(KERNEL=$kernel CMD='getfacl -n hostset/f; perl -e "print 6*7, qq(\n)"; echo oops >&2; exit 7' \
		"$ACL9P_TOP/scripts/shell.sh" --run custom.qemu-passthrough.client.none 2>"$tmp/run.err"); then
		bad "make run: a command that exits 7 gives 0"
	else
		rc=$?
		if [ $rc = 7 ] && grep -qx 'user:1001:r--' <<<"$out" && grep -qx 42 <<<"$out" &&
			grep -qx oops "$tmp/run.err"; then
			ok "make run: host tools in a host-root guest, output and exit status 7 passed through"
		else
			bad "make run: exit $rc, output: $(tr '\n' '|' <<<"$out") stderr: $(tail -n 3 "$tmp/run.err" | tr '\n' '|')"
		fi
	fi

	# make run with a cell of kernel/kernels.conf's kernel, not KERNEL=
	if CMD='exit 0' "$ACL9P_TOP/scripts/shell.sh" --run vanilla.qemu-passthrough.client.none \
		>/dev/null 2>"$tmp/run2.err"; then
		ok "make run: a cell names its kernel of kernel/kernels.conf"
	else
		bad "make run of vanilla.qemu-passthrough.client.none: $(tail -n 1 "$tmp/run2.err")"
	fi

	# QEMU's -smp must reach the guest, or the concurrency tests race
	# on one CPU (a kernel without SMP, or without ACPI: SeaBIOS' MP
	# table names the boot CPU only).
	want=${ACL9P_SMP:-2}
	if grep -q "acl9p-init: $want CPUs online" "$splat/console.log" 2>/dev/null; then
		ok "the guest runs on the $want CPUs QEMU gives it"
	else
		bad "the guest does not run on $want CPUs: $(grep -a 'CPUs online' "$splat/console.log" 2>/dev/null)"
	fi

	# The harness' per-test timeout (alarm) must work in the guest
	# kernel: a test that hangs is killed and reported, and the binary
	# goes on (a kernel without POSIX timers gives alarm() ENOSYS).
	t0=$(date +%s)
	"$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" --cell $cell \
		--set ACL9P_TESTS_DIR=/tests/rig --set ACL9P_TESTS=rig_timeout \
		--out "$tmp/hang" --timeout 100 >/dev/null 2>&1 || true
	took=$(( $(date +%s) - t0 ))
	if grep -q '^    not ok 1 rig.hangs_past_its_timeout' "$tmp/hang/ktap.txt" 2>/dev/null &&
		grep -q 'Test terminated by timeout' "$tmp/hang/ktap.txt" &&
		grep -q '^    ok 2 rig.runs_after_the_hung_one' "$tmp/hang/ktap.txt" &&
		[ $took -lt 40 ]; then
		ok "a hung test is ended by its own timeout (${took}s)"
	else
		bad "per-test timeout did not fire (${took}s)"
		cat "$tmp/hang/ktap.txt" 2>/dev/null || true
	fi

	# The guest's KTAP as the kernel's own parser reads it: the hang
	# cell (a failed test, a nested binary) has no parse error; the same
	# output with the 6.1 harness' nameless skip line has one.
	mkdir -p "$tmp/nameless"
	{ sed '/^    ok 2 /s/.*/    ok 2 # SKIP nameless/' "$tmp/hang/ktap.txt"; } \
		>"$tmp/nameless/ktap.txt" 2>/dev/null || true
	: >"$tmp/nameless/status"
	[ -f "$tmp/hang/status" ] || : >"$tmp/hang/status"
	"$ACL9P_TOP/tests/rig/kunit-parse.sh" "$tmp/hang" "$tmp/nameless" 2>"$tmp/kp.err" || true
	if grep -qx 'ktap_errors=0' "$tmp/hang/status" &&
		grep -q '^ktap_errors=[1-9]' "$tmp/nameless/status"; then
		ok "kunit_parser.py reads the guest's KTAP, and refuses a nameless skip"
	else
		bad "kunit_parser.py verdicts: $(grep -h ktap_ "$tmp/hang/status" "$tmp/nameless/status" | tr '\n' ' ')"
		cat "$tmp/kp.err" "$tmp/hang/kunit-parse.log" 2>/dev/null | tail -n 20
	fi
else
	bad "no vanilla kernel to boot ($kernel)"
fi

hostctl=$ACL9P_BUILD/tests/acl9p-hostctl
if [ -x "$hostctl" ]; then
	exp=$ACL9P_BUILD/run/rigtest-hostctl
	rm -rf "$exp"
	mkdir -p "$exp/d"
	touch "$exp/d/f" "$exp/outside"
	chmod 0640 "$exp/d/f"
	# u::rw-,u:1001:r--,g::r--,m::r--,o::--- as the kernel stores it:
	# header, then tag/perm/id per entry
	acl=0200000001000600ffffffff02000400e903000004000400ffffffff10000400ffffffff20000000ffffffff
	"$hostctl" --prefix "" "$exp/d" --stdio >"$tmp/hostctl.out" 2>"$tmp/hostctl.log" <<EOR
SETXATTR ../outside system.posix_acl_access $acl
SETXATTR /etc/passwd system.posix_acl_access $acl
SETXATTR f system.posix_acl_access 02zz
SETXATTR f user.foo 00
CHMOD f 17777
SETXATTR f system.posix_acl_access $acl
EOR
	want='ERR 22 ERR 22 ERR 22 ERR 22 ERR 22 OK'
	got=$(cut -d' ' -f1-2 "$tmp/hostctl.out" | tr '\n' ' ' | sed 's/ $//')
	stored=$(getfattr -e hex -n system.posix_acl_access "$exp/d/f" 2>/dev/null |
		sed -n 's/^system.posix_acl_access=0x//p')
	if [ "$got" = "$want" ] && [ "$stored" = "$acl" ] &&
		[ -z "$(getfattr -m - "$exp/outside" 2>/dev/null)" ] &&
		[ "$(stat -c %a "$exp/d/f")" = 640 ]; then
		ok "acl9p-hostctl refuses bad requests, stores good ones"
	else
		bad "acl9p-hostctl: answers '$got' (want '$want'), stored '$stored'"
		cat "$tmp/hostctl.log"
	fi
	rm -rf "$exp"
else
	bad "no acl9p-hostctl ($hostctl)"
fi

# acl9p-p9trace takes the guest's marker from QEMU's trace whether
# 9P2000.L sent it (Tsetattr, "mtime=N") or 9P2000.u (Twstat, "mtime N"):
# a trace with one of each gives three slices, the markers uncounted.
t=$tmp/p9trace
printf '%s\n' 'v9fs_version tag 65535 id 100 msize 8192 version 9P2000.u' \
	'v9fs_wstat tag 0 id 126 fid 1 stat={mode -1 atime -1 mtime 1000000001}' \
	'v9fs_walk tag 0 id 110 fid 1 newfid 2 nwnames 1' \
	'v9fs_setattr tag 0 id 26 fid 2 iattr={valid 352 mode 0 uid -1 gid -1 size 0 atime=0 mtime=1000000002 }' \
	'v9fs_getattr tag 0 id 24 fid 2 request_mask 0x3fff' >"$t.log"
if "$ACL9P_BUILD/tests/acl9p-p9trace" "$t.log" >"$t.out" 2>&1 &&
	[ "$(tr '\t\n' ' ;' <"$t.out")" = "0 version 1;1 walk 1;2 getattr 1;" ]; then
	ok "acl9p-p9trace: the marker of 9P2000.u (Twstat) and of 9P2000.L (Tsetattr)"
else
	bad "acl9p-p9trace: markers: $(tr '\t\n' ' ;' <"$t.out")"
fi

# The proxy's own tests, sanitized builds (a no-op when up to date).
# The export is under build/ like acl9p-hostctl's: it needs ACLs.
san=$ACL9P_BUILD/tests/ninep-proxy-san
if ! make -s -C "$ACL9P_TOP/server/ninep-proxy" O="$ACL9P_BUILD/tests" selftest \
	>"$tmp/np-build.log" 2>&1; then
	bad "ninep-proxy self-tests do not build"; tail -n 20 "$tmp/np-build.log"
else
	t0=$(now_ms)
	if "$san/p9frame-fuzz" >"$tmp/np-fuzz.log" 2>&1; then
		ok "ninep-proxy parser: $(tail -n 1 "$tmp/np-fuzz.log" | sed 's/^p9frame-fuzz: //') ($(( $(now_ms) - t0 )) ms)"
	else
		bad "ninep-proxy parser fuzz"; tail -n 20 "$tmp/np-fuzz.log"
	fi
	t0=$(now_ms)
	if "$san/aclfuzz-test" >"$tmp/np-aclfuzz.log" 2>&1; then
		ok "ninep-proxy fuzz mode and the strict ACL reading: $(tail -n 1 "$tmp/np-aclfuzz.log" | sed 's/^aclfuzz-test: //') ($(( $(now_ms) - t0 )) ms)"
	else
		bad "ninep-proxy fuzz mode (aclfuzz-test)"; tail -n 20 "$tmp/np-aclfuzz.log"
	fi
	if ! (. "$ACL9P_TOP/server/diod.sh" && diod_check) 2>"$tmp/np-diod.err"; then
		bad "ninep-proxy end to end: $(head -n 1 "$tmp/np-diod.err")"
	else
		exp=$ACL9P_BUILD/run/rigtest-ninep-proxy
		rm -rf "$exp"
		mkdir -p "$exp"
		: >"$exp/f"
		setfacl -m u:1001:rw-,g:1002:r-- "$exp/f"
		diod=$(. "$ACL9P_TOP/server/diod.sh" && diod_command "$exp" "$tmp")
		# shellcheck disable=SC2086 # diod_command gives words
		if "$san/proxy-e2e" "$san/ninep-proxy" "$exp" "$tmp/np" -- $diod \
			>"$tmp/np-e2e.log" 2>&1; then
			ok "ninep-proxy in front of diod: $(tail -n 1 "$tmp/np-e2e.log" | sed 's/^proxy-e2e: //')"
		else
			bad "ninep-proxy in front of diod"; tail -n 20 "$tmp/np-e2e.log"
		fi
		rm -rf "$exp"
	fi
fi

# Guest death mid-write: 2 rounds on diod and 2 on qemu-passthrough,
# QEMU killed after a seeded random delay (the seed is in the line; give
# it back as GD_SEED to replay), ~17 s.  The kernel under test, with
# access=client: patched once the series lists patches.  6.1 pushes the
# mode before the ACL with access=client (v9fs_xattr_set_acl), and a
# kill between the two leaves the old ACL under the new mode (3 rounds
# in 10, 2026-12-04), so without the series it runs vanilla with
# access=user, where the ACL is one store.
if "$ACL9P_TOP/scripts/series-available.sh" && [ -r "$ACL9P_BUILD/kernels/patched.bzImage" ]; then
	gd=(GD_KERNEL=patched GD_ACCESS=client)
else
	gd=(GD_KERNEL=vanilla GD_ACCESS=user)
fi
if env "${gd[@]}" "$ACL9P_TOP/tests/rig/guest-death.sh" >"$tmp/gd.log" 2>&1; then
	ok "guest death mid-write leaves a whole ACL (${gd[*]}; $(tail -n 1 "$tmp/gd.log" | sed 's/^guest-death: //'))"
else
	bad "guest death mid-write (${gd[*]})"; cat "$tmp/gd.log"
fi

echo "rig: $pass passed, $failn failed"
[ $failn -eq 0 ]
