#!/bin/bash
# QEMU's built-in 9p server (virtio-9p-pci) on an export directory.
# Prints the QEMU arguments, one per line.
#
# usage: qemu-virtfs.sh passthrough|mapped-xattr EXPORT
#
# Two devices on the same export: "share" is what the test mounts with
# the cell's options; "share-noacl" lets the guest mount the same export
# a second time without posixacl (a virtio channel serves one mount).
#   passthrough   files, owners and xattrs (system.posix_acl_* included)
#                 are stored as the guest asks; QEMU runs as root.
#   mapped-xattr  files are owned by QEMU's user; guest owners, modes and
#                 xattrs live in user.virtfs.* xattrs on the host.
set -eu
model=$1 export=$2
case $model in
passthrough | mapped-xattr) ;;
*) echo "qemu-virtfs: unknown security model '$model'" >&2; exit 2 ;;
esac
for tag in share share-noacl; do
	echo "-fsdev"
	echo "local,id=fs-$tag,path=$export,security_model=$model"
	echo "-device"
	echo "virtio-9p-pci,fsdev=fs-$tag,mount_tag=$tag"
done
