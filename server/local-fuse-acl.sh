# FUSE with FUSE_POSIX_ACL (server/fuse.inc): the kernel parses, caches
# and enforces the ACLs (default_permissions), and sends them to
# acl9p-fused as xattrs; umask and inheritance are the daemon's store's.
. "${BASH_SOURCE[0]%/*}/fuse.inc"

server_transport() {
	echo --posix-acl
}
