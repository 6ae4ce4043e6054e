/* FNM_EXTMATCH, a GNU extension of fnmatch(3) */
#define _GNU_SOURCE
#include "cells.h"
#include "util.h"

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
}

int run_load(struct run *r, const char *results, const char *filter)
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
		if (filter && fnmatch(filter, nm, 0) != 0)
			continue;
		grow(&r->v, &r->cap, r->n, sizeof(*r->v));
		load_cell(&r->v[r->n++], results, nm);
	}
	closedir(d);
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

static void classify_test(struct cell *c, struct test *t, struct expect_list *xl)
{
	const struct expect_entry *e = NULL;
	/* expect_match() counts the entry as used: not for a skip, and not
	 * for a test that never reported (see below). */
	if (t->raw != RAW_SKIP && t->raw != RAW_MISSING)
		e = expect_match(xl, c->name, t->full);
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
		t->verdict = V_SKIP;
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

	if (!c->st.present)
		sb_add(&sb, "no status file; ");
	if (!c->has_ktap)
		sb_add(&sb, "no ktap.txt; ");
	else if (c->nguest == 0)
		sb_add(&sb, "no test results in ktap.txt; ");
	if (c->st.timeout)
		sb_add(&sb, "timeout; ");
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
		    fnmatch(e->cell_glob, c->name, FNM_EXTMATCH) == 0) {
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

void run_classify(struct run *r, struct expectations *ex)
{
	resolve_binaries(r); /* first: test names are looked up per binary */
	resolve_names(r);
	for (size_t i = 0; i < r->n; i++) {
		struct cell *c = &r->v[i];
		for (size_t j = 0; j < c->tests.n; j++)
			classify_test(c, &c->tests.v[j], &ex->xfail);
		check_boot(c, &ex->xfail);
	}
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
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}
