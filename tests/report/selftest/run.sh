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
# reason NAME TEST CELL REASON: the failure of TEST in CELL has that reason
reason()    { local l; l=$(grep -A1 -F -- "FAIL   $2  [$3]" "$out" | sed -n 2p); if [ "$l" = "         reason: $4" ]; then ok "$1: $2 in $3: $4"; else bad "$1: $2 in $3: '${l#         }', wanted 'reason: $4'"; fi; }
# narrow NAME: every stdout line of the binary-times table fits 100 columns
narrow()    { local n; n=$(sed -n '/^binary times/,/^$/p' "$out" | awk 'length($0) > 100' | wc -l); if [ "$n" = 0 ]; then ok "$1: time table fits 100 columns"; else bad "$1: $n time table lines over 100 columns"; fi; }
# fits NAME FILE: no line of FILE (a run's stdout) is over 100 columns
fits()      { local n; n=$(awk 'length($0) > 100' "$2" | wc -l); if [ "$n" = 0 ]; then ok "$1: every stdout line fits 100 columns"; else bad "$1: $n stdout lines over 100 columns"; awk 'length($0) > 100' "$2" | head -5 | sed 's/^/      /'; fi; }
# ab_is NAME: the A/B section of $out (its heading to the blank line after
# it, $work shown as W) is exactly stdin
ab_is() {
	cat >"$work/ab.want"
	sed -n '/^A\/B differences/,/^$/p' "$out" | sed -e '/^$/d' -e "s|$work|W|g" >"$work/ab.got"
	if cmp -s "$work/ab.want" "$work/ab.got"; then ok "$1: A/B section as expected"
	else bad "$1: A/B section differs (-wanted +got)"; diff -u "$work/ab.want" "$work/ab.got" | tail -n +3 | sed 's/^/      /'; fi
}
# load_names NAME REGEX: the run's load error (stderr) names the line
load_names() { if grep -q -- "$2" "$err"; then ok "$1: the load names the line"; else bad "$1: stderr was: $(cat "$err")"; fi; }
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

# --- judge: a distribution's kernel judged by vanilla's entries.  The
# basic fixture with its xfail entry narrowed to the two kernels and
# vanilla's cell renamed: without --judge that entry cannot take the
# distro cell.
j=$work/judge
rm -rf "$j"
cp -r "$here/fixtures/basic" "$j"
mv "$j/results/vanilla.qemu-mapped-xattr.user.none" "$j/results/distro.qemu-mapped-xattr.user.none"
sed -i 's/^\*\.qemu-mapped-xattr\.\* acl9p_roundtrip.acl.default_inherit/@(vanilla|patched).qemu-mapped-xattr.* acl9p_roundtrip.acl.default_inherit/' \
	"$j/expected/xfail.servers"
run judge-off "$j" --compare distro:patched
want_rc judge-off 1
has judge-off 'FAIL   acl9p_roundtrip.acl.default_inherit  [distro.qemu-mapped-xattr.user.none]'
run judge "$j" --compare distro:patched --judge distro:vanilla
want_rc judge 0
hasnt judge 'FAIL   acl9p_roundtrip.acl.default_inherit'
# a negation that leaves vanilla out leaves the distro cell out too
sed -i 's/^@(vanilla|patched)\.qemu-mapped-xattr\.\* /!(vanilla.*|other.*) /' "$j/expected/xfail.servers"
run judge-neg "$j" --compare distro:patched --judge distro:vanilla
want_rc judge-neg 1
has judge-neg 'FAIL   acl9p_roundtrip.acl.default_inherit  [distro.qemu-mapped-xattr.user.none]'
hasnt judge-neg 'FAIL   acl9p_roundtrip.acl.default_inherit  [patched.qemu-mapped-xattr.user.none]'
# an entry naming the distro kernel takes it by its own name
echo 'distro.qemu-mapped-xattr.* acl9p_roundtrip.acl.default_inherit Debian: its own entry' >>"$j/expected/xfail.servers"
run judge-own "$j" --compare distro:patched --judge distro:vanilla
want_rc judge-own 0
run judge-bad "$j" --judge distro
want_rc judge-bad 2

# --- filter: one cell, so no A/B pair
run filter "$d" --cell-filter 'vanilla.*'
want_rc filter 0
last filter '3 passed, 0 failed, 1 skipped'
has filter 'no configuration has both a vanilla and a patched cell'
hasnt filter 'patched.qemu'

# --- expected skips: a skip no skip.* entry names fails, one whose
# reason is not the listed cause fails, a listed skip that ran fails
d=$(fixture basic)
rm "$d/expected/skip.servers"
run skip-unlisted "$d"
want_rc skip-unlisted 1
count skip-unlisted 'FAIL   acl9p_roundtrip.acl.mask_recalc' 2
has skip-unlisted 'no tests/expected/skip.* entry says it skips in this cell: server has'
last skip-unlisted '6 passed, 2 failed, 0 skipped'
file_has skip-unlisted "$d/results/unexpected.tsv" "$(printf 'vanilla.qemu-mapped-xattr.user.none\tacl9p_roundtrip.acl.mask_recalc\tFAIL\t-\tskipped, and no')"
d=$(fixture basic)
sed -i 's/cause="server has no xattr"/cause="no such server"/' "$d/expected/skip.servers"
run skip-cause "$d"
want_rc skip-cause 1
last skip-cause '6 passed, 2 failed, 0 skipped'
d=$(fixture basic)
echo '*.qemu-mapped-xattr.* acl9p_roundtrip.acl.access_named_user a test listed to skip' >>"$d/expected/skip.servers"
run skip-ran "$d"
want_rc skip-ran 1
count skip-ran 'XPASS  acl9p_roundtrip.acl.access_named_user' 2
has skip-ran 'passed but listed at'
last skip-ran '4 passed, 2 failed, 2 skipped'

# --- cell globs match axis by axis: a "*" never takes a dot, so the
# first "*" of "*.!(qemu-mapped-xattr).*" is the kernel and cannot eat
# "patched.qemu-mapped-xattr" to let the !(...) take the access mode
# (fnmatch alone would: the failure would then pass as expected)
d=$(fixture basic)
sed -i 's/^\*\.qemu-mapped-xattr\.\* acl9p_roundtrip.acl.default_inherit/*.!(qemu-mapped-xattr).* acl9p_roundtrip.acl.default_inherit/' \
	"$d/expected/xfail.servers"
run glob-axis-neg "$d"
want_rc glob-axis-neg 1
count glob-axis-neg 'FAIL   acl9p_roundtrip.acl.default_inherit' 2
last glob-axis-neg '6 passed, 2 failed, 2 skipped'
# a group holding dots is its alternatives, each matched by axis
d=$(fixture basic)
sed -i 's/^\*\.qemu-mapped-xattr\.\* acl9p_roundtrip.acl.default_inherit/@(vanilla.qemu-mapped-xattr|patched.qemu-*.user).* acl9p_roundtrip.acl.default_inherit/' \
	"$d/expected/xfail.servers"
run glob-axis-alt "$d"
want_rc glob-axis-alt 0
last glob-axis-alt '6 passed, 0 failed, 2 skipped'
# a whole-glob !(...) with dots: neither alternative
d=$(fixture basic)
sed -i 's/^\*\.qemu-mapped-xattr\.\* acl9p_roundtrip.acl.default_inherit/!(*.diod.*|*.*.client.*) acl9p_roundtrip.acl.default_inherit/' \
	"$d/expected/xfail.servers"
run glob-axis-not "$d"
want_rc glob-axis-not 0
last glob-axis-not '6 passed, 0 failed, 2 skipped'
# a group in the last component is matched whole against the axes left
# (cache and opts): "none" is not "*.xattr64k", so the entry still
# takes both cells; "!(none*)" takes neither, and both fail
d=$(fixture basic)
sed -i 's/^\*\.qemu-mapped-xattr\.\* acl9p_roundtrip.acl.default_inherit/*.qemu-mapped-xattr.*.!(*.xattr64k) acl9p_roundtrip.acl.default_inherit/' \
	"$d/expected/xfail.servers"
run glob-axis-last "$d"
want_rc glob-axis-last 0
last glob-axis-last '6 passed, 0 failed, 2 skipped'
d=$(fixture basic)
sed -i 's/^\*\.qemu-mapped-xattr\.\* acl9p_roundtrip.acl.default_inherit/*.qemu-mapped-xattr.*.!(none*) acl9p_roundtrip.acl.default_inherit/' \
	"$d/expected/xfail.servers"
run glob-axis-last-not "$d"
want_rc glob-axis-last-not 1
count glob-axis-last-not 'FAIL   acl9p_roundtrip.acl.default_inherit' 2
# a !(...) with dots inside a glob has no axis-wise meaning: refused
d=$(fixture basic)
echo '*.!(diod.user).* acl9p_roundtrip.acl.default_inherit some reason' >>"$d/expected/xfail.servers"
run glob-axis-bad "$d"
want_rc glob-axis-bad 2
load_names glob-axis-bad 'xfail.servers:[0-9]*: cell glob .*must be the whole cell glob'

# --- <list>@FLAVOUR: only for runs of that flavour (--flavour, default
# plain).  The listed skip of the plain kernels must not excuse, nor
# stand against, a debug run.
d=$(fixture basic)
mv "$d/expected/skip.servers" "$d/expected/skip.servers@debug"
run flavour-plain "$d"
want_rc flavour-plain 1
has flavour-plain 'no tests/expected/skip.* entry says it skips in this cell: server has'
run flavour-debug "$d" --flavour debug
want_rc flavour-debug 0
last flavour-debug '6 passed, 0 failed, 2 skipped'
mv "$d/expected/skip.servers@debug" "$d/expected/skip.servers@plain"
run flavour-default "$d"
want_rc flavour-default 0
run flavour-other "$d" --flavour debug
want_rc flavour-other 1
# a run's tags: its flavour and its architecture, each naming lists
run flavour-tags "$d" --flavour plain,i386
want_rc flavour-tags 0
run flavour-tags-debug "$d" --flavour debug,i386
want_rc flavour-tags-debug 1
mv "$d/expected/skip.servers@plain" "$d/expected/skip.servers@i386"
run flavour-arch "$d" --flavour debug,i386
want_rc flavour-arch 0
run flavour-arch-other "$d" --flavour plain,x86_64
want_rc flavour-arch-other 1
# a tag is matched whole, not as a prefix of another
run flavour-arch-prefix "$d" --flavour plain,i38,i3866
want_rc flavour-arch-prefix 1

# --- with=: a listed failure must also show the diagnostic it names
d=$(fixture basic)
printf '%s\n' '*.qemu-mapped-xattr.* acl9p_roundtrip.acl.default_inherit cause="acl9p_roundtrip.c:*:Expected 0 (0) == rc (-1)" with="*errno 95*" the fixture server refuses default ACLs' >"$d/expected/xfail.servers"
run with-ok "$d"
want_rc with-ok 0
last with-ok '6 passed, 0 failed, 2 skipped'
sed -i 's/with="\*errno 95\*"/with="*errno 22*"/' "$d/expected/xfail.servers"
run with-other "$d"
want_rc with-other 1
has with-other 'with *errno 22*)'
last with-other '6 passed, 2 failed, 2 skipped'
printf '%s\n' '* acl9p_roundtrip.acl.default_inherit with="*errno*" a with= alone' >"$d/expected/xfail.servers"
run with-alone "$d"
want_rc with-alone 2

# --- XPASS fails, a flaky: entry that passes does not
d=$(fixture xpass); run xpass "$d"
want_rc xpass 1
has xpass 'XPASS  acl9p_roundtrip.acl.access_named_user  [patched.diod.client.loose]'
hasnt xpass 'acl.chmod_mask  ['
last xpass '1 passed, 1 failed, 0 skipped'
file_has xpass "$d/results/junit.xml" '<failure message="xpass: passed but listed at'

# --- a listed failure that then timed out or died of a signal fails,
#     whatever the lists say (an assertion's own SIGABRT does not);
#     causes match whole lines, not their first 300 characters; a cause
#     of a used entry that matched nothing is reported
d=$(fixture crash); run crash "$d"
want_rc crash 1
reason crash acl9p_roundtrip.acl.hung patched.diod.client.none 'hung: Test terminated by timeout (a timeout or a signal: no list excuses it)'
has crash 'reason: segv: Test terminated unexpectedly by signal 11 (a timeout or a signal: no list'
hasnt crash 'acl.plain  ['
has crash 'FAIL   acl9p_roundtrip.acl.longcut  [patched.diod.client.none]'
hasnt crash 'acl.longwhole  ['
has crash 'xfail.crash:7: cause 2 of 2: tests/roundtrip.c:*:Expected 1 (1)'
last crash '0 passed, 3 failed, 0 skipped'

# --- truncated guest: unreported tests fail, names from RUN / other cell
d=$(fixture truncated); run truncated "$d"
want_rc truncated 1
count truncated 'reason: no result (guest stopped)' 3
has truncated 'FAIL   acl9p_roundtrip.acl.three  [vanilla.qemu-passthrough.client.none]'
has truncated '| # acl9p_roundtrip.c:50:three:about to setxattr'
has truncated 'FAIL   acl9p_roundtrip.acl.five  [vanilla.qemu-passthrough.client.none]'
has truncated 'A/B differences vanilla vs patched: 3 in 1 configurations, 0 unlisted'
# one differences line for three tests: its reason once, after the last
ab_is truncated <<'EOF'
A/B differences vanilla vs patched: 3 in 1 configurations, 0 unlisted
  qemu-passthrough.client.none:
    acl9p_roundtrip.acl.five   vanilla=fail patched=pass
    acl9p_roundtrip.acl.four   vanilla=fail patched=pass
    acl9p_roundtrip.acl.three  vanilla=fail patched=pass
      listed: W/truncated/expected/differences:2
        vanilla guest stops in three
EOF
# the guest that died (exit=-1) fails its cell on its own: missing
# tests never explain a dead guest
has truncated 'BOOT   vanilla.qemu-passthrough.client.none.boot'
has truncated 'reason: no guest exit code'
# acl.three is listed in xfail.died: a listed test that never reported
# is a failure all the same, and its entry is not used
reason truncated acl9p_roundtrip.acl.three vanilla.qemu-passthrough.client.none 'no result (guest stopped)'
has truncated 'expected-list entries and causes that matched nothing (stale?):'
has_re truncated 'xfail.died:3: vanilla.qemu-passthrough.client.none$'
last truncated '9 passed, 4 failed, 0 skipped'

# --- the guest init's nested KTAP: "not ok N bin # TIMEOUT 60" (missing
#     tests killed, seconds from the directive), a "not ok" binary whose
#     subtests all passed, "ok N bin # SKIP", a binary that stopped
#     before its plan while the guest went on; a guest that died inside a
#     binary (the rest of the plan never started, names borrowed from the
#     cell with the same plan, not from the one with another plan);
#     time_ms per binary; hostcheck.ktap diagnostics; HOSTCHECK data
#     lines are not diagnostics
d=$(fixture rigmarks); run rigmarks "$d"
full=patched.qemu-passthrough.client.loose died=$full.msize8192 early=patched.diod.client.loose
want_rc rigmarks 1
has rigmarks "FAIL   acl9p_slow.slow.hangs  [$full]"
count rigmarks 'reason: no result (binary killed by the guest init after 60 s)' 2
reason rigmarks acl9p_slow.slow.last "$full" 'no result (binary killed by the guest init after 60 s)'
has rigmarks '| # slow.c:42:hangs:waiting for the server'
hasnt rigmarks '| # HOSTCHECK'
reason rigmarks acl9p_crash.crash.segv "$full" 'no result (binary stopped before finishing its plan)'
count rigmarks 'reason: no result (binary stopped before finishing its plan)' 1
hasnt rigmarks 'acl9p_crash.(binary)'
reason rigmarks 'acl9p_exit.(binary)' "$full" 'binary failed (exit status) with no failing test'
file_has rigmarks "$d/results/junit.xml" "classname=\"$full\" name=\"acl9p_tools.(binary)\">"
file_has rigmarks "$d/results/junit.xml" '<skipped message="binary exited with KSFT_SKIP"/>'
# the test name cut so that the line fits 100 columns (the full one in
# summary.md); the diagnostic wrapped at a blank, the rest on a "|   " line
has rigmarks "FAIL   hostcheck.host.acl9p_crash.crash.first/f.system...  [$full]"
file_has rigmarks "$d/results/summary.md" "\`hostcheck.host.acl9p_crash.crash.first/f.system.posix_acl_access\` in \`$full\`"
has rigmarks '| # host system.posix_acl_access of acl9p_crash.crash.first/f holds 02000000 (expected'
has_re rigmarks '^         \|   absent\)$'
reason rigmarks acl9p_crash.crash.segv "$died" 'no result (guest stopped)'
has rigmarks '| # crash.c:10:segv:about to take the guest down'
reason rigmarks 'acl9p_exit.(binary)' "$died" 'no result (guest stopped before this binary)'
reason rigmarks 'acl9p_tools.(binary)' "$died" 'no result (guest stopped before this binary)'
reason rigmarks 'acl9p_slow.(binary)' "$early" 'no result (guest stopped)'
reason rigmarks '#2.(binary)' "$early" 'no result (guest stopped before this binary)'
count rigmarks 'guest stopped' 5
has_re rigmarks "^$early +0 +3 +0 +0 +0 "
has_re rigmarks "^${died//./\\.} +4 +4 +0 +0 +0 "
has_re rigmarks '^  acl9p_slow +30756 +1500 +60012  patched\.qemu-passthrough\.client\.loose$'
has_re rigmarks "^  acl9p_crash +310 +310 +310  $full\$"
narrow rigmarks
file_has rigmarks "$d/results/summary.md" "| \`acl9p_slow\` | 30756 | 1500 | 60012 | \`$full\` |"
# the two guests that died fail as cells too; the one that finished not
has rigmarks "BOOT   $early.boot"
has rigmarks "BOOT   $died.boot"
hasnt rigmarks "BOOT   $full.boot"
last rigmarks '8 passed, 12 failed, 2 skipped'

# --- the kernel's kunit_parser.py found errors in ktap.txt (status
#     ktap_errors): a boot failure of the cell, however well it parsed
#     here; hostcheck.ktap with just "1..0" is no checks
d=$(fixture ktap-errors); run ktap-errors "$d"
want_rc ktap-errors 1
has ktap-errors 'BOOT   patched.diod.client.none.boot'
has ktap-errors 'reason: kunit_parser.py: 2 errors (first: Test: acl9p_roundtrip: missing expected subtest!)'
has ktap-errors 'reason: kunit_parser.py: 1 errors'
hasnt ktap-errors 'patched.diod.user.none.boot'
has_re ktap-errors '^patched\.diod\.user\.none +2 +0 +0 +0 +0 '
last ktap-errors '8 passed, 2 failed, 0 skipped'

# --- splat / timeout / unexplained exit: one boot failure per cell
d=$(fixture splat); run splat "$d"
want_rc splat 1
has splat 'BOOT   custom.diod.user.none.boot'
has splat 'reason: kernel splat (oops/BUG/WARNING) on console: WARNING at fs/9p/acl.c:42'
has splat 'reason: timeout: guest did not finish in 300s'
# the notes column cut to fit 100 columns, the full text in summary.md
has_re splat '^custom\.diod\.user\.loose +1 +0 +0 +1 +0 +7\.0 +boot \(expected\): guest exit=3$'
has splat "(notes cut to fit; $d/results/summary.md has them in full)"
file_has splat "$d/results/summary.md" '| 7.0 | boot (expected): guest exit=3 |'
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

# a five-part cell name (kernel.server.access.cache.opts) is a cell too
mkdir "$d/results/custom.qemu-passthrough.user.none.msize8192"
run splat-empty5 "$d"
has splat-empty5 'BOOT   custom.qemu-passthrough.user.none.msize8192.boot'
last splat-empty5 '3 passed, 4 failed, 0 skipped'

# --- the console pseudo-test console.kernel_reports (status
#     kernel_reports=N, each report's first line in kernel-reports), judged
#     by the lists like any test: a listed report with its cause is XFAIL,
#     an unlisted one fails, a listed one whose line differs fails, one
#     more report beside a listed one fails, a listed one that did not
#     appear is an XPASS; a count that does not add up or a missing file
#     fails whatever the lists say; a status without the key (a rig
#     before it) has no such test; the manifest and --tests leave it alone
vr=vanilla.ninep-proxy.client.none
d=$(fixture console); run console "$d"
want_rc console 0
has_re console '^vanilla\.ninep-proxy\.client\.none +2 +0 +0 +1 +0 '
has_re console '^patched\.ninep-proxy\.client\.none +3 +0 +0 +0 +0 '
has_re console '^patched\.diod\.user\.none +2 +0 +0 +0 +0 '
has console 'expected failures: 1 '
has console '    console.kernel_reports  vanilla=fail patched=pass'
last console '7 passed, 0 failed, 0 skipped'
file_has console "$d/results/junit.xml" "classname=\"$vr\" name=\"console.kernel_reports\""
file_has console "$d/results/junit.xml" '<skipped message="xfail: kzalloc() of the size the server declared (9 TiB) WARNs in __alloc_pages">'
run console-manifest "$d" --manifest "$d/manifest" --tests faults
want_rc console-manifest 0
hasnt console-manifest "not in the build's manifest"
last console-manifest '7 passed, 0 failed, 0 skipped'
# a debug kernel's console stamps its lines (CONFIG_PRINTK_TIME): the
# stamp is not part of what a cause= glob judges
d=$(fixture console)
sed -i 's/^/[  760.264298] /' "$d/results/$vr/kernel-reports"
run console-stamped "$d"
want_rc console-stamped 0
last console-stamped '7 passed, 0 failed, 0 skipped'
d=$(fixture console)
rm "$d/expected/xfail.vanilla"
run console-unlisted "$d"
want_rc console-unlisted 1
has console-unlisted "FAIL   console.kernel_reports  [$vr]"
has console-unlisted 'reason: 1 kernel report on the console (first lines in'
has console-unlisted '| # WARNING: CPU: 0 PID: 55 at mm/page_alloc.c:5634 __alloc_pages+0x1d6/0x2a0'
last console-unlisted '7 passed, 1 failed, 0 skipped'
d=$(fixture console)
printf 'WARNING: CPU: 1 PID: 60 at fs/9p/acl.c:42 v9fs_get_acl+0x10/0x20\n' >"$d/results/$vr/kernel-reports"
run console-other "$d"
want_rc console-other 1
has console-other "FAIL   console.kernel_reports  [$vr]"
has console-other 'failed for another cause than listed at'
has console-other '| # WARNING: CPU: 1 PID: 60 at fs/9p/acl.c:42 v9fs_get_acl+0x10/0x20'
last console-other '7 passed, 1 failed, 0 skipped'
d=$(fixture console)
printf 'BUG: kernel NULL pointer dereference, address: 0000000000000000\n' >>"$d/results/$vr/kernel-reports"
sed -i 's/^kernel_reports=1$/kernel_reports=2/' "$d/results/$vr/status"
run console-more "$d"
want_rc console-more 1
has console-more 'failed for another cause than listed at'
has console-more '| # BUG: kernel NULL pointer dereference, address: 0000000000000000'
last console-more '7 passed, 1 failed, 0 skipped'
d=$(fixture console)
: >"$d/results/$vr/kernel-reports"
sed -i 's/^kernel_reports=1$/kernel_reports=0/' "$d/results/$vr/status"
run console-absent "$d"
want_rc console-absent 1
has console-absent "XPASS  console.kernel_reports  [$vr]"
has console-absent 'A/B differences vanilla vs patched: 0 in 1 configurations, 0 unlisted'
last console-absent '7 passed, 1 failed, 0 skipped'
d=$(fixture console)
sed -i 's/^kernel_reports=1$/kernel_reports=2/' "$d/results/$vr/status"
run console-count "$d"
want_rc console-count 1
has console-count 'holds 1 report lines, status'
last console-count '7 passed, 1 failed, 0 skipped'
d=$(fixture console)
rm "$d/results/$vr/kernel-reports"
run console-missing "$d"
want_rc console-missing 1
has console-missing 'the console was not judged:'
last console-missing '7 passed, 1 failed, 0 skipped'

# --- A/B: unlisted difference fails, listed one does not
d=$(fixture diff-unlisted); run diff-unlisted "$d"
want_rc diff-unlisted 1
ab_is diff-unlisted <<'EOF'
A/B differences vanilla vs patched: 1 in 1 configurations, 1 unlisted
  qemu-passthrough.user.loose:
    acl9p_roundtrip.acl.fixed_by_patch  vanilla=fail patched=pass
      NOT LISTED in W/diff-unlisted/expected/differences: counts as a failure
EOF
last diff-unlisted '3 passed, 1 failed, 0 skipped'
file_has diff-unlisted "$d/results/junit.xml" '<failure message="vanilla fail, patched pass"/>'
# the same with a four-part configuration (cells kernel.server.access.cache.opts)
d=$(fixture diff-unlisted)
for c in "$d"/results/*; do mv "$c" "$c.msize8192"; done
run diff-5part "$d"
ab_is diff-5part <<'EOF'
A/B differences vanilla vs patched: 1 in 1 configurations, 1 unlisted
  qemu-passthrough.user.loose.msize8192:
    acl9p_roundtrip.acl.fixed_by_patch  vanilla=fail patched=pass
      NOT LISTED in W/diff-unlisted/expected/differences: counts as a failure
EOF
has diff-5part 'A/B differences vanilla vs patched: 1 in 1 configurations, 1 unlisted'
last diff-5part '3 passed, 1 failed, 0 skipped'
d=$(fixture diff-listed); run diff-listed "$d"
want_rc diff-listed 0
ab_is diff-listed <<'EOF'
A/B differences vanilla vs patched: 1 in 1 configurations, 0 unlisted
  qemu-passthrough.user.loose:
    acl9p_roundtrip.acl.fixed_by_patch  vanilla=fail patched=pass
      listed: W/diff-listed/expected/differences:2
        this is the fix
EOF
has diff-listed 'expected failures: 1 '
has diff-listed 'differences:4: *.user.* acl9p_roundtrip.acl.never_ran'
last diff-listed '3 passed, 0 failed, 0 skipped'
# fails= is the direction: an entry for "vanilla fails" does not take
# the series failing the same test, and "either" is a race's alone
d=$(fixture diff-listed)
sed -i 's/acl.fixed_by_patch fails=vanilla/acl.fixed_by_patch fails=patched/' "$d/expected/differences"
run diff-direction "$d"
want_rc diff-direction 1
has diff-direction 'NOT LISTED in'
last diff-direction '3 passed, 1 failed, 0 skipped'
d=$(fixture diff-listed)
sed -i 's/acl.fixed_by_patch fails=vanilla this/acl.fixed_by_patch fails=either flaky: this/' "$d/expected/differences"
run diff-either "$d"
want_rc diff-either 0
d=$(fixture diff-listed)
sed -i 's/acl.fixed_by_patch fails=vanilla/acl.fixed_by_patch fails=either/' "$d/expected/differences"
run diff-either-unflaky "$d"
want_rc diff-either-unflaky 2
load_names diff-either-unflaky 'differences:2: fails=either is for a flaky: race only'
d=$(fixture diff-listed)
sed -i 's/acl.fixed_by_patch fails=vanilla/acl.fixed_by_patch/' "$d/expected/differences"
run diff-no-direction "$d"
want_rc diff-no-direction 2
load_names diff-no-direction 'differences:2: a differences entry needs fails='
d=$(fixture diff-listed)
echo '*.*.* acl9p_roundtrip.acl.x fails=vanilla some reason' >>"$d/expected/xfail.vanilla"
run fails-in-xfail "$d"
want_rc fails-in-xfail 2
load_names fails-in-xfail 'xfail.vanilla:[0-9]*: fails= belongs to differences entries'
# differences@FLAVOUR: a difference only a flavour's runs have is
# listed for that flavour alone
d=$(fixture diff-listed)
mv "$d/expected/differences" "$d/expected/differences@debug"
run diff-flavour "$d" --flavour debug
want_rc diff-flavour 0
has diff-flavour "      listed: $d/expected/differences@debug:2"
last diff-flavour '3 passed, 0 failed, 0 skipped'
run diff-flavour-plain "$d"
want_rc diff-flavour-plain 1
has diff-flavour-plain 'A/B differences vanilla vs patched: 1 in 1 configurations, 1 unlisted'

# a failure against a skip is the failing kernel's (one kernel skips for
# a feature it lacks, the other fails): fails=vanilla takes it
d=$(fixture diff-listed)
sed -i 's/^    ok 2 acl.fixed_by_patch$/    ok 2 acl.fixed_by_patch # SKIP no such feature/' \
	"$d/results/patched.qemu-passthrough.user.loose/ktap.txt"
run diff-fail-skip "$d"
has diff-fail-skip 'A/B differences vanilla vs patched: 1 in 1 configurations, 0 unlisted'
has diff-fail-skip 'acl9p_roundtrip.acl.fixed_by_patch  vanilla=fail patched=skip'
sed -i 's/acl.fixed_by_patch fails=vanilla/acl.fixed_by_patch fails=patched/' "$d/expected/differences"
run diff-fail-skip-other "$d"
has diff-fail-skip-other 'A/B differences vanilla vs patched: 1 in 1 configurations, 1 unlisted'

# --- three kernels, three comparisons (kernel/kernels.conf's compare
#     lines): each is judged on its own, an entry's fails= names the
#     kernel that fails and applies wherever that kernel is compared
d=$(fixture diff-listed)
cp -r "$d/results/vanilla.qemu-passthrough.user.loose" "$d/results/upstream.qemu-passthrough.user.loose"
echo 'upstream.* acl9p_roundtrip.acl.fixed_by_patch upstream has the bug too' >"$d/expected/xfail.upstream"
three=(--compare vanilla:patched --compare upstream:patched --compare vanilla:upstream)
run three-way "$d" "${three[@]}"
want_rc three-way 1
ab_is three-way <<'EOF'
A/B differences vanilla vs patched: 1 in 1 configurations, 0 unlisted
  qemu-passthrough.user.loose:
    acl9p_roundtrip.acl.fixed_by_patch  vanilla=fail patched=pass
      listed: W/diff-listed/expected/differences:2
        this is the fix
A/B differences upstream vs patched: 1 in 1 configurations, 1 unlisted
  qemu-passthrough.user.loose:
    acl9p_roundtrip.acl.fixed_by_patch  upstream=fail patched=pass
      NOT LISTED in W/diff-listed/expected/differences: counts as a failure
A/B differences vanilla vs upstream: 0 in 1 configurations, 0 unlisted
EOF
file_has three-way "$d/results/junit.xml" '<failure message="upstream fail, patched pass"/>'
echo '*.user.* acl9p_roundtrip.acl.fixed_by_patch fails=upstream upstream lacks the fix' \
	>>"$d/expected/differences"
run three-way-listed "$d" "${three[@]}"
want_rc three-way-listed 0
has three-way-listed 'A/B differences upstream vs patched: 1 in 1 configurations, 0 unlisted'
last three-way-listed '4 passed, 0 failed, 0 skipped'
# an entry that names no cell of the run (a kernel, a server the run did
# not boot) is not stale; one that could have matched and did not is
echo 'upstream.* acl9p_roundtrip.acl.gone it too' >>"$d/expected/xfail.upstream"
echo 'diod.*.* acl9p_roundtrip.acl.other fails=upstream another server' >>"$d/expected/differences"
run three-way-reach "$d" "${three[@]}"
has three-way-reach 'xfail.upstream:2: upstream.* acl9p_roundtrip.acl.gone'
hasnt three-way-reach 'differences:6: diod'
rm "$d/results/upstream.qemu-passthrough.user.loose" -r
sed -i '$d' "$d/expected/differences"
run three-way-unrun "$d" "${three[@]}"
hasnt three-way-unrun 'xfail.upstream:'
hasnt three-way-unrun 'differences:5:'
has three-way-unrun 'differences:4: *.user.* acl9p_roundtrip.acl.never_ran'
# a fails= kernel no comparison has is a load error, not an entry that
# silently excuses nothing
run three-way-typo "$d" --compare vanilla:patched
want_rc three-way-typo 2
load_names three-way-typo 'differences:5: fails=upstream: no comparison has that kernel'
for bad_cmp in vanilla vanilla: :patched vanilla:vanilla a:b:c; do
	run "compare-$bad_cmp" "$d" --compare "$bad_cmp"
	want_rc "compare-$bad_cmp" 2
done

# --- across sources (kernels.conf compares of different source packages,
#     "A:B:across"): a difference whose failing side is that kernel's own
#     listed expected failure, by an entry not naming the other kernel's
#     cell, is explained by that entry; the same difference between
#     kernels of one source stays unlisted (three-way above)
d=$(fixture diff-listed)
cp -r "$d/results/vanilla.qemu-passthrough.user.loose" "$d/results/upstream.qemu-passthrough.user.loose"
echo 'upstream.* acl9p_roundtrip.acl.fixed_by_patch upstream has the bug too' >"$d/expected/xfail.upstream"
run across "$d" --compare vanilla:patched --compare upstream:patched:across
want_rc across 0
ab_is across <<'EOF2'
A/B differences vanilla vs patched: 1 in 1 configurations, 0 unlisted
  qemu-passthrough.user.loose:
    acl9p_roundtrip.acl.fixed_by_patch  vanilla=fail patched=pass
      listed: W/diff-listed/expected/differences:2
        this is the fix
A/B differences upstream vs patched: 1 in 1 configurations, 0 unlisted
  qemu-passthrough.user.loose:
    acl9p_roundtrip.acl.fixed_by_patch  upstream=fail patched=pass
      listed: W/diff-listed/expected/xfail.upstream:1
        upstream has the bug too
EOF2
# an entry that names the other kernel's cell too expected both to fail:
# one passing is news, not explained
echo '@(upstream|patched).* acl9p_roundtrip.acl.fixed_by_patch both have the bug' >"$d/expected/xfail.upstream"
run across-both "$d" --compare vanilla:patched --compare upstream:patched:across
has across-both 'A/B differences upstream vs patched: 1 in 1 configurations, 1 unlisted'
run across-bad "$d" --compare upstream:patched:acrosss
want_rc across-bad 2

# --- a host check one kernel never made (its guest test stopped first) is
#     explained by that guest test's expected failure in its cell, in any
#     comparison; not when that test failed unlisted
d=$(fixture basic)
echo 'ok 3 host.acl9p_roundtrip.acl.default_inherit/d.system.posix_acl_default' \
	>>"$d/results/patched.qemu-mapped-xattr.user.none/hostcheck.ktap"
sed -i 's/^1\.\.2$/1..3/' "$d/results/patched.qemu-mapped-xattr.user.none/hostcheck.ktap"
sed -i '1a # HOSTCHECK fixture/d system.posix_acl_default absent' \
	"$d/results/patched.qemu-mapped-xattr.user.none/ktap.txt"
run hostcheck-never-made "$d"
want_rc hostcheck-never-made 0
has hostcheck-never-made 'hostcheck.host.acl9p_roundtrip.acl.default_inherit/d.system.posi...  vanilla=absent patched=pass'
has hostcheck-never-made 'basic/expected/xfail.servers:2'
has hostcheck-never-made 'A/B differences vanilla vs patched: 1 in 1 configurations, 0 unlisted'
sed -i '/default_inherit/d' "$d/expected/"*
run hostcheck-never-made-unlisted "$d"
has hostcheck-never-made-unlisted 'A/B differences vanilla vs patched: 1 in 1 configurations, 1 unlisted'

# --- A/B grouping: per configuration the unlisted first, then one group
#     per differences line (its reason once, after the last of its tests,
#     wrapped to 100 columns), interleaved tests regrouped (the fifo line
#     comes first in the file), a long name cut to the column
d=$(fixture diff-grouped); run diff-grouped "$d"
want_rc diff-grouped 1
ab_is diff-grouped <<'EOF'
A/B differences vanilla vs patched: 8 in 2 configurations, 2 unlisted
  diod.user.none:
    acl9p_absence.absence.new_in_patched  vanilla=absent patched=pass
      listed: W/diff-grouped/expected/differences:5
        the patched kernel's acl9p_absence has this test, the vanilla one does not
    acl9p_roundtrip.acl.fixed_by_patch    vanilla=fail patched=pass
      listed: W/diff-grouped/expected/differences:6
        diod passes the ACL through once the patch is in
  qemu-passthrough.client.none:
    acl9p_roundtrip.acl.fixed_by_patch                                   vanilla=fail patched=pass
    acl9p_roundtrip.acl.mask_recalc                                      vanilla=pass patched=skip
      NOT LISTED in W/diff-grouped/expected/differences: each counts as a failure
    acl9p_absence.absence.new_in_patched                                 vanilla=absent patched=pass
      listed: W/diff-grouped/expected/differences:5
        the patched kernel's acl9p_absence has this test, the vanilla one does not
    acl9p_absence.absence.set_default_acl_on_a_directory_below_a_bin...  vanilla=fail patched=pass
    acl9p_absence.absence.set_default_acl_on_regular_file                vanilla=fail patched=pass
      listed: W/diff-grouped/expected/differences:4
        patched: set_posix_acl() answers EACCES before 9p is asked; vanilla: v9fs_xattr_set_acl
        answers EINVAL
    acl9p_absence.absence.set_default_acl_on_fifo                        vanilla=fail patched=pass
      listed: W/diff-grouped/expected/differences:3
        vanilla: v9fs answers EOPNOTSUPP for a fifo
EOF
# a failure's reason and diagnostics wrapped, a diagnostic at most 3 lines
has diff-grouped 'reason: getxattr(2) of system.posix_acl_access answered ENODATA right after setfacl(1) set'
has_re diff-grouped '^                 an access ACL on the same file$'
has_re diff-grouped '^         \|   setfacl -m u:1000:rwx,g::r-x,m::rwx,o::--- on a file created under a directory whose\.\.\.$'
file_has diff-grouped "$d/results/summary.md" 'the server was asked to drop at mount time'
file_has diff-grouped "$d/results/summary.md" '| `qemu-passthrough.client.none` | `acl9p_absence.absence.set_default_acl_on_a_directory_below_a_bind_mount_of_the_export_root` | fail | pass | expected: patched: set_posix_acl() answers EACCES before 9p is asked; vanilla: v9fs_xattr_set_acl answers EINVAL |'
last diff-grouped '18 passed, 4 failed, 1 skipped'

# --- paths below the cwd print relative to it, however they were given
d=$(fixture diff-listed)
set +e
(cd "$work" && "$bin" --results "$d/results/" --expected "$d/expected/") >"$work/relpaths.out" 2>&1
set -e
out=$work/relpaths.out
has relpaths '      listed: diff-listed/expected/differences:2'
has relpaths 'diff-listed/expected/differences:4: *.user.* acl9p_roundtrip.acl.never_ran'
has relpaths 'expected failures: 1 (diff-listed/expected)'
hasnt relpaths "$work"
file_has relpaths "$d/results/summary.md" 'lists in `diff-listed/expected`'
if grep -qF "$work" "$d/results/summary.md"; then bad "relpaths: summary.md has an absolute path"
else ok "relpaths: summary.md has no absolute path"; fi
fits relpaths "$out"
d=$(fixture splat)
sed -i "s|^console=|console=$d/|" "$d/results/custom.diod.user.none/status"
set +e
(cd "$d" && "$bin" --results results --expected "$d/expected") >"$work/relpaths.out" 2>&1
set -e
has relpaths 'console: build/results/custom.diod.user.none/console.log'
has relpaths 'expected failures: 1 (expected)'

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

# --- expected failures by cause (cause= words): a listed test that fails
#     for another reason is a failure, with the listed cause shown; two
#     causes of one test in two entries; a flaky entry's other outcome
#     must be its race; a host check by its line; a failure with no
#     diagnostic is "(none)"; an entry without causes keeps name-only
#     matching
d=$work/causes c=$d/results/patched.qemu-passthrough.client.none
mkdir -p "$c" "$d/expected"
printf 'exit=0\ntimeout=0\nsplat=0\nwall_ms=1000\nreason=\n' >"$c/status"
{
	printf 'KTAP version 1\n1..1\n# selftests: acl9p: acl9p_x\n    TAP version 13\n    1..8\n'
	printf '    # HOSTCHECK x/f system.posix_acl_access absent\n    # HOSTCHECK x/g system.posix_acl_access 0200\n'
	printf '    #  RUN           t.same ...\n'
	printf '    # tests/x.c:10:same:Expected 0 (0) == r (-22)\n'
	printf '    # tests/x.c:11:same:setxattr: EINVAL\n'
	printf '    # same: Test failed at step #1\n    not ok 1 t.same\n'
	printf '    #  RUN           t.other ...\n'
	printf '    # tests/x.c:20:other:Expected 0640 (416) == m (384)\n'
	printf '    # tests/x.c:30:other:Expected 0 (0) == memcmp(a, b, n) (1)\n    not ok 2 t.other\n'
	printf '    #  RUN           t.two ...\n'
	printf '    # tests/x.c:20:two:Expected 0640 (416) == m (384)\n'
	printf '    # tests/x.c:30:two:Expected 0 (0) == memcmp(a, b, n) (1)\n    not ok 3 t.two\n'
	printf '    #  RUN           t.race ...\n'
	printf '    # tests/x.c:40:race:Expected 0 (0) == shm->errors (3)\n    not ok 4 t.race\n'
	printf '    #  RUN           t.race_other ...\n'
	printf '    # tests/x.c:50:race_other:Expected 0 (0) == wait_all(p, 4) (1)\n    not ok 5 t.race_other\n'
	printf '    #  RUN           t.silent ...\n    not ok 6 t.silent\n'
	printf '    #  RUN           t.silent_listed ...\n    not ok 7 t.silent_listed\n'
	printf '    #  RUN           t.old_style ...\n'
	printf '    # tests/x.c:60:old_style:Expected 1 (1) == 2 (2)\n    not ok 8 t.old_style\n'
	printf 'not ok 1 acl9p_x\n'
} >"$c/ktap.txt"
{
	printf 'TAP version 13\n1..2\n'
	printf '# host system.posix_acl_access of x/f holds 0200 (expected absent)\nnot ok 1 host.acl9p_x.t.same/f.system.posix_acl_access\n'
	printf '# host system.posix_acl_access of x/g: ENODATA (expected 0200)\nnot ok 2 host.acl9p_x.t.two/g.system.posix_acl_access\n'
} >"$c/hostcheck.ktap"
cat >"$d/expected/xfail.causes" <<'EOF2'
* acl9p_x.t.same cause="tests/x.c:*:Expected 0 (0) == r (-22)" the server says EINVAL
* acl9p_x.t.other cause="tests/x.c:*:Expected 0640 (416) == m (384)" the mode is stale
* acl9p_x.t.two cause="tests/x.c:*:Expected 0640 (416) == m (384)" the mode is stale
* acl9p_x.t.two cause="tests/x.c:*:Expected 0 (0) == memcmp(a, b, n) (1)" the bytes differ
* acl9p_x.t.race* cause="tests/x.c:*:Expected 0 (0) == shm->errors (*)" flaky: the race bites on some runs
* acl9p_x.t.silent cause="tests/x.c:*:Expected*" fails with a diagnostic
* acl9p_x.t.silent_listed cause=(none) fails without a word
* acl9p_x.t.old_style name-only entry of the old lists
* hostcheck.host.acl9p_x.t.same/* cause="host system.posix_acl_access of * holds * (expected absent)" stored
* hostcheck.host.acl9p_x.t.two/* cause="host system.posix_acl_access of * holds * (expected *)" another value
EOF2
run causes "$d"
want_rc causes 1
# same: its assertion is the listed one (the TH_LOG and step lines do not count)
hasnt causes 'FAIL   acl9p_x.t.same '
# other: listed for the stale mode, but the bytes differ too
has causes 'FAIL   acl9p_x.t.other  [patched.qemu-passthrough.client.none]'
has causes 'failed for another cause than listed at'
has causes 'xfail.causes:2'
has causes '(cause tests/x.c:*:Expected 0640 (416) == m (384)): tests/x.c:30:other'
has causes 'Expected 0 (0) == memcmp(a, b, n) (1)'
# two: the same two failures, each listed by an entry of its own
hasnt causes 'FAIL   acl9p_x.t.two '
# race_other: a flaky entry excuses only its race
has causes 'FAIL   acl9p_x.t.race_other  [patched.qemu-passthrough.client.none]'
hasnt causes 'FAIL   acl9p_x.t.race '
has causes 'FAIL   acl9p_x.t.silent  [patched.qemu-passthrough.client.none]'
hasnt causes 'FAIL   acl9p_x.t.silent_listed '
hasnt causes 'FAIL   acl9p_x.t.old_style '
hasnt causes 'FAIL   hostcheck.host.acl9p_x.t.same'
has causes 'FAIL   hostcheck.host.acl9p_x.t.two/g.system'
last causes '0 passed, 4 failed, 0 skipped'
# no hostcheck.ktap (acl9p-hostcheck missing, boot.sh cut short): the
# two HOSTCHECK requests were never answered, so the cell fails
mv "$c/hostcheck.ktap" "$d/hostcheck.ktap.away"
run causes-nohost "$d"
has causes-nohost 'BOOT   patched.qemu-passthrough.client.none.boot'
has causes-nohost 'reason: host checks: 2 requested in ktap.txt, 0 reported in hostcheck.ktap'
mv "$d/hostcheck.ktap.away" "$c/hostcheck.ktap"
# an unterminated cause="... is a format error
printf '* x cause="never closed\n' >"$d/expected/xfail.zz-bad"
run causes-bad "$d"
want_rc causes-bad 2
if grep -q 'xfail.zz-bad:1: format error' "$err"; then ok "causes-bad: names file:line"; else bad "causes-bad: no file:line in '$(cat "$err")'"; fi
rm -f "$d/expected/xfail.zz-bad"

# --- garbage: NULs, CRs, broken UTF-8, console noise, lines nested one
#     level deeper, missing plan, empty binary, Bail out!, a CR that would
#     hide the indentation
d=$work/garbage c=$d/results/patched.diod.user.none
mkdir -p "$c" "$d/expected"
printf 'exit=1\r\nwall_ms=1500\r\nnonsense line\r\n=\r\nreason=\r\n' >"$c/status"
{
	printf '\0\377 junk before any header\n'
	printf '[    1.234567] 9p: installing v9fs\n'
	printf 'KTAP version 1\r\n1..5\r\n'
	printf '# selftests: acl9p: acl9p_garbage\r\n    TAP version 13\r\n    1..3\r\n'
	printf '    okay this is not a result\n'
	printf 'okay neither at the top\n'
	printf '    # HOSTCHECK g/f system.posix_acl_access absent\n'
	printf '    ok 1 acl.crlf\r\n'
	printf '        ok 1 indented.subtest\n'
	printf '    #  RUN           acl.bad_utf8 ...\n'
	printf '    # detail \377\376\001 bytes\n'
	printf '    not ok 2 acl.bad_utf8 # with comment\n'
	printf '    1..x garbage\n1..x garbage\n'
	printf '    noise\rok 3 acl.after_cr\n'
	printf 'not ok 1 acl9p_garbage\n# time_ms acl9p_garbage x\n'
	printf '# selftests: acl9p: noplan\n    ok 1 a\n    not ok 2 b # TIMEOUT\nrandom garbage ok\n'
	printf 'not ok 2 noplan\n'
	printf '# selftests: acl9p: shortplan\n    TAP version 13\n    1..2\n    ok 1 only\nok 3 shortplan\n'
	printf '# selftests: acl9p: empty\nnot ok 4 empty\n'
	printf '# selftests: acl9p: bail\n    TAP version 13\n    1..2\n    ok 1 first\n'
	printf '    Bail out! 9p mount failed\nnot ok 5 bail\n'
} >"$c/ktap.txt"
printf 'ok 1 host_xattr' >"$c/hostcheck.ktap"   # no plan, no final newline
echo '* noplan.b the harness timeout is known' >"$d/expected/xfail.garbage"
run garbage "$d"
want_rc garbage 1
has_re garbage '^patched\.diod\.user\.none +6 +5 +0 +1 +0 +1\.5'
has garbage 'reason: with comment'
has garbage 'FAIL   bail.#2  [patched.diod.user.none]'
has garbage 'reason: no result (Bail out! 9p mount failed)'
has garbage 'FAIL   empty.(binary)'
has garbage 'reason: no TAP output from this binary'
has garbage 'reason: no result (binary stopped before finishing its plan)'
file_has garbage "$d/results/junit.xml" 'name="hostcheck.host_xattr"/>'
hasnt garbage 'indented.subtest'
# exit=1 (the init's setup failed) fails the cell whatever the tests said
has garbage 'BOOT   patched.diod.user.none.boot'
has garbage 'reason: guest exit=1'
last garbage '6 passed, 5 failed, 0 skipped'
xml_ok garbage "$d/results/junit.xml"

# --- the build's manifest (--manifest, --tests) and the cells the run
#     asked for (--cells).  Run from the fixture, so its paths print
#     short.  mrun NAME DIR [args...]: like run, in DIR.
mrun() {
	local name=$1 dir=$2
	shift 2
	out=$work/$name.out err=$work/$name.err
	set +e
	(cd "$dir" && "$bin" --results results --expected expected "$@") >"$out" 2>"$err"
	rc=$?
	set -e
}
d=$(fixture manifest)
pc=patched.qemu-passthrough.client.none vc=vanilla.qemu-passthrough.client.none
pu=patched.qemu-passthrough.user.none
mrun manifest "$d" --manifest manifest --cells cells.list
want_rc manifest 1
# a manifest test the cell did not report fails, although an xfail
# entry names it, and the entry is not used
reason manifest acl9p_alpha.alpha.fix.three "$pu" "not reported (in the build's manifest, manifest)"
has manifest 'xfail.manifest:4: *.qemu-passthrough.user.none acl9p_alpha.alpha.fix.three'
# a manifest binary the cell never ran fails, once
reason manifest 'acl9p_beta.(binary)' "$pc" "not reported: never ran in this cell (2 tests in the build's manifest, manifest)"
# the vanilla guest died before beta: that failure stands for it
reason manifest 'acl9p_beta.(binary)' "$vc" 'no result (guest stopped before this binary)'
count manifest 'FAIL   acl9p_beta.(binary)' 2
# a cell asked for with no results directory fails the run
has manifest 'BOOT   patched.diod.client.none.boot'
has manifest 'reason: cell asked for but no results (never ran)'
has_re manifest '^patched\.diod\.client\.none +0 +1 +0 +0 +0 +-  BOOT: cell asked for'
# a test the manifest does not know is not a failure, only a note
has manifest "tests not in the build's manifest (manifest): 1, counted as reported (first:"
hasnt manifest 'FAIL   acl9p_beta.beta.extra'
has_re manifest "^${pu//./\\.} +5 +1 +0 +0 +0 "
last manifest '10 passed, 6 failed, 0 skipped'
file_has manifest "$d/results/junit.xml" 'name="acl9p_alpha.alpha.fix.three">'
file_has manifest "$d/results/summary.md" "\`acl9p_beta.(binary)\` in \`$pc\`: not reported: never ran"
xml_ok manifest "$d/results/junit.xml"
# the same cells without the manifest and the list: what the guests
# said (the patched client cell has no beta at all, so vanilla's beta
# failure is an unlisted difference)
mrun manifest-none "$d"
hasnt manifest-none 'not reported'
has_re manifest-none '^    acl9p_beta\.\(binary\) +vanilla=fail patched=absent$'
last manifest-none '10 passed, 4 failed, 0 skipped'
# alone, the vanilla guest's unnamed test and binary take the manifest's
# names (its 3rd alpha test; the 2nd binary of a 2-binary plan)
mrun manifest-names "$d" --manifest manifest --cell-filter 'vanilla.*'
reason manifest-names acl9p_alpha.alpha.fix.three "$vc" 'no result (guest stopped)'
reason manifest-names 'acl9p_beta.(binary)' "$vc" 'no result (guest stopped before this binary)'
hasnt manifest-names 'acl9p_alpha.#3'
hasnt manifest-names '#2.(binary)'
last manifest-names '2 passed, 3 failed, 0 skipped'
# --tests alpha (TESTS=alpha): beta's absence is no failure; with
# --cell-filter the listed cells it leaves out are not asked for
mrun manifest-tests "$d" --manifest manifest --tests alpha \
	--cell-filter 'patched.qemu-passthrough.client.*' --cells cells.list
want_rc manifest-tests 0
hasnt manifest-tests 'acl9p_beta'
hasnt manifest-tests 'patched.diod.client.none'
last manifest-tests '3 passed, 0 failed, 0 skipped'
# the glob is the guest init's (fnmatch over the name without acl9p_);
# empty is all binaries
mrun manifest-glob "$d" --manifest manifest --tests 'b*'
reason manifest-glob 'acl9p_beta.(binary)' "$pc" "not reported: never ran in this cell (2 tests in the build's manifest, manifest)"
reason manifest-glob acl9p_alpha.alpha.fix.three "$vc" 'no result (guest stopped)'
hasnt manifest-glob 'FAIL   acl9p_alpha.alpha.fix.three  [patched'
last manifest-glob '10 passed, 4 failed, 0 skipped'
mrun manifest-all "$d" --manifest manifest --tests ''
reason manifest-all 'acl9p_beta.(binary)' "$pc" "not reported: never ran in this cell (2 tests in the build's manifest, manifest)"
last manifest-all '10 passed, 5 failed, 0 skipped'
# every cell asked for is missing: still a report, not "no cells"
mkdir "$d/none"
mrun manifest-nodirs "$d" --manifest manifest --cells cells.list --results none
want_rc manifest-nodirs 1
count manifest-nodirs 'reason: cell asked for but no results (never ran)' 4
last manifest-nodirs '0 passed, 4 failed, 0 skipped'
# bad input: exit 2, one stderr line
printf 'acl9p_alpha alpha.one\nacl9p_alpha\n' >"$d/bad.manifest"
printf 'acl9p_alpha alpha.one\nacl9p_alpha alpha.one\n' >"$d/dup.manifest"
printf '# nothing\n' >"$d/empty.manifest"
printf 'patched.diod.client.none\n../etc\n' >"$d/bad.cells"
for c in "bad.manifest:--manifest bad.manifest:bad.manifest:2: format error" \
	 "dup.manifest:--manifest dup.manifest:acl9p_alpha alpha.one listed twice" \
	 "empty.manifest:--manifest empty.manifest:lists no test" \
	 "no manifest:--manifest nope:--manifest nope: No such file" \
	 "bad cells:--cells bad.cells:bad.cells:2: not a cell name" \
	 "no cells file:--cells nope:--cells nope: No such file" \
	 "--tests alone:--tests alpha:--tests needs --manifest"; do
	IFS=: read -r what args msg <<<"$c"
	# shellcheck disable=SC2086 # the option and its value
	mrun manifest-usage "$d" $args
	if [ "$rc" = 2 ] && [ "$(wc -l <"$err")" = 1 ] && grep -qF -- "$msg" "$err"; then
		ok "manifest usage: $what -> exit 2, '$msg'"
	else bad "manifest usage: $what -> exit $rc: $(cat "$err")"; fi
done

# --- traffic.tsv: the 9P requests of each test (scripts/boot.sh).  The
#     fixture is basic with each test's "# acl9p-mark" line in ktap.txt
#     (no diagnostic: the report must read exactly as basic's) and both
#     cells' counts; known_bug is timed (compared apart), patched's
#     default_inherit has a duplicate line (they add up).
d=$(fixture traffic); run traffic "$d"
want_rc traffic 0
last traffic '6 passed, 0 failed, 2 skipped'
sed -e '/^9P requests per test/,/^$/d' -e "s|$work/traffic|W|g" "$out" >"$work/traffic.rest"
sed -e "s|$work/basic|W|g" "$work/basic.out" >"$work/basic.rest"
if cmp -s "$work/basic.rest" "$work/traffic.rest"; then ok "traffic: the rest of the report reads as basic's"
else bad "traffic: the rest of the report differs from basic's"; diff -u "$work/basic.rest" "$work/traffic.rest" | sed 's/^/      /' | head -20; fi
sed -n '/^9P requests per test/,/^$/p' "$out" | sed '/^$/d' >"$work/traffic.got"
cat >"$work/traffic.want" <<'EOF'
9P requests per test (traffic.tsv, 2 cells): vanilla -> patched, timed tests apart
  qemu-mapped-xattr.user.none: 37 -> 30 (-18.9%), 2/4 tests changed, 1 timed apart
    by type: xattrwalk -5, clunk -2
    most: acl9p_roundtrip.acl.access_named_user 24 -> 18
EOF
if cmp -s "$work/traffic.want" "$work/traffic.got"; then ok "traffic: section as expected"
else bad "traffic: section differs (-wanted +got)"; diff -u "$work/traffic.want" "$work/traffic.got" | tail -n +3 | sed 's/^/      /'; fi
md=$d/results/summary.md
file_has traffic "$md" '## 9P requests per test'
file_has traffic "$md" '| `vanilla.qemu-mapped-xattr.user.none` | qemu-trace | 537 | 5 | 1 |'
file_has traffic "$md" '| `acl9p_roundtrip` | 534* | 927* |'
file_has traffic "$md" '| xattrwalk | 9 | 4 | -5 |'
file_has traffic "$md" '| `acl9p_roundtrip.acl.access_named_user` | 24 | 18 | -6 |'
file_has traffic "$md" '| `acl9p_roundtrip.acl.default_inherit` | 8 | 7 | -1 |'
file_has traffic "$md" '1 timed tests apart: vanilla 500, patched 900'
# a failure's diagnostics do not show the mark line
d=$(fixture traffic)
: >"$d/expected/xfail.servers"
run traffic-diag "$d"
want_rc traffic-diag 1
has traffic-diag '| # acl9p_roundtrip.c:120:default_inherit:Expected 0 (0) == rc (-1)'
hasnt traffic-diag 'acl9p-mark'
# without a pair: one line per cell
run traffic-one "$d" --cell-filter 'patched.*'
has traffic-one '9P requests per test (traffic.tsv, 1 cells)'
has traffic-one '  patched.qemu-mapped-xattr.user.none: 930 requests in 5 tests (timed ones included)'

# --- traffic.tsv that could not be counted or read: recorded, shown,
#     never a failure (the verdict is basic's); its own directory, for
#     valgrind below
d=$(fixture traffic)
rm -rf "$work/traffic-bad"
mv "$d" "$work/traffic-bad"
d=$work/traffic-bad
v=$d/results/vanilla.qemu-mapped-xattr.user.none/traffic.tsv
p=$d/results/patched.qemu-mapped-xattr.user.none/traffic.tsv
echo '# error acl9p-p9trace: 3 markers in 9p-trace.log, 4 mark lines in ktap.txt' >"$v"
{
	printf 'one field only\n'
	printf 'a\tb\tc\td\n'
	printf 'a\tb\t-3\n'
	printf 'a\tb\t99999999999999999999999\n'
	printf 'a\t\t3\n'
	printf 'a b\tb\t3\n'
	printf 'a\tb\t3x\n'
	printf 'nul\tw\0alk\t3\n'
	printf 'cr\tread\t4\r\n'
} >>"$p"
run traffic-bad "$d"
want_rc traffic-bad 0
last traffic-bad '6 passed, 0 failed, 2 skipped'
has traffic-bad '  vanilla.qemu-mapped-xattr.user.none: no counts: acl9p-p9trace: 3 markers in 9p-trace.log, 4'
# a NUL reads as '?' and a CR at the end goes, as in ktap.txt: two lines
# counted, the seven others not
has traffic-bad '  patched.qemu-mapped-xattr.user.none: 937 requests in 7 tests (timed ones included)'
has traffic-bad '  patched.qemu-mapped-xattr.user.none: 7 lines not understood (first: traffic.tsv:13: not'
hasnt traffic-bad 'by type:'
file_has traffic-bad "$d/results/summary.md" 'No configuration has counts of both kernels.'
file_has traffic-bad "$d/results/summary.md" 'traffic.tsv:18: not TEST&lt;TAB&gt;TYPE&lt;TAB&gt;COUNT'
# a traffic.tsv that cannot be read is one more such line
rm "$v"
mkdir "$v"
run traffic-dir "$d"
want_rc traffic-dir 0
has traffic-dir '  vanilla.qemu-mapped-xattr.user.none: no counts: traffic.tsv: Is a directory'

# --- every run's stdout fits 100 columns (a maintainer mails it)
for o in "$work"/*.out; do fits "$(basename "$o" .out)" "$o"; done

# --- valgrind: no leaks, no invalid accesses (every code path the fixtures reach,
#     the format-error exit included)
if [ "${VALGRIND:-1}" != 0 ] && command -v valgrind >/dev/null; then
	for n in garbage causes truncated rigmarks ktap-errors splat console diff-listed diff-grouped format-error traffic traffic-bad; do
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
	# the manifest and the cells list (their own code paths)
	d=$work/manifest
	if (cd "$d" && valgrind -q --log-file="$work/vg.log" --leak-check=full \
		--show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 \
		"$bin" --results results --expected expected --manifest manifest \
		--tests '' --cells cells.list) >/dev/null 2>&1; then vr=0; else vr=$?; fi
	if [ "$vr" != 99 ] && [ ! -s "$work/vg.log" ]; then ok "valgrind manifest: clean"
	else bad "valgrind manifest: exit $vr"; sed 's/^/      /' "$work/vg.log" | head -40; fi
	if (cd "$d" && valgrind -q --log-file="$work/vg.log" --leak-check=full \
		--show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 \
		"$bin" --results results --expected expected --manifest dup.manifest) \
		>/dev/null 2>&1; then vr=0; else vr=$?; fi
	if [ "$vr" != 99 ] && [ ! -s "$work/vg.log" ]; then ok "valgrind manifest error: clean"
	else bad "valgrind manifest error: exit $vr"; sed 's/^/      /' "$work/vg.log" | head -40; fi
else
	echo "skip  valgrind (not installed or VALGRIND=0)"
fi

echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
