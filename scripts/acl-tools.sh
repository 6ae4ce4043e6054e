#!/bin/bash
# Build the guest's getfacl and setfacl as static binaries from the
# source of the Debian acl package that is installed on the host, into
# build/acl/{getfacl,setfacl}; the source stays in build/acl/src, with
# the lookup library its own test suite preloads (acl9p_aclsuite).
#
# Why: the guest runs on TCG, where starting a dynamic executable (the
# loader mapping and relocating libacl and libc) costs about 50 ms, and
# acl9p_tools starts some 140 of them: 7-8 s of a 25 s cell.  A static
# binary starts in a few ms.  It is the same program: Debian's source
# of the installed version with its patches applied, linked with the
# installed libacl.a of the same version.  Only the library's build
# system is skipped (it wants automake once Debian's patches touch
# it); the tools are a handful of C files.
#
# When the source cannot be had (no deb-src reachable), say so in one
# line and exit 1: initramfs.sh then packs the dynamic /usr/bin tools.
#
# usage: acl-tools.sh [ARCH]   (an architecture of kernel/kernels.conf:
# build/acl-ARCH/, from x86_64's source tree configured again for it,
# linked with the library scripts/guest-build.sh unpacked for it,
# $ACL9P_GUEST_LIBDIR)
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/kernels.sh"

arch=${1:-x86_64}
asfx=$(arch_suffix "$arch")
out=$ACL9P_BUILD/acl$asfx
log=$ACL9P_BUILD/logs/acl-tools$asfx.log
ver=$(dpkg-query -W -f='${Version}' acl 2>/dev/null) ||
	die "acl-tools: the acl package is not installed (run: make deps)"
mapfile -t cc < <(arch_cc "$arch")
stamp="acl $ver $arch $(sha1sum "$0" | cut -d' ' -f1)"
if [ -x "$out/getfacl" ] && [ -x "$out/setfacl" ] &&
	[ "$(cat "$out/.stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
mkdir -p "$out" "${log%/*}"
# Not a build of another version or script: initramfs.sh packs whatever
# is here, so a failed rebuild must leave nothing behind.
rm -rf "$out/src" "$out/getfacl" "$out/setfacl" "$out/.stamp"
mkdir -p "$out/src"

if [ "$arch" = x86_64 ]; then
	# apt-get source applies Debian's patches; deps.sh adds the deb-src line.
	if ! (cd "$out/src" && apt-get source -q "acl=$ver") >"$log" 2>&1; then
		echo "acl-tools: no source of acl $ver (apt-get source, see ${log#$ACL9P_TOP/}): the guest gets the dynamic /usr/bin tools" >&2
		exit 1
	fi
	libs=() host=()
else
	# x86_64's source, fetched once; configured again below for ARCH
	"$0" || exit 1
	[ -r "${ACL9P_GUEST_LIBDIR:-}/libacl.a" ] ||
		die "acl-tools: no libacl.a of $arch (ACL9P_GUEST_LIBDIR: scripts/guest-build.sh $arch)"
	cp -a "$ACL9P_BUILD/acl/src/." "$out/src/"
	libs=(-L"$ACL9P_GUEST_LIBDIR")
	host=(--host="$(arch_get "$arch" triplet)" LDFLAGS="-L$ACL9P_GUEST_LIBDIR")
fi
src=$(find "$out/src" -mindepth 1 -maxdepth 1 -type d -name 'acl*' | head -n 1)
[ -f "$src/tools/getfacl.c" ] || die "acl-tools: no tools/getfacl.c in $src"

# config.h comes from configure; nothing else of the build is used.
(cd "$src" && ./configure -q --disable-shared --disable-nls "${host[@]}" \
	CC="${cc[*]}") >>"$log" 2>&1 ||
	die "acl-tools: configure of acl $ver for $arch failed; see $log"
misc=("$src"/libmisc/*.c)
cflags=(-O2 -static -include "$src/include/config.h" -I"$src/include" "${libs[@]}")
# -lacl: the installed libacl.a (libacl1-dev), the library of this
# version.  The linker's warnings about getpwnam() and friends in a
# static binary stay in the log: glibc 2.36 answers "files" (the guest's
# /etc/passwd and /etc/group) without loading an NSS module.
link() {
	local name=$1
	shift
	"${cc[@]}" "${cflags[@]}" -o "$out/$name.tmp" "$@" "${misc[@]}" -lacl \
		>>"$log" 2>&1 || die "acl-tools: linking $name failed; see $log"
	mv "$out/$name.tmp" "$out/$name"
}
link getfacl "$src/tools/getfacl.c" "$src/tools/user_group.c"
link setfacl "$src/tools/setfacl.c" "$src/tools/do_set.c" \
	"$src/tools/sequence.c" "$src/tools/parse.c" "$src/tools/user_group.c"
# The suite's passwd and group lookups (test/test_passwd.c and
# test_group.c, which read test/test.passwd and test.group of the
# source), where upstream's runwrapper looks for them: acl9p_aclsuite
# preloads them for the runner, in a host-root guest (x86_64's).
if [ "$arch" != x86_64 ]; then
	echo "$stamp" >"$out/.stamp"
	note "acl-tools: static getfacl and setfacl of acl $ver for $arch in ${out#"$ACL9P_TOP"/}"
	exit 0
fi
mkdir -p "$src/.libs"
gcc -O2 -shared -fPIC -include "$src/include/config.h" -I"$src/include" \
	-DBASEDIR="\"$src\"" -o "$src/.libs/libtestlookup.so" \
	"$src/test/test_passwd.c" "$src/test/test_group.c" >>"$log" 2>&1 ||
	die "acl-tools: building the acl suite's libtestlookup.so failed; see $log"
echo "$stamp" >"$out/.stamp"
note "acl-tools: static getfacl and setfacl of acl $ver in build/acl"
