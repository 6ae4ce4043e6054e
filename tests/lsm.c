// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_lsm: the LSM hooks of POSIX ACLs, with Smack.  The series adds
 * security_inode_{set,get,remove}_acl() (patch 6) and calls them, not
 * the xattr hooks, for ACL names (patches 8 and 15); Smack implements
 * them with the access a write, read or removal of any other xattr
 * needs.  6.1 decided the same through smack_inode_{setxattr,getxattr,
 * removexattr}, so the errno is the same on both kernels; which hook
 * decided shows in Smack's audit record of the denial ("fn=..."), read
 * back from the kernel log.
 *
 * Smack is built into the rig's kernel but off; it is on in the cells
 * that boot with lsm=smack (tests/matrix.conf, opts=smack).  Elsewhere
 * the tests skip, with the reason.  A caller is given a Smack label of
 * its own and then drops to uid 1001, which owns the file: the mode bits
 * and ACL allow it what it tries, only Smack refuses.  With no rule, a
 * label may read and not write the floor label "_" that unlabelled
 * files have; an object label with no rule may not even be read.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>

#include "acl9p_test.h"

#define SMACKFS		"/sys/fs/smackfs"
#define ACL		"u::rw-,u:1002:r--,g::r--,m::r--,o::r--"
#define NEWACL		"u::rw-,u:1003:rw-,g::r--,m::rw-,o::r--"

FIXTURE(lsm) {
	char dir[PATH_MAX];
	char ldir[PATH_MAX];
	char p[PATH_MAX];
	char name[128];
};

FIXTURE_SETUP(lsm)
{
	struct stat st;
	int r;

	if (stat(SMACKFS, &st))
		A9_SETUP_SKIP("Smack is not active in this boot (no %s; the cell boots without lsm=smack)",
			      SMACKFS);
	r = A9_ERR(mount("smackfs", SMACKFS, "smackfs", 0, NULL));
	ASSERT_TRUE(r == 0 || r == -EBUSY) TH_LOG("mount smackfs: %s", a9_errname(r));
	a9_setup(_metadata, "lsm", self->dir, sizeof(self->dir),
		 self->ldir, sizeof(self->ldir), A9_PROBE);
	/*
	 * The file's name is in Smack's audit record: one per test, and
	 * the same in every boot (a pid is not: the host checks name the
	 * file, and the A/B pairs them by name across the two kernels)
	 */
	snprintf(self->name, sizeof(self->name), "lsm-%s", _metadata->name);
	a9_path(self->p, self->dir, self->name);
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, "data\n"));
	ASSERT_SET(self->p, A9_XA_ACCESS, ACL);
	ASSERT_EQ(0, A9_ERR(chown(self->p, 1001, 1001)));
}

FIXTURE_TEARDOWN(lsm)
{
}

/* what the labelled child does to path: 'g'et, 's'et or 'r'emove */
struct op {
	const char *path;
	char what;
};

/*
 * Run op as a process with Smack label label (NULL: keep the floor
 * label) and uid/gid 1001, no capabilities.  Returns 0 or the errno.
 */
static int as_label(const char *label, const struct op *op)
{
	char v[512];
	pid_t pid;
	int st, r;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		/* needs CAP_MAC_ADMIN: before the uid switch drops it */
		if (label && a9_write_file("/proc/self/attr/current", label))
			_exit(201);
		if (setgroups(0, NULL) || setresgid(1001, 1001, 1001) ||
		    setresuid(1001, 1001, 1001))
			_exit(202);
		switch (op->what) {
		case 'g':
			r = getxattr(op->path, A9_XA_ACCESS, v, sizeof(v)) < 0 ? errno : 0;
			break;
		case 's':
			r = -a9_set_text(op->path, A9_XA_ACCESS, NEWACL);
			break;
		default:
			r = removexattr(op->path, A9_XA_ACCESS) ? errno : 0;
			break;
		}
		_exit(r);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

#define AS_LABEL(res, label, op) do {					\
	(res) = as_label(label, op);					\
	ASSERT_TRUE((res) >= 0 && (res) < 200)				\
		TH_LOG("labelled child: %s", (res) == 201 ?		\
		       "cannot set its Smack label" : "setup failed");	\
} while (0)

/* give label access to object (a Smack rule; "-" takes it away) */
static int smack_rule(const char *label, const char *object, const char *access)
{
	char rule[256];

	snprintf(rule, sizeof(rule), "%s %s %s", label, object, access);
	return a9_write_file(SMACKFS "/load2", rule);
}

/*
 * Wait up to 3 s for Smack's audit record of a denial on name: kauditd
 * prints it after the syscall returned.  Fills fn with its "fn=" value.
 */
static int denial_fn(const char *name, char *fn, size_t fnsz)
{
	char rec[2048], key[128];
	struct timespec t0, t;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int found = 0;

	if (fd < 0)
		return -errno;
	snprintf(key, sizeof(key), "name=\"%s\"", name);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);

		if (n > 0) {
			char *f;

			rec[n] = 0;
			if (!strstr(rec, "lsm=SMACK") || !strstr(rec, key))
				continue;
			f = strstr(rec, " fn=");
			if (!f)
				continue;
			snprintf(fn, fnsz, "%.*s", (int)strcspn(f + 4, " \n"), f + 4);
			found = 1;
			break;
		}
		if (n < 0 && errno == EPIPE)	/* overwritten: go on */
			continue;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec >= 3)
			break;
		usleep(20000);
	}
	close(fd);
	return found ? 0 : -ENOENT;
}

/* with no rule, a label reads but does not write the floor label "_" */
TEST_F(lsm, set_and_remove_need_smack_write)
{
	struct op set = { self->p, 's' }, rm = { self->p, 'r' },
		  get = { self->p, 'g' };
	int r;

	AS_LABEL(r, "acl9p-ro", &set);
	EXPECT_ERRNO(-EACCES, -r);
	AS_LABEL(r, "acl9p-ro", &rm);
	EXPECT_ERRNO(-EACCES, -r);
	AS_LABEL(r, "acl9p-ro", &get);
	EXPECT_ERRNO(0, -r);
	EXPECT_ACL(self->p, A9_XA_ACCESS, ACL);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, ACL);
}

/* the same caller with the floor label: mode bits and ACL let it */
TEST_F(lsm, owner_sets_acl_with_floor_label)
{
	struct op set = { self->p, 's' };
	int r;

	AS_LABEL(r, NULL, &set);
	EXPECT_ERRNO(0, -r);
	EXPECT_ACL(self->p, A9_XA_ACCESS, NEWACL);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, NEWACL);
}

TEST_F(lsm, smack_rule_grants_set_acl)
{
	struct op set = { self->p, 's' };
	int r;

	ASSERT_EQ(0, smack_rule("acl9p-rw", "_", "rw"));
	AS_LABEL(r, "acl9p-rw", &set);
	EXPECT_ERRNO(0, -r);
	EXPECT_ACL(self->p, A9_XA_ACCESS, NEWACL);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, NEWACL);
	smack_rule("acl9p-rw", "_", "-");
}

/* a labelled object that the caller's label has no rule for */
static void label_object(struct __test_metadata *_metadata, const char *p)
{
	int r = A9_ERR(setxattr(p, "security.SMACK64", "acl9p-obj", 9, 0));

	if (r == -EOPNOTSUPP)
		SKIP(return, "%s keeps no Smack labels (setxattr security.SMACK64: EOPNOTSUPP)",
		     a9_mnt());
	ASSERT_EQ(0, r) TH_LOG("setxattr security.SMACK64: %s", a9_errname(r));
}

TEST_F(lsm, get_needs_smack_read)
{
	struct op get = { self->p, 'g' };
	int r;

	label_object(_metadata, self->p);
	if (_metadata->skip)
		return;
	AS_LABEL(r, "acl9p-ro", &get);
	EXPECT_ERRNO(-EACCES, -r);
	ASSERT_EQ(0, smack_rule("acl9p-ro", "acl9p-obj", "r"));
	AS_LABEL(r, "acl9p-ro", &get);
	EXPECT_ERRNO(0, -r);
	smack_rule("acl9p-ro", "acl9p-obj", "-");
}

/*
 * Which hook refused: the series' smack_inode_set_acl() and
 * smack_inode_remove_acl(), not the xattr hooks 6.1 went through.
 */
TEST_F(lsm, set_denial_is_the_acl_hook)
{
	struct op set = { self->p, 's' };
	char fn[128] = "";
	int r;

	AS_LABEL(r, "acl9p-ro", &set);
	ASSERT_ERRNO(-EACCES, -r);
	r = denial_fn(self->name, fn, sizeof(fn));
	ASSERT_EQ(0, r) TH_LOG("no Smack audit record of the denial on %s in /dev/kmsg: %s",
			       self->name, a9_errname(r));
	EXPECT_STREQ("smack_inode_set_acl", fn);
}

TEST_F(lsm, remove_denial_is_the_acl_hook)
{
	struct op rm = { self->p, 'r' };
	char fn[128] = "";
	int r;

	AS_LABEL(r, "acl9p-ro", &rm);
	ASSERT_ERRNO(-EACCES, -r);
	r = denial_fn(self->name, fn, sizeof(fn));
	ASSERT_EQ(0, r) TH_LOG("no Smack audit record of the denial on %s in /dev/kmsg: %s",
			       self->name, a9_errname(r));
	EXPECT_STREQ("smack_inode_remove_acl", fn);
}

TEST_F(lsm, get_denial_is_the_acl_hook)
{
	struct op get = { self->p, 'g' };
	char fn[128] = "";
	int r;

	label_object(_metadata, self->p);
	if (_metadata->skip)
		return;
	AS_LABEL(r, "acl9p-ro", &get);
	ASSERT_ERRNO(-EACCES, -r);
	r = denial_fn(self->name, fn, sizeof(fn));
	ASSERT_EQ(0, r) TH_LOG("no Smack audit record of the denial on %s in /dev/kmsg: %s",
			       self->name, a9_errname(r));
	EXPECT_STREQ("smack_inode_get_acl", fn);
}

TEST_HARNESS_MAIN
