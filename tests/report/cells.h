/* The run as a whole: one cell per results subdirectory
 * <kernel>.<config> (config: <server>.<access>.<cache>[.<opts>]), with its
 * status and parsed tests, classified against the xfail lists. */
#ifndef ACL9P_REPORT_CELLS_H
#define ACL9P_REPORT_CELLS_H

#include "expect.h"
#include "ktap.h"
#include <stdio.h>
#include "manifest.h"
#include "status.h"
#include "traffic.h"

struct counts {
	unsigned pass, fail, skip, xfail, xpass;
};

struct cell {
	char *name;
	char *kernel; /* vanilla, patched, custom, ... */
	char *config; /* everything after the kernel: what A/B pairs share */
	struct status st;
	int never_ran;          /* asked for (--cells), no results directory */
	int has_ktap;
	struct test_list tests; /* ktap.txt's, then hostcheck.ktap's */
	size_t nguest;          /* how many of them came from ktap.txt */
	struct binaries bins;   /* ktap.txt's binaries, with their times */
	/* The pseudo-test <cell>.boot: the guest run itself went wrong. */
	int boot_failed;
	char *boot_reason;
	const struct expect_entry *boot_entry; /* xfail'd boot failure */
	struct counts c; /* boot failure included in c.fail (or c.xfail) */
	struct traffic traffic; /* traffic.tsv: 9P requests per test */
};

struct run {
	struct cell *v;
	size_t n, cap;
	/* With a manifest: reported tests it does not list (not failures),
	 * and the first of them, "<test> [<cell>]". */
	size_t unlisted;
	char *unlisted_first;
};

/* Loads the cells of results (those matching filter, when given).
 * cells_file, when given, names the cells the run asked for, one a line:
 * one of them (matching filter) without a results directory is a cell
 * that never ran.  Returns 0, or -1 after one line on stderr (unreadable
 * dir or file, a line of cells_file that is not a cell name, no cells). */
int run_load(struct run *r, const char *results, const char *filter,
	     const char *cells_file);
/* Call once after run_load, before diff.  m (NULL: none) is the build's
 * manifest: each of its selected binaries' tests a cell did not report
 * becomes a failed test of the cell. */
/* Every listed failure's cause lines, tab-separated with the entry,
 * cell and test (a maintenance aid for writing cause= words). */
void run_dump_causes(const struct run *r, FILE *f);

void run_classify(struct run *r, struct expectations *ex,
		  const struct manifest *m);
/* Marks the entries that name no cell of the run unreachable: an entry
 * for a kernel the run did not boot is not stale.  A differences entry
 * is reachable where its kernel (any, for fails=either) has a cell of
 * its configurations. */
void run_mark_reachable(const struct run *r, struct expectations *ex);
/* Every unexpected result (FAIL, XPASS, a boot failure as "(boot)"), one
 * a line: cell, test, verdict, "flaky" when a flaky: entry names the
 * test there (else "-"), reason; tab-separated, for scripts (make bite). */
int run_write_unexpected(const struct run *r, const struct expectations *ex,
			 const char *path);
void run_free(struct run *r);

int kernel_rank(const char *kernel);

#endif
