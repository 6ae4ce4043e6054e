// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_roundtrip: ACLs written through libacl and through
 * raw setxattr with hand-built system.posix_acl_* values read back
 * unchanged, both via libacl (acl_to_text) and as raw bytes.
 */
#include <sys/acl.h>
#include <acl/libacl.h>

#include "acl9p_test.h"

A9_FIXTURE(roundtrip, A9_PROBE)

/* set with libacl, read with libacl and raw; both must equal text */
static void lib_roundtrip(struct __test_metadata *_metadata, const char *path,
			  int deflt, const char *text)
{
	char got[8192];
	int r;

	r = a9_lib_set_text(path, deflt, text);
	ASSERT_EQ(0, r) TH_LOG("acl_set_file(%s, %s): %s", path, text,
			       a9_errname(r));
	r = a9_lib_get_text(path, deflt, got, sizeof(got));
	ASSERT_EQ(0, r) TH_LOG("acl_get_file(%s): %s", path, a9_errname(r));
	EXPECT_STREQ(text, got);
	EXPECT_ACL(path, deflt ? A9_XA_DEFAULT : A9_XA_ACCESS, text);
}

TEST_F(roundtrip, libacl_access_named_user)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, "data"));
	lib_roundtrip(_metadata, self->p, 0, "u::rw-,u:1001:r--,g::r--,m::r--,o::r--");
	EXPECT_MODE(self->p, 0644);
}

TEST_F(roundtrip, libacl_access_named_group)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, NULL));
	lib_roundtrip(_metadata, self->p, 0, "u::rw-,g::r--,g:1002:rw-,m::rw-,o::---");
	EXPECT_MODE(self->p, 0660);
}

TEST_F(roundtrip, libacl_access_users_and_groups)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	lib_roundtrip(_metadata, self->p, 0,
		      "u::rwx,u:1001:rw-,u:1002:r--,u:1003:--x,g::r-x,"
		      "g:1001:r--,g:1002:rwx,m::rwx,o::---");
	EXPECT_MODE(self->p, 0770);
}

TEST_F(roundtrip, libacl_all_permission_combinations)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	lib_roundtrip(_metadata, self->p, 0,
		      "u::rw-,u:1000:---,u:1001:--x,u:1002:-w-,u:1003:-wx,"
		      "u:1004:r--,u:1005:r-x,u:1006:rw-,u:1007:rwx,g::r--,"
		      "g:2000:---,g:2001:-wx,g:2002:r-x,m::rwx,o::r--");
}

TEST_F(roundtrip, libacl_large_and_unmapped_ids)
{
	/* ids that have no passwd entry, up to the largest valid one */
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	lib_roundtrip(_metadata, self->p, 0,
		      "u::rw-,u:0:r--,u:65534:r--,u:100000:rw-,u:4294967294:r--,"
		      "g::r--,g:0:r--,g:65535:rw-,g:4294967294:r--,m::rw-,o::r--");
}

TEST_F(roundtrip, libacl_default_on_dir)
{
	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	lib_roundtrip(_metadata, self->p, 1,
		      "u::rwx,u:1001:r-x,g::r-x,g:1002:rwx,m::rwx,o::---");
	/* a default ACL neither creates an access ACL nor changes the mode */
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0755);
}

TEST_F(roundtrip, libacl_access_acl_on_dir)
{
	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	lib_roundtrip(_metadata, self->p, 0,
		      "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::r-x");
	EXPECT_MODE(self->p, 0775);
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
}

TEST_F(roundtrip, libacl_access_and_default_are_independent)
{
	const char *acc = "u::rwx,u:1001:r-x,g::r-x,m::r-x,o::---";
	const char *def = "u::rwx,u:1002:rwx,g::---,g:1003:r--,m::rwx,o::---";

	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0700));
	ASSERT_EQ(0, a9_lib_set_text(self->p, 0, acc));
	ASSERT_EQ(0, a9_lib_set_text(self->p, 1, def));
	EXPECT_ACL(self->p, A9_XA_ACCESS, acc);
	EXPECT_ACL(self->p, A9_XA_DEFAULT, def);
	/* replacing one leaves the other alone */
	ASSERT_EQ(0, a9_lib_set_text(self->p, 0, "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::---"));
	EXPECT_ACL(self->p, A9_XA_DEFAULT, def);
	ASSERT_EQ(0, a9_lib_set_text(self->p, 1, "u::rwx,g::r-x,o::---"));
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::---");
	EXPECT_ACL(self->p, A9_XA_DEFAULT, "u::rwx,g::r-x,o::---");
}

/* raw: set hand-built bytes, get the identical bytes back */
static void raw_roundtrip(struct __test_metadata *_metadata, const char *path,
			  const char *name, const char *text)
{
	unsigned char want[4096], got[4096];
	ssize_t n, g;
	int r;

	n = a9_build(want, sizeof(want), text);
	ASSERT_LT(0, n);
	r = a9_set_raw(path, name, want, (size_t)n);
	ASSERT_EQ(0, r) TH_LOG("setxattr(%s, %s): %s", path, name, a9_errname(r));
	g = a9_get(path, name, NULL, 0);
	EXPECT_EQ(n, g) TH_LOG("size query returned %zd", g);
	g = a9_get(path, name, got, sizeof(got));
	ASSERT_EQ(n, g) TH_LOG("getxattr returned %zd (%s)", g,
			       g < 0 ? a9_errname((int)g) : "size");
	EXPECT_EQ(0, memcmp(want, got, (size_t)n)) {
		char a[256], b[256];

		TH_LOG("bytes differ: wrote %s read %s",
		       a9_decode(want, (size_t)n, a, sizeof(a)),
		       a9_decode(got, (size_t)g, b, sizeof(b)));
	}
	a9_hostcheck(path, name, want, (size_t)n);
}

TEST_F(roundtrip, raw_access_bytes_identical)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	raw_roundtrip(_metadata, self->p, A9_XA_ACCESS,
		      "u::rw-,u:1001:r--,u:1002:rw-,g::r--,g:1003:r-x,m::rwx,o::r--");
	EXPECT_MODE(self->p, 0674);
}

TEST_F(roundtrip, raw_default_bytes_identical)
{
	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	raw_roundtrip(_metadata, self->p, A9_XA_DEFAULT,
		      "u::rwx,u:1001:rwx,g::r-x,g:1002:r-x,m::rwx,o::r-x");
	EXPECT_MODE(self->p, 0755);
}

TEST_F(roundtrip, raw_default_minimal_bytes_identical)
{
	/* a minimal default ACL is stored as such (unlike a minimal access ACL) */
	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	raw_roundtrip(_metadata, self->p, A9_XA_DEFAULT, "u::rwx,g::---,o::---");
	EXPECT_MODE(self->p, 0755);
}

TEST_F(roundtrip, raw_set_read_by_libacl)
{
	char got[1024];

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rw-,g::---,g:1002:r--,m::rw-,o::---");
	ASSERT_EQ(0, a9_lib_get_text(self->p, 0, got, sizeof(got)));
	EXPECT_STREQ("u::rw-,u:1001:rw-,g::---,g:1002:r--,m::rw-,o::---", got);
}

TEST_F(roundtrip, libacl_set_read_as_raw_bytes)
{
	unsigned char want[256], got[256];
	ssize_t n, g;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_EQ(0, a9_lib_set_text(self->p, 0, "u::rw-,u:1003:r--,g::r--,m::r--,o::---"));
	n = a9_build(want, sizeof(want), "u::rw-,u:1003:r--,g::r--,m::r--,o::---");
	g = a9_get(self->p, A9_XA_ACCESS, got, sizeof(got));
	ASSERT_EQ(n, g);
	EXPECT_EQ(0, memcmp(want, got, (size_t)n));
}

TEST_F(roundtrip, fd_fsetxattr_fgetxattr)
{
	unsigned char want[256], got[256];
	char txt[512];
	ssize_t n, g;
	acl_t acl;
	char *t;
	int fd;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, "x"));
	fd = open(self->p, O_RDONLY);
	ASSERT_LE(0, fd);
	n = a9_build(want, sizeof(want), "u::rw-,u:1002:rwx,g::r--,m::rwx,o::r--");
	ASSERT_EQ(0, fsetxattr(fd, A9_XA_ACCESS, want, (size_t)n, 0))
		TH_LOG("fsetxattr: %s", strerror(errno));
	g = fgetxattr(fd, A9_XA_ACCESS, got, sizeof(got));
	ASSERT_EQ(n, g);
	EXPECT_EQ(0, memcmp(want, got, (size_t)n));
	/* libacl on the same fd */
	acl = acl_get_fd(fd);
	ASSERT_NE(NULL, acl);
	t = acl_to_any_text(acl, NULL, ',', TEXT_ABBREVIATE | TEXT_NUMERIC_IDS);
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("u::rw-,u:1002:rwx,g::r--,m::rwx,o::r--", t);
	acl_free(t);
	acl_free(acl);
	close(fd);
	/* and by path */
	EXPECT_EQ(0, a9_get_text(self->p, A9_XA_ACCESS, txt, sizeof(txt)));
	EXPECT_STREQ("u::rw-,u:1002:rwx,g::r--,m::rwx,o::r--", txt);
}

TEST_F(roundtrip, libacl_set_fd)
{
	char got[512];
	acl_t acl;
	int fd;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, NULL));
	fd = open(self->p, O_RDWR);
	ASSERT_LE(0, fd);
	acl = acl_from_text("u::rw-,g::r--,g:1001:rw-,m::rw-,o::---");
	ASSERT_NE(NULL, acl);
	ASSERT_EQ(0, acl_set_fd(fd, acl)) TH_LOG("acl_set_fd: %s", strerror(errno));
	acl_free(acl);
	close(fd);
	ASSERT_EQ(0, a9_lib_get_text(self->p, 0, got, sizeof(got)));
	EXPECT_STREQ("u::rw-,g::r--,g:1001:rw-,m::rw-,o::---", got);
	EXPECT_MODE(self->p, 0660);
}

TEST_F(roundtrip, overwrite_replaces_whole_acl)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS,
		   "u::rw-,u:1001:rw-,u:1002:rw-,u:1003:rw-,g::r--,m::rw-,o::r--");
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1002:r--,g::r--,m::r--,o::r--");
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1002:r--,g::r--,m::r--,o::r--");
	EXPECT_EQ((ssize_t)a9_xattr_size(5), a9_get(self->p, A9_XA_ACCESS, NULL, 0));
	EXPECT_MODE(self->p, 0644);
}

TEST_F(roundtrip, survives_reopen_and_rename)
{
	const char *t = "u::rw-,u:1001:r--,g::r--,g:1001:r--,m::r--,o::---";

	a9_path(self->p, self->dir, "f");
	a9_path(self->q, self->dir, "renamed");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, "content"));
	ASSERT_SET(self->p, A9_XA_ACCESS, t);
	ASSERT_EQ(0, rename(self->p, self->q));
	EXPECT_ACL(self->q, A9_XA_ACCESS, t);
	EXPECT_MODE(self->q, 0640);
	a9_hostcheck_text(self->q, A9_XA_ACCESS, t);
}

TEST_F(roundtrip, hard_link_shares_acl)
{
	const char *t = "u::rw-,u:1002:rw-,g::r--,m::rw-,o::---";

	a9_path(self->p, self->dir, "f");
	a9_path(self->q, self->dir, "link");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, NULL));
	ASSERT_EQ(0, link(self->p, self->q));
	ASSERT_SET(self->p, A9_XA_ACCESS, t);
	EXPECT_ACL(self->q, A9_XA_ACCESS, t);
	EXPECT_MODE(self->q, 0660);
}

TEST_HARNESS_MAIN
