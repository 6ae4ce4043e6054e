#include "summary.h"
#include "traffic.h"
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

#define TERM_COLS 100 /* every stdout line fits (the report gets mailed) */

/* Columns are counted as UTF-8 code points: continuation bytes take
 * none (a byte that is not valid UTF-8 takes one, like any other). */
static int cont(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

static size_t cols(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += !cont(*s);
	return n;
}

/* How many bytes of s fit in w columns, a UTF-8 sequence kept whole. */
static size_t bytes_for(const char *s, size_t w)
{
	size_t i = 0, c = 0;
	for (; s[i]; i++) {
		if (!cont(s[i]) && c++ == w)
			break;
	}
	return i;
}

/* s cut to w columns, the cut shown by "...". */
static char *fit(const char *s, size_t w)
{
	if (cols(s) <= w)
		return xstrdup(s);
	if (w < 4)
		return xstrndup(s, bytes_for(s, w));
	return xasprintf("%.*s...", (int)bytes_for(s, w - 3), s);
}

static void emit(FILE *f, const char *prefix, const char *s, size_t n)
{
	fputs(prefix, f);
	for (size_t i = 0; i < n; i++)
		fputc(s[i] == '\t' ? ' ' : s[i], f); /* a tab is one column here */
	fputc('\n', f);
}

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

/* s on lines of at most TERM_COLS columns: the first starts with first,
 * the others with more (the blanks at a break dropped).  Breaks at the
 * last blank that fits, inside a word only when it is longer than a
 * line.  With maxl > 0, the maxl-th line is cut with "..." instead. */
static void wrap(FILE *f, const char *first, const char *more, const char *s,
		 size_t maxl)
{
	const char *p = first;
	for (size_t l = 1;; l++) {
		size_t w = TERM_COLS - cols(p);
		if (cols(s) <= w) {
			emit(f, p, s, strlen(s));
			return;
		}
		if (maxl && l == maxl) {
			char *c = fit(s, w);
			emit(f, p, c, strlen(c));
			free(c);
			return;
		}
		size_t b = bytes_for(s, w), k = b;
		while (k > 0 && !blank(s[k]))
			k--;
		while (k > 0 && blank(s[k - 1]))
			k--;
		if (k == 0)
			k = b; /* no blank to break at: a word longer than w */
		emit(f, p, s, k);
		s += k;
		while (blank(*s))
			s++;
		if (!*s)
			return;
		p = more;
	}
}

char *summary_fit(const char *s, size_t w)
{
	return fit(s, w);
}

void summary_wrap(FILE *f, const char *first, const char *more, const char *s,
		  size_t maxl)
{
	wrap(f, first, more, s, maxl);
}

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

/* The causes of a used entry that matched no line: a cause an entry
 * keeps for a failure that no longer happens is as stale as an entry. */
static void unused_causes(FILE *f, const struct expect_entry *e, int md)
{
	for (size_t k = 0; k < e->ncauses; k++) {
		if (e->cause_used[k])
			continue;
		if (md) {
			fprintf(f, "- `%s:%d` cause %zu of %zu: ", e->file, e->line,
				k + 1, e->ncauses);
			summary_md(f, e->causes[k]);
			fprintf(f, "\n");
			continue;
		}
		char *t = xasprintf("%s:%d: cause %zu of %zu: %.300s", e->file,
				    e->line, k + 1, e->ncauses, e->causes[k]);
		wrap(f, "  ", "      ", t, 3);
		free(t);
	}
}

static void unused_entries(FILE *f, const struct expect_list *l, int md)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct expect_entry *e = &l->v[i];
		if (e->unreachable)
			continue;
		if (e->used) {
			unused_causes(f, e, md);
			continue;
		}
		if (md) {
			fprintf(f, "- `%s:%d` %s %s\n", e->file, e->line,
				e->cell_glob, e->test_glob);
			continue;
		}
		char *t = xasprintf("%s:%d: %s %s", e->file, e->line,
				    e->cell_glob, e->test_glob);
		wrap(f, "  ", "      ", t, 0);
		free(t);
	}
}

/* Entries that matched nothing, and unused causes of the others. */
static size_t list_unused(const struct expect_list *l)
{
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct expect_entry *e = &l->v[i];
		if (e->unreachable)
			continue;
		if (!e->used) {
			n++;
			continue;
		}
		for (size_t k = 0; k < e->ncauses; k++)
			n += !e->cause_used[k];
	}
	return n;
}

static size_t count_unused(const struct expectations *ex)
{
	return list_unused(&ex->xfail) + list_unused(&ex->skip) +
	       list_unused(&ex->differences);
}

/* The matrix: the notes column cut to what is left of TERM_COLS (the
 * cell column too, past 47 columns, so notes keep 12). */
static void matrix_text(FILE *f, const struct run *r, const char *summary_md)
{
	size_t w = 4;
	for (size_t i = 0; i < r->n; i++) {
		size_t l = cols(r->v[i].name);
		w = l > w ? l : w;
	}
	/* 5 x 6 counts, 9 time, 2 before the notes */
	size_t fixed = 41, minnotes = 12;
	if (w > TERM_COLS - fixed - minnotes)
		w = TERM_COLS - fixed - minnotes;
	size_t nw = TERM_COLS - fixed - w;
	int cut = 0;
	fprintf(f, "%-*s %5s %5s %5s %5s %5s %8s  %s\n", (int)w, "cell", "pass",
		"fail", "skip", "xfail", "xpass", "time(s)", "notes");
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *c = &r->v[i];
		char *t = wall(c), *full = notes(c), *n = fit(full, nw),
		     *name = fit(c->name, w);
		cut |= strcmp(n, full) != 0;
		fprintf(f, "%-*s %5u %5u %5u %5u %5u %8s  %s\n", (int)w, name,
			c->c.pass, c->c.fail, c->c.skip, c->c.xfail, c->c.xpass,
			t, n);
		free(t);
		free(full);
		free(n);
		free(name);
	}
	if (cut) {
		char *m = xasprintf("(notes cut to fit; %s has them in full)",
				    summary_md);
		wrap(f, "", "  ", m, 0);
		free(m);
	}
}

/* "  FAIL   <test>  [<cell>]" in TERM_COLS: the test cut with "..." when
 * it does not fit, the cell only past 50 columns. */
static void failure_line(FILE *f, const char *word, const char *test,
			 const char *cell)
{
	char *c = fit(cell, 50);
	char *t = fit(test, TERM_COLS - 13 - cols(c));
	fprintf(f, "  %-5s  %s  [%s]\n", word, t, c);
	free(c);
	free(t);
}

/* An entry's causes as one string: "a | b". */
static char *causes_of(const struct expect_entry *e)
{
	struct strbuf sb = { 0 };
	for (size_t i = 0; i < e->ncauses; i++)
		sb_addf(&sb, "%s%s", i ? " | " : "", e->causes[i]);
	for (size_t i = 0; i < e->nwiths; i++)
		sb_addf(&sb, " with %s", e->withs[i]);
	return sb.s ? sb_take(&sb) : xstrdup("");
}

static void failures_text(FILE *f, const struct run *r)
{
	static const char ind[] = "         ";
	size_t nu = count_unexpected(r);
	if (nu)
		fprintf(f, "\nunexpected failures: %zu\n", nu);
	else
		fprintf(f, "\nunexpected failures: none\n");
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *c = &r->v[i];
		if (c->boot_failed && !c->boot_entry) {
			char *b = xasprintf("%s.boot", c->name), *bc = fit(b, 91);
			fprintf(f, "  BOOT   %s\n", bc);
			free(b);
			free(bc);
			wrap(f, "         reason: ", "                 ",
			     c->boot_reason, 0);
			if (*c->st.console)
				wrap(f, "         console: ", "                  ",
				     c->st.console, 0);
		}
		for (size_t j = 0; j < c->tests.n; j++) {
			const struct test *t = &c->tests.v[j];
			if (!unexpected(t))
				continue;
			failure_line(f, verdict_word(t->verdict), t->full, c->name);
			char *m = NULL;
			if (t->verdict == V_XPASS && t->entry)
				m = xasprintf("passed but listed at %s:%d: %s",
					      t->entry->file, t->entry->line,
					      t->entry->reason);
			else if (t->verdict == V_XPASS)
				m = xasprintf("the harness reported XPASS%s%s",
					      *t->reason ? ": " : "", t->reason);
			else if (t->uncaused && t->entry) {
				char *cs = causes_of(t->entry);
				m = xasprintf("failed for another cause than listed at "
					      "%s:%d (cause %s): %.300s%s", t->entry->file,
					      t->entry->line, cs, t->uncaused,
					      strlen(t->uncaused) > 300 ? "..." : "");
				free(cs);
			}
			if (m)
				wrap(f, ind, "           ", m, 0);
			else if (*t->reason)
				wrap(f, "         reason: ", "                 ",
				     t->reason, 0);
			free(m);
			/* verbatim output: wrapped, but at most 3 lines each */
			for (size_t k = 0; k < t->ndiag && k < MAX_DIAG; k++)
				wrap(f, "         | ", "         |   ", t->diag[k], 3);
			if (t->ndiag > MAX_DIAG)
				fprintf(f, "         | (%zu more diagnostic lines)\n",
					t->ndiag - MAX_DIAG);
		}
	}
}

/* One configuration's differences, d->v[i0..i1): "  <config>:", then
 * groups of test lines, each group followed by what it shares: the
 * unlisted ones first ("NOT LISTED"), then one group per differences
 * entry in the order the entries first apply, its file:line and reason
 * printed once after the last of its tests. */
static void ab_config(FILE *f, const struct diff_result *d, size_t i0,
		      size_t i1, const char *expected_dir)
{
	char *cf = fit(d->v[i0].config, TERM_COLS - 3);
	fprintf(f, "  %s:\n", cf);
	free(cf);

	/* the test column: as wide as the widest name, unless that would
	 * push the widest outcome pair past TERM_COLS */
	size_t tw = 4, ow = 0;
	char **out = xcalloc(i1 - i0, sizeof(*out));
	for (size_t i = i0; i < i1; i++) {
		const struct difference *x = &d->v[i];
		out[i - i0] = xasprintf("%s=%s %s=%s", x->ka, outcome_str(x->a),
					x->kb, outcome_str(x->b));
		size_t l = cols(x->test), o = cols(out[i - i0]);
		tw = l > tw ? l : tw;
		ow = o > ow ? o : ow;
	}
	if (tw > TERM_COLS - 6 - ow)
		tw = TERM_COLS - 6 - ow;

	size_t *ord = xcalloc(i1 - i0, sizeof(*ord)), n = 0;
	for (size_t i = i0; i < i1; i++)
		if (!d->v[i].entry)
			ord[n++] = i;
	size_t nunlisted = n;
	for (size_t i = i0; i < i1; i++) {
		size_t k = i0;
		while (k < i && d->v[k].entry != d->v[i].entry)
			k++;
		if (!d->v[i].entry || k < i)
			continue; /* unlisted, or its entry's group is done */
		for (size_t j = i; j < i1; j++)
			if (d->v[j].entry == d->v[i].entry)
				ord[n++] = j;
	}

	for (size_t k = 0; k < n; k++) {
		const struct difference *x = &d->v[ord[k]];
		const char *o = out[ord[k] - i0];
		/* cut only a name that would not fit, and then to the
		 * column (tw never exceeds the room a line has) */
		char *t = fit(x->test, cols(x->test) > TERM_COLS - 6 - cols(o)
					       ? tw : cols(x->test));
		fprintf(f, "    %-*s  %s\n", (int)tw, t, o);
		free(t);
		if (k + 1 < n && d->v[ord[k + 1]].entry == x->entry)
			continue; /* the group goes on */
		if (!x->entry) {
			char *m = xasprintf("NOT LISTED in %s/differences: %s a failure",
					    expected_dir,
					    nunlisted > 1 ? "each counts as" : "counts as");
			wrap(f, "      ", "        ", m, 0);
			free(m);
		} else {
			char *m = xasprintf("listed: %s:%d", x->entry->file,
					    x->entry->line);
			wrap(f, "      ", "        ", m, 0);
			free(m);
			wrap(f, "        ", "        ", x->entry->reason, 0);
		}
	}
	for (size_t i = i0; i < i1; i++)
		free(out[i - i0]);
	free(out);
	free(ord);
}

static void ab_text(FILE *f, const struct diff_result *d,
		    const char *expected_dir)
{
	for (size_t c = 0; c < d->ncmp; c++) {
		const struct diff_compare *k = &d->cmp[c];
		size_t end = k->first + k->n;

		/* a comparison whose kernels did not both run says nothing */
		if (k->pairs == 0) {
			if (d->ncmp == 1)
				fprintf(f, "\nA/B differences: no configuration has both a %s and a %s cell\n",
					k->a, k->b);
			continue;
		}
		fprintf(f, "\nA/B differences %s vs %s: %zu in %zu configurations, %zu unlisted\n",
			k->a, k->b, k->n, k->pairs, k->unlisted);
		/* a configuration's differences are adjacent (diff_pair adds them) */
		for (size_t i = k->first; i < end;) {
			size_t j = i + 1;
			while (j < end && !strcmp(d->v[j].config, d->v[i].config))
				j++;
			ab_config(f, d, i, j, expected_dir);
			i = j;
		}
	}
}

void summary_text(FILE *f, const struct run *r, const struct diff_result *d,
		  const struct expectations *ex, const char *expected_dir,
		  const char *summary_md, int filtered, const char *manifest)
{
	matrix_text(f, r, summary_md);
	times_text(f, r);
	failures_text(f, r);
	ab_text(f, d, expected_dir);
	traffic_text(f, r);

	/* Not a failure: the manifest is what a cell must report, and a
	 * test it does not know says the manifest is stale, nothing of
	 * the cell. */
	if (manifest && r->unlisted) {
		char *m = xasprintf("tests not in the build's manifest (%s): %zu, "
				    "counted as reported (first: %s)",
				    manifest, r->unlisted, r->unlisted_first);
		fprintf(f, "\n");
		wrap(f, "", "  ", m, 0);
		free(m);
	}

	/* With a filter most entries match nothing by design. */
	if (!filtered && count_unused(ex)) {
		fprintf(f, "\nexpected-list entries and causes that matched nothing (stale?):\n");
		unused_entries(f, &ex->xfail, 0);
		unused_entries(f, &ex->skip, 0);
		unused_entries(f, &ex->differences, 0);
	}

	/* These two stay as they are whatever their width: scripts read
	 * them. */
	struct totals t = totals_of(r, d);
	fprintf(f, "\nexpected failures: %lu (%s)\n", t.xfail, expected_dir);
	fprintf(f, "%lu passed, %lu failed, %lu skipped\n", t.passed, t.failed,
		t.skipped);
}

void summary_md(FILE *f, const char *s)
{
	md(f, s);
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
		     const char *expected_dir, const char *manifest)
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
	if (manifest && r->unlisted) {
		fprintf(f, "\nTests not in the build's manifest (`");
		md(f, manifest);
		fprintf(f, "`): %zu, counted as reported (first: `", r->unlisted);
		md(f, r->unlisted_first);
		fprintf(f, "`).\n");
	}

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
			} else if (x->uncaused && x->entry) {
				char *cs = causes_of(x->entry);
				fprintf(f, ": failed for another cause than listed at `%s:%d` (cause ",
					x->entry->file, x->entry->line);
				md(f, cs);
				fprintf(f, "): ");
				md(f, x->uncaused);
				free(cs);
			} else if (*x->reason) {
				fprintf(f, ": ");
				md(f, x->reason);
			}
			fprintf(f, "\n");
			if (x->ndiag) {
				/* Indented code block: diagnostics verbatim, no
				 * escaping needed. */
				fprintf(f, "\n");
				for (size_t k = 0; k < x->ndiag && k < MAX_DIAG; k++)
					fprintf(f, "      %.300s%s\n", x->diag[k],
						strlen(x->diag[k]) > 300 ? "..." : "");
				fprintf(f, "\n");
			}
		}
	}

	for (size_t c = 0; c < d->ncmp; c++) {
		const struct diff_compare *k = &d->cmp[c];

		if (!k->pairs && d->ncmp > 1)
			continue;
		fprintf(f, "\n## A/B differences (%s vs %s)\n\n", k->a, k->b);
		if (!k->pairs) {
			fprintf(f, "No configuration has both a %s and a %s cell.\n",
				k->a, k->b);
			continue;
		}
		if (!k->n) {
			fprintf(f, "None in %zu configurations.\n", k->pairs);
			continue;
		}
		fprintf(f, "%zu differences in %zu configurations, %zu unlisted.\n\n"
			"| configuration | test | %s | %s | status |\n"
			"|---|---|---|---|---|\n", k->n, k->pairs, k->unlisted,
			k->a, k->b);
		for (size_t i = k->first; i < k->first + k->n; i++) {
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

	traffic_markdown(f, r);

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
		unused_entries(f, &ex->skip, 1);
		unused_entries(f, &ex->differences, 1);
	}
	int bad = ferror(f);
	return fclose(f) == 0 && !bad ? 0 : -1;
}
