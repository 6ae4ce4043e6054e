// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_notify: a change of an ACL is a change of the inode's attributes
 * for inotify: setxattr() and removexattr() of an ACL name queue
 * IN_ATTRIB on a watch of the file (fsnotify_xattr(), which 6.1's xattr
 * path and the series' vfs_set_acl()/vfs_remove_acl() both call after
 * the change succeeded), whether or not the mode changed with it; a
 * value the kernel refuses changes nothing and queues nothing.  The
 * events are the guest's own (9p has no way to report a change made on
 * the host), so every cell gives the same answers as a tmpfs.
 */
#include <sys/inotify.h>

#include "acl9p_test.h"

/*
 * An inotify instance watching the inode behind fd for IN_ATTRIB; its
 * fd, or -errno.  The watch goes through /proc/self/fd/N, and every
 * change is made through fd: with cache=none 9p builds a new inode at
 * each path lookup, so a watch and a change made by two lookups of one
 * path meet two inodes and no event, on 6.1 as on the series.
 */
static int watch_attrib(int fd)
{
	char proc[64];
	int ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);

	if (ifd < 0)
		return -errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (inotify_add_watch(ifd, proc, IN_ATTRIB) < 0) {
		int e = errno;

		close(ifd);
		return -e;
	}
	return ifd;
}

/*
 * The IN_ATTRIB events queued on ifd so far, read and counted (inotify
 * merges an event identical to the last unread one, so a change counts
 * at least once, not exactly once); -errno on a read error.
 */
static int attrib_events(int ifd)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	const struct inotify_event *ev;
	ssize_t n;
	int count = 0;
	char *p;

	for (;;) {
		n = read(ifd, buf, sizeof(buf));
		if (n < 0)
			return errno == EAGAIN ? count : -errno;
		for (p = buf; p < buf + n; p += sizeof(*ev) + ev->len) {
			ev = (const struct inotify_event *)p;
			if (ev->mask & IN_ATTRIB)
				count++;
		}
	}
}

/* fsetxattr of an ACL given as text: 0 or -errno */
static int fset_text(int fd, const char *name, const char *text)
{
	unsigned char v[1024];
	ssize_t n = a9_build(v, sizeof(v), text);

	if (n < 0)
		return (int)n;
	return fsetxattr(fd, name, v, (size_t)n, 0) ? -errno : 0;
}

FIXTURE(notify) {
	char dir[PATH_MAX];
	char p[PATH_MAX];
	int fd;			/* the file (or directory) under test */
	int ifd;		/* inotify, watching it */
};

static const char *OLD = "u::rw-,u:1001:r--,g::r--,m::r--,o::---";
static const char *DEF = "u::rwx,u:1001:r-x,g::r-x,m::r-x,o::---";

FIXTURE_SETUP(notify)
{
	int fd, r;

	self->fd = self->ifd = -1;
	fd = inotify_init1(IN_CLOEXEC);
	if (fd < 0 && errno == ENOSYS)
		SKIP(return, "inotify_init1: ENOSYS: the kernel has no inotify (CONFIG_INOTIFY_USER)");
	if (fd >= 0)
		close(fd);
	a9_setup(_metadata, "notify", self->dir, sizeof(self->dir), NULL, 0,
		 A9_PROBE);
	/* "d" for the default ACL, "f" (mode 0640) for the others */
	if (!strcmp(_metadata->name, "set_default_acl_queues_attrib")) {
		a9_path(self->p, self->dir, "d");
		ASSERT_EQ(0, a9_mkdir(self->p, 0750));
		self->fd = open(self->p, O_RDONLY | O_DIRECTORY);
	} else {
		a9_path(self->p, self->dir, "f");
		ASSERT_EQ(0, a9_mkfile(self->p, 0640, "x"));
		self->fd = open(self->p, O_RDONLY);
	}
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", self->p, strerror(errno));
	r = fset_text(self->fd, A9_XA_ACCESS, OLD);
	ASSERT_EQ(0, r) TH_LOG("fsetxattr %s: %s", self->p, a9_errname(r));
	self->ifd = watch_attrib(self->fd);
	ASSERT_LE(0, self->ifd) TH_LOG("inotify watch of %s: %s", self->p,
				       a9_errname(self->ifd));
}

FIXTURE_TEARDOWN(notify)
{
	if (self->ifd >= 0)
		close(self->ifd);
	if (self->fd >= 0)
		close(self->fd);
}

#define EXPECT_EVENTS(what) do {					\
	int __n = attrib_events(self->ifd);				\
	EXPECT_LT(0, __n) TH_LOG("%s on %s: %d IN_ATTRIB events (%s), expected at least one", \
				 what, self->p, __n, __n < 0 ? a9_errname(__n) : "none"); \
} while (0)

/* the mask rwx changes the mode (acl9p_modesync checks it) */
TEST_F(notify, set_acl_changing_mode_queues_attrib)
{
	const char *t = "u::rw-,u:1001:rwx,g::r--,m::rwx,o::---";

	ASSERT_EQ(0, fset_text(self->fd, A9_XA_ACCESS, t));
	EXPECT_ACL(self->p, A9_XA_ACCESS, t);
	EXPECT_EVENTS("fsetxattr of an ACL that changes the mode");
}

/* another named user, the same mask: the mode stays */
TEST_F(notify, set_acl_keeping_mode_queues_attrib)
{
	const char *t = "u::rw-,u:1002:r--,g::r--,m::r--,o::---";

	ASSERT_EQ(0, fset_text(self->fd, A9_XA_ACCESS, t));
	EXPECT_ACL(self->p, A9_XA_ACCESS, t);
	EXPECT_EVENTS("fsetxattr of an ACL that keeps the mode");
}

TEST_F(notify, remove_acl_queues_attrib)
{
	ASSERT_EQ(0, fremovexattr(self->fd, A9_XA_ACCESS)) TH_LOG("%s", strerror(errno));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_EVENTS("fremovexattr of the access ACL");
}

TEST_F(notify, set_default_acl_queues_attrib)
{
	int r = fset_text(self->fd, A9_XA_DEFAULT, DEF);

	ASSERT_EQ(0, r) TH_LOG("fsetxattr %s: %s", A9_XA_DEFAULT, a9_errname(r));
	EXPECT_ACL(self->p, A9_XA_DEFAULT, DEF);
	EXPECT_EVENTS("fsetxattr of a default ACL");
}

/* a refused value: EINVAL, the ACL as it was, and no event */
TEST_F(notify, refused_acl_queues_nothing)
{
	int n;

	/* a named user without a mask: posix_acl_valid() refuses it */
	EXPECT_ERRNO(-EINVAL, fset_text(self->fd, A9_XA_ACCESS,
					"u::rw-,u:1002:rw-,g::r--,o::---"));
	EXPECT_ACL(self->p, A9_XA_ACCESS, OLD);
	n = attrib_events(self->ifd);
	EXPECT_EQ(0, n) TH_LOG("%d IN_ATTRIB events after a refused fsetxattr", n);
}

TEST_HARNESS_MAIN
