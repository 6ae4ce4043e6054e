# QEMU virtio-9p, security_model=passthrough: files, owners and xattrs
# (system.posix_acl_* included) are stored as the guest asks; QEMU runs
# as root, so the host's ACLs are the guest's.
. "${BASH_SOURCE[0]%/*}/virtfs.inc"
SERVER_XATTR_PREFIX=
SERVER_CANNOT=

server_qemu_args() {
	virtfs_args "$1" security_model=passthrough
}
