/* Human-readable output: the stdout report and R/summary.md. */
#ifndef ACL9P_REPORT_SUMMARY_H
#define ACL9P_REPORT_SUMMARY_H

#include <stdio.h>

#include "cells.h"
#include "diff.h"

struct totals {
	unsigned long passed, failed, skipped, xfail;
};

struct totals totals_of(const struct run *r, const struct diff_result *d);

/* Every line within 100 columns (but the last two, which scripts read:
 * "expected failures: N (DIR)" and "N passed, N failed, N skipped").
 * summary_md is named where a cut matrix note is in full; manifest is
 * the --manifest path as shown, NULL without one. */
void summary_text(FILE *f, const struct run *r, const struct diff_result *d,
		  const struct expectations *ex, const char *expected_dir,
		  const char *summary_md, int filtered, const char *manifest);
/* The text helpers of both, for the sections other files write
 * (traffic.c): s cut to w columns with "..."; s wrapped at blanks to
 * 100 columns, the first line after first, the others after more, the
 * maxl-th (0: none) cut; s escaped for a markdown table cell. */
char *summary_fit(const char *s, size_t w);
void summary_wrap(FILE *f, const char *first, const char *more, const char *s,
		  size_t maxl);
void summary_md(FILE *f, const char *s);

/* Returns 0, or -1 with errno set. */
int summary_markdown(const char *path, const struct run *r,
		     const struct diff_result *d, const struct expectations *ex,
		     const char *expected_dir, const char *manifest);

#endif
