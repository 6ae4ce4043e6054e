# virtiofs without posix_acl (server/virtiofs.inc), virtiofsd's
# default: no FUSE_POSIX_ACL, so the guest kernel passes the ACL xattrs
# to the daemon, and virtiofsd refuses them (EOPNOTSUPP, its debug log
# shows the SETXATTR and GETXATTR arrive): a share without ACLs, as
# tests/matrix.conf marks it
. "${BASH_SOURCE[0]%/*}/virtiofs.inc"

server_qemu_args() {
	virtiofs_args "$1" "$2" no_posix_acl
}
