/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Harness glue for the acl9p test binaries.  Include this exactly once per
 * binary (it includes kselftest_harness.h, which defines global symbols).
 *
 * Every test runs in a fresh directory $ACL9P_MNT/<binary>.<fixture>.<test>
 * (and, when it compares with local semantics, a twin directory under
 * $ACL9P_LOCAL).  The directories are left behind for inspection.
 */
#ifndef ACL9P_TEST_H
#define ACL9P_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "kselftest.h"
/*
 * Linux 6.1's harness reports a skipped test as "ok N # SKIP why", with
 * no name, which is not a KTAP result line (kunit_parser.py reads it
 * as a crashed test).  Its one caller of ksft_test_result_skip() is
 * __run_test(), where the fixture (f), variant and test (t) are in
 * scope: name the test there as later harnesses do ("ok N name # SKIP
 * why").  Any other caller would fail to compile, not misreport.
 */
#define ksft_test_result_skip(fmt, ...)					\
	a9_ksft_result_skip(f->name, variant->name, t->name, fmt, ##__VA_ARGS__)

static inline void __attribute__((format(printf, 4, 5)))
a9_ksft_result_skip(const char *fixture, const char *variant,
		    const char *test, const char *fmt, ...)
{
	va_list ap;

	ksft_cnt.ksft_xskip++;
	printf("ok %d %s%s%s.%s # SKIP ", ksft_test_num(), fixture,
	       variant[0] ? "." : "", variant, test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

#include "kselftest_harness.h"
#include "acl9p.h"

/*
 * "acl9p_x --list": the binary's tests, one a line, in the order
 * test_harness_run() runs them and named as their KTAP result lines name
 * them (__run_test: fixture.test, fixture.variant.test).  What a cell
 * must report has to come from the build, not from what a guest
 * happened to print: "make guest" runs every binary with --list on the
 * host to write build/tests/manifest, and acl9p-report fails each test
 * of it a cell did not report.  Linux 6.1's harness has no list option
 * (later ones have -l), hence this main().  The binaries are static and
 * do nothing before main() but register their tests, so the host can
 * run them.  No other argument changes what main() does.
 */
static inline int a9_list_tests(void)
{
	struct __fixture_variant_metadata no_variant = { .name = "", };
	struct __fixture_variant_metadata *v;
	struct __fixture_metadata *f;
	struct __test_metadata *t;

	for (f = __fixture_list; f; f = f->next)
		for (v = f->variant ?: &no_variant; v; v = v->next)
			for (t = f->tests; t; t = t->next)
				printf("%s%s%s.%s\n", f->name,
				       v->name[0] ? "." : "", v->name, t->name);
	/* a manifest cut short by a full disk must not pass for one */
	return fflush(stdout) || ferror(stdout) ? KSFT_FAIL : KSFT_PASS;
}

/*
 * ACL9P_TIMEOUT_SCALE=N multiplies every test's harness timeout: a
 * kernel flavour that runs many times slower (debug: KASAN and lockdep
 * under TCG, 10-20x) sets it on its command line (tests/matrix.conf),
 * where a test cut off by a timeout sized for the plain kernel would say
 * nothing about the code.  guest/init.c scales its per-binary limit by
 * the same factor.
 */
static inline void a9_scale_timeouts(void)
{
	const char *s = getenv("ACL9P_TIMEOUT_SCALE");
	struct __fixture_metadata *f;
	struct __test_metadata *t;
	long n = s ? strtol(s, NULL, 10) : 1;

	if (n <= 1 || n > 100)
		return;
	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			t->timeout *= n;
}

/*
 * The harness' own constructor, kept as 6.1's TEST_HARNESS_MAIN has it:
 * __LIST_APPEND orders the lists by which of it and
 * __constructor_order_first() runs first.
 */
#define A9_CONSTRUCTOR_ORDER_LAST					\
	static void __attribute__((constructor))			\
	__constructor_order_last(void)					\
	{								\
		if (!__constructor_order)				\
			__constructor_order = _CONSTRUCTOR_ORDER_BACKWARD; \
	}

/*
 * Per-test traffic markers (a9_mark(), acl9p.h): in a check run
 * (ACL9P_MODE=check, the guest init's environment) every test sends one
 * marker as the very first thing it does, so that the host can give
 * each 9P request to the test that caused it (scripts/boot.sh:
 * traffic.tsv).  The one place every test passes, fixture or not, before
 * its fixture's setup and in its own child, is the harness' call of
 * t->fn (a wrapper __TEST_IMPL or __TEST_F_IMPL made) in __run_test():
 * main() swaps each test's fn for a9_marked_test(), which marks and
 * calls the wrapper.  The tests' sources do not change, and a new test
 * is marked without a thought; what the harness does before the fork
 * (printing the RUN line) sends nothing.
 */
typedef void (*a9_test_fn)(struct __test_metadata *,
			   struct __fixture_variant_metadata *);
static struct a9_wrapped {
	const struct __test_metadata *t;
	a9_test_fn fn;
} *a9_wrapped;
static size_t a9_nwrapped;

static void a9_marked_test(struct __test_metadata *t,
			   struct __fixture_variant_metadata *v)
{
	char name[512];
	size_t i;

	for (i = 0; i < a9_nwrapped && a9_wrapped[i].t != t; i++)
		;
	if (i == a9_nwrapped)
		abort();	/* only a9_mark_tests() installs this */
	/* named as the report names it: binary.fixture[.variant].test */
	snprintf(name, sizeof(name), "%s.%s%s%s.%s", a9_binary(),
		 t->fixture->name, v->name[0] ? "." : "", v->name, t->name);
	a9_mark(name);
	a9_wrapped[i].fn(t, v);
}

static inline void a9_mark_tests(void)
{
	struct __fixture_metadata *f;
	struct __test_metadata *t;
	size_t n = 0;

	if (strcmp(a9_env("ACL9P_MODE", ""), "check"))
		return;	/* by hand, on the host: nothing to count */
	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			n++;
	a9_wrapped = calloc(n ? n : 1, sizeof(*a9_wrapped));
	if (!a9_wrapped)
		return;	/* none marked: all is "(unmarked)" on the host */
	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next) {
			a9_wrapped[a9_nwrapped++] =
				(struct a9_wrapped){ .t = t, .fn = t->fn };
			t->fn = a9_marked_test;
		}
}

#undef TEST_HARNESS_MAIN
#define TEST_HARNESS_MAIN						\
	A9_CONSTRUCTOR_ORDER_LAST					\
	int main(int argc, char **argv)					\
	{								\
		if (argc > 1 && !strcmp(argv[1], "--list"))		\
			return a9_list_tests();				\
		a9_scale_timeouts();					\
		a9_mark_tests();					\
		return test_harness_run(argc, argv);			\
	}

/*
 * SKIP from a FIXTURE_SETUP.  The 6.1 harness runs the test body even when
 * the setup SKIPped (it only checks "passed"), so end the test child here
 * with the harness' skip status; newer harnesses handle SKIP in setup.
 */
#ifdef FIXTURE_TEARDOWN_PARENT
#define A9_SETUP_SKIP(fmt, ...) SKIP(return, fmt, ##__VA_ARGS__)
#else
#define A9_SETUP_SKIP(fmt, ...) do {					\
	SKIP(, fmt, ##__VA_ARGS__);					\
	fflush(stdout);							\
	fflush(stderr);							\
	_exit(255);							\
} while (0)
#endif

/* syscall result (-1/errno convention) as 0 or -errno */
#define A9_ERR(call) ((call) < 0 ? -errno : 0)

enum { A9_PROBE = 1, A9_NOPROBE = 0 };

/*
 * Whether the share takes POSIX ACLs (a probe in dir, a directory on
 * it): skip the test where it does not and may not, fail it where the
 * kernel is known to have ACL support.
 */
static inline void a9_setup_probe(struct __test_metadata *_metadata,
				  const char *dir)
{
	int r = a9_probe_acl(dir);

	/*
	 * Skip only where ACL support may really be absent: when the
	 * kernel is known to have it (ACL9P_REQUIRE_ACL=1, see the init),
	 * a refusal is the bug under test, not a missing feature
	 * (upstream's access=user regression looked just so).
	 */
	ASSERT_FALSE(r == -EOPNOTSUPP && a9_acl_required())
		TH_LOG("%s refuses POSIX ACLs (setxattr %s: EOPNOTSUPP) although the kernel has 9p ACL support (ACL9P_REQUIRE_ACL=1)",
		       a9_mnt(), A9_XA_ACCESS);
	if (r == -EOPNOTSUPP)
		A9_SETUP_SKIP("POSIX ACLs not supported on %s (setxattr %s: EOPNOTSUPP)",
			      a9_mnt(), A9_XA_ACCESS);
	ASSERT_EQ(0, r) TH_LOG("ACL probe in %s failed: %s", dir, a9_errname(r));
}

static inline void a9_setup(struct __test_metadata *_metadata,
			    const char *fixture, char *dir, size_t dirsz,
			    char *ldir, size_t ldirsz, int probe)
{
	char name[512];
	int r;
	struct stat st;

	umask(022);
	snprintf(name, sizeof(name), "%s.%s.%s", a9_binary(), fixture,
		 _metadata->name);
	r = a9_mkworkdir(a9_mnt(), name, dir, dirsz);
	ASSERT_EQ(0, r) TH_LOG("cannot create work dir under %s: %s",
			       a9_mnt(), a9_errname(r));
	if (ldir) {
		ldir[0] = 0;
		if (!stat(a9_local(), &st)) {
			r = a9_mkworkdir(a9_local(), name, ldir, ldirsz);
			ASSERT_EQ(0, r) TH_LOG("cannot create local dir under %s: %s",
					       a9_local(), a9_errname(r));
		}
	}
	if (probe == A9_PROBE)
		a9_setup_probe(_metadata, dir);
}

/*
 * Standard fixture: self->dir (on the share), self->ldir (on the local
 * tmpfs, may be empty if ACL9P_LOCAL does not exist), self->p scratch.
 */
#define A9_FIXTURE(fname, probe)					\
	FIXTURE(fname) {						\
		char dir[PATH_MAX];					\
		char ldir[PATH_MAX];					\
		char p[PATH_MAX];					\
		char q[PATH_MAX];					\
	};								\
	FIXTURE_SETUP(fname)						\
	{								\
		a9_setup(_metadata, #fname, self->dir, sizeof(self->dir), \
			 self->ldir, sizeof(self->ldir), probe);	\
	}								\
	FIXTURE_TEARDOWN(fname)						\
	{								\
	}


/* Require the local comparison dir. */
#define A9_REQUIRE_LOCAL() do {						\
	if (!self->ldir[0])						\
		SKIP(return, "ACL9P_LOCAL (%s) does not exist", a9_local()); \
} while (0)

/* Check an ACL xattr decodes to exactly exp (entries in stored order). */
#define EXPECT_ACL(path, xname, exp) do {				\
	char __t[16384];						\
	int __r = a9_get_text(path, xname, __t, sizeof(__t));		\
	EXPECT_EQ(0, __r) TH_LOG("getxattr(%s, %s): %s (expected %s)",	\
				 path, xname, a9_errname(__r), exp);	\
	if (!__r)							\
		EXPECT_STREQ(exp, __t) TH_LOG("ACL %s on %s", xname, path); \
} while (0)

#define ASSERT_ACL(path, xname, exp) do {				\
	char __t[16384];						\
	int __r = a9_get_text(path, xname, __t, sizeof(__t));		\
	ASSERT_EQ(0, __r) TH_LOG("getxattr(%s, %s): %s (expected %s)",	\
				 path, xname, a9_errname(__r), exp);	\
	ASSERT_STREQ(exp, __t) TH_LOG("ACL %s on %s", xname, path);	\
} while (0)

/* Check that there is no such ACL xattr (ENODATA). */
#define EXPECT_NOACL(path, xname) do {					\
	char __t[16384];						\
	int __r = a9_get_text(path, xname, __t, sizeof(__t));		\
	EXPECT_EQ(-ENODATA, __r) TH_LOG("getxattr(%s, %s): %s, value %s; " \
					"expected ENODATA",		\
					path, xname, a9_errname(__r), __t); \
} while (0)

/* Compare an -errno result with the expected one, naming both. */
#define EXPECT_ERRNO(exp, got) do {					\
	int __e = (exp), __g = (got);					\
	EXPECT_EQ(__e, __g) TH_LOG("expected %s, got %s", a9_errname(__e), \
				   a9_errname(__g));			\
} while (0)

#define ASSERT_ERRNO(exp, got) do {					\
	int __e = (exp), __g = (got);					\
	ASSERT_EQ(__e, __g) TH_LOG("expected %s, got %s", a9_errname(__e), \
				   a9_errname(__g));			\
} while (0)

#define EXPECT_MODE(path, exp) do {					\
	int __m = a9_mode(path);					\
	EXPECT_EQ((int)(exp), __m) TH_LOG("mode of %s: %04o, expected %04o", \
					  path, __m, (unsigned)(exp));	\
} while (0)

/* set an ACL from text; ASSERT success */
#define ASSERT_SET(path, xname, text) do {				\
	int __r = a9_set_text(path, xname, text);			\
	ASSERT_EQ(0, __r) TH_LOG("setxattr(%s, %s, %s): %s", path, xname, \
				 text, a9_errname(__r));		\
} while (0)

/* run fn as cred; SKIP when the identity switch is impossible */
#define A9_RUN_AS(res, cred, fn, arg) do {				\
	(res) = a9_run_as(cred, fn, arg);				\
	if ((res) == -A9_NOSWITCH)					\
		SKIP(return, "cannot switch to uid %u gid %u",		\
		     (unsigned)(cred)->uid, (unsigned)(cred)->gid);	\
	ASSERT_LE(0, (res)) TH_LOG("child process failed");		\
} while (0)

#endif
