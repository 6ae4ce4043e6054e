# FUSE without FUSE_POSIX_ACL (server/fuse.inc): the kernel passes
# system.posix_acl_* through to acl9p-fused as plain xattrs and does no
# ACL check of its own; the daemon's store enforces them.
. "${BASH_SOURCE[0]%/*}/fuse.inc"

server_transport() {
	echo -
}
