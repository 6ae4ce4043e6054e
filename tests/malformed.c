// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_malformed: malformed system.posix_acl_* values are
 * refused with EINVAL and the ACL stored before is unchanged (read back
 * here, and by the host through a HOSTCHECK line of the previous value).
 *
 * Local Linux semantics differ from a naive reading in three places, and
 * the tests follow Linux: an unknown header version gives EOPNOTSUPP; an
 * empty value is EINVAL on 6.1 but a removal since 6.2; duplicate or
 * unsorted *named* entries are accepted (those tests compare with the
 * local tmpfs of the running kernel).
 */
#include "acl9p_test.h"

A9_FIXTURE(malformed, A9_PROBE)

static const char *PREV = "u::rw-,u:1001:r--,g::r--,m::r--,o::---";
static const char *PREVD = "u::rwx,u:1002:r-x,g::r-x,m::r-x,o::---";

static unsigned char big[A9_XATTR_SIZE_MAX];

/* file with PREV as access ACL (or dir with PREVD as default ACL) */
/*
 * The mode prepare() saw.  "Nothing changed" after a refused value is
 * judged against it, not against the mode the valid ACL should have
 * given: where that mode is stale (access=user with cache=loose keeps
 * the attributes from before the set), the setup check below fails on
 * its own and the refused value is still sent and its errno, bytes and
 * host copy still checked.
 */
static int prep_mode;

static void prepare(struct __test_metadata *_metadata, char *p,
		    const char *dir, int deflt)
{
	if (deflt) {
		a9_path(p, dir, "d");
		ASSERT_EQ(0, a9_mkdir(p, 0750));
		ASSERT_SET(p, A9_XA_DEFAULT, PREVD);
	} else {
		a9_path(p, dir, "f");
		ASSERT_EQ(0, a9_mkfile(p, 0600, "x"));
		ASSERT_SET(p, A9_XA_ACCESS, PREV);
	}
	prep_mode = a9_mode(p);
	/* not ASSERT: a stale mode must not keep the value under test unsent */
	EXPECT_EQ(deflt ? 0750 : 0640, prep_mode)
		TH_LOG("setup: mode %04o after setting %s", prep_mode,
		       deflt ? PREVD : PREV);
}

/* try the value, expect EINVAL and nothing changed */
static void refuse_err(struct __test_metadata *_metadata, const char *p,
		       int deflt, const void *v, size_t n, int err)
{
	const char *name = deflt ? A9_XA_DEFAULT : A9_XA_ACCESS;
	char dec[256];
	int r;

	r = a9_set_raw(p, name, v, n);
	EXPECT_EQ(err, r) TH_LOG("value %s (%zu bytes): %s, expected %s",
				 a9_decode(v, n, dec, sizeof(dec)), n,
				 a9_errname(r), a9_errname(err));
	EXPECT_ACL(p, name, deflt ? PREVD : PREV);
	EXPECT_MODE(p, prep_mode);
	if (deflt)
		EXPECT_NOACL(p, A9_XA_ACCESS);
	a9_hostcheck_text(p, name, deflt ? PREVD : PREV);
}

static void refuse(struct __test_metadata *_metadata, const char *p, int deflt,
		   const void *v, size_t n)
{
	refuse_err(_metadata, p, deflt, v, n, -EINVAL);
}

static void refuse_ents(struct __test_metadata *_metadata, const char *dir,
			char *p, int deflt, uint32_t version,
			const struct a9_ent *e, int n)
{
	unsigned char v[512];
	ssize_t len;

	prepare(_metadata, p, dir, deflt);
	len = a9_encode(v, sizeof(v), version, e, n);
	ASSERT_LT(0, len);
	/* Linux answers EOPNOTSUPP to an unknown header version
	 * (posix_acl_fix_xattr_common), EINVAL to the rest */
	refuse_err(_metadata, p, deflt, v, (size_t)len,
		   version == A9_XATTR_VERSION ? -EINVAL : -EOPNOTSUPP);
}

static void refuse_text(struct __test_metadata *_metadata, const char *dir,
			char *p, int deflt, const char *text)
{
	struct a9_ent e[32];
	int n = a9_parse(text, e, 32);

	ASSERT_LT(0, n);
	refuse_ents(_metadata, dir, p, deflt, A9_XATTR_VERSION, e, n);
}

#define U(perm)		{ A9_ACL_USER_OBJ, perm, A9_ACL_UNDEFINED_ID }
#define NU(id, perm)	{ A9_ACL_USER, perm, id }
#define G(perm)		{ A9_ACL_GROUP_OBJ, perm, A9_ACL_UNDEFINED_ID }
#define NG(id, perm)	{ A9_ACL_GROUP, perm, id }
#define M(perm)		{ A9_ACL_MASK, perm, A9_ACL_UNDEFINED_ID }
#define O(perm)		{ A9_ACL_OTHER, perm, A9_ACL_UNDEFINED_ID }

static const struct a9_ent VALID[] = { U(6), NU(1003, 6), G(4), M(6), O(0) };

TEST_F(malformed, version_1)
{
	refuse_ents(_metadata, self->dir, self->p, 0, 1, VALID, 5);
}

TEST_F(malformed, version_3)
{
	refuse_ents(_metadata, self->dir, self->p, 0, 3, VALID, 5);
}

TEST_F(malformed, version_big_endian_2)
{
	refuse_ents(_metadata, self->dir, self->p, 0, 0x02000000, VALID, 5);
}

TEST_F(malformed, header_only_3_bytes)
{
	unsigned char v[3] = { 2, 0, 0 };

	prepare(_metadata, self->p, self->dir, 0);
	refuse(_metadata, self->p, 0, v, sizeof(v));
}

TEST_F(malformed, truncated_last_entry)
{
	unsigned char v[64];
	ssize_t n = a9_encode(v, sizeof(v), 2, VALID, 5);

	prepare(_metadata, self->p, self->dir, 0);
	refuse(_metadata, self->p, 0, v, (size_t)n - 4);
}

TEST_F(malformed, size_not_multiple_of_entry)
{
	unsigned char v[64] = { 0 };
	ssize_t n = a9_encode(v, sizeof(v), 2, VALID, 5);

	prepare(_metadata, self->p, self->dir, 0);
	refuse(_metadata, self->p, 0, v, (size_t)n + 1);
}

TEST_F(malformed, missing_user_obj)
{
	refuse_text(_metadata, self->dir, self->p, 0, "g::r--,o::---");
}

TEST_F(malformed, missing_group_obj)
{
	refuse_text(_metadata, self->dir, self->p, 0, "u::rw-,o::---");
}

TEST_F(malformed, missing_other)
{
	refuse_text(_metadata, self->dir, self->p, 0, "u::rw-,g::r--");
}

TEST_F(malformed, named_user_without_mask)
{
	refuse_text(_metadata, self->dir, self->p, 0, "u::rw-,u:1001:rw-,g::r--,o::---");
}

TEST_F(malformed, named_group_without_mask)
{
	refuse_text(_metadata, self->dir, self->p, 0, "u::rw-,g::r--,g:1002:rw-,o::---");
}

/*
 * Linux's posix_acl_valid() checks the tag order but neither the order of
 * named entries nor duplicates: such values are accepted and stored as
 * written.  The share must do what the local tmpfs does.
 */
static void same_as_local(struct __test_metadata *_metadata, const char *dir,
			  const char *ldir, char *p, char *q, const char *text)
{
	char ts[1024], tl[1024];
	int rs, rl, gs, gl;

	prepare(_metadata, p, dir, 0);
	rs = a9_set_text(p, A9_XA_ACCESS, text);
	gs = a9_get_text(p, A9_XA_ACCESS, ts, sizeof(ts));
	if (!ldir[0]) {
		/* no local twin: what Linux 6.1 does */
		EXPECT_ERRNO(0, rs);
		EXPECT_ACL(p, A9_XA_ACCESS, text);
		return;
	}
	prepare(_metadata, q, ldir, 0);
	rl = a9_set_text(q, A9_XA_ACCESS, text);
	gl = a9_get_text(q, A9_XA_ACCESS, tl, sizeof(tl));
	EXPECT_ERRNO(rl, rs);
	EXPECT_ERRNO(gl, gs);
	EXPECT_STREQ(tl, ts);
	EXPECT_EQ(a9_mode(q), a9_mode(p));
	/* the local answer is 6.1's: accepted and read back as written */
	EXPECT_ERRNO(0, rl);
	EXPECT_ACL(q, A9_XA_ACCESS, text);
	if (!gl)
		a9_hostcheck_text(p, A9_XA_ACCESS, tl);
}

TEST_F(malformed, duplicate_named_user_same_as_local)
{
	same_as_local(_metadata, self->dir, self->ldir, self->p, self->q,
		      "u::rw-,u:1001:r--,u:1001:rw-,g::r--,m::rw-,o::---");
}

TEST_F(malformed, duplicate_named_group_same_as_local)
{
	same_as_local(_metadata, self->dir, self->ldir, self->p, self->q,
		      "u::rw-,g::r--,g:1002:r--,g:1002:r--,m::r--,o::---");
}

TEST_F(malformed, duplicate_user_obj)
{
	refuse_text(_metadata, self->dir, self->p, 0, "u::rw-,u::r--,g::r--,o::---");
}

TEST_F(malformed, two_masks)
{
	refuse_text(_metadata, self->dir, self->p, 0,
		    "u::rw-,u:1001:r--,g::r--,m::r--,m::rw-,o::---");
}

TEST_F(malformed, unsorted_named_users_same_as_local)
{
	same_as_local(_metadata, self->dir, self->ldir, self->p, self->q,
		      "u::rw-,u:1002:r--,u:1001:r--,g::r--,m::r--,o::---");
}

TEST_F(malformed, unsorted_tags)
{
	refuse_text(_metadata, self->dir, self->p, 0, "g::r--,u::rw-,o::---");
}

TEST_F(malformed, other_before_mask)
{
	refuse_text(_metadata, self->dir, self->p, 0,
		    "u::rw-,u:1001:r--,g::r--,o::---,m::r--");
}

TEST_F(malformed, unknown_tag)
{
	const struct a9_ent e[] = { U(6), { 0x40, 4, 1001 }, G(4), M(4), O(0) };

	refuse_ents(_metadata, self->dir, self->p, 0, 2, e, 5);
}

TEST_F(malformed, perm_bits_outside_rwx)
{
	const struct a9_ent e[] = { U(6 | 8), G(4), O(0) };

	refuse_ents(_metadata, self->dir, self->p, 0, 2, e, 3);
}

TEST_F(malformed, named_user_id_minus_1)
{
	const struct a9_ent e[] = { U(6), NU(0xffffffffu, 4), G(4), M(4), O(0) };

	refuse_ents(_metadata, self->dir, self->p, 0, 2, e, 5);
}

TEST_F(malformed, named_group_id_minus_1)
{
	const struct a9_ent e[] = { U(6), G(4), NG(0xffffffffu, 4), M(4), O(0) };

	refuse_ents(_metadata, self->dir, self->p, 0, 2, e, 5);
}

TEST_F(malformed, default_acl_named_without_mask)
{
	refuse_text(_metadata, self->dir, self->p, 1,
		    "u::rwx,u:1001:rwx,g::r-x,o::---");
}

TEST_F(malformed, default_acl_wrong_version)
{
	refuse_ents(_metadata, self->dir, self->p, 1, 1, VALID, 5);
}

static void fill_garbage(unsigned char *p, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (unsigned char)(seed >> 16);
	}
}

TEST_F(malformed, garbage_64k_bad_header)
{
	fill_garbage(big, sizeof(big), 1);
	big[0] = 0x5a; big[1] = 0xa5; big[2] = 0x5a; big[3] = 0xa5;
	prepare(_metadata, self->p, self->dir, 0);
	refuse_err(_metadata, self->p, 0, big, sizeof(big), -EOPNOTSUPP);
}

TEST_F(malformed, garbage_64k_valid_header_odd_size)
{
	fill_garbage(big, sizeof(big), 2);
	big[0] = 2; big[1] = big[2] = big[3] = 0;
	prepare(_metadata, self->p, self->dir, 0);
	/* 65536 - 4 is not a multiple of 8 */
	refuse(_metadata, self->p, 0, big, sizeof(big));
}

TEST_F(malformed, garbage_64k_valid_header_whole_entries)
{
	size_t n = a9_xattr_size(8191);	/* 65532 bytes */

	fill_garbage(big, n, 3);
	big[0] = 2; big[1] = big[2] = big[3] = 0;
	big[4] = 0x40; big[5] = 0;	/* first entry: unknown tag */
	prepare(_metadata, self->p, self->dir, 0);
	refuse(_metadata, self->p, 0, big, n);
}

TEST_F(malformed, refused_value_creates_no_acl)
{
	unsigned char v[64];
	ssize_t n;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, NULL));
	n = a9_build(v, sizeof(v), "u::rw-,u:1001:rw-,g::r--,o::---");
	EXPECT_ERRNO(-EINVAL, a9_set_raw(self->p, A9_XA_ACCESS, v, (size_t)n));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0644);
	a9_hostcheck(self->p, A9_XA_ACCESS, NULL, 0);
}

TEST_F(malformed, base_entry_ids_are_ignored_and_normalized)
{
	/* ids of u::/g::/m::/o:: entries are not looked at: the kernel
	 * accepts them and stores/returns ACL_UNDEFINED_ID (-1) */
	const struct a9_ent e[] = {
		{ A9_ACL_USER_OBJ, 6, 1234 }, NU(1001, 4), { A9_ACL_GROUP_OBJ, 4, 5 },
		{ A9_ACL_MASK, 4, 0 }, { A9_ACL_OTHER, 0, 77 } };
	unsigned char v[128], want[128], got[128];
	ssize_t n, w, g;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	n = a9_encode(v, sizeof(v), 2, e, 5);
	ASSERT_EQ(0, a9_set_raw(self->p, A9_XA_ACCESS, v, (size_t)n));
	w = a9_build(want, sizeof(want), "u::rw-,u:1001:r--,g::r--,m::r--,o::---");
	g = a9_get(self->p, A9_XA_ACCESS, got, sizeof(got));
	ASSERT_EQ(w, g);
	EXPECT_EQ(0, memcmp(want, got, (size_t)w)) {
		char a[256];

		TH_LOG("read back %s", a9_decode(got, (size_t)g, a, sizeof(a)));
	}
	a9_hostcheck(self->p, A9_XA_ACCESS, want, (size_t)w);
}

TEST_F(malformed, empty_value_same_as_local)
{
	/* setxattr with size 0: Linux 6.1 turns it into the value "" (see
	 * __vfs_setxattr) and the ACL handler refuses it with EINVAL, the ACL
	 * stays; since 6.2 (do_set_acl) it removes the ACL.  Compare with the
	 * local tmpfs of the same kernel, whose answer must be 6.1's: the
	 * series keeps 6.1's refusal. */
	int rs, rl = -EINVAL, local_removed = 0; /* 6.1, without a twin */

	prepare(_metadata, self->p, self->dir, 0);
	rs = A9_ERR(lsetxattr(self->p, A9_XA_ACCESS, "", 0, 0));
	if (self->ldir[0]) {
		a9_path(self->q, self->ldir, "f");
		ASSERT_EQ(0, a9_mkfile(self->q, 0600, NULL));
		ASSERT_SET(self->q, A9_XA_ACCESS, PREV);
		rl = A9_ERR(lsetxattr(self->q, A9_XA_ACCESS, "", 0, 0));
		local_removed = a9_get(self->q, A9_XA_ACCESS, NULL, 0) == -ENODATA;
		EXPECT_ERRNO(-EINVAL, rl);
		EXPECT_EQ(0, local_removed) TH_LOG("the local ACL was removed; 6.1 keeps it");
	}
	EXPECT_ERRNO(rl, rs);
	if (local_removed) {
		EXPECT_NOACL(self->p, A9_XA_ACCESS);
		a9_hostcheck(self->p, A9_XA_ACCESS, NULL, 0);
	} else {
		EXPECT_ACL(self->p, A9_XA_ACCESS, PREV);
		a9_hostcheck_text(self->p, A9_XA_ACCESS, PREV);
	}
	EXPECT_MODE(self->p, 0640);
}

TEST_HARNESS_MAIN
