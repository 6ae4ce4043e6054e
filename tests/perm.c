// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_perm: permission decisions made by ACLs, checked
 * from real unprivileged processes (forked child: setgroups, libcap-ng
 * change_id to uid/gid 1000-1003, capabilities cleared unless a test keeps
 * one).  The expectations are local-filesystem semantics.  On access=user
 * cells the client does not evaluate ACLs and the server may not either
 * (QEMU runs as root; diod gives root-attached users CAP_DAC_OVERRIDE):
 * tests/expected lists those failures.
 */
#include <linux/capability.h>

#include "acl9p_test.h"

A9_FIXTURE(perm, A9_PROBE)

#define CRED(u, g, ...) { .uid = (u), .gid = (g), \
	.ngroups = sizeof((gid_t[]){ __VA_ARGS__ }) / sizeof(gid_t), \
	.groups = { __VA_ARGS__ } }

/* fn(arg) as c: its 0 or errno; -1000 once the test skipped */
static int as_uid(struct __test_metadata *_metadata, const struct a9_cred *c,
		  int (*fn)(void *), void *arg)
{
	int r = a9_run_as(c, fn, arg);

	if (r == -A9_NOSWITCH)
		SKIP(return -1000, "cannot switch to uid %u", (unsigned)c->uid);
	ASSERT_LE(0, r);
	return r;
}

/* result of open(path, flags) as uid: 0 or errno */
static int open_as(struct __test_metadata *_metadata, const struct a9_cred *c,
		   const char *path, int flags)
{
	struct a9_open_arg a = { path, flags, 0644 };

	return as_uid(_metadata, c, a9_fn_open, &a);
}

static int fn_stat(void *arg)
{
	struct stat st;

	return stat(arg, &st) ? errno : 0;
}

/*
 * The positive control of a refusal: c reaches the directory that holds
 * path (a stat of it needs search permission on every directory above).
 * An EACCES from a uid that could not get there says nothing of the ACL
 * under test.  0, or the stat's errno.
 */
static int reach_as(const struct a9_cred *c, const char *path)
{
	char dir[PATH_MAX], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir)
		*slash = '\0';
	return a9_run_as(c, fn_stat, dir);
}

/* an expected EACCES of c on path needs its positive control */
#define ASSERT_REACHES_IF_EACCES(c, path, err) do {			\
	if ((err) == EACCES) {						\
		ASSERT_EQ(0, reach_as(&c, path))			\
			TH_LOG("uid %u cannot reach the directory of %s: its EACCES would not be the ACL's", \
			       (unsigned)c.uid, path);		\
	}								\
} while (0)

/* expect open(path, flags) as c to give err (0 = success) */
#define EXPECT_OPEN(c, path, flags, err) do {				\
	struct a9_cred __c = c;						\
	int __r = open_as(_metadata, &__c, path, flags);		\
	if (__r == -1000)						\
		return;							\
	ASSERT_REACHES_IF_EACCES(__c, path, err);			\
	EXPECT_EQ(err, __r) TH_LOG("open(%s, %s) as uid %u gid %u: %s, expected %s", \
				   path, #flags, (unsigned)__c.uid,	\
				   (unsigned)__c.gid, a9_errname(__r),	\
				   a9_errname(err));			\
} while (0)

static void mkacl(struct __test_metadata *_metadata, char *p, const char *dir,
		  const char *name, uid_t uid, gid_t gid, const char *acl)
{
	a9_path(p, dir, name);
	ASSERT_EQ(0, a9_mkfile(p, 0600, "secret\n"));
	ASSERT_EQ(0, chown(p, uid, gid));
	if (acl)
		ASSERT_SET(p, A9_XA_ACCESS, acl);
}

TEST_F(perm, named_user_read_entry_allows_read)
{
	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,u:1001:r--,g::---,m::r--,o::---");
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_RDONLY, 0);
}

TEST_F(perm, named_user_read_entry_denies_write)
{
	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,u:1001:r--,g::---,m::r--,o::---");
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_WRONLY, EACCES);
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_RDWR, EACCES);
}

TEST_F(perm, unnamed_user_refused)
{
	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,u:1001:rw-,g::---,m::rw-,o::---");
	EXPECT_OPEN(CRED(1002, 1002), self->p, O_RDONLY, EACCES);
}

TEST_F(perm, named_user_no_entry_perms_refused)
{
	/* named entry with no permissions, while "other" may read */
	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,u:1001:---,g::r--,m::r--,o::r--");
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_RDONLY, EACCES);
	EXPECT_OPEN(CRED(1002, 1002), self->p, O_RDONLY, 0);
}

TEST_F(perm, mask_limits_named_user)
{
	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,u:1001:rw-,g::---,m::r--,o::---");
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_RDONLY, 0);
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_WRONLY, EACCES);
}

TEST_F(perm, mask_limits_owning_group)
{
	mkacl(_metadata, self->p, self->dir, "f", 0, 1003,
	      "u::rw-,u:1001:r--,g::rw-,m::r--,o::---");
	EXPECT_OPEN(CRED(1002, 1003), self->p, O_RDONLY, 0);
	EXPECT_OPEN(CRED(1002, 1003), self->p, O_WRONLY, EACCES);
}

TEST_F(perm, mask_does_not_limit_owner_or_other)
{
	mkacl(_metadata, self->p, self->dir, "f", 1001, 0,
	      "u::rw-,u:1002:-w-,g::-w-,m::r--,o::rw-");
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_RDWR, 0);
	EXPECT_OPEN(CRED(1003, 1003), self->p, O_RDWR, 0);
	/* named 1002 -w- & mask r-- = nothing; not "other" */
	EXPECT_OPEN(CRED(1002, 1002), self->p, O_WRONLY, EACCES);
	EXPECT_OPEN(CRED(1002, 1002), self->p, O_RDONLY, EACCES);
}

TEST_F(perm, empty_mask_means_mode_bits_decide)
{
	/* Linux (fs/namei.c acl_permission_check) consults the ACL only when
	 * the group bits (= mask) are not all clear; with m::--- a named
	 * user falls back to the "other" bits. */
	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,u:1002:rw-,g::rw-,m::---,o::r--");
	EXPECT_OPEN(CRED(1002, 1002), self->p, O_RDONLY, 0);
	EXPECT_OPEN(CRED(1002, 1002), self->p, O_WRONLY, EACCES);
}

TEST_F(perm, named_group_via_supplementary_group)
{
	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,g::---,g:1002:r--,m::r--,o::---");
	EXPECT_OPEN(CRED(1003, 1003, 1002), self->p, O_RDONLY, 0);
	EXPECT_OPEN(CRED(1003, 1003, 1002), self->p, O_WRONLY, EACCES);
}

TEST_F(perm, named_group_via_primary_group)
{
	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,g::---,g:1002:rw-,m::rw-,o::---");
	EXPECT_OPEN(CRED(1003, 1002), self->p, O_RDWR, 0);
}

TEST_F(perm, named_group_non_member_refused)
{
	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,g::---,g:1002:rw-,m::rw-,o::---");
	EXPECT_OPEN(CRED(1003, 1003), self->p, O_RDONLY, EACCES);
	EXPECT_OPEN(CRED(1003, 1003, 1001), self->p, O_RDONLY, EACCES);
}

TEST_F(perm, group_entries_do_not_combine)
{
	/* one matching group entry must grant all requested bits */
	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,g::---,g:1002:r--,g:1003:-w-,m::rw-,o::---");
	EXPECT_OPEN(CRED(1001, 1001, 1002, 1003), self->p, O_RDONLY, 0);
	EXPECT_OPEN(CRED(1001, 1001, 1002, 1003), self->p, O_WRONLY, 0);
	EXPECT_OPEN(CRED(1001, 1001, 1002, 1003), self->p, O_RDWR, EACCES);
}

TEST_F(perm, named_user_entry_beats_group_entries)
{
	mkacl(_metadata, self->p, self->dir, "f", 0, 1001,
	      "u::rw-,u:1001:---,g::rw-,m::rw-,o::r--");
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_RDONLY, EACCES);
	EXPECT_OPEN(CRED(1002, 1001), self->p, O_RDWR, 0);
}

TEST_F(perm, owner_entry_beats_named_entry)
{
	mkacl(_metadata, self->p, self->dir, "f", 1001, 0,
	      "u::---,u:1001:rw-,g::rw-,m::rw-,o::rw-");
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_RDONLY, EACCES);
}

TEST_F(perm, other_entry_for_unmatched_user)
{
	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,u:1001:rw-,g::---,m::rw-,o::r--");
	EXPECT_OPEN(CRED(1002, 1002), self->p, O_RDONLY, 0);
	EXPECT_OPEN(CRED(1002, 1002), self->p, O_WRONLY, EACCES);
}

TEST_F(perm, chmod_narrowing_mask_revokes_named_write)
{
	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,u:1001:rw-,g::---,m::rw-,o::---");
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_WRONLY, 0);
	ASSERT_EQ(0, chmod(self->p, 0640));
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_WRONLY, EACCES);
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_RDONLY, 0);
}

TEST_F(perm, acl_change_takes_effect_immediately)
{
	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,u:1001:rw-,g::---,m::rw-,o::---");
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_RDONLY, 0);
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1002:rw-,g::---,m::rw-,o::---");
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_RDONLY, EACCES);
	EXPECT_OPEN(CRED(1002, 1002), self->p, O_RDONLY, 0);
	ASSERT_EQ(0, a9_remove(self->p, A9_XA_ACCESS));
	/* mode left behind: 0660, owner root:root */
	EXPECT_OPEN(CRED(1002, 1002), self->p, O_RDONLY, EACCES);
}

TEST_F(perm, dir_search_needs_execute_entry)
{
	a9_path(self->q, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->q, 0700));
	a9_path(self->p, self->dir, "d/f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, "x"));
	ASSERT_SET(self->q, A9_XA_ACCESS, "u::rwx,u:1001:r--,u:1002:--x,g::---,m::r-x,o::---");
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_RDONLY, EACCES);
	EXPECT_OPEN(CRED(1002, 1002), self->p, O_RDONLY, 0);
	EXPECT_OPEN(CRED(1003, 1003), self->p, O_RDONLY, EACCES);
}

TEST_F(perm, dir_write_entry_allows_create)
{
	a9_path(self->q, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->q, 0755));
	ASSERT_SET(self->q, A9_XA_ACCESS, "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::r-x");
	a9_path(self->p, self->dir, "d/by1001");
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_CREAT | O_WRONLY | O_EXCL, 0);
	a9_path(self->p, self->dir, "d/by1002");
	EXPECT_OPEN(CRED(1002, 1002), self->p, O_CREAT | O_WRONLY | O_EXCL, EACCES);
}

/* ---- what a directory's ACL decides of the names in it */

struct rename_arg {
	const char *from, *to;
};

static int fn_unlink(void *arg)
{
	return unlink(arg) ? errno : 0;
}

static int fn_rename(void *arg)
{
	const struct rename_arg *a = arg;

	return rename(a->from, a->to) ? errno : 0;
}

/* as c: unlink(path), or rename(path, to) when to is set; 0 or errno */
static int name_op_as(struct __test_metadata *_metadata, const struct a9_cred *c,
		      const char *path, const char *to)
{
	struct rename_arg a = { path, to };

	return to ? as_uid(_metadata, c, fn_rename, &a) :
		    as_uid(_metadata, c, fn_unlink, (void *)path);
}

/* expect unlink (to NULL) or rename of path as c to give err (0 = success) */
#define EXPECT_NAME_OP(c, path, to, err) do {				\
	struct a9_cred __c = c;						\
	const char *__to = (to);					\
	int __r = name_op_as(_metadata, &__c, path, __to);		\
	if (__r == -1000)						\
		return;							\
	ASSERT_REACHES_IF_EACCES(__c, path, err);			\
	EXPECT_EQ(err, __r) TH_LOG("%s(%s%s%s) as uid %u: %s, expected %s", \
				   __to ? "rename" : "unlink", path,	\
				   __to ? ", " : "", __to ? __to : "",	\
				   (unsigned)__c.uid, a9_errname(__r),	\
				   a9_errname(err));			\
} while (0)

/*
 * Unlinking or renaming a name takes write and search on its directory
 * (may_delete): a named user's rwx entry grants both to a user the mode
 * bits leave as "other", an r-x entry neither.  The files are root's.
 */
TEST_F(perm, dir_write_entry_allows_unlink_and_rename)
{
	a9_path(self->q, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->q, 0755));
	ASSERT_SET(self->q, A9_XA_ACCESS,
		   "u::rwx,u:1001:rwx,u:1002:r-x,g::r-x,m::rwx,o::r-x");
	a9_path(self->p, self->dir, "d/f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0644, "x"));
	a9_path(self->q, self->dir, "d/g");
	ASSERT_EQ(0, a9_mkfile(self->q, 0644, "y"));

	EXPECT_NAME_OP(CRED(1002, 1002), self->p, NULL, EACCES);
	EXPECT_NAME_OP(CRED(1002, 1002), self->q, self->p, EACCES);
	EXPECT_EQ(0, access(self->p, F_OK)) TH_LOG("%s gone after a refused unlink", self->p);

	EXPECT_NAME_OP(CRED(1001, 1001), self->q, self->p, 0);
	EXPECT_EQ(ENOENT, access(self->q, F_OK) ? errno : 0);
	EXPECT_NAME_OP(CRED(1001, 1001), self->p, NULL, 0);
	EXPECT_EQ(ENOENT, access(self->p, F_OK) ? errno : 0);
}

/*
 * In a sticky directory write and search are not enough: only the
 * owner of the file or of the directory (or CAP_FOWNER) may unlink or
 * rename a name (check_sticky, EPERM).  uid 1001's rwx entry lets it
 * create, unlink and rename its own files, not root's.
 */
TEST_F(perm, sticky_dir_write_entry_reaches_own_files_only)
{
	struct a9_cred u1001 = CRED(1001, 1001);
	struct a9_open_arg a;
	char own[PATH_MAX], moved[PATH_MAX];
	int r;

	a9_path(self->q, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->q, 0755));
	ASSERT_SET(self->q, A9_XA_ACCESS, "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::r-x");
	ASSERT_EQ(0, chmod(self->q, S_ISVTX | 0775));
	EXPECT_MODE(self->q, S_ISVTX | 0775);
	a9_path(self->p, self->dir, "d/roots");
	ASSERT_EQ(0, a9_mkfile(self->p, 0666, "x"));
	a9_path(own, self->dir, "d/own");
	a9_path(moved, self->dir, "d/moved");

	EXPECT_NAME_OP(CRED(1001, 1001), self->p, NULL, EPERM);
	EXPECT_NAME_OP(CRED(1001, 1001), self->p, moved, EPERM);
	EXPECT_EQ(0, access(self->p, F_OK)) TH_LOG("%s gone after a refused unlink", self->p);

	a = (struct a9_open_arg){ own, O_CREAT | O_EXCL | O_WRONLY, 0644 };
	A9_RUN_AS(r, &u1001, a9_fn_open, &a);
	ASSERT_EQ(0, r) TH_LOG("create %s as uid 1001: %s", own, a9_errname(r));
	EXPECT_NAME_OP(CRED(1001, 1001), own, moved, 0);
	EXPECT_NAME_OP(CRED(1001, 1001), moved, NULL, 0);
	EXPECT_EQ(ENOENT, access(moved, F_OK) ? errno : 0);
}

/*
 * Permission is checked at open: a descriptor opened while an ACL entry
 * granted rw- keeps reading and writing after root removes the ACL,
 * and a new open is refused (the mode left, 0660 root:root, makes uid
 * 1001 "other").  The child (uid 1001) opens and waits; a second child
 * (root) removes the ACL between its open and its use.
 */
struct keep_arg {
	const char *path;
	int opened, removed, removed_w, result;	/* pipe ends */
};

struct keep_result {
	int open, write, read, reopen;	/* 0 or errno */
};

static int fn_keep(void *arg)
{
	const struct keep_arg *a = arg;
	struct keep_result res = { 0 };
	char c = 0, buf[4];
	int fd = open(a->path, O_RDWR);

	close(a->removed_w);	/* EOF, not a hang, if root's child dies */
	if (fd < 0)
		res.open = errno;
	if (write(a->opened, "o", 1) != 1 || read(a->removed, &c, 1) != 1 || c != 'r')
		return 99;
	if (fd >= 0) {
		res.write = pwrite(fd, "new", 3, 0) == 3 ? 0 : errno ? errno : EIO;
		res.read = pread(fd, buf, 3, 0) == 3 && !memcmp(buf, "new", 3) ?
			   0 : errno ? errno : EIO;
		close(fd);
		fd = open(a->path, O_RDONLY);
		res.reopen = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
	}
	return write(a->result, &res, sizeof(res)) == sizeof(res) ? 0 : 98;
}

TEST_F(perm, open_fd_keeps_access_after_acl_removed)
{
	struct keep_result res = { -1, -1, -1, -1 };
	struct a9_cred u1001 = CRED(1001, 1001);
	int opened[2], removed[2], result[2], r, st;
	struct keep_arg a;
	pid_t rm;
	char c;

	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,u:1001:rw-,g::---,m::rw-,o::---");
	ASSERT_EQ(0, pipe(opened));
	ASSERT_EQ(0, pipe(removed));
	ASSERT_EQ(0, pipe(result));
	fflush(stdout);
	rm = fork();
	ASSERT_LE(0, rm);
	if (rm == 0) {
		/* root: after the open, remove the ACL; 'r' once done */
		close(opened[1]);
		if (read(opened[0], &c, 1) != 1)
			_exit(2);	/* the other child never opened */
		c = removexattr(self->p, A9_XA_ACCESS) ? 'e' : 'r';
		_exit(write(removed[1], &c, 1) == 1 && c == 'r' ? 0 : 1);
	}
	a = (struct keep_arg){ self->p, opened[1], removed[0], removed[1], result[1] };
	A9_RUN_AS(r, &u1001, fn_keep, &a);
	close(opened[1]);
	ASSERT_EQ(rm, waitpid(rm, &st, 0));
	ASSERT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st))
		TH_LOG("removing the ACL as root: status 0x%x", st);
	ASSERT_EQ(0, r) TH_LOG("the uid 1001 child ended with %d", r);
	ASSERT_EQ((ssize_t)sizeof(res), read(result[0], &res, sizeof(res)));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	ASSERT_EQ(0, res.open) TH_LOG("open O_RDWR as uid 1001 under u:1001:rw-: %s",
				      a9_errname(res.open));
	EXPECT_EQ(0, res.write) TH_LOG("write through the open fd after the ACL went: %s",
				       a9_errname(res.write));
	EXPECT_EQ(0, res.read) TH_LOG("read through the open fd after the ACL went: %s",
				      a9_errname(res.read));
	EXPECT_EQ(EACCES, res.reopen) TH_LOG("a new open as uid 1001 after the ACL went: %s",
					     a9_errname(res.reopen));
	EXPECT_MODE(self->p, 0660);
}

TEST_F(perm, default_acl_grants_access_on_new_file)
{
	int fd;

	a9_path(self->q, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->q, 0755));
	ASSERT_SET(self->q, A9_XA_DEFAULT, "u::rwx,u:1001:rw-,g::---,m::rwx,o::---");
	a9_path(self->p, self->dir, "d/f");
	fd = open(self->p, O_CREAT | O_EXCL | O_WRONLY, 0660);
	ASSERT_LE(0, fd);
	close(fd);
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_RDWR, 0);
	EXPECT_OPEN(CRED(1002, 1002), self->p, O_RDONLY, EACCES);
}

TEST_F(perm, cap_dac_override_bypasses_acl)
{
	struct a9_cred c = { .uid = 1002, .gid = 1002, .ncaps = 1,
			     .caps = { CAP_DAC_OVERRIDE } };
	struct a9_open_arg a;
	int r;

	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,u:1001:rw-,g::---,m::rw-,o::---");
	a = (struct a9_open_arg){ self->p, O_RDWR, 0 };
	A9_RUN_AS(r, &c, a9_fn_open, &a);
	EXPECT_EQ(0, r) TH_LOG("open as uid 1002 + CAP_DAC_OVERRIDE: %s", a9_errname(r));
}

/* ---- access(2) */

struct access_arg {
	const char *path;
	int mode;
};

static int fn_access(void *arg)
{
	struct access_arg *a = arg;

	return access(a->path, a->mode) ? errno : 0;
}

TEST_F(perm, access_syscall_follows_acl)
{
	struct a9_cred c1 = CRED(1001, 1001), c2 = CRED(1002, 1002);
	struct access_arg a;
	int r;

	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rwx,u:1001:r-x,u:1002:r--,g::---,m::r-x,o::---");
	a = (struct access_arg){ self->p, R_OK | X_OK };
	A9_RUN_AS(r, &c1, fn_access, &a);
	EXPECT_EQ(0, r) TH_LOG("access(R_OK|X_OK) as 1001: %s", a9_errname(r));
	a.mode = W_OK;
	A9_RUN_AS(r, &c1, fn_access, &a);
	EXPECT_EQ(EACCES, r) TH_LOG("access(W_OK) as 1001: %s", a9_errname(r));
	a.mode = X_OK;
	A9_RUN_AS(r, &c2, fn_access, &a);
	EXPECT_EQ(EACCES, r) TH_LOG("access(X_OK) as 1002: %s", a9_errname(r));
}

/* ---- who may change ACLs */

struct xa_arg {
	const char *path;
	const char *text;	/* NULL: remove */
	int get;
};

static int fn_xa(void *arg)
{
	struct xa_arg *a = arg;
	char buf[1024];

	if (a->get) {
		ssize_t n = getxattr(a->path, A9_XA_ACCESS, buf, sizeof(buf));

		return n < 0 ? errno : 0;
	}
	if (!a->text)
		return -a9_remove(a->path, A9_XA_ACCESS);
	return -a9_set_text(a->path, A9_XA_ACCESS, a->text);
}

static const char *ACL0 = "u::rw-,u:1001:r--,g::---,m::r--,o::---";
static const char *ACL1 = "u::rw-,u:1002:rw-,g::---,m::rw-,o::---";

TEST_F(perm, non_owner_cannot_set_acl)
{
	struct a9_cred c = CRED(1002, 1002);
	struct xa_arg a;
	int r;

	mkacl(_metadata, self->p, self->dir, "f", 0, 0, ACL0);
	a = (struct xa_arg){ self->p, ACL1, 0 };
	A9_RUN_AS(r, &c, fn_xa, &a);
	EXPECT_EQ(EPERM, r) TH_LOG("setxattr by non-owner: %s", a9_errname(r));
	EXPECT_ACL(self->p, A9_XA_ACCESS, ACL0);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, ACL0);
}

TEST_F(perm, non_owner_with_acl_write_cannot_set_acl)
{
	/* write permission on the file is not ownership */
	struct a9_cred c = CRED(1002, 1002);
	struct xa_arg a;
	int r;

	mkacl(_metadata, self->p, self->dir, "f", 0, 0, ACL1);
	a = (struct xa_arg){ self->p, "u::rw-,u:1002:rwx,g::---,m::rwx,o::rwx", 0 };
	A9_RUN_AS(r, &c, fn_xa, &a);
	EXPECT_EQ(EPERM, r) TH_LOG("setxattr by non-owner: %s", a9_errname(r));
	EXPECT_ACL(self->p, A9_XA_ACCESS, ACL1);
}

TEST_F(perm, non_owner_cannot_remove_acl)
{
	struct a9_cred c = CRED(1002, 1002);
	struct xa_arg a;
	int r;

	mkacl(_metadata, self->p, self->dir, "f", 0, 0, ACL0);
	a = (struct xa_arg){ self->p, NULL, 0 };
	A9_RUN_AS(r, &c, fn_xa, &a);
	EXPECT_EQ(EPERM, r) TH_LOG("removexattr by non-owner: %s", a9_errname(r));
	EXPECT_ACL(self->p, A9_XA_ACCESS, ACL0);
}

TEST_F(perm, owner_can_set_acl)
{
	struct a9_cred c = CRED(1001, 1001);
	struct xa_arg a;
	int r;

	mkacl(_metadata, self->p, self->dir, "f", 1001, 1001, ACL0);
	a = (struct xa_arg){ self->p, ACL1, 0 };
	A9_RUN_AS(r, &c, fn_xa, &a);
	EXPECT_EQ(0, r) TH_LOG("setxattr by owner: %s", a9_errname(r));
	EXPECT_ACL(self->p, A9_XA_ACCESS, ACL1);
	EXPECT_MODE(self->p, 0660);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, ACL1);
}

TEST_F(perm, owner_can_remove_acl)
{
	struct a9_cred c = CRED(1001, 1001);
	struct xa_arg a;
	int r;

	mkacl(_metadata, self->p, self->dir, "f", 1001, 1001, ACL0);
	a = (struct xa_arg){ self->p, NULL, 0 };
	A9_RUN_AS(r, &c, fn_xa, &a);
	EXPECT_EQ(0, r) TH_LOG("removexattr by owner: %s", a9_errname(r));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
}

TEST_F(perm, cap_fowner_can_set_acl)
{
	struct a9_cred c = { .uid = 1002, .gid = 1002, .ncaps = 1,
			     .caps = { CAP_FOWNER } };
	struct xa_arg a;
	int r;

	mkacl(_metadata, self->p, self->dir, "f", 0, 0, ACL0);
	a = (struct xa_arg){ self->p, ACL1, 0 };
	A9_RUN_AS(r, &c, fn_xa, &a);
	EXPECT_EQ(0, r) TH_LOG("setxattr with CAP_FOWNER: %s", a9_errname(r));
	EXPECT_ACL(self->p, A9_XA_ACCESS, ACL1);
}

TEST_F(perm, non_owner_can_read_acl)
{
	struct a9_cred c = CRED(1003, 1003);
	struct xa_arg a;
	int r;

	/* reading an ACL needs no permission on the file itself */
	mkacl(_metadata, self->p, self->dir, "f", 0, 0, ACL0);
	a = (struct xa_arg){ self->p, NULL, 1 };
	A9_RUN_AS(r, &c, fn_xa, &a);
	EXPECT_EQ(0, r) TH_LOG("getxattr by a user without access: %s", a9_errname(r));
}

/* ---- same export without posixacl: the mode alone decides */

TEST_F(perm, noacl_mount_uses_mode_only)
{
	const char *n = getenv("ACL9P_MNT_NOACL");
	char np[PATH_MAX];

	if (!n || !*n)
		SKIP(return, "ACL9P_MNT_NOACL not set: no mount without posixacl");
	/* ACL grants 1001 read; mode 0640 root:root gives "other" nothing */
	mkacl(_metadata, self->p, self->dir, "f", 0, 0,
	      "u::rw-,u:1001:r--,g::r--,m::r--,o::---");
	ASSERT_EQ(0640, a9_mode(self->p));
	snprintf(np, sizeof(np), "%s%s", n, self->p + strlen(a9_mnt()));
	EXPECT_OPEN(CRED(1001, 1001), self->p, O_RDONLY, 0);
	EXPECT_OPEN(CRED(1001, 1001), np, O_RDONLY, EACCES);
}

TEST_HARNESS_MAIN
