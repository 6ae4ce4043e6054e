/* The A/B differential: for each comparison A:B (kernel/kernels.conf's
 * compare lines, given by --compare), A.<cfg> against B.<cfg>, test by
 * test, on the raw outcome (xfail lists do not hide a behaviour change). */
#ifndef ACL9P_REPORT_DIFF_H
#define ACL9P_REPORT_DIFF_H

#include "cells.h"

#include <stdbool.h>

enum outcome { O_ABSENT, O_PASS, O_FAIL, O_SKIP };

struct difference {
	const char *config; /* borrowed from the cell */
	const char *test;   /* borrowed: full test name */
	const char *ka, *kb; /* borrowed: the comparison's kernels */
	enum outcome a, b;  /* of ka, of kb */
	const struct expect_entry *entry; /* listed in "differences" */
};

/* One comparison: its differences are d->v[first..first+n) */
struct diff_compare {
	const char *a, *b; /* borrowed: kernel names */
	bool across;       /* different sources: see diff.c */
	size_t pairs;      /* configurations that had both kernels */
	size_t first, n, unlisted;
};

struct diff_result {
	struct diff_compare *cmp;
	size_t ncmp;
	size_t pairs;   /* over every comparison */
	struct difference *v;
	size_t n, cap;
	size_t unlisted;
};

/* compares: "A:B" or "A:B:across" strings, cut at the colons (they
 * stay borrowed); none: vanilla:patched */
void diff_run(const struct run *r, struct expectations *ex,
	      char *const *compares, size_t ncompares, struct diff_result *d);
void diff_free(struct diff_result *d);
const char *outcome_str(enum outcome o);

#endif
