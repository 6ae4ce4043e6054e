// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_userns: POSIX ACLs whose ids cross a mapping.  An ACL names
 * users and groups by number, and the number a caller writes is not
 * the one the filesystem stores when the two sides see ids differently:
 *
 *   userns: the caller is inside a user namespace whose uid and gid
 *           0..65535 are NS_BASE.. outside.  What it writes as u:1001 is
 *           stored as u:(NS_BASE + 1001), and it reads back its own
 *           numbers.  6.1 translated the xattr value in the syscall
 *           (posix_acl_fix_xattr_from_user/_to_user); the series
 *           translates kernel ACLs (patch 8), for every filesystem.
 *   idmap:  the share's work directory is mounted a second time,
 *           idmapped (mount_setattr MOUNT_ATTR_IDMAP) with uid and gid
 *           0..65535 of the filesystem shown as MNT_BASE.. through it.
 *           Ids written through that mount are stored in the
 *           filesystem's numbers.  6.1 did it in
 *           posix_acl_setxattr_idmapped_mnt(); the series in
 *           vfs_set_acl()/vfs_get_acl() (patches 8 and 15).  Only a
 *           filesystem with FS_ALLOW_IDMAP can be mounted so (in 6.1:
 *           ext4, not 9p or tmpfs): elsewhere the fixture skips, with
 *           the reason.
 * Every answer is asserted as Linux 6.1 gives it, and what is stored is
 * read back through the untranslated path (the init namespace, the
 * plain mount) and, where there is one, by the host.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/syscall.h>

#include "acl9p_test.h"

#define NS_BASE		100000u
#define MNT_BASE	10000u
#define MAP_LEN		65536u

/* <linux/mount.h> clashes with glibc's <sys/mount.h>: the bits we need */
#ifndef MOUNT_ATTR_IDMAP
#define MOUNT_ATTR_IDMAP	0x00100000
#endif
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE		1
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH	0x00000004
#endif
struct a9_mount_attr {
	__u64 attr_set, attr_clr, propagation, userns_fd;
};

/* ---- user namespaces */

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), r = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n != (ssize_t)strlen(s))
		r = n < 0 ? -errno : -EIO;
	close(fd);
	return r;
}

/* give pid's user namespace uid and gid 0..MAP_LEN-1 = base.. outside */
static int write_maps(pid_t pid, unsigned int base)
{
	char path[64], map[64];
	int r;

	snprintf(map, sizeof(map), "0 %u %u\n", base, MAP_LEN);
	snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)pid);
	r = write_file(path, map);
	if (r)
		return r;
	snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)pid);
	return write_file(path, map);
}

/*
 * Run fn(arg) in a child that is root of a new user namespace mapped
 * onto NS_BASE.. (its own outside ids are NS_BASE, so it owns what it
 * creates as NS_BASE).  Returns fn's result (0 or a positive errno), or
 * -1 with why filled in when the namespace could not be set up.
 */
static int ns_run(int (*fn)(void *), void *arg, char *why, size_t whysz)
{
	int to_parent[2], to_child[2], st, r;
	char c = 0;
	pid_t pid;

	if (pipe2(to_parent, O_CLOEXEC) || pipe2(to_child, O_CLOEXEC)) {
		snprintf(why, whysz, "pipe: %s", a9_errname(-errno));
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		snprintf(why, whysz, "fork: %s", a9_errname(-errno));
		return -1;
	}
	if (!pid) {
		close(to_parent[0]);
		close(to_child[1]);
		if (setgroups(0, NULL) || setresgid(NS_BASE, NS_BASE, NS_BASE) ||
		    setresuid(NS_BASE, NS_BASE, NS_BASE))
			_exit(201);
		if (unshare(CLONE_NEWUSER))
			_exit(errno == EINVAL || errno == ENOSYS ? 202 : 203);
		if (write(to_parent[1], &c, 1) != 1 ||
		    read(to_child[0], &c, 1) != 1 || c != 'g')
			_exit(204);
		umask(022);
		r = fn(arg);
		fflush(stdout);
		fflush(stderr);
		_exit(r);
	}
	close(to_parent[1]);
	close(to_child[0]);
	r = 0;
	if (read(to_parent[0], &c, 1) == 1) {
		r = write_maps(pid, NS_BASE);
		c = r ? 'x' : 'g';
		if (write(to_child[1], &c, 1) != 1 && !r)
			r = -EPIPE;
	}
	close(to_parent[0]);
	close(to_child[1]);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) {
		snprintf(why, whysz, "the namespace child died");
		return -1;
	}
	if (r) {
		snprintf(why, whysz, "writing the uid/gid map: %s", a9_errname(r));
		return -1;
	}
	switch (WEXITSTATUS(st)) {
	case 201:
		snprintf(why, whysz, "cannot switch to uid/gid %u", NS_BASE);
		return -1;
	case 202:
		snprintf(why, whysz, "user namespaces not in this kernel (unshare(CLONE_NEWUSER): EINVAL)");
		return -1;
	case 203:
	case 204:
		snprintf(why, whysz, "unshare(CLONE_NEWUSER) failed");
		return -1;
	}
	return WEXITSTATUS(st);
}

/*
 * A user namespace fd with the mapping MNT_BASE.. for an idmapped mount;
 * -2 when no namespace could be made, -1 (why filled in) otherwise.
 */
static int idmap_userns_fd(char *why, size_t whysz)
{
	int hold[2], fd = -1, r;
	char c, path[64];
	pid_t pid;

	if (pipe2(hold, O_CLOEXEC)) {
		snprintf(why, whysz, "pipe: %s", a9_errname(-errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(why, whysz, "fork: %s", a9_errname(-errno));
		return -1;
	}
	if (!pid) {
		close(hold[1]);
		if (unshare(CLONE_NEWUSER))
			_exit(1);
		/* live until the parent has the fd: it closes the pipe */
		if (read(hold[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(hold[0]);
	/* the child must have unshared before its maps are written */
	for (r = 0; r < 200; r++) {
		char self_ns[64], child_ns[64];
		ssize_t a, b;

		snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
		a = readlink("/proc/self/ns/user", self_ns, sizeof(self_ns) - 1);
		b = readlink(path, child_ns, sizeof(child_ns) - 1);
		if (a > 0 && b > 0 &&
		    (a != b || memcmp(self_ns, child_ns, (size_t)a)))
			break;
		usleep(5000);
	}
	if (r == 200) {
		/* the child could not unshare (or died): no namespace */
		snprintf(why, whysz, "unshare(CLONE_NEWUSER) failed");
		close(hold[1]);
		waitpid(pid, NULL, 0);
		return -2;
	}
	r = write_maps(pid, MNT_BASE);
	if (r)
		snprintf(why, whysz, "writing the idmapping: %s", a9_errname(r));
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		snprintf(why, whysz, "%s: %s", path, a9_errname(-errno));
	close(hold[1]);
	waitpid(pid, NULL, 0);
	return fd;
}

/* ---- acl9p_userns.userns: a caller in a user namespace */

A9_FIXTURE(userns, A9_PROBE)

/* what the namespace child does: one path, one text, one answer */
struct ns_arg {
	const char *path, *path2, *text;
	char out[1024];
	int r;
};

static int ns_set(void *arg)
{
	struct ns_arg *a = arg;

	return -a9_set_text(a->path, A9_XA_ACCESS, a->text);
}

/* create path (a file, mode 0640) and set the text as its access ACL */
static int ns_create_set(void *arg)
{
	struct ns_arg *a = arg;
	int r = a9_create(a->path, 0640);

	return r ? -r : -a9_set_text(a->path, A9_XA_ACCESS, a->text);
}

static int ns_get(void *arg)
{
	struct ns_arg *a = arg;
	int fd, r = a9_get_text(a->path, A9_XA_ACCESS, a->out, sizeof(a->out));

	/* the text goes back to the parent through the file path2 */
	if (r)
		return -r;
	fd = open(a->path2, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno;
	r = write(fd, a->out, strlen(a->out)) == (ssize_t)strlen(a->out) ? 0 : EIO;
	close(fd);
	return r;
}

/*
 * In d: a default ACL, then a file created under it.  The errno comes
 * back with the step that failed: + 0 mkdir, + 64 the default ACL,
 * + 128 the create (see inherit_step()).
 */
static int ns_inherit(void *arg)
{
	struct ns_arg *a = arg;
	int r = a9_mkdir(a->path, 0750);

	if (r)
		return -r;
	r = a9_set_text(a->path, A9_XA_DEFAULT, a->text);
	if (r)
		return 64 - r;
	r = a9_create(a->path2, 0660);
	return r ? 128 - r : 0;
}

static const char *inherit_step(int r)
{
	return r >= 128 ? "create" : r >= 64 ? "default ACL" : "mkdir";
}

/* as the namespace's uid 1001 (gid 1001): open path for reading */
static int ns_open_as_1001(void *arg)
{
	struct ns_arg *a = arg;
	int fd;

	if (setgroups(0, NULL) || setresgid(1001, 1001, 1001) ||
	    setresuid(1001, 1001, 1001))
		return 200;
	fd = open(a->path, O_RDONLY);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* setfacl -m TEXT path; getfacl -n --omit-header path into path2 */
static int ns_tools(void *arg)
{
	struct ns_arg *a = arg;
	char *set[] = { (char *)a9_tool("setfacl"), "-m", (char *)a->text,
			(char *)a->path, NULL };
	char *get[] = { (char *)a9_tool("getfacl"), "-n", "--omit-header",
			(char *)a->path, NULL };
	char err[512];
	int fd, st = a9_run_cmd(NULL, set, a->out, sizeof(a->out), err, sizeof(err));

	if (st)
		return st < 0 ? 199 : 100 + (st & 63);
	st = a9_run_cmd(NULL, get, a->out, sizeof(a->out), err, sizeof(err));
	if (st)
		return st < 0 ? 199 : 164 + (st & 31);
	fd = open(a->path2, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno;
	st = write(fd, a->out, strlen(a->out)) == (ssize_t)strlen(a->out) ? 0 : EIO;
	close(fd);
	return st;
}

#define NS_RUN(res, fn, arg) do {					\
	char __why[256];						\
	(res) = ns_run(fn, arg, __why, sizeof(__why));			\
	if ((res) < 0 && strstr(__why, "not in this kernel"))		\
		SKIP(return, "%s", __why);				\
	ASSERT_LE(0, (res)) TH_LOG("user namespace: %s", __why);	\
} while (0)

/* the work dir belongs to the namespace's root (NS_BASE outside) */
static void give_dir_to_ns(struct __test_metadata *_metadata, const char *d)
{
	ASSERT_EQ(0, A9_ERR(chown(d, NS_BASE, NS_BASE)))
		TH_LOG("chown %s %u: %s", d, NS_BASE, a9_errname(-errno));
}

/* read a file the namespace child wrote (its text answer) */
static void read_answer(struct __test_metadata *_metadata, const char *path,
			char *buf, size_t sz)
{
	ssize_t n = a9_read_file(path, buf, sz);

	ASSERT_LE(0, n) TH_LOG("%s: %s", path, a9_errname((int)n));
}

TEST_F(userns, set_in_userns_stores_outside_ids)
{
	struct ns_arg a = { .path = self->p,
		.text = "u::rw-,u:1001:r--,g::r--,g:1002:r--,m::r--,o::---" };
	const char *outside =
		"u::rw-,u:101001:r--,g::r--,g:101002:r--,m::r--,o::---";
	int r;

	give_dir_to_ns(_metadata, self->dir);
	a9_path(self->p, self->dir, "f");
	NS_RUN(r, ns_create_set, &a);
	ASSERT_EQ(0, r) TH_LOG("in the namespace, create + setxattr: %s",
			       a9_errname(-r));
	EXPECT_ACL(self->p, A9_XA_ACCESS, outside);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, outside);
}

TEST_F(userns, get_in_userns_shows_own_ids)
{
	struct ns_arg a = { .path = self->p, .path2 = self->q };
	char got[1024] = "";
	int r;

	give_dir_to_ns(_metadata, self->dir);
	a9_path(self->p, self->dir, "f");
	a9_path(self->q, self->dir, "answer");
	ASSERT_EQ(0, a9_create(self->p, 0640));
	ASSERT_EQ(0, A9_ERR(chown(self->p, NS_BASE, NS_BASE)));
	/* uid 5 has no id in the namespace: 6.1 shows it as (uid_t)-1, in
	 * place (entries keep the stored order) */
	ASSERT_SET(self->p, A9_XA_ACCESS,
		   "u::rw-,u:5:r--,u:101001:r--,g::r--,g:101002:r--,m::r--,o::---");
	NS_RUN(r, ns_get, &a);
	ASSERT_EQ(0, r) TH_LOG("in the namespace, getxattr: %s", a9_errname(-r));
	read_answer(_metadata, self->q, got, sizeof(got));
	EXPECT_STREQ("u::rw-,u:4294967295:r--,u:1001:r--,g::r--,g:1002:r--,m::r--,o::---",
		     got);
}

TEST_F(userns, set_unmapped_id_in_userns_is_einval)
{
	struct ns_arg a = { .path = self->p,
		.text = "u::rw-,u:70000:r--,g::r--,m::r--,o::---" };
	const char *before = "u::rw-,u:101001:r--,g::r--,m::r--,o::---";
	int r;

	give_dir_to_ns(_metadata, self->dir);
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_create(self->p, 0640));
	ASSERT_EQ(0, A9_ERR(chown(self->p, NS_BASE, NS_BASE)));
	ASSERT_SET(self->p, A9_XA_ACCESS, before);
	/* 70000 is beyond the namespace's 65536 ids: no kernel uid */
	NS_RUN(r, ns_set, &a);
	EXPECT_ERRNO(-EINVAL, -r);
	EXPECT_ACL(self->p, A9_XA_ACCESS, before);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, before);
}

TEST_F(userns, default_acl_inherited_in_userns)
{
	char d[PATH_MAX];
	struct ns_arg a = { .path = d, .path2 = self->p,
		.text = "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::---" };
	struct stat st;
	int r;

	give_dir_to_ns(_metadata, self->dir);
	a9_path(d, self->dir, "d");
	a9_path(self->p, self->dir, "d/f");
	NS_RUN(r, ns_inherit, &a);
	ASSERT_EQ(0, r) TH_LOG("in the namespace, %s: %s", inherit_step(r),
			       a9_errname(-(r & 63)));
	EXPECT_ACL(d, A9_XA_DEFAULT, "u::rwx,u:101001:rwx,g::r-x,m::rwx,o::---");
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:101001:rwx,g::r-x,m::rw-,o::---");
	ASSERT_EQ(0, stat(self->p, &st));
	EXPECT_EQ(NS_BASE, st.st_uid);
	a9_hostcheck_text(self->p, A9_XA_ACCESS,
			  "u::rw-,u:101001:rwx,g::r-x,m::rw-,o::---");
}

TEST_F(userns, named_user_entry_decides_in_userns)
{
	struct ns_arg a = { .path = self->p };
	int r;

	give_dir_to_ns(_metadata, self->dir);
	ASSERT_EQ(0, A9_ERR(chmod(self->dir, 0755)));
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, "secret\n"));
	ASSERT_EQ(0, A9_ERR(chown(self->p, NS_BASE, NS_BASE)));
	/* mode 0600 alone: the namespace's uid 1001 is "other" */
	NS_RUN(r, ns_open_as_1001, &a);
	EXPECT_ERRNO(-EACCES, -r);
	/* the entry for its outside uid lets it read */
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:101001:r--,g::---,m::r--,o::---");
	NS_RUN(r, ns_open_as_1001, &a);
	EXPECT_ERRNO(0, -r);
	/* one for the same number outside the namespace does not */
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:r--,g::---,m::r--,o::---");
	NS_RUN(r, ns_open_as_1001, &a);
	EXPECT_ERRNO(-EACCES, -r);
}

TEST_F(userns, setfacl_getfacl_in_userns)
{
	struct ns_arg a = { .path = self->p, .path2 = self->q,
		.text = "u:1001:rwx,g:1002:r-x" };
	char got[1024] = "";
	int r;

	give_dir_to_ns(_metadata, self->dir);
	a9_path(self->p, self->dir, "f");
	a9_path(self->q, self->dir, "answer");
	ASSERT_EQ(0, a9_create(self->p, 0640));
	ASSERT_EQ(0, A9_ERR(chown(self->p, NS_BASE, NS_BASE)));
	NS_RUN(r, ns_tools, &a);
	ASSERT_EQ(0, r) TH_LOG("in the namespace, setfacl/getfacl: exit code %d", r);
	read_answer(_metadata, self->q, got, sizeof(got));
	EXPECT_STREQ("user::rw-\nuser:1001:rwx\ngroup::r--\ngroup:1002:r-x\n"
		     "mask::rwx\nother::---\n\n", got);
	EXPECT_ACL(self->p, A9_XA_ACCESS,
		   "u::rw-,u:101001:rwx,g::r--,g:101002:r-x,m::rwx,o::---");
	a9_hostcheck_text(self->p, A9_XA_ACCESS,
			  "u::rw-,u:101001:rwx,g::r--,g:101002:r-x,m::rwx,o::---");
}

/* ---- acl9p_userns.idmap: through an idmapped mount of the share */

FIXTURE(idmap) {
	char dir[PATH_MAX], ldir[PATH_MAX];
	char mnt[PATH_MAX];	/* the idmapped mount of dir */
	char p[PATH_MAX], q[PATH_MAX];
	int mounted;
};

FIXTURE_SETUP(idmap)
{
	struct a9_mount_attr attr = { .attr_set = MOUNT_ATTR_IDMAP };
	char why[256];
	int tree, ns, r;

	self->mounted = 0;
	a9_setup(_metadata, "idmap", self->dir, sizeof(self->dir),
		 self->ldir, sizeof(self->ldir), A9_PROBE);
	if (!self->ldir[0])
		A9_SETUP_SKIP("ACL9P_LOCAL (%s) does not exist", a9_local());
	a9_path(self->mnt, self->ldir, "idmapped");
	ASSERT_EQ(0, a9_mkdir(self->mnt, 0755));
	ns = idmap_userns_fd(why, sizeof(why));
	if (ns == -2)
		A9_SETUP_SKIP("user namespaces not in this kernel: %s", why);
	ASSERT_LE(0, ns) TH_LOG("idmapping: %s", why);
	tree = (int)syscall(SYS_open_tree, AT_FDCWD, self->dir,
			    OPEN_TREE_CLONE | O_CLOEXEC);
	ASSERT_LE(0, tree) TH_LOG("open_tree %s: %s", self->dir, a9_errname(-errno));
	attr.userns_fd = (__u64)ns;
	r = A9_ERR(syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH, &attr,
			   sizeof(attr)));
	close(ns);
	if (r == -EINVAL) {
		close(tree);
		A9_SETUP_SKIP("%s cannot be mounted idmapped (mount_setattr MOUNT_ATTR_IDMAP: EINVAL)",
			      a9_mnt());
	}
	ASSERT_EQ(0, r) TH_LOG("mount_setattr MOUNT_ATTR_IDMAP: %s", a9_errname(r));
	r = A9_ERR(syscall(SYS_move_mount, tree, "", AT_FDCWD, self->mnt,
			   MOVE_MOUNT_F_EMPTY_PATH));
	close(tree);
	ASSERT_EQ(0, r) TH_LOG("move_mount to %s: %s", self->mnt, a9_errname(r));
	self->mounted = 1;
}

FIXTURE_TEARDOWN(idmap)
{
	if (self->mounted)
		umount2(self->mnt, MNT_DETACH);
}

static const struct a9_cred MNT_ROOT = { .uid = MNT_BASE, .gid = MNT_BASE };
static const struct a9_cred MNT_1001 = { .uid = MNT_BASE + 1001,
					 .gid = MNT_BASE + 1001 };
static const struct a9_cred PLAIN_1001 = { .uid = 1001, .gid = 1001 };

static int fn_create(void *arg)
{
	return -a9_create(arg, 0660);
}

TEST_F(idmap, ownership_is_mapped)
{
	struct stat st;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_create(self->p, 0640));
	ASSERT_EQ(0, A9_ERR(chown(self->p, 1001, 1002)));
	a9_path(self->q, self->mnt, "f");
	ASSERT_EQ(0, stat(self->q, &st));
	EXPECT_EQ(MNT_BASE + 1001, st.st_uid);
	EXPECT_EQ(MNT_BASE + 1002, st.st_gid);
}

TEST_F(idmap, set_through_idmapped_mount_stores_fs_ids)
{
	const char *fs = "u::rw-,u:1001:r--,g::r--,g:1002:r--,m::r--,o::---";

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_create(self->p, 0640));
	a9_path(self->q, self->mnt, "f");
	ASSERT_SET(self->q, A9_XA_ACCESS,
		   "u::rw-,u:11001:r--,g::r--,g:11002:r--,m::r--,o::---");
	EXPECT_ACL(self->p, A9_XA_ACCESS, fs);
	EXPECT_ACL(self->q, A9_XA_ACCESS,
		   "u::rw-,u:11001:r--,g::r--,g:11002:r--,m::r--,o::---");
	a9_hostcheck_text(self->p, A9_XA_ACCESS, fs);
}

TEST_F(idmap, get_through_idmapped_mount_shows_mapped_ids)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_create(self->p, 0640));
	/* 70000 is beyond the mount's 65536 ids: 6.1 shows (uid_t)-1 */
	ASSERT_SET(self->p, A9_XA_ACCESS,
		   "u::rw-,u:1001:r--,u:70000:r--,g::r--,g:1002:r--,m::r--,o::---");
	a9_path(self->q, self->mnt, "f");
	EXPECT_ACL(self->q, A9_XA_ACCESS,
		   "u::rw-,u:11001:r--,u:4294967295:r--,g::r--,g:11002:r--,m::r--,o::---");
}

/*
 * The same read with a buffer of exactly the value's size, as getfacl
 * asks (size first).  6.1's vfs_getxattr() hands the buffer's size, not
 * the value's, to posix_acl_getxattr_idmapped_mnt(), which translates
 * only a buffer that holds a whole number of entries: this read is
 * translated there, the one above (a 16 KiB buffer) is not.
 */
TEST_F(idmap, get_exact_size_through_idmapped_mount_shows_mapped_ids)
{
	unsigned char v[1024];
	char t[1024];
	ssize_t n;

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_create(self->p, 0640));
	ASSERT_SET(self->p, A9_XA_ACCESS,
		   "u::rw-,u:1001:r--,g::r--,g:1002:r--,m::r--,o::---");
	a9_path(self->q, self->mnt, "f");
	n = getxattr(self->q, A9_XA_ACCESS, NULL, 0);
	ASSERT_LT(0, n) TH_LOG("getxattr size of %s: %s", self->q, a9_errname(-errno));
	ASSERT_GE((ssize_t)sizeof(v), n);
	ASSERT_EQ(n, getxattr(self->q, A9_XA_ACCESS, v, (size_t)n));
	a9_decode(v, (size_t)n, t, sizeof(t));
	EXPECT_STREQ("u::rw-,u:11001:r--,g::r--,g:11002:r--,m::r--,o::---", t);
}

TEST_F(idmap, set_unmapped_id_through_idmapped_mount_is_einval)
{
	const char *before = "u::rw-,u:1001:r--,g::r--,m::r--,o::---";

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_create(self->p, 0640));
	ASSERT_SET(self->p, A9_XA_ACCESS, before);
	a9_path(self->q, self->mnt, "f");
	/* uid 5 through the mount is no filesystem uid */
	EXPECT_ERRNO(-EINVAL, a9_set_text(self->q, A9_XA_ACCESS,
					  "u::rw-,u:5:r--,g::r--,m::r--,o::---"));
	EXPECT_ACL(self->p, A9_XA_ACCESS, before);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, before);
}

TEST_F(idmap, default_acl_inherited_through_idmapped_mount)
{
	struct stat st;
	int r;

	a9_path(self->p, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->p, 0750));
	a9_path(self->q, self->mnt, "d");
	ASSERT_SET(self->q, A9_XA_DEFAULT, "u::rwx,u:11001:rwx,g::r-x,m::rwx,o::---");
	EXPECT_ACL(self->p, A9_XA_DEFAULT, "u::rwx,u:1001:rwx,g::r-x,m::rwx,o::---");
	/* created through the mount by its uid 0 (MNT_BASE there) */
	a9_path(self->q, self->mnt, "d/f");
	A9_RUN_AS(r, &MNT_ROOT, fn_create, self->q);
	ASSERT_EQ(0, r) TH_LOG("create %s as uid %u: %s", self->q, MNT_BASE,
			       a9_errname(-r));
	a9_path(self->p, self->dir, "d/f");
	ASSERT_EQ(0, stat(self->p, &st));
	EXPECT_EQ(0u, st.st_uid);
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r-x,m::rw-,o::---");
	EXPECT_ACL(self->q, A9_XA_ACCESS, "u::rw-,u:11001:rwx,g::r-x,m::rw-,o::---");
	a9_hostcheck_text(self->p, A9_XA_ACCESS,
			  "u::rw-,u:1001:rwx,g::r-x,m::rw-,o::---");
}

TEST_F(idmap, named_user_entry_decides_through_idmapped_mount)
{
	struct a9_open_arg o = { .flags = O_RDONLY };
	int r;

	ASSERT_EQ(0, A9_ERR(chmod(self->dir, 0755)));
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, "secret\n"));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:r--,g::---,m::r--,o::---");
	a9_path(self->q, self->mnt, "f");
	/* the filesystem's uid 1001 is uid 11001 through the mount */
	o.path = self->q;
	A9_RUN_AS(r, &MNT_1001, a9_fn_open, &o);
	EXPECT_ERRNO(0, -r);
	/* and uid 1001 there is nobody the ACL names */
	A9_RUN_AS(r, &PLAIN_1001, a9_fn_open, &o);
	EXPECT_ERRNO(-EACCES, -r);
	o.path = self->p;
	A9_RUN_AS(r, &PLAIN_1001, a9_fn_open, &o);
	EXPECT_ERRNO(0, -r);
}

TEST_F(idmap, setfacl_through_idmapped_mount)
{
	char *set[] = { (char *)a9_tool("setfacl"), "-m", "u:11002:rwx",
			self->q, NULL };
	char out[512], err[512];

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_create(self->p, 0640));
	a9_path(self->q, self->mnt, "f");
	EXPECT_EQ(0, a9_run_cmd(NULL, set, out, sizeof(out), err, sizeof(err)))
		TH_LOG("setfacl: %s", err);
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1002:rwx,g::r--,m::rwx,o::---");
	a9_hostcheck_text(self->p, A9_XA_ACCESS,
			  "u::rw-,u:1002:rwx,g::r--,m::rwx,o::---");
}

TEST_HARNESS_MAIN
