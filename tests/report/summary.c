#include "summary.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

struct totals totals_of(const struct run *r, const struct diff_result *d)
{
	struct totals t = { 0 };
	for (size_t i = 0; i < r->n; i++) {
		const struct counts *c = &r->v[i].c;
		t.passed += c->pass;
		t.skipped += c->skip;
		t.xfail += c->xfail;
		/* c->fail already holds the cell's boot failure. */
		t.failed += c->fail + c->xpass;
	}
	t.failed += d->unlisted;
	return t;
}

static char *wall(const struct cell *c)
{
	if (c->st.wall_ms < 0)
		return xstrdup("-");
	return xasprintf("%.1f", (double)c->st.wall_ms / 1000.0);
}

/* Notes column: why a cell is red beyond its test counts. */
static char *notes(const struct cell *c)
{
	if (c->boot_failed)
		return xasprintf("%s%s", c->boot_entry ? "boot (expected): " : "BOOT: ",
				 c->boot_reason);
	return xstrdup(c->st.reason);
}

/* One binary's wall time in one cell (its "# time_ms" line). */
struct timing {
	const char *binary;
	long ms;
	const struct cell *cell;
};

static int cmp_timing(const void *a, const void *b)
{
	const struct timing *x = a, *y = b;
	int c = strcmp(x->binary, y->binary);
	if (c)
		return c;
	if (x->ms != y->ms)
		return (x->ms > y->ms) - (x->ms < y->ms);
	return strcmp(x->cell->name, y->cell->name);
}

/* Every recorded time, sorted by binary, then time: a binary's entries
 * are adjacent, its fastest first and its slowest last. */
static struct timing *timings(const struct run *r, size_t *n)
{
	size_t k = 0;
	for (size_t i = 0; i < r->n; i++)
		k += r->v[i].bins.n;
	struct timing *v = xcalloc(k + 1, sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct binaries *b = &r->v[i].bins;
		for (size_t j = 0; j < b->n; j++)
			if (b->v[j].time_ms >= 0)
				v[(*n)++] = (struct timing){ b->v[j].name,
							     b->v[j].time_ms,
							     &r->v[i] };
	}
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_timing);
	return v;
}

struct time_row {
	const char *binary;
	long median, min, max;
	const struct cell *slowest;
};

/* The row of the binary whose entries start at v[i]; returns the index
 * of the next binary's. */
static size_t time_row(const struct timing *v, size_t n, size_t i,
		       struct time_row *row)
{
	size_t j = i;
	while (j < n && !strcmp(v[j].binary, v[i].binary))
		j++;
	size_t k = j - i, mid = i + k / 2;
	row->binary = v[i].binary;
	row->min = v[i].ms;
	row->max = v[j - 1].ms;
	row->slowest = v[j - 1].cell;
	row->median = k % 2 ? v[mid].ms : (v[mid - 1].ms + v[mid].ms) / 2;
	return j;
}

/* s cut to w columns, the cut shown by "...". */
static char *fit(const char *s, size_t w)
{
	size_t n = strlen(s);
	return n <= w || w < 4 ? xstrdup(s) : xasprintf("%.*s...", (int)(w - 3), s);
}

#define TERM_COLS 100 /* what the time table must fit in */

static void times_text(FILE *f, const struct run *r)
{
	size_t n;
	struct timing *v = timings(r, &n);
	if (!n) {
		fprintf(f, "\nbinary times: none recorded\n");
		free(v);
		return;
	}
	size_t bw = strlen("binary");
	for (size_t i = 0; i < n; i++)
		if (strlen(v[i].binary) > bw)
			bw = strlen(v[i].binary);
	bw = bw > 30 ? 30 : bw;
	/* 2 + name + 3 x 9 + 2 columns, then the cell in what is left */
	size_t cw = TERM_COLS - 31 - bw;
	fprintf(f, "\nbinary times (ms, across the cells that ran them):\n");
	fprintf(f, "  %-*s %8s %8s %8s  %s\n", (int)bw, "binary", "median", "min",
		"max", "slowest cell");
	for (size_t i = 0; i < n;) {
		struct time_row row;
		i = time_row(v, n, i, &row);
		char *b = fit(row.binary, bw), *c = fit(row.slowest->name, cw);
		fprintf(f, "  %-*s %8ld %8ld %8ld  %s\n", (int)bw, b, row.median,
			row.min, row.max, c);
		free(b);
		free(c);
	}
	free(v);
}

static void md(FILE *f, const char *s);

static void times_markdown(FILE *f, const struct run *r)
{
	size_t n;
	struct timing *v = timings(r, &n);
	if (!n) {
		fprintf(f, "\nNo binary reported a time.\n");
		free(v);
		return;
	}
	fprintf(f, "\n| binary | median (ms) | min (ms) | max (ms) | slowest cell |\n"
		"|---|---:|---:|---:|---|\n");
	for (size_t i = 0; i < n;) {
		struct time_row row;
		i = time_row(v, n, i, &row);
		fprintf(f, "| `");
		md(f, row.binary);
		fprintf(f, "` | %ld | %ld | %ld | `%s` |\n", row.median, row.min,
			row.max, row.slowest->name);
	}
	free(v);
}

static const char *verdict_word(enum verdict v)
{
	return v == V_XPASS ? "XPASS" : "FAIL";
}

static int unexpected(const struct test *t)
{
	return t->verdict == V_FAIL || t->verdict == V_XPASS;
}

static size_t count_unexpected(const struct run *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *c = &r->v[i];
		n += c->boot_failed && !c->boot_entry;
		for (size_t j = 0; j < c->tests.n; j++)
			n += unexpected(&c->tests.v[j]);
	}
	return n;
}

static void unused_entries(FILE *f, const struct expect_list *l, int md)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct expect_entry *e = &l->v[i];
		if (!e->used)
			fprintf(f, md ? "- `%s:%d` %s %s\n" : "  %s:%d: %s %s\n",
				e->file, e->line, e->cell_glob, e->test_glob);
	}
}

static size_t count_unused(const struct expectations *ex)
{
	size_t n = 0;
	for (size_t i = 0; i < ex->xfail.n; i++)
		n += !ex->xfail.v[i].used;
	for (size_t i = 0; i < ex->differences.n; i++)
		n += !ex->differences.v[i].used;
	return n;
}

void summary_text(FILE *f, const struct run *r, const struct diff_result *d,
		  const struct expectations *ex, const char *expected_dir,
		  int filtered)
{
	int w = 4;
	for (size_t i = 0; i < r->n; i++) {
		int l = (int)strlen(r->v[i].name);
		w = l > w ? l : w;
	}
	fprintf(f, "%-*s %5s %5s %5s %5s %5s %8s  %s\n", w, "cell", "pass",
		"fail", "skip", "xfail", "xpass", "time(s)", "notes");
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *c = &r->v[i];
		char *t = wall(c), *n = notes(c);
		fprintf(f, "%-*s %5u %5u %5u %5u %5u %8s  %s\n", w, c->name,
			c->c.pass, c->c.fail, c->c.skip, c->c.xfail, c->c.xpass,
			t, n);
		free(t);
		free(n);
	}
	times_text(f, r);

	size_t nu = count_unexpected(r);
	if (nu)
		fprintf(f, "\nunexpected failures: %zu\n", nu);
	else
		fprintf(f, "\nunexpected failures: none\n");
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *c = &r->v[i];
		if (c->boot_failed && !c->boot_entry) {
			fprintf(f, "  BOOT   %s.boot\n", c->name);
			fprintf(f, "         reason: %s\n", c->boot_reason);
			if (*c->st.console)
				fprintf(f, "         console: %s\n", c->st.console);
		}
		for (size_t j = 0; j < c->tests.n; j++) {
			const struct test *t = &c->tests.v[j];
			if (!unexpected(t))
				continue;
			fprintf(f, "  %-5s  %s  [%s]\n", verdict_word(t->verdict),
				t->full, c->name);
			if (t->verdict == V_XPASS && t->entry)
				fprintf(f, "         passed but listed at %s:%d: %s\n",
					t->entry->file, t->entry->line,
					t->entry->reason);
			else if (t->verdict == V_XPASS)
				fprintf(f, "         the harness reported XPASS%s%s\n",
					*t->reason ? ": " : "", t->reason);
			else if (*t->reason)
				fprintf(f, "         reason: %s\n", t->reason);
			for (size_t k = 0; k < t->ndiag; k++)
				fprintf(f, "         | %s\n", t->diag[k]);
			if (t->ndiag_total > t->ndiag)
				fprintf(f, "         | (%zu more diagnostic lines)\n",
					t->ndiag_total - t->ndiag);
		}
	}

	if (d->pairs == 0) {
		fprintf(f, "\nA/B differences: no configuration has both a vanilla and a patched cell\n");
	} else {
		fprintf(f, "\nA/B differences vanilla vs patched: %zu in %zu configurations, %zu unlisted\n",
			d->n, d->pairs, d->unlisted);
		if (d->n) {
			int cw = 13, tw = 4;
			for (size_t i = 0; i < d->n; i++) {
				int l = (int)strlen(d->v[i].config);
				cw = l > cw ? l : cw;
				l = (int)strlen(d->v[i].test);
				tw = l > tw ? l : tw;
			}
			fprintf(f, "  %-*s  %-*s  %-7s  %-7s  %s\n", cw,
				"configuration", tw, "test", "vanilla", "patched",
				"status");
			for (size_t i = 0; i < d->n; i++) {
				const struct difference *x = &d->v[i];
				fprintf(f, "  %-*s  %-*s  %-7s  %-7s  ", cw, x->config,
					tw, x->test, outcome_str(x->a),
					outcome_str(x->b));
				if (x->entry)
					fprintf(f, "expected (%s:%d): %s\n",
						x->entry->file, x->entry->line,
						x->entry->reason);
				else
					fprintf(f, "UNLISTED\n");
			}
		}
	}

	/* With a filter most entries match nothing by design. */
	if (!filtered && count_unused(ex)) {
		fprintf(f, "\nexpected-list entries that matched nothing (stale?):\n");
		unused_entries(f, &ex->xfail, 0);
		unused_entries(f, &ex->differences, 0);
	}

	struct totals t = totals_of(r, d);
	fprintf(f, "\nexpected failures: %lu (%s)\n", t.xfail, expected_dir);
	fprintf(f, "%lu passed, %lu failed, %lu skipped\n", t.passed, t.failed,
		t.skipped);
}

/* Table-cell safe: no column breaks, no HTML, no code-span breaks. */
static void md(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '|': fputs("\\|", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '`': fputs("'", f); break;
		case '\t': fputc(' ', f); break;
		default:
			fputc((unsigned char)*s < 0x20 ? '?' : *s, f);
		}
	}
}

int summary_markdown(const char *path, const struct run *r,
		     const struct diff_result *d, const struct expectations *ex,
		     const char *expected_dir)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	struct totals t = totals_of(r, d);
	fprintf(f, "# acl9p test results\n\n**%lu passed, %lu failed, %lu skipped** "
		"(expected failures: %lu, lists in `", t.passed, t.failed,
		t.skipped, t.xfail);
	md(f, expected_dir);
	fprintf(f, "`)\n\n## Matrix\n\n"
		"| cell | pass | fail | skip | xfail | xpass | time (s) | notes |\n"
		"|---|---:|---:|---:|---:|---:|---:|---|\n");
	long total_ms = 0;
	const struct cell *slowest = NULL;
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *c = &r->v[i];
		char *w = wall(c), *n = notes(c);
		fprintf(f, "| `");
		md(f, c->name);
		fprintf(f, "` | %u | %u | %u | %u | %u | %s | ", c->c.pass,
			c->c.fail, c->c.skip, c->c.xfail, c->c.xpass, w);
		md(f, n);
		fprintf(f, " |\n");
		free(w);
		free(n);
		if (c->st.wall_ms > 0)
			total_ms += c->st.wall_ms;
		if (!slowest || c->st.wall_ms > slowest->st.wall_ms)
			slowest = c;
	}

	fprintf(f, "\n## Times\n\nTotal guest wall time %.1f s over %zu cells",
		(double)total_ms / 1000.0, r->n);
	if (slowest && slowest->st.wall_ms >= 0)
		fprintf(f, "; slowest `%s` (%.1f s)", slowest->name,
			(double)slowest->st.wall_ms / 1000.0);
	fprintf(f, ".\n");
	times_markdown(f, r);

	fprintf(f, "\n## Unexpected failures\n\n");
	if (!count_unexpected(r))
		fprintf(f, "None.\n");
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *c = &r->v[i];
		if (c->boot_failed && !c->boot_entry) {
			fprintf(f, "- **BOOT** `%s.boot`: ", c->name);
			md(f, c->boot_reason);
			if (*c->st.console) {
				fprintf(f, " (console: `");
				md(f, c->st.console);
				fprintf(f, "`)");
			}
			fprintf(f, "\n");
		}
		for (size_t j = 0; j < c->tests.n; j++) {
			const struct test *x = &c->tests.v[j];
			if (!unexpected(x))
				continue;
			fprintf(f, "- **%s** `%s` in `%s`", verdict_word(x->verdict),
				x->full, c->name);
			if (x->verdict == V_XPASS && x->entry) {
				fprintf(f, ": passed but listed at `%s:%d`: ",
					x->entry->file, x->entry->line);
				md(f, x->entry->reason);
			} else if (*x->reason) {
				fprintf(f, ": ");
				md(f, x->reason);
			}
			fprintf(f, "\n");
			if (x->ndiag) {
				/* Indented code block: diagnostics verbatim, no
				 * escaping needed. */
				fprintf(f, "\n");
				for (size_t k = 0; k < x->ndiag; k++)
					fprintf(f, "      %s\n", x->diag[k]);
				fprintf(f, "\n");
			}
		}
	}

	fprintf(f, "\n## A/B differences (vanilla vs patched)\n\n");
	if (!d->pairs)
		fprintf(f, "No configuration has both a vanilla and a patched cell.\n");
	else if (!d->n)
		fprintf(f, "None in %zu configurations.\n", d->pairs);
	else {
		fprintf(f, "%zu differences in %zu configurations, %zu unlisted.\n\n"
			"| configuration | test | vanilla | patched | status |\n"
			"|---|---|---|---|---|\n", d->n, d->pairs, d->unlisted);
		for (size_t i = 0; i < d->n; i++) {
			const struct difference *x = &d->v[i];
			fprintf(f, "| `%s` | `%s` | %s | %s | ", x->config, x->test,
				outcome_str(x->a), outcome_str(x->b));
			if (x->entry) {
				fprintf(f, "expected: ");
				md(f, x->entry->reason);
			} else {
				fprintf(f, "**UNLISTED**");
			}
			fprintf(f, " |\n");
		}
	}

	fprintf(f, "\n## Expected failures\n\n");
	if (!t.xfail)
		fprintf(f, "None.\n");
	else
		fprintf(f, "| cell | test | reason | listed at |\n|---|---|---|---|\n");
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *c = &r->v[i];
		if (c->boot_failed && c->boot_entry) {
			fprintf(f, "| `%s` | boot | ", c->name);
			md(f, c->boot_entry->reason);
			fprintf(f, " (");
			md(f, c->boot_reason);
			fprintf(f, ") | `%s:%d` |\n", c->boot_entry->file,
				c->boot_entry->line);
		}
		for (size_t j = 0; j < c->tests.n; j++) {
			const struct test *x = &c->tests.v[j];
			if (x->verdict != V_XFAIL)
				continue;
			fprintf(f, "| `%s` | `%s` | ", c->name, x->full);
			if (x->entry) {
				md(f, x->entry->reason);
				fprintf(f, " | `%s:%d` |\n", x->entry->file,
					x->entry->line);
			} else {
				fprintf(f, "harness XFAIL: ");
				md(f, x->reason);
				fprintf(f, " | (test source) |\n");
			}
		}
	}

	if (count_unused(ex)) {
		fprintf(f, "\n## Expected-list entries that matched nothing\n\n");
		unused_entries(f, &ex->xfail, 1);
		unused_entries(f, &ex->differences, 1);
	}
	int bad = ferror(f);
	return fclose(f) == 0 && !bad ? 0 : -1;
}
