// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p-p9trace: count the 9P requests in QEMU's trace log of its 9p
 * server (-trace 'v9fs_*' -D FILE), slice by slice.
 *
 * The guest separates the operations it wants counted by markers
 * (guest/wire.sh): a Tsetattr whose mtime is MARK_EPOCH + N seconds, a
 * time no operation sets.  Marker N opens slice N and is not counted
 * itself; requests before the first marker (the mount) are slice 0.  A
 * marker out of order (N not one more than the last) is an error: a
 * lost or doubled marker would shift every later slice.
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
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TYPES 64
#define NAME_MAX_LEN 32
#define MARK_EPOCH 1000000000L	/* guest/wire.sh */
#define MARK_MAX 100000L

struct event {
	char type[NAME_MAX_LEN];	/* without "v9fs_" */
	long tag;
	long marker;			/* N of a marker setattr, else 0 */
};

struct events {
	struct event *v;
	size_t n, cap;
};

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
	if (!strcmp(e->type, "setattr")) {
		long t = field(p + n, "mtime", '=');

		if (t > MARK_EPOCH && t < MARK_EPOCH + MARK_MAX)
			e->marker = t - MARK_EPOCH;
	}
	return e->tag < 0 ? -1 : 1;
}

static void push(struct events *ev, const struct event *e)
{
	if (ev->n == ev->cap) {
		ev->cap = ev->cap ? 2 * ev->cap : 1024;
		ev->v = realloc(ev->v, ev->cap * sizeof(*ev->v));
		if (!ev->v) {
			perror("acl9p-p9trace");
			exit(2);
		}
	}
	ev->v[ev->n++] = *e;
}

static void print_slice(int slice, char types[][NAME_MAX_LEN],
			const long *count, int ntypes)
{
	for (int t = 0; t < ntypes; t++)
		if (count[t])
			printf("%d\t%s\t%ld\n", slice, types[t], count[t]);
}

int main(int argc, char **argv)
{
	struct events ev = { 0 };
	char types[MAX_TYPES][NAME_MAX_LEN];
	long count[MAX_TYPES] = { 0 };
	int ntypes = 0, slice = 0;
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: acl9p-p9trace TRACE-LOG\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		fprintf(stderr, "acl9p-p9trace: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	while (getline(&line, &cap, f) > 0) {
		struct event e;
		int r = parse_line(line, &e);

		lineno++;
		if (r < 0) {
			fprintf(stderr, "acl9p-p9trace: %s:%ld: not a v9fs event: %s",
				argv[1], lineno, line);
			return 1;
		}
		if (r > 0)
			push(&ev, &e);
	}
	free(line);
	fclose(f);

	for (size_t i = 0; i < ev.n; i++) {
		const struct event *e = &ev.v[i];
		int t;

		if (e->marker) {
			if (e->marker != slice + 1) {
				fprintf(stderr, "acl9p-p9trace: marker %ld after slice %d\n",
					e->marker, slice);
				return 1;
			}
			print_slice(slice, types, count, ntypes);
			memset(count, 0, sizeof(count));
			slice++;
			continue;
		}
		if (is_reply(e->type))
			continue;
		for (t = 0; t < ntypes && strcmp(types[t], e->type); t++)
			;
		if (t == ntypes) {
			if (ntypes == MAX_TYPES) {
				fprintf(stderr, "acl9p-p9trace: more than %d request types\n",
					MAX_TYPES);
				return 1;
			}
			strcpy(types[ntypes++], e->type);
		}
		count[t]++;
	}
	print_slice(slice, types, count, ntypes);
	free(ev.v);
	return 0;
}
