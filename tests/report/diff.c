#include "diff.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

const char *outcome_str(enum outcome o)
{
	switch (o) {
	case O_PASS: return "pass";
	case O_FAIL: return "fail";
	case O_SKIP: return "skip";
	default: return "absent";
	}
}

static enum outcome outcome_of(const struct test *t)
{
	switch (t->raw) {
	case RAW_PASS:
	case RAW_XPASS:
		return O_PASS;
	case RAW_SKIP:
		return O_SKIP;
	default:
		return O_FAIL;
	}
}

static int cmp_test(const void *a, const void *b)
{
	const struct test *x = *(const struct test *const *)a;
	const struct test *y = *(const struct test *const *)b;
	return strcmp(x->full, y->full);
}

static const struct test **sorted(const struct cell *c)
{
	const struct test **v = xcalloc(c->tests.n + 1, sizeof(*v));
	for (size_t i = 0; i < c->tests.n; i++)
		v[i] = &c->tests.v[i];
	qsort(v, c->tests.n, sizeof(*v), cmp_test);
	return v;
}

/* pass, then skip, then a failure or a test the cell never reported */
static int badness(enum outcome o)
{
	return o == O_PASS ? 0 : o == O_SKIP ? 1 : 2;
}

/*
 * Which kernel "fails": the one whose outcome is worse, a skip where the
 * other passed, a failure (or a test its cell never reported) where the
 * other passed or skipped; NULL for a failure against a missing test.
 * A test that one kernel skips for a feature it lacks and the other
 * fails is the other's failure.
 */
static const char *failing(const struct difference *x)
{
	int a = badness(x->a), b = badness(x->b);

	if (a > b)
		return x->ka;
	if (b > a)
		return x->kb;
	return NULL;
}

static const struct test *find(const struct test *const *v, size_t n,
			       const char *full)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(v[mid]->full, full);

		if (!c)
			return v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct side {
	const struct cell *c;
	const struct test *const *v; /* sorted */
	size_t n;
};

/* The guest test whose bytes a host check looked at:
 * "hostcheck.host.BINARY.TEST/PATH.XATTR" -> "BINARY.TEST" (owned), or
 * NULL for another name. */
static char *hostcheck_guest(const char *full)
{
	static const char pfx[] = "hostcheck.host.";
	const char *slash;

	if (strncmp(full, pfx, sizeof(pfx) - 1))
		return NULL;
	full += sizeof(pfx) - 1;
	slash = strchr(full, '/');
	return slash ? xstrndup(full, (size_t)(slash - full)) : NULL;
}

/*
 * A host check one kernel never made: its guest test stopped before it
 * asked for one.  That is explained by the guest test's expected failure
 * in that kernel's cell (whose own difference, if the other kernel
 * passed it, is judged on its own), provided the other kernel's check
 * passed, skipped or failed as its own lists expect.
 */
static const struct expect_entry *
hostcheck_never_made(const struct side *absent, const struct test *present,
		     const char *test)
{
	char *guest = hostcheck_guest(test);
	const struct test *g;
	const struct expect_entry *e = NULL;

	if (!guest)
		return NULL;
	g = find(absent->v, absent->n, guest);
	if (g && g->verdict == V_XFAIL && g->entry &&
	    present->verdict != V_FAIL)
		e = g->entry;
	free(guest);
	return e;
}

/*
 * Across sources (6.1 against 6.12), most differences are the two
 * kernels' different designs, each already an expected failure or skip
 * of one kernel, with its mechanism and cause, in that kernel's lists.
 * Such a difference is explained by that entry, provided the entry does
 * not also name the other kernel's cell (then both were expected to
 * fail, and one passing is news).  Between kernels of one source every
 * difference is a patch's doing and needs its differences entry.
 */
static const struct expect_entry *explained_across(const struct cell *oc,
						   const struct test *ft)
{
	if (ft && ft->entry &&
	    (ft->verdict == V_XFAIL || ft->verdict == V_SKIP) &&
	    !expect_names(ft->entry, oc->name, ft->full))
		return ft->entry;
	return NULL;
}

static void add(struct diff_result *d, struct expectations *ex,
		const struct side *sa, const struct side *sb,
		const struct test *ta, const struct test *tb,
		const char *test, enum outcome a, enum outcome b)
{
	grow(&d->v, &d->cap, d->n, sizeof(*d->v));
	struct difference *x = &d->v[d->n++];
	struct diff_compare *k = &d->cmp[d->ncmp - 1];
	const char *f;

	x->config = sa->c->config;
	x->test = test;
	x->ka = sa->c->kernel;
	x->kb = sb->c->kernel;
	x->a = a;
	x->b = b;
	f = failing(x);
	x->entry = expect_match_diff(&ex->differences, sa->c->config, test, f);
	if (!x->entry && !ta)
		x->entry = hostcheck_never_made(sa, tb, test);
	else if (!x->entry && !tb)
		x->entry = hostcheck_never_made(sb, ta, test);
	if (!x->entry && k->across && f == x->ka)
		x->entry = explained_across(sb->c, ta);
	else if (!x->entry && k->across && f == x->kb)
		x->entry = explained_across(sa->c, tb);
	k->n++;
	if (!x->entry) {
		d->unlisted++;
		k->unlisted++;
	}
}

static void diff_pair(const struct cell *va, const struct cell *pa,
		      struct expectations *ex, struct diff_result *d)
{
	const struct test **x = sorted(va), **y = sorted(pa);
	size_t i = 0, j = 0, nx = va->tests.n, ny = pa->tests.n;
	struct side sa = { va, x, nx }, sb = { pa, y, ny };
	/* Merge walk over two sorted lists; a repeated name in one cell
	 * (rerun binary) is compared on its first occurrence only. */
	while (i < nx || j < ny) {
		int c = i >= nx ? 1 : j >= ny ? -1 : strcmp(x[i]->full, y[j]->full);
		if (c < 0) {
			add(d, ex, &sa, &sb, x[i], NULL, x[i]->full,
			    outcome_of(x[i]), O_ABSENT);
		} else if (c > 0) {
			add(d, ex, &sa, &sb, NULL, y[j], y[j]->full, O_ABSENT,
			    outcome_of(y[j]));
		} else {
			enum outcome a = outcome_of(x[i]), b = outcome_of(y[j]);
			if (a != b)
				add(d, ex, &sa, &sb, x[i], y[j], x[i]->full,
				    a, b);
		}
		const char *nm = c <= 0 ? x[i]->full : y[j]->full;
		if (c <= 0)
			while (i < nx && !strcmp(x[i]->full, nm))
				i++;
		if (c >= 0)
			while (j < ny && !strcmp(y[j]->full, nm))
				j++;
	}
	free(x);
	free(y);
}

static void diff_compare(const struct run *r, struct expectations *ex,
			 const char *a, const char *b, bool across,
			 struct diff_result *d)
{
	struct diff_compare *k = &d->cmp[d->ncmp++];

	k->a = a;
	k->b = b;
	k->across = across;
	k->first = d->n;
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *va = &r->v[i];
		/* A cell that never ran has nothing to compare: every test
		 * of the other would differ, and its one failure says it. */
		if (strcmp(va->kernel, a) || va->never_ran)
			continue;
		for (size_t j = 0; j < r->n; j++) {
			const struct cell *pa = &r->v[j];
			if (!strcmp(pa->kernel, b) && !pa->never_ran &&
			    !strcmp(pa->config, va->config)) {
				k->pairs++;
				d->pairs++;
				diff_pair(va, pa, ex, d);
				break;
			}
		}
	}
}

void diff_run(const struct run *r, struct expectations *ex,
	      char *const *compares, size_t ncompares, struct diff_result *d)
{
	memset(d, 0, sizeof(*d));
	d->cmp = xcalloc(ncompares ? ncompares : 1, sizeof(*d->cmp));
	if (!ncompares) {
		diff_compare(r, ex, "vanilla", "patched", false, d);
		return;
	}
	for (size_t i = 0; i < ncompares; i++) {
		char *sep = strchr(compares[i], ':');
		char *third;

		/* main() checked the form: "A:B" or "A:B:across" */
		*sep = 0;
		third = strchr(sep + 1, ':');
		if (third)
			*third = 0;
		diff_compare(r, ex, compares[i], sep + 1, third != NULL, d);
	}
}

void diff_free(struct diff_result *d)
{
	free(d->cmp);
	free(d->v);
	memset(d, 0, sizeof(*d));
}
