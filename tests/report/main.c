/* acl9p-report: turn the rig's results tree into a verdict.
 *
 *   acl9p-report --results R --expected DIR [--cell-filter GLOB]
 *       [--manifest FILE [--tests GLOB]] [--cells FILE] [--flavour NAME]
 *       [--compare A:B[:across]]... [--judge K:AS]...
 *
 * Reads R/<kernel>.<config>/{ktap.txt,hostcheck.ktap,status} (and
 * traffic.tsv, the 9P requests per test, where there is one), applies
 * DIR/xfail.*, DIR/skip.* and DIR/differences, prints the report on
 * stdout (last line "N passed, N failed, N skipped"), writes R/summary.md, R/junit.xml and
 * R/unexpected.tsv (every unexpected result, a line each, for scripts).
 * --manifest: the build's list of tests (build/tests/manifest); each of
 * those a cell did not report fails, --tests being the binaries the run
 * selected (the rig's TESTS, without "acl9p_"; empty: all).  --cells:
 * the cells the run asked for; one without results fails.  --flavour:
 * the run's tags, comma-separated: the kernel flavour it booted
 * (tests/matrix.conf; "plain", the default, for the rig's own kernels)
 * and its architecture (scripts/check.sh passes "plain,x86_64",
 * "debug,x86_64", "plain,i386"): a list named <list>@TAG applies only to
 * runs with that tag.  --compare: a comparison of the A/B
 * differential, kernel B's cells against kernel A's (repeatable; none:
 * vanilla:patched); a differences entry's fails= must name a kernel of
 * one of them, or either.  A:B:across compares kernels of different
 * sources: there a difference whose failing side is that kernel's own
 * expected failure or skip (an entry not naming the other's cell)
 * needs no differences entry (diff.c says why).  --judge K:AS: the
 * lists' entries that take a cell of kernel AS take kernel K's same
 * cell too (a distribution's build of the source the rig builds as AS,
 * kernel/kernels.conf judged=); an entry naming K says where it differs.
 * Paths it prints are relative to the cwd when they lie below it.
 * Exit: 0 nothing failed, 1 something failed, 2 usage/format/IO error. */
#include "cells.h"
#include "diff.h"
#include "expect.h"
#include "junit.h"
#include "manifest.h"
#include "summary.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USAGE1 "acl9p-report --results R --expected DIR [--cell-filter GLOB]"
#define USAGE2 "[--manifest FILE [--tests GLOB]] [--cells FILE] [--flavour NAME] [--compare A:B[:across]]... [--judge K:AS]..."

/* Errors are one line; help is stdout, so it fits 100 columns. */
static void usage(const char *why)
{
	fprintf(stderr, "acl9p-report: %s; usage: " USAGE1 " " USAGE2 "\n", why);
	exit(2);
}

/* A directory argument as messages show it: relative from here on, so
 * every path derived from it (list entries, summary) prints short, and
 * without trailing slashes ("R/" would print as "R//summary.md"). */
static char *dir_arg(const char *arg)
{
	char *d = rel_path(arg);
	for (size_t n = strlen(d); n > 1 && d[n - 1] == '/'; n--)
		d[n - 1] = 0;
	return d;
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Whether kernel k is one side of a comparison ("A:B" or "A:B:across";
 * none given: vanilla:patched). */
static int compared(const char *k, char *const *compares, size_t n)
{
	size_t lk = strlen(k);

	if (!n)
		return !strcmp(k, "vanilla") || !strcmp(k, "patched");
	for (size_t i = 0; i < n; i++) {
		const char *sep = strchr(compares[i], ':');

		const char *end = strchr(sep + 1, ':');
		size_t lb = end ? (size_t)(end - sep - 1) : strlen(sep + 1);

		if (((size_t)(sep - compares[i]) == lk &&
		     !memcmp(compares[i], k, lk)) ||
		    (lb == lk && !memcmp(sep + 1, k, lk)))
			return 1;
	}
	return 0;
}

/* A fails= naming no compared kernel would excuse nothing, silently: a
 * typo, or an entry for a kernel the comparisons lost.  0, or -1 after
 * one line on stderr. */
static int check_fails_names(const struct expectations *ex,
			     char *const *compares, size_t n)
{
	for (size_t i = 0; i < ex->differences.n; i++) {
		const struct expect_entry *e = &ex->differences.v[i];

		if (strcmp(e->fails, "either") && !compared(e->fails, compares, n)) {
			fprintf(stderr, "acl9p-report: %s:%d: fails=%s: no comparison has that kernel\n",
				e->file, e->line, e->fails);
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *results = NULL, *expected = NULL, *filter = NULL,
		   *manifest = NULL, *tests = NULL, *cells = NULL,
		   *flavour = "plain", *compare = NULL, *judge = NULL;
	char **compares = NULL;
	size_t ncompares = 0, capcmp = 0;
	for (int i = 1; i < argc; i++) {
		const char **slot = NULL;
		const char *a = argv[i], *val = NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf("usage: " USAGE1 "\n       " USAGE2 "\n");
			return 0;
		}
		static const char *const opts[] = { "--results", "--expected",
						     "--cell-filter", "--manifest",
						     "--tests", "--cells", "--flavour",
						     "--compare", "--judge" };
		const char **slots[] = { &results, &expected, &filter, &manifest,
					 &tests, &cells, &flavour, &compare, &judge };
		for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
			size_t n = strlen(opts[k]);
			if (!strncmp(a, opts[k], n) && (a[n] == 0 || a[n] == '=')) {
				slot = slots[k];
				val = a[n] == '=' ? a + n + 1 : NULL;
			}
		}
		if (!slot) {
			char *m = xasprintf("unknown argument '%s'", a);
			usage(m); /* exits; m is reclaimed by the OS */
		}
		if (!val) {
			if (i + 1 >= argc)
				usage("option needs a value");
			val = argv[++i];
		}
		/* An empty TESTS is the rig's "all binaries". */
		if (!*val && slot != &tests)
			usage("empty option value");
		*slot = val;
		if (slot == &compare) {
			const char *sep = strchr(val, ':');
			const char *third = sep ? strchr(sep + 1, ':') : NULL;
			size_t la = sep ? (size_t)(sep - val) : 0;
			size_t lb = !sep ? 0 : third ? (size_t)(third - sep - 1) :
					   strlen(sep + 1);

			if (!sep || !la || !lb ||
			    (third && strcmp(third, ":across")) ||
			    (lb == la && !memcmp(val, sep + 1, la)))
				usage("--compare takes A:B or A:B:across, two kernels");
			grow(&compares, &capcmp, ncompares, sizeof(*compares));
			compares[ncompares++] = xstrdup(val);
		}
		if (slot == &judge) {
			const char *sep = strchr(val, ':');
			char *k;

			if (!sep || sep == val || !sep[1] || strchr(sep + 1, ':') ||
			    strchr(val, '.'))
				usage("--judge takes K:AS, two kernels");
			k = xasprintf("%.*s", (int)(sep - val), val);
			expect_judge_as(k, sep + 1);
			free(k);
		}
	}
	if (!results || !expected)
		usage("--results and --expected are required");
	/* without a manifest it would select nothing, silently */
	if (tests && !manifest)
		usage("--tests needs --manifest");
	char *res = dir_arg(results), *exd = dir_arg(expected);
	results = res;
	expected = exd;

	struct expectations ex;
	if (expect_load(expected, flavour, &ex)) {
		free(res);
		free(exd);
		free_strv(compares, ncompares);
		return 2;
	}
	if (check_fails_names(&ex, compares, ncompares)) {
		expect_free(&ex);
		free(res);
		free(exd);
		free_strv(compares, ncompares);
		return 2;
	}
	struct manifest man = { 0 };
	if (manifest && manifest_load(manifest, tests, &man)) {
		expect_free(&ex);
		free(res);
		free(exd);
		free_strv(compares, ncompares);
		return 2;
	}
	struct run run;
	if (run_load(&run, results, filter, cells)) {
		manifest_free(&man);
		expect_free(&ex);
		free(res);
		free(exd);
		free_strv(compares, ncompares);
		return 2;
	}
	run_classify(&run, &ex, manifest ? &man : NULL);
	run_mark_reachable(&run, &ex);
	const char *dump = getenv("ACL9P_REPORT_DUMP_CAUSES");
	if (dump && *dump) {
		FILE *df = fopen(dump, "w");
		if (df) {
			run_dump_causes(&run, df);
			fclose(df);
		}
	}
	struct diff_result diff;
	diff_run(&run, &ex, compares, ncompares, &diff);

	int rc = 0;
	char *md = xasprintf("%s/summary.md", results);
	char *ju = xasprintf("%s/junit.xml", results);
	char *ux = xasprintf("%s/unexpected.tsv", results);
	if (summary_markdown(md, &run, &diff, &ex, expected,
			     manifest ? man.path : NULL)) {
		fprintf(stderr, "acl9p-report: cannot write %s: %s\n", md, strerror(errno));
		rc = 2;
	} else if (junit_write(ju, &run, &diff)) {
		fprintf(stderr, "acl9p-report: cannot write %s: %s\n", ju, strerror(errno));
		rc = 2;
	} else if (run_write_unexpected(&run, &ex, ux)) {
		fprintf(stderr, "acl9p-report: cannot write %s: %s\n", ux, strerror(errno));
		rc = 2;
	}
	/* stdout last, so its final line is the verdict even if a file
	 * could not be written. */
	summary_text(stdout, &run, &diff, &ex, expected, md, filter != NULL,
		     manifest ? man.path : NULL);
	struct totals t = totals_of(&run, &diff);
	if (rc == 0)
		rc = t.failed ? 1 : 0;
	if (fflush(stdout) != 0)
		rc = 2;

	free(md);
	free(ju);
	free(ux);
	diff_free(&diff);
	free_strv(compares, ncompares);
	run_free(&run);
	manifest_free(&man);
	expect_free(&ex);
	free(res);
	free(exd);
	return rc;
}
