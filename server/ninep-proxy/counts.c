/* Per-bucket T-message counts: see counts.h. */
#include "counts.h"
#include "p9frame.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void counts_init(struct counts *c, int fd)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	strcpy(c->label, "-");
}

void counts_add(struct counts *c, uint8_t type)
{
	c->n[type]++;
}

int counts_flush(struct counts *c)
{
	/* 28 T types, each line below 200 bytes */
	char buf[32 * 200];
	size_t len = 0;
	int rc = 0;

	for (int t = 0; t < 256; t++) {
		const char *name = p9_type_name((uint8_t)t);
		int k;

		if (!c->n[t] || !name)
			continue;
		k = snprintf(buf + len, sizeof(buf) - len, "%s\t%s\t%llu\n",
			     c->label, name, (unsigned long long)c->n[t]);
		if (k < 0 || (size_t)k >= sizeof(buf) - len)
			break;
		len += (size_t)k;
	}
	memset(c->n, 0, sizeof(c->n));
	if (c->fd >= 0 && len) {
		ssize_t w;

		do
			w = write(c->fd, buf, len);
		while (w < 0 && errno == EINTR);
		rc = w == (ssize_t)len ? 0 : -1;
	}
	return rc;
}

int counts_mark(struct counts *c, const char *label)
{
	int rc = counts_flush(c);

	snprintf(c->label, sizeof(c->label), "%s", label);
	return rc;
}

int counts_label_ok(const char *label, unsigned long len)
{
	if (len == 0 || len > LABEL_MAX)
		return 0;
	for (unsigned long i = 0; i < len; i++)
		if (label[i] <= ' ' || label[i] > '~')
			return 0;
	return 1;
}
