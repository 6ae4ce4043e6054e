/* The A/B differential: vanilla.<cfg> against patched.<cfg>, test by
 * test, on the raw outcome (xfail lists do not hide a behaviour change). */
#ifndef ACL9P_REPORT_DIFF_H
#define ACL9P_REPORT_DIFF_H

#include "cells.h"

enum outcome { O_ABSENT, O_PASS, O_FAIL, O_SKIP };

struct difference {
	const char *config; /* borrowed from the cell */
	const char *test;   /* borrowed: full test name */
	enum outcome a, b;  /* vanilla, patched */
	const struct expect_entry *entry; /* listed in "differences" */
};

struct diff_result {
	size_t pairs;   /* configurations that had both kernels */
	struct difference *v;
	size_t n, cap;
	size_t unlisted;
};

void diff_run(const struct run *r, struct expectations *ex, struct diff_result *d);
void diff_free(struct diff_result *d);
const char *outcome_str(enum outcome o);

#endif
