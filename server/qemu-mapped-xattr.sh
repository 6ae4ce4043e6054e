# QEMU virtio-9p, security_model=mapped-xattr: files are owned by QEMU's
# user; the guest's owners, modes and xattrs live in user.virtfs.* on
# the host, so a guest ACL is the opaque xattr
# user.virtfs.system.posix_acl_*, and a host chmod does not change the
# mode the guest sees (that is user.virtfs.mode).
. "${BASH_SOURCE[0]%/*}/virtfs.inc"
SERVER_XATTR_PREFIX=user.virtfs.
SERVER_CANNOT=host-chmod

server_qemu_args() {
	virtfs_args "$1" security_model=mapped-xattr
}
