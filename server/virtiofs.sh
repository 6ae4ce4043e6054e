# virtiofs with virtiofsd's posix_acl (server/virtiofs.inc): the daemon
# offers FUSE_POSIX_ACL, so the guest kernel parses, caches and enforces
# the ACLs (fs/fuse/acl.c, default permissions) and stores them as
# xattrs through the daemon
. "${BASH_SOURCE[0]%/*}/virtiofs.inc"

server_qemu_args() {
	virtiofs_args "$1" "$2" posix_acl
}
