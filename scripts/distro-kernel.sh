#!/bin/bash
# Fetch and unpack one image kernel of kernel/kernels.conf (image=GLOB):
# a distribution's own signed kernel package, as users' VMs boot it.
#
#   build/distro/NAME/root             the package, dpkg-deb -x'd (never
#                                      installed: nothing of it reaches
#                                      this machine's kernel)
#   build/kernels/NAME.bzImage         its vmlinuz
#   build/kernels/NAME.modules.cpio    the modules the guest needs, in
#                                      load order (below), for
#                                      scripts/boot.sh to append to the
#                                      initramfs
#   build/kernels/NAME.package         the package's name and version
#
# The package is the newest whose name the GLOB matches (by version
# order of the names: linux-image-6.1.0-57-amd64 after -56), so a new
# Debian point release is picked up without an edit here.  A second run
# with the same package does nothing.
#
# Debian builds 9p, its virtio transport, virtio-pci (6.1), virtio-blk,
# ext4, FUSE (6.1), virtiofs (6.1), overlayfs and virtio-net as
# modules.  Which files, in which order, is kmod's answer: depmod -b
# writes the unpacked tree's modules.dep (the package's postinst would
# have), and modprobe -d ... --show-depends prints the insmod lines it
# would run, dependencies and soft dependencies first (ext4's crc32c),
# without loading anything.  A module another one already pulled in is
# kept once, at its first place.  The guest's init loads each with
# finit_module(2) (guest/init.c); one the CPU cannot run (crc32c-intel
# without SSE 4.2 under TCG) fails there with a line on the console
# and is not needed.  Compressed modules (6.12: .ko.xz) are unpacked
# here, so the guest needs no decompressor.
set -eu
shopt -s extglob
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/kernels.sh"

name=${1:?usage: distro-kernel.sh KERNEL (an image= kernel of kernel/kernels.conf)}
glob=$(kernel_get "$name" image)
[ -n "$glob" ] || die "distro-kernel: $name has no image= (kernel/kernels.conf)"
want_version=$(kernel_get "$name" version)

# What the guest loads: the 9p client and its virtio transport (every
# 9p cell) and its TCP one (diod), virtio-pci (every virtio device, built in on 6.12),
# virtio-blk and ext4 (local-ext4), FUSE (local-fuse*), virtiofs,
# overlayfs (acl9p_overlay), virtio-net (diod's TCP transport).
modules="9p 9pnet_virtio 9pnet_fd virtio_pci virtio_blk ext4 fuse virtiofs overlay virtio_net"

for t in apt-cache apt-get dpkg-deb depmod modprobe xz cpio; do
	command -v "$t" >/dev/null || die "distro-kernel: $t missing (run: make deps)"
done

pkg=$(apt-cache pkgnames linux-image- 2>/dev/null | while read -r p; do
	# shellcheck disable=SC2053 # the glob of kernels.conf, on purpose
	[[ $p == $glob ]] && echo "$p"
done | sort -V | tail -n 1)
[ -n "$pkg" ] || die "distro-kernel: no package in apt's lists matches $glob (apt-get update?)"
ver=$(apt-cache show --no-all-versions "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
[ -n "$ver" ] || die "distro-kernel: apt knows no version of $pkg"
[ -z "$want_version" ] || [ "$ver" = "$want_version" ] ||
	note "distro-kernel: $pkg is $ver in the archive; the rig's figures are from $want_version"

dir=$ACL9P_BUILD/distro/$name
kout=$ACL9P_BUILD/kernels
stamp="$pkg $ver"
if [ "$(cat "$kout/$name.package" 2>/dev/null)" = "$stamp" ] &&
	[ -r "$kout/$name.bzImage" ] && [ -r "$kout/$name.modules.cpio" ]; then
	exit 0
fi

note "distro-kernel: $name is $pkg $ver: fetching (apt-get download, about 100 MB)"
rm -rf "$dir"
mkdir -p "$dir/deb" "$kout"
(cd "$dir/deb" && apt-get download -q "$pkg=$ver" >"$dir/download.log" 2>&1) ||
	die "distro-kernel: apt-get download $pkg=$ver failed: $(tail -n 1 "$dir/download.log")"
deb=$(find "$dir/deb" -name '*.deb' | head -n 1)
[ -n "$deb" ] || die "distro-kernel: apt-get download left no .deb in $dir/deb"
dpkg-deb -x "$deb" "$dir/root"
rm -f "$deb"

kver=$(find "$dir/root/lib/modules" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | head -n 1)
[ -n "$kver" ] || die "distro-kernel: $pkg has no lib/modules/VERSION"
[ -r "$dir/root/boot/vmlinuz-$kver" ] || die "distro-kernel: $pkg has no boot/vmlinuz-$kver"
depmod -b "$dir/root" -F "$dir/root/boot/System.map-$kver" "$kver" ||
	die "distro-kernel: depmod of $pkg failed"

# modprobe prints "insmod PATH" (and "builtin NAME" for one built in):
# the paths in load order, repeated for each module asked for.
# shellcheck disable=SC2086 # the module list is split on purpose
order=$(modprobe -d "$dir/root" -S "$kver" --show-depends -a $modules) ||
	die "distro-kernel: modprobe --show-depends: a module of '$modules' is missing from $pkg"
# The guest's part: lib/modules/acl9p/NN-NAME.ko and their order.
stage=$dir/initrd
mods=$stage/lib/modules/acl9p
rm -rf "$stage"
mkdir -p "$mods"
n=0
declare -A seen=()
: >"$mods/order"
while read -r kind path _; do
	[ "$kind" = insmod ] || continue
	[ -z "${seen[$path]:-}" ] || continue
	seen[$path]=1
	n=$((n + 1))
	base=${path##*/}
	file=$(printf '%02d-%s' "$n" "${base%.xz}")
	case $path in
	*.ko.xz) xz -dc "$path" >"$mods/$file" ;;
	*.ko) cp "$path" "$mods/$file" ;;
	*) die "distro-kernel: $path: not a .ko or .ko.xz" ;;
	esac
	echo "$file" >>"$mods/order"
done <<<"$order"
[ "$n" -gt 0 ] || die "distro-kernel: no module of '$modules' to load"
# newc, owned by root, parents first: the kernel unpacks an archive
# appended to another as if it were one
(cd "$stage" && find . -mindepth 1 | sort | cpio --quiet -o -H newc -R 0:0) \
	>"$kout/$name.modules.cpio.tmp"
mv "$kout/$name.modules.cpio.tmp" "$kout/$name.modules.cpio"
cp "$dir/root/boot/vmlinuz-$kver" "$kout/$name.bzImage.tmp"
mv "$kout/$name.bzImage.tmp" "$kout/$name.bzImage"
echo "$stamp" >"$kout/$name.package"
note "distro-kernel: $name: $kver, $n modules ($(du -k "$kout/$name.modules.cpio" | cut -f1) KiB), build/kernels/$name.bzImage"
