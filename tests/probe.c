// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_probe: size probing and listing.  getxattr with
 * size 0 returns the exact value size, a short buffer gives ERANGE,
 * listxattr lists system.posix_acl_* exactly when one is set.
 */
#include "acl9p_test.h"

A9_FIXTURE(probe, A9_PROBE)

static const char *ACC3 = "u::rw-,u:1001:r--,u:1002:rw-,g::r--,g:1003:r--,m::rw-,o::---";

TEST_F(probe, access_size_query_is_exact)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, ACC3);
	EXPECT_EQ((ssize_t)a9_xattr_size(7), a9_get(self->p, A9_XA_ACCESS, NULL, 0));
	/* a second query gives the same answer */
	EXPECT_EQ((ssize_t)a9_xattr_size(7), a9_get(self->p, A9_XA_ACCESS, NULL, 0));
}

TEST_F(probe, default_size_query_is_exact)
{
	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	ASSERT_SET(self->p, A9_XA_DEFAULT, "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::---");
	EXPECT_EQ((ssize_t)a9_xattr_size(5), a9_get(self->p, A9_XA_DEFAULT, NULL, 0));
}

TEST_F(probe, size_query_tracks_changes)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, ACC3);
	EXPECT_EQ((ssize_t)a9_xattr_size(7), a9_get(self->p, A9_XA_ACCESS, NULL, 0));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:r--,g::r--,m::r--,o::---");
	EXPECT_EQ((ssize_t)a9_xattr_size(5), a9_get(self->p, A9_XA_ACCESS, NULL, 0));
}

TEST_F(probe, exact_buffer_succeeds)
{
	unsigned char buf[a9_xattr_size(7)];

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, ACC3);
	EXPECT_EQ((ssize_t)sizeof(buf), a9_get(self->p, A9_XA_ACCESS, buf, sizeof(buf)));
}

TEST_F(probe, short_buffer_is_erange)
{
	unsigned char buf[64];

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, ACC3);
	EXPECT_ERRNO(-ERANGE, (int)a9_get(self->p, A9_XA_ACCESS, buf, a9_xattr_size(7) - 1));
	EXPECT_ERRNO(-ERANGE, (int)a9_get(self->p, A9_XA_ACCESS, buf, a9_xattr_size(6)));
	EXPECT_ERRNO(-ERANGE, (int)a9_get(self->p, A9_XA_ACCESS, buf, 4));
	EXPECT_ERRNO(-ERANGE, (int)a9_get(self->p, A9_XA_ACCESS, buf, 1));
	/* and the value is still intact afterwards */
	EXPECT_ACL(self->p, A9_XA_ACCESS, ACC3);
}

TEST_F(probe, short_buffer_default_is_erange)
{
	unsigned char buf[64];

	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	ASSERT_SET(self->p, A9_XA_DEFAULT, "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::---");
	EXPECT_ERRNO(-ERANGE, (int)a9_get(self->p, A9_XA_DEFAULT, buf, a9_xattr_size(5) - 1));
}

TEST_F(probe, fgetxattr_size_and_erange)
{
	unsigned char buf[64];
	int fd;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, ACC3);
	fd = open(self->p, O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ((ssize_t)a9_xattr_size(7), fgetxattr(fd, A9_XA_ACCESS, NULL, 0));
	EXPECT_EQ(-1, fgetxattr(fd, A9_XA_ACCESS, buf, 10));
	EXPECT_EQ(ERANGE, errno);
	close(fd);
}

TEST_F(probe, listxattr_lists_access_only_when_set)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, NULL));
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_ACCESS));
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_DEFAULT));
	ASSERT_SET(self->p, A9_XA_ACCESS, ACC3);
	EXPECT_EQ(1, a9_listed(self->p, A9_XA_ACCESS));
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_DEFAULT));
	ASSERT_EQ(0, a9_remove(self->p, A9_XA_ACCESS));
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_ACCESS));
}

TEST_F(probe, listxattr_lists_default_only_when_set)
{
	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_DEFAULT));
	ASSERT_SET(self->p, A9_XA_DEFAULT, "u::rwx,g::r-x,o::---");
	EXPECT_EQ(1, a9_listed(self->p, A9_XA_DEFAULT));
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_ACCESS));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::---");
	EXPECT_EQ(1, a9_listed(self->p, A9_XA_ACCESS));
	ASSERT_EQ(0, a9_remove(self->p, A9_XA_DEFAULT));
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_DEFAULT));
	EXPECT_EQ(1, a9_listed(self->p, A9_XA_ACCESS));
}

TEST_F(probe, listxattr_omits_acl_equivalent_to_mode)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,g::r--,o::r--");
	EXPECT_EQ(0, a9_listed(self->p, A9_XA_ACCESS));
}

TEST_F(probe, listxattr_size_query_matches_list)
{
	char buf[8192];
	ssize_t n0, n;

	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::---");
	ASSERT_SET(self->p, A9_XA_DEFAULT, "u::rwx,g::r-x,o::---");
	n0 = llistxattr(self->p, NULL, 0);
	n = llistxattr(self->p, buf, sizeof(buf));
	ASSERT_LT(0, n);
	EXPECT_EQ(n0, n);
	/* every name is NUL-terminated and the list ends at n */
	EXPECT_EQ(0, buf[n - 1]);
	EXPECT_LE((ssize_t)(sizeof(A9_XA_ACCESS) + sizeof(A9_XA_DEFAULT)), n);
	/* short list buffer: ERANGE */
	EXPECT_EQ(-1, llistxattr(self->p, buf, (size_t)n - 1));
	EXPECT_EQ(ERANGE, errno);
}

/*
 * setxattr flags on ACL names: Linux's ACL handlers ignore XATTR_CREATE and
 * XATTR_REPLACE (the value is an ACL, not a stored attribute).  Compare
 * the share with the local tmpfs of the same kernel.
 */
/* the ACL flag_case() sets, in a9_get_text()'s form */
#define FLAG_ACL "u::rw-,u:1002:rw-,g::r--,m::rw-,o::---"

static int flag_case(const char *base, int with_acl, int flags, char *txt, size_t sz)
{
	char p[PATH_MAX];
	unsigned char v[128];
	ssize_t n;
	int r;

	a9_path(p, base, "f");
	r = a9_mkfile(p, 0640, NULL);
	if (r)
		return 1000 - r;
	if (with_acl) {
		r = a9_set_text(p, A9_XA_ACCESS, "u::rw-,u:1001:r--,g::r--,m::r--,o::---");
		if (r)
			return 2000 - r;
	}
	n = a9_build(v, sizeof(v), FLAG_ACL);
	r = A9_ERR(lsetxattr(p, A9_XA_ACCESS, v, (size_t)n, flags));
	a9_get_text(p, A9_XA_ACCESS, txt, sz);
	return r;
}

static void flags_same_as_local(struct __test_metadata *_metadata,
				const char *dir, const char *ldir,
				int with_acl, int flags)
{
	char ts[256], tl[256];
	int rs, rl;

	rs = flag_case(dir, with_acl, flags, ts, sizeof(ts));
	if (!ldir[0]) {
		EXPECT_ERRNO(0, rs);
		return;
	}
	rl = flag_case(ldir, with_acl, flags, tl, sizeof(tl));
	EXPECT_ERRNO(rl, rs);
	EXPECT_STREQ(tl, ts);
	/* and what 6.1 answers locally: the flag is ignored, the ACL set */
	EXPECT_ERRNO(0, rl);
	EXPECT_STREQ(FLAG_ACL, tl);
}

TEST_F(probe, xattr_create_flag_on_existing_acl_same_as_local)
{
	flags_same_as_local(_metadata, self->dir, self->ldir, 1, XATTR_CREATE);
}

TEST_F(probe, xattr_replace_flag_on_missing_acl_same_as_local)
{
	flags_same_as_local(_metadata, self->dir, self->ldir, 0, XATTR_REPLACE);
}

TEST_HARNESS_MAIN
