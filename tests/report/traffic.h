/* The 9P requests of each test of a cell: R/<cell>/traffic.tsv, which
 * scripts/boot.sh writes in a check run where the requests were counted
 * (QEMU's trace of its own server, ninep-proxy's counts), and what the
 * report makes of them: per cell and type, per binary, and vanilla
 * against patched per configuration. */
#ifndef ACL9P_REPORT_TRAFFIC_H
#define ACL9P_REPORT_TRAFFIC_H

#include <stdio.h>

struct run;

#define TRAFFIC_FILE "traffic.tsv"
/* slice 0: the requests before the first test's marker (the mounts),
 * with ninep-proxy also the connections that never see a marker */
#define TRAFFIC_UNMARKED "(unmarked)"

struct traffic_row {
	char *test, *type;
	unsigned long long n;
};

struct traffic {
	int present;            /* the cell has a traffic.tsv */
	char *source;           /* "qemu-trace", "ninep-proxy"; "" unknown */
	long marks;             /* markers the guest sent; -1 unknown */
	/* by test, then type, each pair once (duplicate lines added up) */
	struct traffic_row *v;
	size_t n, cap;
	/* tests that ran for a time, not a count (a race window):
	 * their requests are not compared */
	char **timed;
	size_t ntimed, captimed;
	/* "traffic.tsv:LINE: why" for each line that is not what the file
	 * holds, and the "# error" a failed count left; never fatal */
	char **errors;
	size_t nerrors, caperrors;
	int failed;             /* a "# error" line: no counts at all */
};

/* Reads path into t when it exists (t->present); shown is the path as
 * messages name it.  Never fails: what it cannot read is an error of t. */
void traffic_load(struct traffic *t, const char *path, const char *shown);
void traffic_free(struct traffic *t);

/* stdout (every line within 100 columns) and summary.md sections; both
 * print nothing when no cell of the run has a traffic.tsv. */
void traffic_text(FILE *f, const struct run *r);
void traffic_markdown(FILE *f, const struct run *r);

#endif
