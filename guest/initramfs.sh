#!/bin/bash
# Pack the guest's initramfs with the kernel's own gen_init_cpio: no root,
# no device nodes on the host, the same bytes for the same inputs.
#
# usage: initramfs.sh OUT.cpio INIT TESTS_DIR GEN_INIT_CPIO
# Contents: /init (static C), /bin/acl9p-fused (static C, next to the
# init), busybox (static) for the shell and the
# demo, getfacl/setfacl (static, or with the libraries they link), the
# test binaries, /bin/acl9p-bench (static C, TESTS_DIR/acl9p-bench: the
# benchmark of ACL9P_MODE=bench, not a test), /bin/acl9p-fuzz (static C,
# TESTS_DIR/acl9p-fuzz: the guest side of ACL9P_MODE=fuzz, not a test).
#
# Environment (scripts/guest-build.sh, for another architecture than
# the host's): ACL9P_GUEST_BUSYBOX (default /bin/busybox),
# ACL9P_GUEST_ACL_TOOLS (the directory of the static getfacl and
# setfacl, default build/acl), ACL9P_GUEST_SYSROOT (where the dynamic
# GNU tools, their loader and libraries come from, default /: the
# host's) and ACL9P_GUEST_TRIPLET (its multiarch library directory,
# default x86_64-linux-gnu).
set -eu
. "$(dirname "$0")/../scripts/lib.sh"

out=$1 init=$2 tests=$3 gen=$4
list=$out.list
busybox=${ACL9P_GUEST_BUSYBOX:-/bin/busybox}
acltools=${ACL9P_GUEST_ACL_TOOLS:-$ACL9P_BUILD/acl}
sysroot=${ACL9P_GUEST_SYSROOT:-/}
sysroot=${sysroot%/}
triplet=${ACL9P_GUEST_TRIPLET:-x86_64-linux-gnu}

# in_root PATH: the file that the guest's PATH is in the sysroot, links
# followed inside it (an absolute link names the sysroot's file, not
# the host's); fails when there is none.
in_root() {
	local p=$1 t n=0
	while [ -L "$sysroot$p" ]; do
		t=$(readlink "$sysroot$p")
		case $t in /*) p=$t ;; *) p=${p%/*}/$t ;; esac
		n=$((n + 1))
		[ $n -lt 20 ] || die "guest: $sysroot$1: too many links"
	done
	[ -f "$sysroot$p" ] || return 1
	echo "$sysroot$p"
}

# needs PATH...: the loader and the shared libraries the guest's ELF
# files PATH need, recursively (readelf: the host's ldd cannot run
# another architecture's loader), one guest path a line.
needs() {
	local -a todo=("$@")
	local -A seen=()
	local f h lib d found
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		h=$(in_root "$f") || die "guest: $f: not in $sysroot/"
		for lib in $(readelf -lW "$h" | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p'); do
			[ -n "${seen[$lib]:-}" ] || { seen[$lib]=1; echo "$lib"; }
		done
		for lib in $(readelf -dW "$h" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			found=
			for d in /lib/$triplet /usr/lib/$triplet /lib /usr/lib; do
				if in_root "$d/$lib" >/dev/null; then found=$d/$lib; break; fi
			done
			[ -n "$found" ] || die "guest: $f needs $lib, which $sysroot/ has not"
			[ -z "${seen[$found]:-}" ] || continue
			seen[$found]=1
			echo "$found"
			todo+=("$found")
		done
	done
}
[ -x "$busybox" ] || die "guest: $busybox missing (run: make deps)"

{
	# The kernel opens /dev/console before init mounts devtmpfs.
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "file /init $init 0755 0 0"
	echo "file /bin/busybox $busybox 0755 0 0"
	# the FUSE daemon of the local-fuse cells (server/fuse/)
	echo "file /bin/acl9p-fused ${init%/*}/acl9p-fused 0755 0 0"
	for a in sh ash cat ls mkdir rm echo cp mv ln chmod chown stat touch \
		id env grep sed head tail sync sleep mount umount dmesg \
		mkfifo find diff hexdump od printf test true false wc xargs \
		vi less du df uname ps kill poweroff; do
		echo "slink /bin/$a /bin/busybox 0777 0 0"
	done
	echo "file /etc/acl9p-demo.sh $ACL9P_TOP/guest/demo.sh 0644 0 0"
	echo "file /etc/acl9p-wire.sh $ACL9P_TOP/guest/wire.sh 0644 0 0"
	echo "file /etc/passwd $ACL9P_TOP/guest/passwd 0644 0 0"
	echo "file /etc/group $ACL9P_TOP/guest/group 0644 0 0"
	echo "file /etc/profile $ACL9P_TOP/guest/profile 0644 0 0"
	# The GNU tools acl9p_usertools runs (busybox's cp, tar and find
	# copy no ACLs): Debian's dynamic binaries, in /usr/bin as on the
	# host, with the loader and the libraries they link.
	dyn="/usr/bin/cp /usr/bin/tar /usr/bin/rsync /usr/bin/find"
	# getfacl/setfacl: the static build of scripts/acl-tools.sh when
	# there is one (a dynamic start costs ~50 ms on TCG), else Debian's
	# dynamic binaries.
	if [ -x "$acltools/getfacl" ] && [ -x "$acltools/setfacl" ]; then
		echo "file /bin/getfacl $acltools/getfacl 0755 0 0"
		echo "file /bin/setfacl $acltools/setfacl 0755 0 0"
	else
		dyn="$dyn /usr/bin/getfacl /usr/bin/setfacl"
		for b in getfacl setfacl; do
			h=$(in_root /usr/bin/$b || in_root /bin/$b) ||
				die "guest: no $b in $sysroot/ (run: make deps)"
			echo "file /bin/$b $h 0755 0 0"
		done
	fi
	found=
	for b in $dyn; do
		# Debian's packages put some in /bin (merged into /usr/bin on
		# the host, not in an unpacked package)
		g=$b
		h=$(in_root "$g") || { g=/bin/${b##*/}; h=$(in_root "$g"); } ||
			die "guest: $b missing in $sysroot/ (run: make deps)"
		echo "file $b $h 0755 0 0"
		found="$found $g"
	done
	# shellcheck disable=SC2086 # the list is split on purpose
	for l in $(needs $found | sort -u); do
		echo "file $l $(readlink -f "$(in_root "$l")") 0755 0 0"
	done
	[ -x "$tests/acl9p-bench" ] || die "guest: $tests/acl9p-bench missing (run: make guest)"
	echo "file /bin/acl9p-bench $tests/acl9p-bench 0755 0 0"
	[ -x "$tests/acl9p-fuzz" ] || die "guest: $tests/acl9p-fuzz missing (run: make guest)"
	echo "file /bin/acl9p-fuzz $tests/acl9p-fuzz 0755 0 0"
	for t in "$tests"/acl9p_*; do
		[ -x "$t" ] || continue
		echo "file /tests/${t##*/} $t 0755 0 0"
	done
	# the rig's own guest binaries (ACL9P_TESTS_DIR=/tests/rig), not in the matrix
	for t in "$tests"/rig/acl9p_*; do
		[ -x "$t" ] || continue
		echo "file /tests/rig/${t##*/} $t 0755 0 0"
	done
} >"$list.body"

# The kernel unpacks without "mkdir -p": every directory, parents first
# (sort puts /lib before /lib/x86_64-linux-gnu), precedes what it holds.
{
	awk '$1 != "dir" {print $2}' "$list.body" | while read -r f; do
		d=${f%/*}
		while [ -n "$d" ]; do echo "$d"; d=${d%/*}; done
	done
	printf '%s\n' /dev /proc /sys /tmp /mnt /root /tests /tests/rig
} | sort -u | sed 's/.*/dir & 0755 0 0/' >"$list"
cat "$list.body" >>"$list"
rm -f "$list.body"

# Not compressed: under TCG the kernel spends 1.5 s inflating 11 MB of
# gzip, 0.5 s copying the 22 MB as they are.
"$gen" "$list" >"$out.tmp"
mv "$out.tmp" "$out"
