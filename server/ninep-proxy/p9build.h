/* 9P frame builder: the proxy's own replies (Rlerror) and the frames
 * its tests send.  Writes into a caller's buffer; running out of room
 * marks the builder failed instead of writing past it. */
#ifndef P9BUILD_H
#define P9BUILD_H

#include <stddef.h>
#include <stdint.h>

struct p9b {
	uint8_t *buf;
	size_t cap, len;
	int overflow;
};

/* Start a frame of TYPE and TAG in BUF (CAP bytes). */
void p9b_begin(struct p9b *b, uint8_t *buf, size_t cap, uint8_t type,
	       uint16_t tag);
void p9b_u8(struct p9b *b, uint8_t v);
void p9b_u16(struct p9b *b, uint16_t v);
void p9b_u32(struct p9b *b, uint32_t v);
void p9b_u64(struct p9b *b, uint64_t v);
void p9b_mem(struct p9b *b, const void *p, size_t n);
/* A 9P string: len[2] then the bytes of the C string S. */
void p9b_str(struct p9b *b, const char *s);
/* Write the size field; the frame's length, or 0 if it did not fit. */
size_t p9b_end(struct p9b *b);

/* Rlerror(ECODE) with TAG into BUF (at least 11 bytes); its length. */
size_t p9b_rlerror(uint8_t *buf, size_t cap, uint16_t tag, uint32_t ecode);

#endif
