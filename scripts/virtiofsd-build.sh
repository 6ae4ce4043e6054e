#!/bin/bash
# Build the virtiofs cells' server: the virtiofsd of Debian's QEMU (the
# C daemon of QEMU 7.2, /usr/lib/qemu/virtiofsd) from Debian's own
# source package, with the fixes of server/virtiofsd/*.patch on top.
#
#   build/virtiofsd/src        apt-get source qemu (Debian's patches applied)
#   build/virtiofsd/virtiofsd  the daemon server/virtiofs.inc runs
#
# Why not Debian's binary: an ACL store the host refuses after
# virtiofsd switched to the caller's ids leaves the worker thread with
# them, and the next switch on that thread ends the daemon ("setegid(N):
# Operation not permitted"; server/virtiofsd/0001-*.patch says how),
# after which every request of the guest waits for ever.  The suite
# meets that in its first permission tests, so with Debian's binary no
# virtiofs cell gets past acl9p_perm.
#
# Only the daemon is built: configure without system or user emulation,
# ninja for its one target (about 3 minutes under load here).  A second
# run with the same package version and patches does nothing.
set -eu
. "$(dirname "$0")/lib.sh"

dir=$ACL9P_BUILD/virtiofsd
out=$dir/virtiofsd
patches=("$ACL9P_TOP"/server/virtiofsd/*.patch)
log=$ACL9P_BUILD/logs/virtiofsd-build.log
mkdir -p "$dir" "${log%/*}"

for t in apt-get dpkg-source meson ninja pkg-config; do
	command -v "$t" >/dev/null || die "virtiofsd: $t missing (run: make deps)"
done
ver=$(dpkg-query -W -f '${source:Version}' qemu-system-common 2>/dev/null) ||
	die "virtiofsd: qemu-system-common is not installed (run: make deps)"
stamp="$ver $(cat "${patches[@]}" | sha1sum | cut -d' ' -f1)"
if [ -x "$out" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi

note "virtiofsd: building Debian's qemu $ver virtiofsd with ${#patches[@]} fix(es) (log: ${log#"$ACL9P_TOP"/})"
rm -rf "$dir/src" "$dir/get"
mkdir -p "$dir/get"
# the source of the installed version, with Debian's patches applied
(cd "$dir/get" && apt-get source -q "qemu=$ver") >"$log" 2>&1 ||
	die "virtiofsd: apt-get source qemu=$ver failed (a deb-src line? see ${log#"$ACL9P_TOP"/})"
src=$(find "$dir/get" -mindepth 1 -maxdepth 1 -type d -name 'qemu-*' | head -n 1)
[ -n "$src" ] || die "virtiofsd: apt-get source left no qemu-* directory"
mv "$src" "$dir/src"
rm -rf "$dir/get"
for p in "${patches[@]}"; do
	patch -d "$dir/src" -p1 --no-backup-if-mismatch <"$p" >>"$log" 2>&1 ||
		die "virtiofsd: ${p#"$ACL9P_TOP"/} does not apply to qemu $ver"
done
mkdir -p "$dir/src/b"
# The dfsg source has no firmware blobs: do not install them.
(cd "$dir/src/b" && ../configure --target-list= --disable-system --disable-user \
	--without-default-features --enable-tools --enable-virtiofsd \
	--enable-vhost-user --enable-seccomp --enable-cap-ng \
	--disable-docs --disable-install-blobs --disable-werror) >>"$log" 2>&1 ||
	die "virtiofsd: configure failed (see ${log#"$ACL9P_TOP"/})"
ninja -C "$dir/src/b" tools/virtiofsd/virtiofsd >>"$log" 2>&1 ||
	die "virtiofsd: build failed (see ${log#"$ACL9P_TOP"/})"
cp "$dir/src/b/tools/virtiofsd/virtiofsd" "$out.tmp"
mv "$out.tmp" "$out"
echo "$stamp" >"$dir/stamp"
note "virtiofsd: ${out#"$ACL9P_TOP"/}"
