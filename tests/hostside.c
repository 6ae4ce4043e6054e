// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_hostside: ACLs between the guest and the host's export.
 *
 * Guest -> host: each "hostcheck" test writes ACLs in a known way, fsyncs,
 * checks the guest view and prints
 *   # HOSTCHECK <path relative to ACL9P_MNT> <xattr> <hex|absent>
 * for the rig to compare with what the host export stores.
 *
 * Host -> guest: the rig pre-populates ACL9P_MNT/hostset/ before boot with
 *   f: u::rw-,u:1001:r--,g::r--,m::r--,o::---
 *   d: default d:u::rwx,d:u:1002:r-x,d:g::r-x,d:m::r-x,d:o::---, mode 0750
 * and the "hostset" tests read them (SKIP when hostset/ is missing).
 */
#include <linux/capability.h>

#include <dirent.h>

#include "acl9p_test.h"

A9_FIXTURE(hostcheck, A9_PROBE)

TEST_F(hostcheck, access_named_users_and_groups)
{
	const char *t = "u::rw-,u:1001:r--,u:1002:rw-,g::r--,g:1001:r--,g:1003:rw-,m::rw-,o::---";

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0640, "x"));
	ASSERT_SET(self->p, A9_XA_ACCESS, t);
	EXPECT_ACL(self->p, A9_XA_ACCESS, t);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, t);
	a9_hostcheck(self->p, A9_XA_DEFAULT, NULL, 0);
}

TEST_F(hostcheck, default_acl_on_dir)
{
	const char *t = "u::rwx,u:1001:rwx,g::r-x,g:1002:r-x,m::rwx,o::---";

	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	ASSERT_SET(self->p, A9_XA_DEFAULT, t);
	EXPECT_ACL(self->p, A9_XA_DEFAULT, t);
	a9_hostcheck_text(self->p, A9_XA_DEFAULT, t);
	a9_hostcheck(self->p, A9_XA_ACCESS, NULL, 0);
}

TEST_F(hostcheck, libacl_written_acl)
{
	const char *t = "u::rwx,u:1003:r-x,g::r-x,m::r-x,o::r--";

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_EQ(0, a9_lib_set_text(self->p, 0, t));
	EXPECT_ACL(self->p, A9_XA_ACCESS, t);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, t);
}

TEST_F(hostcheck, large_ids)
{
	const char *t = "u::rw-,u:65534:r--,u:4294967294:rw-,g::r--,g:100000:r--,m::rw-,o::---";

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, t);
	EXPECT_ACL(self->p, A9_XA_ACCESS, t);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, t);
}

TEST_F(hostcheck, overwritten_acl_last_value)
{
	const char *t = "u::rw-,u:1002:r--,g::r--,m::r--,o::---";

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,u:1003:rwx,g::r--,m::rwx,o::---");
	ASSERT_SET(self->p, A9_XA_ACCESS, t);
	EXPECT_ACL(self->p, A9_XA_ACCESS, t);
	EXPECT_MODE(self->p, 0640);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, t);
}

TEST_F(hostcheck, chmod_rewrites_stored_mask)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,m::rwx,o::---");
	ASSERT_EQ(0, chmod(self->p, 0604));
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,m::---,o::r--");
	a9_hostcheck_text(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,m::---,o::r--");
}

TEST_F(hostcheck, removexattr_leaves_nothing)
{
	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0755));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::r-x");
	ASSERT_SET(self->p, A9_XA_DEFAULT, "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::r-x");
	ASSERT_EQ(0, a9_remove(self->p, A9_XA_ACCESS));
	ASSERT_EQ(0, a9_remove(self->p, A9_XA_DEFAULT));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
	a9_hostcheck(self->p, A9_XA_ACCESS, NULL, 0);
	a9_hostcheck(self->p, A9_XA_DEFAULT, NULL, 0);
}

TEST_F(hostcheck, equivalent_acl_leaves_nothing)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,m::rwx,o::---");
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,g::r--,o::r--");
	EXPECT_MODE(self->p, 0644);
	a9_hostcheck(self->p, A9_XA_ACCESS, NULL, 0);
}

TEST_F(hostcheck, inherited_file_and_subdir)
{
	const char *def = "u::rwx,u:1001:rwx,g::r-x,g:1002:rw-,m::rwx,o::r--";

	a9_path(self->q, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->q, 0755));
	ASSERT_SET(self->q, A9_XA_DEFAULT, def);
	a9_path(self->p, self->dir, "d/f");
	ASSERT_EQ(0, close(open(self->p, O_CREAT | O_EXCL | O_WRONLY, 0640)));
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r-x,g:1002:rw-,m::r--,o::---");
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
	EXPECT_MODE(self->p, 0640);
	a9_hostcheck_text(self->p, A9_XA_ACCESS,
			  "u::rw-,u:1001:rwx,g::r-x,g:1002:rw-,m::r--,o::---");
	a9_hostcheck(self->p, A9_XA_DEFAULT, NULL, 0);
	a9_path(self->p, self->dir, "d/s");
	ASSERT_EQ(0, mkdir(self->p, 0750));
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rwx,u:1001:rwx,g::r-x,g:1002:rw-,m::r-x,o::---");
	EXPECT_ACL(self->p, A9_XA_DEFAULT, def);
	EXPECT_MODE(self->p, 0750);
	a9_hostcheck_text(self->p, A9_XA_ACCESS,
			  "u::rwx,u:1001:rwx,g::r-x,g:1002:rw-,m::r-x,o::---");
	a9_hostcheck_text(self->p, A9_XA_DEFAULT, def);
}

TEST_F(hostcheck, refused_value_leaves_old_value)
{
	const char *t = "u::rw-,u:1001:r--,g::r--,m::r--,o::---";

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, t);
	EXPECT_ERRNO(-EINVAL, a9_set_text(self->p, A9_XA_ACCESS, "u::rw-,u:1002:rw-,g::r--,o::---"));
	a9_hostcheck_text(self->p, A9_XA_ACCESS, t);
}

/* ---------------------------------------------------------------- hostset */

FIXTURE(hostset) {
	char hs[PATH_MAX];
	char p[PATH_MAX];
	char q[PATH_MAX];
};

FIXTURE_SETUP(hostset)
{
	struct stat st;

	umask(022);
	a9_path(self->hs, a9_mnt(), "hostset");
	if (stat(self->hs, &st))
		A9_SETUP_SKIP("%s/hostset missing: the host did not pre-populate it", a9_mnt());
	/*
	 * These tests only read, so they have no probe of their own: skip
	 * when reading the host's ACL is refused by a kernel that may lack
	 * ACL support (the init's probe says so); otherwise let them fail.
	 */
	if (!a9_acl_required()) {
		char t[4096];

		a9_path(self->p, self->hs, "f");
		if (a9_get_text(self->p, A9_XA_ACCESS, t, sizeof(t)) == -EOPNOTSUPP)
			A9_SETUP_SKIP("POSIX ACLs not supported on %s (getxattr %s: EOPNOTSUPP)",
				      a9_mnt(), A9_XA_ACCESS);
	}
}

FIXTURE_TEARDOWN(hostset)
{
}

TEST_F(hostset, file_acl_reads_back)
{
	a9_path(self->p, self->hs, "f");
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1001:r--,g::r--,m::r--,o::---");
	EXPECT_EQ((ssize_t)a9_xattr_size(5), a9_get(self->p, A9_XA_ACCESS, NULL, 0));
	EXPECT_EQ(1, a9_listed(self->p, A9_XA_ACCESS));
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
}

TEST_F(hostset, file_mode_matches_acl)
{
	a9_path(self->p, self->hs, "f");
	EXPECT_MODE(self->p, 0640);
}

TEST_F(hostset, file_acl_via_libacl)
{
	char t[256];

	a9_path(self->p, self->hs, "f");
	ASSERT_EQ(0, a9_lib_get_text(self->p, 0, t, sizeof(t)));
	EXPECT_STREQ("u::rw-,u:1001:r--,g::r--,m::r--,o::---", t);
}

TEST_F(hostset, dir_default_acl_reads_back)
{
	a9_path(self->p, self->hs, "d");
	EXPECT_ACL(self->p, A9_XA_DEFAULT, "u::rwx,u:1002:r-x,g::r-x,m::r-x,o::---");
	EXPECT_EQ(1, a9_listed(self->p, A9_XA_DEFAULT));
	/* the access ACL equals the mode: no xattr */
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0750);
}

TEST_F(hostset, host_default_inherited_by_guest_creations)
{
	char name[256];

	snprintf(name, sizeof(name), "d/%s.hostset.inherit", a9_binary());
	a9_path(self->q, self->hs, name);
	ASSERT_EQ(0, a9_rm_rf(self->q));
	ASSERT_EQ(0, mkdir(self->q, 0777));
	EXPECT_ACL(self->q, A9_XA_DEFAULT, "u::rwx,u:1002:r-x,g::r-x,m::r-x,o::---");
	EXPECT_ACL(self->q, A9_XA_ACCESS, "u::rwx,u:1002:r-x,g::r-x,m::r-x,o::---");
	EXPECT_MODE(self->q, 0750);
	a9_hostcheck_text(self->q, A9_XA_ACCESS, "u::rwx,u:1002:r-x,g::r-x,m::r-x,o::---");
	a9_hostcheck_text(self->q, A9_XA_DEFAULT, "u::rwx,u:1002:r-x,g::r-x,m::r-x,o::---");
	a9_path(self->p, self->q, "f");
	ASSERT_EQ(0, close(open(self->p, O_CREAT | O_EXCL | O_WRONLY, 0666)));
	/* mask: default r-x & create mode's group rw- */
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1002:r-x,g::r-x,m::r--,o::---");
	EXPECT_MODE(self->p, 0640);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, "u::rw-,u:1002:r-x,g::r-x,m::r--,o::---");
}

TEST_F(hostset, file_acl_decides_permission)
{
	struct a9_cred c1 = { .uid = 1001, .gid = 1001 }, c2 = { .uid = 1002, .gid = 1002 };
	struct a9_open_arg a;
	struct stat st;
	int r;

	a9_path(self->p, self->hs, "f");
	ASSERT_EQ(0, stat(self->p, &st));
	if (st.st_uid == 1001 || st.st_uid == 1002 || st.st_gid == 1001 || st.st_gid == 1002)
		SKIP(return, "hostset/f owned by %u:%u, expected a non-test owner",
		     (unsigned)st.st_uid, (unsigned)st.st_gid);
	a = (struct a9_open_arg){ self->p, O_RDONLY, 0 };
	A9_RUN_AS(r, &c1, a9_fn_open, &a);
	EXPECT_EQ(0, r) TH_LOG("uid 1001 (u:1001:r--) read: %s", a9_errname(r));
	A9_RUN_AS(r, &c2, a9_fn_open, &a);
	EXPECT_EQ(EACCES, r) TH_LOG("uid 1002 (other ---) read: %s", a9_errname(r));
	a.flags = O_WRONLY;
	A9_RUN_AS(r, &c1, a9_fn_open, &a);
	EXPECT_EQ(EACCES, r) TH_LOG("uid 1001 (u:1001:r--) write: %s", a9_errname(r));
}

/* ---- a malformed ACL stored on the host (hostbad/, prepare-export.sh) */

FIXTURE(hostbad) {
	char p[PATH_MAX];
};

FIXTURE_SETUP(hostbad)
{
	const char *access;
	char d[PATH_MAX];
	DIR *dir;
	struct dirent *de;
	int found = 0;

	/* readdir, not stat: the lookup is what is under test */
	a9_path(d, a9_mnt(), "hostbad");
	dir = opendir(d);
	if (!dir)
		A9_SETUP_SKIP("%.200s: %s: the server keeps real ACLs, which the host kernel validates, so it holds no malformed one",
			      d, strerror(errno));
	while ((de = readdir(dir)))
		found |= !strcmp(de->d_name, "f");
	closedir(dir);
	ASSERT_TRUE(found) TH_LOG("%s/f missing (prepare-export.sh makes it)", d);
	/*
	 * In the other access modes the client takes no decision from an
	 * ACL (the server decides, and QEMU's mapped-xattr keeps these
	 * values as opaque xattrs): nothing here is the client's.
	 */
	access = a9_env("ACL9P_ACCESS", "(unset)");
	if (strcmp(access, "client"))
		A9_SETUP_SKIP("access=%s: the client enforces no ACL, so none of its decisions can fail closed",
			      access);
	a9_path(self->p, d, "f");
}

FIXTURE_TEARDOWN(hostbad)
{
}

/*
 * hostbad/NAME (prepare-export.sh) holds an access ACL the client cannot
 * take, on a file of mode 0644 owned by root: f's does not parse
 * (version 1); nomask's (u:1001:rw- without a mask) and unsorted's
 * (u:1001:rw- after g::) parse entry by entry, but posix_acl_valid()
 * refuses them, and enforced as stored they would give uid 1001 a
 * write the mask forbids.  With access=client the client decides from
 * the ACL, and no decision may use anything but the ACL the server
 * holds: every access the ACL decides fails with EIO, for a user named
 * in it and for a group-class caller alike, and reading the ACL fails
 * with EIO too.  The mode bits would let both read: nothing they allow
 * alone may be granted.
 *
 * What needs no ACL may succeed: a stat, and the owner's own access,
 * which the owner's mode bits decide on every POSIX ACL filesystem (the
 * ACL's u:: entry is those bits): stat_and_owner_need_no_acl.
 */
static const struct a9_cred uid1001 = { .uid = 1001, .gid = 1001 };
/* not the owner, in the owning group (root's): the ACL's group class */
static const struct a9_cred group0 = { .uid = 1002, .gid = 0 };

static char *hostbad_path(char *p, const char *name)
{
	char d[PATH_MAX];

	return a9_path(p, a9_path(d, a9_mnt(), "hostbad"), name);
}

static int fn_get_access_acl(void *arg)
{
	char v[256];

	return lgetxattr(arg, A9_XA_ACCESS, v, sizeof(v)) < 0 ? errno : 0;
}

static void unusable_acl_fails_closed(struct __test_metadata *_metadata,
				      const char *name)
{
	struct a9_open_arg a;
	char p[PATH_MAX];
	int r;

	hostbad_path(p, name);
	a = (struct a9_open_arg){ p, O_RDONLY, 0 };
	A9_RUN_AS(r, &uid1001, a9_fn_open, &a);
	EXPECT_EQ(EIO, r) TH_LOG("open(%s, O_RDONLY) as uid 1001: %s, expected EIO (the mode bits alone would grant it)",
				 p, r ? a9_errname(r) : "granted");
	a.flags = O_WRONLY;
	A9_RUN_AS(r, &uid1001, a9_fn_open, &a);
	EXPECT_EQ(EIO, r) TH_LOG("open(%s, O_WRONLY) as uid 1001: %s, expected EIO",
				 p, r ? a9_errname(r) : "granted");
	a.flags = O_RDONLY;
	A9_RUN_AS(r, &group0, a9_fn_open, &a);
	EXPECT_EQ(EIO, r) TH_LOG("open(%s, O_RDONLY) as uid 1002 of the owning group: %s, expected EIO",
				 p, r ? a9_errname(r) : "granted");
	r = fn_get_access_acl(p);
	EXPECT_EQ(EIO, r) TH_LOG("getxattr(%s, %s) as root: %s, expected EIO",
				 p, A9_XA_ACCESS, r ? a9_errname(r) : "a value");
	A9_RUN_AS(r, &uid1001, fn_get_access_acl, p);
	EXPECT_EQ(EIO, r) TH_LOG("getxattr(%s, %s) as uid 1001: %s, expected EIO",
				 p, A9_XA_ACCESS, r ? a9_errname(r) : "a value");
}

TEST_F(hostbad, malformed_host_acl_fails_closed)
{
	unusable_acl_fails_closed(_metadata, "f");
}

TEST_F(hostbad, named_user_without_mask_fails_closed)
{
	unusable_acl_fails_closed(_metadata, "nomask");
}

TEST_F(hostbad, entries_out_of_order_fail_closed)
{
	unusable_acl_fails_closed(_metadata, "unsorted");
}

TEST_F(hostbad, stat_and_owner_need_no_acl)
{
	static const char *const names[] = { "f", "nomask", "unsorted" };
	char p[PATH_MAX], buf[64];
	struct stat st;
	unsigned i;
	ssize_t n;
	int fd;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		hostbad_path(p, names[i]);
		EXPECT_EQ(0, A9_ERR(stat(p, &st)))
			TH_LOG("stat %s: %s, expected success (a stat needs no ACL)",
			       p, strerror(errno));
		/* the owner's own access: root owns it, mode bits rw- */
		fd = open(p, O_RDONLY);
		EXPECT_LE(0, fd) TH_LOG("open(%s, O_RDONLY) as its owner: %s, expected success (the owner's mode bits decide)",
					p, strerror(errno));
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		EXPECT_STREQ("malformed ACL\n", buf) TH_LOG("content of %s", p);
	}
}

/*
 * hostbad/d's default ACL does not parse (prepare-export.sh).  A file
 * created in it would inherit from that ACL: with access=client the
 * create fails with EIO rather than make a file from the mode and the
 * umask alone.  root owns the directory (mode 0755): the owner's mode
 * bits let it search and write there without its access ACL.
 */
TEST_F(hostbad, create_under_malformed_default_acl_fails_closed)
{
	char d[PATH_MAX], p[PATH_MAX];
	int fd, r;

	hostbad_path(d, "d");
	a9_path(p, d, "new");
	fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0644);
	r = fd < 0 ? -errno : 0;
	if (fd >= 0) {
		close(fd);
		unlink(p);
	}
	EXPECT_ERRNO(-EIO, r);
	r = A9_ERR(mkdir(p, 0755));
	if (!r)
		rmdir(p);
	EXPECT_ERRNO(-EIO, r);
}

/*
 * A named user twice is an ACL the kernel stores (posix_acl_valid()
 * checks the tag order, not duplicates: malformed.duplicate_named_user_*
 * sets one on the share and on a tmpfs), so the client must take it
 * from the server too, not fail it, and enforce it as a local
 * filesystem does: the first entry that matches decides, u:1001:r--.
 */
TEST_F(hostbad, duplicate_named_user_first_entry_decides)
{
	struct a9_open_arg a;
	char p[PATH_MAX];
	struct stat st;
	int r;

	hostbad_path(p, "dupentry");
	ASSERT_EQ(0, A9_ERR(stat(p, &st))) TH_LOG("stat %s: %s", p, strerror(errno));
	a = (struct a9_open_arg){ p, O_RDONLY, 0 };
	A9_RUN_AS(r, &uid1001, a9_fn_open, &a);
	EXPECT_EQ(0, r) TH_LOG("open(%s, O_RDONLY) as uid 1001: %s", p, a9_errname(r));
	a.flags = O_WRONLY;
	A9_RUN_AS(r, &uid1001, a9_fn_open, &a);
	EXPECT_EQ(EACCES, r) TH_LOG("open(%s, O_WRONLY) as uid 1001: %s, expected EACCES",
				    p, r ? a9_errname(r) : "granted");
}

TEST_HARNESS_MAIN
