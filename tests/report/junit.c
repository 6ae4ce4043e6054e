#include "junit.h"
#include "summary.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s, 0 if invalid. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned cp;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	static const unsigned min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (cp < min[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

/* Guest output is arbitrary bytes; XML 1.0 is not.  Control characters
 * and broken UTF-8 become '?' so the file always parses. */
static void xml(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	while (*s) {
		switch (*s) {
		case '&': fputs("&amp;", f); s++; continue;
		case '<': fputs("&lt;", f); s++; continue;
		case '>': fputs("&gt;", f); s++; continue;
		case '"': fputs("&quot;", f); s++; continue;
		case '\'': fputs("&apos;", f); s++; continue;
		case '\n': fputs("&#10;", f); s++; continue;
		case '\t': fputs("&#9;", f); s++; continue;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fputc('?', f);
			s++;
			continue;
		}
		size_t n = utf8_len(s);
		if (!n) {
			fputc('?', f);
			s++;
			continue;
		}
		fwrite(s, 1, n, f);
		s += n;
	}
}

static void failure(FILE *f, const char *tag, const char *msg,
		    const struct test *t)
{
	fprintf(f, "      <%s message=\"", tag);
	xml(f, msg);
	fprintf(f, "\"");
	if (!t || !t->ndiag) {
		fprintf(f, "/>\n");
		return;
	}
	fprintf(f, ">");
	for (size_t k = 0; k < t->ndiag && k < MAX_DIAG; k++) {
		xml(f, t->diag[k]);
		fputs("&#10;", f);
	}
	fprintf(f, "</%s>\n", tag);
}

static void testcase(FILE *f, const char *classname, const char *name)
{
	fprintf(f, "    <testcase classname=\"");
	xml(f, classname);
	fprintf(f, "\" name=\"");
	xml(f, name);
	fprintf(f, "\"");
}

static void cell_suite(FILE *f, const struct cell *c)
{
	unsigned tests = (unsigned)c->tests.n + (unsigned)c->boot_failed;
	fprintf(f, "  <testsuite name=\"");
	xml(f, c->name);
	fprintf(f, "\" tests=\"%u\" failures=\"%u\" errors=\"0\" skipped=\"%u\"",
		tests, c->c.fail + c->c.xpass, c->c.skip + c->c.xfail);
	if (c->st.wall_ms >= 0)
		fprintf(f, " time=\"%.3f\"", (double)c->st.wall_ms / 1000.0);
	fprintf(f, ">\n");

	if (c->boot_failed) {
		testcase(f, c->name, "boot");
		fprintf(f, ">\n");
		char *msg = c->boot_entry
				    ? xasprintf("xfail: %s (%s)", c->boot_entry->reason,
						c->boot_reason)
				    : xstrdup(c->boot_reason);
		failure(f, c->boot_entry ? "skipped" : "failure", msg, NULL);
		free(msg);
		if (*c->st.console) {
			fprintf(f, "      <system-out>console: ");
			xml(f, c->st.console);
			fprintf(f, "</system-out>\n");
		}
		fprintf(f, "    </testcase>\n");
	}
	for (size_t j = 0; j < c->tests.n; j++) {
		const struct test *t = &c->tests.v[j];
		testcase(f, c->name, t->full);
		char *msg = NULL;
		const char *tag = NULL;
		switch (t->verdict) {
		case V_PASS:
			break;
		case V_FAIL:
			tag = "failure";
			msg = xstrdup(*t->reason ? t->reason : "test failed");
			break;
		case V_XPASS:
			tag = "failure";
			msg = t->entry ? xasprintf("xpass: passed but listed at %s:%d: %s",
						   t->entry->file, t->entry->line,
						   t->entry->reason)
				       : xasprintf("xpass: %s", t->reason);
			break;
		case V_SKIP:
			tag = "skipped";
			msg = xstrdup(t->reason);
			break;
		case V_XFAIL:
			tag = "skipped";
			msg = xasprintf("xfail: %s",
					t->entry ? t->entry->reason : t->reason);
			break;
		}
		if (!tag) {
			fprintf(f, "/>\n");
			continue;
		}
		fprintf(f, ">\n");
		failure(f, tag, msg, t->verdict == V_SKIP ? NULL : t);
		free(msg);
		fprintf(f, "    </testcase>\n");
	}
	fprintf(f, "  </testsuite>\n");
}

static void diff_suite(FILE *f, const struct diff_result *d)
{
	fprintf(f, "  <testsuite name=\"ab-differential\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n",
		d->n, d->unlisted);
	for (size_t i = 0; i < d->n; i++) {
		const struct difference *x = &d->v[i];
		char *cls = xasprintf("ab.%s-%s.%s", x->ka, x->kb, x->config);
		testcase(f, cls, x->test);
		free(cls);
		char *msg = xasprintf("%s %s, %s %s%s%s", x->ka,
				      outcome_str(x->a), x->kb, outcome_str(x->b),
				      x->entry ? "; expected: " : "",
				      x->entry ? x->entry->reason : "");
		if (x->entry) {
			/* Listed: a pass, but keep the why visible in CI. */
			fprintf(f, ">\n      <system-out>");
			xml(f, msg);
			fprintf(f, "</system-out>\n    </testcase>\n");
		} else {
			fprintf(f, ">\n");
			failure(f, "failure", msg, NULL);
			fprintf(f, "    </testcase>\n");
		}
		free(msg);
	}
	fprintf(f, "  </testsuite>\n");
}

int junit_write(const char *path, const struct run *r, const struct diff_result *d)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	struct totals t = totals_of(r, d);
	size_t tests = d->n;
	for (size_t i = 0; i < r->n; i++)
		tests += r->v[i].tests.n + (size_t)r->v[i].boot_failed;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"acl9p\" tests=\"%zu\" failures=\"%lu\" errors=\"0\" skipped=\"%lu\">\n",
		tests, t.failed, t.skipped + t.xfail);
	for (size_t i = 0; i < r->n; i++)
		cell_suite(f, &r->v[i]);
	if (d->pairs)
		diff_suite(f, d);
	fprintf(f, "</testsuites>\n");
	int bad = ferror(f);
	return fclose(f) == 0 && !bad ? 0 : -1;
}
