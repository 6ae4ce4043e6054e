// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_absence: what happens where there is no ACL, where
 * an ACL cannot be, and on a mount without posixacl.
 *
 * Where the kernel's answer is a matter of VFS/filesystem rules (removing a
 * missing ACL, a default ACL on a regular file, ACLs on symlinks) the test
 * performs the same operation on the local tmpfs ($ACL9P_LOCAL, in the
 * guest: the same kernel) and asserts the 9p share answers the same, and
 * that the local answer is the one Linux 6.1 gives: tmpfs runs through
 * the same VFS ACL code as 9p, so a bug there would otherwise give the
 * same wrong answer on both sides and pass.
 * Note: Linux (6.1 and 6.18 tmpfs, ext4) answers 0, not ENODATA, to
 * removexattr of a system.posix_acl_* that is not there: the ACL xattr
 * handlers treat removal as "set no ACL".
 */
#include "acl9p_test.h"

A9_FIXTURE(absence, A9_PROBE)

typedef int (*op_fn)(const char *base);

/*
 * Run op in the share dir and in the local twin; expect equal results,
 * and the local one to be linux61, what Linux 6.1's tmpfs answers (and
 * the share too when there is no local twin).  Returns the share result.
 */
static int same_as_local(struct __test_metadata *_metadata, op_fn op,
			 const char *dir, const char *ldir, int linux61,
			 const char *what)
{
	int rs = op(dir);
	int rl = ldir[0] ? op(ldir) : linux61;

	EXPECT_EQ(rl, rs) TH_LOG("%s: 9p share gave %s, local tmpfs gave %s",
				 what, a9_errname(rs), a9_errname(rl));
	EXPECT_EQ(linux61, rl) TH_LOG("%s: local tmpfs gave %s, Linux 6.1 gives %s",
				      what, a9_errname(rl), a9_errname(linux61));
	return rs;
}

TEST_F(absence, access_acl_absent_on_new_file)
{
	char buf[64];

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	EXPECT_ERRNO(-ENODATA, (int)a9_get(self->p, A9_XA_ACCESS, NULL, 0));
	EXPECT_ERRNO(-ENODATA, (int)a9_get(self->p, A9_XA_ACCESS, buf, sizeof(buf)));
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_ACCESS));
	a9_hostcheck(self->p, A9_XA_ACCESS, NULL, 0);
}

TEST_F(absence, access_acl_absent_on_new_dir)
{
	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	EXPECT_ERRNO(-ENODATA, (int)a9_get(self->p, A9_XA_ACCESS, NULL, 0));
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_ACCESS));
}

TEST_F(absence, default_acl_absent_on_new_dir)
{
	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	EXPECT_ERRNO(-ENODATA, (int)a9_get(self->p, A9_XA_DEFAULT, NULL, 0));
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_DEFAULT));
	a9_hostcheck(self->p, A9_XA_DEFAULT, NULL, 0);
}

TEST_F(absence, libacl_synthesizes_acl_from_mode)
{
	char t[256];

	/* no xattr: acl_get_file returns the minimal ACL equal to the mode */
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0751, NULL));
	ASSERT_EQ(0, a9_lib_get_text(self->p, 0, t, sizeof(t)));
	EXPECT_STREQ("u::rwx,g::r-x,o::--x", t);
}

static int op_get_default_on_file(const char *base)
{
	char p[PATH_MAX];
	int r;

	a9_path(p, base, "f");
	r = a9_mkfile(p, 0644, NULL);
	if (r)
		return 1000 + -r;
	return (int)a9_get(p, A9_XA_DEFAULT, NULL, 0);
}

TEST_F(absence, get_default_acl_of_regular_file)
{
	same_as_local(_metadata, op_get_default_on_file, self->dir, self->ldir,
		      -ENODATA, "getxattr(default) on a regular file");
}

static int op_remove_missing_access(const char *base)
{
	char p[PATH_MAX];
	int r;

	a9_path(p, base, "f");
	r = a9_mkfile(p, 0644, NULL);
	if (r)
		return 1000 + -r;
	return a9_remove(p, A9_XA_ACCESS);
}

TEST_F(absence, remove_missing_access_acl)
{
	same_as_local(_metadata, op_remove_missing_access, self->dir,
		      self->ldir, 0, "removexattr(access) without ACL");
	a9_path(self->p, self->dir, "f");
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0644);
}

static int op_remove_missing_default(const char *base)
{
	char p[PATH_MAX];
	int r;

	a9_path(p, base, "d");
	r = a9_mkdir(p, 0755);
	if (r)
		return 1000 + -r;
	return a9_remove(p, A9_XA_DEFAULT);
}

TEST_F(absence, remove_missing_default_acl)
{
	same_as_local(_metadata, op_remove_missing_default, self->dir,
		      self->ldir, 0, "removexattr(default) without ACL");
	a9_path(self->p, self->dir, "d");
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
	EXPECT_MODE(self->p, 0755);
}

static int op_set_default_on_file(const char *base)
{
	char p[PATH_MAX];
	int r;

	a9_path(p, base, "f");
	r = a9_mkfile(p, 0644, NULL);
	if (r)
		return 1000 + -r;
	return a9_set_text(p, A9_XA_DEFAULT, "u::rwx,u:1001:r-x,g::r-x,m::r-x,o::---");
}

TEST_F(absence, set_default_acl_on_regular_file)
{
	same_as_local(_metadata, op_set_default_on_file, self->dir, self->ldir,
		      -EACCES, "setxattr(default) on a regular file");
	a9_path(self->p, self->dir, "f");
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0644);
	a9_hostcheck(self->p, A9_XA_DEFAULT, NULL, 0);
}

static int op_set_minimal_default_on_file(const char *base)
{
	char p[PATH_MAX];
	int r;

	a9_path(p, base, "f");
	r = a9_mkfile(p, 0644, NULL);
	if (r)
		return 1000 + -r;
	return a9_set_text(p, A9_XA_DEFAULT, "u::rwx,g::r-x,o::---");
}

TEST_F(absence, set_minimal_default_acl_on_regular_file)
{
	same_as_local(_metadata, op_set_minimal_default_on_file, self->dir,
		      self->ldir, -EACCES,
		      "setxattr(minimal default) on a regular file");
	a9_path(self->p, self->dir, "f");
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
	EXPECT_MODE(self->p, 0644);
}

static int op_libacl_default_on_file(const char *base)
{
	char p[PATH_MAX];
	int r;

	a9_path(p, base, "f");
	r = a9_mkfile(p, 0644, NULL);
	if (r)
		return 1000 + -r;
	return a9_lib_set_text(p, 1, "u::rwx,g::r-x,g:1002:rwx,m::rwx,o::---");
}

TEST_F(absence, libacl_default_acl_on_regular_file)
{
	same_as_local(_metadata, op_libacl_default_on_file, self->dir,
		      self->ldir, -EACCES, "acl_set_file(DEFAULT) on a regular file");
}

static int op_remove_default_on_file(const char *base)
{
	char p[PATH_MAX];
	int r;

	a9_path(p, base, "f");
	r = a9_mkfile(p, 0644, NULL);
	if (r)
		return 1000 + -r;
	return a9_remove(p, A9_XA_DEFAULT);
}

TEST_F(absence, remove_default_acl_of_regular_file)
{
	same_as_local(_metadata, op_remove_default_on_file, self->dir,
		      self->ldir, 0, "removexattr(default) on a regular file");
}

/* symlinks: make "t" (file) and "s" -> "t" */
static int mk_link(const char *base, char *s, char *t)
{
	int r;

	a9_path(t, base, "t");
	a9_path(s, base, "s");
	r = a9_mkfile(t, 0644, NULL);
	if (r)
		return r;
	return symlink("t", s) ? -errno : 0;
}

static int op_lset_access_on_symlink(const char *base)
{
	char s[PATH_MAX], t[PATH_MAX];
	int r = mk_link(base, s, t);

	if (r)
		return 1000 + -r;
	return a9_set_text(s, A9_XA_ACCESS, "u::rw-,u:1001:rw-,g::r--,m::rw-,o::r--");
}

TEST_F(absence, lsetxattr_access_acl_on_symlink)
{
	same_as_local(_metadata, op_lset_access_on_symlink, self->dir,
		      self->ldir, -EOPNOTSUPP, "lsetxattr(access) on a symlink");
	/* the target is untouched */
	a9_path(self->p, self->dir, "t");
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0644);
}

static int op_lset_default_on_symlink(const char *base)
{
	char s[PATH_MAX], t[PATH_MAX];
	int r = mk_link(base, s, t);

	if (r)
		return 1000 + -r;
	return a9_set_text(s, A9_XA_DEFAULT, "u::rwx,g::r-x,o::---");
}

TEST_F(absence, lsetxattr_default_acl_on_symlink)
{
	same_as_local(_metadata, op_lset_default_on_symlink, self->dir,
		      self->ldir, -EOPNOTSUPP, "lsetxattr(default) on a symlink");
}

static int op_lget_access_on_symlink(const char *base)
{
	char s[PATH_MAX], t[PATH_MAX];
	int r = mk_link(base, s, t);

	if (r)
		return 1000 + -r;
	/* give the target an ACL: the symlink must not report it */
	r = a9_set_text(t, A9_XA_ACCESS, "u::rw-,u:1001:rw-,g::r--,m::rw-,o::r--");
	if (r)
		return 2000 + -r;
	return (int)a9_get(s, A9_XA_ACCESS, NULL, 0);
}

TEST_F(absence, lgetxattr_access_acl_on_symlink)
{
	same_as_local(_metadata, op_lget_access_on_symlink, self->dir,
		      self->ldir, -EOPNOTSUPP, "lgetxattr(access) on a symlink");
}

static int op_lremove_on_symlink(const char *base)
{
	char s[PATH_MAX], t[PATH_MAX];
	int r = mk_link(base, s, t);

	if (r)
		return 1000 + -r;
	r = a9_set_text(t, A9_XA_ACCESS, "u::rw-,u:1001:rw-,g::r--,m::rw-,o::r--");
	if (r)
		return 2000 + -r;
	return a9_remove(s, A9_XA_ACCESS);
}

TEST_F(absence, lremovexattr_access_acl_on_symlink)
{
	same_as_local(_metadata, op_lremove_on_symlink, self->dir, self->ldir,
		      -EOPNOTSUPP, "lremovexattr(access) on a symlink");
	/* the target keeps its ACL */
	a9_path(self->p, self->dir, "t");
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rw-,g::r--,m::rw-,o::r--");
}

TEST_F(absence, setxattr_through_symlink_sets_target)
{
	char s[PATH_MAX], t[PATH_MAX];
	unsigned char v[128];
	ssize_t n;

	ASSERT_EQ(0, mk_link(self->dir, s, t));
	n = a9_build(v, sizeof(v), "u::rw-,u:1002:r--,g::r--,m::r--,o::---");
	ASSERT_EQ(0, setxattr(s, A9_XA_ACCESS, v, (size_t)n, 0))
		TH_LOG("setxattr via symlink: %s", strerror(errno));
	EXPECT_ACL(t, A9_XA_ACCESS, "u::rw-,u:1002:r--,g::r--,m::r--,o::---");
	EXPECT_MODE(t, 0640);
	EXPECT_EQ(n, getxattr(s, A9_XA_ACCESS, v, sizeof(v)));
}

/* ---- the same export mounted without posixacl ($ACL9P_MNT_NOACL) */

FIXTURE(noacl) {
	char dir[PATH_MAX];	/* work dir via the posixacl mount */
	char ndir[PATH_MAX];	/* the same dir via the noacl mount */
	char p[PATH_MAX];
	char q[PATH_MAX];
};

FIXTURE_SETUP(noacl)
{
	const char *n = getenv("ACL9P_MNT_NOACL");
	struct stat st;

	if (!n || !*n)
		A9_SETUP_SKIP("ACL9P_MNT_NOACL not set: no mount without posixacl");
	if (stat(n, &st))
		A9_SETUP_SKIP("ACL9P_MNT_NOACL=%s: %s", n, strerror(errno));
	/* the tests set ACLs through the main mount: probe it */
	a9_setup(_metadata, "noacl", self->dir, sizeof(self->dir), NULL, 0,
		 A9_PROBE);
	snprintf(self->ndir, sizeof(self->ndir), "%s%s", n,
		 self->dir + strlen(a9_mnt()));
	ASSERT_EQ(0, stat(self->ndir, &st))
		TH_LOG("work dir not visible through %s: %s", self->ndir,
		       strerror(errno));
}

FIXTURE_TEARDOWN(noacl)
{
}

TEST_F(noacl, setxattr_acl_is_eopnotsupp)
{
	a9_path(self->p, self->ndir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	EXPECT_ERRNO(-EOPNOTSUPP, a9_set_text(self->p, A9_XA_ACCESS,
			"u::rw-,u:1001:rw-,g::r--,m::rw-,o::r--"));
	/* nothing was stored, the mode is unchanged */
	EXPECT_MODE(self->p, 0644);
	a9_path(self->q, self->dir, "f");
	EXPECT_NOACL(self->q, A9_XA_ACCESS);
	a9_hostcheck(self->q, A9_XA_ACCESS, NULL, 0);
}

TEST_F(noacl, getxattr_acl_is_eopnotsupp)
{
	const char *t = "u::rw-,u:1001:rw-,g::r--,m::rw-,o::r--";

	/* an ACL set through the posixacl mount is not visible here */
	a9_path(self->q, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->q, 0644, NULL));
	ASSERT_SET(self->q, A9_XA_ACCESS, t);
	a9_path(self->p, self->ndir, "f");
	EXPECT_ERRNO(-EOPNOTSUPP, (int)a9_get(self->p, A9_XA_ACCESS, NULL, 0));
	EXPECT_ERRNO(-EOPNOTSUPP, (int)a9_get(self->p, A9_XA_DEFAULT, NULL, 0));
}

TEST_F(noacl, setfacl_fails)
{
	char out[4096], err[4096];
	char *argv[] = { (char *)a9_tool("setfacl"), "-m", "u:1001:rw", self->p, NULL };
	int st;

	a9_path(self->p, self->ndir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	st = a9_run_cmd(NULL, argv, out, sizeof(out), err, sizeof(err));
	EXPECT_NE(0, st) TH_LOG("setfacl succeeded on a mount without posixacl");
	EXPECT_NE(NULL, strstr(err, "not supported")) TH_LOG("stderr: %s", err);
	EXPECT_MODE(self->p, 0644);
}

TEST_F(noacl, create_ignores_default_acl)
{
	/* default ACL set via the posixacl mount; create via the noacl mount:
	 * no inheritance, umask applies */
	a9_path(self->q, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->q, 0777));
	ASSERT_SET(self->q, A9_XA_DEFAULT, "u::rwx,u:1001:rwx,g::rwx,m::rwx,o::rwx");
	a9_path(self->p, self->ndir, "d/f");
	umask(022);
	ASSERT_EQ(0, close(open(self->p, O_CREAT | O_WRONLY | O_EXCL, 0666)));
	EXPECT_MODE(self->p, 0644);
	a9_path(self->q, self->dir, "d/f");
	EXPECT_NOACL(self->q, A9_XA_ACCESS);
	EXPECT_MODE(self->q, 0644);
	a9_hostcheck(self->q, A9_XA_ACCESS, NULL, 0);
}

TEST_F(noacl, chmod_works_and_no_acl_listed)
{
	a9_path(self->p, self->ndir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	ASSERT_EQ(0, chmod(self->p, 0600));
	EXPECT_MODE(self->p, 0600);
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_ACCESS));
}

TEST_HARNESS_MAIN
