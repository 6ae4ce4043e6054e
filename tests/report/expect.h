/* Expected-results lists from tests/expected/:
 *   xfail.*      "<cell-glob> <test-glob> [cause=<glob>]... <reason...>"
 *                a cause is matched against the failing test's
 *                diagnostic lines (see cells.c: test_caused)
 *   skip.*       the same format: the tests that skip in a cell; a
 *                cause is matched against the skip's reason
 *   differences  "<config-glob> <test-glob> fails=<kernel> <reason...>",
 *                config being the cell name without its kernel part and
 *                <kernel> the one that fails (a kernel of a comparison,
 *                or either for a flaky: race), the other passing; it
 *                applies to every comparison that has that kernel
 * Globs are fnmatch(3) patterns, a cell glob matched axis by axis
 * (expect_cell_matches); first matching entry wins. */
#ifndef ACL9P_REPORT_EXPECT_H
#define ACL9P_REPORT_EXPECT_H

#include <stdbool.h>
#include <stddef.h>


struct expect_entry {
	char *file;   /* path as shown in messages */
	int line;
	char *cell_glob, *test_glob, *reason;
	char **causes; /* "cause=" globs, none: the names alone match */
	size_t ncauses;
	unsigned *cause_used; /* per cause: lines it matched this run */
	char **withs;  /* "with=" globs: each must match some diagnostic
			* line of the failure (a race's own message) */
	size_t nwiths;
	int flaky;    /* reason starts with "flaky:": a pass is fine too */
	char *fails;  /* differences only: "fails=" kernel, "either" */
	unsigned used;/* matched something this run */
	int unreachable; /* no cell of the run is one it names (another
			  * kernel's entry): not reported as unused */
};

struct expect_list {
	struct expect_entry *v;
	size_t n, cap;
};

struct expectations {
	struct expect_list xfail, skip, differences;
};

/* Returns 0, or -1 after printing one "file:line: ..." line on stderr. */
int expect_load(const char *dir, const char *flavour, struct expectations *ex);
void expect_free(struct expectations *ex);

/* Whether a cell glob takes this cell (or a differences glob this
 * configuration), one axis per dot-separated component. */
bool expect_cell_matches(const char *glob, const char *cell);
/* From now on, kernel's cells are also taken by the globs that take
 * kernel as's same cell (acl9p-report --judge). */
void expect_judge_as(const char *kernel, const char *as);
/* NULL, or why glob cannot be matched by axis (a load error) */
const char *expect_check_cell_glob(const char *glob);

/* First entry matching; NULL if none.  Marks the entry used. */
const struct expect_entry *expect_match(struct expect_list *l,
					const char *cell, const char *test);

/* First differences entry naming this configuration and test whose
 * fails= is the kernel that failed where the other passed (failing;
 * NULL for another pair of outcomes, which only fails=either takes);
 * NULL if none.  Marks the entry used. */
const struct expect_entry *expect_match_diff(struct expect_list *l,
					     const char *config, const char *test,
					     const char *failing);

/* Whether e names this cell and test (no side effect). */
int expect_names(const struct expect_entry *e, const char *cell,
		 const char *test);

/* Whether line (a diagnostic without its "# ") matches a cause of e;
 * with use, the first cause it matches is counted as used. */
int expect_cause_matches(const struct expect_entry *e, const char *line);
int expect_cause_use(struct expect_entry *e, const char *line);

/* Whether each with= glob of e matches one of the n lines. */
int expect_withs_match(const struct expect_entry *e, const char *const *lines,
		       size_t n);

#endif
