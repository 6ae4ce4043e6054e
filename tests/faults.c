// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_faults: what the 9p client does when the server misbehaves on
 * ACL traffic, and nothing else.  The cells of server ninep-proxy put a
 * strict 9P2000.L proxy in front of diod (server/ninep-proxy.sh), one
 * proxy process per guest connection; a walk to the name
 * "acl9p-fault=SPEC" arms SPEC on that connection (the walk itself is
 * answered ENOENT), "acl9p-fault=none" disarms.  An armed fault applies
 * to the ACL xattr traffic only: Txattrwalk and Txattrcreate of
 * system.posix_acl_{access,default} and the Tread/Twrite/Tclunk of
 * their fids; sa-errno to the mode Tsetattr right after an ACL store.
 * Elsewhere every test skips (skip.no-proxy).
 *
 * Each test mounts the share once more for itself (ACL9P_SRC with
 * ACL9P_OPTS on a directory of its own under /tmp), so that its faults,
 * a dropped connection included, hit its own proxy only; sets up a
 * file with a 5-entry access ACL before it arms anything; arms; makes
 * the one call under test in a child bounded by alarm() (a call that
 * hangs fails the test as "did not return", it does not stall the
 * suite) and times it; checks errno and bytes against what the client
 * code promises for the cell's access mode; disarms; checks that the
 * mount works again (or, after a drop, that it is dead and says EIO);
 * unmounts it with umount2(mnt, 0), which must succeed even after the
 * server died; and fails on any kernel report that appeared in
 * /dev/kmsg meanwhile (tests/lib/kernel-reports, the rules boot.sh
 * applies to the console).
 *
 * What the client promises, from fs/9p (6.1 and the series):
 *
 * access=client,posixacl (SB_POSIXACL): the client reads an ACL the
 * first time a permission check, a getxattr, a chmod or a create needs
 * it (series patch 23; 6.1 reads both at every lookup, and with
 * cache=none every lookup makes a new inode) and keeps it with the
 * inode.  A fetch error of ENODATA, ENOSYS or EOPNOTSUPP reads as "no
 * ACL"; any other error, and any value that does not parse as an ACL
 * (bad version, a size that is no 4 + 8n, a cut entry, zero padding),
 * fails what needed the ACL with EIO (6.1: the lookup): fail closed,
 * the mode bits alone never decide for a file whose ACL the client
 * could not read.  So does a read of fewer bytes
 * than the Rxattrwalk declared, an empty one included, and an ACL that
 * posix_acl_valid() refuses (series patch 4; 6.1 enforces what parsed,
 * or no ACL for an empty read).  A declared size over
 * XATTR_SIZE_MAX is refused with EIO without an allocation (series
 * patch 16; 6.1 asks kzalloc() for it and WARNs in __alloc_pages).
 * The client's read here is an openat() and an fgetxattr() of the file
 * (OP_OPEN_GET): 6.1 meets the fault at the openat's lookup, the series
 * at the fgetxattr (root owns the file: its open needs no ACL), and
 * the call's result is the first error of the two.  Lookups go through
 * an open directory fd, so a test's fault meets the file's own ACL
 * requests and no directory's.
 *
 * access=user: no SB_POSIXACL, so the ACL xattrs are opaque to the
 * client (series patch 9 keeps 6.1's raw path): a lookup fetches no
 * ACL, getxattr returns the server's error or bytes unchanged,
 * whatever they are, and caches nothing.
 *
 * Writes (setxattr of an access ACL): the server's error comes back,
 * and what the host stores is unchanged: neither the ACL nor the mode
 * the new ACL would give (read back through a fresh, unfaulted mount,
 * and by the host: HOSTCHECK).
 *
 * The server's death in the middle of a loop of sets (loop_drop_*):
 * every set the server acknowledged is on the host afterwards, the one
 * it died under is not (or, where it died after taking the value, is
 * whole), every call after its death fails at once with EIO, and
 * nothing hangs.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>

#include "acl9p_test.h"

/* the ACL set before the fault (mode 0640) and the one a write tries */
static const char *OLD = "u::rw-,u:1001:r--,g::r--,m::r--,o::---";
static const char *NEW = "u::rw-,u:1002:rw-,g::r--,m::rw-,o::---";
#define OLD_MODE	0640
#define NEW_MODE	0660
#define ACL_LEN		44	/* 4 + 5 * 8 */

/* rd-delay, wr-delay */
#define DELAY_MS	1000
/*
 * Every faulted call must return within BOUND_MS (a delayed one within
 * BOUND_MS more than its delays: 6.1's client makes up to three ACL
 * requests for one lookup of a file, the series one).  A call still
 * running after LIMIT_S is killed by its alarm() and fails as a hang.
 */
#define BOUND_MS	(5000 * scale())
#define DELAYED_MAX_MS	(3 * DELAY_MS + BOUND_MS)
#define LIMIT_S		(20 * scale())
#define TEST_S		60

/*
 * ACL9P_TIMEOUT_SCALE (a slow kernel flavour, tests/lib/acl9p_test.h)
 * stretches the bounds as it stretches the harness' timeouts, TEST_S
 * included; the delays stay what the proxy holds a reply.
 */
static int scale(void)
{
	int n = atoi(a9_env("ACL9P_TIMEOUT_SCALE", "1"));

	return n > 1 && n <= 100 ? n : 1;
}

#define PROXY		"ninep-proxy"

FIXTURE(fault) {
	char top[256];		/* /tmp/<binary>.<test> */
	char mnt[512];		/* top/m: this test's own connection */
	char vmnt[512];		/* top/v: a fresh one, to read back */
	char name[256];		/* the work dir's name, under any mount */
	char dir[1024];		/* mnt/name */
	char p[PATH_MAX];
	int dfd;		/* dir, held open: lookups start there */
	int kmsg;
	bool mounted, vmounted;
	bool client;		/* access=client (else user) */
	unsigned char old[ACL_LEN], new[ACL_LEN];
	int fd;			/* dir/f held open: OP_FSET */
	unsigned char val[ACL_LEN];	/* what OP_FSET sets */
	char ovl[PATH_MAX];	/* an overlay mounted by the test, or "" */
};

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static int mount_share(const char *dst)
{
	const char *src = getenv("ACL9P_SRC"), *opts = getenv("ACL9P_OPTS");

	if (!src || !opts)
		return -EINVAL;
	mkdir(dst, 0755);
	return mount(src, dst, "9p", 0, opts) ? -errno : 0;
}

FIXTURE_SETUP(fault)
{
	const char *server = a9_env("ACL9P_SERVER", "(unset)");
	const char *access = a9_env("ACL9P_ACCESS", "(unset)");
	int r;

	self->dfd = -1;
	self->fd = -1;
	self->kmsg = -1;
	if (strcmp(server, PROXY))
		A9_SETUP_SKIP("the share is not served by %s (ACL9P_SERVER=%s): nothing injects faults",
			      PROXY, server);
	ASSERT_TRUE(!strcmp(access, "client") || !strcmp(access, "user"))
		TH_LOG("no expectations written for access=%s", access);
	self->client = !strcmp(access, "client");
	self->kmsg = a9_kmsg_open();
	ASSERT_LE(0, self->kmsg) TH_LOG("/dev/kmsg: %s", a9_errname(self->kmsg));
	ASSERT_EQ(ACL_LEN, a9_build(self->old, sizeof(self->old), OLD));
	ASSERT_EQ(ACL_LEN, a9_build(self->new, sizeof(self->new), NEW));

	snprintf(self->top, sizeof(self->top), "/tmp/%s.%s", a9_binary(),
		 _metadata->name);
	snprintf(self->mnt, sizeof(self->mnt), "%s/m", self->top);
	snprintf(self->vmnt, sizeof(self->vmnt), "%s/v", self->top);
	snprintf(self->name, sizeof(self->name), "%s.fault.%s", a9_binary(),
		 _metadata->name);
	mkdir(self->top, 0755);
	r = mount_share(self->mnt);
	ASSERT_EQ(0, r) TH_LOG("mount %s on %s (%s): %s", getenv("ACL9P_SRC"),
			       self->mnt, getenv("ACL9P_OPTS"), a9_errname(r));
	self->mounted = true;
	r = a9_mkworkdir(self->mnt, self->name, self->dir, sizeof(self->dir));
	ASSERT_EQ(0, r) TH_LOG("work dir under %s: %s", self->mnt, a9_errname(r));
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, OLD_MODE, "x"));
	ASSERT_SET(self->p, A9_XA_ACCESS, OLD);
	ASSERT_ACL(self->p, A9_XA_ACCESS, OLD);
	self->dfd = open(self->dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, self->dfd) TH_LOG("open %s: %s", self->dir, strerror(errno));
}

FIXTURE_TEARDOWN(fault)
{
	char rep[8][A9_KREPORT_LEN];
	int n, i;

	if (self->fd >= 0)
		close(self->fd);
	if (self->dfd >= 0)
		close(self->dfd);
	/* the test body asserted its unmount; this only cleans up */
	if (self->ovl[0])
		umount2(self->ovl, MNT_DETACH);
	if (self->mounted)
		umount2(self->mnt, MNT_FORCE | MNT_DETACH);
	if (self->vmounted)
		umount2(self->vmnt, MNT_DETACH);
	if (self->kmsg < 0)
		return;
	/* the kernel said nothing about what this test did to it */
	n = a9_kmsg_reports(self->kmsg, rep, 8);
	EXPECT_LE(0, n) TH_LOG("reading /dev/kmsg: %s", a9_errname(n));
	for (i = 0; i < n && i < 8; i++)
		EXPECT_STREQ("no kernel report", rep[i]);
	if (n > 8)
		TH_LOG("%d kernel reports more", n - 8);
	close(self->kmsg);
}

/* ---- the call under test, in a child with an alarm */

enum op {
	OP_OPEN_GET,	/* openat(dir, "f") + fgetxattr: the ACL client reads */
	OP_STAT,	/* fstatat(dir, "f") */
	OP_GET,		/* getxattr("f", buffer of 256) */
	OP_SIZE,	/* getxattr("f", NULL, 0) */
	OP_SET,		/* setxattr("f", NEW) */
	OP_FSET,	/* fsetxattr(fd, val): "f" held open, no lookup */
	OP_GET_MAX,	/* getxattr("f", buffer of XATTR_SIZE_MAX); v_ok:
			 * the old ACL, then zeros to the size read */
};

struct call {
	bool hung;		/* still running after LIMIT_S: killed */
	int status;		/* the child's wait status otherwise */
	long ms;		/* how long the call took */
	long r;			/* its result: >= 0, or -errno (OP_OPEN_GET:
				 * the first error of its two calls, or 0) */
	long r2;		/* OP_OPEN_GET: fgetxattr's */
	unsigned char v[256];
	bool v_ok;		/* OP_GET_MAX: the bytes were as said */
};

static const char *op_name(enum op op)
{
	static const char *const names[] = {
		"openat+fgetxattr", "fstatat", "getxattr", "getxattr(size)",
		"setxattr", "fsetxattr", "getxattr(64 KiB)",
	};

	return names[op];
}

static struct call do_call(FIXTURE_DATA(fault) *self, enum op op)
{
	struct call c = { .r = -EINVAL, .r2 = -EINVAL }, *sh;
	struct timespec t0;
	struct stat st;
	pid_t pid;
	int fd;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		c.r = -errno;
		return c;
	}
	*sh = c;
	fflush(stdout);
	fflush(stderr);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		/* SIGALRM's default action ends even a killable 9p wait */
		signal(SIGALRM, SIG_DFL);
		alarm(LIMIT_S);
		if (fchdir(self->dfd))
			_exit(3);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		switch (op) {
		case OP_OPEN_GET:
			fd = openat(self->dfd, "f", O_RDONLY);
			sh->r = fd < 0 ? -errno : 0;
			if (fd >= 0) {
				ssize_t n = fgetxattr(fd, A9_XA_ACCESS, sh->v,
						      sizeof(sh->v));

				sh->r2 = n < 0 ? -errno : n;
				sh->r = n < 0 ? sh->r2 : 0;
				close(fd);
			}
			break;
		case OP_STAT:
			sh->r = fstatat(self->dfd, "f", &st, AT_SYMLINK_NOFOLLOW)
				? -errno : 0;
			break;
		case OP_GET:
			sh->r = getxattr("f", A9_XA_ACCESS, sh->v, sizeof(sh->v));
			if (sh->r < 0)
				sh->r = -errno;
			break;
		case OP_SIZE:
			sh->r = getxattr("f", A9_XA_ACCESS, NULL, 0);
			if (sh->r < 0)
				sh->r = -errno;
			break;
		case OP_SET:
			sh->r = setxattr("f", A9_XA_ACCESS, self->new,
					 sizeof(self->new), 0) ? -errno : 0;
			break;
		case OP_FSET:
			sh->r = fsetxattr(self->fd, A9_XA_ACCESS, self->val,
					  sizeof(self->val), 0) ? -errno : 0;
			break;
		case OP_GET_MAX: {
			static unsigned char big[A9_XATTR_SIZE_MAX];
			ssize_t i;

			sh->r = getxattr("f", A9_XA_ACCESS, big, sizeof(big));
			if (sh->r < 0) {
				sh->r = -errno;
				break;
			}
			sh->v_ok = sh->r >= ACL_LEN &&
				   !memcmp(big, self->old, ACL_LEN);
			for (i = ACL_LEN; sh->v_ok && i < sh->r; i++)
				sh->v_ok = !big[i];
			break;
		}
		}
		sh->ms = ms_since(&t0);
		_exit(0);
	}
	if (pid < 0) {
		c.r = -errno;
		munmap(sh, sizeof(*sh));
		return c;
	}
	waitpid(pid, &c.status, 0);
	if (WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGALRM) {
		c.hung = true;
		c.ms = ms_since(&t0);
	} else {
		long status = c.status;

		c = *sh;
		c.status = (int)status;
	}
	munmap(sh, sizeof(*sh));
	return c;
}

/* a result as text: "EIO" or "44" (four at a time for one message) */
static const char *res(long r)
{
	static char buf[4][32];
	static int i;
	char *b = buf[i++ % 4];

	if (r < 0)
		snprintf(b, sizeof(buf[0]), "%s", a9_errname((int)r));
	else
		snprintf(b, sizeof(buf[0]), "%ld", r);
	return b;
}

/*
 * The call returned (no hang, no crash) within max_ms, with result r
 * (-errno, or a size or 0); the time it took is logged either way.
 */
#define EXPECT_CALL(c, op, r_exp, max_ms) do {				\
	ASSERT_FALSE((c).hung) TH_LOG("%s did not return within %d s",	\
				      op_name(op), LIMIT_S);		\
	ASSERT_TRUE(WIFEXITED((c).status) && !WEXITSTATUS((c).status))	\
		TH_LOG("%s: child ended with status 0x%x", op_name(op),	\
		       (c).status);					\
	EXPECT_EQ((long)(r_exp), (c).r)					\
		TH_LOG("%s: %s, expected %s", op_name(op), res((c).r),	\
		       res(r_exp));					\
	EXPECT_GE((long)(max_ms), (c).ms)				\
		TH_LOG("%s took %ld ms", op_name(op), (c).ms);		\
	TH_LOG("%s: %s in %ld ms", op_name(op), res((c).r), (c).ms);	\
} while (0)

/* the bytes a call returned are exactly exp */
#define EXPECT_BYTES(exp, n, got, gn) do {				\
	char __e[2 * 256 + 1], __g[2 * 256 + 1];			\
	long __gn = (gn);						\
	EXPECT_EQ((long)(n), __gn);					\
	if (__gn == (long)(n))						\
		EXPECT_EQ(0, memcmp(exp, got, n))			\
			TH_LOG("bytes %s, expected %s",			\
			       a9_hex(got, n, __g, sizeof(__g)),	\
			       a9_hex(exp, n, __e, sizeof(__e)));	\
} while (0)

/* walk to the control name: arm spec on this test's connection */
static int arm(FIXTURE_DATA(fault) *self, const char *spec)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/acl9p-fault=%s", self->mnt, spec);
	return stat(p, &st) ? -errno : 0;
}

#define DISARM() ARM("none")
#define ARM(spec) do {							\
	int __r = arm(self, spec);					\
	ASSERT_EQ(-ENOENT, __r) TH_LOG("arming %s: %s", spec, res(__r)); \
} while (0)

/* disarmed, the file reads as set up: the connection survived */
static void disarm_and_reread(struct __test_metadata *_metadata,
			      FIXTURE_DATA(fault) *self)
{
	struct call c;
	int r;

	r = arm(self, "none");
	ASSERT_EQ(-ENOENT, r) TH_LOG("disarming: %s", res(r));
	c = do_call(self, self->client ? OP_OPEN_GET : OP_GET);
	EXPECT_CALL(c, self->client ? OP_OPEN_GET : OP_GET,
		    self->client ? 0 : ACL_LEN, BOUND_MS);
	EXPECT_BYTES(self->old, ACL_LEN, c.v, self->client ? c.r2 : c.r);
}

/* after a drop: the mount is dead, and says so without hanging */
static void expect_dead(struct __test_metadata *_metadata,
			FIXTURE_DATA(fault) *self)
{
	struct call c = do_call(self, OP_STAT);

	EXPECT_CALL(c, OP_STAT, -EIO, BOUND_MS);
}

/* the test's own mount goes away with a plain umount, server dead or not */
static void unmount(struct __test_metadata *_metadata,
		    FIXTURE_DATA(fault) *self)
{
	int r;

	close(self->dfd);
	self->dfd = -1;
	r = umount2(self->mnt, 0) ? -errno : 0;
	EXPECT_EQ(0, r) TH_LOG("umount2(%s, 0): %s", self->mnt, res(r));
	if (!r)
		self->mounted = false;
}

/*
 * What the host holds after a refused write, read through a fresh
 * connection (no fault armed on it; with cache=none its stat is the
 * server's answer) and by the host itself.  TEXT NULL: no access ACL.
 */
static void expect_stored(struct __test_metadata *_metadata,
			  FIXTURE_DATA(fault) *self, const char *text,
			  int mode)
{
	char p[PATH_MAX], rel[512];
	int r;

	r = mount_share(self->vmnt);
	ASSERT_EQ(0, r) TH_LOG("fresh mount on %s: %s", self->vmnt, a9_errname(r));
	self->vmounted = true;
	snprintf(p, sizeof(p), "%s/%s/f", self->vmnt, self->name);
	if (text) {
		EXPECT_ACL(p, A9_XA_ACCESS, text);
	} else {
		EXPECT_NOACL(p, A9_XA_ACCESS);
	}
	EXPECT_MODE(p, mode);
	r = umount2(self->vmnt, 0) ? -errno : 0;
	EXPECT_EQ(0, r) TH_LOG("umount2(%s, 0): %s", self->vmnt, res(r));
	if (!r)
		self->vmounted = false;
	snprintf(rel, sizeof(rel), "%s/f", self->name);
	a9_hostcheck_text(a9_path(p, a9_mnt(), rel), A9_XA_ACCESS, text);
}

/* ---- read faults: the lookup (client) or getxattr (user) */

/*
 * rd-errno=E: Rlerror(E) to the ACL's Txattrwalk.  client: EIO, or no
 * ACL (ENODATA) for the three errnos __v9fs_get_acl() reads as "none";
 * user: getxattr gives E as it is, and a lookup reads no ACL.
 */
static void rd_errno(struct __test_metadata *_metadata,
		     FIXTURE_DATA(fault) *self, const char *spec, int err)
{
	bool none = err == ENODATA || err == ENOSYS || err == EOPNOTSUPP;
	struct call c;

	ARM(spec);
	if (self->client) {
		c = do_call(self, OP_OPEN_GET);
		EXPECT_CALL(c, OP_OPEN_GET, none ? -ENODATA : -EIO, BOUND_MS);
	} else {
		c = do_call(self, OP_STAT);
		EXPECT_CALL(c, OP_STAT, 0, BOUND_MS);
		c = do_call(self, OP_GET);
		EXPECT_CALL(c, OP_GET, -err, BOUND_MS);
	}
	disarm_and_reread(_metadata, self);
	unmount(_metadata, self);
}

TEST_F_TIMEOUT(fault, rd_errno_EIO, TEST_S)
{
	rd_errno(_metadata, self, "rd-errno=EIO", EIO);
}

TEST_F_TIMEOUT(fault, rd_errno_EACCES, TEST_S)
{
	rd_errno(_metadata, self, "rd-errno=EACCES", EACCES);
}

TEST_F_TIMEOUT(fault, rd_errno_ENOMEM, TEST_S)
{
	rd_errno(_metadata, self, "rd-errno=ENOMEM", ENOMEM);
}

TEST_F_TIMEOUT(fault, rd_errno_ERANGE, TEST_S)
{
	rd_errno(_metadata, self, "rd-errno=ERANGE", ERANGE);
}

TEST_F_TIMEOUT(fault, rd_errno_ENOSYS, TEST_S)
{
	rd_errno(_metadata, self, "rd-errno=ENOSYS", ENOSYS);
}

TEST_F_TIMEOUT(fault, rd_errno_EOPNOTSUPP, TEST_S)
{
	rd_errno(_metadata, self, "rd-errno=EOPNOTSUPP", EOPNOTSUPP);
}

TEST_F_TIMEOUT(fault, rd_errno_ENODATA, TEST_S)
{
	rd_errno(_metadata, self, "rd-errno=ENODATA", ENODATA);
}

/*
 * A value that is no ACL: client EIO, never the value; user: the bytes
 * the proxy produced (exp, n), unchanged.
 */
static void rd_garbage(struct __test_metadata *_metadata,
		       FIXTURE_DATA(fault) *self, const char *spec,
		       const unsigned char *exp, size_t n)
{
	struct call c;

	ARM(spec);
	if (self->client) {
		c = do_call(self, OP_OPEN_GET);
		EXPECT_CALL(c, OP_OPEN_GET, -EIO, BOUND_MS);
	} else {
		c = do_call(self, OP_SIZE);
		EXPECT_CALL(c, OP_SIZE, (int)n, BOUND_MS);
		c = do_call(self, OP_GET);
		EXPECT_CALL(c, OP_GET, (int)n, BOUND_MS);
		EXPECT_BYTES(exp, n, c.v, c.r);
	}
	disarm_and_reread(_metadata, self);
	unmount(_metadata, self);
}

/* rd-badversion: the value's a_version reads 3 */
TEST_F_TIMEOUT(fault, rd_badversion, TEST_S)
{
	unsigned char v[ACL_LEN];

	memcpy(v, self->old, ACL_LEN);
	v[0] = 3;
	rd_garbage(_metadata, self, "rd-badversion", v, ACL_LEN);
}

/* rd-oddsize: 3 bytes short, a size that is no 4 + 8n */
TEST_F_TIMEOUT(fault, rd_oddsize, TEST_S)
{
	rd_garbage(_metadata, self, "rd-oddsize", self->old, ACL_LEN - 3);
}

/* rd-truncentry: 4 bytes short, the last entry cut in half */
TEST_F_TIMEOUT(fault, rd_truncentry, TEST_S)
{
	rd_garbage(_metadata, self, "rd-truncentry", self->old, ACL_LEN - 4);
}

/*
 * The size declared as it is, the value read short: the first n bytes.
 * client: EIO, never the part that was read (a cut at an entry boundary
 * parses) nor "no ACL" for an empty read; 6.1 takes the part for the
 * ACL, or no bytes for none.  user: the size query gives the declared
 * size and a read the bytes that came, as the server's raw value.
 */
static void rd_short(struct __test_metadata *_metadata,
		     FIXTURE_DATA(fault) *self, const char *spec, size_t n)
{
	struct call c;

	ARM(spec);
	if (self->client) {
		c = do_call(self, OP_OPEN_GET);
		EXPECT_CALL(c, OP_OPEN_GET, -EIO, BOUND_MS);
		if (!c.r)
			TH_LOG("the ACL read short: %s", res(c.r2));
	} else {
		c = do_call(self, OP_SIZE);
		EXPECT_CALL(c, OP_SIZE, ACL_LEN, BOUND_MS);
		c = do_call(self, OP_GET);
		EXPECT_CALL(c, OP_GET, (int)n, BOUND_MS);
		EXPECT_BYTES(self->old, n, c.v, c.r);
	}
	disarm_and_reread(_metadata, self);
	unmount(_metadata, self);
}

/* rd-shortentry: 28 of the 44 bytes, u::,u:1001:,g:: without m:: and o:: */
TEST_F_TIMEOUT(fault, rd_shortentry, TEST_S)
{
	rd_short(_metadata, self, "rd-shortentry", 28);
}

/* rd-emptyread: 44 bytes declared, none read */
TEST_F_TIMEOUT(fault, rd_emptyread, TEST_S)
{
	rd_short(_metadata, self, "rd-emptyread", 0);
}

/*
 * rd-hugesize: the Rxattrwalk declares 9 TiB.  client: EIO, and no
 * allocation of that size (6.1: kzalloc(9 TiB) WARNs in __alloc_pages,
 * the kernel report fails the test; the series refuses any declared
 * size over XATTR_SIZE_MAX).  user: the size query is E2BIG, what
 * getxattr(2) says of a value larger than any buffer it can take
 * (XATTR_SIZE_MAX): no read could return it, and the size does not fit
 * the int an xattr handler returns (6.1 answers 0, 9 TiB truncated);
 * a read into a buffer gives ERANGE.
 */
TEST_F_TIMEOUT(fault, rd_hugesize, TEST_S)
{
	struct call c;

	ARM("rd-hugesize");
	if (self->client) {
		c = do_call(self, OP_OPEN_GET);
		EXPECT_CALL(c, OP_OPEN_GET, -EIO, BOUND_MS);
	} else {
		c = do_call(self, OP_SIZE);
		ASSERT_FALSE(c.hung);
		EXPECT_EQ(-E2BIG, c.r) TH_LOG("getxattr(size): %ld (%s)", c.r,
					      c.r < 0 ? a9_errname((int)c.r) : "size");
		EXPECT_GE(BOUND_MS, c.ms);
		c = do_call(self, OP_GET);
		EXPECT_CALL(c, OP_GET, -ERANGE, BOUND_MS);
	}
	disarm_and_reread(_metadata, self);
	unmount(_metadata, self);
}

/*
 * rd-size=65536 and rd-size=65537: the edges of XATTR_SIZE_MAX.  The
 * Rxattrwalk declares the largest size an xattr value may have, or one
 * byte more; past the server's 44 bytes the reads give zeros, so
 * neither value is an ACL.  client: each fails closed, EIO.  user (the
 * raw xattr path): 65536 is a value like any other, its size query
 * answers 65536 and a read into 64 KiB returns it whole; 65537 is no
 * value getxattr(2) can return: its size query is E2BIG (patch 20; 6.1
 * answers 65537, which no buffer may be), and a read into 64 KiB E2BIG
 * too: 9p answers ERANGE, and getxattr() in fs/xattr.c turns an ERANGE
 * into a buffer of XATTR_SIZE_MAX into E2BIG, on both kernels.
 */
static void rd_size_edge(struct __test_metadata *_metadata,
			 FIXTURE_DATA(fault) *self, long size)
{
	char spec[32];
	struct call c;

	snprintf(spec, sizeof(spec), "rd-size=%ld", size);
	ARM(spec);
	if (self->client) {
		c = do_call(self, OP_OPEN_GET);
		EXPECT_CALL(c, OP_OPEN_GET, -EIO, BOUND_MS);
	} else {
		c = do_call(self, OP_SIZE);
		EXPECT_CALL(c, OP_SIZE, size > A9_XATTR_SIZE_MAX ? -E2BIG : size,
			    BOUND_MS);
		c = do_call(self, OP_GET_MAX);
		EXPECT_CALL(c, OP_GET_MAX, size > A9_XATTR_SIZE_MAX ? -E2BIG : size,
			    BOUND_MS);
		if (c.r > 0)
			EXPECT_TRUE(c.v_ok) TH_LOG("the %ld bytes read are not the stored ACL and zeros",
						   c.r);
	}
	disarm_and_reread(_metadata, self);
	unmount(_metadata, self);
}

TEST_F_TIMEOUT(fault, rd_size_xattr_size_max, TEST_S)
{
	rd_size_edge(_metadata, self, A9_XATTR_SIZE_MAX);
}

TEST_F_TIMEOUT(fault, rd_size_over_xattr_size_max, TEST_S)
{
	rd_size_edge(_metadata, self, A9_XATTR_SIZE_MAX + 1);
}

/*
 * rd-sizechange: each ACL Rxattrwalk of the connection declares 8
 * bytes more than the one before (the first one the true size), the
 * bytes past the value read as zeros.  client: each lookup sees the ACL
 * as it is or fails with EIO; the padded value (an entry of tag 0) is
 * never accepted, and a size that changed between two requests is never
 * "no ACL".  At least one of three lookups meets a changed size.  user:
 * the size query, then each read, shows what that walk declared.
 */
TEST_F_TIMEOUT(fault, rd_sizechange, TEST_S)
{
	unsigned char v[ACL_LEN + 16] = { 0 };
	struct call c;
	int i, eio = 0;

	memcpy(v, self->old, ACL_LEN);
	ARM("rd-sizechange");
	if (self->client) {
		for (i = 0; i < 3; i++) {
			c = do_call(self, OP_OPEN_GET);
			ASSERT_FALSE(c.hung);
			EXPECT_GE(BOUND_MS, c.ms);
			TH_LOG("lookup %d: open %s, ACL %s, in %ld ms", i + 1,
			       res(c.r), c.r ? "-" : res(c.r2), c.ms);
			if (c.r == -EIO) {
				eio++;
				continue;
			}
			EXPECT_EQ(0, c.r) TH_LOG("lookup %d: %s", i + 1, res(c.r));
			EXPECT_BYTES(self->old, ACL_LEN, c.v, c.r2);
		}
		EXPECT_LT(0, eio) TH_LOG("no lookup met a changed size");
	} else {
		c = do_call(self, OP_SIZE);
		EXPECT_CALL(c, OP_SIZE, ACL_LEN, BOUND_MS);
		for (i = 1; i <= 2; i++) {
			c = do_call(self, OP_GET);
			EXPECT_CALL(c, OP_GET, ACL_LEN + 8 * i, BOUND_MS);
			EXPECT_BYTES(v, (size_t)ACL_LEN + 8 * i, c.v, c.r);
		}
	}
	disarm_and_reread(_metadata, self);
	unmount(_metadata, self);
}

/* rd-delay: the right answer, after the delay at least */
TEST_F_TIMEOUT(fault, rd_delay, TEST_S)
{
	struct call c;
	enum op op = self->client ? OP_OPEN_GET : OP_GET;

	ARM("rd-delay=1000");
	c = do_call(self, op);
	EXPECT_CALL(c, op, self->client ? 0 : ACL_LEN, DELAYED_MAX_MS);
	EXPECT_LE(DELAY_MS, c.ms) TH_LOG("returned before the delay");
	EXPECT_BYTES(self->old, ACL_LEN, c.v, self->client ? c.r2 : c.r);
	disarm_and_reread(_metadata, self);
	unmount(_metadata, self);
}

/*
 * A call the server died under fails with EIO, or with ECONNRESET, the
 * transport's word for a connection the peer closed (trans_fd's
 * p9_poll_mux): an error that says the server went away, not one about
 * the caller's arguments.
 */
#define EXPECT_DEAD(c, op) do {						\
	long dead = (c).r == -ECONNRESET ? -ECONNRESET : -EIO;		\
	EXPECT_CALL(c, op, dead, BOUND_MS);				\
} while (0)

/*
 * rd-drop, drop-after=1: the server dies on the ACL's Txattrwalk, or
 * after it answered it, on the read of the value.  client: the lookup
 * fails with EIO (whatever the transport said, __v9fs_get_acl() maps it
 * to EIO); user: getxattr fails as a call on a dead connection does.
 * The mount is dead afterwards (EIO), and unmounts with umount2(mnt, 0):
 * no MNT_FORCE needed.
 */
static void rd_drop(struct __test_metadata *_metadata,
		    FIXTURE_DATA(fault) *self, const char *spec)
{
	struct call c;

	ARM(spec);
	c = do_call(self, self->client ? OP_OPEN_GET : OP_GET);
	if (self->client)
		EXPECT_CALL(c, OP_OPEN_GET, -EIO, BOUND_MS);
	else
		EXPECT_DEAD(c, OP_GET);
	expect_dead(_metadata, self);
	unmount(_metadata, self);
}

TEST_F_TIMEOUT(fault, rd_drop, TEST_S)
{
	rd_drop(_metadata, self, "rd-drop");
}

TEST_F_TIMEOUT(fault, drop_after_walk, TEST_S)
{
	rd_drop(_metadata, self, "drop-after=1");
}

/* ---- write faults: setxattr of NEW over OLD */

/* wr-errno=E: setxattr gives E, and the host keeps OLD and its mode */
static void wr_errno(struct __test_metadata *_metadata,
		     FIXTURE_DATA(fault) *self, const char *spec, int err)
{
	struct call c;

	ARM(spec);
	c = do_call(self, OP_SET);
	EXPECT_CALL(c, OP_SET, -err, BOUND_MS);
	DISARM();
	unmount(_metadata, self);
	expect_stored(_metadata, self, OLD, OLD_MODE);
}

TEST_F_TIMEOUT(fault, wr_errno_EACCES, TEST_S)
{
	wr_errno(_metadata, self, "wr-errno=EACCES", EACCES);
}

TEST_F_TIMEOUT(fault, wr_errno_EIO, TEST_S)
{
	wr_errno(_metadata, self, "wr-errno=EIO", EIO);
}

TEST_F_TIMEOUT(fault, wr_errno_EOPNOTSUPP, TEST_S)
{
	wr_errno(_metadata, self, "wr-errno=EOPNOTSUPP", EOPNOTSUPP);
}

/*
 * sa-errno=EPERM: the server stores the new ACL, then refuses the mode
 * Tsetattr that follows the store (a host that takes the xattr but
 * refuses the chmod).  access=client pushes the mode the ACL implies
 * after the store, so setxattr fails with the server's errno and the
 * old ACL is stored again; whatever that leaves, the guest must read,
 * through this mount and a fresh one, what the host holds.  Over an old
 * ACL the host's kernel gives the file the old ACL's mode back with it
 * (diod's host applies ACLs); over none the removal cannot: the host
 * keeps the mode the new ACL gave it, 0660, with no ACL, and the guest
 * sees that, not its own stale 0600.  access=user sends no Tsetattr
 * (the server applies the ACL and its mode): setxattr succeeds.
 */
static void sa_errno(struct __test_metadata *_metadata,
		     FIXTURE_DATA(fault) *self, bool over_acl)
{
	const char *want = !self->client ? NEW : over_acl ? OLD : NULL;
	int mode = self->client && over_acl ? OLD_MODE : NEW_MODE;
	struct call c;

	if (!over_acl) {
		ASSERT_EQ(0, a9_remove(self->p, A9_XA_ACCESS));
		ASSERT_EQ(0, chmod(self->p, 0600));
		EXPECT_NOACL(self->p, A9_XA_ACCESS);
	}
	ARM("sa-errno=EPERM");
	c = do_call(self, OP_SET);
	EXPECT_CALL(c, OP_SET, self->client ? -EPERM : 0, BOUND_MS);
	DISARM();
	if (want) {
		EXPECT_ACL(self->p, A9_XA_ACCESS, want);
	} else {
		EXPECT_NOACL(self->p, A9_XA_ACCESS);
	}
	EXPECT_MODE(self->p, mode);
	unmount(_metadata, self);
	expect_stored(_metadata, self, want, mode);
}

TEST_F_TIMEOUT(fault, sa_errno_over_acl, TEST_S)
{
	sa_errno(_metadata, self, true);
}

TEST_F_TIMEOUT(fault, sa_errno_over_none, TEST_S)
{
	sa_errno(_metadata, self, false);
}

/*
 * wr-errno=EOPNOTSUPP under an overlay's copy up: the upper layer and
 * its work dir are on this test's mount, whose server now refuses ACLs
 * (as one exporting a host filesystem without them does), the lower is
 * a local directory holding a file with an access ACL.  An open for
 * writing copies the file up.  The copy up must fail with the upper's
 * errno and leave the file the lower's: copied up without its ACL, the
 * old mask (rw-) would become the group bits and give the owning group
 * (---) rw-.
 * 6.1 copies it up without the ACL (ovl_must_copy_xattr() never
 * matches an ACL name); the series fails it (patch 10).  Disarmed, the
 * copy up takes the ACL along.  (A lower on 9p is not tried: a copy up
 * from a 9p lower to a 9p upper fails with ENODATA on 6.1 and the
 * series alike, faulted or not.)
 */
TEST_F_TIMEOUT(fault, overlay_copy_up_to_upper_refusing_acl, TEST_S)
{
	static const char *ACL = "u::rw-,g::---,g:1002:rw-,m::rw-,o::---";
	char lower[PATH_MAX], upper[PATH_MAX], work[PATH_MAX], merged[PATH_MAX];
	char opts[3 * PATH_MAX + 64], p[PATH_MAX], rel[PATH_MAX];
	int fd, r;

	r = a9_mkworkdir(a9_local(), self->name, lower, sizeof(lower));
	ASSERT_EQ(0, r) TH_LOG("lower dir under %s: %s", a9_local(), a9_errname(r));
	a9_path(p, lower, "fa");
	ASSERT_EQ(0, a9_mkfile(p, 0660, "x"));
	ASSERT_SET(p, A9_XA_ACCESS, ACL);
	a9_path(upper, self->dir, "upper");
	a9_path(work, self->dir, "work");
	ASSERT_EQ(0, a9_mkdir(upper, 0755));
	ASSERT_EQ(0, a9_mkdir(work, 0755));
	snprintf(merged, sizeof(merged), "%s/o", self->top);
	mkdir(merged, 0755);
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s",
		 lower, upper, work);
	r = mount("overlay", merged, "overlay", 0, opts) ? -errno : 0;
	ASSERT_EQ(0, r) TH_LOG("mount overlay %s: %s", opts, a9_errname(r));
	snprintf(self->ovl, sizeof(self->ovl), "%s", merged);
	a9_path(p, merged, "fa");

	ARM("wr-errno=EOPNOTSUPP");
	fd = open(p, O_WRONLY);
	r = fd < 0 ? -errno : 0;
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(-EOPNOTSUPP, r) TH_LOG("copy up of %s to an upper refusing its ACL: %s",
					 p, a9_errname(r));
	DISARM();
	EXPECT_ACL(p, A9_XA_ACCESS, ACL);
	EXPECT_MODE(p, 0660);
	a9_path(rel, upper, "fa");
	r = access(rel, F_OK) ? -errno : 0;
	EXPECT_EQ(-ENOENT, r) TH_LOG("%s after the refused copy up: %s", rel,
				     r ? a9_errname(r) : "there");

	fd = open(p, O_WRONLY);
	r = fd < 0 ? -errno : 0;
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(0, r) TH_LOG("copy up of %s, unfaulted: %s", p, a9_errname(r));
	EXPECT_ACL(p, A9_XA_ACCESS, ACL);
	EXPECT_ACL(rel, A9_XA_ACCESS, ACL);
	r = umount2(merged, 0) ? -errno : 0;
	EXPECT_EQ(0, r) TH_LOG("umount2(%s, 0): %s", merged, a9_errname(r));
	if (!r)
		self->ovl[0] = 0;
	snprintf(rel, sizeof(rel), "%s/upper/fa", self->name);
	a9_hostcheck_text(a9_path(p, a9_mnt(), rel), A9_XA_ACCESS, ACL);
}

/* wr-delay: stored, after the delay at least */
TEST_F_TIMEOUT(fault, wr_delay, TEST_S)
{
	struct call c;

	ARM("wr-delay=1000");
	c = do_call(self, OP_SET);
	EXPECT_CALL(c, OP_SET, 0, DELAYED_MAX_MS);
	EXPECT_LE(DELAY_MS, c.ms) TH_LOG("returned before the delay");
	DISARM();
	unmount(_metadata, self);
	expect_stored(_metadata, self, NEW, NEW_MODE);
}

/*
 * wr-drop: the server dies on the Txattrcreate.  setxattr fails as a
 * call on a dead connection does, the mount is dead, and the host keeps
 * OLD and its mode.
 */
TEST_F_TIMEOUT(fault, wr_drop, TEST_S)
{
	struct call c;

	ARM("wr-drop");
	c = do_call(self, OP_SET);
	EXPECT_DEAD(c, OP_SET);
	expect_dead(_metadata, self);
	unmount(_metadata, self);
	expect_stored(_metadata, self, OLD, OLD_MODE);
}

/* ---- the server dies in the middle of a loop of sets */

/*
 * LOOP_N + 1 distinct 5-entry ACLs, value k a pure function of k (k = 0
 * is the one set before the fault is armed): a named user 2000 + k with
 * r--, rw-, r-x in turn, the mask r-- and rw- in turn, other --- or r--
 * every other pair.  Two consecutive values differ in the named entry
 * and in the mask, so a mix of two (one's entries under the other's
 * mode) is neither.
 */
#define LOOP_N		20
/*
 * drop-after=N counts every ACL request of the connection: Txattrwalk,
 * Txattrcreate, and the Tread, Twrite and Tclunk of the fids they make.
 * The loop sets through a file held open (fsetxattr: no lookup), whose
 * ACL an fgetxattr read before the fault was armed: a set keeps the old
 * ACL for its rollback, and it is in the inode's cache, so no set reads
 * one; and
 * a set of an access ACL is one store on the wire, LOOP_REQS requests:
 * Txattrcreate, Twrite (44 bytes, one message), Tclunk.  access=user
 * sends the raw value as it is; access=client (the series) stores the
 * ACL, then pushes the mode it implies by a Tsetattr that stores no ACL
 * (v9fs_vfs_setattr_dotl_keep_acl).  So drop-after=LOOP_REQS*LOOP_ACKED
 * lets LOOP_ACKED sets through and ends the connection at the
 * Txattrcreate of the next one, which the server never sees; one more
 * ends it at that set's Twrite, after the server made the xattr fid and
 * before it holds the value.  (6.1 with access=client sends two stores
 * a set, below.)
 */
#define LOOP_REQS	3
#define LOOP_ACKED	10

static void loop_text(char *buf, size_t n, int k)
{
	static const char *const named[] = { "r--", "rw-", "r-x" };

	snprintf(buf, n, "u::rw-,u:%d:%s,g::r--,m::%s,o::%s", 2000 + k,
		 named[k % 3], k % 2 ? "rw-" : "r--", k / 2 % 2 ? "r--" : "---");
}

/* the mode value k implies: owner rw-, group the mask, other */
static int loop_mode(int k)
{
	return 0600 | (k % 2 ? 060 : 040) | (k / 2 % 2 ? 04 : 0);
}

/*
 * Read dir/f through a fresh connection, a new proxy and a new diod on
 * the same export, nothing armed: its access ACL as text and its mode.
 */
static void read_fresh(struct __test_metadata *_metadata,
		       FIXTURE_DATA(fault) *self, char *text, size_t n,
		       int *mode)
{
	char p[PATH_MAX];
	int r;

	r = mount_share(self->vmnt);
	ASSERT_EQ(0, r) TH_LOG("fresh mount on %s: %s", self->vmnt, a9_errname(r));
	self->vmounted = true;
	snprintf(p, sizeof(p), "%s/%s/f", self->vmnt, self->name);
	r = a9_get_text(p, A9_XA_ACCESS, text, n);
	EXPECT_EQ(0, r) TH_LOG("getxattr(%s) after the remount: %s", p,
			       a9_errname(r));
	if (r)
		snprintf(text, n, "(%s)", a9_errname(r));
	*mode = a9_mode(p);
	r = umount2(self->vmnt, 0) ? -errno : 0;
	EXPECT_EQ(0, r) TH_LOG("umount2(%s, 0): %s", self->vmnt, res(r));
	if (!r)
		self->vmounted = false;
}

/*
 * Value 0 set and read back, "f" held open, drop-after armed, then
 * values 1..LOOP_N one fsetxattr each, each in a child bounded like
 * every call here.  The sets before the drop return 0 (acknowledged:
 * the server answered their Tclunk, diod's lsetxattr is done); the one
 * the server dies under fails as a call in flight on a dead connection
 * does (EXPECT_DEAD: EIO, patch 19); every later one fails with EIO at
 * once: once trans_fd has seen the EOF the client is Disconnected and
 * p9_client_prepare_req() refuses every request with EIO before it is
 * sent, which is the one error the client promises for a dead server.
 * The mount is dead (EIO) and unmounts with umount2(mnt, 0).
 * Returns the last value acknowledged, *died the one the server died
 * under (0: it never died).
 */
static int loop_drop(struct __test_metadata *_metadata,
		     FIXTURE_DATA(fault) *self, int extra, int *died)
{
	char text[64], spec[32];
	int k, acked = 0, ndead = 0, n = LOOP_REQS * LOOP_ACKED + extra;
	long dead_max = 0, fly_ms = 0, fly_r = 0;
	struct call c;

	*died = 0;
	loop_text(text, sizeof(text), 0);
	ASSERT_SET(self->p, A9_XA_ACCESS, text);
	ASSERT_ACL(self->p, A9_XA_ACCESS, text);
	self->fd = openat(self->dfd, "f", O_RDONLY);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", self->p, strerror(errno));
	ASSERT_LT(0, fgetxattr(self->fd, A9_XA_ACCESS, self->val, sizeof(self->val)))
		TH_LOG("fgetxattr %s: %s", self->p, strerror(errno));
	snprintf(spec, sizeof(spec), "drop-after=%d", n);
	ARM(spec);
	for (k = 1; k <= LOOP_N; k++) {
		loop_text(text, sizeof(text), k);
		ASSERT_EQ(ACL_LEN, a9_build(self->val, sizeof(self->val), text));
		c = do_call(self, OP_FSET);
		ASSERT_FALSE(c.hung) TH_LOG("set %d: fsetxattr did not return within %d s",
					    k, LIMIT_S);
		ASSERT_TRUE(WIFEXITED(c.status) && !WEXITSTATUS(c.status))
			TH_LOG("set %d: child ended with status 0x%x", k, c.status);
		if (!*died && !c.r) {
			acked = k;
			continue;
		}
		if (!*died) {
			*died = k;
			fly_r = c.r;
			fly_ms = c.ms;
			EXPECT_DEAD(c, OP_FSET);
			continue;
		}
		ndead++;
		if (c.ms > dead_max)
			dead_max = c.ms;
		EXPECT_EQ(-EIO, c.r) TH_LOG("set %d, the server dead: %s", k, res(c.r));
		EXPECT_GE(BOUND_MS, c.ms) TH_LOG("set %d took %ld ms", k, c.ms);
	}
	TH_LOG("%s: values 1-%d acknowledged, value %d failed (%s in %ld ms), the %d sets after it EIO in at most %ld ms",
	       spec, acked, *died, res(fly_r), fly_ms, ndead, dead_max);
	EXPECT_LT(0, *died) TH_LOG("%s: the server never died", spec);
	EXPECT_EQ(LOOP_ACKED, acked)
		TH_LOG("%s let %d sets through, not %d: not %d ACL requests a set",
		       spec, acked, LOOP_ACKED, LOOP_REQS);
	close(self->fd);
	self->fd = -1;
	expect_dead(_metadata, self);
	unmount(_metadata, self);
	return acked;
}

/*
 * drop-after on the Txattrcreate of value LOOP_ACKED + 1: a fresh
 * connection reads exactly the last acknowledged value and its mode,
 * and so does the host (HOSTCHECK): nothing acknowledged is lost, and
 * nothing of the value the server never saw arrived.
 */
TEST_F_TIMEOUT(fault, loop_drop_create, TEST_S)
{
	char text[64];
	int acked, died;

	acked = loop_drop(_metadata, self, 0, &died);
	loop_text(text, sizeof(text), acked);
	expect_stored(_metadata, self, text, loop_mode(acked));
}

/*
 * drop-after on the Twrite of value LOOP_ACKED + 1: its Txattrcreate
 * reached the server.  What a fresh connection reads is the last
 * acknowledged value or the one in flight, whole, with its mode,
 * nothing else; the host holds the same bytes (HOSTCHECK).  diod
 * stores an xattr when the fid its Txattrcreate made is clunked (or
 * destroyed with its connection), and the proxy SIGKILLs it at the drop,
 * before either: it is the last acknowledged value.
 */
TEST_F_TIMEOUT(fault, loop_drop_write, TEST_S)
{
	char last[64], fly[64], got[256], p[PATH_MAX], rel[512];
	int acked, died, mode;
	const char *seen = NULL;

	acked = loop_drop(_metadata, self, 1, &died);
	loop_text(last, sizeof(last), acked);
	loop_text(fly, sizeof(fly), died ? died : acked);
	read_fresh(_metadata, self, got, sizeof(got), &mode);
	if (died && !strcmp(got, fly)) {
		seen = fly;
		EXPECT_EQ(loop_mode(died), mode)
			TH_LOG("mode %04o with the value in flight (%d), expected %04o",
			       mode, died, loop_mode(died));
	} else {
		EXPECT_STREQ(last, got)
			TH_LOG("after the drop: neither the last acknowledged value (%d) nor the one in flight (%s)",
			       acked, fly);
		EXPECT_EQ(loop_mode(acked), mode)
			TH_LOG("mode %04o with the last acknowledged value (%d), expected %04o",
			       mode, acked, loop_mode(acked));
		if (!strcmp(got, last))
			seen = last;
	}
	TH_LOG("after the drop the server holds %s: %s, mode %04o",
	       seen == fly ? "the value in flight" :
	       seen ? "the last acknowledged value" : "neither", got, mode);
	/* the host holds what was read (the last acknowledged value if neither) */
	snprintf(rel, sizeof(rel), "%s/f", self->name);
	a9_hostcheck_text(a9_path(p, a9_mnt(), rel), A9_XA_ACCESS,
			  seen ? seen : last);
}

TEST_HARNESS_MAIN
