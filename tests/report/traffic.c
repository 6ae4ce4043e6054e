/* The 9P requests of each test: see traffic.h.
 *
 * traffic.tsv (tests/host/p9trace.c --marks writes it, scripts/boot.sh
 * puts it in the cell):
 *	# acl9p-traffic source=qemu-trace|ninep-proxy marks=K
 *	# timed TEST                       (a test that ran for a time)
 *	# error WHY                        (alone: the count failed)
 *	TEST<TAB>TYPE<TAB>COUNT
 * Any other "#" line is a comment.  A line that is none of these is
 * recorded as an error of the cell and skipped, as kunit_parser records
 * what it cannot read and goes on: the counts are information, not a
 * verdict, so nothing here fails a run. */
#include "traffic.h"
#include "cells.h"
#include "summary.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ERRORS 20    /* kept per cell; the rest only counted */
#define MAX_FIELD 512    /* a test name is at most this long */
#define TOP_TESTS 20     /* changed tests per configuration in summary.md */

typedef unsigned long long ull;

static void add_error(struct traffic *t, char *msg)
{
	if (t->nerrors < MAX_ERRORS) {
		grow(&t->errors, &t->caperrors, t->nerrors, sizeof(*t->errors));
		t->errors[t->nerrors] = msg;
	} else {
		free(msg);
	}
	t->nerrors++;
}

static int cmp_row(const void *a, const void *b)
{
	const struct traffic_row *x = a, *y = b;
	int c = strcmp(x->test, y->test);
	return c ? c : strcmp(x->type, y->type);
}

/* A name field: not empty, no blank, not over MAX_FIELD. */
static int name_ok(const char *s)
{
	size_t n = strlen(s);
	return n && n <= MAX_FIELD && !strpbrk(s, " \t");
}

static void parse_comment(struct traffic *t, const char *c)
{
	if (starts_with(c, "acl9p-traffic ")) {
		const char *s = strstr(c, "source="), *m = strstr(c, "marks=");
		if (s) {
			s += 7;
			free(t->source);
			t->source = xstrndup(s, strcspn(s, " "));
		}
		if (m)
			t->marks = strtol(m + 6, NULL, 10);
	} else if (starts_with(c, "timed ")) {
		const char *n = skip_ws(c + 6);
		if (name_ok(n)) {
			grow(&t->timed, &t->captimed, t->ntimed, sizeof(*t->timed));
			t->timed[t->ntimed++] = xstrdup(n);
		}
	} else if (starts_with(c, "error")) {
		t->failed = 1;
		add_error(t, xasprintf("no counts: %s", skip_ws(c + 5)));
	}
}

void traffic_load(struct traffic *t, const char *path, const char *shown)
{
	memset(t, 0, sizeof(*t));
	t->marks = -1;
	t->source = xstrdup("");
	FILE *f = fopen(path, "r");
	if (!f) {
		if (errno != ENOENT) {
			t->present = t->failed = 1;
			add_error(t, xasprintf("%s: %s", shown, strerror(errno)));
		}
		return;
	}
	t->present = 1;
	char *buf = NULL, *line;
	size_t cap = 0;
	int lineno = 0;
	while ((line = read_clean_line(f, &buf, &cap))) {
		lineno++;
		if (!*line)
			continue;
		if (line[0] == '#') {
			parse_comment(t, skip_ws(line + 1));
			continue;
		}
		char *a = line, *b = strchr(a, '\t'), *c = b ? strchr(b + 1, '\t') : NULL;
		char *end = NULL;
		ull n = 0;
		if (c) {
			*b++ = 0;
			*c++ = 0;
			errno = 0;
			n = strtoull(c, &end, 10);
		}
		if (!c || !name_ok(a) || !name_ok(b) || end == c || *end ||
		    errno || *c == '-' || *c == '+') {
			add_error(t, xasprintf("%s:%d: not TEST<TAB>TYPE<TAB>COUNT", shown,
					       lineno));
			continue;
		}
		grow(&t->v, &t->cap, t->n, sizeof(*t->v));
		t->v[t->n++] = (struct traffic_row){ xstrdup(a), xstrdup(b), n };
	}
	int err = ferror(f) ? errno : 0;
	free(buf);
	if (err) {
		/* a directory, an I/O error: what was read is not the file */
		t->failed = 1;
		add_error(t, xasprintf("no counts: %s: %s", shown, strerror(err)));
	}
	fclose(f);
	if (!t->n)
		return;
	/* the proxy's connections append to one file: lines add up */
	qsort(t->v, t->n, sizeof(*t->v), cmp_row);
	size_t k = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (k && !cmp_row(&t->v[k - 1], &t->v[i])) {
			t->v[k - 1].n += t->v[i].n;
			free(t->v[i].test);
			free(t->v[i].type);
		} else {
			t->v[k++] = t->v[i];
		}
	}
	t->n = k;
}

void traffic_free(struct traffic *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].test);
		free(t->v[i].type);
	}
	for (size_t i = 0; i < t->ntimed; i++)
		free(t->timed[i]);
	for (size_t i = 0; i < t->nerrors && i < MAX_ERRORS; i++)
		free(t->errors[i]);
	free(t->v);
	free(t->timed);
	free(t->errors);
	free(t->source);
	memset(t, 0, sizeof(*t));
}

/* ---- what the report makes of them */

static int has_counts(const struct cell *c)
{
	return c->traffic.present && !c->traffic.failed;
}

static int is_timed(const struct traffic *t, const char *test)
{
	for (size_t i = 0; i < t->ntimed; i++)
		if (!strcmp(t->timed[i], test))
			return 1;
	return 0;
}

/* One name and its counts on the two sides of a comparison (or one). */
struct tally {
	const char *name;
	ull a, b;
};

struct tallies {
	struct tally *v;
	size_t n, cap;
};

static struct tally *tally_of(struct tallies *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	grow(&l->v, &l->cap, l->n, sizeof(*l->v));
	l->v[l->n] = (struct tally){ name, 0, 0 };
	return &l->v[l->n++];
}

static ull diff_of(const struct tally *t)
{
	return t->a > t->b ? t->a - t->b : t->b - t->a;
}

/* biggest change first, then the biggest count, then by name */
static int cmp_change(const void *x, const void *y)
{
	const struct tally *a = x, *b = y;
	ull da = diff_of(a), db = diff_of(b);
	if (da != db)
		return da < db ? 1 : -1;
	ull ma = a->a > a->b ? a->a : a->b, mb = b->a > b->b ? b->a : b->b;
	if (ma != mb)
		return ma < mb ? 1 : -1;
	return strcmp(a->name, b->name);
}

static ull cell_total(const struct traffic *t)
{
	ull n = 0;
	for (size_t i = 0; i < t->n; i++)
		n += t->v[i].n;
	return n;
}

/* Distinct tests of t (rows are sorted by test). */
static size_t cell_tests(const struct traffic *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++)
		n += !i || strcmp(t->v[i - 1].test, t->v[i].test);
	return n;
}

/* vanilla against patched in one configuration; the timed tests of
 * either side apart */
struct ab {
	const char *config;
	const struct cell *a, *b;
	ull a_total, b_total;      /* the tests compared */
	ull a_timed, b_timed;      /* the timed ones */
	size_t ntimed, ntests;
	struct tallies types;      /* over the tests compared */
	struct tallies changed;    /* tests whose counts of a type differ */
};

/*
 * One pass over both sides' rows, which are sorted by test and type:
 * for each test its totals, whether a count of some type differs, and
 * the totals per type of the tests compared.
 */
static void ab_make(struct ab *p, const struct cell *ca, const struct cell *cb)
{
	const struct traffic *a = &ca->traffic, *b = &cb->traffic;
	memset(p, 0, sizeof(*p));
	p->config = ca->config;
	p->a = ca;
	p->b = cb;
	size_t i = 0, j = 0;
	while (i < a->n || j < b->n) {
		/* the next test of either side, and its rows on both */
		const char *test = j >= b->n || (i < a->n && strcmp(a->v[i].test, b->v[j].test) <= 0)
					   ? a->v[i].test : b->v[j].test;
		size_t i1 = i, j1 = j;
		while (i1 < a->n && !strcmp(a->v[i1].test, test))
			i1++;
		while (j1 < b->n && !strcmp(b->v[j1].test, test))
			j1++;
		struct tally t = { test, 0, 0 };
		int changed = 0;
		for (size_t x = i, y = j; x < i1 || y < j1;) {
			int c = x >= i1 ? 1 : y >= j1 ? -1 : strcmp(a->v[x].type, b->v[y].type);
			changed |= c != 0 || a->v[x].n != b->v[y].n;
			x += c <= 0;
			y += c >= 0;
		}
		for (size_t x = i; x < i1; x++)
			t.a += a->v[x].n;
		for (size_t y = j; y < j1; y++)
			t.b += b->v[y].n;
		if (is_timed(a, test) || is_timed(b, test)) {
			p->ntimed++;
			p->a_timed += t.a;
			p->b_timed += t.b;
		} else {
			p->ntests++;
			p->a_total += t.a;
			p->b_total += t.b;
			for (size_t x = i; x < i1; x++)
				tally_of(&p->types, a->v[x].type)->a += a->v[x].n;
			for (size_t y = j; y < j1; y++)
				tally_of(&p->types, b->v[y].type)->b += b->v[y].n;
			if (changed) {
				grow(&p->changed.v, &p->changed.cap, p->changed.n,
				     sizeof(*p->changed.v));
				p->changed.v[p->changed.n++] = t;
			}
		}
		i = i1;
		j = j1;
	}
	if (p->changed.n)
		qsort(p->changed.v, p->changed.n, sizeof(*p->changed.v), cmp_change);
	if (p->types.n)
		qsort(p->types.v, p->types.n, sizeof(*p->types.v), cmp_change);
}

static void ab_free(struct ab *p)
{
	free(p->types.v);
	free(p->changed.v);
}

/* The configurations whose vanilla and patched cells both have counts
 * (cells are sorted by configuration, vanilla first); *paired[i] says
 * which cells are in one. */
static struct ab *ab_all(const struct run *r, size_t *n, int **paired)
{
	struct ab *v = xcalloc(r->n + 1, sizeof(*v));
	*paired = xcalloc(r->n + 1, sizeof(**paired));
	*n = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *a = &r->v[i];
		if (strcmp(a->kernel, "vanilla") || !has_counts(a))
			continue;
		for (size_t j = 0; j < r->n; j++) {
			const struct cell *b = &r->v[j];
			if (!strcmp(b->kernel, "patched") && has_counts(b) &&
			    !strcmp(a->config, b->config)) {
				ab_make(&v[(*n)++], a, b);
				(*paired)[i] = (*paired)[j] = 1;
				break;
			}
		}
	}
	return v;
}

static char *signed_diff(ull a, ull b)
{
	return b >= a ? xasprintf("+%llu", b - a) : xasprintf("-%llu", a - b);
}

static char *percent(ull a, ull b)
{
	if (!a)
		return xstrdup(b ? "new" : "0%");
	double d = ((double)b - (double)a) * 100.0 / (double)a;
	return xasprintf("%+.1f%%", d);
}

static size_t cells_with(const struct run *r, size_t *nfailed)
{
	size_t n = 0;
	*nfailed = 0;
	for (size_t i = 0; i < r->n; i++) {
		n += r->v[i].traffic.present;
		*nfailed += r->v[i].traffic.failed;
	}
	return n;
}

#define COLS 100

/* "by type: walk -12, getattr +3 (+2 more)" in one line of COLS. */
static void types_line(FILE *f, const struct ab *p)
{
	struct strbuf sb = { 0 };
	size_t shown = 0, changed = 0;
	sb_add(&sb, "    by type:");
	for (size_t i = 0; i < p->types.n; i++)
		changed += p->types.v[i].a != p->types.v[i].b;
	for (size_t i = 0; i < p->types.n; i++) {
		const struct tally *t = &p->types.v[i];
		if (t->a == t->b)
			continue;
		char *d = signed_diff(t->a, t->b);
		char *item = xasprintf("%s %s %s", shown ? "," : "", t->name, d);
		free(d);
		/* room for this and, unless it is the last, " (+NN more)" */
		size_t room = COLS - (shown + 1 < changed ? 12 : 0);
		if (sb.len + strlen(item) > room) {
			free(item);
			break;
		}
		sb_add(&sb, item);
		free(item);
		shown++;
	}
	if (!changed)
		sb_add(&sb, " no change");
	else if (shown < changed)
		sb_addf(&sb, " (+%zu more)", changed - shown);
	char *s = sb_take(&sb);
	fprintf(f, "%s\n", s);
	free(s);
}

static void pair_text(FILE *f, const struct ab *p)
{
	char *pc = percent(p->a_total, p->b_total);
	char *m = xasprintf("%s: %llu -> %llu (%s), %zu/%zu tests changed",
			    p->config, p->a_total, p->b_total, pc, p->changed.n,
			    p->ntests);
	if (p->ntimed) {
		char *t = xasprintf("%s, %zu timed apart", m, p->ntimed);
		free(m);
		m = t;
	}
	summary_wrap(f, "  ", "      ", m, 2);
	free(m);
	free(pc);
	types_line(f, p);
	if (p->changed.n) {
		const struct tally *t = &p->changed.v[0];
		char *tail = xasprintf(" %llu -> %llu", t->a, t->b);
		size_t w = COLS - 10 - strlen(tail);
		char *name = summary_fit(t->name, w);
		fprintf(f, "    most: %s%s\n", name, tail);
		free(name);
		free(tail);
	}
}

void traffic_text(FILE *f, const struct run *r)
{
	size_t nfailed, ncells = cells_with(r, &nfailed), npairs;
	if (!ncells)
		return;
	int *paired;
	struct ab *pairs = ab_all(r, &npairs, &paired);
	fprintf(f, "\n9P requests per test (traffic.tsv, %zu cells): vanilla -> patched, "
		"timed tests apart\n", ncells);
	for (size_t i = 0; i < npairs; i++)
		pair_text(f, &pairs[i]);
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *c = &r->v[i];
		const struct traffic *t = &c->traffic;
		if (!t->present || paired[i])
			continue;
		char *m;
		if (t->failed)
			m = xasprintf("%s: %s", c->name, t->nerrors ? t->errors[0] : "no counts");
		else
			m = xasprintf("%s: %llu requests in %zu tests%s", c->name,
				      cell_total(t), cell_tests(t),
				      t->ntimed ? " (timed ones included)" : "");
		summary_wrap(f, "  ", "      ", m, 2);
		free(m);
	}
	/* lines not understood: recorded, shown, never a failure */
	for (size_t i = 0; i < r->n; i++) {
		const struct traffic *t = &r->v[i].traffic;
		if (t->failed || !t->nerrors)
			continue;
		char *m = xasprintf("%s: %zu line%s not understood (first: %s)", r->v[i].name,
				    t->nerrors, t->nerrors == 1 ? "" : "s", t->errors[0]);
		summary_wrap(f, "  ", "      ", m, 2);
		free(m);
	}
	for (size_t i = 0; i < npairs; i++)
		ab_free(&pairs[i]);
	free(pairs);
	free(paired);
}

/* ---- summary.md */

/* The request types of every cell, the most requested first. */
static struct tallies all_types(const struct run *r)
{
	struct tallies l = { 0 };
	for (size_t i = 0; i < r->n; i++) {
		const struct traffic *t = &r->v[i].traffic;
		for (size_t j = 0; has_counts(&r->v[i]) && j < t->n; j++)
			tally_of(&l, t->v[j].type)->a += t->v[j].n;
	}
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), cmp_change);
	return l;
}

static ull type_total(const struct traffic *t, const char *type)
{
	ull n = 0;
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].type, type))
			n += t->v[i].n;
	return n;
}

/* The binary of a test: its name up to the first dot. */
static char *binary_of(const char *test)
{
	return xstrndup(test, strcspn(test, "."));
}

static void cells_markdown(FILE *f, const struct run *r)
{
	struct tallies ty = all_types(r);
	fprintf(f, "\n### Per cell and type\n\n| cell | source | requests | tests | timed |");
	for (size_t i = 0; i < ty.n; i++) {
		fputc(' ', f);
		summary_md(f, ty.v[i].name);
		fprintf(f, " |");
	}
	fprintf(f, "\n|---|---|---:|---:|---:|");
	for (size_t i = 0; i < ty.n; i++)
		fprintf(f, "---:|");
	fprintf(f, "\n");
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *c = &r->v[i];
		const struct traffic *t = &c->traffic;
		if (!t->present)
			continue;
		fprintf(f, "| `");
		summary_md(f, c->name);
		fprintf(f, "` | ");
		if (t->failed) {
			summary_md(f, t->nerrors ? t->errors[0] : "no counts");
			fprintf(f, " | | | |");
			for (size_t j = 0; j < ty.n; j++)
				fprintf(f, " |");
			fprintf(f, "\n");
			continue;
		}
		summary_md(f, *t->source ? t->source : "?");
		fprintf(f, " | %llu | %zu | %zu |", cell_total(t), cell_tests(t), t->ntimed);
		for (size_t j = 0; j < ty.n; j++)
			fprintf(f, " %llu |", type_total(t, ty.v[j].name));
		fprintf(f, "\n");
	}
	free(ty.v);
}

static void binaries_markdown(FILE *f, const struct run *r)
{
	struct tallies bins = { 0 };
	char **owned = NULL;
	size_t nowned = 0, capowned = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct traffic *t = &r->v[i].traffic;
		for (size_t j = 0; has_counts(&r->v[i]) && j < t->n; j++) {
			char *b = binary_of(t->v[j].test);
			size_t k;
			for (k = 0; k < bins.n && strcmp(bins.v[k].name, b); k++)
				;
			if (k == bins.n) {
				grow(&owned, &capowned, nowned, sizeof(*owned));
				owned[nowned++] = b;
				tally_of(&bins, b);
			} else {
				free(b);
			}
		}
	}
	if (!bins.n) {
		free(owned);
		return;
	}
	/* by name: the binaries' order of the times table */
	for (size_t i = 1; i < bins.n; i++)
		for (size_t j = i; j > 0 && strcmp(bins.v[j - 1].name, bins.v[j].name) > 0; j--) {
			struct tally x = bins.v[j];
			bins.v[j] = bins.v[j - 1];
			bins.v[j - 1] = x;
		}
	fprintf(f, "\n### Per binary\n\nRequests of each binary's tests (timed ones "
		"included, marked *).\n\n| binary |");
	for (size_t i = 0; i < r->n; i++)
		if (has_counts(&r->v[i])) {
			fprintf(f, " `");
			summary_md(f, r->v[i].name);
			fprintf(f, "` |");
		}
	fprintf(f, "\n|---|");
	for (size_t i = 0; i < r->n; i++)
		if (has_counts(&r->v[i]))
			fprintf(f, "---:|");
	fprintf(f, "\n");
	for (size_t k = 0; k < bins.n; k++) {
		fprintf(f, "| `");
		summary_md(f, bins.v[k].name);
		fprintf(f, "` |");
		for (size_t i = 0; i < r->n; i++) {
			const struct traffic *t = &r->v[i].traffic;
			if (!has_counts(&r->v[i]))
				continue;
			ull n = 0;
			int timed = 0;
			for (size_t j = 0; j < t->n; j++) {
				const char *nm = t->v[j].test;
				size_t l = strlen(bins.v[k].name);
				if (!strncmp(nm, bins.v[k].name, l) &&
				    (nm[l] == '.' || !nm[l])) {
					n += t->v[j].n;
					timed |= is_timed(t, nm);
				}
			}
			fprintf(f, " %llu%s |", n, timed ? "*" : "");
		}
		fprintf(f, "\n");
	}
	free(bins.v);
	for (size_t i = 0; i < nowned; i++)
		free(owned[i]);
	free(owned);
}

static void pair_markdown(FILE *f, const struct ab *p)
{
	char *d = signed_diff(p->a_total, p->b_total), *pc = percent(p->a_total, p->b_total);
	fprintf(f, "\n#### `");
	summary_md(f, p->config);
	fprintf(f, "`\n\nvanilla %llu, patched %llu requests (%s, %s) in %zu tests; "
		"%zu changed", p->a_total, p->b_total, d, pc, p->ntests, p->changed.n);
	free(d);
	free(pc);
	if (p->ntimed)
		fprintf(f, "; %zu timed tests apart: vanilla %llu, patched %llu", p->ntimed,
			p->a_timed, p->b_timed);
	fprintf(f, ".\n\n| type | vanilla | patched | change |\n|---|---:|---:|---:|\n");
	for (size_t i = 0; i < p->types.n; i++) {
		const struct tally *t = &p->types.v[i];
		char *x = signed_diff(t->a, t->b);
		fprintf(f, "| ");
		summary_md(f, t->name);
		fprintf(f, " | %llu | %llu | %s |\n", t->a, t->b, t->a == t->b ? "0" : x);
		free(x);
	}
	if (!p->changed.n)
		return;
	fprintf(f, "\n| test | vanilla | patched | change |\n|---|---:|---:|---:|\n");
	for (size_t i = 0; i < p->changed.n && i < TOP_TESTS; i++) {
		const struct tally *t = &p->changed.v[i];
		char *x = signed_diff(t->a, t->b);
		fprintf(f, "| `");
		summary_md(f, t->name);
		fprintf(f, "` | %llu | %llu | %s |\n", t->a, t->b, t->a == t->b ? "0" : x);
		free(x);
	}
	if (p->changed.n > TOP_TESTS)
		fprintf(f, "\nand %zu more changed tests.\n", p->changed.n - TOP_TESTS);
}

void traffic_markdown(FILE *f, const struct run *r)
{
	size_t nfailed, ncells = cells_with(r, &nfailed), npairs;
	if (!ncells)
		return;
	int *paired;
	struct ab *pairs = ab_all(r, &npairs, &paired);
	fprintf(f, "\n## 9P requests per test\n\n"
		"Counted in %zu cells (`traffic.tsv`: QEMU's trace of its own server, "
		"ninep-proxy's counts for diod%s).  A test's requests are those from "
		"its marker to the next test's; `%s` is what came before the first "
		"(the mounts; with ninep-proxy also the connections no marker "
		"reached).  Timed tests run a race window, not a count, and are "
		"compared apart.\n", ncells,
		nfailed ? "; some could not be counted: the first table says why" : "",
		TRAFFIC_UNMARKED);
	cells_markdown(f, r);
	binaries_markdown(f, r);
	fprintf(f, "\n### vanilla against patched\n");
	if (!npairs)
		fprintf(f, "\nNo configuration has counts of both kernels.\n");
	for (size_t i = 0; i < npairs; i++)
		pair_markdown(f, &pairs[i]);
	int any = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct traffic *t = &r->v[i].traffic;
		if (!t->nerrors)
			continue;
		if (!any++)
			fprintf(f, "\n### Not understood\n\n");
		fprintf(f, "- `%s`: %zu: ", r->v[i].name, t->nerrors);
		for (size_t j = 0; j < t->nerrors && j < MAX_ERRORS; j++) {
			fprintf(f, "%s`", j ? ", " : "");
			summary_md(f, t->errors[j]);
			fprintf(f, "`");
		}
		fprintf(f, "\n");
	}
	for (size_t i = 0; i < npairs; i++)
		ab_free(&pairs[i]);
	free(pairs);
	free(paired);
}
