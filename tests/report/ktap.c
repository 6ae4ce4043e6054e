#include "ktap.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The guest init nests each binary's output by exactly this much. */
#define INDENT "    "
#define INDENT_LEN 4

/* Which TAP numbers were reported: a plan's gaps are its missing tests. */
struct numset {
	unsigned char *v;
	size_t cap;
};

static void numset_add(struct numset *s, long n)
{
	if (n <= 0 || n > MAX_TESTNUM)
		return;
	grow(&s->v, &s->cap, (size_t)n, 1);
	s->v[n] = 1;
}

static int numset_has(const struct numset *s, long n)
{
	return n > 0 && (size_t)n < s->cap && s->v[n];
}

/* One harness run: a binary's indented output in ktap.txt (from its
 * "# selftests:" header or first line to its top-level result line), or
 * the whole of hostcheck.ktap. */
struct block {
	char *binary;       /* "#N" until a header or result line names it */
	int named;
	long index;         /* position in the top-level plan */
	size_t first;       /* index of the block's first test in the list */
	const char *eof_why;/* missing tests when the input ends here */
	int empty_ok;       /* no output at all means "nothing to check" */
	long plan;          /* -1: no plan line seen */
	char *plan_skip;    /* "1..0 # SKIP why" */
	char *bail;         /* "Bail out! why" */
	struct numset seen;
	long last;          /* highest number reported so far */
	size_t nresults;
	int any_tap;        /* saw a version, plan, RUN or result line */
	char *running;      /* "#  RUN name" still waiting for its result */
	char **diag;        /* since the last RUN line */
	size_t ndiag, capdiag;
};

/* The init's verdict on a binary: its top-level result line. */
struct top_result {
	int ok;
	long num;           /* 0: absent or garbage */
	const char *name;   /* "" if the line had none */
	char *killed;       /* "# TIMEOUT <secs>": the init killed it */
	const char *skip;   /* "# SKIP why": why (maybe ""), else NULL */
};

static void diag_reset(struct block *b)
{
	for (size_t i = 0; i < b->ndiag; i++)
		free(b->diag[i]);
	free(b->diag);
	b->diag = NULL;
	b->ndiag = b->capdiag = 0;
}

/* Whole lines: a cause must match the line as the test printed it.
 * Where a report shows one, it caps it (summary.c). */
static void diag_add(struct block *b, const char *line)
{
	grow(&b->diag, &b->capdiag, b->ndiag, sizeof(*b->diag));
	b->diag[b->ndiag++] = xstrdup(line);
}

void test_set_name(struct test *t, const char *name)
{
	free(t->name);
	free(t->full);
	t->name = xstrdup(name);
	t->full = xasprintf("%s.%s", t->binary, name);
}

void test_set_binary(struct test *t, const char *binary)
{
	free(t->binary);
	t->binary = xstrdup(binary);
	char *nm = t->name; /* test_set_name frees it */
	t->name = NULL;
	test_set_name(t, nm);
	free(nm);
}

static struct test *add_test(struct test_list *l, const char *binary,
			     const char *name, long number, enum raw_result raw,
			     const char *reason)
{
	grow(&l->v, &l->cap, l->n, sizeof(*l->v));
	struct test *t = &l->v[l->n++];
	memset(t, 0, sizeof(*t));
	t->binary = xstrdup(binary);
	t->number = (int)number;
	t->raw = raw;
	t->reason = xstrdup(reason ? reason : "");
	test_set_name(t, name);
	return t;
}

struct test *test_list_add(struct test_list *l, const char *binary,
			   const char *name, long number, enum raw_result raw,
			   const char *reason)
{
	return add_test(l, binary, name, number, raw, reason);
}

/* Hand the diagnostics gathered since RUN over to the test. */
static void take_diag(struct block *b, struct test *t)
{
	t->diag = b->diag;
	t->ndiag = b->ndiag;
	b->diag = NULL;
	b->ndiag = b->capdiag = 0;
}

static void block_open(struct block *b, const char *binary, long index,
		       size_t first, const char *eof_why)
{
	memset(b, 0, sizeof(*b));
	if (binary && *binary) {
		b->binary = xstrdup(binary);
		b->named = 1;
	} else {
		b->binary = xasprintf("#%ld", index);
	}
	b->index = index;
	b->first = first;
	b->eof_why = eof_why;
	b->plan = -1;
}

/* Forget one harness run's plan state (the binary-level state stays). */
static void harness_reset(struct block *b)
{
	diag_reset(b);
	free(b->plan_skip);
	free(b->bail);
	free(b->seen.v);
	free(b->running);
	b->plan_skip = b->bail = b->running = NULL;
	memset(&b->seen, 0, sizeof(b->seen));
	b->plan = -1;
	b->last = 0;
}

static void block_free(struct block *b)
{
	harness_reset(b);
	free(b->binary);
	memset(b, 0, sizeof(*b));
}

/* The tests parsed so far carry the old name; a result line or a late
 * header knows better. */
static void block_rename(struct block *b, struct test_list *out,
			 const char *name)
{
	if (!strcmp(b->binary, name))
		return;
	free(b->binary);
	b->binary = xstrdup(name);
	for (size_t i = b->first; i < out->n; i++)
		test_set_binary(&out->v[i], name);
}

/* Why the tests the plan promised never came, most specific first. */
static char *missing_why(const struct block *b, const struct top_result *top,
			 int at_eof)
{
	if (top && top->killed)
		return xasprintf("no result (binary killed by the guest init after %s s)",
				 top->killed);
	if (b->bail)
		return xasprintf("no result (Bail out! %s)", b->bail);
	if (at_eof)
		return xstrdup(b->eof_why);
	return xstrdup("no result (binary stopped before finishing its plan)");
}

static void add_missing(struct block *b, struct test_list *out, long n,
			const char *why)
{
	if (n == b->last + 1 && b->running) {
		struct test *t = add_test(out, b->binary, b->running, n,
					  RAW_MISSING, why);
		take_diag(b, t);
	} else {
		char nm[32];
		snprintf(nm, sizeof(nm), "#%ld", n);
		struct test *t = add_test(out, b->binary, nm, n, RAW_MISSING, why);
		t->unnamed = 1;
	}
}

/* A binary that printed no TAP at all did not test anything, unless its
 * exit status said it skipped. */
static void no_output(struct block *b, struct test_list *out,
		      const struct top_result *top, const char *why, int plain)
{
	if (top && top->skip)
		add_test(out, b->binary, "(binary)", 0, RAW_SKIP,
			 *top->skip ? top->skip : "binary exited with KSFT_SKIP");
	else if (!b->empty_ok)
		add_test(out, b->binary, "(binary)", 0, RAW_FAIL,
			 plain || (top && top->ok) ? "no TAP output from this binary"
						   : why);
}

/* End of one harness run: whatever its plan promised but never came. */
static void harness_close(struct block *b, struct test_list *out,
			  const struct top_result *top, int at_eof)
{
	char *why = missing_why(b, top, at_eof);
	int plain = !(top && top->killed) && !b->bail && !at_eof;

	if (b->plan == 0 && b->plan_skip) {
		/* A "not ok" binary gets its failure below instead. */
		if (!top || top->ok)
			add_test(out, b->binary, "(binary)", 0, RAW_SKIP,
				 b->plan_skip);
	} else if (b->plan > 0) {
		for (long n = 1; n <= b->plan; n++)
			if (!numset_has(&b->seen, n))
				add_missing(b, out, n, why);
	} else if (b->plan < 0 && b->running) {
		add_missing(b, out, b->last + 1, why);
	} else if (b->plan < 0 && b->nresults == 0) {
		no_output(b, out, top, why, plain);
	}
	free(why);
}

static int any_failed(const struct test_list *out, size_t first)
{
	for (size_t i = first; i < out->n; i++) {
		enum raw_result r = out->v[i].raw;
		if (r == RAW_FAIL || r == RAW_MISSING || r == RAW_XPASS)
			return 1;
	}
	return 0;
}

/* "not ok" from the init with every subtest fine: the exit status is the
 * only witness of the failure (a crash in teardown, a leak check, a
 * hang after the last result), so it must count on its own. */
static void check_exit(struct block *b, struct test_list *out,
		       const struct top_result *top)
{
	if (!top || top->ok || any_failed(out, b->first))
		return;
	char *why = top->killed
		? xasprintf("binary killed by the guest init after %s s with no failing test",
			    top->killed)
		: xstrdup("binary failed (exit status) with no failing test");
	add_test(out, b->binary, "(binary)", 0, RAW_FAIL, why);
	free(why);
}

/* A parsed result line: "ok 3 name # SKIP why", "not ok 4 - name",
 * "ok name".  Cuts line in place. */
struct result_line {
	int ok;
	long num;       /* 0: absent or garbage */
	char *name;     /* "" if none */
	char *dir;      /* text after the '#', NULL if none */
};

static int parse_result_line(char *line, struct result_line *r)
{
	r->ok = starts_with(line, "ok");
	char *p = line + (r->ok ? 2 : 6);
	if (*p && *p != ' ' && *p != '\t')
		return -1; /* "okay ..." is not a result */
	p = (char *)skip_ws(p);

	r->num = 0;
	if (isdigit((unsigned char)*p)) {
		char *end;
		r->num = strtol(p, &end, 10);
		if (*end && *end != ' ' && *end != '\t')
			r->num = 0, end = p; /* "ok 3x" - treat digits as name */
		p = (char *)skip_ws(end);
	}
	if (r->num < 0 || r->num > MAX_TESTNUM)
		r->num = 0;
	if (p[0] == '-' && (p[1] == ' ' || p[1] == 0))
		p = (char *)skip_ws(p + 1);

	/* The name ends at the first unescaped '#', which starts a directive. */
	r->dir = NULL;
	for (char *q = p; *q; q++) {
		if (*q == '\\' && q[1]) {
			q++;
			continue;
		}
		if (*q == '#') {
			*q = 0;
			r->dir = (char *)skip_ws(q + 1);
			break;
		}
	}
	r->name = trim(p);
	return 0;
}

/* Directive of a harness result, and the reason that follows it. */
static enum raw_result directive(const struct result_line *r,
				 const char **reason)
{
	static const struct {
		const char *w;
		enum raw_result ok_raw, notok_raw;
	} dirs[] = {
		{ "SKIP", RAW_SKIP, RAW_SKIP },
		{ "XFAIL", RAW_XFAIL, RAW_XFAIL },
		{ "XPASS", RAW_XPASS, RAW_XPASS },
		/* TAP TODO: a failure that is expected. */
		{ "TODO", RAW_XPASS, RAW_XFAIL },
	};
	*reason = "";
	if (!r->dir)
		return r->ok ? RAW_PASS : RAW_FAIL;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (word_is(r->dir, dirs[i].w)) {
			*reason = skip_ws(r->dir + strlen(dirs[i].w));
			return r->ok ? dirs[i].ok_raw : dirs[i].notok_raw;
		}
	}
	*reason = r->dir; /* e.g. "# TIMEOUT" or a plain comment */
	return r->ok ? RAW_PASS : RAW_FAIL;
}

/* A subtest's result line. */
static void parse_result(struct block *b, struct test_list *out, char *line)
{
	struct result_line r;
	if (parse_result_line(line, &r))
		return;
	long num = r.num ? r.num : b->last + 1; /* absent: TAP says "next" */
	const char *name = r.name;
	char nbuf[32];
	int unnamed = 0;
	if (!*name && b->running) {
		/* Older harnesses (e.g. Linux 6.1) print skips as
		 * "ok N # SKIP why" without the name; the RUN line had it. */
		name = b->running;
	} else if (!*name) {
		snprintf(nbuf, sizeof(nbuf), "#%ld", num);
		name = nbuf;
		unnamed = 1;
	}
	const char *reason;
	enum raw_result raw = directive(&r, &reason);

	struct test *t = add_test(out, b->binary, name, num, raw, reason);
	t->unnamed = unnamed;
	take_diag(b, t);
	numset_add(&b->seen, num);
	if (num > b->last)
		b->last = num;
	b->nresults++;
	b->any_tap = 1;
	free(b->running);
	b->running = NULL;
}

/* Harness lines that restate what the ok line says: not diagnostics. */
static int is_harness_noise(const char *c, const char *running)
{
	static const char *const noise[] = {
		"Starting ", "Totals:", "PASSED:", "FAILED:", "Planned tests",
	};
	for (size_t i = 0; i < sizeof(noise) / sizeof(noise[0]); i++)
		if (starts_with(c, noise[i]))
			return 1;
	if (word_is(c, "SKIP") || word_is(c, "XFAIL") || word_is(c, "XPASS"))
		return 1;
	/* Data for the host-side checker, not a diagnostic; nor is the
	 * line naming a test's traffic marker (traffic.tsv). */
	if (starts_with(c, "HOSTCHECK ") || starts_with(c, "acl9p: no HOSTCHECK") ||
	    starts_with(c, "acl9p-mark "))
		return 1;
	if (word_is(c, "OK") || word_is(c, "FAIL")) {
		const char *rest = skip_ws(c + (word_is(c, "OK") ? 2 : 4));
		return running == NULL || strcmp(rest, running) == 0 || !*rest;
	}
	return 0;
}

/* "1..N" or "1..0 # SKIP why"; garbage that merely starts with 1.. is
 * ignored. */
static void parse_plan(struct block *b, char *line)
{
	char *end;
	long n = strtol(line + 3, &end, 10);
	if (end == line + 3 || n < 0 || n > MAX_TESTNUM)
		return;
	b->plan = n;
	b->any_tap = 1;
	const char *rest = skip_ws(end);
	if (n == 0 && rest[0] == '#') {
		rest = skip_ws(rest + 1);
		if (word_is(rest, "SKIP"))
			rest = skip_ws(rest + 4);
		free(b->plan_skip);
		b->plan_skip = xstrdup(*rest ? rest : "skipped");
	}
}

static void parse_run(struct block *b, const char *c)
{
	char *nm = xstrdup(skip_ws(c + 3));
	size_t n = strlen(nm);
	if (n >= 4 && strcmp(nm + n - 4, " ...") == 0)
		nm[n - 4] = 0;
	free(b->running);
	b->running = xstrdup(trim(nm));
	free(nm);
	diag_reset(b);
	b->any_tap = 1;
}

/* One line of a harness's own output (indentation already removed). */
static void harness_line(struct block *b, struct test_list *out, char *line)
{
	line = cut_at_cr(line);
	const char *c = line[0] == '#' ? skip_ws(line + 1) : NULL;

	if (starts_with(line, "TAP version") || starts_with(line, "KTAP version")) {
		/* A second harness inside one binary (it ran another):
		 * numbering starts over. */
		if (b->any_tap) {
			harness_close(b, out, NULL, 0);
			harness_reset(b);
		}
		b->any_tap = 1;
	} else if (starts_with(line, "1..")) {
		parse_plan(b, line);
	} else if (starts_with(line, "ok") || starts_with(line, "not ok")) {
		parse_result(b, out, line);
	} else if (starts_with(line, "Bail out!")) {
		free(b->bail);
		b->bail = xstrdup(skip_ws(line + 9));
	} else if (c && word_is(c, "RUN")) {
		parse_run(b, c);
	} else if (c && *c && !is_harness_noise(c, b->running)) {
		diag_add(b, line);
	}
	/* anything else is console garbage: ignored on purpose */
}

/* ktap.txt as a whole: the init's top level around the binaries. */
struct doc {
	struct test_list *out;
	struct binaries *bins;
	struct block b;     /* the binary being read, when open */
	int open;
	long last;          /* highest top-level number so far */
	struct numset seen; /* top-level numbers reported */
};

static void doc_open(struct doc *d, const char *name)
{
	block_open(&d->b, name, d->last + 1, d->out->n,
		   "no result (guest stopped)");
	d->open = 1;
}

static void add_binary(struct binaries *bins, const struct block *b)
{
	grow(&bins->v, &bins->cap, bins->n, sizeof(*bins->v));
	struct binary *x = &bins->v[bins->n++];
	x->name = xstrdup(b->binary);
	x->number = b->index;
	x->unnamed = !b->named;
	x->time_ms = -1;
}

/* End of a binary: by its result line (top), a header of the next one
 * (no result line at all), or the end of the output (at_eof). */
static void doc_close(struct doc *d, const struct top_result *top, int at_eof)
{
	struct block *b = &d->b;
	if (top && top->num)
		b->index = top->num;
	/* The result line names the binary after the fact; both should
	 * agree with the header, and the result line is the init's last
	 * word. */
	if (top && *top->name) {
		block_rename(b, d->out, top->name);
		b->named = 1;
	} else if (!b->named) {
		char nm[32];
		snprintf(nm, sizeof(nm), "#%ld", b->index);
		block_rename(b, d->out, nm);
	}
	harness_close(b, d->out, top, at_eof);
	check_exit(b, d->out, top);
	add_binary(d->bins, b);
	numset_add(&d->seen, b->index);
	if (b->index > d->last)
		d->last = b->index;
	block_free(b);
	d->open = 0;
}

/* "ok N name", "not ok N name # TIMEOUT 120", "ok N name # SKIP why". */
static void top_result(struct doc *d, char *line)
{
	struct result_line r;
	if (parse_result_line(line, &r))
		return;
	struct top_result top = { .ok = r.ok, .num = r.num, .name = r.name };
	if (r.dir && word_is(r.dir, "TIMEOUT")) {
		char *secs = trim(r.dir + strlen("TIMEOUT"));
		top.killed = xstrdup(*secs ? secs : "?");
	} else if (r.dir && word_is(r.dir, "SKIP")) {
		top.skip = skip_ws(r.dir + strlen("SKIP"));
	}
	if (!d->open)
		doc_open(d, NULL); /* a binary that printed nothing */
	doc_close(d, &top, 0);
	free(top.killed);
}

/* "# selftests: acl9p: NAME" names the binary before its output, so a
 * guest that dies inside it still tells which one it was. */
static void top_header(struct doc *d, const char *rest)
{
	const char *colon = strrchr(rest, ':');
	char *name = xstrdup(colon ? colon + 1 : rest);
	char *nm = trim(name);
	if (d->open && d->b.named)
		doc_close(d, NULL, 0); /* the previous one had no result line */
	if (!d->open) {
		doc_open(d, nm);
	} else {
		/* Output came before its header: it is this binary's. */
		block_rename(&d->b, d->out, nm);
		d->b.named = 1;
	}
	free(name);
}

/* "# time_ms NAME MS" after a binary's result line. */
static void top_time(struct doc *d, char *rest)
{
	char *sp = strrchr(rest, ' ');
	if (!sp)
		return;
	char *end;
	long ms = strtol(sp + 1, &end, 10);
	if (end == sp + 1 || *end || ms < 0)
		return;
	*sp = 0;
	const char *name = trim(rest);
	for (size_t i = d->bins->n; i-- > 0;) {
		if (!strcmp(d->bins->v[i].name, name)) {
			d->bins->v[i].time_ms = ms;
			return;
		}
	}
}

static void top_line(struct doc *d, char *line)
{
	if (starts_with(line, INDENT)) {
		if (!d->open)
			doc_open(d, NULL);
		harness_line(&d->b, d->out, line + INDENT_LEN);
		return;
	}
	line = cut_at_cr(line);
	if (starts_with(line, INDENT)) {
		top_line(d, line); /* what the terminal showed was nested */
	} else if (starts_with(line, "ok") || starts_with(line, "not ok")) {
		top_result(d, line);
	} else if (starts_with(line, "# selftests:")) {
		top_header(d, line + strlen("# selftests:"));
	} else if (starts_with(line, "# time_ms ")) {
		top_time(d, line + strlen("# time_ms "));
	} else if (starts_with(line, "1..") && d->bins->plan < 0) {
		char *end;
		long n = strtol(line + 3, &end, 10);
		if (end != line + 3 && n >= 0 && n <= MAX_TESTNUM)
			d->bins->plan = n;
	}
	/* version lines, other comments, console garbage: nothing to do */
}

/* The plan announced binaries the output never reached. */
static void never_started(struct doc *d)
{
	for (long n = 1; n <= d->bins->plan; n++) {
		if (numset_has(&d->seen, n))
			continue;
		char nm[32];
		snprintf(nm, sizeof(nm), "#%ld", n);
		add_test(d->out, nm, "(binary)", 0, RAW_MISSING,
			 "no result (guest stopped before this binary)");
		grow(&d->bins->v, &d->bins->cap, d->bins->n, sizeof(*d->bins->v));
		d->bins->v[d->bins->n++] = (struct binary){
			.name = xstrdup(nm), .number = n, .unnamed = 1,
			.time_ms = -1,
		};
	}
}

/* The binary running when the output ends was cut off with the guest;
 * an open block that saw neither a header nor TAP was only noise. */
static void doc_end(struct doc *d)
{
	if (d->open && (d->b.named || d->b.any_tap))
		doc_close(d, NULL, 1);
	else if (d->open)
		block_free(&d->b);
	d->open = 0;
	never_started(d);
	free(d->seen.v);
}

int ktap_parse_file(const char *path, struct test_list *out,
		    struct binaries *bins)
{
	memset(bins, 0, sizeof(*bins));
	bins->plan = -1;
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	struct doc d = { .out = out, .bins = bins };
	char *buf = NULL, *line;
	size_t cap = 0;
	while ((line = read_raw_line(f, &buf, &cap))) {
		if (strstr(line, "# HOSTCHECK "))
			bins->hostcheck_requests++;
		top_line(&d, line);
	}
	doc_end(&d);
	free(buf);
	fclose(f);
	return 0;
}

int ktap_parse_hostcheck(const char *path, struct test_list *out)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	struct block b;
	block_open(&b, "hostcheck", 0, out->n, "no result (host check stopped)");
	b.empty_ok = 1; /* an empty file: nothing was there to check */
	char *buf = NULL, *line;
	size_t cap = 0;
	while ((line = read_raw_line(f, &buf, &cap)))
		harness_line(&b, out, line);
	harness_close(&b, out, NULL, 1);
	block_free(&b);
	free(buf);
	fclose(f);
	return 0;
}

void test_list_free(struct test_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct test *t = &l->v[i];
		free(t->binary);
		free(t->name);
		free(t->full);
		free(t->reason);
		for (size_t j = 0; j < t->ndiag; j++)
			free(t->diag[j]);
		free(t->diag);
		free(t->uncaused);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void binaries_free(struct binaries *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->v[i].name);
	free(b->v);
	memset(b, 0, sizeof(*b));
}
