# No 9p server: the share is an ext4 filesystem on a virtio-blk disk of
# the guest.  ext4 is the filesystem with POSIX ACLs that 6.1 can mount
# idmapped, so the idmapped and user-namespace tests (tests/userns.c)
# run their non-identity mappings here, and the whole suite compares the
# series' ext4 (patch 1's ->get_acl/->set_acl users, the VFS routing)
# with vanilla's on an on-disk filesystem.
#
# The image is made on the host with mkfs.ext4 -d from the prepared
# export, so the ACLs the host set before boot (prepare-export.sh, the
# host's own system.posix_acl_*) are on the disk the guest mounts: e2fsprogs
# converts them into ext4's on-disk ACL format.  There is no live host
# side (the guest owns the disk while it runs), and no second mount: a
# second mount of the same disk shares the superblock and its options.
SERVER_FSTYPE=ext4
SERVER_XATTR_PREFIX=
SERVER_CANNOT=host

server_check() {
	command -v qemu-system-x86_64 >/dev/null ||
		{ echo "qemu-system-x86_64 not installed (run: make deps)" >&2; return 1; }
	command -v mkfs.ext4 >/dev/null ||
		{ echo "mkfs.ext4 not installed (run: make deps)" >&2; return 1; }
}

# server_qemu_args EXPORT OUTDIR: the image sits next to the export, in
# the cell's run directory, and is made again for every boot
server_qemu_args() {
	local img=${1%/*}/ext4.img
	case $img in
	*,*) echo "local-ext4: image path must not contain commas (QEMU option syntax)" >&2; return 2 ;;
	esac
	rm -f "$img"
	# 4 KiB blocks and 256-byte inodes, as mke2fs makes any disk
	# over 512 MiB (for a small one it would pick 1 KiB blocks, and an
	# ACL must fit in one xattr block: 250 entries would be ENOSPC);
	# no reserved blocks, so a full disk is the tests', not root's
	truncate -s 256M "$img"
	mkfs.ext4 -q -F -m 0 -b 4096 -I 256 -d "$1" "$img" >"$2/mkfs.log" 2>&1 ||
		{ echo "local-ext4: mkfs.ext4 failed: $(tail -n 1 "$2/mkfs.log")" >&2; return 1; }
	echo "-drive"
	echo "file=$img,if=virtio,format=raw,cache=unsafe"
}

server_source() {
	case $1 in
	share) echo /dev/vda ;;
	noacl) ;;
	esac
}

# "acl" is ext4's default with CONFIG_EXT4_FS_POSIX_ACL; said anyway, so
# a kernel without it fails the mount instead of running without ACLs
server_transport() {
	echo acl,user_xattr
}

server_cmdline() {
	:
}
