/* The fid table of one connection: see fids.h. */
#include "fids.h"

#include <stdlib.h>
#include <string.h>

int fids_init(struct fids *t)
{
	t->nbuckets = 4096;
	t->count = 0;
	t->bucket = calloc(t->nbuckets, sizeof(*t->bucket));
	return t->bucket ? 0 : -1;
}

static size_t slot(const struct fids *t, uint32_t num)
{
	/* fids are small consecutive numbers (Linux allocates them from an
	 * IDR), so their low bits spread them well enough */
	return (num ^ num >> 12) % t->nbuckets;
}

struct fid *fids_get(struct fids *t, uint32_t num)
{
	for (struct fid *f = t->bucket[slot(t, num)]; f; f = f->next)
		if (f->num == num)
			return f;
	return NULL;
}

struct fid *fids_set(struct fids *t, uint32_t num, const char *path,
		     size_t rootlen)
{
	struct fid *f = fids_get(t, num);
	char *copy = strdup(path);

	if (!copy)
		return NULL;
	if (!f) {
		if (t->count >= FIDS_MAX || !(f = calloc(1, sizeof(*f)))) {
			free(copy);
			return NULL;
		}
		f->num = num;
		f->next = t->bucket[slot(t, num)];
		t->bucket[slot(t, num)] = f;
		t->count++;
	}
	free(f->path);
	fuzz_end(f->fuzz);
	f->fuzz = NULL;
	f->path = copy;
	f->rootlen = rootlen < strlen(copy) ? rootlen : strlen(copy);
	f->role = XR_NONE;
	f->aclname = NULL;
	memset(&f->view, 0, sizeof(f->view));
	return f;
}

void fids_forget(struct fids *t, uint32_t num)
{
	struct fid **pp = &t->bucket[slot(t, num)];

	for (; *pp; pp = &(*pp)->next) {
		struct fid *f = *pp;

		if (f->num != num)
			continue;
		*pp = f->next;
		fuzz_end(f->fuzz);
		free(f->path);
		free(f);
		t->count--;
		return;
	}
}

void fids_clear(struct fids *t)
{
	for (size_t i = 0; i < t->nbuckets; i++) {
		while (t->bucket[i]) {
			struct fid *f = t->bucket[i];

			t->bucket[i] = f->next;
			fuzz_end(f->fuzz);
			free(f->path);
			free(f);
		}
	}
	t->count = 0;
}

void fids_free(struct fids *t)
{
	if (!t->bucket)
		return;
	fids_clear(t);
	free(t->bucket);
	t->bucket = NULL;
}

void path_join(char *out, const char *base, size_t rootlen, const char *name,
	       size_t namelen)
{
	size_t n = strlen(base);

	if (n > PATH_CAP - 1)
		n = PATH_CAP - 1;
	memmove(out, base, n);
	out[n] = '\0';
	if (namelen == 1 && name[0] == '.')
		return;
	if (namelen == 2 && name[0] == '.' && name[1] == '.') {
		char *slash = strrchr(out, '/');

		if (slash && (size_t)(slash - out) >= rootlen)
			*slash = '\0';
		return;
	}
	if (n < PATH_CAP - 1 && (n == 0 || out[n - 1] != '/'))
		out[n++] = '/';
	/* the log is one line per event: no control bytes from a name */
	for (size_t i = 0; i < namelen && n < PATH_CAP - 1; i++) {
		unsigned char c = (unsigned char)name[i];

		out[n++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	out[n] = '\0';
}
