#!/bin/bash
# The rig's own tests: the parts that decide a verdict must themselves
# be able to say "failed".  Run by "make check" before the matrix.
#   - acl9p-report's selftest (fixture result trees);
#   - kernel-config.sh rejects an option that does not survive Kconfig;
#   - boot.sh kills a VM that runs over its wall-clock limit and fails
#     the cell (timeout=1 in its status), instead of waiting for it;
#   - boot.sh fails a cell whose guest cannot mount the share;
#   - boot.sh fails a cell whose console shows a splat, tests or not.
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

echo 'CONFIG_ACL9P_NO_SUCH_OPTION=y' >"$tmp/bogus.config"
if "$ACL9P_TOP/scripts/kernel-config.sh" "$ACL9P_BUILD/linux/vanilla" "$tmp/obj" \
	"$ACL9P_TOP/kernel/config/acl9p.config" "$tmp/bogus.config" 2>"$tmp/cfg.err"; then
	bad "kernel-config accepts an option Kconfig drops"
elif grep -q 'CONFIG_ACL9P_NO_SUCH_OPTION=y.*did not survive' "$tmp/cfg.err"; then
	ok "kernel-config names the option that did not survive"
else
	bad "kernel-config failed without naming the option"; cat "$tmp/cfg.err"
fi

kernel=$ACL9P_BUILD/kernels/vanilla.bzImage
if [ -r "$kernel" ]; then
	t0=$(date +%s)
	if "$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" --label rigtest \
		--out "$tmp/slow" --timeout 2 >/dev/null 2>&1; then
		bad "a VM over its time limit passes"
	elif grep -qx 'timeout=1' "$tmp/slow/status" && [ $(( $(date +%s) - t0 )) -lt 30 ]; then
		ok "a VM over its time limit is killed and its cell fails"
	else
		bad "timeout not reported"; cat "$tmp/slow/status"
	fi

	# A guest whose share cannot be mounted (told to reach a TCP server
	# on a VM that has no network) fails with its reason, not a hang.
	if "$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" --label rigtest \
		--append acl9p.trans=tcp --out "$tmp/nomount" --timeout 60 \
		>/dev/null 2>&1; then
		bad "a guest without its share passes"
	elif grep -q '^reason=guest setup failed' "$tmp/nomount/status" 2>/dev/null; then
		ok "a guest that cannot mount fails its cell with the reason"
	else
		bad "mount failure not reported"; cat "$tmp/nomount/status" 2>/dev/null || true
	fi

	# A splat line in the console fails the cell although the guest
	# ended cleanly (the init writes it to /dev/kmsg on request, at
	# KERN_WARNING like WARN(): the console loglevel must show it).
	if "$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" --label rigtest \
		--append "acl9p.selftest=splat acl9p.tests=none" \
		--out "$tmp/splat" --timeout 60 >/dev/null 2>&1; then
		bad "a console with a splat passes"
	elif grep -qx 'splat=1' "$tmp/splat/status" && grep -qx 'exit=0' "$tmp/splat/status"; then
		ok "a splat in the console fails the cell"
	else
		bad "splat not reported"; cat "$tmp/splat/status" 2>/dev/null || true
	fi
else
	bad "no vanilla kernel to boot ($kernel)"
fi

echo "rig: $pass passed, $failn failed"
[ $failn -eq 0 ]
