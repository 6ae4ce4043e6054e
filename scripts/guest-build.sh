#!/bin/bash
# Build the guest of one architecture of kernel/kernels.conf: its init,
# the FUSE daemon, the test binaries, the benchmark and fuzz programs,
# the rig's own guest binaries, getfacl and setfacl, and the initramfs
# that packs them (guest/initramfs.sh).
#
#   guest-build.sh            x86_64, the rig's own (make guest):
#                             build/guest/ and build/tests/, and the
#                             manifest of the tests every cell reports
#   guest-build.sh ARCH       another architecture: build/guest-ARCH/
#                             and build/tests-ARCH/, compiled by the
#                             host's gcc with the architecture's cflags=;
#                             its static libraries and busybox come from
#                             Debian's packages of that architecture,
#                             fetched with apt-get download and unpacked
#                             under build/sysroot-ARCH/, never installed
#
# Every binary is static, so the guest needs no loader or library of its
# architecture.  The tests are the same sources on every architecture:
# build/tests/manifest (x86_64's) is what every cell must report.  The
# dynamic GNU tools that acl9p_usertools runs (cp, tar, rsync, find) are
# the host's on x86_64, and Debian's of the architecture elsewhere, with
# their loader and libraries (guest/initramfs.sh).
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/kernels.sh"

cd "$ACL9P_TOP"
arch=${1:-x86_64}
asfx=$(arch_suffix "$arch")
mapfile -t cc < <(arch_cc "$arch")
# the guest's C: warnings are errors on every architecture (a 32-bit
# build is where a format or a size that assumed 64 bits shows), with
# 64-bit file offsets and inode numbers (tests/Makefile says why)
cflags=(-std=gnu11 -O2 -Wall -Wextra -Werror -D_FILE_OFFSET_BITS=64)
guest=$ACL9P_BUILD/guest$asfx
tests=$ACL9P_BUILD/tests$asfx
ksft=$ACL9P_BUILD/linux/vanilla/tools/testing/selftests
gen=$ACL9P_BUILD/guest/gen_init_cpio
[ -r "$ksft/kselftest_harness.h" ] || die "guest: no $ksft (run: make tools)"
[ -x "$gen" ] || die "guest: no $gen (run: make tools)"
mkdir -p "$guest" "$tests/rig"

ldflags=(-static)
if [ "$arch" != x86_64 ]; then
	# The -dev packages' static libraries and busybox-static of the
	# architecture, unpacked once per version.
	deb=$(arch_get "$arch" deb)
	sysroot=$ACL9P_BUILD/sysroot$asfx
	# the static libraries and busybox; the GNU tools acl9p_usertools
	# runs, with what they link (initramfs.sh finds each library they
	# need here, or fails naming it)
	pkgs="libacl1-dev libattr1-dev libcap-ng-dev busybox-static
		coreutils tar rsync findutils libc6 libacl1 libattr1 libselinux1
		libpcre2-8-0 libssl3 liblz4-1 libpopt0 libxxhash0 zlib1g libzstd1"
	stamp=$(for p in $pkgs; do apt-cache policy "$p:$deb" 2>/dev/null |
		awk -v p="$p" '/Candidate:/ { print p, $2 }'; done)
	# shellcheck disable=SC2086 # split on purpose
	[ "$(echo "$stamp" | wc -l)" -eq "$(echo $pkgs | wc -w)" ] && ! echo "$stamp" | grep -q '(none)' ||
		die "guest: apt knows no $deb packages (run: MATRIX=<a set of $arch> make deps)"
	if [ "$(cat "$sysroot/.stamp" 2>/dev/null)" != "$stamp" ]; then
		rm -rf "$sysroot"
		mkdir -p "$sysroot/debs"
		# shellcheck disable=SC2046,SC2086 # the package list is split on purpose
		(cd "$sysroot/debs" && apt-get download -q $(printf '%s:'"$deb"' ' $pkgs)) \
			>"$ACL9P_BUILD/logs/sysroot$asfx.log" 2>&1 ||
			die "guest: apt-get download of the $deb packages failed; see build/logs/sysroot$asfx.log"
		for d in "$sysroot"/debs/*.deb; do dpkg-deb -x "$d" "$sysroot"; done
		echo "$stamp" >"$sysroot/.stamp"
	fi
	libdir=$sysroot/usr/lib/$(arch_get "$arch" triplet)
	[ -r "$libdir/libacl.a" ] || die "guest: no $libdir/libacl.a"
	ldflags+=(-L"$libdir")
	export ACL9P_GUEST_LIBDIR=$libdir
	export ACL9P_GUEST_BUSYBOX=$sysroot/bin/busybox
	export ACL9P_GUEST_SYSROOT=$sysroot
	ACL9P_GUEST_TRIPLET=$(arch_get "$arch" triplet)
	export ACL9P_GUEST_TRIPLET
fi

"${cc[@]}" "${cflags[@]}" -static -Os -o "$guest/init" guest/init.c guest/modules.c
"${cc[@]}" "${cflags[@]}" -static -O2 -o "$guest/acl9p-fused" server/fuse/acl9p-fused.c
make -s -C "$ACL9P_TOP/tests" O="$tests" KSFT_DIR="$ksft" CC="${cc[*]}" LDFLAGS="${ldflags[*]}"
"${cc[@]}" "${cflags[@]}" -static -O2 -o "$tests/acl9p-bench" tests/bench/bench.c
"${cc[@]}" "${cflags[@]}" -static -O2 -Iserver/ninep-proxy -o "$tests/acl9p-fuzz" \
	tests/fuzz/guest.c server/ninep-proxy/aclxattr.c
[ "$arch" != x86_64 ] || "$ACL9P_TOP/scripts/manifest.sh" "$tests"
for t in tests/rig/guest/*.c; do
	n=${t##*/}
	"${cc[@]}" "${cflags[@]}" -static -isystem "$ksft" -o "$tests/rig/acl9p_rig_${n%.c}" "$t"
done
# getfacl and setfacl: without them initramfs.sh packs the host's
# dynamic tools (x86_64 only).
"$ACL9P_TOP/scripts/acl-tools.sh" "$arch" || true
ACL9P_GUEST_ACL_TOOLS=$ACL9P_BUILD/acl$asfx \
	"$ACL9P_TOP/guest/initramfs.sh" "$guest/initramfs.cpio" "$guest/init" "$tests" "$gen"
