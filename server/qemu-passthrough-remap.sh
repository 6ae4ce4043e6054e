# QEMU virtio-9p, security_model=passthrough with multidevs=remap: inode
# numbers of files on host submounts are remapped so that they cannot
# collide with the export's own.  A host-root guest (the host's / as
# the share) needs it; with one filesystem under the export it must
# behave exactly like qemu-passthrough.
. "${BASH_SOURCE[0]%/*}/virtfs.inc"
SERVER_XATTR_PREFIX=
SERVER_CANNOT=

server_qemu_args() {
	virtfs_args "$1" security_model=passthrough,multidevs=remap
}
