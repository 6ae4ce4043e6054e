/* KTAP parsers for a cell's results:
 *   ktap.txt        the guest init's nested KTAP document: a plan over the
 *                   test binaries, each binary's kselftest-harness output
 *                   indented by four spaces as its subtests, then the
 *                   binary's own "ok N name" line;
 *   hostcheck.ktap  flat KTAP the rig writes on the host, as the tests of
 *                   a pseudo-binary "hostcheck". */
#ifndef ACL9P_REPORT_KTAP_H
#define ACL9P_REPORT_KTAP_H

#include <stddef.h>

#define MAX_DIAG 5 /* diagnostic lines shown per test: enough for the
		    * first failed assertion, short enough to scan */

/* What the guest said, before the expected lists are applied. */
enum raw_result {
	RAW_PASS,
	RAW_FAIL,
	RAW_SKIP,
	RAW_XFAIL,   /* harness itself reported "ok .. # XFAIL" */
	RAW_XPASS,   /* harness itself reported "ok .. # XPASS" */
	RAW_MISSING, /* announced by the plan, never reported */
};

/* Final classification, after tests/expected/xfail.* */
enum verdict { V_PASS, V_FAIL, V_SKIP, V_XFAIL, V_XPASS };

/* Plans and test numbers above this are console garbage, not a harness
 * (the biggest kselftest binaries have a few hundred tests); believing
 * "1..99999999" would invent millions of missing tests. */
#define MAX_TESTNUM 10000

struct expect_entry;

struct test {
	char *binary; /* "#N" while the binary's name is unknown */
	char *name;   /* as in the ok line; "#N" until resolved if unknown */
	char *full;   /* binary.name */
	int number;   /* TAP test number, 0 if none */
	int unnamed;  /* missing test whose name the output never gave */
	enum raw_result raw;
	char *reason; /* directive text, failure comment, why missing */
	/* every diagnostic line, whole: causes are matched against all,
	 * reports show the first MAX_DIAG, each cut to 300 bytes */
	char **diag;
	size_t ndiag;
	enum verdict verdict;
	const struct expect_entry *entry; /* xfail entry that matched */
	/* failed, listed, but this line matched none of the causes of the
	 * entries naming the test (owned) */
	char *uncaused;
};

struct test_list {
	struct test *v;
	size_t n, cap;
};

/* One test binary of ktap.txt, in the order the init ran them. */
struct binary {
	char *name;    /* "#N" while unknown (it never started) */
	long number;   /* N of its top-level result line */
	int unnamed;
	long time_ms;  /* from "# time_ms", -1 if none */
};

struct binaries {
	struct binary *v;
	size_t n, cap;
	long plan;     /* top-level "1..N": binaries the init meant to run;
			* -1 when the output never said */
	long hostcheck_requests; /* "# HOSTCHECK " lines, as acl9p-hostcheck
				  * finds them (anywhere in a line) */
};

/* Parse a ktap.txt into tests and binaries.  Never fails on content:
 * unknown lines are ignored.  Returns -1 only when the file cannot be
 * opened (errno set). */
int ktap_parse_file(const char *path, struct test_list *out,
		    struct binaries *bins);
/* Append the tests of a hostcheck.ktap; -1 (errno set) if unreadable. */
int ktap_parse_hostcheck(const char *path, struct test_list *out);
/* Append a test (its full name made of binary and name), e.g. one the
 * output never mentioned; reason NULL is "". */
struct test *test_list_add(struct test_list *l, const char *binary,
			   const char *name, long number, enum raw_result raw,
			   const char *reason);
void test_set_name(struct test *t, const char *name);
void test_set_binary(struct test *t, const char *binary);
void test_list_free(struct test_list *l);
void binaries_free(struct binaries *b);

#endif
