#!/bin/bash
# Install, with apt-get, only the Debian packages that are missing.
# Idempotent: when everything is there it prints nothing and returns
# at once, so every make target can depend on it.
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/kernels.sh"
. "$ACL9P_TOP/scripts/matrix.sh"

# The source packages of the kernels the run builds (kernel/kernels.conf,
# KERNELS=), then the rig's tools.
kernel_pkgs=$(for k in $(kernels_run 2>/dev/null); do kernel_get "$k" source; done | sort -u)
# A distribution's kernel (image=) needs kmod's depmod and modprobe on
# the host to order its modules (scripts/distro-kernel.sh).
for k in $(kernels_run 2>/dev/null); do
	[ -z "$(kernel_get "$k" image)" ] || kernel_pkgs="$kernel_pkgs kmod"
done
# The virtiofs cells' server is built from Debian's qemu source
# (scripts/virtiofsd-build.sh) when the set has such cells.
if [ -n "${MATRIX:-}" ] && matrix_cells "$MATRIX" x 2>/dev/null |
	grep -q '\.virtiofs'; then
	kernel_pkgs="$kernel_pkgs meson ninja-build pkg-config libglib2.0-dev libseccomp-dev dpkg-dev"
fi
# A set of another architecture (its "arch" line): the host packages
# its builds need, and apt's package lists of that architecture, whose
# static libraries scripts/guest-build.sh fetches (never installed).
arch=x86_64 foreign=
[ -z "${MATRIX:-}" ] || arch=$(matrix_arch "$MATRIX" 2>/dev/null) || arch=x86_64
if [ "$arch" != x86_64 ]; then
	kernel_pkgs="$kernel_pkgs $(arch_get "$arch" pkgs | tr ',' ' ')"
	deb=$(arch_get "$arch" deb)
	dpkg --print-foreign-architectures | grep -qxF "$deb" || foreign=$deb
fi
# shellcheck disable=SC2086 # split on purpose
kernel_pkgs=$(echo $kernel_pkgs | tr ' ' '\n' | sort -u | tr '\n' ' ')
pkgs="$kernel_pkgs gcc make flex bison bc libelf-dev libssl-dev cpio
ccache qemu-system-x86 diod acl attr libacl1-dev libattr1-dev
libcap-ng-dev busybox-static xz-utils git python3 e2fsprogs gnuplot-nox
rsync"

# scripts/acl-tools.sh builds the guest's static getfacl/setfacl from
# "apt-get source acl", which needs a deb-src line.  Add one for the
# host's release, once, when apt knows no source of acl: once, so that
# a mirror that has none does not cost an "apt-get update" every make.
# Not as a user: initramfs.sh then falls back to the dynamic tools.
src_list=/etc/apt/sources.list.d/acl9p-src.sources
codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
need_src=
if [ "$(id -u)" -eq 0 ] && [ ! -e "$src_list" ] && [ -n "$codename" ] &&
	command -v apt-cache >/dev/null &&
	[ -z "$(apt-cache showsrc acl 2>/dev/null | head -n 1)" ]; then
	need_src=1
fi

missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	if [ "$st" != installed ]; then
		echo "deps: $p is missing"
		missing="$missing $p"
	fi
done
[ -n "$missing$need_src$foreign" ] || exit 0

[ "$(id -u)" -eq 0 ] || die "deps: need root to install:$missing"
command -v apt-get >/dev/null || die "deps: no apt-get; install by hand:$missing"

log=$ACL9P_BUILD/logs/apt.log
mkdir -p "${log%/*}"
export DEBIAN_FRONTEND=noninteractive
if [ -n "$need_src" ]; then
	echo "deps: adding $src_list (deb-src $codename main, for apt-get source acl)"
	printf '%s\n' "Types: deb-src" "URIs: http://deb.debian.org/debian" \
		"Suites: $codename" "Components: main" \
		"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" >"$src_list"
	[ -n "$missing" ] || { apt-get update -q >"$log" 2>&1 || true; exit 0; }
fi
if [ -n "$foreign" ]; then
	echo "deps: adding the $foreign architecture to dpkg (apt-get download of its static libraries)"
	dpkg --add-architecture "$foreign"
	[ -n "$missing" ] || { apt-get update -q >"$log" 2>&1 || die "deps: apt-get update failed; see $log"; exit 0; }
fi
echo "deps: installing:$missing (log: $log)"
# Recommends would drag in the QEMU GUI and GTK: minutes of CI for nothing.
if ! { apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } >"$log" 2>&1; then
	tail -n 5 "$log" >&2
	die "deps: apt-get failed; see $log"
fi
