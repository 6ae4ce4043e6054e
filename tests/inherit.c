// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_inherit: objects created in a directory with a
 * default ACL get an access ACL derived from it, intersected with the
 * create mode (owner, mask/group, other); directories also inherit the
 * default ACL.  The umask is ignored where a default ACL applies and
 * applied where none does.
 */
#define _GNU_SOURCE	/* O_TMPFILE */
#include <sys/sysmacros.h>

#include "acl9p_test.h"

A9_FIXTURE(inherit, A9_PROBE)

static const char *DEF = "u::rwx,u:1001:rwx,g::r-x,g:1002:rw-,m::rwx,o::r--";

static void mkdefdir(struct __test_metadata *_metadata, char *p,
		     const char *dir, const char *name, const char *def)
{
	a9_path(p, dir, name);
	ASSERT_EQ(0, a9_mkdir(p, 0755));
	ASSERT_SET(p, A9_XA_DEFAULT, def);
}

TEST_F(inherit, file_gets_default_masked_by_mode_0666)
{
	mkdefdir(_metadata, self->q, self->dir, "d", DEF);
	a9_path(self->p, self->dir, "d/f");
	umask(022);
	ASSERT_EQ(0, a9_create(self->p, 0666));
	EXPECT_ACL(self->p, A9_XA_ACCESS,
		   "u::rw-,u:1001:rwx,g::r-x,g:1002:rw-,m::rw-,o::r--");
	EXPECT_MODE(self->p, 0664);
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
	a9_hostcheck_text(self->p, A9_XA_ACCESS,
			  "u::rw-,u:1001:rwx,g::r-x,g:1002:rw-,m::rw-,o::r--");
}

TEST_F(inherit, file_gets_default_masked_by_mode_0600)
{
	mkdefdir(_metadata, self->q, self->dir, "d", DEF);
	a9_path(self->p, self->dir, "d/f");
	ASSERT_EQ(0, a9_create(self->p, 0600));
	EXPECT_ACL(self->p, A9_XA_ACCESS,
		   "u::rw-,u:1001:rwx,g::r-x,g:1002:rw-,m::---,o::---");
	EXPECT_MODE(self->p, 0600);
}

TEST_F(inherit, file_gets_default_masked_by_mode_0640)
{
	mkdefdir(_metadata, self->q, self->dir, "d", DEF);
	a9_path(self->p, self->dir, "d/f");
	ASSERT_EQ(0, a9_create(self->p, 0640));
	EXPECT_ACL(self->p, A9_XA_ACCESS,
		   "u::rw-,u:1001:rwx,g::r-x,g:1002:rw-,m::r--,o::---");
	EXPECT_MODE(self->p, 0640);
}

TEST_F(inherit, umask_ignored_under_default_acl)
{
	char t[256];

	mkdefdir(_metadata, self->q, self->dir, "d", DEF);
	a9_path(self->p, self->dir, "d/f");
	umask(077);
	ASSERT_EQ(0, a9_create(self->p, 0666));
	EXPECT_MODE(self->p, 0664);
	ASSERT_EQ(0, a9_lib_get_text(self->p, 0, t, sizeof(t)));
	EXPECT_STREQ("u::rw-,u:1001:rwx,g::r-x,g:1002:rw-,m::rw-,o::r--", t);
}

TEST_F(inherit, umask_applied_without_default_acl)
{
	a9_path(self->q, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->q, 0777));
	a9_path(self->p, self->dir, "d/f");
	umask(027);
	ASSERT_EQ(0, a9_create(self->p, 0666));
	EXPECT_MODE(self->p, 0640);
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	a9_path(self->p, self->dir, "d/sub");
	ASSERT_EQ(0, mkdir(self->p, 0777));
	EXPECT_MODE(self->p, 0750);
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
}

TEST_F(inherit, minimal_default_gives_mode_without_xattr)
{
	mkdefdir(_metadata, self->q, self->dir, "d", "u::rwx,g::r-x,o::r--");
	a9_path(self->p, self->dir, "d/f");
	umask(077);
	ASSERT_EQ(0, a9_create(self->p, 0666));
	EXPECT_MODE(self->p, 0644);
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	a9_hostcheck(self->p, A9_XA_ACCESS, NULL, 0);
}

TEST_F(inherit, subdir_inherits_default_and_access)
{
	mkdefdir(_metadata, self->q, self->dir, "d", DEF);
	a9_path(self->p, self->dir, "d/sub");
	umask(077);
	ASSERT_EQ(0, mkdir(self->p, 0777));
	EXPECT_ACL(self->p, A9_XA_DEFAULT, DEF);
	EXPECT_ACL(self->p, A9_XA_ACCESS, DEF);
	EXPECT_MODE(self->p, 0774);
	a9_hostcheck_text(self->p, A9_XA_DEFAULT, DEF);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, DEF);
}

TEST_F(inherit, subdir_mode_0700_masks_access_keeps_default)
{
	mkdefdir(_metadata, self->q, self->dir, "d", DEF);
	a9_path(self->p, self->dir, "d/sub");
	ASSERT_EQ(0, mkdir(self->p, 0700));
	EXPECT_ACL(self->p, A9_XA_ACCESS,
		   "u::rwx,u:1001:rwx,g::r-x,g:1002:rw-,m::---,o::---");
	EXPECT_ACL(self->p, A9_XA_DEFAULT, DEF);
	EXPECT_MODE(self->p, 0700);
}

TEST_F(inherit, minimal_default_inherited_by_subdir)
{
	mkdefdir(_metadata, self->q, self->dir, "d", "u::rwx,g::---,o::---");
	a9_path(self->p, self->dir, "d/sub");
	ASSERT_EQ(0, mkdir(self->p, 0777));
	EXPECT_ACL(self->p, A9_XA_DEFAULT, "u::rwx,g::---,o::---");
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0700);
}

TEST_F(inherit, nested_subdirs_propagate_default)
{
	int i;

	mkdefdir(_metadata, self->q, self->dir, "d", DEF);
	a9_path(self->p, self->dir, "d");
	for (i = 0; i < 3; i++) {
		strcat(self->p, "/s");
		ASSERT_EQ(0, mkdir(self->p, 0777));
		EXPECT_ACL(self->p, A9_XA_DEFAULT, DEF);
	}
	strcat(self->p, "/f");
	ASSERT_EQ(0, a9_create(self->p, 0640));
	EXPECT_ACL(self->p, A9_XA_ACCESS,
		   "u::rw-,u:1001:rwx,g::r-x,g:1002:rw-,m::r--,o::---");
}

TEST_F(inherit, fifo_inherits_default)
{
	int r;

	mkdefdir(_metadata, self->q, self->dir, "d", DEF);
	a9_path(self->p, self->dir, "d/fifo");
	umask(077);
	r = mknod(self->p, S_IFIFO | 0666, 0) ? errno : 0;
	if (r == ENXIO)
		SKIP(return, "the share cannot make a FIFO (mknod S_IFIFO: ENXIO)");
	ASSERT_EQ(0, r) TH_LOG("mknod: %s", strerror(r));
	EXPECT_ACL(self->p, A9_XA_ACCESS,
		   "u::rw-,u:1001:rwx,g::r-x,g:1002:rw-,m::rw-,o::r--");
	EXPECT_MODE(self->p, 0664);
}

TEST_F(inherit, mknod_regular_inherits_default)
{
	mkdefdir(_metadata, self->q, self->dir, "d", DEF);
	a9_path(self->p, self->dir, "d/reg");
	ASSERT_EQ(0, mknod(self->p, S_IFREG | 0660, 0)) TH_LOG("mknod: %s", strerror(errno));
	EXPECT_ACL(self->p, A9_XA_ACCESS,
		   "u::rw-,u:1001:rwx,g::r-x,g:1002:rw-,m::rw-,o::---");
	EXPECT_MODE(self->p, 0660);
}

TEST_F(inherit, symlink_gets_no_acl)
{
	struct stat st;
	ssize_t r;

	mkdefdir(_metadata, self->q, self->dir, "d", DEF);
	a9_path(self->p, self->dir, "d/link");
	ASSERT_EQ(0, symlink("nowhere", self->p));
	ASSERT_EQ(0, lstat(self->p, &st)) TH_LOG("lstat %s: %s", self->p, strerror(errno));
	ASSERT_TRUE(S_ISLNK(st.st_mode)) TH_LOG("%s is no symlink: mode %o", self->p,
						(unsigned)st.st_mode);
	/* no ACL: none stored (ENODATA), or none a symlink can have (EOPNOTSUPP) */
	r = a9_get(self->p, A9_XA_ACCESS, NULL, 0);
	EXPECT_TRUE(r == -ENODATA || r == -EOPNOTSUPP)
		TH_LOG("lgetxattr(%s, %s): %s, expected ENODATA or EOPNOTSUPP", self->p,
		       A9_XA_ACCESS, r < 0 ? a9_errname((int)r) : "a value");
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_ACCESS));
}

TEST_F(inherit, existing_files_not_changed_by_new_default)
{
	a9_path(self->q, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->q, 0755));
	a9_path(self->p, self->dir, "d/old");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	ASSERT_SET(self->q, A9_XA_DEFAULT, DEF);
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0644);
}

TEST_F(inherit, rename_keeps_acl_and_does_not_inherit)
{
	const char *plain;

	mkdefdir(_metadata, self->q, self->dir, "d", DEF);
	a9_path(self->p, self->dir, "plain");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	/* moved into a default-ACL dir: still no ACL */
	a9_path(self->q, self->dir, "d/moved-in");
	ASSERT_EQ(0, rename(self->p, self->q));
	EXPECT_NOACL(self->q, A9_XA_ACCESS);
	EXPECT_MODE(self->q, 0644);
	/* created there, moved out: keeps the inherited ACL */
	a9_path(self->p, self->dir, "d/inherited");
	ASSERT_EQ(0, a9_create(self->p, 0640));
	plain = "u::rw-,u:1001:rwx,g::r-x,g:1002:rw-,m::r--,o::---";
	a9_path(self->q, self->dir, "moved-out");
	ASSERT_EQ(0, rename(self->p, self->q));
	EXPECT_ACL(self->q, A9_XA_ACCESS, plain);
}

TEST_F(inherit, default_with_only_named_group)
{
	const char *def = "u::rwx,g::---,g:1003:r-x,m::r-x,o::---";

	mkdefdir(_metadata, self->q, self->dir, "d", def);
	a9_path(self->p, self->dir, "d/f");
	ASSERT_EQ(0, a9_create(self->p, 0777));
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rwx,g::---,g:1003:r-x,m::r-x,o::---");
	EXPECT_MODE(self->p, 0750);
}

TEST_F(inherit, file_in_subdir_inherits_after_default_change)
{
	mkdefdir(_metadata, self->q, self->dir, "d", DEF);
	ASSERT_SET(self->q, A9_XA_DEFAULT, "u::rwx,u:1003:r--,g::r--,m::r--,o::---");
	a9_path(self->p, self->dir, "d/f");
	ASSERT_EQ(0, a9_create(self->p, 0666));
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1003:r--,g::r--,m::r--,o::---");
	EXPECT_MODE(self->p, 0640);
}

/*
 * A hard link is a new name for an inode that exists: linking into a
 * directory with a default ACL gives it nothing, with or without an
 * ACL of its own, and its mode stays.
 */
TEST_F(inherit, hard_link_inherits_nothing)
{
	char acl[PATH_MAX], plain[PATH_MAX];
	const char *own = "u::rw-,u:1003:r--,g::r--,m::r--,o::---";

	mkdefdir(_metadata, self->q, self->dir, "d", DEF);
	a9_path(plain, self->dir, "plain");
	ASSERT_EQ(0, a9_mkfile(plain, 0604, NULL));
	ASSERT_EQ(0, chmod(plain, 0604));
	a9_path(acl, self->dir, "withacl");
	ASSERT_EQ(0, a9_mkfile(acl, 0640, NULL));
	ASSERT_SET(acl, A9_XA_ACCESS, own);

	a9_path(self->p, self->dir, "d/plain");
	ASSERT_EQ(0, link(plain, self->p)) TH_LOG("link: %s", strerror(errno));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0604);
	a9_path(self->p, self->dir, "d/withacl");
	ASSERT_EQ(0, link(acl, self->p)) TH_LOG("link: %s", strerror(errno));
	EXPECT_ACL(self->p, A9_XA_ACCESS, own);
	EXPECT_MODE(self->p, 0640);
	a9_drop_caches();
	EXPECT_ACL(self->p, A9_XA_ACCESS, own);
	EXPECT_NOACL(plain, A9_XA_ACCESS);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, own);
}

/*
 * An O_TMPFILE file is created in its directory like any other (the
 * default ACL applies, masked by the create mode, umask ignored) and
 * keeps that ACL when linkat() gives it a name.  Not every filesystem
 * has O_TMPFILE (6.1's 9p has no ->tmpfile: EOPNOTSUPP): there the test
 * does not run.
 */
TEST_F(inherit, tmpfile_inherits_default_and_keeps_it_when_linked)
{
	const char *want = "u::rw-,u:1001:rwx,g::r-x,g:1002:rw-,m::rw-,o::---";
	char proc[64], got[4096];
	int fd, r;

	mkdefdir(_metadata, self->q, self->dir, "d", DEF);
	umask(077);
	fd = open(self->q, O_TMPFILE | O_RDWR, 0660);
	if (fd < 0 && errno == EOPNOTSUPP)
		SKIP(return, "no O_TMPFILE here: open(dir, O_TMPFILE) gives %s", a9_errname(-errno));
	ASSERT_LE(0, fd) TH_LOG("open(%s, O_TMPFILE): %s", self->q, strerror(errno));
	r = fgetxattr(fd, A9_XA_ACCESS, got, sizeof(got)) < 0 ? -errno : 0;
	EXPECT_EQ(0, r) TH_LOG("fgetxattr of the unnamed file: %s", a9_errname(r));
	a9_path(self->p, self->dir, "d/t");
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	ASSERT_EQ(0, linkat(AT_FDCWD, proc, AT_FDCWD, self->p, AT_SYMLINK_FOLLOW))
		TH_LOG("linkat: %s", strerror(errno));
	close(fd);
	EXPECT_ACL(self->p, A9_XA_ACCESS, want);
	EXPECT_MODE(self->p, 0660);
	a9_drop_caches();
	EXPECT_ACL(self->p, A9_XA_ACCESS, want);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, want);
}

TEST_HARNESS_MAIN
