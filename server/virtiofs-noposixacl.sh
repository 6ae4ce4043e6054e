# virtiofs without posix_acl (server/virtiofs.inc), virtiofsd's
# default: no FUSE_POSIX_ACL, so the guest kernel passes the ACL xattrs
# through to the daemon, whose setxattr on the host stores them and
# whose host kernel enforces them, as the caller's fsuid
. "${BASH_SOURCE[0]%/*}/virtiofs.inc"

server_qemu_args() {
	virtiofs_args "$1" "$2" no_posix_acl
}
