// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_names: xattr names next to the ACL names.  Only the two exact
 * names system.posix_acl_access and system.posix_acl_default are ACLs
 * (is_posix_acl_xattr() is a full string compare; the ACL xattr
 * handlers have a name, not a prefix).  A name that only begins like
 * one, or is one cut short, goes the raw xattr way: no handler of
 * tmpfs, ext4 or 9p takes "system." names other than those, so Linux
 * 6.1 answers EOPNOTSUPP, stores nothing and changes no ACL or mode.
 * A routing that compared prefixes would store or return an ACL under
 * such a name.  Each call runs on the share and, where there is one,
 * on the local tmpfs twin, and both must give 6.1's answer.
 */
#include "acl9p_test.h"

A9_FIXTURE(names, A9_PROBE)

static const char *const near[] = {
	"system.posix_acl_accessX",
	"system.posix_acl_access.",
	"system.posix_acl_acces",
	"system.posix_acl_defaultX",
	"system.posix_acl_defaul",
	"system.posix_acl",
	"system.posix_acl_",
};

#define NNEAR (sizeof(near) / sizeof(near[0]))

static const char *ACL = "u::rw-,u:1001:r--,g::r--,m::r--,o::---";

/* 0 or -errno of op on the file NAME under base */
enum op { SET, GET, REMOVE };

static int near_op(const char *base, const char *file, enum op op,
		   const char *name)
{
	char p[PATH_MAX], v[256];
	ssize_t n = a9_build(v, sizeof(v), ACL);

	if (n < 0)
		return (int)n;
	a9_path(p, base, file);
	switch (op) {
	case SET:
		return A9_ERR(setxattr(p, name, v, (size_t)n, 0));
	case GET:
		return getxattr(p, name, v, sizeof(v)) < 0 ? -errno : 0;
	case REMOVE:
		return A9_ERR(removexattr(p, name));
	}
	return -EINVAL;
}

static void make_both(struct __test_metadata *_metadata, const char *dir,
		      const char *ldir, const char *file, bool isdir,
		      const char *acl)
{
	const char *bases[2] = { dir, ldir };
	char p[PATH_MAX];

	for (int i = 0; i < 2; i++) {
		if (!bases[i][0])
			continue;
		a9_path(p, bases[i], file);
		ASSERT_EQ(0, isdir ? a9_mkdir(p, 0755) : a9_mkfile(p, 0644, NULL));
		if (acl)
			ASSERT_SET(p, isdir ? A9_XA_DEFAULT : A9_XA_ACCESS, acl);
	}
}

/* OP with every near name on FILE: the share's answer is the local
 * twin's, and both are 6.1's EOPNOTSUPP */
static void each_near(struct __test_metadata *_metadata, const char *dir,
		      const char *ldir, const char *file, enum op op)
{
	static const char *const ops[] = { "setxattr", "getxattr", "removexattr" };

	for (size_t i = 0; i < NNEAR; i++) {
		int rs = near_op(dir, file, op, near[i]);

		if (ldir[0]) {
			int rl = near_op(ldir, file, op, near[i]);

			EXPECT_EQ(rl, rs) TH_LOG("%s(%s, %s): share %s, local tmpfs %s",
						 ops[op], file, near[i],
						 a9_errname(rs), a9_errname(rl));
		}
		EXPECT_EQ(-EOPNOTSUPP, rs) TH_LOG("%s(%s, %s): %s, Linux 6.1 gives EOPNOTSUPP",
						  ops[op], file, near[i], a9_errname(rs));
		EXPECT_EQ(0, a9_listed(a9_path((char[PATH_MAX]){ 0 }, dir, file), near[i]))
			TH_LOG("%s lists %s", file, near[i]);
	}
}

TEST_F(names, near_names_store_no_acl)
{
	make_both(_metadata, self->dir, self->ldir, "f", false, NULL);
	make_both(_metadata, self->dir, self->ldir, "d", true, NULL);
	each_near(_metadata, self->dir, self->ldir, "f", SET);
	each_near(_metadata, self->dir, self->ldir, "d", SET);

	a9_path(self->p, self->dir, "f");
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0644);
	a9_hostcheck(self->p, A9_XA_ACCESS, NULL, 0);
	a9_path(self->q, self->dir, "d");
	EXPECT_NOACL(self->q, A9_XA_ACCESS);
	EXPECT_NOACL(self->q, A9_XA_DEFAULT);
	EXPECT_MODE(self->q, 0755);
	a9_drop_caches();
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_NOACL(self->q, A9_XA_DEFAULT);
}

TEST_F(names, near_names_read_and_remove_no_acl)
{
	make_both(_metadata, self->dir, self->ldir, "f", false, ACL);
	make_both(_metadata, self->dir, self->ldir, "d", true, ACL);
	each_near(_metadata, self->dir, self->ldir, "f", GET);
	each_near(_metadata, self->dir, self->ldir, "d", GET);
	each_near(_metadata, self->dir, self->ldir, "f", REMOVE);
	each_near(_metadata, self->dir, self->ldir, "d", REMOVE);

	a9_path(self->p, self->dir, "f");
	a9_path(self->q, self->dir, "d");
	a9_drop_caches();
	EXPECT_ACL(self->p, A9_XA_ACCESS, ACL);
	EXPECT_ACL(self->q, A9_XA_DEFAULT, ACL);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, ACL);
}

TEST_HARNESS_MAIN
