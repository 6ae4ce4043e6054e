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
set -eu
. "$(dirname "$0")/../scripts/lib.sh"

out=$1 init=$2 tests=$3 gen=$4
list=$out.list
busybox=/bin/busybox
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
	if [ -x "$ACL9P_BUILD/acl/getfacl" ] && [ -x "$ACL9P_BUILD/acl/setfacl" ]; then
		echo "file /bin/getfacl $ACL9P_BUILD/acl/getfacl 0755 0 0"
		echo "file /bin/setfacl $ACL9P_BUILD/acl/setfacl 0755 0 0"
	else
		dyn="$dyn /usr/bin/getfacl /usr/bin/setfacl"
		echo "file /bin/getfacl /usr/bin/getfacl 0755 0 0"
		echo "file /bin/setfacl /usr/bin/setfacl 0755 0 0"
	fi
	for b in $dyn; do
		[ -x "$b" ] || die "guest: $b missing (run: make deps)"
		echo "file $b $b 0755 0 0"
	done
	# shellcheck disable=SC2086 # the list is split on purpose
	libs=$(for b in $dyn; do
		ldd "$b" | awk '/=> \//{print $3} /^\t\/lib/{print $1}'
	done | sort -u)
	for l in $libs; do
		r=$(readlink -f "$l")
		echo "file $l $r 0755 0 0"
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
