/* FNM_EXTMATCH, a GNU extension of fnmatch(3) */
#define _GNU_SOURCE
#include "cells.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int kernel_rank(const char *k)
{
	if (!strcmp(k, "vanilla"))
		return 0;
	if (!strcmp(k, "patched"))
		return 1;
	if (!strcmp(k, "custom"))
		return 2;
	return 3;
}

/* Same configuration next to each other, vanilla above patched: the A/B
 * pairs then read as adjacent rows in the matrix. */
static int cell_cmp(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;
	int c = strcmp(x->config, y->config);
	if (c)
		return c;
	c = kernel_rank(x->kernel) - kernel_rank(y->kernel);
	return c ? c : strcmp(x->name, y->name);
}

static int dots(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '.';
	return n;
}

static int exists(const char *dir, const char *file)
{
	char *p = xasprintf("%s/%s", dir, file);
	int ok = access(p, F_OK) == 0;
	free(p);
	return ok;
}

/*
 * The console pseudo-test console.kernel_reports: the kernel reports
 * boot.sh found on the cell's console (status kernel_reports=N, the first
 * line of each in kernel-reports).  It passes when there are none and
 * fails with those lines as its diagnostics otherwise, judged like any
 * test by the expected lists (a cause= glob per report line).  A file
 * that is missing or does not hold the N lines the status counts fails
 * it too: a console nobody could read is not a clean one.  Without the
 * status key (a rig before it, which failed the boot on splat=1) there
 * is no such test.
 */
/*
 * A kernel with CONFIG_PRINTK_TIME (the debug flavour) starts each console
 * line with "[   760.264298] "; a list's cause= glob is written once for
 * both kinds of kernel, so the stamp is not part of the judged line.
 */
static const char *skip_printk_time(const char *l)
{
	const char *p = l;

	if (*p++ != '[')
		return l;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return l;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	if (p[0] != ']' || p[1] != ' ')
		return l;
	return p + 2;
}

static void add_console_test(struct cell *c, const char *results)
{
	long want = c->st.kernel_reports;
	if (want == -1)
		return;
	char *p = xasprintf("%s/%s/kernel-reports", results, c->name);
	char *shown = rel_path(p);
	FILE *f = fopen(p, "r");
	int err = errno;
	char **lines = NULL, *buf = NULL, *line;
	size_t n = 0, cap = 0, bcap = 0;
	if (f) {
		while ((line = read_clean_line(f, &buf, &bcap))) {
			if (!*line)
				continue;
			line = (char *)skip_printk_time(line);
			grow(&lines, &cap, n, sizeof(*lines));
			lines[n++] = xasprintf("# %s", line);
		}
		free(buf);
		fclose(f);
	}
	char *why;
	if (!f)
		why = xasprintf("the console was not judged: %s: %s", shown,
				strerror(err));
	else if (want != (long)n)
		why = xasprintf("the console was not judged: %s holds %zu lines, "
				"the status counts %s", shown, n,
				want < 0 ? "nothing readable" : "another number");
	else
		why = n ? xasprintf("%zu kernel report%s on the console (first lines "
				    "in %s)", n, n == 1 ? "" : "s", shown)
			: NULL;
	/* every line is judged: a file that is not there or a count that
	 * does not add up is a line of its own, which no report's cause
	 * matches */
	if (!f || want != (long)n) {
		char *l = !f ? xasprintf("# %s", why)
			     : xasprintf("# %s holds %zu report lines, status "
					 "kernel_reports=%ld", shown, n, want);
		grow(&lines, &cap, n, sizeof(*lines));
		lines[n++] = l;
	}
	struct test *t = test_list_add(&c->tests, "console", "kernel_reports", 0,
				       why ? RAW_FAIL : RAW_PASS, why);
	t->diag = lines;
	t->ndiag = n;
	free(why);
	free(shown);
	free(p);
}

static void load_cell(struct cell *c, const char *results, const char *name)
{
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	const char *dot = strchr(name, '.');
	c->kernel = dot ? xstrndup(name, (size_t)(dot - name)) : xstrdup(name);
	c->config = xstrdup(dot ? dot + 1 : "");

	char *p = xasprintf("%s/%s/status", results, name);
	status_read(p, &c->st);
	free(p);
	p = xasprintf("%s/%s/ktap.txt", results, name);
	c->has_ktap = ktap_parse_file(p, &c->tests, &c->bins) == 0;
	free(p);
	c->nguest = c->tests.n;
	/* No hostcheck.ktap is for the rig to judge (a demo run has none,
	 * a crashed host checker shows in its log); here it is no checks. */
	p = xasprintf("%s/%s/hostcheck.ktap", results, name);
	ktap_parse_hostcheck(p, &c->tests);
	free(p);
	add_console_test(c, results);
	/* its messages follow the cell's name: the file's name says enough */
	p = xasprintf("%s/%s/" TRAFFIC_FILE, results, name);
	traffic_load(&c->traffic, p, TRAFFIC_FILE);
	free(p);
}

/* A line of the cells list names a results subdirectory; nothing that
 * leads out of R. */
static int cell_name_ok(const char *s)
{
	return *s && *s != '.' && !strpbrk(s, "/ \t");
}

/* Linear: a run has tens of cells, and this runs once per listed one. */
static int has_cell(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].name, name))
			return 1;
	return 0;
}

/* The cells the run asked for (scripts/check.sh writes them).  One that
 * left no results directory never ran at all: boot.sh died before it
 * made one, the job was killed, the scheduler skipped it.  Looking only
 * at what is there, such a cell would just be absent, and a run with
 * fewer cells would pass. */
static int add_asked(struct run *r, const char *results, const char *filter,
		     const char *path)
{
	char *shown = rel_path(path);
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "acl9p-report: --cells %s: %s\n", shown,
			strerror(errno));
		free(shown);
		return -1;
	}
	char *buf = NULL, *line;
	size_t cap = 0;
	int lineno = 0, rc = 0;
	while ((line = next_list_line(f, &buf, &cap, &lineno))) {
		if (!cell_name_ok(line)) {
			fprintf(stderr, "acl9p-report: %s:%d: not a cell name\n",
				shown, lineno);
			rc = -1;
			break;
		}
		/* --cell-filter: the others were not asked for this time */
		if ((filter && fnmatch(filter, line, FNM_EXTMATCH) != 0) || has_cell(r, line))
			continue;
		/* A directory the scan did not take for a cell is still the
		 * cell's: it ran, and wrote nothing there. */
		char *dir = xasprintf("%s/%s", results, line);
		struct stat sb;
		int is_dir = stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);
		free(dir);
		grow(&r->v, &r->cap, r->n, sizeof(*r->v));
		load_cell(&r->v[r->n], results, line);
		r->v[r->n++].never_ran = !is_dir;
	}
	free(buf);
	fclose(f);
	free(shown);
	return rc;
}

int run_load(struct run *r, const char *results, const char *filter,
	     const char *cells_file)
{
	memset(r, 0, sizeof(*r));
	DIR *d = opendir(results);
	if (!d) {
		fprintf(stderr, "acl9p-report: --results %s: %s\n", results,
			strerror(errno));
		return -1;
	}
	struct dirent *de;
	size_t seen = 0;
	while ((de = readdir(d))) {
		const char *nm = de->d_name;
		if (nm[0] == '.')
			continue;
		char *dir = xasprintf("%s/%s", results, nm);
		struct stat sb;
		/* A cell is a directory the rig wrote into, or one named like
		 * a cell, kernel.server.access.cache[.opts] (so a cell whose
		 * guest never produced a file still shows up, as a failure). */
		int is_cell = stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) &&
			      (dots(nm) >= 3 || exists(dir, "status") ||
			       exists(dir, "ktap.txt"));
		free(dir);
		if (!is_cell)
			continue;
		seen++;
		if (filter && fnmatch(filter, nm, FNM_EXTMATCH) != 0)
			continue;
		grow(&r->v, &r->cap, r->n, sizeof(*r->v));
		load_cell(&r->v[r->n++], results, nm);
	}
	closedir(d);
	if (cells_file && add_asked(r, results, filter, cells_file)) {
		run_free(r);
		return -1;
	}
	/* No cells is never a pass: the rig ran nothing or wrote elsewhere. */
	if (r->n == 0) {
		if (seen)
			fprintf(stderr, "acl9p-report: --cell-filter '%s' matches none of the %zu cells in %s\n",
				filter, seen, results);
		else
			fprintf(stderr, "acl9p-report: no cell directories in %s\n",
				results);
		return -1;
	}
	qsort(r->v, r->n, sizeof(*r->v), cell_cmp);
	return 0;
}

/* A test the guest never reported has only a number.  Another cell that
 * ran the same binary further usually knows its name; borrowing it keeps
 * the A/B diff and the xfail globs working on real names.  Index of all
 * named tests sorted by (binary, number), so a garbage-sized run stays
 * O(n log n). */
static int cmp_named(const void *a, const void *b)
{
	const struct test *x = *(const struct test *const *)a;
	const struct test *y = *(const struct test *const *)b;
	int c = strcmp(x->binary, y->binary);
	if (c)
		return c;
	return (x->number > y->number) - (x->number < y->number);
}

static void resolve_names(struct run *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++)
		n += r->v[i].tests.n;
	const struct test **idx = xcalloc(n + 1, sizeof(*idx));
	size_t k = 0;
	for (size_t i = 0; i < r->n; i++)
		for (size_t j = 0; j < r->v[i].tests.n; j++)
			if (!r->v[i].tests.v[j].unnamed && r->v[i].tests.v[j].number > 0)
				idx[k++] = &r->v[i].tests.v[j];
	if (k)
		qsort(idx, k, sizeof(*idx), cmp_named);
	for (size_t i = 0; i < r->n; i++) {
		struct test_list *l = &r->v[i].tests;
		for (size_t j = 0; j < l->n; j++) {
			struct test *t = &l->v[j];
			if (!t->unnamed || !k)
				continue;
			const struct test *key = t;
			const struct test **hit = bsearch(&key, idx, k, sizeof(*idx),
							  cmp_named);
			if (hit) {
				test_set_name(t, (*hit)->name);
				t->unnamed = 0;
			}
		}
	}
	free(idx);
}

/* A binary that never started has only its number.  A cell that ran
 * the same plan (so the same binaries, in the same order) knows its
 * name; a cell with a different plan ran a different selection, whose
 * binary #N is another one.  Indexed by (plan, number), as the test
 * names above are. */
struct named_bin {
	long plan;
	const struct binary *b;
};

static int cmp_bin(const void *a, const void *b)
{
	const struct named_bin *x = a, *y = b;
	if (x->plan != y->plan)
		return (x->plan > y->plan) - (x->plan < y->plan);
	return (x->b->number > y->b->number) - (x->b->number < y->b->number);
}

static const char *lookup_bin(const struct named_bin *idx, size_t k, long plan,
			      long number)
{
	struct binary key_bin = { .number = number };
	struct named_bin key = { .plan = plan, .b = &key_bin };
	const struct named_bin *hit = k ? bsearch(&key, idx, k, sizeof(*idx),
						  cmp_bin) : NULL;
	return hit ? hit->b->name : NULL;
}

/* Tests of a nameless binary carry "#N" as their binary. */
static void rename_binary_tests(struct cell *c, const struct named_bin *idx,
				size_t k)
{
	for (size_t i = 0; i < c->nguest; i++) {
		struct test *t = &c->tests.v[i];
		if (t->binary[0] != '#')
			continue;
		const char *nm = lookup_bin(idx, k, c->bins.plan,
					    strtol(t->binary + 1, NULL, 10));
		if (nm)
			test_set_binary(t, nm);
	}
}

static void resolve_binaries(struct run *r)
{
	size_t n = 0, k = 0;
	for (size_t i = 0; i < r->n; i++)
		n += r->v[i].bins.n;
	struct named_bin *idx = xcalloc(n + 1, sizeof(*idx));
	for (size_t i = 0; i < r->n; i++)
		for (size_t j = 0; j < r->v[i].bins.n; j++)
			if (!r->v[i].bins.v[j].unnamed)
				idx[k++] = (struct named_bin){ r->v[i].bins.plan,
							       &r->v[i].bins.v[j] };
	if (k)
		qsort(idx, k, sizeof(*idx), cmp_bin);
	/* The index holds named entries only, and only unnamed ones are
	 * renamed: no name it points to is freed under it. */
	for (size_t i = 0; i < r->n; i++) {
		struct cell *c = &r->v[i];
		rename_binary_tests(c, idx, k);
		for (size_t j = 0; j < c->bins.n; j++) {
			struct binary *b = &c->bins.v[j];
			const char *nm = b->unnamed ? lookup_bin(idx, k, c->bins.plan,
								 b->number)
						    : NULL;
			if (nm) {
				free(b->name);
				b->name = xstrdup(nm);
				b->unnamed = 0;
			}
		}
	}
	free(idx);
}

/* The line a cause is matched against: the diagnostic without "# ". */
static const char *sig_text(const char *line)
{
	if (*line == '#')
		line++;
	return *line == ' ' ? line + 1 : line;
}

/* "tests/x.c:47:name:Expected ..." (the harness' line for a failed
 * ASSERT or EXPECT); the TH_LOG lines after it only explain it. */
static int is_assertion(const char *l)
{
	const char *p = strchr(l, ':');
	if (!p || p == l || !isdigit((unsigned char)p[1]))
		return 0;
	p++;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p != ':')
		return 0;
	p = strchr(p + 1, ':');
	return p && starts_with(p + 1, "Expected ");
}

/* The harness' summary of a failed test, not a cause of its own. */
static int is_step_line(const char *l)
{
	return strstr(l, ": Test failed at step #") != NULL;
}

/*
 * The lines of a failing test that its causes are judged by: each
 * failed assertion, or, for a failure without one (a host check, a
 * test killed by a signal), each diagnostic line but the harness'
 * step summary; "(none)" for a failure without any.  Returns how many
 * pointers it put in out (t->ndiag + 1 slots).
 */
static size_t judged_lines(const struct test *t, const char **out)
{
	size_t n = 0, assertions = 0;
	for (size_t i = 0; i < t->ndiag; i++)
		assertions += is_assertion(sig_text(t->diag[i]));
	for (size_t i = 0; i < t->ndiag; i++) {
		const char *l = sig_text(t->diag[i]);
		if (assertions ? is_assertion(l) : !is_step_line(l))
			out[n++] = l;
	}
	if (!n)
		out[n++] = "(none)";
	return n;
}

/*
 * What a failing test has to show for its entry to excuse it: each of
 * its judged_lines() must match a cause of an entry that names the
 * test.  Several entries may name one test,
 * one cause each.  The first entry naming the test decides the style:
 * without causes, its names alone excuse the failure (the old lists).
 * Returns the entry that excuses the failure, or NULL with t->uncaused
 * set to the first line no cause matched.
 */
static const struct expect_entry *test_caused(struct cell *c, struct test *t,
					      struct expect_list *xl)
{
	struct expect_entry *first = NULL;
	size_t i;
	for (i = 0; i < xl->n && !first; i++)
		if (expect_names(&xl->v[i], c->name, t->full))
			first = &xl->v[i];
	if (!first)
		return NULL;
	if (!first->ncauses) {
		first->used++;
		return first;
	}
	const char **lines = xcalloc(t->ndiag + 1, sizeof(*lines));
	size_t n = judged_lines(t, lines);
	/* with= is matched against every diagnostic line: a race's own
	 * message is a log line, not the assertion it ends in. */
	const char **all = xcalloc(t->ndiag + 1, sizeof(*all));
	for (i = 0; i < t->ndiag; i++)
		all[i] = sig_text(t->diag[i]);
	const struct expect_entry *by = NULL;
	for (i = 0; i < n; i++) {
		struct expect_entry *hit = NULL;
		for (size_t k = 0; k < xl->n && !hit; k++) {
			struct expect_entry *e = &xl->v[k];
			if (e->ncauses && expect_names(e, c->name, t->full) &&
			    expect_cause_matches(e, lines[i]) &&
			    expect_withs_match(e, all, t->ndiag))
				hit = e;
		}
		if (!hit) {
			free(t->uncaused);
			t->uncaused = xstrdup(lines[i]);
			t->entry = first;
			by = NULL;
			break;
		}
		hit->used++;
		expect_cause_use(hit, lines[i]);
		if (!by)
			by = hit;
	}
	free(lines);
	free(all);
	return by;
}

/*
 * The skip entry that names t in c and, for a test that skipped, whose
 * cause (if it has any) matches why it skipped; NULL if none.  For a
 * test that ran there is no reason to match: the names decide.  A skip is the cell's shape, as
 * deterministic as its mount options: a test that skips where no entry
 * says so lost its coverage without failing (a host that did not
 * pre-populate the export, a probe that stopped seeing ACLs).
 */
static const struct expect_entry *skip_entry(struct expect_list *sl,
					     const struct cell *c,
					     const struct test *t, int use)
{
	for (size_t i = 0; i < sl->n; i++) {
		struct expect_entry *e = &sl->v[i];
		if (!expect_names(e, c->name, t->full))
			continue;
		if (t->raw == RAW_SKIP && e->ncauses &&
		    !expect_cause_matches(e, t->reason))
			continue;
		if (use) {
			e->used++;
			if (t->raw == RAW_SKIP && e->ncauses)
				expect_cause_use(e, t->reason);
		}
		return e;
	}
	return NULL;
}

/*
 * The harness' line for a test that did not end by itself: its timeout
 * fired ("Test terminated by timeout") or a signal other than an
 * assertion's SIGABRT killed it ("Test terminated unexpectedly by
 * signal N").  NULL when the test ended by itself.
 */
static const char *crash_line(const struct test *t)
{
	for (size_t i = 0; i < t->ndiag; i++) {
		const char *l = sig_text(t->diag[i]);

		if (strstr(l, ": Test terminated by timeout") ||
		    strstr(l, ": Test terminated unexpectedly by signal "))
			return l;
	}
	return NULL;
}

static void classify_test(struct cell *c, struct test *t, struct expect_list *xl,
			  struct expect_list *sl)
{
	const struct expect_entry *e = NULL;
	const char *crash;

	/* A list says how a test fails, never that it may hang or crash:
	 * whatever failed before, a timeout or a signal fails the test,
	 * and no entry is counted as used for it. */
	if (t->raw == RAW_FAIL && (crash = crash_line(t))) {
		char *why = xasprintf("%s (a timeout or a signal: no list excuses it)",
				      crash);

		free(t->reason);
		t->reason = why;
		t->entry = NULL;
		t->verdict = V_FAIL;
		c->c.fail++;
		return;
	}
	/* expect_match() counts the entry as used: not for a skip, and not
	 * for a test that never reported (see below); a failure is judged
	 * by its causes. */
	if (t->raw == RAW_FAIL)
		e = test_caused(c, t, xl);
	else if (t->raw != RAW_SKIP && t->raw != RAW_MISSING)
		e = expect_match(xl, c->name, t->full);
	if (e || !t->uncaused)
		t->entry = e;
	switch (t->raw) {
	case RAW_PASS:
	case RAW_XPASS:
		/* A listed test that passes means the list is stale (or the
		 * bug is fixed): fail so someone updates it.  A harness XPASS
		 * is the same news from the test itself. */
		if (e)
			t->verdict = e->flaky ? V_PASS : V_XPASS;
		else
			t->verdict = t->raw == RAW_XPASS ? V_XPASS : V_PASS;
		/* Listed to skip here, and it ran: the cell's shape changed
		 * (the feature it lacked is there), so the list is stale. */
		if (!e && t->verdict == V_PASS && (e = skip_entry(sl, c, t, 0))) {
			t->verdict = V_XPASS;
			t->entry = e;
		}
		break;
	case RAW_FAIL:
		t->verdict = e ? V_XFAIL : V_FAIL;
		break;
	case RAW_MISSING:
		/* A test that never reported did not fail the way its entry
		 * says: it was killed, or the guest died under it.  No entry
		 * excuses that. */
		t->verdict = V_FAIL;
		break;
	case RAW_XFAIL:
		t->verdict = V_XFAIL;
		break;
	case RAW_SKIP:
		t->entry = skip_entry(sl, c, t, 1);
		if (t->entry) {
			t->verdict = V_SKIP;
			break;
		}
		t->verdict = V_FAIL;
		char *why = xasprintf("skipped, and no tests/expected/skip.* entry "
				      "says it skips in this cell: %s",
				      *t->reason ? t->reason : "(no reason)");
		free(t->reason);
		t->reason = why;
		break;
	}
	switch (t->verdict) {
	case V_PASS: c->c.pass++; break;
	case V_FAIL: c->c.fail++; break;
	case V_SKIP: c->c.skip++; break;
	case V_XFAIL: c->c.xfail++; break;
	case V_XPASS: c->c.xpass++; break;
	}
}

static void check_boot(struct cell *c, struct expect_list *xl)
{
	struct strbuf sb = { 0 };

	/* No entry excuses it: a list says how a cell fails, and this one
	 * was never tried. */
	if (c->never_ran) {
		c->boot_failed = 1;
		c->boot_reason = xstrdup("cell asked for but no results (never ran)");
		c->c.fail++;
		return;
	}

	if (!c->st.present)
		sb_add(&sb, "no status file; ");
	if (!c->has_ktap)
		sb_add(&sb, "no ktap.txt; ");
	else if (c->nguest == 0)
		sb_add(&sb, "no test results in ktap.txt; ");
	if (c->st.timeout)
		sb_add(&sb, "timeout; ");
	/* Each HOSTCHECK request of the guest gets one result from
	 * acl9p-hostcheck.  Fewer: the host side did not run (its binary
	 * missing, boot.sh cut short) or refused a line as malformed, and
	 * those bytes on the host were never looked at. */
	if (c->has_ktap) {
		long reported = 0;
		for (size_t i = 0; i < c->tests.n; i++)
			reported += !strcmp(c->tests.v[i].binary, "hostcheck") &&
				    c->tests.v[i].raw != RAW_MISSING;
		if (reported != c->bins.hostcheck_requests)
			sb_addf(&sb, "host checks: %ld requested in ktap.txt, "
				"%ld reported in hostcheck.ktap; ",
				c->bins.hostcheck_requests, reported);
	}
	if (c->st.splat)
		sb_add(&sb, "kernel splat (oops/BUG/WARNING) on console; ");
	/* Output the kernel's own KTAP parser rejects is a rig bug even
	 * when this tool could make sense of it. */
	if (c->st.ktap_errors > 0)
		sb_addf(&sb, "kunit_parser.py: %ld errors%s%s%s; ",
			c->st.ktap_errors, *c->st.ktap_error ? " (first: " : "",
			c->st.ktap_error, *c->st.ktap_error ? ")" : "");
	/* The guest init exits 0 when the job ran, whatever the tests
	 * said, and 1 when its setup failed; -1 is a guest that never
	 * reported (it died, or QEMU did).  Failing tests, listed or not,
	 * never explain either: the cell fails on its own. */
	if (c->st.present && c->st.exit_code != 0) {
		if (c->st.exit_code == -1)
			sb_add(&sb, "no guest exit code; ");
		else
			sb_addf(&sb, "guest exit=%ld; ", c->st.exit_code);
	}
	if (sb.len == 0) {
		free(sb.s);
		return;
	}
	sb.s[sb.len -= 2] = 0; /* drop the last "; " */
	if (*c->st.reason)
		sb_addf(&sb, ": %s", c->st.reason);
	c->boot_failed = 1;
	c->boot_reason = sb_take(&sb);

	/* Only an entry naming "boot" literally excuses a dead guest: a broad
	 * "* *" must never hide a crash. */
	for (size_t i = 0; i < xl->n; i++) {
		struct expect_entry *e = &xl->v[i];
		if (!strcmp(e->test_glob, "boot") &&
		    expect_cell_matches(e->cell_glob, c->name)) {
			e->used++;
			c->boot_entry = e;
			break;
		}
	}
	if (c->boot_entry)
		c->c.xfail++;
	else
		c->c.fail++;
}

/* A binary that never started has only its number, and when no cell
 * that ran the same plan knows its name either: a cell that ran as many
 * binaries as the manifest selects ran those, in the init's order (it
 * sorts them by name, as the manifest is).  Only when every binary the
 * cell named agrees with that order. */
static void manifest_binaries(struct run *r, const struct manifest *m)
{
	for (size_t i = 0; i < r->n; i++) {
		struct cell *c = &r->v[i];
		int agree = c->bins.plan > 0 && c->bins.plan == (long)m->nselected;
		for (size_t j = 0; agree && j < c->bins.n; j++) {
			const struct binary *b = &c->bins.v[j];
			const struct manifest_binary *mb =
				manifest_selected(m, b->number);
			agree = b->unnamed || (mb && !strcmp(mb->name, b->name));
		}
		if (!agree)
			continue;
		for (size_t j = 0; j < c->bins.n; j++) {
			struct binary *b = &c->bins.v[j];
			const struct manifest_binary *mb =
				b->unnamed ? manifest_selected(m, b->number) : NULL;
			if (mb) {
				free(b->name);
				b->name = xstrdup(mb->name);
				b->unnamed = 0;
			}
		}
		for (size_t j = 0; j < c->nguest; j++) {
			struct test *t = &c->tests.v[j];
			const struct manifest_binary *mb = t->binary[0] == '#'
				? manifest_selected(m, strtol(t->binary + 1, NULL, 10))
				: NULL;
			if (mb)
				test_set_binary(t, mb->name);
		}
	}
}

/* A cell's guest tests by (binary, name), for lookups. */
static int cmp_bin_name(const void *a, const void *b)
{
	const struct test *x = *(const struct test *const *)a;
	const struct test *y = *(const struct test *const *)b;
	int c = strcmp(x->binary, y->binary);
	return c ? c : strcmp(x->name, y->name);
}

static const struct test **guest_index(const struct cell *c)
{
	const struct test **v = xcalloc(c->nguest + 1, sizeof(*v));
	for (size_t i = 0; i < c->nguest; i++)
		v[i] = &c->tests.v[i];
	if (c->nguest)
		qsort(v, c->nguest, sizeof(*v), cmp_bin_name);
	return v;
}

static int indexed(const struct test **idx, size_t n, const char *binary,
		   const char *name)
{
	struct test key = { .binary = (char *)binary, .name = (char *)name };
	const struct test *kp = &key;
	return n && bsearch(&kp, idx, n, sizeof(*idx), cmp_bin_name) != NULL;
}

/* Index of the first test of binary in idx (n if none). */
static size_t first_of(const struct test **idx, size_t n, const char *binary)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(idx[mid]->binary, binary) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A test the output never named (B.#N, and no other cell knew it) is
 * the manifest's N-th test of B: the harness numbers its tests in the
 * order it runs them.  Not when the cell reported that name already:
 * then the binary it ran is not the manifest's build. */
static void manifest_names(struct cell *c, const struct manifest *m)
{
	const struct test **idx = guest_index(c);
	struct test **todo = xcalloc(c->nguest + 1, sizeof(*todo));
	const char **names = xcalloc(c->nguest + 1, sizeof(*names));
	size_t k = 0;
	for (size_t i = 0; i < c->nguest; i++) {
		struct test *t = &c->tests.v[i];
		const struct manifest_binary *b =
			t->unnamed && t->number > 0 ? manifest_binary(m, t->binary)
						    : NULL;
		if (!b || (size_t)t->number > b->n ||
		    indexed(idx, c->nguest, t->binary, b->tests[t->number - 1]))
			continue;
		todo[k] = t;
		names[k++] = b->tests[t->number - 1];
	}
	free(idx);
	/* renamed only now: idx was sorted by the old names */
	for (size_t j = 0; j < k; j++) {
		test_set_name(todo[j], names[j]);
		todo[j]->unnamed = 0;
	}
	free(todo);
	free(names);
}

/* The tests of add go after the cell's guest tests, before its host
 * checks. */
static void add_guest_tests(struct cell *c, struct test_list *add)
{
	if (add->n) {
		struct test_list *l = &c->tests;
		grow(&l->v, &l->cap, l->n + add->n - 1, sizeof(*l->v));
		memmove(&l->v[c->nguest + add->n], &l->v[c->nguest],
			(l->n - c->nguest) * sizeof(*l->v));
		memcpy(&l->v[c->nguest], add->v, add->n * sizeof(*l->v));
		l->n += add->n;
		c->nguest += add->n;
	}
	free(add->v);
}

/* What the build says the cell had to report against what it did: a
 * test of a selected binary that is not among the cell's results fails
 * (RAW_MISSING, so no list excuses it: it did not fail the way an
 * entry says, it did not run); a binary the cell has no trace of fails
 * once.  Tests the manifest does not know are only counted. */
static void apply_manifest(struct run *r, struct cell *c,
			   const struct manifest *m)
{
	/* No result at all is the cell's boot failure, once. */
	if (c->never_ran || c->nguest == 0)
		return;
	manifest_names(c, m);
	for (size_t i = 0; i < c->nguest; i++) {
		const struct test *t = &c->tests.v[i];
		if (t->unnamed || t->binary[0] == '#' || !strcmp(t->name, "(binary)"))
			continue;
		const struct manifest_binary *b = manifest_binary(m, t->binary);
		if (b && manifest_has(b, t->name))
			continue;
		if (!r->unlisted++)
			r->unlisted_first = xasprintf("%s [%s]", t->full, c->name);
	}

	const struct test **idx = guest_index(c);
	size_t n = c->nguest;
	struct test_list add = { 0 };
	char *why = xasprintf("not reported (in the build's manifest, %s)", m->path);
	for (size_t i = 0; i < m->n; i++) {
		const struct manifest_binary *b = &m->v[i];
		if (!b->selected)
			continue;
		size_t lo = first_of(idx, n, b->name), hi = lo, tests = 0;
		for (; hi < n && !strcmp(idx[hi]->binary, b->name); hi++)
			tests += strcmp(idx[hi]->name, "(binary)") != 0;
		if (lo == hi) {
			char *w = xasprintf("not reported: never ran in this cell "
					    "(%zu tests in the build's manifest, %s)",
					    b->n, m->path);
			test_list_add(&add, b->name, "(binary)", 0, RAW_MISSING, w);
			free(w);
			continue;
		}
		/* Only "(binary)": it never started, printed no TAP or
		 * skipped as a whole, and that one result stands for its
		 * tests. */
		if (!tests)
			continue;
		for (size_t j = 0; j < b->n; j++)
			if (!indexed(idx + lo, hi - lo, b->name, b->tests[j]))
				test_list_add(&add, b->name, b->tests[j], (long)j + 1,
					      RAW_MISSING, why);
	}
	free(why);
	free(idx);
	add_guest_tests(c, &add);
}

void run_classify(struct run *r, struct expectations *ex,
		  const struct manifest *m)
{
	resolve_binaries(r); /* first: test names are looked up per binary */
	if (m)
		manifest_binaries(r, m);
	resolve_names(r);
	for (size_t i = 0; i < r->n; i++) {
		struct cell *c = &r->v[i];
		if (m)
			apply_manifest(r, c, m);
		for (size_t j = 0; j < c->tests.n; j++)
			classify_test(c, &c->tests.v[j], &ex->xfail, &ex->skip);
		check_boot(c, &ex->xfail);
	}
}

static void mark_list(const struct run *r, struct expect_list *l, int diff)
{
	for (size_t i = 0; i < l->n; i++) {
		struct expect_entry *e = &l->v[i];
		int hit = 0;

		for (size_t j = 0; j < r->n && !hit; j++) {
			const struct cell *c = &r->v[j];

			if (!diff)
				hit = expect_cell_matches(e->cell_glob, c->name);
			else
				hit = (!strcmp(e->fails, "either") ||
				       !strcmp(e->fails, c->kernel)) &&
				      expect_cell_matches(e->cell_glob, c->config);
		}
		e->unreachable = !hit;
	}
}

void run_mark_reachable(const struct run *r, struct expectations *ex)
{
	mark_list(r, &ex->xfail, 0);
	mark_list(r, &ex->skip, 0);
	mark_list(r, &ex->differences, 1);
}

/* The lines test_caused() matches, of every listed failure: what a
 * maintainer turns into cause= words (ACL9P_REPORT_DUMP_CAUSES=FILE). */
void run_dump_causes(const struct run *r, FILE *f)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *c = &r->v[i];
		for (size_t j = 0; j < c->tests.n; j++) {
			const struct test *t = &c->tests.v[j];
			if (t->raw != RAW_FAIL || !t->entry)
				continue;
			const char **lines = xcalloc(t->ndiag + 1, sizeof(*lines));
			size_t n = judged_lines(t, lines);
			for (size_t k = 0; k < n; k++)
				fprintf(f, "%s:%d\t%s\t%s\t%s\n", t->entry->file,
					t->entry->line, c->name, t->full, lines[k]);
			free(lines);
		}
	}
}

/* Whether a flaky: entry of xl names test in cell: such a test's failure
 * is a race that also bites without a bug (make bite does not count it). */
static int flaky_named(const struct expect_list *xl, const char *cell,
		       const char *test)
{
	for (size_t i = 0; i < xl->n; i++)
		if (xl->v[i].flaky && expect_names(&xl->v[i], cell, test))
			return 1;
	return 0;
}

static void tsv_field(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
}

int run_write_unexpected(const struct run *r, const struct expectations *ex,
			 const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# cell\ttest\tverdict\tflaky\treason\n");
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *c = &r->v[i];
		if (c->boot_failed && !c->boot_entry) {
			fprintf(f, "%s\t(boot)\tFAIL\t-\t", c->name);
			tsv_field(f, c->boot_reason ? c->boot_reason : "");
			fputc('\n', f);
		}
		for (size_t j = 0; j < c->tests.n; j++) {
			const struct test *t = &c->tests.v[j];
			if (t->verdict != V_FAIL && t->verdict != V_XPASS)
				continue;
			fprintf(f, "%s\t%s\t%s\t%s\t", c->name, t->full,
				t->verdict == V_FAIL ? "FAIL" : "XPASS",
				flaky_named(&ex->xfail, c->name, t->full) ? "flaky" : "-");
			tsv_field(f, t->uncaused ? t->uncaused : t->reason);
			fputc('\n', f);
		}
	}
	return fclose(f) ? -1 : 0;
}

void run_free(struct run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct cell *c = &r->v[i];
		free(c->name);
		free(c->kernel);
		free(c->config);
		free(c->boot_reason);
		status_free(&c->st);
		test_list_free(&c->tests);
		binaries_free(&c->bins);
		traffic_free(&c->traffic);
	}
	free(r->v);
	free(r->unlisted_first);
	memset(r, 0, sizeof(*r));
}
