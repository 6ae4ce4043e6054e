// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_aclsuite: the acl package's own test suite, in the share.  Its
 * 13 files of commands and expected output (the .test files of test/
 * and test/root/ in Debian's acl source, the version the host runs)
 * are run by its perl runner, test/run, with the passwd and group
 * lookups of test/test_passwd.c and test_group.c preloaded, as
 * upstream's "make check" runs them; the commands are the host's
 * getfacl, setfacl, cp, ls and the rest.  Each file is a test, run with
 * the share as its working directory and again on the guest's tmpfs:
 * the share must give tmpfs's answer to every command, so it passes
 * when the runner fails no command on the share that it passes on
 * tmpfs, and every one it fails on both is named in the log.  That is
 * the verdict and not "every command passes" because the suite makes
 * assumptions of its own that a Debian host does not meet: its "su"
 * reads the supplementary groups from /etc/group, where daemon is not
 * in group bin, and it runs a command line through /bin/sh, which is
 * dash (no shopt): five commands of root/permissions.test fail on
 * tmpfs, and on the host's own ext4, for those reasons.
 *
 * It needs perl, the host's tools and the suite: a host-root guest
 * (tests/matrix.conf's hostroot value, scripts/boot.sh --root host),
 * whose init is told where make guest left the suite (ACL9P_ACL_SUITE:
 * the source, with .libs/libtestlookup.so built by scripts/acl-tools.sh).
 * Elsewhere each test skips and says why.
 */
#include "acl9p_test.h"

FIXTURE(aclsuite) {
	char dir[PATH_MAX];
	char ldir[PATH_MAX];
	char p[PATH_MAX];
	char q[PATH_MAX];
};

/*
 * What the suite needs is checked before the share is: in a guest
 * without perl every test skips whatever the share can do
 */
FIXTURE_SETUP(aclsuite)
{
	const char *suite = getenv("ACL9P_ACL_SUITE");

	if (access("/usr/bin/perl", X_OK))
		A9_SETUP_SKIP("no perl in this guest: the acl suite runs in host-root cells (opts=hostroot)");
	if (!suite || !*suite)
		A9_SETUP_SKIP("ACL9P_ACL_SUITE is not set: the acl suite runs in host-root cells (opts=hostroot)");
	a9_setup(_metadata, "aclsuite", self->dir, sizeof(self->dir),
		 self->ldir, sizeof(self->ldir), A9_PROBE);
}

FIXTURE_TEARDOWN(aclsuite)
{
}

#define OUTSZ 65536

static char out_s[OUTSZ], out_l[OUTSZ], err[4096];
static char fail_s[OUTSZ], fail_l[OUTSZ], worse[OUTSZ], better[OUTSZ];

/*
 * Run the suite's file name (relative to its test/ directory) in a new
 * directory dir: the runner's exit status (0: every command gave its
 * expected output), its output in out.  126/127/-1 when it did not run.
 */
static int run_suite(const char *suite, const char *name, const char *dir,
		     char *out)
{
	char run[PATH_MAX], file[PATH_MAX], lib[PATH_MAX];
	char *argv[] = { "/usr/bin/perl", "-w", "-U", run, file, NULL };
	int st;

	if (snprintf(run, sizeof(run), "%s/test/run", suite) >= (int)sizeof(run) ||
	    snprintf(file, sizeof(file), "%s/test/%s", suite, name) >= (int)sizeof(file) ||
	    snprintf(lib, sizeof(lib), "%s/.libs/libtestlookup.so", suite) >= (int)sizeof(lib))
		return -1;
	if (a9_mkdir(dir, 0755))
		return -1;
	/* the runner's children take it: this program is static */
	setenv("LD_PRELOAD", lib, 1);
	st = a9_run_cmd(dir, argv, out, OUTSZ, err, sizeof(err));
	unsetenv("LD_PRELOAD");
	return st;
}

/*
 * The runner's "[LINE] $ COMMAND -- failed" lines of out, one per line,
 * into buf
 */
static void failed_lines(const char *out, char *buf, size_t sz)
{
	const char *p = out, *e;
	size_t n = 0;

	buf[0] = 0;
	for (; *p; p = *e ? e + 1 : e) {
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		if (*p == '[' && e - p > 10 && !strncmp(e - 10, " -- failed", 10) &&
		    n + (size_t)(e - p) + 2 < sz) {
			memcpy(buf + n, p, (size_t)(e - p));
			n += (size_t)(e - p);
			buf[n++] = '\n';
			buf[n] = 0;
		}
	}
}

/*
 * The lines of a that b does not hold, without " -- failed", joined by
 * "; " into buf: what one run failed and the other did not
 */
static void only_in(const char *a, const char *b, char *buf, size_t sz)
{
	const char *p, *e;
	char line[1024];
	size_t n = 0;

	buf[0] = 0;
	for (p = a; *p; p = e + 1) {
		e = strchr(p, '\n');
		if (!e || (size_t)(e - p) >= sizeof(line))
			break;
		memcpy(line, p, (size_t)(e - p + 1));
		line[e - p + 1] = 0;
		if (strstr(b, line))
			continue;
		line[e - p - 10] = 0;	/* " -- failed\n" */
		n += (size_t)snprintf(buf + n, n < sz ? sz - n : 0, "%s%s",
				      n ? "; " : "", line);
		if (n >= sz)
			break;
	}
}

/* the runner's last line: "N commands (P passed, F failed)" */
static const char *summary(const char *out)
{
	const char *p = out + strlen(out), *q;

	while (p > out && p[-1] == '\n')
		p--;
	for (q = p; q > out && q[-1] != '\n'; q--)
		;
	return q;
}

static void suite_file(struct __test_metadata *_metadata,
		       FIXTURE_DATA(aclsuite) *self, const char *name)
{
	const char *suite = getenv("ACL9P_ACL_SUITE");
	int st_s, st_l;

	A9_REQUIRE_LOCAL();
	umask(022);
	a9_path(self->p, self->dir, "w");
	a9_path(self->q, self->ldir, "w");
	st_l = run_suite(suite, name, self->q, out_l);
	st_s = run_suite(suite, name, self->p, out_s);
	ASSERT_TRUE(st_l >= 0 && st_l < 126) TH_LOG("test/run %s did not run on tmpfs: exit %d (%s)",
						     name, st_l, err);
	ASSERT_TRUE(st_s >= 0 && st_s < 126) TH_LOG("test/run %s did not run on the share: exit %d (%s)",
						     name, st_s, err);
	/* the runner went through the file: its summary line */
	ASSERT_NE(NULL, strstr(summary(out_l), " commands (")) TH_LOG("test/%s on tmpfs: no summary:\n%s",
								     name, out_l);
	ASSERT_NE(NULL, strstr(summary(out_s), " commands (")) TH_LOG("test/%s on the share: no summary:\n%s",
								     name, out_s);
	failed_lines(out_s, fail_s, sizeof(fail_s));
	failed_lines(out_l, fail_l, sizeof(fail_l));
	only_in(fail_s, fail_l, worse, sizeof(worse));
	only_in(fail_l, fail_s, better, sizeof(better));
	/* one line each, so that a list names the very commands */
	EXPECT_STREQ("none", worse[0] ? worse : "none")
		TH_LOG("test/%s: commands the share fails and tmpfs passes", name);
	EXPECT_STREQ("none", better[0] ? better : "none")
		TH_LOG("test/%s: commands the share passes and tmpfs fails", name);
	if (strcmp(fail_l, fail_s))
		TH_LOG("the share's run of test/%s (%s):\n%s", name, summary(out_s), out_s);
	if (st_l)
		TH_LOG("test/%s fails on tmpfs as on the share (the suite's assumptions, above): %s\n%s",
		       name, summary(out_l), fail_l);
}

#define SUITE(test, file)						\
	TEST_F_TIMEOUT(aclsuite, test, 300)				\
	{								\
		suite_file(_metadata, self, file);			\
	}

SUITE(cp, "cp.test")
SUITE(getfacl_lfs, "getfacl-lfs.test")
SUITE(getfacl_noacl, "getfacl-noacl.test")
SUITE(getfacl_recursive, "getfacl-recursive.test")
SUITE(malformed_restore, "malformed-restore.test")
SUITE(misc, "misc.test")
SUITE(sbits_restore, "sbits-restore.test")
SUITE(setfacl_X, "setfacl-X.test")
SUITE(utf8_filenames, "utf8-filenames.test")
SUITE(root_getfacl, "root/getfacl.test")
SUITE(root_permissions, "root/permissions.test")
SUITE(root_restore, "root/restore.test")
SUITE(root_setfacl, "root/setfacl.test")

TEST_HARNESS_MAIN
