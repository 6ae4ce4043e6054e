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

static void add(struct diff_result *d, struct expectations *ex,
		const struct cell *c, const char *kb, const char *test,
		enum outcome a, enum outcome b)
{
	grow(&d->v, &d->cap, d->n, sizeof(*d->v));
	struct difference *x = &d->v[d->n++];
	struct diff_compare *k = &d->cmp[d->ncmp - 1];
	x->config = c->config;
	x->test = test;
	x->ka = c->kernel;
	x->kb = kb;
	x->a = a;
	x->b = b;
	x->entry = expect_match_diff(&ex->differences, c->config, test,
				     failing(x));
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
	/* Merge walk over two sorted lists; a repeated name in one cell
	 * (rerun binary) is compared on its first occurrence only. */
	while (i < nx || j < ny) {
		int c = i >= nx ? 1 : j >= ny ? -1 : strcmp(x[i]->full, y[j]->full);
		if (c < 0) {
			add(d, ex, va, pa->kernel, x[i]->full, outcome_of(x[i]),
			    O_ABSENT);
		} else if (c > 0) {
			add(d, ex, va, pa->kernel, y[j]->full, O_ABSENT,
			    outcome_of(y[j]));
		} else {
			enum outcome a = outcome_of(x[i]), b = outcome_of(y[j]);
			if (a != b)
				add(d, ex, va, pa->kernel, x[i]->full, a, b);
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
			 const char *a, const char *b, struct diff_result *d)
{
	struct diff_compare *k = &d->cmp[d->ncmp++];

	k->a = a;
	k->b = b;
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
		diff_compare(r, ex, "vanilla", "patched", d);
		return;
	}
	for (size_t i = 0; i < ncompares; i++) {
		char *sep = strchr(compares[i], ':');

		/* main() checked the form: "A:B" */
		*sep = 0;
		diff_compare(r, ex, compares[i], sep + 1, d);
	}
}

void diff_free(struct diff_result *d)
{
	free(d->cmp);
	free(d->v);
	memset(d, 0, sizeof(*d));
}
