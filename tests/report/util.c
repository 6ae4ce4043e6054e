#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static void oom(void)
{
	fputs("acl9p-report: out of memory\n", stderr);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	char *p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void grow(void *arr, size_t *cap, size_t n, size_t sz)
{
	void **a = arr;
	if (n < *cap)
		return;
	size_t nc = *cap ? *cap * 2 : 8;
	while (nc <= n)
		nc *= 2;
	*a = xrealloc(*a, nc * sz);
	memset((char *)*a + *cap * sz, 0, (nc - *cap) * sz);
	*cap = nc;
}

void sb_addn(struct strbuf *sb, const char *s, size_t n)
{
	if (sb->len + n + 1 > sb->cap) {
		size_t nc = sb->cap ? sb->cap * 2 : 64;
		while (nc < sb->len + n + 1)
			nc *= 2;
		sb->s = xrealloc(sb->s, nc);
		sb->cap = nc;
	}
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = 0;
}

void sb_add(struct strbuf *sb, const char *s)
{
	sb_addn(sb, s, strlen(s));
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	char *tmp = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(tmp, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb_addn(sb, tmp, (size_t)n);
	free(tmp);
}

char *sb_take(struct strbuf *sb)
{
	char *s = sb->s ? sb->s : xstrdup("");
	sb->s = NULL;
	sb->len = sb->cap = 0;
	return s;
}

char *read_raw_line(FILE *f, char **buf, size_t *cap)
{
	ssize_t n = getline(buf, cap, f);
	if (n < 0)
		return NULL;
	char *s = *buf;
	/* A NUL from a half-written console buffer must not cut the line
	 * short silently; make it visible instead. */
	for (ssize_t i = 0; i < n; i++)
		if (s[i] == 0)
			s[i] = '?';
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' ||
			 s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
	/* Other control bytes (escape sequences, stray ^A) would garble the
	 * terminal and the reports; show them as '?'.  CRs stay for
	 * cut_at_cr: where the cut goes depends on the nesting. */
	for (char *q = s; *q; q++)
		if ((unsigned char)*q < 0x20 && *q != '\t' && *q != '\r')
			*q = '?';
		else if (*q == 0x7f)
			*q = '?';
	return s;
}

char *cut_at_cr(char *s)
{
	char *cr = strrchr(s, '\r');
	return cr ? cr + 1 : s;
}

char *read_clean_line(FILE *f, char **buf, size_t *cap)
{
	char *s = read_raw_line(f, buf, cap);
	return s ? cut_at_cr(s) : NULL;
}

/* The rest of path below dir ("." for dir itself), or NULL. */
static const char *below(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 1 && dir[0] == '/')
		n = 0; /* everything is below "/" */
	if (strncmp(path, dir, n) || (path[n] && path[n] != '/'))
		return NULL;
	path += n;
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

static char *cwd(void)
{
	size_t n = 256;
	for (;;) {
		char *b = xmalloc(n);
		if (getcwd(b, n))
			return b;
		free(b);
		if (errno != ERANGE)
			return NULL;
		n *= 2;
	}
}

/* $PWD, when it names the current directory: the shell's spelling of it
 * (through symlinks) is what paths given on the command line use. */
static const char *logical_cwd(void)
{
	const char *pwd = getenv("PWD");
	struct stat a, b;
	if (!pwd || pwd[0] != '/' || stat(pwd, &a) || stat(".", &b))
		return NULL;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino ? pwd : NULL;
}

char *rel_path(const char *path)
{
	if (path[0] != '/')
		return xstrdup(path); /* relative to the cwd already */
	const char *pwd = logical_cwd(), *rest = pwd ? below(path, pwd) : NULL;
	if (rest)
		return xstrdup(rest);
	char *dir = cwd();
	rest = dir ? below(path, dir) : NULL;
	char *r = xstrdup(rest ? rest : path);
	free(dir);
	return r;
}

char *trim(char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int word_is(const char *s, const char *word)
{
	size_t n = strlen(word);
	return strncasecmp(s, word, n) == 0 && !isalnum((unsigned char)s[n]) &&
	       s[n] != '_';
}

char *next_list_line(FILE *f, char **buf, size_t *cap, int *lineno)
{
	char *line;
	while ((line = read_clean_line(f, buf, cap))) {
		++*lineno;
		line = trim(line);
		if (*line && *line != '#')
			return line;
	}
	return NULL;
}
