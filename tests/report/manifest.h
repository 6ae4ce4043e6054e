/* The build's test manifest (scripts/manifest.sh, build/tests/manifest):
 * "BINARY TESTNAME" lines, every test of every guest test binary the
 * build packed, named as its KTAP result line names it.  The guest's
 * output says what a cell did; the manifest says what it had to do. */
#ifndef ACL9P_REPORT_MANIFEST_H
#define ACL9P_REPORT_MANIFEST_H

#include <stddef.h>

struct manifest_binary {
	char *name;    /* acl9p_probe */
	char **tests;  /* probe.foo, ...: in the order the harness runs them */
	size_t n, cap;
	char **sorted; /* the same, sorted, for lookups */
	int selected;  /* matches --tests: every cell should have run it */
};

struct manifest {
	char *path;                /* as messages show it */
	struct manifest_binary *v; /* sorted by name: the init's order */
	size_t n, cap;
	size_t nselected;
};

/* Reads path; a binary is selected when its name without "acl9p_"
 * matches tests_glob as the guest init matches it (NULL or "": all).
 * Returns 0, or -1 after one line on stderr (unreadable, "file:line:
 * format error", a test listed twice, no test at all). */
int manifest_load(const char *path, const char *tests_glob, struct manifest *m);
void manifest_free(struct manifest *m);

/* The binary of that name, selected or not; NULL if none. */
const struct manifest_binary *manifest_binary(const struct manifest *m,
					      const char *name);
/* Whether b lists the test (a name as in its KTAP result line). */
int manifest_has(const struct manifest_binary *b, const char *test);
/* The k-th (1-based) selected binary in the init's order, NULL if none. */
const struct manifest_binary *manifest_selected(const struct manifest *m,
						long k);

#endif
