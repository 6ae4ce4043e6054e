#!/bin/bash
# kernel/kernels.conf's two kinds of kernel, as scripts/kernels.sh reads
# them: a malformed image= kernel is refused with its line, a good one
# is judged as the kernel it names, and its comparison with that kernel
# is one of the same source (every difference needs an entry), not
# "across".  Its architectures: a malformed arch line is refused, x86_64
# must be there, another's kernels are NAME-ARCH with its fragment last.
# Prints one line: "kernels.conf: N cases, N wrong".
set -eu
. "$(dirname "$0")/../../scripts/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 wrong=0
base='kernel v source=linux-source-6.1 version=1
kernel u source=linux-source-6.12 version=1
arch x86_64 kbuild=x86_64 qemu=q64 deb=amd64 triplet=x86_64-linux-gnu'

# refused CONF-TEXT WORDS: loading fails with a message holding WORDS
refused() {
	local out
	n=$((n + 1))
	printf '%s\n' "$base" "$1" >"$tmp/k.conf"
	if out=$(ACL9P_KERNELS=$tmp/k.conf bash -c \
		'. "$1/scripts/lib.sh"; . "$1/scripts/kernels.sh"; kernels_all' _ "$ACL9P_TOP" 2>&1); then
		echo "accepted: $1"; wrong=$((wrong + 1))
	elif [[ $out != *"$2"* ]]; then
		echo "refused without '$2': $1 ($out)"; wrong=$((wrong + 1))
	fi
}
refused 'kernel d source=linux-source-6.1 image=linux-image-x judged=v' 'both source= and image='
refused 'kernel d version=1 judged=v' 'neither source= nor image='
refused 'kernel d image=linux-image-x judged=nobody' 'judged=nobody is not a kernel the rig builds'
refused 'kernel d image=linux-image-x series=kernel/patches judged=v' 'series= is for a kernel the rig builds'

# a good one: judged as v, compared with v as the same source, with u across
n=$((n + 1))
printf '%s\n' "$base" 'kernel d image=linux-image-x judged=v' 'compare v d' 'compare u d' >"$tmp/k.conf"
got=$(ACL9P_KERNELS=$tmp/k.conf bash -c \
	'. "$1/scripts/lib.sh"; . "$1/scripts/kernels.sh"; kernel_judges; kernel_compares' _ "$ACL9P_TOP" 2>&1 | tr '\n' ';')
if [ "$got" != "d v;v d;u d across;" ]; then
	echo "judges and compares: '$got'"; wrong=$((wrong + 1))
fi

refused 'arch i386 kbuild=i386 deb=i386 triplet=i386-linux-gnu' 'arch i386 has no qemu='
refused 'arch i386 kbuild=i386 qemu=q deb=i386 triplet=t cc=x' "arch i386: unknown field 'cc'"
refused 'arch x86_64 kbuild=x86_64 qemu=q deb=amd64 triplet=t' 'arch x86_64 defined twice'
refused 'arch I386 kbuild=i386 qemu=q deb=i386 triplet=t' "arch name 'I386'"
n=$((n + 1))
printf '%s\n' 'kernel v source=linux-source-6.1 version=1' \
	'arch i386 kbuild=i386 qemu=q deb=i386 triplet=t' >"$tmp/k.conf"
if ACL9P_KERNELS=$tmp/k.conf bash -c \
	'. "$1/scripts/lib.sh"; . "$1/scripts/kernels.sh"; kernels_all' _ "$ACL9P_TOP" >/dev/null 2>&1; then
	echo "accepted without arch x86_64"; wrong=$((wrong + 1))
fi

# another architecture: its suffix, its fragment after the flavour's
n=$((n + 1))
printf '%s\n' "$base" 'kernel p source=linux-source-6.1 version=1 series=kernel/patches flavours=debug' \
	'arch i386 kbuild=i386 qemu=q deb=i386 triplet=t config=arch-i386.config' >"$tmp/k.conf"
got=$(ACL9P_KERNELS=$tmp/k.conf bash -c \
	'. "$1/scripts/lib.sh"; . "$1/scripts/kernels.sh"
	echo "[$(arch_suffix x86_64)][$(arch_suffix i386)]"
	kernel_fragments p debug i386 | sed "s|^$1/||"' _ "$ACL9P_TOP" 2>&1 | tr '\n' ';')
if [ "$got" != "[][-i386];kernel/config/acl9p.config;kernel/config/debug.config;kernel/config/arch-i386.config;" ]; then
	echo "arch suffix and fragments: '$got'"; wrong=$((wrong + 1))
fi

echo "kernels.conf: $n cases, $wrong wrong"
[ $wrong -eq 0 ]
