// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p-p9trace: count the 9P requests in QEMU's trace log of its 9p
 * server (-trace 'v9fs_*' -D FILE), slice by slice.
 *
 *   acl9p-p9trace TRACE-LOG
 *   acl9p-p9trace --marks KTAP TRACE-LOG
 *   acl9p-p9trace --marks KTAP --proxy-counts COUNTS
 *
 * The guest separates what it wants counted by markers (guest/wire.sh
 * in make wire, every test of the suite in a check run: tests/lib/
 * mark.c): a Tsetattr (9P2000.u: a Twstat) whose mtime is MARK_EPOCH
 * + N seconds, a time no operation sets.  Marker N opens slice N and is
 * not counted itself;
 * requests before the first marker (the mount) are slice 0.  A marker
 * out of order (N not one more than the last) is an error: a lost or
 * doubled marker would shift every later slice.
 *
 * Output, one line per slice and request type, in slice order:
 *	SLICE<TAB>TYPE<TAB>COUNT
 * TYPE is the trace event's name without "v9fs_" (walk, getattr,
 * xattrwalk, ...).  Only request types QEMU has trace events for are
 * seen (Tstatfs, Tunlinkat and Trenameat have none in QEMU 7.2).
 *
 * A line that is not a v9fs_ event is ignored (the log also carries
 * QEMU's other messages); a v9fs_ line without a tag is a parse error:
 * reported on stderr with its line number, exit 1, nothing printed.  A
 * marker out of order is found while printing: exit 1 after the slices
 * before it (scripts/wire.sh then takes the cell as having no counts).
 *
 * --marks KTAP: the slices by the tests that opened them, for a check
 * run's traffic.tsv (scripts/boot.sh).  The guest's "# acl9p-mark N
 * TEST" lines, anywhere in KTAP (the results port, a test's output
 * indented), name slice N; slice 0 is "(unmarked)".  A test that runs
 * for a time rather than a count (a race window) says so on a line
 * "# acl9p-mark timed TEST" (tests/lib/mark.c).  Output:
 *	# acl9p-traffic source=qemu-trace|ninep-proxy marks=K
 *	# timed TEST          (one per timed test)
 *	TEST<TAB>TYPE<TAB>COUNT
 * All or nothing: mark lines that are not 1..K in order, a test that
 * sent no marker ("none"), markers in the trace that are not the K of
 * the mark lines, or any error above print nothing but the reason on
 * stderr, exit 1; a cell's traffic is whole or absent.
 *
 * --proxy-counts COUNTS: the slices are ninep-proxy's buckets instead
 * (server/ninep-proxy: "LABEL<TAB>Tname<TAB>N" lines, each connection's
 * buckets appended to one file).  Its wire marker begins the bucket
 * "N" as a marker opens slice N here; "-" is the first bucket of every
 * connection, so besides the mount it holds the whole traffic of the
 * connections that see no marker (the second mount, acl9p_faults' own):
 * "(unmarked)".  A bucket named by a test's acl9p-mark=LABEL walk keeps
 * its LABEL.  TYPE is the message's name without "T", lower case
 * (QEMU's trace names Tlopen "open": compare a server with itself).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/acl9p.h"

#define MAX_TYPES 64
#define NAME_MAX_LEN 32
#define MARK_EPOCH A9_MARK_EPOCH
#define MARK_MAX 100000L
#define TEST_MAX_LEN 512
#define UNMARKED "(unmarked)"

struct event {
	char type[NAME_MAX_LEN];	/* without "v9fs_" */
	long tag;
	long marker;			/* N of a marker setattr, else 0 */
};

/* Request counts per slice; a row per slice, a column per type. */
struct slices {
	char types[MAX_TYPES][NAME_MAX_LEN];
	int ntypes;
	long (*count)[MAX_TYPES];
	long n, cap;			/* slices 0..n-1 */
	/* ninep-proxy: buckets named by a test's walk, in order seen */
	char (*labels)[TEST_MAX_LEN];
	long (*lcount)[MAX_TYPES];
	long nlabels;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		perror("acl9p-p9trace");
		exit(2);
	}
	return p;
}

static void slices_grow(struct slices *s, long n)
{
	if (n <= s->n)
		return;
	if (n > s->cap) {
		long cap = s->cap ? 2 * s->cap : 64;

		while (cap < n)
			cap *= 2;
		s->count = xrealloc(s->count, (size_t)cap * sizeof(*s->count));
		s->cap = cap;
	}
	memset(s->count + s->n, 0, (size_t)(n - s->n) * sizeof(*s->count));
	s->n = n;
}

/* Column of TYPE (added when new); -1 when the table is full. */
static int type_col(struct slices *s, const char *type)
{
	int t;

	for (t = 0; t < s->ntypes && strcmp(s->types[t], type); t++)
		;
	if (t == s->ntypes) {
		if (s->ntypes == MAX_TYPES) {
			fprintf(stderr, "acl9p-p9trace: more than %d request types\n",
				MAX_TYPES);
			return -1;
		}
		snprintf(s->types[s->ntypes++], NAME_MAX_LEN, "%s", type);
	}
	return t;
}

static int is_reply(const char *type)
{
	size_t n = strlen(type);

	return !strcmp(type, "rerror") || !strcmp(type, "rcancel") ||
	       (n > 7 && !strcmp(type + n - 7, "_return"));
}

/*
 * "... tag 3 id 110 ..." -> 3 for key "tag" and sep ' ';
 * "... mtime=5 }" -> 5 for key "mtime" and sep '='; -1 when absent
 */
static long field(const char *s, const char *key, char sep)
{
	size_t k = strlen(key);
	const char *p = s;
	char *end;
	long v;

	while ((p = strstr(p, key))) {
		if ((p == s || p[-1] == ' ' || p[-1] == '{') && p[k] == sep) {
			errno = 0;
			v = strtol(p + k + 1, &end, 10);
			if (!errno && end != p + k + 1)
				return v;
		}
		p += k;
	}
	return -1;
}

static int parse_line(const char *line, struct event *e)
{
	const char *p = strstr(line, "v9fs_");
	size_t n;

	if (!p || (p != line && p[-1] != ':' && p[-1] != ' '))
		return 0;
	p += 5;
	n = strcspn(p, " \n");
	if (n == 0 || n >= NAME_MAX_LEN)
		return -1;
	memcpy(e->type, p, n);
	e->type[n] = '\0';
	e->tag = field(p + n, "tag", ' ');
	e->marker = 0;
	/*
	 * 9P2000.L sets the marker's mtime with Tsetattr ("mtime=N"),
	 * 9P2000.u with Twstat ("stat={... mtime N}").
	 */
	if (!strcmp(e->type, "setattr") || !strcmp(e->type, "wstat")) {
		long t = field(p + n, "mtime", e->type[0] == 's' ? '=' : ' ');

		if (t > MARK_EPOCH && t < MARK_EPOCH + MARK_MAX)
			e->marker = t - MARK_EPOCH;
	}
	return e->tag < 0 ? -1 : 1;
}

/*
 * QEMU's trace into s.  0; 1 after a marker out of order, s then
 * holding the slices before it; 2 after a parse error (stderr says
 * which).
 */
static int read_trace(const char *path, struct slices *s)
{
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	int rc = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "acl9p-p9trace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	slices_grow(s, 1);
	while (getline(&line, &cap, f) > 0) {
		struct event e;
		int r = parse_line(line, &e), t;

		lineno++;
		if (r < 0) {
			fprintf(stderr, "acl9p-p9trace: %s:%ld: not a v9fs event: %s",
				path, lineno, line);
			rc = 2;
			break;
		}
		if (r == 0)
			continue;
		if (e.marker) {
			if (e.marker != s->n) {
				fprintf(stderr, "acl9p-p9trace: marker %ld after slice %ld\n",
					e.marker, s->n - 1);
				rc = 1;
				break;
			}
			slices_grow(s, s->n + 1);
			continue;
		}
		if (is_reply(e.type))
			continue;
		if ((t = type_col(s, e.type)) < 0) {
			rc = 2;
			break;
		}
		s->count[s->n - 1][t]++;
	}
	free(line);
	fclose(f);
	return rc;
}

/*
 * ninep-proxy's counts file into s: bucket "-" is slice 0, "N" slice N,
 * any other label a row of s->lcount (named in s->labels).  0, or 1
 * after a line that is not "LABEL<TAB>Tname<TAB>N".
 */
static int read_proxy_counts(const char *path, struct slices *s)
{
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	int rc = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "acl9p-p9trace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	slices_grow(s, 1);
	while (getline(&line, &cap, f) > 0) {
		char *label = line, *type, *num, *end;
		char name[NAME_MAX_LEN] = "";
		long slice = -1, n, (*row)[MAX_TYPES];
		int t;

		lineno++;
		line[strcspn(line, "\n")] = 0;
		type = strchr(label, '\t');
		num = type ? strchr(type + 1, '\t') : NULL;
		if (!num || type[1] != 'T' || num - type - 2 <= 0 ||
		    num - type - 2 >= NAME_MAX_LEN || !isdigit((unsigned char)num[1])) {
			fprintf(stderr, "acl9p-p9trace: %s:%ld: not LABEL<TAB>Tname<TAB>N: %s\n",
				path, lineno, line);
			rc = 1;
			break;
		}
		*type++ = 0;
		*num++ = 0;
		errno = 0;
		n = strtol(num, &end, 10);
		if (errno || *end) {
			fprintf(stderr, "acl9p-p9trace: %s:%ld: bad count '%s'\n",
				path, lineno, num);
			rc = 1;
			break;
		}
		for (size_t i = 0; type[i + 1] && i + 1 < sizeof(name); i++) {
			name[i] = (char)tolower((unsigned char)type[i + 1]);
			name[i + 1] = 0;
		}
		if (!strcmp(label, "-"))
			slice = 0;
		else if (label[0] && strspn(label, "0123456789") == strlen(label) &&
			 strlen(label) < 7)
			slice = atol(label);
		if (slice >= 0 && slice < MARK_MAX) {
			slices_grow(s, slice + 1);
			row = &s->count[slice];
		} else {
			long i;

			for (i = 0; i < s->nlabels && strcmp(s->labels[i], label); i++)
				;
			if (i == s->nlabels) {
				s->labels = xrealloc(s->labels,
						     (size_t)(i + 1) * sizeof(*s->labels));
				s->lcount = xrealloc(s->lcount,
						     (size_t)(i + 1) * sizeof(*s->lcount));
				snprintf(s->labels[i], TEST_MAX_LEN, "%s", label);
				memset(s->lcount[i], 0, sizeof(s->lcount[i]));
				s->nlabels++;
			}
			row = &s->lcount[i];
		}
		if ((t = type_col(s, name)) < 0) {
			rc = 1;
			break;
		}
		(*row)[t] += n;
	}
	free(line);
	fclose(f);
	return rc;
}

/*
 * The guest's mark lines: names[N] for N = 1..*k, timed[N] 1 when the
 * test said it is timed.  0, or 1 (stderr says why) when they are not
 * 1..K in order or a test sent none.
 */
static int read_marks(const char *path, char (**names)[TEST_MAX_LEN],
		      char **timed, long *k)
{
	static const char tag[] = "# acl9p-mark ";
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	int rc = 0;
	FILE *f = fopen(path, "r");

	*names = NULL;
	*timed = NULL;
	*k = 0;
	if (!f) {
		fprintf(stderr, "acl9p-p9trace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	while (getline(&line, &cap, f) > 0) {
		char *p = strstr(line, tag), *end;
		size_t len;
		long n;

		lineno++;
		if (!p)
			continue;
		p += sizeof(tag) - 1;
		if (!strncmp(p, "none ", 5)) {
			fprintf(stderr, "acl9p-p9trace: %s:%ld: a test sent no marker: %s",
				path, lineno, p + 5);
			rc = 1;
			break;
		}
		if (!strncmp(p, "timed ", 6)) {
			len = strcspn(p + 6, " \t\r\n");
			/* the test it names is the last marked one */
			if (!*k || strlen((*names)[*k]) != len ||
			    strncmp((*names)[*k], p + 6, len)) {
				fprintf(stderr, "acl9p-p9trace: %s:%ld: timed, but not the test of mark %ld: %s",
					path, lineno, *k, line);
				rc = 1;
				break;
			}
			(*timed)[*k] = 1;
			continue;
		}
		errno = 0;
		n = strtol(p, &end, 10);
		len = *end == ' ' ? strcspn(end + 1, " \t\r\n") : 0;
		if (errno || end == p || !len || len >= TEST_MAX_LEN) {
			fprintf(stderr, "acl9p-p9trace: %s:%ld: not a mark line: %s",
				path, lineno, line);
			rc = 1;
			break;
		}
		if (n != *k + 1) {
			fprintf(stderr, "acl9p-p9trace: %s:%ld: mark %ld after mark %ld\n",
				path, lineno, n, *k);
			rc = 1;
			break;
		}
		*names = xrealloc(*names, (size_t)(n + 1) * sizeof(**names));
		*timed = xrealloc(*timed, (size_t)(n + 1));
		memcpy((*names)[n], end + 1, len);
		(*names)[n][len] = 0;
		(*timed)[n] = 0;
		*k = n;
	}
	free(line);
	fclose(f);
	return rc;
}

/* One slice's lines: named NAME, else by its number SLICE. */
static void print_row(const struct slices *s, const long *count, long slice,
		      const char *name)
{
	for (int t = 0; t < s->ntypes; t++) {
		if (!count[t])
			continue;
		if (name)
			printf("%s\t%s\t%ld\n", name, s->types[t], count[t]);
		else
			printf("%ld\t%s\t%ld\n", slice, s->types[t], count[t]);
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: acl9p-p9trace TRACE-LOG\n"
		"       acl9p-p9trace --marks KTAP TRACE-LOG\n"
		"       acl9p-p9trace --marks KTAP --proxy-counts COUNTS\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct slices s = { .n = 0 };
	char (*names)[TEST_MAX_LEN] = NULL, *timed = NULL;
	const char *marks = NULL, *proxy = NULL, *trace = NULL;
	long k = 0;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--marks") && i + 1 < argc)
			marks = argv[++i];
		else if (!strcmp(argv[i], "--proxy-counts") && i + 1 < argc)
			proxy = argv[++i];
		else if (argv[i][0] != '-' && !trace)
			trace = argv[i];
		else
			return usage();
	}
	if (!trace == !proxy || (proxy && !marks))
		return usage();

	if (!marks) {
		rc = read_trace(trace, &s);
		if (rc != 2)
			for (long i = 0; i < s.n; i++)
				print_row(&s, s.count[i], i, NULL);
		free(s.count);
		return rc ? 1 : 0;
	}

	rc = proxy ? read_proxy_counts(proxy, &s) : read_trace(trace, &s);
	if (!rc)
		rc = read_marks(marks, &names, &timed, &k);
	/*
	 * QEMU's trace shows every marker, so slices 1..K must be those
	 * of the K mark lines.  The proxy's counts show a bucket only when
	 * a request followed its marker: none past K, then.
	 */
	if (!rc && (proxy ? s.n - 1 > k : s.n - 1 != k)) {
		fprintf(stderr, "acl9p-p9trace: %ld markers in %s, %ld mark lines in %s\n",
			s.n - 1, proxy ? proxy : trace, k, marks);
		rc = 1;
	}
	if (!rc) {
		printf("# acl9p-traffic source=%s marks=%ld\n",
		       proxy ? "ninep-proxy" : "qemu-trace", k);
		for (long i = 1; i <= k; i++)
			if (timed[i])
				printf("# timed %s\n", names[i]);
		for (long i = 0; i < s.n; i++)
			print_row(&s, s.count[i], i, i ? names[i] : UNMARKED);
		for (long i = 0; i < s.nlabels; i++)
			print_row(&s, s.lcount[i], 0, s.labels[i]);
	}
	free(names);
	free(timed);
	free(s.labels);
	free(s.lcount);
	free(s.count);
	return rc ? 1 : 0;
}
