// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_tools: setfacl and getfacl (/bin/setfacl,
 * /bin/getfacl, fork+exec, stdout captured) do the same on the 9p share as
 * on the local tmpfs.  Each test builds the same tree in both places, runs
 * the same commands with relative paths (cwd = the work dir), and compares
 * exit statuses and outputs (path prefix normalised; getfacl -R blocks
 * sorted, since readdir order differs between filesystems).  Every
 * getfacl's output on the share is also checked literally, whole, against
 * the answer tmpfs gives (SAYS), and key lines of it once more (HAS).
 */
#include "acl9p_test.h"

A9_FIXTURE(tools, A9_PROBE)

#define OUTSZ 65536

struct run {
	int st;
	char out[OUTSZ];
	char err[4096];
};

static struct run rs, rl;

/* split cmd on spaces; argv[0] is an acl tool name or "ls" */
static int run_in(const char *cwd, const char *cmd, struct run *r)
{
	char buf[1024], *argv[32], *tok, *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", cmd);
	for (tok = strtok_r(buf, " ", &save); tok && n < 31;
	     tok = strtok_r(NULL, " ", &save))
		argv[n++] = tok;
	argv[n] = NULL;
	argv[0] = (char *)a9_tool(argv[0]);
	r->st = a9_run_cmd(cwd, argv, r->out, sizeof(r->out), r->err, sizeof(r->err));
	a9_strreplace(r->out, cwd, "<DIR>");
	a9_strreplace(r->err, cwd, "<DIR>");
	return r->st;
}

/*
 * The tool ran and exited on its own: a9_run_cmd() gives 126 when it
 * could not enter the directory, 127 when the exec failed and -1 for a
 * signal.  Without this, two runs that could not start at all would
 * compare equal.
 */
#define RAN(r, where, cmd)						\
	ASSERT_TRUE((r).st >= 0 && (r).st < 126)			\
		TH_LOG("'%s' did not run %s: exit %d (%s)", cmd, where,	\
		       (r).st, (r).err)

/* run cmd in both trees, expect the same status and output */
#define BOTH(cmd) do {							\
	run_in(self->dir, cmd, &rs);					\
	run_in(self->ldir, cmd, &rl);					\
	RAN(rs, "on the share", cmd);					\
	RAN(rl, "locally", cmd);					\
	EXPECT_EQ(rl.st, rs.st) TH_LOG("'%s': exit %d on share (%s), %d local (%s)", \
				       cmd, rs.st, rs.err, rl.st, rl.err); \
	EXPECT_STREQ(rl.out, rs.out) TH_LOG("'%s' output differs", cmd);	\
} while (0)

#define BOTH_SORTED(cmd) do {						\
	run_in(self->dir, cmd, &rs);					\
	run_in(self->ldir, cmd, &rl);					\
	RAN(rs, "on the share", cmd);					\
	RAN(rl, "locally", cmd);					\
	a9_sort_blocks(rs.out);						\
	a9_sort_blocks(rl.out);						\
	EXPECT_EQ(rl.st, rs.st) TH_LOG("'%s': exit %d on share (%s), %d local (%s)", \
				       cmd, rs.st, rs.err, rl.st, rl.err); \
	EXPECT_STREQ(rl.out, rs.out) TH_LOG("'%s' output differs", cmd);	\
} while (0)

/* same file in both trees */
#define MKFILE(name, mode) do {						\
	ASSERT_EQ(0, a9_mkfile(a9_path(self->p, self->dir, name), mode, NULL)); \
	ASSERT_EQ(0, a9_mkfile(a9_path(self->q, self->ldir, name), mode, NULL)); \
} while (0)

#define MKDIR(name, mode) do {						\
	ASSERT_EQ(0, a9_mkdir(a9_path(self->p, self->dir, name), mode)); \
	ASSERT_EQ(0, a9_mkdir(a9_path(self->q, self->ldir, name), mode)); \
} while (0)

/*
 * the share's whole answer and exit status, literally: tmpfs's answer
 * with the acl package the guest runs.  In the local-tmpfs cells the
 * share and the reference are one filesystem of one kernel, where
 * BOTH's comparison holds whatever the answer; this does not.
 */
#define SAYS(st_exp, out_exp) do {					\
	EXPECT_EQ(st_exp, rs.st) TH_LOG("exit status on the share");	\
	EXPECT_STREQ(out_exp, rs.out) TH_LOG("the share's output is not tmpfs's"); \
} while (0)

#define HAS(needle) EXPECT_NE(NULL, strstr(rs.out, needle))		\
	TH_LOG("'%s' not in share output:\n%s", needle, rs.out)

#define LACKS(needle) EXPECT_EQ(NULL, strstr(rs.out, needle))		\
	TH_LOG("'%s' unexpectedly in share output:\n%s", needle, rs.out)

#define TOOLS_SETUP() do {						\
	A9_REQUIRE_LOCAL();						\
	umask(022);							\
} while (0)

TEST_F(tools, setfacl_m_user_and_group)
{
	TOOLS_SETUP();
	MKFILE("f", 0644);
	BOTH("setfacl -m u:1001:rw,g:1002:r f");
	EXPECT_EQ(0, rs.st);
	BOTH("getfacl -n f");
	SAYS(0, "# file: f\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rw-\n"
	     "user:1001:rw-\n"
	     "group::r--\n"
	     "group:1002:r--\n"
	     "mask::rw-\n"
	     "other::r--\n"
	     "\n");
	HAS("# file: f\n");
	HAS("user:1001:rw-\n");
	HAS("group:1002:r--\n");
	HAS("mask::rw-\n");
	HAS("other::r--\n");
}

TEST_F(tools, setfacl_m_recalculates_mask)
{
	TOOLS_SETUP();
	MKFILE("f", 0600);
	BOTH("setfacl -m u:1001:r f");
	BOTH("setfacl -m u:1002:rwx f");
	BOTH("getfacl -n --omit-header f");
	SAYS(0, "user::rw-\n"
	     "user:1001:r--\n"
	     "user:1002:rwx\n"
	     "group::---\n"
	     "mask::rwx\n"
	     "other::---\n"
	     "\n");
	HAS("mask::rwx\n");
	EXPECT_EQ(a9_mode(self->q), a9_mode(self->p));
	EXPECT_MODE(self->p, 0670);
}

TEST_F(tools, setfacl_n_keeps_mask)
{
	TOOLS_SETUP();
	MKFILE("f", 0640);
	BOTH("setfacl -m u:1001:r f");
	BOTH("setfacl -n -m u:1002:rwx f");
	BOTH("getfacl -n --omit-header f");
	SAYS(0, "user::rw-\n"
	     "user:1001:r--\n"
	     "user:1002:rwx\t#effective:r--\n"
	     "group::r--\n"
	     "mask::r--\n"
	     "other::---\n"
	     "\n");
	HAS("user:1002:rwx\t#effective:r--\n");
	HAS("mask::r--\n");
}

TEST_F(tools, setfacl_x_removes_entry)
{
	TOOLS_SETUP();
	MKFILE("f", 0644);
	BOTH("setfacl -m u:1001:rw,u:1002:r,g:1003:rwx f");
	BOTH("setfacl -x u:1001,g:1003 f");
	EXPECT_EQ(0, rs.st);
	BOTH("getfacl -n --omit-header f");
	SAYS(0, "user::rw-\n"
	     "user:1002:r--\n"
	     "group::r--\n"
	     "mask::r--\n"
	     "other::r--\n"
	     "\n");
	LACKS("user:1001");
	LACKS("group:1003");
	HAS("user:1002:r--\n");
	HAS("mask::r--\n");
}

TEST_F(tools, setfacl_x_missing_entry)
{
	TOOLS_SETUP();
	MKFILE("f", 0644);
	BOTH("setfacl -m u:1001:rw f");
	BOTH("setfacl -x u:1003 f");
	BOTH("getfacl -n --omit-header f");
	SAYS(0, "user::rw-\n"
	     "user:1001:rw-\n"
	     "group::r--\n"
	     "mask::rw-\n"
	     "other::r--\n"
	     "\n");
	/* nothing was removed: the ACL is the one set */
	HAS("user:1001:rw-\n");
	HAS("mask::rw-\n");
}

TEST_F(tools, setfacl_b_removes_all)
{
	TOOLS_SETUP();
	MKDIR("d", 0750);
	BOTH("setfacl -m u:1001:rwx -m d:u:1002:rx d");
	BOTH("setfacl -b d");
	EXPECT_EQ(0, rs.st);
	BOTH("getfacl -n --omit-header d");
	SAYS(0, "user::rwx\n"
	     "group::r-x\n"
	     "other::---\n"
	     "\n");
	EXPECT_STREQ("user::rwx\ngroup::r-x\nother::---\n\n", rs.out);
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_NOACL(self->p, A9_XA_DEFAULT);
}

TEST_F(tools, setfacl_k_removes_default)
{
	TOOLS_SETUP();
	MKDIR("d", 0755);
	BOTH("setfacl -m u:1001:rwx -m d:u:1002:rx d");
	BOTH("setfacl -k d");
	BOTH("getfacl -n --omit-header d");
	SAYS(0, "user::rwx\n"
	     "user:1001:rwx\n"
	     "group::r-x\n"
	     "mask::rwx\n"
	     "other::r-x\n"
	     "\n");
	HAS("user:1001:rwx\n");
	LACKS("default:");
}

TEST_F(tools, setfacl_d_sets_default_and_inherits)
{
	TOOLS_SETUP();
	MKDIR("d", 0755);
	BOTH("setfacl -d -m u:1001:rwx,g:1002:rx,o::- d");
	EXPECT_EQ(0, rs.st);
	BOTH("getfacl -n d");
	SAYS(0, "# file: d\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rwx\n"
	     "group::r-x\n"
	     "other::r-x\n"
	     "default:user::rwx\n"
	     "default:user:1001:rwx\n"
	     "default:group::r-x\n"
	     "default:group:1002:r-x\n"
	     "default:mask::rwx\n"
	     "default:other::---\n"
	     "\n");
	HAS("default:user:1001:rwx\n");
	HAS("default:mask::rwx\n");
	HAS("default:other::---\n");
	/* inheritance, created the same way in both trees */
	ASSERT_EQ(0, close(open(a9_path(self->p, self->dir, "d/f"), O_CREAT | O_WRONLY, 0666)));
	ASSERT_EQ(0, close(open(a9_path(self->q, self->ldir, "d/f"), O_CREAT | O_WRONLY, 0666)));
	ASSERT_EQ(0, mkdir(a9_path(self->p, self->dir, "d/s"), 0777));
	ASSERT_EQ(0, mkdir(a9_path(self->q, self->ldir, "d/s"), 0777));
	BOTH("getfacl -n d/f d/s");
	SAYS(0, "# file: d/f\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rw-\n"
	     "user:1001:rwx\t#effective:rw-\n"
	     "group::r-x\t#effective:r--\n"
	     "group:1002:r-x\t#effective:r--\n"
	     "mask::rw-\n"
	     "other::---\n"
	     "\n"
	     "# file: d/s\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rwx\n"
	     "user:1001:rwx\n"
	     "group::r-x\n"
	     "group:1002:r-x\n"
	     "mask::rwx\n"
	     "other::---\n"
	     "default:user::rwx\n"
	     "default:user:1001:rwx\n"
	     "default:group::r-x\n"
	     "default:group:1002:r-x\n"
	     "default:mask::rwx\n"
	     "default:other::---\n"
	     "\n");
	HAS("user:1001:rwx\t#effective:rw-\n");
}

TEST_F(tools, setfacl_set_replaces)
{
	TOOLS_SETUP();
	MKFILE("f", 0644);
	BOTH("setfacl -m u:1001:rwx,u:1002:rwx f");
	BOTH("setfacl --set u::rw,g::r,o::-,u:1003:r f");
	EXPECT_EQ(0, rs.st);
	BOTH("getfacl -n --omit-header f");
	SAYS(0, "user::rw-\n"
	     "user:1003:r--\n"
	     "group::r--\n"
	     "mask::r--\n"
	     "other::---\n"
	     "\n");
	EXPECT_STREQ("user::rw-\nuser:1003:r--\ngroup::r--\nmask::r--\nother::---\n\n",
		     rs.out);
}

TEST_F(tools, setfacl_M_from_file)
{
	TOOLS_SETUP();
	MKFILE("f", 0600);
	ASSERT_EQ(0, a9_mkfile(a9_path(self->p, self->dir, "acl.txt"), 0644,
			       "user:1001:r--\ngroup:1002:rw-\n"));
	ASSERT_EQ(0, a9_mkfile(a9_path(self->q, self->ldir, "acl.txt"), 0644,
			       "user:1001:r--\ngroup:1002:rw-\n"));
	BOTH("setfacl -M acl.txt f");
	EXPECT_EQ(0, rs.st);
	BOTH("getfacl -n --omit-header f");
	SAYS(0, "user::rw-\n"
	     "user:1001:r--\n"
	     "group::---\n"
	     "group:1002:rw-\n"
	     "mask::rw-\n"
	     "other::---\n"
	     "\n");
	HAS("group:1002:rw-\n");
}

TEST_F(tools, setfacl_test_mode_changes_nothing)
{
	TOOLS_SETUP();
	MKFILE("f", 0644);
	BOTH("setfacl --test -m u:1001:rwx f");
	HAS("u:1001:rwx");
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
}

TEST_F(tools, setfacl_invalid_entry_fails)
{
	TOOLS_SETUP();
	MKFILE("f", 0644);
	BOTH("setfacl -m u:1001:rwq f");
	EXPECT_NE(0, rs.st);
	BOTH("setfacl -x u:: f");
	EXPECT_NE(0, rs.st);
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0644);
}

static void mktree(struct __test_metadata *_metadata, const char *dir, char *p)
{
	ASSERT_EQ(0, a9_mkdir(a9_path(p, dir, "t"), 0755));
	ASSERT_EQ(0, a9_mkdir(a9_path(p, dir, "t/a"), 0750));
	ASSERT_EQ(0, a9_mkdir(a9_path(p, dir, "t/a/b"), 0700));
	ASSERT_EQ(0, a9_mkfile(a9_path(p, dir, "t/f1"), 0644, "1"));
	ASSERT_EQ(0, a9_mkfile(a9_path(p, dir, "t/a/f2"), 0755, "2"));
	ASSERT_EQ(0, a9_mkfile(a9_path(p, dir, "t/a/b/f3"), 0600, "3"));
}

TEST_F(tools, setfacl_R_recursive_with_capital_x)
{
	TOOLS_SETUP();
	mktree(_metadata, self->dir, self->p);
	mktree(_metadata, self->ldir, self->q);
	BOTH("setfacl -R -m u:1003:rX t");
	EXPECT_EQ(0, rs.st);
	BOTH_SORTED("getfacl -R -n t");
	SAYS(0, "# file: t\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rwx\n"
	     "user:1003:r-x\n"
	     "group::r-x\n"
	     "mask::r-x\n"
	     "other::r-x\n"
	     "\n"
	     "# file: t/a\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rwx\n"
	     "user:1003:r-x\n"
	     "group::r-x\n"
	     "mask::r-x\n"
	     "other::---\n"
	     "\n"
	     "# file: t/a/b\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rwx\n"
	     "user:1003:r-x\n"
	     "group::---\n"
	     "mask::r-x\n"
	     "other::---\n"
	     "\n"
	     "# file: t/a/b/f3\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rw-\n"
	     "user:1003:r--\n"
	     "group::---\n"
	     "mask::r--\n"
	     "other::---\n"
	     "\n"
	     "# file: t/a/f2\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rwx\n"
	     "user:1003:r-x\n"
	     "group::r-x\n"
	     "mask::r-x\n"
	     "other::r-x\n"
	     "\n"
	     "# file: t/f1\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rw-\n"
	     "user:1003:r--\n"
	     "group::r--\n"
	     "mask::r--\n"
	     "other::r--\n"
	     "\n");
	HAS("# file: t/a/b/f3\n# owner: 0\n# group: 0\nuser::rw-\nuser:1003:r--\n");
	HAS("# file: t/a/f2\n# owner: 0\n# group: 0\nuser::rwx\nuser:1003:r-x\n");
}

TEST_F(tools, setfacl_R_default_then_b)
{
	TOOLS_SETUP();
	mktree(_metadata, self->dir, self->p);
	mktree(_metadata, self->ldir, self->q);
	BOTH("setfacl -R -d -m g:1002:rwx t");
	BOTH_SORTED("getfacl -R -n --omit-header t");
	SAYS(0, "user::rw-\n"
	     "group::---\n"
	     "other::---\n"
	     "\n"
	     "user::rw-\n"
	     "group::r--\n"
	     "other::r--\n"
	     "\n"
	     "user::rwx\n"
	     "group::---\n"
	     "other::---\n"
	     "default:user::rwx\n"
	     "default:group::---\n"
	     "default:group:1002:rwx\n"
	     "default:mask::rwx\n"
	     "default:other::---\n"
	     "\n"
	     "user::rwx\n"
	     "group::r-x\n"
	     "other::---\n"
	     "default:user::rwx\n"
	     "default:group::r-x\n"
	     "default:group:1002:rwx\n"
	     "default:mask::rwx\n"
	     "default:other::---\n"
	     "\n"
	     "user::rwx\n"
	     "group::r-x\n"
	     "other::r-x\n"
	     "\n"
	     "user::rwx\n"
	     "group::r-x\n"
	     "other::r-x\n"
	     "default:user::rwx\n"
	     "default:group::r-x\n"
	     "default:group:1002:rwx\n"
	     "default:mask::rwx\n"
	     "default:other::r-x\n"
	     "\n");
	HAS("default:group:1002:rwx\n");
	BOTH("setfacl -R -b t");
	BOTH_SORTED("getfacl -R -n --omit-header t");
	SAYS(0, "user::rw-\n"
	     "group::---\n"
	     "other::---\n"
	     "\n"
	     "user::rw-\n"
	     "group::r--\n"
	     "other::r--\n"
	     "\n"
	     "user::rwx\n"
	     "group::---\n"
	     "other::---\n"
	     "\n"
	     "user::rwx\n"
	     "group::r-x\n"
	     "other::---\n"
	     "\n"
	     "user::rwx\n"
	     "group::r-x\n"
	     "other::r-x\n"
	     "\n"
	     "user::rwx\n"
	     "group::r-x\n"
	     "other::r-x\n"
	     "\n");
	LACKS("1002");
}

TEST_F(tools, getfacl_R_omit_header)
{
	TOOLS_SETUP();
	mktree(_metadata, self->dir, self->p);
	mktree(_metadata, self->ldir, self->q);
	BOTH("setfacl -m u:1001:rw t/f1");
	BOTH("setfacl -m g:1002:rx t/a");
	BOTH_SORTED("getfacl -R --omit-header -n t");
	SAYS(0, "user::rw-\n"
	     "group::---\n"
	     "other::---\n"
	     "\n"
	     "user::rw-\n"
	     "user:1001:rw-\n"
	     "group::r--\n"
	     "mask::rw-\n"
	     "other::r--\n"
	     "\n"
	     "user::rwx\n"
	     "group::---\n"
	     "other::---\n"
	     "\n"
	     "user::rwx\n"
	     "group::r-x\n"
	     "group:1002:r-x\n"
	     "mask::r-x\n"
	     "other::---\n"
	     "\n"
	     "user::rwx\n"
	     "group::r-x\n"
	     "other::r-x\n"
	     "\n"
	     "user::rwx\n"
	     "group::r-x\n"
	     "other::r-x\n"
	     "\n");
	LACKS("# file");
	HAS("user:1001:rw-\n");
	HAS("group:1002:r-x\n");
}

TEST_F(tools, getfacl_numeric_owner)
{
	TOOLS_SETUP();
	MKFILE("f", 0640);
	ASSERT_EQ(0, chown(self->p, 1001, 1002));
	ASSERT_EQ(0, chown(self->q, 1001, 1002));
	BOTH("setfacl -m u:1003:r f");
	BOTH("getfacl -n f");
	SAYS(0, "# file: f\n"
	     "# owner: 1001\n"
	     "# group: 1002\n"
	     "user::rw-\n"
	     "user:1003:r--\n"
	     "group::r--\n"
	     "mask::r--\n"
	     "other::---\n"
	     "\n");
	HAS("# owner: 1001\n# group: 1002\n");
}

TEST_F(tools, getfacl_flags_line_for_setgid_sticky)
{
	TOOLS_SETUP();
	MKDIR("d", 03775);
	BOTH("setfacl -m u:1001:rwx d");
	BOTH("getfacl -n d");
	SAYS(0, "# file: d\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "# flags: -st\n"
	     "user::rwx\n"
	     "user:1001:rwx\n"
	     "group::rwx\n"
	     "mask::rwx\n"
	     "other::r-x\n"
	     "\n");
	HAS("# flags: -st\n");
}

TEST_F(tools, getfacl_access_and_default_only)
{
	TOOLS_SETUP();
	MKDIR("d", 0755);
	BOTH("setfacl -m u:1001:rx -m d:u:1002:rwx d");
	BOTH("getfacl -n -a d");
	SAYS(0, "# file: d\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rwx\n"
	     "user:1001:r-x\n"
	     "group::r-x\n"
	     "mask::r-x\n"
	     "other::r-x\n"
	     "\n");
	LACKS("default:");
	BOTH("getfacl -n -d d");
	SAYS(0, "# file: d\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rwx\n"
	     "user:1002:rwx\n"
	     "group::r-x\n"
	     "mask::rwx\n"
	     "other::r-x\n"
	     "\n");
	HAS("user:1002:rwx\n");
	LACKS("user:1001");
}

TEST_F(tools, getfacl_all_effective)
{
	TOOLS_SETUP();
	MKFILE("f", 0644);
	BOTH("setfacl -m u:1001:rwx,m::r f");
	BOTH("getfacl -n -e --omit-header f");
	SAYS(0, "user::rw-\n"
	     "user:1001:rwx\t#effective:r--\n"
	     "group::r--\t#effective:r--\n"
	     "mask::r--\n"
	     "other::r--\n"
	     "\n");
	HAS("user:1001:rwx\t#effective:r--\n");
}

TEST_F(tools, getfacl_restore_round_trip)
{
	char dump[4096];
	ssize_t n;

	TOOLS_SETUP();
	mktree(_metadata, self->dir, self->p);
	mktree(_metadata, self->ldir, self->q);
	BOTH("setfacl -m u:1001:rw,g:1002:r t/f1");
	BOTH("setfacl -m u:1003:rwx -m d:u:1003:rx t/a");
	BOTH("setfacl -m g:1001:r t/a/b/f3");
	/* dump with getfacl -R into a file on each filesystem */
	run_in(self->dir, "getfacl -R -n t", &rs);
	ASSERT_EQ(0, rs.st);
	ASSERT_EQ(0, a9_mkfile(a9_path(self->p, self->dir, "dump"), 0644, rs.out));
	run_in(self->ldir, "getfacl -R -n t", &rl);
	ASSERT_EQ(0, rl.st);
	ASSERT_EQ(0, a9_mkfile(a9_path(self->q, self->ldir, "dump"), 0644, rl.out));
	/* wipe, restore, compare with the dump */
	BOTH("setfacl -R -b t");
	BOTH("setfacl --restore=dump");
	EXPECT_EQ(0, rs.st);
	BOTH_SORTED("getfacl -R -n t");
	SAYS(0, "# file: t\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rwx\n"
	     "group::r-x\n"
	     "other::r-x\n"
	     "\n"
	     "# file: t/a\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rwx\n"
	     "user:1003:rwx\n"
	     "group::r-x\n"
	     "mask::rwx\n"
	     "other::---\n"
	     "default:user::rwx\n"
	     "default:user:1003:r-x\n"
	     "default:group::r-x\n"
	     "default:mask::r-x\n"
	     "default:other::---\n"
	     "\n"
	     "# file: t/a/b\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rwx\n"
	     "group::---\n"
	     "other::---\n"
	     "\n"
	     "# file: t/a/b/f3\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rw-\n"
	     "group::---\n"
	     "group:1001:r--\n"
	     "mask::r--\n"
	     "other::---\n"
	     "\n"
	     "# file: t/a/f2\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rwx\n"
	     "group::r-x\n"
	     "other::r-x\n"
	     "\n"
	     "# file: t/f1\n"
	     "# owner: 0\n"
	     "# group: 0\n"
	     "user::rw-\n"
	     "user:1001:rw-\n"
	     "group::r--\n"
	     "group:1002:r--\n"
	     "mask::rw-\n"
	     "other::r--\n"
	     "\n");
	n = a9_read_file(a9_path(self->p, self->dir, "dump"), dump, sizeof(dump));
	ASSERT_LT(0, n);
	a9_sort_blocks(dump);
	EXPECT_STREQ(dump, rs.out);
}

TEST_F(tools, getfacl_on_missing_file_fails)
{
	TOOLS_SETUP();
	BOTH("getfacl -n nosuchfile");
	SAYS(1, "");
	EXPECT_NE(0, rs.st);
}

TEST_HARNESS_MAIN
