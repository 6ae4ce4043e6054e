#include "ktap.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One harness run: from a "# ACL9P-BINARY" header (or a repeated "TAP
 * version" line) to the next one or EOF. */
struct block {
	char *binary;
	long plan;          /* -1: no plan line seen */
	char *plan_skip;    /* "1..0 # SKIP why" */
	char *bail;         /* "Bail out! why" */
	char *killed;       /* "# ACL9P-TIMEOUT <binary> <secs>" from the init */
	unsigned char *seen;/* seen[n]: test number n was reported */
	size_t seen_cap;
	long last;          /* highest number reported so far */
	size_t nresults;
	int any_tap;        /* saw a version, plan, RUN or result line */
	char *running;      /* "#  RUN name" still waiting for its result */
	char *diag[MAX_DIAG];
	size_t ndiag, ndiag_total;
};

static void diag_reset(struct block *b)
{
	for (size_t i = 0; i < b->ndiag; i++)
		free(b->diag[i]);
	b->ndiag = b->ndiag_total = 0;
}

static void diag_add(struct block *b, const char *line)
{
	b->ndiag_total++;
	if (b->ndiag < MAX_DIAG) {
		/* Cap length: one runaway line must not flood the report. */
		size_t n = strlen(line);
		b->diag[b->ndiag++] = n > 300 ? xasprintf("%.300s...", line)
					      : xstrdup(line);
	}
}

void test_set_name(struct test *t, const char *name)
{
	free(t->name);
	free(t->full);
	t->name = xstrdup(name);
	t->full = xasprintf("%s.%s", t->binary, name);
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

/* Hand the diagnostics gathered since RUN over to the test. */
static void take_diag(struct block *b, struct test *t)
{
	memcpy(t->diag, b->diag, sizeof(b->diag));
	t->ndiag = b->ndiag;
	t->ndiag_total = b->ndiag_total;
	b->ndiag = b->ndiag_total = 0;
}

static void mark_seen(struct block *b, long n)
{
	if (n <= 0 || n > MAX_TESTNUM)
		return;
	grow(&b->seen, &b->seen_cap, (size_t)n, 1);
	b->seen[n] = 1;
}

static int was_seen(const struct block *b, long n)
{
	return n > 0 && (size_t)n < b->seen_cap && b->seen[n];
}

static void block_open(struct block *b, const char *binary)
{
	memset(b, 0, sizeof(*b));
	b->binary = xstrdup(binary && *binary ? binary : "unnamed");
	b->plan = -1;
}

/* Close a block: whatever the plan promised but never came is a failure.
 * at_eof (end of the guest's output) tells a truncated guest from a
 * binary that died while the guest went on to the next one. */
static void block_close(struct block *b, struct test_list *out, int at_eof)
{
	char *why;
	if (b->killed)
		why = xasprintf("no result (binary killed by the guest init after %s s)",
				b->killed);
	else if (b->bail)
		why = xasprintf("no result (Bail out! %s)", b->bail);
	else if (at_eof)
		why = xstrdup("no result (guest stopped)");
	else
		why = xstrdup("no result (binary stopped before finishing its plan)");

	if (b->plan == 0 && b->plan_skip) {
		add_test(out, b->binary, "(binary)", 0, RAW_SKIP, b->plan_skip);
	} else if (b->plan > 0) {
		for (long n = 1; n <= b->plan; n++) {
			if (was_seen(b, n))
				continue;
			if (n == b->last + 1 && b->running) {
				struct test *t = add_test(out, b->binary, b->running, n,
							  RAW_MISSING, why);
				take_diag(b, t);
			} else {
				char nm[32];
				snprintf(nm, sizeof(nm), "#%ld", n);
				struct test *t = add_test(out, b->binary, nm, n,
							  RAW_MISSING, why);
				t->unnamed = 1;
			}
		}
	} else if (b->plan < 0 && b->running) {
		struct test *t = add_test(out, b->binary, b->running, b->last + 1,
					  RAW_MISSING, why);
		take_diag(b, t);
	} else if (b->plan < 0 && b->nresults == 0) {
		/* A binary that printed nothing usable did not test anything. */
		add_test(out, b->binary, "(binary)", 0, RAW_FAIL,
			 b->bail || b->killed ? why : "no TAP output from this binary");
	}
	free(why);
	diag_reset(b);
	free(b->binary);
	free(b->plan_skip);
	free(b->bail);
	free(b->killed);
	free(b->seen);
	free(b->running);
	memset(b, 0, sizeof(*b));
}

/* "ok 3 name # SKIP why", "not ok 4 - name", "ok name". */
static void parse_result(struct block *b, struct test_list *out, char *line)
{
	int ok = starts_with(line, "ok");
	char *p = line + (ok ? 2 : 6);
	if (*p && *p != ' ' && *p != '\t')
		return; /* "okay ..." is not a result */
	p = (char *)skip_ws(p);

	long num = 0;
	if (isdigit((unsigned char)*p)) {
		char *end;
		num = strtol(p, &end, 10);
		if (*end && *end != ' ' && *end != '\t')
			num = 0, end = p; /* "ok 3x" - treat digits as name */
		p = (char *)skip_ws(end);
	}
	if (num <= 0 || num > MAX_TESTNUM)
		num = b->last + 1; /* absent or garbage: TAP says "next" */
	if (p[0] == '-' && (p[1] == ' ' || p[1] == 0))
		p = (char *)skip_ws(p + 1);

	/* The name ends at the first unescaped '#', which starts a directive. */
	char *hash = NULL;
	for (char *q = p; *q; q++) {
		if (*q == '\\' && q[1]) {
			q++;
			continue;
		}
		if (*q == '#') {
			hash = q;
			break;
		}
	}
	char *dir = NULL;
	if (hash) {
		*hash = 0;
		dir = (char *)skip_ws(hash + 1);
	}
	char *name = trim(p);
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

	enum raw_result raw = ok ? RAW_PASS : RAW_FAIL;
	const char *reason = "";
	if (dir) {
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
		int matched = 0;
		for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
			if (word_is(dir, dirs[i].w)) {
				raw = ok ? dirs[i].ok_raw : dirs[i].notok_raw;
				reason = skip_ws(dir + strlen(dirs[i].w));
				matched = 1;
				break;
			}
		}
		if (!matched)
			reason = dir; /* e.g. "# TIMEOUT" or a plain comment */
	}

	struct test *t = add_test(out, b->binary, name, num, raw, reason);
	t->unnamed = unnamed;
	take_diag(b, t);
	mark_seen(b, num);
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
	/* Data for the host-side checker, not a diagnostic. */
	if (starts_with(c, "HOSTCHECK ") || starts_with(c, "acl9p: no HOSTCHECK"))
		return 1;
	if (word_is(c, "OK") || word_is(c, "FAIL")) {
		const char *rest = skip_ws(c + (word_is(c, "OK") ? 2 : 4));
		return running == NULL || strcmp(rest, running) == 0 || !*rest;
	}
	return 0;
}

int ktap_parse_file(const char *path, struct test_list *out)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char *buf = NULL;
	size_t cap = 0;
	char *line;
	struct block b;
	int open = 0;

	while ((line = read_clean_line(f, &buf, &cap))) {
		if (starts_with(line, "# ACL9P-BINARY")) {
			char *nm = trim(line + strlen("# ACL9P-BINARY"));
			/* The rig appends its hostcheck block after whatever the
			 * guest wrote, so a guest that died mid-binary is followed
			 * by hostcheck, not by EOF. */
			if (open)
				block_close(&b, out, !strcmp(nm, "hostcheck"));
			block_open(&b, nm);
			open = 1;
			continue;
		}
		/* The guest init wrote this after its last binary: whatever is
		 * missing now was not lost to a dying guest. */
		if (starts_with(line, "# ACL9P-DONE")) {
			if (open)
				block_close(&b, out, 0);
			open = 0;
			continue;
		}
		if (starts_with(line, "# ACL9P-TIMEOUT")) {
			/* "# ACL9P-TIMEOUT <binary> <secs>": the init killed it. */
			if (open) {
				char *rest = trim(line + strlen("# ACL9P-TIMEOUT"));
				char *sp = strrchr(rest, ' ');
				free(b.killed);
				b.killed = xstrdup(sp ? trim(sp + 1) : "?");
			}
			continue;
		}
		int is_version = starts_with(line, "TAP version") ||
				 starts_with(line, "KTAP version");
		int is_plan = starts_with(line, "1..");
		int is_result = starts_with(line, "ok") || starts_with(line, "not ok");
		const char *c = line[0] == '#' ? skip_ws(line + 1) : NULL;
		int is_run = c && word_is(c, "RUN");

		if (!open && (is_version || is_plan || is_result || is_run)) {
			block_open(&b, NULL);
			open = 1;
		}
		if (!open)
			continue;
		if (is_version) {
			/* A second harness without its own header line. */
			if (b.any_tap) {
				char *nm = xstrdup(b.binary);
				block_close(&b, out, 0);
				block_open(&b, nm);
				free(nm);
			}
			b.any_tap = 1;
		} else if (is_plan) {
			char *end;
			long n = strtol(line + 3, &end, 10);
			if (end == line + 3 || n < 0 || n > MAX_TESTNUM)
				continue; /* garbage that merely starts with 1.. */
			b.plan = n;
			b.any_tap = 1;
			const char *rest = skip_ws(end);
			if (n == 0 && rest[0] == '#') {
				rest = skip_ws(rest + 1);
				if (word_is(rest, "SKIP"))
					rest = skip_ws(rest + 4);
				free(b.plan_skip);
				b.plan_skip = xstrdup(*rest ? rest : "skipped");
			}
		} else if (is_result) {
			parse_result(&b, out, line);
		} else if (starts_with(line, "Bail out!")) {
			free(b.bail);
			b.bail = xstrdup(skip_ws(line + 9));
		} else if (is_run) {
			char *nm = xstrdup(skip_ws(c + 3));
			size_t n = strlen(nm);
			if (n >= 4 && strcmp(nm + n - 4, " ...") == 0)
				nm[n - 4] = 0;
			free(b.running);
			b.running = xstrdup(trim(nm));
			free(nm);
			diag_reset(&b);
			b.any_tap = 1;
		} else if (c && *c && !is_harness_noise(c, b.running)) {
			diag_add(&b, line);
		}
		/* anything else is console garbage: ignored on purpose */
	}
	if (open)
		block_close(&b, out, 1);
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
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}
