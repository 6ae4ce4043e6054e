#!/bin/bash
# The build's test manifest: what every cell must report.
#
# usage: manifest.sh TESTS_DIR    (make guest: build/tests)
#
# Writes TESTS_DIR/manifest, one line "BINARY TESTNAME" per test of each
# guest test binary TESTS_DIR/acl9p_* (those guest/initramfs.sh packs;
# the host tools acl9p-hostcheck and acl9p-hostctl have a dash), binaries
# in the order the guest init runs them (C collation), tests in the order
# the harness does, named as their KTAP result lines name them: what
# "BINARY --list" prints (tests/lib/acl9p_test.h).  acl9p-report
# --manifest fails every test of it a cell did not report, so a test the
# guest never ran cannot go unnoticed.  Written to a temporary file and
# renamed; a binary that cannot list its tests fails the build and leaves
# no manifest (a stale one would describe other binaries).
set -eu
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: manifest.sh TESTS_DIR}
out=$dir/manifest tmp=$dir/manifest.tmp
trap 'rm -f "$tmp" "$tmp.list" "$tmp.err"' EXIT
rm -f "$out"
export LC_ALL=C

fail() {
	die "guest: manifest: $*"
}

: >"$tmp"
n=0
for b in "$dir"/acl9p_*; do
	[ -f "$b" ] && [ -x "$b" ] || continue
	name=${b##*/}
	# A binary without acl9p_test.h's main() would take --list for no
	# argument and run its tests here, on the host, as root.
	grep -qaF -- --list "$b" ||
		fail "$name has no --list (not built with tests/lib/acl9p_test.h?)"
	rc=0
	timeout 30 "$b" --list </dev/null >"$tmp.list" 2>"$tmp.err" || rc=$?
	[ "$rc" = 0 ] ||
		fail "$name --list failed (exit $rc)$(tail -n 1 "$tmp.err" | sed 's/^/: /')"
	[ -s "$tmp.list" ] || fail "$name --list printed no test"
	bad=$(grep -vE '^[^[:space:]]+$' "$tmp.list" | head -n 1) || true
	[ -z "$bad" ] || fail "$name --list printed '$bad', not a test name"
	dup=$(sort "$tmp.list" | uniq -d | head -n 1)
	[ -z "$dup" ] || fail "$name --list printed $dup twice"
	awk -v b="$name" '{ print b " " $0 }' "$tmp.list" >>"$tmp"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no test binary acl9p_* in $dir"
mv "$tmp" "$out"
