// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_remove: removing ACLs with removexattr and with
 * setfacl -b / -k / -x leaves a plain mode and changes nothing else
 * (owner, group, contents, other ACL, other xattrs).
 */
#include "acl9p_test.h"

A9_FIXTURE(remove, A9_PROBE)

static const char *EXT = "u::rw-,u:1001:rwx,g::r--,g:1002:r--,m::rwx,o::---";

static int setfacl(const char *a1, const char *a2, const char *path)
{
	char out[4096], err[4096];
	char *argv[5];
	int i = 0, st;

	argv[i++] = (char *)a9_tool("setfacl");
	argv[i++] = (char *)a1;
	if (a2)
		argv[i++] = (char *)a2;
	argv[i++] = (char *)path;
	argv[i] = NULL;
	st = a9_run_cmd(NULL, argv, out, sizeof(out), err, sizeof(err));
	if (st)
		fprintf(stderr, "# setfacl %s %s %s: exit %d: %s\n", a1,
			a2 ? a2 : "", path, st, err);
	return st;
}

struct snap {
	struct stat st;
	char content[64];
};

static void take(struct __test_metadata *_metadata, const char *p, struct snap *s)
{
	ASSERT_EQ(0, lstat(p, &s->st));
	s->content[0] = 0;
	if (S_ISREG(s->st.st_mode))
		ASSERT_LE(0, a9_read_file(p, s->content, sizeof(s->content)));
}

/* owner, group, size, type and contents unchanged; mode as given */
static void same_except_mode(struct __test_metadata *_metadata, const char *p,
			     const struct snap *before, mode_t mode)
{
	struct snap now;

	take(_metadata, p, &now);
	EXPECT_EQ(before->st.st_uid, now.st.st_uid);
	EXPECT_EQ(before->st.st_gid, now.st.st_gid);
	EXPECT_EQ(before->st.st_size, now.st.st_size);
	EXPECT_EQ(before->st.st_mode & S_IFMT, now.st.st_mode & S_IFMT);
	EXPECT_STREQ(before->content, now.content);
	EXPECT_EQ((unsigned)mode, (unsigned)(now.st.st_mode & 07777))
		TH_LOG("mode %04o, expected %04o", now.st.st_mode & 07777, mode);
}

TEST_F(remove, removexattr_access_leaves_mode)
{
	struct snap s;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, "hello"));
	ASSERT_EQ(0, chown(self->p, 1000, 1001));
	ASSERT_SET(self->p, A9_XA_ACCESS, EXT);
	EXPECT_MODE(self->p, 0670);
	take(_metadata, self->p, &s);
	ASSERT_EQ(0, a9_remove(self->p, A9_XA_ACCESS));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_ACCESS));
	/* the mode the ACL left behind stays (group bits = former mask) */
	same_except_mode(_metadata, self->p, &s, 0670);
	a9_hostcheck(self->p, A9_XA_ACCESS, NULL, 0);
}

TEST_F(remove, fremovexattr_access_leaves_mode)
{
	struct snap s;
	int fd;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, "x"));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1003:r--,g::---,m::r--,o::---");
	take(_metadata, self->p, &s);
	fd = open(self->p, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fremovexattr(fd, A9_XA_ACCESS)) TH_LOG("%s", strerror(errno));
	close(fd);
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	same_except_mode(_metadata, self->p, &s, 0640);
}

TEST_F(remove, removexattr_access_then_libacl_sees_mode)
{
	char t[256];

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rw-,g::r--,m::rw-,o::r--");
	ASSERT_EQ(0, a9_remove(self->p, A9_XA_ACCESS));
	ASSERT_EQ(0, a9_lib_get_text(self->p, 0, t, sizeof(t)));
	EXPECT_STREQ("u::rw-,g::rw-,o::r--", t);
	/* a later chmod works on the plain mode and brings nothing back */
	ASSERT_EQ(0, chmod(self->p, 0600));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0600);
}

TEST_F(remove, removexattr_default_keeps_access_acl)
{
	const char *acc = "u::rwx,u:1001:r-x,g::r-x,m::r-x,o::---";
	struct snap s;

	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0750));
	ASSERT_SET(self->p, A9_XA_ACCESS, acc);
	ASSERT_SET(self->p, A9_XA_DEFAULT, "u::rwx,u:1002:rwx,g::r-x,m::rwx,o::---");
	take(_metadata, self->p, &s);
	ASSERT_EQ(0, a9_remove(self->p, A9_XA_DEFAULT));
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
	EXPECT_ACL(self->p, A9_XA_ACCESS, acc);
	same_except_mode(_metadata, self->p, &s, 0750);
	a9_hostcheck(self->p, A9_XA_DEFAULT, NULL, 0);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, acc);
}

TEST_F(remove, removexattr_access_keeps_default_acl)
{
	const char *def = "u::rwx,u:1002:rwx,g::r-x,m::rwx,o::---";
	struct snap s;

	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0750));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::---");
	ASSERT_SET(self->p, A9_XA_DEFAULT, def);
	take(_metadata, self->p, &s);
	ASSERT_EQ(0, a9_remove(self->p, A9_XA_ACCESS));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_ACL(self->p, A9_XA_DEFAULT, def);
	same_except_mode(_metadata, self->p, &s, 0770);
}

TEST_F(remove, removed_default_no_longer_inherited)
{
	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	ASSERT_SET(self->p, A9_XA_DEFAULT, "u::rwx,u:1002:rwx,g::r-x,m::rwx,o::r-x");
	ASSERT_EQ(0, a9_remove(self->p, A9_XA_DEFAULT));
	a9_path(self->q, self->dir, "d/new");
	umask(022);
	ASSERT_EQ(0, close(open(self->q, O_CREAT | O_WRONLY | O_EXCL, 0666)));
	EXPECT_NOACL(self->q, A9_XA_ACCESS);
	EXPECT_MODE(self->q, 0644);
}

TEST_F(remove, setfacl_b_file_plain_mode_from_entries)
{
	struct snap s;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, "data"));
	ASSERT_EQ(0, chown(self->p, 1001, 1002));
	ASSERT_SET(self->p, A9_XA_ACCESS, EXT);
	take(_metadata, self->p, &s);
	ASSERT_EQ(0, setfacl("-b", NULL, self->p));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	/* setfacl -b keeps the base entries: group bits from g::, not mask */
	same_except_mode(_metadata, self->p, &s, 0640);
	a9_hostcheck(self->p, A9_XA_ACCESS, NULL, 0);
}

TEST_F(remove, setfacl_b_keeps_setgid_for_root)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 02770, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rwx,u:1001:rw-,g::r--,m::rwx,o::---");
	EXPECT_MODE(self->p, 02770);
	ASSERT_EQ(0, setfacl("-b", NULL, self->p));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 02740);
}

TEST_F(remove, setfacl_b_dir_removes_access_and_default)
{
	struct snap s;

	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0750));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::---");
	ASSERT_SET(self->p, A9_XA_DEFAULT, "u::rwx,u:1002:rwx,g::r-x,m::rwx,o::---");
	take(_metadata, self->p, &s);
	ASSERT_EQ(0, setfacl("-b", NULL, self->p));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
	same_except_mode(_metadata, self->p, &s, 0750);
	a9_hostcheck(self->p, A9_XA_ACCESS, NULL, 0);
	a9_hostcheck(self->p, A9_XA_DEFAULT, NULL, 0);
}

TEST_F(remove, setfacl_k_removes_only_default)
{
	const char *acc = "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::---";
	struct snap s;

	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0750));
	ASSERT_SET(self->p, A9_XA_ACCESS, acc);
	ASSERT_SET(self->p, A9_XA_DEFAULT, "u::rwx,u:1002:rwx,g::r-x,m::rwx,o::---");
	take(_metadata, self->p, &s);
	ASSERT_EQ(0, setfacl("-k", NULL, self->p));
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
	EXPECT_ACL(self->p, A9_XA_ACCESS, acc);
	same_except_mode(_metadata, self->p, &s, 0770);
}

TEST_F(remove, setfacl_k_without_default_is_noop)
{
	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0751));
	EXPECT_EQ(0, setfacl("-k", NULL, self->p));
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0751);
}

TEST_F(remove, setfacl_x_last_named_entry_keeps_mask)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,m::rwx,o::---");
	ASSERT_EQ(0, setfacl("-x", "u:1001", self->p));
	/* setfacl recomputes the mask from the remaining group class */
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,g::r--,m::r--,o::---");
	EXPECT_MODE(self->p, 0640);
}

TEST_F(remove, setfacl_x_one_of_several_entries)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS,
		   "u::rw-,u:1001:rw-,u:1002:r--,g::r--,g:1003:r--,m::rw-,o::---");
	ASSERT_EQ(0, setfacl("-x", "u:1001", self->p));
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1002:r--,g::r--,g:1003:r--,m::r--,o::---");
	EXPECT_MODE(self->p, 0640);
}

TEST_F(remove, remove_keeps_user_xattr)
{
	char v[64];
	ssize_t n;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	if (lsetxattr(self->p, "user.acl9p", "keep-me", 7, 0)) {
		if (errno == EOPNOTSUPP)
			SKIP(return, "user.* xattrs not supported on %s", a9_mnt());
		ASSERT_EQ(0, errno);
	}
	ASSERT_SET(self->p, A9_XA_ACCESS, EXT);
	ASSERT_EQ(0, a9_remove(self->p, A9_XA_ACCESS));
	n = lgetxattr(self->p, "user.acl9p", v, sizeof(v));
	ASSERT_EQ(7, n) TH_LOG("user.acl9p: %s", n < 0 ? strerror(errno) : "size");
	EXPECT_EQ(0, memcmp(v, "keep-me", 7));
	EXPECT_EQ(1, a9_listed(self->p, "user.acl9p"));
}

TEST_F(remove, remove_twice_second_same_as_local)
{
	int rs, rl = 0;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, EXT);
	ASSERT_EQ(0, a9_remove(self->p, A9_XA_ACCESS));
	rs = a9_remove(self->p, A9_XA_ACCESS);
	if (self->ldir[0]) {
		a9_path(self->q, self->ldir, "f");
		ASSERT_EQ(0, a9_mkfile(self->q, 0644, NULL));
		ASSERT_SET(self->q, A9_XA_ACCESS, EXT);
		ASSERT_EQ(0, a9_remove(self->q, A9_XA_ACCESS));
		rl = a9_remove(self->q, A9_XA_ACCESS);
	}
	EXPECT_ERRNO(rl, rs);
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
}

TEST_HARNESS_MAIN
