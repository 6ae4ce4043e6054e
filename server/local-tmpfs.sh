# No 9p server: the share under test is a tmpfs inside the guest.  The
# whole suite then runs on the local reference itself, so the A/B of
# make check compares the patched kernel's tmpfs answers with vanilla's,
# test by test: a bug in the VFS ACL code the series adds (fs/posix_acl.c,
# fs/xattr.c) that hits 9p and tmpfs alike shows there, where the tests
# that compare 9p with tmpfs would see the same wrong answer on both
# sides.
#
# SERVER_FSTYPE is not 9p: the cell's 9p mount options (access, cache,
# msize) do not apply, the share is mounted with server_transport's
# options alone, so one cell per kernel is enough (tests/matrix.conf
# names it *.local-tmpfs.client.none).  There is no second mount of the same
# export and no host side: the tests that need either skip with the
# reason (tests/expected/skip.local-tmpfs lists them).
SERVER_FSTYPE=tmpfs
SERVER_XATTR_PREFIX=
SERVER_CANNOT=host

server_check() {
	command -v qemu-system-x86_64 >/dev/null ||
		{ echo "qemu-system-x86_64 not installed (run: make deps)" >&2; return 1; }
}

server_qemu_args() {
	:
}

server_source() {
	case $1 in
	share) echo tmpfs ;;
	noacl) ;;
	esac
}

server_transport() {
	echo mode=0755
}

server_cmdline() {
	:
}
