#!/bin/bash
# Selftest of acl9p-report: build it, run it on the fixture result trees
# in fixtures/ (plus a few generated here because they hold bytes a text
# file in git should not: NULs, CRs, broken UTF-8), check exit codes and
# the report lines that matter.  Prints "N passed, N failed" last.
#
# usage: tests/report/selftest/run.sh   (VALGRIND=0 to skip valgrind)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make -s -C "$here/.." O="$work/build" >/dev/null
bin=$work/build/acl9p-report

npass=0 nfail=0
ok()  { npass=$((npass + 1)); echo "ok    $*"; }
bad() { nfail=$((nfail + 1)); echo "FAIL  $*"; }

# run NAME DIR [args...]: run the tool on DIR/results with DIR/expected;
# leaves $rc, $out ($work/NAME.out) and $err.
run() {
	local name=$1 dir=$2
	shift 2
	out=$work/$name.out err=$work/$name.err
	set +e
	"$bin" --results "$dir/results" --expected "$dir/expected" "$@" >"$out" 2>"$err"
	rc=$?
	set -e
}
# fixture NAME: fresh copy (the tool writes summary.md/junit.xml into R)
fixture() {
	rm -rf "${work:?}/$1"
	cp -r "$here/fixtures/$1" "$work/$1"
	echo "$work/$1"
}

want_rc()   { if [ "$rc" = "$2" ]; then ok "$1: exit $2"; else bad "$1: exit $rc, wanted $2"; cat "$err" "$out" | sed 's/^/      /'; fi; }
has()       { if grep -qF -- "$2" "$out"; then ok "$1: has '$2'"; else bad "$1: no line with '$2'"; fi; }
hasnt()     { if grep -qF -- "$2" "$out"; then bad "$1: unwanted '$2'"; else ok "$1: no '$2'"; fi; }
has_re()    { if grep -qE -- "$2" "$out"; then ok "$1: matches /$2/"; else bad "$1: nothing matches /$2/"; fi; }
count()     { local n; n=$(grep -cF -- "$2" "$out" || true); if [ "$n" = "$3" ]; then ok "$1: '$2' x$3"; else bad "$1: '$2' x$n, wanted x$3"; fi; }
last()      { local l; l=$(tail -n 1 "$out"); if [ "$l" = "$2" ]; then ok "$1: last line '$2'"; else bad "$1: last line '$l', wanted '$2'"; fi; }
file_has()  { if grep -qF -- "$3" "$2"; then ok "$1: $(basename "$2") has '$3'"; else bad "$1: $(basename "$2") lacks '$3'"; fi; }
xml_ok() {
	if command -v xmllint >/dev/null; then
		if xmllint --noout "$2" 2>"$work/xml.err"; then ok "$1: junit.xml well-formed"
		else bad "$1: junit.xml not well-formed"; sed 's/^/      /' "$work/xml.err"; fi
	elif command -v python3 >/dev/null; then
		if python3 -c 'import sys,xml.dom.minidom as m; m.parse(sys.argv[1])' "$2"; then
			ok "$1: junit.xml well-formed"; else bad "$1: junit.xml not well-formed"; fi
	else
		echo "skip  $1: no xmllint/python3 to check junit.xml"
	fi
}

# --- green run: listed failure -> XFAIL, harness XFAIL, skip, hostcheck
d=$(fixture basic); run basic "$d"
want_rc basic 0
has_re basic '^vanilla\.qemu-mapped-xattr\.user\.none +3 +0 +1 +2 +0 +12\.3'
has basic 'expected failures: 4 '
has basic 'unexpected failures: none'
has basic 'A/B differences vanilla vs patched: 0 in 1 configurations, 0 unlisted'
last basic '6 passed, 0 failed, 2 skipped'
file_has basic "$d/results/summary.md" 'server drops system.posix_acl_default'
file_has basic "$d/results/summary.md" '**6 passed, 0 failed, 2 skipped**'
file_has basic "$d/results/junit.xml" '<skipped message="xfail: server drops system.posix_acl_default">'
file_has basic "$d/results/junit.xml" 'errno 95 &lt;&amp;&gt;'
file_has basic "$d/results/junit.xml" 'classname="vanilla.qemu-mapped-xattr.user.none" name="hostcheck.owner_on_host"'
# vanilla's ktap has the Linux 6.1 form "ok 3 # SKIP why" (no name): the
# RUN line names it, so it matches patched's "ok 3 acl.mask_recalc # SKIP"
n=$(grep -A1 'name="acl9p_roundtrip.acl.mask_recalc">' "$d/results/junit.xml" |
	grep -c '<skipped message="server has no xattr"/>' || true)
if [ "$n" = 2 ]; then ok "basic: nameless 6.1-style SKIP named from its RUN line"
else bad "basic: mask_recalc skipped in $n cells, wanted 2"; fi
xml_ok basic "$d/results/junit.xml"

# --- filter: one cell, so no A/B pair
run filter "$d" --cell-filter 'vanilla.*'
want_rc filter 0
last filter '3 passed, 0 failed, 1 skipped'
has filter 'no configuration has both a vanilla and a patched cell'
hasnt filter 'patched.qemu'

# --- XPASS fails, a flaky: entry that passes does not
d=$(fixture xpass); run xpass "$d"
want_rc xpass 1
has xpass 'XPASS  acl9p_roundtrip.acl.access_named_user  [patched.diod.client.loose]'
hasnt xpass 'acl.chmod_mask  ['
last xpass '1 passed, 1 failed, 0 skipped'
file_has xpass "$d/results/junit.xml" '<failure message="xpass: passed but listed at'

# --- truncated guest: unreported tests fail, names from RUN / other cell
d=$(fixture truncated); run truncated "$d"
want_rc truncated 1
count truncated 'reason: no result (guest stopped)' 3
has truncated 'FAIL   acl9p_roundtrip.acl.three  [vanilla.qemu-passthrough.client.none]'
has truncated '| # acl9p_roundtrip.c:50:three:about to setxattr'
has truncated 'FAIL   acl9p_roundtrip.acl.five  [vanilla.qemu-passthrough.client.none]'
has truncated 'A/B differences vanilla vs patched: 3 in 1 configurations, 0 unlisted'
hasnt truncated '.boot'
last truncated '9 passed, 3 failed, 0 skipped'

# --- the guest init's own marks: ACL9P-TIMEOUT (binary killed), ACL9P-DONE
#     (later gaps are a crashed binary, not a dead guest); HOSTCHECK data
#     lines are not diagnostics
d=$(fixture rigmarks); run rigmarks "$d"
want_rc rigmarks 1
has rigmarks 'FAIL   acl9p_slow.slow.hangs  [patched.qemu-passthrough.client.loose]'
count rigmarks 'reason: no result (binary killed by the guest init after 60 s)' 2
has rigmarks '| # slow.c:42:hangs:waiting for the server'
hasnt rigmarks '| # HOSTCHECK'
has rigmarks 'FAIL   acl9p_crash.crash.segv  [patched.qemu-passthrough.client.loose]'
count rigmarks 'reason: no result (binary stopped before finishing its plan)' 1
hasnt rigmarks 'guest stopped'
hasnt rigmarks '.boot'
last rigmarks '3 passed, 3 failed, 0 skipped'

# --- splat / timeout / unexplained exit: one boot failure per cell
d=$(fixture splat); run splat "$d"
want_rc splat 1
has splat 'BOOT   custom.diod.user.none.boot'
has splat 'reason: kernel splat (oops/BUG/WARNING) on console: WARNING at fs/9p/acl.c:42'
has splat 'reason: timeout: guest did not finish in 300s'
has_re splat '^custom\.diod\.user\.loose +1 +0 +0 +1 +0 +7\.0 +boot \(expected\): guest exit=3 with no failing test'
hasnt splat 'BOOT   custom.diod.user.loose.boot'
has splat 'console: build/results/custom.diod.user.none/console.log'
has splat 'expected failures: 1 '
last splat '3 passed, 2 failed, 0 skipped'
file_has splat "$d/results/junit.xml" 'name="boot"'
# a cell directory the guest never wrote into
mkdir "$d/results/custom.qemu-passthrough.user.none"
run splat-empty "$d"
has splat-empty 'reason: no status file; no ktap.txt'
last splat-empty '3 passed, 3 failed, 0 skipped'

# --- A/B: unlisted difference fails, listed one does not
d=$(fixture diff-unlisted); run diff-unlisted "$d"
want_rc diff-unlisted 1
has_re diff-unlisted 'qemu-passthrough\.user\.loose +acl9p_roundtrip\.acl\.fixed_by_patch +fail +pass +UNLISTED'
last diff-unlisted '3 passed, 1 failed, 0 skipped'
file_has diff-unlisted "$d/results/junit.xml" '<failure message="vanilla fail, patched pass"/>'
d=$(fixture diff-listed); run diff-listed "$d"
want_rc diff-listed 0
has diff-listed 'differences:2): this is the fix'
has diff-listed 'expected failures: 1 '
has diff-listed 'differences:4: diod.*.* acl9p_roundtrip.acl.never_ran'
last diff-listed '3 passed, 0 failed, 0 skipped'

# --- format error in an expected list: exit 2, file:line on stderr
d=$(fixture format-error); run format-error "$d"
want_rc format-error 2
if grep -q 'xfail.bad:4: format error' "$err" && [ "$(wc -l <"$err")" = 1 ]; then
	ok "format-error: one stderr line naming xfail.bad:4"
else bad "format-error: stderr was: $(cat "$err")"; fi
if [ ! -s "$out" ]; then ok "format-error: no report on stdout"; else bad "format-error: printed a report"; fi

# --- usage errors
d=$work/basic
set +e
"$bin" >/dev/null 2>&1; r1=$?
"$bin" --results "$d/results" >/dev/null 2>&1; r2=$?
"$bin" --results "$d/nope" --expected "$d/expected" >/dev/null 2>&1; r3=$?
"$bin" --results "$d/results" --expected "$d/expected" --bogus >/dev/null 2>&1; r4=$?
"$bin" --results "$d/results" --expected "$d/expected" --cell-filter 'custom.*' >/dev/null 2>&1; r5=$?
"$bin" --results "$d/expected" --expected "$d/expected" >/dev/null 2>&1; r6=$?
set -e
for r in "no args:$r1" "no --expected:$r2" "missing results dir:$r3" "unknown option:$r4" \
	 "filter matches nothing:$r5" "no cells:$r6"; do
	if [ "${r##*:}" = 2 ]; then ok "usage: ${r%:*} -> exit 2"; else bad "usage: ${r%:*} -> exit ${r##*:}"; fi
done

# --- garbage: NULs, CRs, broken UTF-8, console noise, indented subtests,
#     missing plan, empty binary, Bail out!
d=$work/garbage c=$d/results/patched.diod.user.none
mkdir -p "$c" "$d/expected"
printf 'exit=1\r\nwall_ms=1500\r\nnonsense line\r\n=\r\nreason=\r\n' >"$c/status"
{
	printf '\0\377 junk before any header\n'
	printf '[    1.234567] 9p: installing v9fs\n'
	printf '# ACL9P-BINARY acl9p_garbage\r\nTAP version 13\r\n1..3\r\n'
	printf 'okay this is not a result\n'
	printf 'ok 1 acl.crlf\r\n'
	printf '    ok 1 indented.subtest\n'
	printf '#  RUN           acl.bad_utf8 ...\n'
	printf '# detail \377\376\001 bytes\n'
	printf 'not ok 2 acl.bad_utf8 # with comment\n'
	printf '1..x garbage\n'
	printf 'noise\rok 3 acl.after_cr\n'
	printf '# ACL9P-BINARY noplan\nok 1 a\nnot ok 2 b # TIMEOUT\nrandom garbage ok\n'
	printf '# ACL9P-BINARY shortplan\nTAP version 13\n1..2\nok 1 only\n'
	printf '# ACL9P-BINARY empty\n'
	printf '# ACL9P-BINARY bail\nTAP version 13\n1..2\nok 1 first\nBail out! 9p mount failed\n'
	printf '# ACL9P-BINARY hostcheck\nok 1 host_xattr'   # no final newline
} >"$c/ktap.txt"
echo '* noplan.b the harness timeout is known' >"$d/expected/xfail.garbage"
run garbage "$d"
want_rc garbage 1
has_re garbage '^patched\.diod\.user\.none +6 +4 +0 +1 +0 +1\.5'
has garbage 'reason: with comment'
has garbage 'FAIL   bail.#2  [patched.diod.user.none]'
has garbage 'reason: no result (Bail out! 9p mount failed)'
has garbage 'FAIL   empty.(binary)'
has garbage 'reason: no result (binary stopped before finishing its plan)'
hasnt garbage 'indented.subtest'
hasnt garbage '.boot'
last garbage '6 passed, 4 failed, 0 skipped'
xml_ok garbage "$d/results/junit.xml"

# --- valgrind: no leaks, no invalid accesses (every code path the fixtures reach,
#     the format-error exit included)
if [ "${VALGRIND:-1}" != 0 ] && command -v valgrind >/dev/null; then
	for n in garbage truncated rigmarks splat diff-listed format-error; do
		d=$work/$n
		# valgrind's own report goes to vg.log, the tool's stderr is
		# irrelevant here (format-error prints its message on purpose)
		if valgrind -q --log-file="$work/vg.log" --leak-check=full \
			--show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 \
			"$bin" --results "$d/results" --expected "$d/expected" \
			>/dev/null 2>&1; then vr=0; else vr=$?; fi
		if [ "$vr" != 99 ] && [ ! -s "$work/vg.log" ]; then ok "valgrind $n: clean"
		else bad "valgrind $n: exit $vr"; sed 's/^/      /' "$work/vg.log" | head -40; fi
	done
else
	echo "skip  valgrind (not installed or VALGRIND=0)"
fi

echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
