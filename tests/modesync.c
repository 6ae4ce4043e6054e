// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_modesync: the access ACL and the mode are two views
 * of one thing.  Setting an access ACL updates the mode (group bits from
 * the mask), chmod rewrites the mask (and owner/other entries), an ACL
 * equivalent to a mode is not stored, and setting an ACL clears setgid
 * when the caller is neither in the owning group nor has CAP_FSETID.
 */
#include <time.h>
#include <sys/acl.h>
#include <linux/capability.h>

#include "acl9p_test.h"

A9_FIXTURE(modesync, A9_PROBE)

TEST_F(modesync, set_acl_sets_group_bits_from_mask)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,m::rwx,o::r--");
	EXPECT_MODE(self->p, 0674);
	/* the ACL keeps g:: as written, only the mode shows the mask */
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,m::rwx,o::r--");
}

TEST_F(modesync, set_acl_sets_owner_and_other_bits)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0000, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rwx,g::r--,g:1002:r--,m::r-x,o::--x");
	EXPECT_MODE(self->p, 0751);
}

TEST_F(modesync, libacl_set_updates_mode)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_EQ(0, a9_lib_set_text(self->p, 0, "u::r--,u:1001:rw-,g::---,m::rw-,o::r--"));
	EXPECT_MODE(self->p, 0464);
}

TEST_F(modesync, set_acl_on_dir_updates_mode)
{
	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0700));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rwx,u:1001:r-x,g::---,m::r-x,o::--x");
	EXPECT_MODE(self->p, 0751);
}

TEST_F(modesync, fstat_after_fsetxattr_shows_new_mode)
{
	unsigned char v[128];
	struct stat st;
	ssize_t n;
	int fd;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	fd = open(self->p, O_RDONLY);
	ASSERT_LE(0, fd);
	n = a9_build(v, sizeof(v), "u::rw-,u:1001:rwx,g::r--,m::rwx,o::r--");
	ASSERT_EQ(0, fsetxattr(fd, A9_XA_ACCESS, v, (size_t)n, 0));
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(0674u, (unsigned)(st.st_mode & 07777));
	close(fd);
}

TEST_F(modesync, chmod_rewrites_mask)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,m::rwx,o::r--");
	ASSERT_EQ(0, chmod(self->p, 0640));
	EXPECT_MODE(self->p, 0640);
	/* named entry and g:: untouched, mask = group bits */
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,m::r--,o::---");
	a9_hostcheck_text(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,m::r--,o::---");
}

TEST_F(modesync, chmod_rewrites_owner_and_other_entries)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,g:1002:rw-,m::rwx,o::r--");
	ASSERT_EQ(0, chmod(self->p, 0705));
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rwx,u:1001:rwx,g::r--,g:1002:rw-,m::---,o::r-x");
	EXPECT_MODE(self->p, 0705);
}

TEST_F(modesync, fchmod_rewrites_mask)
{
	int fd;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1003:rw-,g::r--,m::rw-,o::r--");
	fd = open(self->p, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fchmod(fd, 0610));
	close(fd);
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1003:rw-,g::r--,m::--x,o::---");
	EXPECT_MODE(self->p, 0610);
}

TEST_F(modesync, chmod_on_dir_rewrites_mask_keeps_default)
{
	const char *def = "u::rwx,u:1002:rwx,g::r-x,m::rwx,o::r-x";

	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::r-x");
	ASSERT_SET(self->p, A9_XA_DEFAULT, def);
	ASSERT_EQ(0, chmod(self->p, 0711));
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rwx,u:1001:rwx,g::r-x,m::--x,o::--x");
	EXPECT_ACL(self->p, A9_XA_DEFAULT, def);
}

TEST_F(modesync, chown_keeps_acl_and_mode)
{
	const char *t = "u::rw-,u:1001:rwx,g::r--,g:1002:r--,m::rwx,o::---";

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, t);
	ASSERT_EQ(0, chown(self->p, 1003, 1002));
	EXPECT_ACL(self->p, A9_XA_ACCESS, t);
	EXPECT_MODE(self->p, 0670);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, t);
}

TEST_F(modesync, chmod_same_mode_keeps_acl)
{
	const char *t = "u::rw-,u:1001:r--,g::r--,m::r--,o::---";

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, t);
	ASSERT_EQ(0, chmod(self->p, 0640));
	EXPECT_ACL(self->p, A9_XA_ACCESS, t);
}

TEST_F(modesync, equivalent_acl_stores_no_xattr)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,g::r--,o::r--");
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_ACCESS));
	EXPECT_MODE(self->p, 0644);
	a9_hostcheck(self->p, A9_XA_ACCESS, NULL, 0);
}

TEST_F(modesync, equivalent_acl_replaces_extended_acl)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rw-,g::r--,m::rw-,o::---");
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rwx,g::r-x,o::r--");
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0754);
	a9_hostcheck(self->p, A9_XA_ACCESS, NULL, 0);
}

TEST_F(modesync, mask_without_named_entries_is_stored)
{
	/* u,g,m,o with no named entry is still an extended ACL (the kernel's
	 * posix_acl_equiv_mode counts a mask as not equivalent): stored as
	 * written, group bits of the mode from the mask */
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,g::rwx,m::r--,o::---");
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,g::rwx,m::r--,o::---");
	EXPECT_MODE(self->p, 0640);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, "u::rw-,g::rwx,m::r--,o::---");
}

TEST_F(modesync, libacl_equivalent_acl_only_changes_mode)
{
	char t[128];

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	ASSERT_EQ(0, a9_lib_set_text(self->p, 0, "u::r--,g::---,o::---"));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0400);
	ASSERT_EQ(0, a9_lib_get_text(self->p, 0, t, sizeof(t)));
	EXPECT_STREQ("u::r--,g::---,o::---", t);
}

TEST_F(modesync, default_acl_does_not_change_dir_mode)
{
	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0750));
	ASSERT_SET(self->p, A9_XA_DEFAULT, "u::rwx,u:1001:rwx,g::rwx,m::rwx,o::rwx");
	EXPECT_MODE(self->p, 0750);
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
}

/*
 * Sleep long enough that a change made now gets a later ctime than a:
 * 50 ms where the server keeps nanoseconds, a full second where its
 * ctimes are whole seconds (1 s granularity).
 */
static void ctime_tick(const struct stat *a)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	if (!a->st_ctim.tv_nsec) {
		ts.tv_sec = 1;
		ts.tv_nsec = 0;
	}
	nanosleep(&ts, NULL);
}

static bool ctime_later(const struct stat *a, const struct stat *b)
{
	return b->st_ctim.tv_sec > a->st_ctim.tv_sec ||
	       (b->st_ctim.tv_sec == a->st_ctim.tv_sec &&
		b->st_ctim.tv_nsec > a->st_ctim.tv_nsec);
}

#define EXPECT_CTIME_LATER(a, b) \
	EXPECT_TRUE(ctime_later(&(a), &(b)))				\
		TH_LOG("ctime not updated: %ld.%09ld -> %ld.%09ld",	\
		       (long)(a).st_ctim.tv_sec, (a).st_ctim.tv_nsec,	\
		       (long)(b).st_ctim.tv_sec, (b).st_ctim.tv_nsec)

TEST_F(modesync, acl_change_updates_ctime)
{
	struct stat a, b;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	ASSERT_EQ(0, stat(self->p, &a));
	ctime_tick(&a);
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rw-,g::r--,m::rw-,o::r--");
	ASSERT_EQ(0, stat(self->p, &b));
	EXPECT_CTIME_LATER(a, b);
	/* the mtime is not an ACL's business */
	EXPECT_EQ(a.st_mtim.tv_sec, b.st_mtim.tv_sec);
	EXPECT_EQ(a.st_mtim.tv_nsec, b.st_mtim.tv_nsec);
}

/*
 * The ACL first, then second, on a new file of mode 0644, and the mode
 * the same after both: no mode change goes with the second ACL, and the
 * ctime moves all the same (6.1 and a local filesystem: the xattr
 * change is an inode change).  With cache=loose the stat answers from
 * the inode, which must have been told its attributes went stale.  The
 * mode is only logged: the set_acl_* tests judge it.
 */
static void ctime_moves_mode_kept(struct __test_metadata *_metadata,
				  char *p, const char *dir, const char *first,
				  const char *second)
{
	struct stat a, b;

	a9_path(p, dir, "f");
	ASSERT_EQ(0, a9_mkfile(p, 0644, NULL));
	ASSERT_SET(p, A9_XA_ACCESS, first);
	ASSERT_EQ(0, stat(p, &a));
	ctime_tick(&a);
	ASSERT_SET(p, A9_XA_ACCESS, second);
	ASSERT_EQ(0, stat(p, &b));
	TH_LOG("mode %04o -> %04o", a.st_mode & 07777, b.st_mode & 07777);
	EXPECT_CTIME_LATER(a, b);
}

/* a second named entry under the same mask: 0664 before and after */
TEST_F(modesync, ctime_after_acl_keeping_mode)
{
	ctime_moves_mode_kept(_metadata, self->p, self->dir,
			      "u::rw-,u:1001:rw-,g::r--,m::rw-,o::r--",
			      "u::rw-,u:1001:rw-,u:1002:r--,g::r--,m::rw-,o::r--");
}

/* an ACL the mode describes whole replaces an extended one: 0640 */
TEST_F(modesync, ctime_after_equivalent_acl)
{
	ctime_moves_mode_kept(_metadata, self->p, self->dir,
			      "u::rw-,u:1001:r--,g::r--,m::r--,o::---",
			      "u::rw-,g::r--,o::---");
}

/* ---- setgid and the caller's group membership */

struct setacl_arg {
	const char *path;
	const char *text;
};

static int fn_setacl(void *arg)
{
	struct setacl_arg *a = arg;

	return -a9_set_text(a->path, A9_XA_ACCESS, a->text);
}

static void setgid_case(struct __test_metadata *_metadata, const char *dir,
			char *p, const struct a9_cred *c, const char *text,
			mode_t expect)
{
	struct setacl_arg arg = { p, text };
	int r;

	a9_path(p, dir, "f");
	ASSERT_EQ(0, a9_mkfile(p, 0770, NULL));
	ASSERT_EQ(0, chown(p, 1000, 1001));
	ASSERT_EQ(0, chmod(p, 02770));
	ASSERT_EQ(02770, a9_mode(p));
	A9_RUN_AS(r, c, fn_setacl, &arg);
	ASSERT_EQ(0, r) TH_LOG("owner uid %u could not set the ACL: %s",
			       (unsigned)c->uid, a9_errname(r));
	EXPECT_MODE(p, expect);
}

TEST_F(modesync, setgid_cleared_when_caller_not_in_group)
{
	struct a9_cred c = { .uid = 1000, .gid = 1000 };

	setgid_case(_metadata, self->dir, self->p, &c,
		    "u::rwx,u:1002:r--,g::rwx,m::rwx,o::---", 0770);
}

TEST_F(modesync, setgid_cleared_by_equivalent_acl_too)
{
	struct a9_cred c = { .uid = 1000, .gid = 1000 };

	setgid_case(_metadata, self->dir, self->p, &c, "u::rwx,g::r-x,o::---", 0750);
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
}

TEST_F(modesync, setgid_kept_when_caller_in_group)
{
	struct a9_cred c = { .uid = 1000, .gid = 1000, .ngroups = 1, .groups = { 1001 } };

	setgid_case(_metadata, self->dir, self->p, &c,
		    "u::rwx,u:1002:r--,g::rwx,m::rwx,o::---", 02770);
}

TEST_F(modesync, setgid_kept_when_primary_group_matches)
{
	struct a9_cred c = { .uid = 1000, .gid = 1001 };

	setgid_case(_metadata, self->dir, self->p, &c,
		    "u::rwx,u:1002:r--,g::rwx,m::rwx,o::---", 02770);
}

TEST_F(modesync, setgid_kept_with_cap_fsetid)
{
	struct a9_cred c = { .uid = 1000, .gid = 1000, .ncaps = 1, .caps = { CAP_FSETID } };

	setgid_case(_metadata, self->dir, self->p, &c,
		    "u::rwx,u:1002:r--,g::rwx,m::rwx,o::---", 02770);
}

TEST_HARNESS_MAIN
