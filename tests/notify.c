// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_notify: a change of an ACL is a change of the inode's attributes
 * for inotify and fanotify: setxattr() and removexattr() of an ACL name
 * queue IN_ATTRIB (FAN_ATTRIB) on a watch of the file (fsnotify_xattr(),
 * which 6.1's xattr path and the series' vfs_set_acl()/vfs_remove_acl()
 * both call after the change succeeded), whether or not the mode changed
 * with it; a value the kernel refuses changes nothing and queues nothing.
 * The events are the guest's own (9p has no way to report a change made
 * on the host), so every cell gives the same answers as a tmpfs.
 *
 * The two fixtures run the same tests, one per notification API.
 * fanotify reports FAN_ATTRIB only to a group that reports file ids
 * (FAN_REPORT_FID), and a filesystem must be able to encode a file id
 * for it: 6.1 requires export operations that decode handles, which 9p
 * has not (fanotify_test_fid(): EOPNOTSUPP), so there the fanotify
 * tests skip and say so; 6.6 and later encode an id for any inode.
 * An id is a filesystem id and a file's: a filesystem whose statfs
 * gives no fsid cannot report one either (ENODEV).
 */
#include <sys/fanotify.h>
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

/*
 * A fanotify group reporting file ids, with an inode mark for FAN_ATTRIB
 * on the inode behind fd (marked through fd itself, for the reason
 * watch_attrib() gives); its fd, or -errno: fanotify_init()'s, or
 * fanotify_mark()'s when the filesystem cannot give a file id.
 */
static int fan_watch_attrib(int fd)
{
	int gfd = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_FID |
				FAN_NONBLOCK | FAN_CLOEXEC, O_RDONLY);

	if (gfd < 0)
		return -errno;
	/* without FAN_ONDIR a directory's own events are not reported */
	if (fanotify_mark(gfd, FAN_MARK_ADD, FAN_ATTRIB | FAN_ONDIR, fd, NULL)) {
		int e = errno;

		close(gfd);
		return -e;
	}
	return gfd;
}

/*
 * The FAN_ATTRIB events queued on gfd so far, read and counted (fanotify
 * merges events on one object as inotify does); -errno on a read error,
 * -EPROTO for a record this program cannot read
 */
static int fan_attrib_events(int gfd)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct fanotify_event_metadata))));
	struct fanotify_event_metadata *m;
	ssize_t n;
	int count = 0;

	for (;;) {
		n = read(gfd, buf, sizeof(buf));
		if (n < 0)
			return errno == EAGAIN ? count : -errno;
		for (m = (struct fanotify_event_metadata *)buf;
		     FAN_EVENT_OK(m, n); m = FAN_EVENT_NEXT(m, n)) {
			if (m->vers != FANOTIFY_METADATA_VERSION)
				return -EPROTO;
			if (m->fd >= 0)
				close(m->fd);
			if (m->mask & FAN_ATTRIB)
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

static const char *OLD = "u::rw-,u:1001:r--,g::r--,m::r--,o::---";
static const char *DEF = "u::rwx,u:1001:r-x,g::r-x,m::r-x,o::---";

/* a notification API as the tests use it: watch an fd, count events */
struct watcher {
	const char *event;		/* "IN_ATTRIB", "FAN_ATTRIB" */
	int (*watch)(int fd);
	int (*count)(int wfd);
};

static const struct watcher inotify_w = {
	"IN_ATTRIB", watch_attrib, attrib_events
};
static const struct watcher fanotify_w = {
	"FAN_ATTRIB", fan_watch_attrib, fan_attrib_events
};

/*
 * The object under test, opened as *fd, with the ACL OLD: "d" for the
 * default ACL test, "f" (mode 0640) for the others
 */
static void make_target(struct __test_metadata *_metadata, const char *dir,
			char *p, int *fd)
{
	int r;

	if (!strcmp(_metadata->name, "set_default_acl_queues_attrib")) {
		a9_path(p, dir, "d");
		ASSERT_EQ(0, a9_mkdir(p, 0750));
		*fd = open(p, O_RDONLY | O_DIRECTORY);
	} else {
		a9_path(p, dir, "f");
		ASSERT_EQ(0, a9_mkfile(p, 0640, "x"));
		*fd = open(p, O_RDONLY);
	}
	ASSERT_LE(0, *fd) TH_LOG("open %s: %s", p, strerror(errno));
	r = fset_text(*fd, A9_XA_ACCESS, OLD);
	ASSERT_EQ(0, r) TH_LOG("fsetxattr %s: %s", p, a9_errname(r));
}

/* what every test of either fixture works on */
struct target {
	char dir[PATH_MAX];
	char p[PATH_MAX];
	int fd;			/* the file (or directory) under test */
	int wfd;		/* the watcher's fd, watching it */
	const struct watcher *w;
};

static void expect_events(struct __test_metadata *_metadata,
			  const struct target *t, const char *what)
{
	int n = t->w->count(t->wfd);

	EXPECT_LT(0, n) TH_LOG("%s on %s: %d %s events (%s), expected at least one",
			       what, t->p, n, t->w->event,
			       n < 0 ? a9_errname(n) : "none");
}

/* the mask rwx changes the mode (acl9p_modesync checks it) */
static void set_acl_changing_mode(struct __test_metadata *_metadata,
				  const struct target *t)
{
	const char *text = "u::rw-,u:1001:rwx,g::r--,m::rwx,o::---";

	ASSERT_EQ(0, fset_text(t->fd, A9_XA_ACCESS, text));
	EXPECT_ACL(t->p, A9_XA_ACCESS, text);
	expect_events(_metadata, t, "fsetxattr of an ACL that changes the mode");
}

/* another named user, the same mask: the mode stays */
static void set_acl_keeping_mode(struct __test_metadata *_metadata,
				 const struct target *t)
{
	const char *text = "u::rw-,u:1002:r--,g::r--,m::r--,o::---";

	ASSERT_EQ(0, fset_text(t->fd, A9_XA_ACCESS, text));
	EXPECT_ACL(t->p, A9_XA_ACCESS, text);
	expect_events(_metadata, t, "fsetxattr of an ACL that keeps the mode");
}

static void remove_acl(struct __test_metadata *_metadata,
		       const struct target *t)
{
	ASSERT_EQ(0, fremovexattr(t->fd, A9_XA_ACCESS)) TH_LOG("%s", strerror(errno));
	EXPECT_NOACL(t->p, A9_XA_ACCESS);
	expect_events(_metadata, t, "fremovexattr of the access ACL");
}

static void set_default_acl(struct __test_metadata *_metadata,
			    const struct target *t)
{
	int r = fset_text(t->fd, A9_XA_DEFAULT, DEF);

	ASSERT_EQ(0, r) TH_LOG("fsetxattr %s: %s", A9_XA_DEFAULT, a9_errname(r));
	EXPECT_ACL(t->p, A9_XA_DEFAULT, DEF);
	expect_events(_metadata, t, "fsetxattr of a default ACL");
}

/* a refused value: EINVAL, the ACL as it was, and no event */
static void refused_acl(struct __test_metadata *_metadata,
			const struct target *t)
{
	int n;

	/* a named user without a mask: posix_acl_valid() refuses it */
	EXPECT_ERRNO(-EINVAL, fset_text(t->fd, A9_XA_ACCESS,
					"u::rw-,u:1002:rw-,g::r--,o::---"));
	EXPECT_ACL(t->p, A9_XA_ACCESS, OLD);
	n = t->w->count(t->wfd);
	EXPECT_EQ(0, n) TH_LOG("%d %s events after a refused fsetxattr", n,
			       t->w->event);
}

/* the five tests, for a fixture whose self->t is its target */
#define NOTIFY_TESTS(f)							\
	TEST_F(f, set_acl_changing_mode_queues_attrib)			\
	{								\
		set_acl_changing_mode(_metadata, &self->t);		\
	}								\
	TEST_F(f, set_acl_keeping_mode_queues_attrib)			\
	{								\
		set_acl_keeping_mode(_metadata, &self->t);		\
	}								\
	TEST_F(f, remove_acl_queues_attrib)				\
	{								\
		remove_acl(_metadata, &self->t);			\
	}								\
	TEST_F(f, set_default_acl_queues_attrib)			\
	{								\
		set_default_acl(_metadata, &self->t);			\
	}								\
	TEST_F(f, refused_acl_queues_nothing)				\
	{								\
		refused_acl(_metadata, &self->t);			\
	}

static void drop_target(struct target *t)
{
	if (t->wfd >= 0)
		close(t->wfd);
	if (t->fd >= 0)
		close(t->fd);
}

/* ---- inotify */

FIXTURE(notify) {
	struct target t;
};

FIXTURE_SETUP(notify)
{
	int fd;

	self->t.fd = self->t.wfd = -1;
	self->t.w = &inotify_w;
	fd = inotify_init1(IN_CLOEXEC);
	if (fd < 0 && errno == ENOSYS)
		SKIP(return, "inotify_init1: ENOSYS: the kernel has no inotify (CONFIG_INOTIFY_USER)");
	if (fd >= 0)
		close(fd);
	a9_setup(_metadata, "notify", self->t.dir, sizeof(self->t.dir), NULL,
		 0, A9_PROBE);
	make_target(_metadata, self->t.dir, self->t.p, &self->t.fd);
	self->t.wfd = watch_attrib(self->t.fd);
	ASSERT_LE(0, self->t.wfd) TH_LOG("inotify watch of %s: %s", self->t.p,
					 a9_errname(self->t.wfd));
}

FIXTURE_TEARDOWN(notify)
{
	drop_target(&self->t);
}

NOTIFY_TESTS(notify)

/* ---- fanotify */

FIXTURE(fanotify) {
	struct target t;
};

FIXTURE_SETUP(fanotify)
{
	int fd;

	self->t.fd = self->t.wfd = -1;
	self->t.w = &fanotify_w;
	fd = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_FID | FAN_CLOEXEC,
			   O_RDONLY);
	if (fd < 0 && errno == ENOSYS)
		SKIP(return, "fanotify_init: ENOSYS: the kernel has no fanotify (CONFIG_FANOTIFY)");
	ASSERT_LE(0, fd) TH_LOG("fanotify_init(FAN_REPORT_FID): %s", strerror(errno));
	close(fd);
	a9_setup(_metadata, "fanotify", self->t.dir, sizeof(self->t.dir),
		 NULL, 0, A9_PROBE);
	make_target(_metadata, self->t.dir, self->t.p, &self->t.fd);
	self->t.wfd = fan_watch_attrib(self->t.fd);
	if (self->t.wfd == -EOPNOTSUPP)
		A9_SETUP_SKIP("fanotify cannot report a file id on %s (fanotify_mark of an FAN_REPORT_FID group: EOPNOTSUPP)",
			      a9_mnt());
	/* a file id needs a filesystem id too (fanotify_test_fsid()) */
	if (self->t.wfd == -ENODEV)
		A9_SETUP_SKIP("fanotify cannot report a file id on %s: its statfs gives no fsid (fanotify_mark of an FAN_REPORT_FID group: ENODEV)",
			      a9_mnt());
	ASSERT_LE(0, self->t.wfd) TH_LOG("fanotify mark of %s: %s", self->t.p,
					 a9_errname(self->t.wfd));
}

FIXTURE_TEARDOWN(fanotify)
{
	drop_target(&self->t);
}

NOTIFY_TESTS(fanotify)

TEST_HARNESS_MAIN
