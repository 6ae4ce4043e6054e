// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_usertools: the tools people check a shared folder with.  cp -a,
 * cp --preserve=all, tar --acls --xattrs and rsync -aAX copy a tree of
 * files and directories with access and default ACLs into the share and
 * out of it; getfacl -R dumps a tree that setfacl -R -b strips and
 * setfacl --restore puts back; find -exec setfacl gives every file
 * entries of many users and groups.  The verdict is the same as a local
 * filesystem's: getfacl -R -n of the result, its blocks sorted (readdir
 * order differs), must be what the same commands give on the guest's
 * tmpfs, whole, and the host must hold the bytes of what the guest
 * reads (a HOSTCHECK of one file per test).
 *
 * The tools are Debian's GNU binaries, which guest/initramfs.sh packs
 * into /usr/bin with their libraries (the initramfs' /bin ones are
 * busybox's, which know no ACLs), or the host's own in a host-root
 * guest.  A tool that is not there is a skip that names it.
 */
#include <sys/wait.h>

#include "acl9p_test.h"

A9_FIXTURE(usertools, A9_PROBE)

/* a tree small enough for every cell of make check */
#define SMALL_DIRS	4
#define SMALL_FILES	8
/* getfacl -R and setfacl --restore over a tree of this size */
#define BIG_DIRS	100
#define BIG_FILES	1000

#define DUMPSZ	(1 << 20)

static char dump_s[DUMPSZ], dump_l[DUMPSZ], err[4096];

/* The GNU tool NAME, or NULL: /usr/bin/NAME */
static const char *gnu(const char *name)
{
	static char path[64];

	snprintf(path, sizeof(path), "/usr/bin/%s", name);
	return access(path, X_OK) ? NULL : path;
}

#define NEED(tool) do {							\
	if (!gnu(tool))							\
		SKIP(return, "no GNU %s in this guest (/usr/bin/%s)", tool, tool); \
} while (0)

/* the ACLs of the tree: a few shapes, by index */
static const char *file_acl(int i)
{
	static const char *const a[] = {
		"u::rw-,u:1001:r--,g::r--,m::r--,o::---",
		NULL,	/* the mode alone */
		"u::rw-,g::r--,g:1002:rw-,m::rw-,o::r--",
		"u::rw-,u:1001:rw-,u:1003:r--,g::---,g:1002:r--,m::rw-,o::---",
	};

	return a[i % 4];
}

static const char *DIR_DEFAULT = "u::rwx,u:1001:rwx,g::r-x,g:1002:r-x,m::rwx,o::r-x";
static const char *DIR_ACCESS = "u::rwx,u:1003:r-x,g::r-x,m::r-x,o::--x";

/*
 * Build the tree under root: ndirs directories, every other one with a
 * default ACL (which the files made in it inherit) and the others with
 * an access ACL, and nfiles files spread over them, each with an ACL of
 * file_acl()'s shapes set after its creation, or none.  0 or -errno.
 */
static int make_tree(const char *root, int ndirs, int nfiles)
{
	char d[PATH_MAX], f[PATH_MAX];
	int i, r;

	r = a9_mkdir(root, 0755);
	if (r)
		return r;
	for (i = 0; i < ndirs; i++) {
		if (snprintf(d, sizeof(d), "%s/d%d", root, i) >= (int)sizeof(d))
			return -ENAMETOOLONG;
		r = a9_mkdir(d, 0750);
		if (!r)
			r = a9_set_text(d, i % 2 ? A9_XA_ACCESS : A9_XA_DEFAULT,
					i % 2 ? DIR_ACCESS : DIR_DEFAULT);
		if (r)
			return r;
	}
	for (i = 0; i < nfiles; i++) {
		const char *acl = file_acl(i);

		if (snprintf(f, sizeof(f), "%s/d%d/f%d", root, i % ndirs, i) >=
		    (int)sizeof(f))
			return -ENAMETOOLONG;
		r = a9_mkfile(f, 0640, "x\n");
		if (!r && acl)
			r = a9_set_text(f, A9_XA_ACCESS, acl);
		if (r)
			return r;
	}
	return 0;
}

/* run argv in cwd, stdout to out; its exit status, or 126/127/-1 */
static int run(const char *cwd, char *const argv[], char *out, size_t outsz)
{
	return a9_run_cmd(cwd, argv, out, outsz, err, sizeof(err));
}

/*
 * getfacl -R -n of the tree at dir, paths relative to it, blocks
 * sorted, into out: 0, or the tool's exit status
 */
static int dump(const char *dir, char *out)
{
	char *argv[] = { (char *)a9_tool("getfacl"), "-R", "-n", ".", NULL };
	int st = run(dir, argv, out, DUMPSZ);

	return a9_sort_blocks(out) ?: st;
}

#define DUMP(dir, out) do {						\
	int __st = dump(dir, out);					\
	ASSERT_EQ(0, __st) TH_LOG("getfacl -R -n in %s: exit %d: %s", dir, __st, err); \
	ASSERT_LT(strlen(out), (size_t)DUMPSZ - 1) TH_LOG("getfacl -R of %s over %d bytes", dir, DUMPSZ); \
} while (0)

/* the trees at share and local must read the same */
#define SAME_TREE(share, local, what) do {				\
	DUMP(share, dump_s);						\
	DUMP(local, dump_l);						\
	EXPECT_STREQ(dump_l, dump_s) TH_LOG("%s: getfacl -R of %s is not tmpfs's", what, share); \
} while (0)

#define RUN(cwd, ...) do {						\
	char *__argv[] = { __VA_ARGS__, NULL };				\
	int __st = run(cwd, __argv, dump_s, DUMPSZ);			\
	ASSERT_EQ(0, __st) TH_LOG("%s in %s: exit %d: %s", __argv[0], cwd, __st, err); \
} while (0)

static char src_s[PATH_MAX], src_l[PATH_MAX], dst_s[PATH_MAX], dst_l[PATH_MAX];

/* the small tree in both places: "src" on the share and on tmpfs */
#define BOTH_TREES() do {						\
	int __r;							\
	umask(022);							\
	A9_REQUIRE_LOCAL();						\
	a9_path(src_s, self->dir, "src");				\
	a9_path(src_l, self->ldir, "src");				\
	a9_path(dst_s, self->dir, "dst");				\
	a9_path(dst_l, self->ldir, "dst");				\
	__r = make_tree(src_s, SMALL_DIRS, SMALL_FILES);		\
	ASSERT_EQ(0, __r) TH_LOG("tree on the share: %s", a9_errname(__r)); \
	__r = make_tree(src_l, SMALL_DIRS, SMALL_FILES);		\
	ASSERT_EQ(0, __r) TH_LOG("tree on tmpfs: %s", a9_errname(__r)); \
	SAME_TREE(src_s, src_l, "the tree as made");			\
} while (0)

/* the bytes of file 3 of the copy, on the host */
static void hostcheck_copy(const char *root)
{
	char f[PATH_MAX];

	if (snprintf(f, sizeof(f), "%s/d3/f3", root) < (int)sizeof(f))
		a9_hostcheck_text(f, A9_XA_ACCESS, file_acl(3));
}

/*
 * cp FLAGS from tmpfs into the share, and from the share to tmpfs: each
 * copy reads as its source does
 */
static void cp_both_ways(struct __test_metadata *_metadata,
			 FIXTURE_DATA(usertools) *self, const char *flag)
{
	BOTH_TREES();
	RUN("/", (char *)gnu("cp"), "-r", (char *)flag, src_l, dst_s);
	SAME_TREE(dst_s, src_l, "copied into the share");
	hostcheck_copy(dst_s);
	RUN("/", (char *)gnu("cp"), "-r", (char *)flag, src_s, dst_l);
	SAME_TREE(src_s, dst_l, "copied out of the share");
}

TEST_F(usertools, cp_a_round_trip)
{
	NEED("cp");
	cp_both_ways(_metadata, self, "-a");
}

TEST_F(usertools, cp_preserve_all_round_trip)
{
	NEED("cp");
	cp_both_ways(_metadata, self, "--preserve=all");
}

/* an archive of each tree, extracted into the other place */
TEST_F(usertools, tar_acls_xattrs_round_trip)
{
	char tar_l[PATH_MAX], tar_s[PATH_MAX];

	NEED("tar");
	BOTH_TREES();
	a9_path(tar_l, self->ldir, "l.tar");
	a9_path(tar_s, self->dir, "s.tar");
	ASSERT_EQ(0, a9_mkdir(dst_s, 0755));
	ASSERT_EQ(0, a9_mkdir(dst_l, 0755));
	/* created on tmpfs, written to and read from the share */
	RUN("/", (char *)gnu("tar"), "--acls", "--xattrs", "-cf", tar_s, "-C", src_l, ".");
	RUN("/", (char *)gnu("tar"), "--acls", "--xattrs", "-xpf", tar_s, "-C", dst_s);
	SAME_TREE(dst_s, src_l, "extracted into the share");
	hostcheck_copy(dst_s);
	/* created from the share, extracted on tmpfs */
	RUN("/", (char *)gnu("tar"), "--acls", "--xattrs", "-cf", tar_l, "-C", src_s, ".");
	RUN("/", (char *)gnu("tar"), "--acls", "--xattrs", "-xpf", tar_l, "-C", dst_l);
	SAME_TREE(src_s, dst_l, "extracted out of the share");
}

TEST_F(usertools, rsync_aAX_round_trip)
{
	char from[PATH_MAX + 1];

	NEED("rsync");
	BOTH_TREES();
	ASSERT_GT((int)sizeof(from), snprintf(from, sizeof(from), "%s/", src_l));
	RUN("/", (char *)gnu("rsync"), "-aAX", from, dst_s);
	SAME_TREE(dst_s, src_l, "rsync into the share");
	hostcheck_copy(dst_s);
	ASSERT_GT((int)sizeof(from), snprintf(from, sizeof(from), "%s/", src_s));
	RUN("/", (char *)gnu("rsync"), "-aAX", from, dst_l);
	SAME_TREE(src_s, dst_l, "rsync out of the share");
}

/* many users and groups through find -exec setfacl, in both places */
TEST_F(usertools, find_exec_setfacl_many_ids)
{
	static const char *const spec =
		"u:2001:r--,u:2002:rw-,u:2003:r--,u:2004:rw-,u:2005:r--,"
		"g:3001:r--,g:3002:rw-,g:3003:r--,g:3004:rw-";
	const char *find = gnu("find") ? gnu("find") : "/bin/find";
	char f[PATH_MAX];

	BOTH_TREES();
	RUN(src_s, (char *)find, ".", "-type", "f", "-exec", (char *)a9_tool("setfacl"),
	    "-m", (char *)spec, "{}", "+");
	RUN(src_l, (char *)find, ".", "-type", "f", "-exec", (char *)a9_tool("setfacl"),
	    "-m", (char *)spec, "{}", "+");
	SAME_TREE(src_s, src_l, "after find -exec setfacl -m");
	/* file 1 had no ACL: what setfacl made of its mode 0640 and spec */
	ASSERT_GT((int)sizeof(f), snprintf(f, sizeof(f), "%s/d1/f1", src_s));
	EXPECT_ACL(f, A9_XA_ACCESS,
		   "u::rw-,u:2001:r--,u:2002:rw-,u:2003:r--,u:2004:rw-,u:2005:r--,"
		   "g::r--,g:3001:r--,g:3002:rw-,g:3003:r--,g:3004:rw-,m::rw-,o::---");
}

/*
 * getfacl -R of a tree of BIG_FILES files in BIG_DIRS directories, the
 * tree stripped with setfacl -R -b, then setfacl --restore of the dump:
 * the tree reads as before, on the share as on tmpfs.  Over 9p under TCG
 * that is minutes of requests, more than every cell of make check can
 * pay: it runs where the cell asks for it (ACL9P_TREE=big, the bigtree
 * value of tests/matrix.conf, in MATRIX=full) and skips elsewhere.
 */
TEST_F_TIMEOUT(usertools, getfacl_R_then_restore_big_tree, 600)
{
	static char before[DUMPSZ];
	char dumpfile[PATH_MAX];
	char restore[PATH_MAX + 16];
	FILE *fp;
	int r;

	if (strcmp(a9_env("ACL9P_TREE", ""), "big"))
		SKIP(return, "the %d-file tree runs where ACL9P_TREE=big (opts=bigtree, MATRIX=full)",
		     BIG_FILES);
	umask(022);
	A9_REQUIRE_LOCAL();
	a9_path(src_s, self->dir, "big");
	r = make_tree(src_s, BIG_DIRS, BIG_FILES);
	ASSERT_EQ(0, r) TH_LOG("tree on the share: %s", a9_errname(r));
	DUMP(src_s, before);
	/* unsorted, as getfacl wrote it, is what setfacl reads back */
	a9_path(dumpfile, self->ldir, "big.acl");
	{
		char *argv[] = { (char *)a9_tool("getfacl"), "-R", "-n", ".", NULL };
		int st = run(src_s, argv, dump_s, DUMPSZ);

		ASSERT_EQ(0, st) TH_LOG("getfacl -R: exit %d: %s", st, err);
	}
	fp = fopen(dumpfile, "w");
	ASSERT_NE(NULL, fp);
	fputs(dump_s, fp);
	ASSERT_EQ(0, fclose(fp));
	RUN(src_s, (char *)a9_tool("setfacl"), "-R", "-b", ".");
	DUMP(src_s, dump_l);
	EXPECT_STRNE(before, dump_l) TH_LOG("setfacl -R -b changed nothing");
	ASSERT_GT((int)sizeof(restore),
		  snprintf(restore, sizeof(restore), "--restore=%s", dumpfile));
	RUN(src_s, (char *)a9_tool("setfacl"), restore);
	DUMP(src_s, dump_l);
	EXPECT_STREQ(before, dump_l) TH_LOG("the tree after setfacl --restore is not the tree before");
	/* and what tmpfs holds for the same tree */
	a9_path(src_l, self->ldir, "big");
	r = make_tree(src_l, BIG_DIRS, BIG_FILES);
	ASSERT_EQ(0, r) TH_LOG("tree on tmpfs: %s", a9_errname(r));
	DUMP(src_l, dump_s);
	EXPECT_STREQ(dump_s, before) TH_LOG("the tree on the share is not tmpfs's");
	hostcheck_copy(src_s);
}

TEST_HARNESS_MAIN
