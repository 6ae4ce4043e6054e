/* FNM_EXTMATCH, a GNU extension of fnmatch(3) */
#define _GNU_SOURCE
#include "expect.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *next_field(char **p)
{
	char *s = (char *)skip_ws(*p);
	if (!*s)
		return NULL;
	char *e = s;
	while (*e && *e != ' ' && *e != '\t')
		e++;
	if (*e)
		*e++ = 0;
	*p = e;
	return s;
}

/* diff: a differences list, whose entries say which kernel fails */
static int load_file(const char *path, struct expect_list *l, int diff)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "acl9p-report: %s: %s\n", path, strerror(errno));
		return -1;
	}
	char *buf = NULL, *line;
	size_t cap = 0;
	int lineno = 0, rc = 0;
	while ((line = next_list_line(f, &buf, &cap, &lineno))) {
		char *p = line;
		char *cg = next_field(&p), *tg = next_field(&p);
		char **causes = NULL, **withs = NULL;
		size_t ncauses = 0, capc = 0, nwiths = 0, capw = 0;
		int badq = 0;
		const char *fails = NULL;
		const char *fails_err = NULL;
		/* "fails=KERNEL" (differences), then "cause=GLOB" and
		 * "with=GLOB" words, between the test glob and the reason */
		if (tg && starts_with(skip_ws(p), "fails=")) {
			char *q = (char *)skip_ws(p);

			p = q;
			fails = next_field(&p) + 6;
			if (!diff)
				fails_err = "fails= belongs to differences entries";
			else if (!*fails)
				fails_err = "fails= takes a kernel's name or either";
		}
		while (tg) {
			char *q = (char *)skip_ws(p);
			int is_with = starts_with(q, "with=");
			if (!is_with && !starts_with(q, "cause="))
				break;
			size_t kw = is_with ? 5 : 6;
			char *w;
			if (q[kw] == '"') {
				/* cause="glob with blanks"; \" is a quote of the
				 * glob (fnmatch reads it as a literal one) */
				char *end = q + kw + 1;
				while (*end && *end != '"')
					end += end[0] == '\\' && end[1] ? 2 : 1;
				if (!*end) {
					badq = 1; /* a format error below */
					break;
				}
				*end = 0;
				w = q + kw + 1;
				p = end + 1;
			} else {
				p = q;
				w = next_field(&p) + kw;
			}
			if (is_with) {
				grow(&withs, &capw, nwiths, sizeof(*withs));
				withs[nwiths++] = xstrdup(w);
			} else {
				grow(&causes, &capc, ncauses, sizeof(*causes));
				causes[ncauses++] = xstrdup(w);
			}
		}
		/* with= qualifies a cause; alone it would excuse anything */
		if (nwiths && !ncauses)
			badq = 1;
		char *reason = tg && !badq ? trim(p) : NULL;
		/* A bare pattern would silently excuse failures with no record
		 * of why; insist on a reason. */
		if (!reason || !*reason) {
			fprintf(stderr,
				"acl9p-report: %s:%d: format error: expected "
				"'<cell-glob> <test-glob> [cause=<glob>]... "
				"[with=<glob>]... <reason...>' (with= needs a cause=)\n",
				path, lineno);
			for (size_t i = 0; i < ncauses; i++)
				free(causes[i]);
			free(causes);
			for (size_t i = 0; i < nwiths; i++)
				free(withs[i]);
			free(withs);
			rc = -1;
			break;
		}
		const char *why = expect_check_cell_glob(cg);

		/*
		 * A difference says which kernel fails: "the result may
		 * differ" alone would excuse the series failing a test that
		 * 6.1 passes as readily as the fix it is there for.  Either
		 * way round only for a race, whose rate make flaky measures.
		 */
		if (!fails_err && diff && !fails)
			fails_err = "a differences entry needs fails=KERNEL or fails=either";
		if (!fails_err && fails && !strcmp(fails, "either") &&
		    !starts_with(reason, "flaky:"))
			fails_err = "fails=either is for a flaky: race only";
		if (why || fails_err) {
			if (why)
				fprintf(stderr, "acl9p-report: %s:%d: cell glob %s: %s\n",
					path, lineno, cg, why);
			else
				fprintf(stderr, "acl9p-report: %s:%d: %s\n", path,
					lineno, fails_err);
			for (size_t i = 0; i < ncauses; i++)
				free(causes[i]);
			free(causes);
			for (size_t i = 0; i < nwiths; i++)
				free(withs[i]);
			free(withs);
			rc = -1;
			break;
		}
		grow(&l->v, &l->cap, l->n, sizeof(*l->v));
		struct expect_entry *e = &l->v[l->n++];
		e->file = xstrdup(path);
		e->line = lineno;
		e->cell_glob = xstrdup(cg);
		e->test_glob = xstrdup(tg);
		e->reason = xstrdup(reason);
		e->flaky = starts_with(reason, "flaky:");
		e->fails = fails ? xstrdup(fails) : NULL;
		e->used = 0;
		e->causes = causes;
		e->ncauses = ncauses;
		e->cause_used = ncauses ? xcalloc(ncauses, sizeof(*e->cause_used)) : NULL;
		e->withs = withs;
		e->nwiths = nwiths;
	}
	free(buf);
	fclose(f);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A list named <list>@TAG is for runs that TAG describes only: FLAVOUR
 * is the run's tags, comma-separated, its kernel flavour ("plain" for
 * none) and its architecture ("plain,x86_64", "debug,x86_64",
 * "plain,i386").  A test that needs the debug flavour's fault injection
 * skips on the plain kernels of every architecture: skip.x@plain.  The
 * cells of such a run have the same names as the plain x86_64 ones.
 */
static bool for_flavour(const char *nm, const char *flavour)
{
	const char *at = strchr(nm, '@');
	size_t len;

	if (!at)
		return true;
	at++;
	len = strlen(at);
	for (const char *t = flavour; *t;) {
		size_t n = strcspn(t, ",");

		if (n == len && !strncmp(t, at, n))
			return true;
		t += n;
		t += *t == ',';
	}
	return false;
}

int expect_load(const char *dir, const char *flavour, struct expectations *ex)
{
	memset(ex, 0, sizeof(*ex));
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "acl9p-report: --expected %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	/* Sorted, so "first match wins" does not depend on readdir order. */
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *nm = de->d_name;
		size_t len = strlen(nm);
		if ((!starts_with(nm, "xfail.") && !starts_with(nm, "skip.") &&
		     strcmp(nm, "differences") &&
		     !starts_with(nm, "differences@")) ||
		    nm[len - 1] == '~')
			continue; /* editor backups are not lists */
		if (!for_flavour(nm, flavour))
			continue;
		grow(&names, &cap, n, sizeof(*names));
		names[n++] = xstrdup(nm);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);

	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);
		struct stat sb;
		struct expect_list *to = &ex->xfail;

		if (starts_with(names[i], "skip."))
			to = &ex->skip;
		else if (starts_with(names[i], "differences"))
			to = &ex->differences;
		if (rc == 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
			rc = load_file(path, to, to == &ex->differences);
		free(path);
		free(names[i]);
	}
	free(names);

	if (rc)
		expect_free(ex);
	return rc;
}

static void list_free(struct expect_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].file);
		free(l->v[i].cell_glob);
		free(l->v[i].test_glob);
		free(l->v[i].reason);
		free(l->v[i].fails);
		for (size_t j = 0; j < l->v[i].ncauses; j++)
			free(l->v[i].causes[j]);
		free(l->v[i].causes);
		free(l->v[i].cause_used);
		for (size_t j = 0; j < l->v[i].nwiths; j++)
			free(l->v[i].withs[j]);
		free(l->v[i].withs);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void expect_free(struct expectations *ex)
{
	list_free(&ex->xfail);
	list_free(&ex->skip);
	list_free(&ex->differences);
}

/*
 * The end of the group or bracket that opens at g (its ')' or ']'),
 * or NULL if it is not closed.
 */
static const char *group_end(const char *g)
{
	char close = *g == '[' ? ']' : ')';
	int depth = 0;

	for (const char *p = g; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (close == ']') {
			if (p > g + 1 && *p == ']')
				return p;
			continue;
		}
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return p;
	}
	return NULL;
}

/* The end of the extglob group or bracket that opens at p, or NULL. */
static const char *group_at(const char *p)
{
	if (*p == '[')
		return group_end(p);
	if (*p && strchr("@!?*+", *p) && p[1] == '(')
		return group_end(p + 1);
	return NULL;
}

/* whether glob has a dot at its top level (outside groups) from p on */
static bool top_dot_from(const char *p)
{
	for (; *p; p++) {
		const char *e;

		if (*p == '\\' && p[1])
			p++;
		else if ((e = group_at(p)))
			p = e;
		else if (*p == '.')
			return true;
	}
	return false;
}

/*
 * The first extglob group at the top level of glob whose text holds a
 * dot (so it spans axes): where its "X(" starts, or NULL.  A group in
 * the last component of a glob of several spans nothing: that component
 * is matched whole against the axes left ("*.*.*.!(*.xattr64k)": the
 * cache and opts parts, whatever the opts).
 */
static const char *spanning_group(const char *glob, const char **end)
{
	bool dot_before = false;

	for (const char *p = glob; *p; p++) {
		const char *e;

		if (*p == '\\' && p[1]) {
			p++;
		} else if ((e = group_at(p))) {
			if (*p != '[' && memchr(p, '.', (size_t)(e - p)) &&
			    !(dot_before && !top_dot_from(e + 1))) {
				*end = e;
				return p;
			}
			p = e;
		} else if (*p == '.') {
			dot_before = true;
		}
	}
	return NULL;
}

/* glob, axis by axis against cell (no group in glob spans a dot) */
static bool axes_match(const char *glob, const char *cell)
{
	char *g = xstrdup(glob), *c = xstrdup(cell);
	char *gp = g, *cp = c, *gd, *cd;
	bool ok;

	for (;;) {
		/* the next top-level dot of the glob ends its component */
		for (gd = gp; *gd && *gd != '.'; gd++) {
			const char *e = group_at(gd);

			if (*gd == '\\' && gd[1])
				gd++;
			else if (e)
				gd = (char *)e;
		}
		if (!*gd) {
			/* the last component takes the axes left: "*" the opts too */
			ok = fnmatch(gp, cp, FNM_EXTMATCH) == 0;
			break;
		}
		cd = strchr(cp, '.');
		*gd = 0;
		if (!cd || (*cd = 0, fnmatch(gp, cp, FNM_EXTMATCH) != 0)) {
			ok = false;
			break;
		}
		gp = gd + 1;
		cp = cd + 1;
	}
	free(g);
	free(c);
	return ok;
}

/*
 * The next alternative of the group [g, end] of glob, spelled out as a
 * whole glob (the text before the group, the alternative, the text
 * after it), from *a on; *a moves past it.  NULL after the last one.
 */
static char *next_alternative(const char *glob, const char *g,
			      const char *end, const char **a)
{
	const char *b = *a;
	char *alt;
	int depth = 0;

	if (*a > end - 1)
		return NULL;
	while (b < end && (depth || *b != '|')) {
		if (*b == '(')
			depth++;
		else if (*b == ')')
			depth--;
		b++;
	}
	alt = xasprintf("%.*s%.*s%s", (int)(g - glob), glob, (int)(b - *a),
			*a, end + 1);
	*a = b + 1;
	return alt;
}

/*
 * A cell glob is matched axis by axis: each dot-separated component of
 * the glob matches one axis of the cell (kernel, server, access, cache),
 * and the last one takes the rest, so a trailing "*" takes the opts
 * part too.  A "*" inside a component never crosses a dot, so
 * "*.!(local-*).*.*" cannot take patched.local-tmpfs.client.none.smack
 * with its first "*" (fnmatch's "*" would eat "patched.local-tmpfs").
 * A group that holds dots is spelled out first: "@(a.b|c.d).*" is
 * "a.b.*" or "c.d.*", and "!(X|Y)" as a whole glob is "neither X nor
 * Y", each matched by axis.  expect_check_cell_glob() refuses the rest.
 */
static bool cell_matches(const char *glob, const char *cell)
{
	const char *end, *g = spanning_group(glob, &end), *a;
	bool any = false;
	char *alt;

	if (!g)
		return axes_match(glob, cell);
	for (a = g + 2; !any && (alt = next_alternative(glob, g, end, &a));) {
		any = cell_matches(alt, cell);
		free(alt);
	}
	return *g == '!' ? !any : any;
}

/* expect_judge_as(): kernel K's cells are judged as kernel AS's too */
static char **judged, **judged_as;
static size_t njudged;

void expect_judge_as(const char *kernel, const char *as)
{
	judged = xrealloc(judged, (njudged + 1) * sizeof(*judged));
	judged_as = xrealloc(judged_as, (njudged + 1) * sizeof(*judged_as));
	judged[njudged] = xstrdup(kernel);
	judged_as[njudged++] = xstrdup(as);
}

/* whether glob spells out kernel name k (not as part of a longer name) */
static bool names_kernel(const char *glob, const char *k)
{
	size_t n = strlen(k);

	for (const char *p = strstr(glob, k); p; p = strstr(p + 1, k)) {
		bool before = p > glob && (isalnum((unsigned char)p[-1]) || p[-1] == '-');
		bool after = isalnum((unsigned char)p[n]) || p[n] == '-';

		if (!before && !after)
			return true;
	}
	return false;
}

/*
 * A cell of a kernel judged as another (a distribution's image of the
 * source the rig builds) is matched as that other kernel's same cell,
 * unless the glob names the kernel itself: the lists' vanilla entries
 * judge Debian's 6.1, and an entry of its own says where it differs.
 * (Matching its own name as well would let "!(upstream*.local-tmpfs.*)"
 * take Debian's 6.12 where it does not take upstream.)
 */
bool expect_cell_matches(const char *glob, const char *cell)
{
	const char *dot = strchr(cell, '.');

	for (size_t i = 0; dot && i < njudged; i++) {
		char *as;
		bool hit;

		if (strlen(judged[i]) != (size_t)(dot - cell) ||
		    strncmp(judged[i], cell, (size_t)(dot - cell)) ||
		    names_kernel(glob, judged[i]))
			continue;
		as = xasprintf("%s%s", judged_as[i], dot);
		hit = cell_matches(glob, as);
		free(as);
		return hit;
	}
	return cell_matches(glob, cell);
}

/* NULL, or why a cell glob cannot be matched by axis */
const char *expect_check_cell_glob(const char *glob)
{
	const char *end, *g = spanning_group(glob, &end), *a, *why = NULL;
	char *alt;

	if (!g)
		return NULL;
	if (*g == '!' && (g != glob || end[1]))
		return "a !(...) group holding dots must be the whole cell glob";
	if (*g != '!' && *g != '@')
		return "only @(...) and !(...) groups may hold dots";
	/* the alternatives may hold more such groups */
	for (a = g + 2; !why && (alt = next_alternative(glob, g, end, &a));) {
		why = expect_check_cell_glob(alt);
		free(alt);
	}
	return why;
}

const struct expect_entry *expect_match(struct expect_list *l,
					const char *cell, const char *test)
{
	for (size_t i = 0; i < l->n; i++) {
		struct expect_entry *e = &l->v[i];
		/*
		 * FNM_EXTMATCH: "@(user|any|uid0)" names the access modes
		 * that share one mechanism in one entry, not one per mode.
		 */
		if (expect_cell_matches(e->cell_glob, cell) &&
		    fnmatch(e->test_glob, test, FNM_EXTMATCH) == 0) {
			e->used++;
			return e;
		}
	}
	return NULL;
}

const struct expect_entry *expect_match_diff(struct expect_list *l,
					     const char *config, const char *test,
					     const char *failing)
{
	for (size_t i = 0; i < l->n; i++) {
		struct expect_entry *e = &l->v[i];

		if (strcmp(e->fails, "either") &&
		    (!failing || strcmp(e->fails, failing)))
			continue;
		if (expect_cell_matches(e->cell_glob, config) &&
		    fnmatch(e->test_glob, test, FNM_EXTMATCH) == 0) {
			e->used++;
			return e;
		}
	}
	return NULL;
}

int expect_names(const struct expect_entry *e, const char *cell,
		 const char *test)
{
	return expect_cell_matches(e->cell_glob, cell) &&
	       fnmatch(e->test_glob, test, FNM_EXTMATCH) == 0;
}

int expect_cause_matches(const struct expect_entry *e, const char *line)
{
	for (size_t i = 0; i < e->ncauses; i++)
		if (fnmatch(e->causes[i], line, FNM_EXTMATCH) == 0)
			return 1;
	return 0;
}

int expect_cause_use(struct expect_entry *e, const char *line)
{
	for (size_t i = 0; i < e->ncauses; i++)
		if (fnmatch(e->causes[i], line, FNM_EXTMATCH) == 0) {
			e->cause_used[i]++;
			return 1;
		}
	return 0;
}

int expect_withs_match(const struct expect_entry *e, const char *const *lines,
		       size_t n)
{
	for (size_t i = 0; i < e->nwiths; i++) {
		size_t k = 0;
		while (k < n && fnmatch(e->withs[i], lines[k], FNM_EXTMATCH) != 0)
			k++;
		if (k == n)
			return 0;
	}
	return 1;
}
