// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_limits: ACLs with 1, 16, 64 and 250 named entries
 * round-trip exactly; larger ones either round-trip exactly or are refused
 * with a clear errno (E2BIG, ENOSPC, ERANGE) leaving the old ACL and mode
 * in place -- never truncated.  Which of the two is the storage's: a
 * tmpfs (the guest's, or the host's under a 9p export made with
 * opts=xattr64k) stores every value up to XATTR_SIZE_MAX, so there each
 * must round-trip; ext4 without ea_inode (local-ext4, and the host's
 * build tree under every other 9p export) keeps a value in one 4 KiB
 * block, so one over a block must be refused with ENOSPC.  A value over
 * XATTR_SIZE_MAX is E2BIG.
 */
#include "acl9p_test.h"

A9_FIXTURE(limits, A9_PROBE)

static const char *PREV = "u::rw-,u:1001:r--,g::r--,m::r--,o::---";

static struct a9_ent ents[A9_MAX_ENTS + 8];
static unsigned char val[A9_XATTR_SIZE_MAX + 64], got[A9_XATTR_SIZE_MAX + 64];

/*
 * u::rw- + n named (users from 100000, alternating with groups once
 * "groups" is set) + g::r-- + m::rw- + o::---; returns the byte length.
 */
static size_t make_acl(int n, int with_groups, uint16_t uperm)
{
	int i = 0, k, nu = with_groups ? (n + 1) / 2 : n, ng = n - nu;

	ents[i++] = (struct a9_ent){ A9_ACL_USER_OBJ, uperm, A9_ACL_UNDEFINED_ID };
	for (k = 0; k < nu; k++)
		ents[i++] = (struct a9_ent){ A9_ACL_USER, (uint16_t)(k % 8), 100000u + (uint32_t)k };
	ents[i++] = (struct a9_ent){ A9_ACL_GROUP_OBJ, 4, A9_ACL_UNDEFINED_ID };
	for (k = 0; k < ng; k++)
		ents[i++] = (struct a9_ent){ A9_ACL_GROUP, (uint16_t)((k + 3) % 8), 200000u + (uint32_t)k };
	ents[i++] = (struct a9_ent){ A9_ACL_MASK, 6, A9_ACL_UNDEFINED_ID };
	ents[i++] = (struct a9_ent){ A9_ACL_OTHER, 0, A9_ACL_UNDEFINED_ID };
	return (size_t)a9_encode(val, sizeof(val), 2, ents, i);
}

static void exact(struct __test_metadata *_metadata, const char *p,
		  const char *name, size_t n)
{
	ssize_t g;

	g = a9_get(p, name, NULL, 0);
	EXPECT_EQ((ssize_t)n, g) TH_LOG("size query: %zd (%s)", g,
					g < 0 ? a9_errname((int)g) : "bytes");
	g = a9_get(p, name, got, sizeof(got));
	ASSERT_EQ((ssize_t)n, g) TH_LOG("getxattr: %zd (%s)", g,
					g < 0 ? a9_errname((int)g) : "bytes");
	EXPECT_EQ(0, memcmp(val, got, n)) TH_LOG("value read back differs");
}

static void named_case(struct __test_metadata *_metadata, const char *dir,
		       char *p, int n, int groups)
{
	size_t len;
	int r;

	a9_path(p, dir, "f");
	ASSERT_EQ(0, a9_mkfile(p, 0600, NULL));
	len = make_acl(n, groups, 6);
	r = a9_set_raw(p, A9_XA_ACCESS, val, len);
	ASSERT_EQ(0, r) TH_LOG("%d named entries (%zu bytes): %s", n, len,
			       a9_errname(r));
	exact(_metadata, p, A9_XA_ACCESS, len);
	EXPECT_MODE(p, 0660);
	a9_hostcheck(p, A9_XA_ACCESS, val, len);
}

TEST_F(limits, named_entries_1)
{
	named_case(_metadata, self->dir, self->p, 1, 0);
}

TEST_F(limits, named_entries_16)
{
	named_case(_metadata, self->dir, self->p, 16, 1);
}

TEST_F(limits, named_entries_64)
{
	named_case(_metadata, self->dir, self->p, 64, 1);
}

TEST_F(limits, named_entries_250)
{
	named_case(_metadata, self->dir, self->p, 250, 1);
}

TEST_F(limits, libacl_named_entries_250)
{
	char *text = malloc(16384), *t = text, got_text[16384];
	int k, r;

	ASSERT_NE(NULL, text);
	t += sprintf(t, "u::rw-");
	for (k = 0; k < 250; k++)
		t += sprintf(t, ",u:%u:r--", 300000 + k);
	sprintf(t, ",g::r--,m::r--,o::---");
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	r = a9_lib_set_text(self->p, 0, text);
	ASSERT_EQ(0, r) TH_LOG("acl_set_file: %s", a9_errname(r));
	ASSERT_EQ(0, a9_lib_get_text(self->p, 0, got_text, sizeof(got_text)));
	EXPECT_STREQ(text, got_text);
	free(text);
}

TEST_F(limits, default_250_entries_inherited)
{
	size_t len;
	int r, fd;

	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	len = make_acl(250, 1, 7);
	r = a9_set_raw(self->p, A9_XA_DEFAULT, val, len);
	ASSERT_EQ(0, r) TH_LOG("default ACL with 250 entries: %s", a9_errname(r));
	exact(_metadata, self->p, A9_XA_DEFAULT, len);
	a9_path(self->q, self->dir, "d/f");
	fd = open(self->q, O_CREAT | O_EXCL | O_WRONLY, 0660);
	ASSERT_LE(0, fd);
	close(fd);
	/* inherited access ACL: u:: rwx & rw- = rw-, the rest unchanged */
	make_acl(250, 1, 6);
	exact(_metadata, self->q, A9_XA_ACCESS, len);
	EXPECT_MODE(self->q, 0660);
	a9_hostcheck(self->q, A9_XA_ACCESS, val, len);
}

/* what the share's storage does with an xattr value of many KiB */
enum store { STORES_ALL, STORES_ONE_BLOCK, STORES_NO_USER, STORES_UNKNOWN };

static enum store storage(void)
{
	const char *fs = a9_env("ACL9P_FSTYPE", "9p");

	if (!strcmp(fs, "9p"))
		fs = a9_env("ACL9P_EXPORT_FS", "(unset)");
	if (!strcmp(fs, "tmpfs"))
		return STORES_ALL;
	/* statfs names ext4 "ext2/ext3" (the host's side of a 9p export) */
	if (!strcmp(fs, "ext4") || !strcmp(fs, "ext2/ext3"))
		return STORES_ONE_BLOCK;
	return STORES_UNKNOWN;
}

/*
 * Larger than many servers/backends keep: exact, or a clear errno with
 * the previous ACL and mode intact; which one, where the storage says.
 */
static void big_case(struct __test_metadata *_metadata, const char *dir,
		     char *p, int n)
{
	enum store st = storage();
	size_t len;
	int r;

	a9_path(p, dir, "f");
	ASSERT_EQ(0, a9_mkfile(p, 0600, NULL));
	ASSERT_SET(p, A9_XA_ACCESS, PREV);
	len = make_acl(n, 1, 7);
	r = a9_set_raw(p, A9_XA_ACCESS, val, len);
	if (st == STORES_ALL)
		EXPECT_EQ(0, r) TH_LOG("%d named entries (%zu bytes) refused (%s) by a storage that takes %d",
				       n, len, a9_errname(r), A9_XATTR_SIZE_MAX);
	if (st == STORES_ONE_BLOCK && len > 4096)
		EXPECT_EQ(-ENOSPC, r) TH_LOG("%d named entries (%zu bytes) on ext4's one block: %s",
					     n, len, r ? a9_errname(r) : "stored");
	if (r == 0) {
		exact(_metadata, p, A9_XA_ACCESS, len);
		EXPECT_MODE(p, 0760);
		a9_hostcheck(p, A9_XA_ACCESS, val, len);
		return;
	}
	TH_LOG("%d named entries (%zu bytes) refused: %s", n, len, a9_errname(r));
	EXPECT_TRUE(r == -E2BIG || r == -ENOSPC || r == -ERANGE)
		TH_LOG("unclear errno %s for a too large ACL", a9_errname(r));
	EXPECT_ACL(p, A9_XA_ACCESS, PREV);
	EXPECT_MODE(p, 0640);
	a9_hostcheck_text(p, A9_XA_ACCESS, PREV);
}

TEST_F(limits, named_entries_500_exact_or_refused)
{
	big_case(_metadata, self->dir, self->p, 500);
}

TEST_F(limits, named_entries_1000_exact_or_refused)
{
	big_case(_metadata, self->dir, self->p, 1000);
}

TEST_F(limits, named_entries_4000_exact_or_refused)
{
	big_case(_metadata, self->dir, self->p, 4000);
}

TEST_F(limits, named_entries_8187_max_size_exact_or_refused)
{
	/* 8187 named + 4 base entries = 8191 entries = 65532 bytes, the
	 * largest ACL value that fits XATTR_SIZE_MAX */
	big_case(_metadata, self->dir, self->p, 8187);
}

TEST_F(limits, over_xattr_size_max_is_e2big)
{
	size_t len;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, PREV);
	len = make_acl(8188, 1, 7);	/* 65540 bytes */
	ASSERT_LT(A9_XATTR_SIZE_MAX, (int)len);
	EXPECT_ERRNO(-E2BIG, a9_set_raw(self->p, A9_XA_ACCESS, val, len));
	EXPECT_ACL(self->p, A9_XA_ACCESS, PREV);
	EXPECT_MODE(self->p, 0640);
}

/*
 * The edge of XATTR_SIZE_MAX itself, with an xattr that is no ACL (so
 * every access mode sends it the same way): a value of exactly 65536
 * bytes is set, its size query answers 65536 and a read into 65536
 * bytes returns it whole; where the storage cannot keep it, the set is
 * refused as the storage says and nothing is left.
 */
/*
 * The same for a user.* xattr: 6.1's tmpfs has no user.* handler (tmpfs
 * took user xattrs in 6.6), so the guest's own tmpfs, and acl9p-fused's
 * store on one, refuse the name itself with EOPNOTSUPP; a host's tmpfs
 * under a 9p export is the host kernel's.
 */
static enum store user_storage(void)
{
	const char *fs = a9_env("ACL9P_FSTYPE", "9p");

	if (!strcmp(fs, "tmpfs") || !strcmp(fs, "fuse"))
		return STORES_NO_USER;
	return storage();
}

TEST_F(limits, user_xattr_of_xattr_size_max)
{
	static unsigned char big[A9_XATTR_SIZE_MAX], back[A9_XATTR_SIZE_MAX];
	enum store st = user_storage();
	size_t i;
	ssize_t g;
	int r;

	for (i = 0; i < sizeof(big); i++)
		big[i] = (unsigned char)(i * 7 + i / 251);
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	r = a9_set_raw(self->p, "user.acl9p.big", big, sizeof(big));
	if (st == STORES_ALL)
		ASSERT_EQ(0, r) TH_LOG("a %zu-byte user xattr refused (%s) by a storage that takes it",
				       sizeof(big), a9_errname(r));
	if (st == STORES_ONE_BLOCK)
		ASSERT_EQ(-ENOSPC, r) TH_LOG("a %zu-byte user xattr on ext4's one block: %s",
					     sizeof(big), r ? a9_errname(r) : "stored");
	if (st == STORES_NO_USER)
		ASSERT_EQ(-EOPNOTSUPP, r) TH_LOG("a user xattr on 6.1's tmpfs: %s",
						 r ? a9_errname(r) : "stored");
	if (r) {
		EXPECT_TRUE(r == -E2BIG || r == -ENOSPC || st == STORES_NO_USER)
			TH_LOG("unclear errno %s for a %zu-byte xattr", a9_errname(r), sizeof(big));
		EXPECT_EQ(st == STORES_NO_USER ? -EOPNOTSUPP : -ENODATA,
			  a9_get(self->p, "user.acl9p.big", NULL, 0));
		return;
	}
	EXPECT_EQ((ssize_t)sizeof(big), a9_get(self->p, "user.acl9p.big", NULL, 0));
	g = a9_get(self->p, "user.acl9p.big", back, sizeof(back));
	ASSERT_EQ((ssize_t)sizeof(big), g) TH_LOG("read into %zu bytes: %s", sizeof(back),
						   g < 0 ? a9_errname((int)g) : "another size");
	EXPECT_EQ(0, memcmp(big, back, sizeof(big)));
	EXPECT_EQ(-ERANGE, a9_get(self->p, "user.acl9p.big", back, sizeof(back) - 1));
}

TEST_F(limits, shrink_after_large_acl)
{
	size_t len;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	len = make_acl(250, 1, 6);
	ASSERT_EQ(0, a9_set_raw(self->p, A9_XA_ACCESS, val, len));
	ASSERT_SET(self->p, A9_XA_ACCESS, PREV);
	EXPECT_EQ((ssize_t)a9_xattr_size(5), a9_get(self->p, A9_XA_ACCESS, NULL, 0));
	EXPECT_ACL(self->p, A9_XA_ACCESS, PREV);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, PREV);
}

TEST_F(limits, short_buffer_on_large_acl_is_erange)
{
	size_t len;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	len = make_acl(250, 1, 6);
	ASSERT_EQ(0, a9_set_raw(self->p, A9_XA_ACCESS, val, len));
	EXPECT_ERRNO(-ERANGE, (int)a9_get(self->p, A9_XA_ACCESS, got, len - 8));
	EXPECT_ERRNO(-ERANGE, (int)a9_get(self->p, A9_XA_ACCESS, got, 1024));
}

TEST_HARNESS_MAIN
