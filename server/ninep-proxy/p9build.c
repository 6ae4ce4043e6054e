/* 9P frame builder: see p9build.h. */
#include "p9build.h"
#include "p9frame.h"

#include <string.h>

static uint8_t *room(struct p9b *b, size_t n)
{
	uint8_t *p;

	if (b->overflow || n > b->cap - b->len) {
		b->overflow = 1;
		return NULL;
	}
	p = b->buf + b->len;
	b->len += n;
	return p;
}

void p9b_begin(struct p9b *b, uint8_t *buf, size_t cap, uint8_t type,
	       uint16_t tag)
{
	b->buf = buf;
	b->cap = cap;
	b->len = 0;
	b->overflow = 0;
	p9b_u32(b, 0);	/* the size, written by p9b_end */
	p9b_u8(b, type);
	p9b_u16(b, tag);
}

void p9b_u8(struct p9b *b, uint8_t v)
{
	uint8_t *p = room(b, 1);

	if (p)
		*p = v;
}

void p9b_u16(struct p9b *b, uint16_t v)
{
	uint8_t *p = room(b, 2);

	if (p)
		p9_put16(p, v);
}

void p9b_u32(struct p9b *b, uint32_t v)
{
	uint8_t *p = room(b, 4);

	if (p)
		p9_put32(p, v);
}

void p9b_u64(struct p9b *b, uint64_t v)
{
	uint8_t *p = room(b, 8);

	if (p)
		p9_put64(p, v);
}

void p9b_mem(struct p9b *b, const void *src, size_t n)
{
	uint8_t *p = room(b, n);

	if (p && n)
		memcpy(p, src, n);
}

void p9b_str(struct p9b *b, const char *s)
{
	size_t n = strlen(s);

	if (n > UINT16_MAX) {
		b->overflow = 1;
		return;
	}
	p9b_u16(b, (uint16_t)n);
	p9b_mem(b, s, n);
}

size_t p9b_end(struct p9b *b)
{
	if (b->overflow || b->len > UINT32_MAX)
		return 0;
	p9_put32(b->buf, (uint32_t)b->len);
	return b->len;
}

size_t p9b_rlerror(uint8_t *buf, size_t cap, uint16_t tag, uint32_t ecode)
{
	struct p9b b;

	p9b_begin(&b, buf, cap, P9_RLERROR, tag);
	p9b_u32(&b, ecode);
	return p9b_end(&b);
}
