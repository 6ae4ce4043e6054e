/* Self-test of the proxy's pure parts, built with ASan and UBSan
 * (Makefile: selftest), run by tests/rig/run.sh.
 *
 * 1. A valid frame of every message type the parser knows, in its
 *    direction, parses to the fields it was built with.
 * 2. Each class of corruption is refused with its own error: size
 *    below the header, above the limit, off by one against the buffer,
 *    unknown or wrong-direction type, a string or count running past
 *    the end, too many walk names or qids, trailing bytes.
 * 3. A fixed-seed stream of mutations (bit flips, truncation, random
 *    bytes, length fields set to 0, 1, huge, off by one) fed to the
 *    parser from exact-size heap buffers, so that any read past a frame
 *    is an ASan report: no crash, and an accepted frame's strings and
 *    data lie inside it.
 * 4. Fault SPECs, bucket labels and fid paths: what is accepted, what
 *    is not.
 * Prints one line per group; exits 1 at the first wrong outcome. */
#include "counts.h"
#include "fault.h"
#include "fids.h"
#include "p9build.h"
#include "p9frame.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_PROG "p9frame-fuzz"
#include "test/check.h"

enum { LIMIT = 1 << 20, MAXF = 4096 };

/* The field values every sample is built with. */
#define FID 0x01020304u
#define NEWFID 0x0a0b0c0du
#define TAG 0x1234
#define OFFSET 0x1122334455667788ull
#define XSIZE 0x0102030405060708ull
static const char *const WNAMES[] = { "a", "bb", "acl9p-fault=rd-drop" };
static const uint8_t DATA[] = "hello, 9p";

struct sample {
	uint8_t type;
	enum p9_dir dir;
	int parsed;		/* the parser looks at its body */
	int has_str;		/* offset of its first string's length, or 0 */
	int count_at;		/* offset of an Rread/Twrite count, or 0 */
	size_t len;
	uint8_t buf[MAXF];
};

static struct sample samples[256];
static int nsamples;

static void build(struct sample *s, uint8_t type)
{
	struct p9b b;

	memset(s, 0, sizeof(*s));
	s->type = type;
	s->dir = type & 1 ? P9_FROM_SERVER : P9_FROM_CLIENT;
	s->parsed = 1;
	p9b_begin(&b, s->buf, sizeof(s->buf), type,
		  type == P9_TVERSION ? P9_NOTAG : TAG);
	switch (type) {
	case P9_TVERSION:
	case P9_RVERSION:
		p9b_u32(&b, 65536);
		s->has_str = (int)b.len;
		p9b_str(&b, "9P2000.L");
		break;
	case P9_TATTACH:
		p9b_u32(&b, FID);
		p9b_u32(&b, P9_NOFID);
		s->has_str = (int)b.len;
		p9b_str(&b, "root");
		p9b_str(&b, "/export");
		p9b_u32(&b, 1001);
		break;
	case P9_TWALK:
		p9b_u32(&b, FID);
		p9b_u32(&b, NEWFID);
		p9b_u16(&b, 3);
		s->has_str = (int)b.len;
		for (int i = 0; i < 3; i++)
			p9b_str(&b, WNAMES[i]);
		break;
	case P9_RWALK:
		p9b_u16(&b, 2);
		for (int i = 0; i < 2 * P9_QIDSZ; i++)
			p9b_u8(&b, (uint8_t)i);
		break;
	case P9_TLCREATE:
		p9b_u32(&b, FID);
		s->has_str = (int)b.len;
		p9b_str(&b, "newfile");
		p9b_u32(&b, 0101);
		p9b_u32(&b, 0640);
		p9b_u32(&b, 1002);
		break;
	case P9_RLCREATE:
		for (int i = 0; i < P9_QIDSZ; i++)
			p9b_u8(&b, (uint8_t)i);
		p9b_u32(&b, 8192);
		break;
	case P9_TXATTRWALK:
		p9b_u32(&b, FID);
		p9b_u32(&b, NEWFID);
		s->has_str = (int)b.len;
		p9b_str(&b, "system.posix_acl_access");
		break;
	case P9_RXATTRWALK:
		p9b_u64(&b, XSIZE);
		break;
	case P9_TXATTRCREATE:
		p9b_u32(&b, FID);
		s->has_str = (int)b.len;
		p9b_str(&b, "system.posix_acl_default");
		p9b_u64(&b, XSIZE);
		p9b_u32(&b, 1);
		break;
	case P9_TREAD:
		p9b_u32(&b, FID);
		p9b_u64(&b, OFFSET);
		p9b_u32(&b, 4000);
		break;
	case P9_RREAD:
		s->count_at = (int)b.len;
		p9b_u32(&b, sizeof(DATA));
		p9b_mem(&b, DATA, sizeof(DATA));
		break;
	case P9_TWRITE:
		p9b_u32(&b, FID);
		p9b_u64(&b, OFFSET);
		s->count_at = (int)b.len;
		p9b_u32(&b, sizeof(DATA));
		p9b_mem(&b, DATA, sizeof(DATA));
		break;
	case P9_RWRITE:
		p9b_u32(&b, sizeof(DATA));
		break;
	case P9_TCLUNK:
	case P9_TREMOVE:
		p9b_u32(&b, FID);
		break;
	case P9_TSETATTR:
		p9b_u32(&b, FID);
		p9b_u32(&b, 0x120);		/* MTIME | MTIME_SET */
		for (int i = 0; i < 3; i++)	/* mode uid gid */
			p9b_u32(&b, 0);
		for (int i = 0; i < 3; i++)	/* size atime */
			p9b_u64(&b, 0);
		p9b_u64(&b, XSIZE);		/* mtime_sec */
		p9b_u64(&b, 0);
		break;
	case P9_TUNLINKAT:
		p9b_u32(&b, FID);
		s->has_str = (int)b.len;
		p9b_str(&b, "gone");
		p9b_u32(&b, 0x200);		/* AT_REMOVEDIR */
		break;
	case P9_RLERROR:
		p9b_u32(&b, ENODATA);
		break;
	case P9_TFLUSH:
		p9b_u16(&b, 7);
		break;
	case P9_RCLUNK:
	case P9_RREMOVE:
	case P9_RFLUSH:
	case P9_RXATTRCREATE:
		break;
	default:
		/* a body the parser does not look at: any bytes, any length */
		s->parsed = 0;
		for (int i = 0; i < type % 23; i++)
			p9b_u8(&b, (uint8_t)(i * 37 + type));
		break;
	}
	s->len = p9b_end(&b);
	CHECK(s->len >= P9_HDRSZ, "building %s", p9_type_name(type));
}

static int str_is(struct p9_str s, const char *lit)
{
	return s.s && p9_str_is(s, lit);
}

/* The fields of a parsed valid sample are the ones it was built with. */
static void check_fields(const struct sample *s, const struct p9_msg *m)
{
	const char *n = p9_type_name(s->type);

	CHECK(m->size == s->len && m->type == s->type, "%s header", n);
	CHECK(m->tag == (s->type == P9_TVERSION ? P9_NOTAG : TAG), "%s tag", n);
	switch (s->type) {
	case P9_TVERSION:
	case P9_RVERSION:
		CHECK(m->u.version.msize == 65536 &&
		      str_is(m->u.version.version, "9P2000.L"), "%s fields", n);
		break;
	case P9_TATTACH:
		CHECK(m->u.attach.fid == FID && m->u.attach.afid == P9_NOFID &&
		      str_is(m->u.attach.uname, "root") &&
		      str_is(m->u.attach.aname, "/export") &&
		      m->u.attach.n_uname == 1001, "%s fields", n);
		break;
	case P9_TWALK:
		CHECK(m->u.walk.fid == FID && m->u.walk.newfid == NEWFID &&
		      m->u.walk.nwname == 3, "%s fields", n);
		for (int i = 0; i < 3; i++)
			CHECK(str_is(m->u.walk.wname[i], WNAMES[i]), "%s name %d", n, i);
		break;
	case P9_RWALK:
		CHECK(m->u.rwalk.nwqid == 2 && m->u.rwalk.qids == s->buf + 9 &&
		      m->u.rwalk.qids[P9_QIDSZ] == P9_QIDSZ, "%s fields", n);
		break;
	case P9_TLCREATE:
		CHECK(m->u.lcreate.fid == FID && str_is(m->u.lcreate.name, "newfile") &&
		      m->u.lcreate.flags == 0101 && m->u.lcreate.mode == 0640 &&
		      m->u.lcreate.gid == 1002, "%s fields", n);
		break;
	case P9_RLCREATE:
		CHECK(m->u.rlcreate.qid == s->buf + 7 && m->u.rlcreate.iounit == 8192,
		      "%s fields", n);
		break;
	case P9_TXATTRWALK:
		CHECK(m->u.xattrwalk.fid == FID && m->u.xattrwalk.newfid == NEWFID &&
		      str_is(m->u.xattrwalk.name, "system.posix_acl_access"),
		      "%s fields", n);
		break;
	case P9_RXATTRWALK:
		CHECK(m->u.rxattrwalk.size == XSIZE, "%s fields", n);
		break;
	case P9_TXATTRCREATE:
		CHECK(m->u.xattrcreate.fid == FID &&
		      str_is(m->u.xattrcreate.name, "system.posix_acl_default") &&
		      m->u.xattrcreate.attr_size == XSIZE &&
		      m->u.xattrcreate.flags == 1, "%s fields", n);
		break;
	case P9_TREAD:
		CHECK(m->u.read.fid == FID && m->u.read.offset == OFFSET &&
		      m->u.read.count == 4000, "%s fields", n);
		break;
	case P9_RREAD:
		CHECK(m->u.rread.count == sizeof(DATA) &&
		      !memcmp(m->u.rread.data, DATA, sizeof(DATA)), "%s fields", n);
		break;
	case P9_TWRITE:
		CHECK(m->u.write.fid == FID && m->u.write.offset == OFFSET &&
		      m->u.write.count == sizeof(DATA) &&
		      !memcmp(m->u.write.data, DATA, sizeof(DATA)), "%s fields", n);
		break;
	case P9_RWRITE:
		CHECK(m->u.rwrite.count == sizeof(DATA), "%s fields", n);
		break;
	case P9_TCLUNK:
	case P9_TREMOVE:
		CHECK(m->u.clunk.fid == FID, "%s fields", n);
		break;
	case P9_TSETATTR:
		CHECK(m->u.setattr.fid == FID && m->u.setattr.valid == 0x120 &&
		      m->u.setattr.mtime_sec == XSIZE, "%s fields", n);
		break;
	case P9_TUNLINKAT:
		CHECK(m->u.unlinkat.dirfid == FID && str_is(m->u.unlinkat.name, "gone") &&
		      m->u.unlinkat.flags == 0x200, "%s fields", n);
		break;
	case P9_RLERROR:
		CHECK(m->u.lerror.ecode == ENODATA, "%s fields", n);
		break;
	case P9_TFLUSH:
		CHECK(m->u.flush.oldtag == 7, "%s fields", n);
		break;
	}
}

/* Parse LEN bytes of SRC from an exact-size heap copy (ASan sees any
 * read past it). */
static enum p9_err parse_copy(const uint8_t *src, size_t len, uint32_t limit,
			      enum p9_dir dir, struct p9_msg *m)
{
	uint8_t *b = malloc(len ? len : 1);
	enum p9_err e;

	CHECK(b != NULL, "malloc");
	memcpy(b, src, len);
	e = p9_parse(b, len, limit, dir, m);
	free(b);
	return e;
}

static void test_valid(void)
{
	struct p9_msg m;
	uint32_t size;

	for (int t = 0; t < 256; t++) {
		struct sample *s;

		if (!p9_type_name((uint8_t)t))
			continue;
		s = &samples[nsamples++];
		build(s, (uint8_t)t);
		CHECK(p9_parse(s->buf, s->len, LIMIT, s->dir, &m) == P9_OK,
		      "valid %s refused: %s", p9_type_name(s->type),
		      p9_strerror(p9_parse(s->buf, s->len, LIMIT, s->dir, &m)));
		check_fields(s, &m);
		/* the stream view: incomplete until the header is whole */
		for (size_t k = 0; k < P9_HDRSZ; k++)
			CHECK(p9_frame_header(s->buf, k, LIMIT, s->dir, &size) == P9_NEED_MORE,
			      "%s header of %zu bytes", p9_type_name(s->type), k);
		CHECK(p9_frame_header(s->buf, P9_HDRSZ, LIMIT, s->dir, &size) == P9_OK &&
		      size == s->len, "%s frame size", p9_type_name(s->type));
		/* a frame of exactly the limit is fine */
		CHECK(p9_parse(s->buf, s->len, (uint32_t)s->len, s->dir, &m) == P9_OK,
		      "%s at the limit", p9_type_name(s->type));
	}
	/* 28 T-messages, their 28 R-messages and Rlerror: 9P2000.L */
	CHECK(nsamples == 57, "%d message types known", nsamples);
	printf("ok - valid frames of %d message types parse to their fields\n", nsamples);
}

static void set32(uint8_t *p, uint32_t v)
{
	p9_put32(p, v);
}

static void test_corrupt(void)
{
	static uint8_t b[MAXF + 16];
	struct p9_msg m;
	uint32_t size;

	for (int i = 0; i < nsamples; i++) {
		const struct sample *s = &samples[i];
		const char *n = p9_type_name(s->type);
		size_t L = s->len;

		/* size field below the header */
		for (uint32_t sz = 0; sz < P9_HDRSZ; sz++) {
			memcpy(b, s->buf, L);
			set32(b, sz);
			CHECK(parse_copy(b, L, LIMIT, s->dir, &m) == P9_E_SIZE_SMALL,
			      "%s size %u", n, sz);
			CHECK(p9_frame_header(b, 4, LIMIT, s->dir, &size) == P9_E_SIZE_SMALL,
			      "%s header size %u", n, sz);
		}
		/* above the limit: msize one below, or a huge size field */
		CHECK(parse_copy(s->buf, L, (uint32_t)L - 1, s->dir, &m) == P9_E_SIZE_BIG,
		      "%s over msize", n);
		memcpy(b, s->buf, L);
		set32(b, 0xffffffffu);
		CHECK(p9_frame_header(b, 4, LIMIT, s->dir, &size) == P9_E_SIZE_BIG,
		      "%s huge size", n);
		CHECK(parse_copy(b, L, LIMIT, s->dir, &m) == P9_E_SIZE_BIG, "%s huge", n);
		/* the size field off by one against the buffer */
		memcpy(b, s->buf, L);
		set32(b, (uint32_t)L + 1);
		CHECK(parse_copy(b, L, LIMIT, s->dir, &m) == P9_NEED_MORE,
		      "%s size one above its bytes", n);
		if (L > P9_HDRSZ) {
			set32(b, (uint32_t)L - 1);
			CHECK(parse_copy(b, L, LIMIT, s->dir, &m) == P9_E_LENGTH,
			      "%s size one below its bytes", n);
		}
		/* unknown types, and the other direction's */
		for (int t = 0; t < 256; t++) {
			int known = p9_type_name((uint8_t)t) && (t & 1) == (s->dir == P9_FROM_SERVER);

			memcpy(b, s->buf, L);
			b[4] = (uint8_t)t;
			if (!known) {
				CHECK(parse_copy(b, L, LIMIT, s->dir, &m) == P9_E_TYPE,
				      "%s as type %d", n, t);
				CHECK(p9_frame_header(b, 5, LIMIT, s->dir, &size) == P9_E_TYPE,
				      "%s header as type %d", n, t);
			}
		}
		/* one byte short (the last field cut) or one too many */
		memcpy(b, s->buf, L);
		set32(b, (uint32_t)L - 1);
		if (L - 1 < P9_HDRSZ)
			CHECK(parse_copy(b, L - 1, LIMIT, s->dir, &m) == P9_E_SIZE_SMALL,
			      "%s cut", n);
		else
			CHECK(parse_copy(b, L - 1, LIMIT, s->dir, &m) ==
			      (s->parsed ? P9_E_FIELD : P9_OK), "%s cut by one", n);
		memcpy(b, s->buf, L);
		b[L] = 0x5a;
		set32(b, (uint32_t)L + 1);
		CHECK(parse_copy(b, L + 1, LIMIT, s->dir, &m) ==
		      (s->parsed ? P9_E_TRAILING : P9_OK), "%s with a byte more", n);
		/* a string's length running past the end */
		if (s->has_str) {
			memcpy(b, s->buf, L);
			p9_put16(b + s->has_str, 0xffff);
			CHECK(parse_copy(b, L, LIMIT, s->dir, &m) == P9_E_FIELD,
			      "%s string length 0xffff", n);
			/* to the frame's end: fine only when it is the last field */
			p9_put16(b + s->has_str, (uint16_t)(L - (size_t)s->has_str - 2));
			CHECK(parse_copy(b, L, LIMIT, s->dir, &m) ==
			      (s->type == P9_TVERSION || s->type == P9_RVERSION ||
			       s->type == P9_TXATTRWALK ? P9_OK : P9_E_FIELD),
			      "%s string to the end", n);
		}
		/* a data count one too many or one too few */
		if (s->count_at) {
			memcpy(b, s->buf, L);
			set32(b + s->count_at, (uint32_t)sizeof(DATA) + 1);
			CHECK(parse_copy(b, L, LIMIT, s->dir, &m) == P9_E_FIELD, "%s count+1", n);
			set32(b + s->count_at, (uint32_t)sizeof(DATA) - 1);
			CHECK(parse_copy(b, L, LIMIT, s->dir, &m) == P9_E_TRAILING, "%s count-1", n);
			set32(b + s->count_at, 0xffffffffu);
			CHECK(parse_copy(b, L, LIMIT, s->dir, &m) == P9_E_FIELD, "%s count huge", n);
		}
		/* too many walk names and qids, or fewer bytes than counted */
		if (s->type == P9_TWALK || s->type == P9_RWALK) {
			size_t at = s->type == P9_TWALK ? 15 : 7;
			enum p9_err want = s->type == P9_TWALK ? P9_E_NWNAME : P9_E_NWQID;

			memcpy(b, s->buf, L);
			p9_put16(b + at, 17);
			CHECK(parse_copy(b, L, LIMIT, s->dir, &m) == want, "%s 17 elements", n);
			p9_put16(b + at, 0xffff);
			CHECK(parse_copy(b, L, LIMIT, s->dir, &m) == want, "%s 65535 elements", n);
			p9_put16(b + at, s->type == P9_TWALK ? 4 : 3);
			CHECK(parse_copy(b, L, LIMIT, s->dir, &m) == P9_E_FIELD,
			      "%s one element more than its bytes", n);
		}
	}
	printf("ok - corruptions refused with their error in every message type: size below\n"
	       "     the header, above msize, off by one, unknown type, cut, trailing bytes,\n"
	       "     string or count past the end, 17+ walk names or qids\n");
}

/* xorshift64*: the same stream on every run */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static int inside(const void *p, size_t n, const uint8_t *buf, size_t len)
{
	const uint8_t *q = p;

	return n == 0 || (q >= buf && q + n <= buf + len);
}

/* Whatever an accepted frame points at lies inside it. */
static void check_bounds(const struct p9_msg *m, const uint8_t *buf, size_t len)
{
	CHECK(m->size == len, "accepted size %u of %zu bytes", m->size, len);
	switch (m->type) {
	case P9_TVERSION:
	case P9_RVERSION:
		CHECK(inside(m->u.version.version.s, m->u.version.version.len, buf, len), "version");
		break;
	case P9_TATTACH:
		CHECK(inside(m->u.attach.uname.s, m->u.attach.uname.len, buf, len) &&
		      inside(m->u.attach.aname.s, m->u.attach.aname.len, buf, len), "attach");
		break;
	case P9_TWALK:
		CHECK(m->u.walk.nwname <= P9_MAXWELEM, "nwname");
		for (int i = 0; i < m->u.walk.nwname; i++)
			CHECK(inside(m->u.walk.wname[i].s, m->u.walk.wname[i].len, buf, len), "wname");
		break;
	case P9_RWALK:
		CHECK(m->u.rwalk.nwqid <= P9_MAXWELEM &&
		      inside(m->u.rwalk.qids, (size_t)m->u.rwalk.nwqid * P9_QIDSZ, buf, len), "qids");
		break;
	case P9_TXATTRWALK:
		CHECK(inside(m->u.xattrwalk.name.s, m->u.xattrwalk.name.len, buf, len), "xattrwalk");
		break;
	case P9_TXATTRCREATE:
		CHECK(inside(m->u.xattrcreate.name.s, m->u.xattrcreate.name.len, buf, len), "xattrcreate");
		break;
	case P9_TLCREATE:
		CHECK(inside(m->u.lcreate.name.s, m->u.lcreate.name.len, buf, len), "lcreate");
		break;
	case P9_RREAD:
		CHECK(inside(m->u.rread.data, m->u.rread.count, buf, len), "rread");
		break;
	case P9_TWRITE:
		CHECK(inside(m->u.write.data, m->u.write.count, buf, len), "write");
		break;
	}
}

static void test_mutations(unsigned long rounds)
{
	static uint8_t b[MAXF + 64];
	static const uint32_t specials[] = { 0, 1, 6, 7, 0xffff, 0x10000, 0x7fffffff,
					     0xffffffffu };
	unsigned long accepted = 0;

	for (unsigned long r = 0; r < rounds; r++) {
		const struct sample *s = &samples[rnd() % (uint64_t)nsamples];
		size_t len = s->len;
		uint32_t limit, size;
		struct p9_msg m, m2;
		enum p9_err e;
		uint8_t *h;

		memcpy(b, s->buf, len);
		switch (rnd() % 6) {
		case 0:		/* bit flips */
			for (int k = 1 + (int)(rnd() % 4); k > 0; k--)
				b[rnd() % len] ^= (uint8_t)(1u << (rnd() % 8));
			break;
		case 1:		/* truncation, the size field kept or fixed */
			len = (size_t)(rnd() % len);
			if (len >= 4 && rnd() % 2)
				set32(b, (uint32_t)len);
			break;
		case 2:		/* random bytes over part of it */
			for (size_t k = rnd() % len; k < len && rnd() % 8; k++)
				b[k] = (uint8_t)rnd();
			break;
		case 3:		/* a u16 length field set to something odd */
			if (len >= 9) {
				size_t at = 7 + (size_t)(rnd() % (len - 8));

				p9_put16(b + at, (uint16_t)specials[rnd() % 8]);
			}
			break;
		case 4:		/* a u32 (size, count) set to something odd */
		{
			size_t at = rnd() % 3 ? 0 : 7 + (size_t)(rnd() % (len > 10 ? len - 10 : 1));
			uint32_t v = rnd() % 2 ? specials[rnd() % 8] :
				     (uint32_t)len + (uint32_t)(rnd() % 3) - 1;

			if (at + 4 <= len)
				set32(b + at, v);
			break;
		}
		case 5:		/* random bytes appended, the size fixed or not */
			for (int k = 1 + (int)(rnd() % 40); k > 0; k--)
				b[len++] = (uint8_t)rnd();
			if (rnd() % 2)
				set32(b, (uint32_t)len);
			break;
		}
		limit = rnd() % 4 ? LIMIT : (uint32_t)(rnd() % (len + 2));
		h = malloc(len ? len : 1);
		CHECK(h != NULL, "malloc");
		memcpy(h, b, len);
		e = p9_parse(h, len, limit, s->dir, &m);
		CHECK(e <= P9_E_NWQID, "result %d", (int)e);
		CHECK(p9_parse(h, len, limit, s->dir, &m2) == e, "not deterministic");
		if (e == P9_OK) {
			accepted++;
			check_bounds(&m, h, len);
			CHECK(p9_frame_header(h, len, limit, s->dir, &size) == P9_OK &&
			      size == len, "header disagrees with parse");
		}
		/* the stream view of any prefix never reads past it */
		(void)p9_frame_header(h, len, limit, s->dir, &size);
		free(h);
	}
	printf("ok - %lu mutated frames (fixed seed), %lu of them still valid, no crash\n",
	       rounds, accepted);
}

static void test_faults(void)
{
	static const struct { const char *spec; enum fault_kind kind; uint32_t arg; } good[] = {
		{ "none", F_NONE, 0 },
		{ "rd-errno=EIO", F_RD_ERRNO, EIO },
		{ "rd-errno=ENOSYS", F_RD_ERRNO, ENOSYS },
		{ "rd-errno=EOPNOTSUPP", F_RD_ERRNO, EOPNOTSUPP },
		{ "rd-errno=ENODATA", F_RD_ERRNO, ENODATA },
		{ "rd-errno=EACCES", F_RD_ERRNO, EACCES },
		{ "rd-errno=ENOMEM", F_RD_ERRNO, ENOMEM },
		{ "rd-errno=ERANGE", F_RD_ERRNO, ERANGE },
		{ "rd-badversion", F_RD_BADVERSION, 0 },
		{ "rd-oddsize", F_RD_ODDSIZE, 0 },
		{ "rd-truncentry", F_RD_TRUNCENTRY, 0 },
		{ "rd-hugesize", F_RD_HUGESIZE, 0 },
		{ "rd-sizechange", F_RD_SIZECHANGE, 0 },
		{ "rd-size=65537", F_RD_SIZE, 65537 },
		{ "rd-size=4294967295", F_RD_SIZE, 4294967295u },
		{ "rd-delay=250", F_RD_DELAY, 250 },
		{ "rd-drop", F_RD_DROP, 0 },
		{ "wr-errno=EACCES", F_WR_ERRNO, EACCES },
		{ "wr-delay=0", F_WR_DELAY, 0 },
		{ "wr-drop", F_WR_DROP, 0 },
		{ "sa-errno=EPERM", F_SA_ERRNO, EPERM },
		{ "ul-errno=EOPNOTSUPP", F_UL_ERRNO, EOPNOTSUPP },
		{ "drop-after=3", F_DROP_AFTER, 3 },
		{ "rd-delay=600000", F_RD_DELAY, 600000 },
		{ "fuzz=0", F_FUZZ, 0 },
		{ "fuzz=42", F_FUZZ, 42 },
		{ "fuzz=4294967295", F_FUZZ, 4294967295u },
	};
	static const char *const bad[] = {
		"", "rd-errno=EBADF", "sa-errno=", "ul-errno=ENOENT", "rd-errno=", "rd-errno", "rd-errno=eio",
		"rd-delay=", "rd-delay=x", "rd-delay=-1", "rd-delay=600001",
		"rd-delay=1234567890", "drop-after=", "drop-after=1a", "RD-DROP",
		"rd-drop=1", "rd-dropx", "none=1", "wr-errno=ENODATAX", "bogus",
		"rd-hugesize ", "=", "rd-errno=EIO=EIO",
		"fuzz", "fuzz=", "fuzz=-1", "fuzz=4294967296", "fuzz=12345678901",
		"fuzz=0x10", "fuzz=1 ",
	};
	struct fault f;
	char junk[80];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CHECK(fault_parse(good[i].spec, strlen(good[i].spec), &f) == 0 &&
		      f.kind == good[i].kind && f.arg == good[i].arg &&
		      !strcmp(f.spec, good[i].spec), "SPEC %s", good[i].spec);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(fault_parse(bad[i], strlen(bad[i]), &f) == -1 && f.kind == F_NONE,
		      "SPEC '%s' accepted", bad[i]);
	/* a SPEC is not NUL-terminated in a frame: only LEN bytes count */
	CHECK(fault_parse("rd-dropXYZ", 7, &f) == 0 && f.kind == F_RD_DROP, "SPEC prefix");
	for (int r = 0; r < 20000; r++) {
		size_t n = (size_t)(rnd() % sizeof(junk));

		for (size_t k = 0; k < n; k++)
			junk[k] = (char)(rnd() % 3 ? "rd-erno=EIODAT0123456789wp"[rnd() % 26] : (int)rnd());
		(void)fault_parse(junk, n, &f);
	}
	printf("ok - fault SPECs: %zu accepted with their values, %zu refused\n",
	       sizeof(good) / sizeof(good[0]), sizeof(bad) / sizeof(bad[0]));
}

static void test_labels_paths(void)
{
	char out[PATH_CAP], name[2000];

	CHECK(counts_label_ok("test_1.a-b", 10), "label");
	CHECK(!counts_label_ok("", 0) && !counts_label_ok("a\tb", 3) &&
	      !counts_label_ok("a b", 3) && !counts_label_ok("a\nb", 3) &&
	      !counts_label_ok("\x80", 1), "bad labels");
	memset(name, 'x', sizeof(name));
	CHECK(counts_label_ok(name, LABEL_MAX) && !counts_label_ok(name, LABEL_MAX + 1),
	      "label length");
	path_join(out, "/exp", 4, "a", 1);
	CHECK(!strcmp(out, "/exp/a"), "join: %s", out);
	path_join(out, out, 4, "..", 2);
	CHECK(!strcmp(out, "/exp"), "join ..: %s", out);
	path_join(out, out, 4, "..", 2);
	CHECK(!strcmp(out, "/exp"), "join .. above the root: %s", out);
	path_join(out, out, 4, ".", 1);
	CHECK(!strcmp(out, "/exp"), "join .: %s", out);
	path_join(out, out, 4, "a\nb", 3);
	CHECK(!strcmp(out, "/exp/a?b"), "join control byte: %s", out);
	for (int i = 0; i < 3; i++)
		path_join(out, out, 4, name, sizeof(name));
	CHECK(strlen(out) == PATH_CAP - 1, "join cut at %zu", strlen(out));
	printf("ok - bucket labels and fid paths\n");
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;

	test_valid();
	test_corrupt();
	test_mutations(rounds);
	test_faults();
	test_labels_paths();
	printf("p9frame-fuzz: %lu checks passed\n", checks);
	return 0;
}
