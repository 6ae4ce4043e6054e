/* FNM_EXTMATCH, a GNU extension of fnmatch(3): TESTS='@(a|b)' */
#define _GNU_SOURCE
#include "manifest.h"
#include "util.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_bin(const void *a, const void *b)
{
	const struct manifest_binary *x = a, *y = b;
	return strcmp(x->name, y->name);
}

/* The binary lines name, appended when new.  Lines of one binary come
 * together (manifest.sh writes them so), so the last one is the usual
 * hit; the others are few (one per test binary). */
static struct manifest_binary *binary_of(struct manifest *m, const char *name)
{
	for (size_t i = m->n; i-- > 0;)
		if (!strcmp(m->v[i].name, name))
			return &m->v[i];
	grow(&m->v, &m->cap, m->n, sizeof(*m->v));
	struct manifest_binary *b = &m->v[m->n++];
	memset(b, 0, sizeof(*b));
	b->name = xstrdup(name);
	return b;
}

/* A test listed twice would be owed twice; that is a broken manifest,
 * not something to count. */
static int index_tests(struct manifest *m)
{
	for (size_t i = 0; i < m->n; i++) {
		struct manifest_binary *b = &m->v[i];
		b->sorted = xcalloc(b->n + 1, sizeof(*b->sorted));
		memcpy(b->sorted, b->tests, b->n * sizeof(*b->sorted));
		qsort(b->sorted, b->n, sizeof(*b->sorted), cmp_str);
		for (size_t j = 1; j < b->n; j++) {
			if (!strcmp(b->sorted[j - 1], b->sorted[j])) {
				fprintf(stderr, "acl9p-report: %s: %s %s listed twice\n",
					m->path, b->name, b->sorted[j]);
				return -1;
			}
		}
	}
	return 0;
}

/* The guest init's selection (guest/init.c is_selected): fnmatch(3)
 * without flags over the name without its prefix. */
static int selected(const char *name, const char *glob)
{
	if (!glob || !*glob)
		return 1;
	if (starts_with(name, "acl9p_"))
		name += strlen("acl9p_");
	return fnmatch(glob, name, FNM_EXTMATCH) == 0;
}

int manifest_load(const char *path, const char *tests_glob, struct manifest *m)
{
	memset(m, 0, sizeof(*m));
	m->path = rel_path(path);
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "acl9p-report: --manifest %s: %s\n", m->path,
			strerror(errno));
		manifest_free(m);
		return -1;
	}
	char *buf = NULL, *line;
	size_t cap = 0, ntests = 0;
	int lineno = 0, rc = 0;
	while ((line = next_list_line(f, &buf, &cap, &lineno))) {
		char *sp = line + strcspn(line, " \t");
		char *test = *sp ? (char *)skip_ws(sp) : sp;
		if (*sp)
			*sp = 0;
		if (!*test || test[strcspn(test, " \t")]) {
			fprintf(stderr, "acl9p-report: %s:%d: format error: expected "
				"'<binary> <test>'\n", m->path, lineno);
			rc = -1;
			break;
		}
		struct manifest_binary *b = binary_of(m, line);
		grow(&b->tests, &b->cap, b->n, sizeof(*b->tests));
		b->tests[b->n++] = xstrdup(test);
		ntests++;
	}
	free(buf);
	fclose(f);
	/* An empty manifest would make every cell trivially complete. */
	if (rc == 0 && ntests == 0) {
		fprintf(stderr, "acl9p-report: --manifest %s lists no test\n", m->path);
		rc = -1;
	}
	if (rc == 0) {
		qsort(m->v, m->n, sizeof(*m->v), cmp_bin);
		rc = index_tests(m);
	}
	if (rc) {
		manifest_free(m);
		return -1;
	}
	for (size_t i = 0; i < m->n; i++) {
		m->v[i].selected = selected(m->v[i].name, tests_glob);
		m->nselected += m->v[i].selected;
	}
	return 0;
}

void manifest_free(struct manifest *m)
{
	for (size_t i = 0; i < m->n; i++) {
		struct manifest_binary *b = &m->v[i];
		for (size_t j = 0; j < b->n; j++)
			free(b->tests[j]);
		free(b->tests);
		free(b->sorted);
		free(b->name);
	}
	free(m->v);
	free(m->path);
	memset(m, 0, sizeof(*m));
}

const struct manifest_binary *manifest_binary(const struct manifest *m,
					      const char *name)
{
	struct manifest_binary key = { .name = (char *)name };
	return m->n ? bsearch(&key, m->v, m->n, sizeof(*m->v), cmp_bin) : NULL;
}

int manifest_has(const struct manifest_binary *b, const char *test)
{
	return b->n && bsearch(&test, b->sorted, b->n, sizeof(*b->sorted),
			       cmp_str) != NULL;
}

const struct manifest_binary *manifest_selected(const struct manifest *m,
						long k)
{
	for (size_t i = 0; i < m->n && k > 0; i++)
		if (m->v[i].selected && --k == 0)
			return &m->v[i];
	return NULL;
}
