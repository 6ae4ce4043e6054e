/* Small helpers shared by every part of acl9p-report: allocation that
 * dies on OOM (a results tool has nothing sensible to do without memory),
 * a growable string, line reading that copes with CRs and NULs. */
#ifndef ACL9P_REPORT_UTIL_H
#define ACL9P_REPORT_UTIL_H

#include <stddef.h>
#include <stdio.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *arr (of *cap elements of size sz) so that index n fits. */
void grow(void *arr, size_t *cap, size_t n, size_t sz);

struct strbuf {
	char *s;
	size_t len, cap;
};
void sb_add(struct strbuf *sb, const char *s);
void sb_addn(struct strbuf *sb, const char *s, size_t n);
void sb_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *sb_take(struct strbuf *sb); /* returns "" (owned) when empty */

/* Read one line into *buf (getline-managed), cleaned for parsing: trailing
 * CR/LF/blanks removed, NULs and control bytes shown as '?', inner CRs
 * kept.  Returns a pointer into *buf, or NULL at EOF. */
char *read_raw_line(FILE *f, char **buf, size_t *cap);
/* The text after the last CR of s (that is what a terminal showed). */
char *cut_at_cr(char *s);
/* read_raw_line + cut_at_cr, for files without nesting. */
char *read_clean_line(FILE *f, char **buf, size_t *cap);
/* The next line of a list file (expected lists, manifest, cells list):
 * read_clean_line, trimmed, blank and "#" lines skipped; *lineno counts
 * every line read.  NULL at the end. */
char *next_list_line(FILE *f, char **buf, size_t *cap, int *lineno);

/* path relative to the current directory when it lies below it, else
 * a copy: reports then read the same however the tool was called. */
char *rel_path(const char *path);

char *trim(char *s);                 /* in place, both ends */
const char *skip_ws(const char *s);
int starts_with(const char *s, const char *prefix);
int word_is(const char *s, const char *word); /* case-insensitive word prefix */

#endif
