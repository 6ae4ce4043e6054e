// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_overlay: POSIX ACLs through overlayfs, whose own ACL writes the
 * series routes through the ACL api (patch 10).  overlayfs writes ACLs
 * to its upper layer in three places: copy up (the ACLs of the lower
 * object), create over a whiteout (the ACLs inherited from the merged
 * parent) and the work dir (it removes what the work dir inherited, so
 * that nothing created there leaks it).  Each variant puts the layers
 * somewhere else:
 *   local:       lower, upper and work on the guest's tmpfs;
 *   share_upper: upper and work on the share, lower on tmpfs (with
 *                access=client the upper interprets ACLs, with
 *                access=user it keeps them as opaque xattrs);
 *   share_lower: lower on the share, upper and work on tmpfs (with
 *                access=user a lower ACL is a raw value the upper must
 *                parse, as 6.1 did).
 * The fixture builds the same lower tree each time and gives the work
 * dir a default ACL of its own before the mount: a uid no layer names
 * (1002), which must reach nothing.
 */
#include <sys/mount.h>

#include "acl9p_test.h"

/* lower/d: default ACL DEF, holds f; lower/fa: access ACL ACC */
static const char *DEF = "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::---";
/* what a file created with mode 0640 in d gets from DEF */
static const char *INH = "u::rw-,u:1001:rwx,g::r-x,m::r--,o::---";
static const char *ACC = "u::rw-,u:1001:r--,g::r--,m::r--,o::---";
/* the work dir's own default ACL: a uid no layer names */
static const char *WORKDEF = "u::rwx,u:1002:rwx,g::r-x,m::rwx,o::r-x";

/*
 * Whether the share's dentries need revalidation: 9p with cache=loose or
 * fscache has v9fs_cached_dentry_operations, whose d_revalidate asks the
 * server, and overlayfs refuses such a filesystem as its upper layer
 * (ovl_dentry_remote(): "not supported as upperdir", EINVAL).  Read from
 * the share's super options in /proc/self/mountinfo: 6.1 shows the mode
 * as a bare "loose" or "fscache"; from 6.6 cache= is a bit mask printed
 * in hex (loose is 0xf, fscache 0x8f), and the cached dentry operations
 * come with its CACHE_META (0x2) or CACHE_LOOSE (0x8) bit.
 */
static bool share_revalidates(void)
{
	static const char *const modes[] = { "loose", "fscache", "cache=loose",
					     "cache=fscache" };
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096];
	bool found = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		/* id parent dev root point opts [tags...] - type source super */
		char *w[64], *save, *opt;
		int n = 0, dash = 0;

		for (char *t = strtok_r(line, " \n", &save); t && n < 64;
		     t = strtok_r(NULL, " \n", &save))
			w[n++] = t;
		for (int i = 6; i < n && !dash; i++)
			if (!strcmp(w[i], "-"))
				dash = i;
		if (!dash || dash + 3 >= n || strcmp(w[4], a9_mnt()))
			continue;
		/* the last mount on the point is the one a lookup meets */
		found = false;
		if (strcmp(w[dash + 1], "9p"))
			continue;
		for (opt = strtok_r(w[dash + 3], ",", &save); opt && !found;
		     opt = strtok_r(NULL, ",", &save)) {
			for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
				found |= !strcmp(opt, modes[i]);
			if (!strncmp(opt, "cache=0x", 8))
				found |= (strtoul(opt + 8, NULL, 16) & 0xa) != 0;
		}
	}
	fclose(f);
	return found;
}

FIXTURE(overlay) {
	char base_lower[PATH_MAX], base_upper[PATH_MAX];
	char lower[PATH_MAX], upper[PATH_MAX], work[PATH_MAX];
	char merged[PATH_MAX];
	char p[PATH_MAX], q[PATH_MAX];
	int mounted;
};

FIXTURE_VARIANT(overlay) {
	const char *where;	/* the variant's name, for the work dirs */
	int lower_on_share, upper_on_share;
};

FIXTURE_VARIANT_ADD(overlay, local) {
	.where = "local",
	.lower_on_share = 0, .upper_on_share = 0,
};

FIXTURE_VARIANT_ADD(overlay, share_upper) {
	.where = "share_upper",
	.lower_on_share = 0, .upper_on_share = 1,
};

FIXTURE_VARIANT_ADD(overlay, share_lower) {
	.where = "share_lower",
	.lower_on_share = 1, .upper_on_share = 0,
};

FIXTURE_SETUP(overlay)
{
	char name[512], opts[4 * PATH_MAX];
	struct stat st;
	int r;

	umask(022);
	self->mounted = 0;
	snprintf(name, sizeof(name), "%s.%s.%s", a9_binary(), variant->where,
		 _metadata->name);
	if (stat(a9_local(), &st))
		A9_SETUP_SKIP("ACL9P_LOCAL (%s) does not exist", a9_local());
	r = a9_mkworkdir(variant->lower_on_share ? a9_mnt() : a9_local(),
			 name, self->base_lower, sizeof(self->base_lower));
	ASSERT_EQ(0, r) TH_LOG("lower work dir: %s", a9_errname(r));
	if (variant->lower_on_share == variant->upper_on_share) {
		snprintf(self->base_upper, sizeof(self->base_upper), "%s",
			 self->base_lower);
	} else {
		r = a9_mkworkdir(variant->upper_on_share ? a9_mnt() : a9_local(),
				 name, self->base_upper, sizeof(self->base_upper));
		ASSERT_EQ(0, r) TH_LOG("upper work dir: %s", a9_errname(r));
	}
	/* the layer on the share needs its ACLs (none with 9P2000.u) */
	if (variant->lower_on_share || variant->upper_on_share)
		a9_setup_probe(_metadata, variant->lower_on_share ?
				 self->base_lower : self->base_upper);
	a9_path(self->lower, self->base_lower, "lower");
	a9_path(self->upper, self->base_upper, "upper");
	a9_path(self->work, self->base_upper, "work");
	/* the mount point on the tmpfs side, whichever layer that is */
	a9_path(self->merged, variant->lower_on_share ? self->base_upper :
			      self->base_lower, "merged");
	ASSERT_EQ(0, a9_mkdir(self->lower, 0755));
	ASSERT_EQ(0, a9_mkdir(self->upper, 0755));
	ASSERT_EQ(0, a9_mkdir(self->work, 0755));
	ASSERT_EQ(0, a9_mkdir(self->merged, 0755));

	/* the lower tree, before the mount (overlayfs does not expect a
	 * lower layer to change under it) */
	a9_path(self->p, self->lower, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0750));
	ASSERT_SET(self->p, A9_XA_DEFAULT, DEF);
	a9_path(self->p, self->lower, "d/f");
	ASSERT_EQ(0, a9_create(self->p, 0640));
	a9_path(self->p, self->lower, "plain");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	a9_path(self->p, self->lower, "fa");
	ASSERT_EQ(0, a9_create(self->p, 0640));
	ASSERT_SET(self->p, A9_XA_ACCESS, ACC);
	ASSERT_SET(self->work, A9_XA_DEFAULT, WORKDEF);

	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s",
		 self->lower, self->upper, self->work);
	r = A9_ERR(mount("overlay", self->merged, "overlay", 0, opts));
	if (r == -ENODEV)
		A9_SETUP_SKIP("overlayfs is not in this kernel (mount: ENODEV)");
	if (r == -EINVAL && variant->upper_on_share && share_revalidates())
		A9_SETUP_SKIP("the share revalidates its dentries (9p cache=loose or fscache), which overlayfs refuses in an upper layer (mount: EINVAL)");
	ASSERT_EQ(0, r) TH_LOG("mount -t overlay -o %s: %s", opts, a9_errname(r));
	self->mounted = 1;
}

FIXTURE_TEARDOWN(overlay)
{
	if (self->mounted)
		umount2(self->merged, MNT_DETACH);
}

/* A file recreated in a lower directory inherits that directory's
 * default ACL: create over a whiteout sets the inherited ACL on the
 * upper file. */
TEST_F(overlay, recreate_inherits_lower_default)
{
	int r;

	a9_path(self->p, self->merged, "d/f");
	/*
	 * The unlink leaves a whiteout, a 0/0 character device, in the
	 * upper layer: a share whose server cannot make one says ENXIO.
	 */
	r = unlink(self->p) ? errno : 0;
	if (r == ENXIO && variant->upper_on_share)
		SKIP(return, "the share cannot hold a whiteout (unlink over a lower file: ENXIO)");
	ASSERT_EQ(0, r) TH_LOG("unlink %s: %s", self->p, strerror(r));
	ASSERT_ERRNO(0, a9_create(self->p, 0640));
	EXPECT_ACL(self->p, A9_XA_ACCESS, INH);
	EXPECT_MODE(self->p, 0640);
	a9_path(self->q, self->upper, "d/f");
	EXPECT_ACL(self->q, A9_XA_ACCESS, INH);
}

/* A new file (no whiteout) in a copied-up directory inherits its
 * default ACL too. */
TEST_F(overlay, create_in_lower_dir_inherits_default)
{
	a9_path(self->p, self->merged, "d/g");
	ASSERT_ERRNO(0, a9_create(self->p, 0640));
	EXPECT_ACL(self->p, A9_XA_ACCESS, INH);
	a9_path(self->q, self->upper, "d");
	EXPECT_ACL(self->q, A9_XA_DEFAULT, DEF);
}

/* The work dir's own ACLs are removed when overlayfs sets it up. */
TEST_F(overlay, workdir_inherited_acls_removed)
{
	a9_path(self->p, self->work, "work");
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
}

/* Copy up goes through the work dir: a directory copied up, and a file
 * created in it, get nothing from the work dir's default ACL. */
TEST_F(overlay, copy_up_takes_nothing_from_workdir)
{
	a9_path(self->p, self->merged, "plain/new");
	ASSERT_ERRNO(0, a9_create(self->p, 0644));
	a9_path(self->q, self->upper, "plain");
	EXPECT_NOACL(self->q, A9_XA_DEFAULT);
	EXPECT_NOACL(self->q, A9_XA_ACCESS);
	a9_path(self->q, self->upper, "plain/new");
	EXPECT_NOACL(self->q, A9_XA_ACCESS);
	EXPECT_MODE(self->q, 0644);
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
}

/* Copy up of a file keeps its access ACL. */
TEST_F(overlay, copy_up_keeps_access_acl)
{
	int fd;

	a9_path(self->p, self->merged, "fa");
	fd = open(self->p, O_WRONLY);
	ASSERT_LE(0, fd) TH_LOG("open %s for writing: %s", self->p,
				strerror(errno));
	close(fd);
	a9_path(self->q, self->upper, "fa");
	EXPECT_ACL(self->q, A9_XA_ACCESS, ACC);
	EXPECT_ACL(self->p, A9_XA_ACCESS, ACC);
	EXPECT_MODE(self->q, 0640);
}

/* An ACL set on a merged file lands in the upper layer. */
TEST_F(overlay, setacl_on_merged_stored_in_upper)
{
	static const char *NEW = "u::rw-,u:1003:rw-,g::r--,m::rw-,o::---";

	a9_path(self->p, self->merged, "d/f");
	ASSERT_SET(self->p, A9_XA_ACCESS, NEW);
	EXPECT_ACL(self->p, A9_XA_ACCESS, NEW);
	EXPECT_MODE(self->p, 0660);
	a9_path(self->q, self->upper, "d/f");
	EXPECT_ACL(self->q, A9_XA_ACCESS, NEW);
}

/* Removing the ACL of a merged file removes the upper's. */
TEST_F(overlay, remove_acl_on_merged)
{
	a9_path(self->p, self->merged, "fa");
	ASSERT_EQ(0, a9_remove(self->p, A9_XA_ACCESS));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	a9_path(self->q, self->upper, "fa");
	EXPECT_NOACL(self->q, A9_XA_ACCESS);
	EXPECT_MODE(self->q, 0640);
}

/* chmod of a merged file rewrites the mask of its ACL. */
TEST_F(overlay, chmod_on_merged_updates_mask)
{
	a9_path(self->p, self->merged, "fa");
	ASSERT_EQ(0, chmod(self->p, 0600));
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1001:r--,g::r--,m::---,o::---");
	a9_path(self->q, self->upper, "fa");
	EXPECT_ACL(self->q, A9_XA_ACCESS, "u::rw-,u:1001:r--,g::r--,m::---,o::---");
}

/*
 * A layer that keeps no ACLs at all (ramfs: no xattrs) is asked through
 * the overlay: a read of an ACL says EOPNOTSUPP, as 6.1's handler passed
 * on from the real layer's xattr code.  The series keeps that answer
 * (patch 10; v6.2's ovl_get_acl() says no ACL, ENODATA, for any real
 * inode without SB_POSIXACL, read from the code).  No share is used:
 * the same in every cell.
 */
TEST(lower_without_acls_answers_eopnotsupp)
{
	char base[PATH_MAX], lower[PATH_MAX], upper[PATH_MAX], work[PATH_MAX];
	char merged[PATH_MAX], opts[3 * PATH_MAX + 64], p[PATH_MAX];
	char v[256];
	int r;

	r = a9_mkworkdir(a9_local(), "acl9p_overlay.ramfs_lower", base, sizeof(base));
	ASSERT_EQ(0, r) TH_LOG("work dir under %s: %s", a9_local(), a9_errname(r));
	a9_path(lower, base, "lower");
	a9_path(upper, base, "upper");
	a9_path(work, base, "work");
	a9_path(merged, base, "merged");
	ASSERT_EQ(0, a9_mkdir(lower, 0755));
	ASSERT_EQ(0, a9_mkdir(upper, 0755));
	ASSERT_EQ(0, a9_mkdir(work, 0755));
	ASSERT_EQ(0, a9_mkdir(merged, 0755));
	r = mount("ramfs", lower, "ramfs", 0, NULL) ? -errno : 0;
	ASSERT_EQ(0, r) TH_LOG("mount ramfs on %s: %s", lower, a9_errname(r));
	a9_path(p, lower, "f");
	r = a9_mkfile(p, 0640, "x");
	EXPECT_EQ(0, r) TH_LOG("%s: %s", p, a9_errname(r));
	/* the layer itself: no xattrs, so no ACL */
	r = getxattr(p, A9_XA_ACCESS, v, sizeof(v)) < 0 ? -errno : 0;
	EXPECT_EQ(-EOPNOTSUPP, r) TH_LOG("getxattr on ramfs: %s", a9_errname(r));
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s",
		 lower, upper, work);
	r = mount("overlay", merged, "overlay", 0, opts) ? -errno : 0;
	EXPECT_EQ(0, r) TH_LOG("mount overlay %s: %s", opts, a9_errname(r));
	if (!r) {
		a9_path(p, merged, "f");
		r = getxattr(p, A9_XA_ACCESS, v, sizeof(v)) < 0 ? -errno : 0;
		EXPECT_EQ(-EOPNOTSUPP, r) TH_LOG("getxattr(%s, %s): %s", p,
						 A9_XA_ACCESS, a9_errname(r));
		EXPECT_MODE(p, 0640);
		EXPECT_EQ(0, umount2(merged, 0)) TH_LOG("umount %s: %s", merged,
							 strerror(errno));
	}
	EXPECT_EQ(0, umount2(lower, 0)) TH_LOG("umount %s: %s", lower, strerror(errno));
}

TEST_HARNESS_MAIN
