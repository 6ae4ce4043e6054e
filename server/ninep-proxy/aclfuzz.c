/* The fuzz mode's mutations of ACL replies: see aclfuzz.h. */
#include "aclfuzz.h"
#include "log.h"
#include "splitmix.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t below(uint64_t *st, uint32_t n)
{
	return n ? (uint32_t)(splitmix64(st) % n) : 0;
}

/* The steps a plan is made of. */
enum op_kind {
	OP_FLIP,	/* a: the bit to flip */
	OP_CUT,		/* a: the length to cut the value to */
	OP_APPEND,	/* a: how many bytes of extra to append */
	OP_DUP,		/* a: the entry to repeat right after itself */
	OP_SWAP,	/* a, b: the entries to swap */
	OP_DROP,	/* a: the entry to remove */
	OP_SET16,	/* a: byte offset; val: the u16 written */
	OP_SET32,	/* a: byte offset; val: the u32 written */
	OP_PERMS,	/* val: sub-seed of new rwx perms for every entry */
};

/* The limits a field is set to: the ends of its range, the values
 * next to meaningful ones, and the ids of the guest's test users. */
static const uint16_t TAGS[] = {
	0, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x03, 0x40, 0x80, 0x100, 0xffff,
};
static const uint16_t PERMS[] = { 0, 1, 2, 4, 6, 7, 8, 0x10, 0xff, 0xfff8, 0xffff };
static const uint32_t IDS[] = {
	0, 1, 1001, 1002, 1003, 0xfffe, 0xffff, 0x10000, 0x7fffffff,
	0xfffffffe, 0xffffffff,
};
static const uint32_t VERSIONS[] = {
	0, 1, 3, 0x102, 0x10002, 0x02000000, 0x7fffffff, 0xffffffff,
};
/* declared sizes: d < 0 is S - d... see size_of() */
static const int64_t SIZE_DELTAS[] = { -1, -3, -4, -8, -16, 1, 4, 8, 12 };
static const uint64_t SIZES[] = {
	0, 1, 4, 12, 65536, 65537, 1u << 20, 0x7fffffff, 0xffffffff,
	(uint64_t)1 << 40, UINT64_MAX,
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The mutations and how often each is drawn (out of their sum): the
 * one table of them.  "none" and "perms" leave the ACL valid, so the
 * judge sees valid ones enforced too. */
enum mut {
	MU_NONE, MU_PERMS, MU_BITFLIP, MU_SHORTREAD, MU_TRUNCATE, MU_EXTEND,
	MU_SIZE, MU_DUP, MU_SWAP, MU_DROP, MU_EMPTY, MU_TAG, MU_ID, MU_PERM,
	MU_VERSION, MU_MULTI,
};
static const struct { const char *name; unsigned weight; } MUTS[] = {
	[MU_NONE] = { "none", 8 },
	[MU_PERMS] = { "perms", 8 },
	[MU_BITFLIP] = { "bitflip", 10 },
	[MU_SHORTREAD] = { "shortread", 7 },
	[MU_TRUNCATE] = { "truncate", 7 },
	[MU_EXTEND] = { "extend", 6 },
	[MU_SIZE] = { "size", 10 },
	[MU_DUP] = { "dup", 7 },
	[MU_SWAP] = { "swap", 7 },
	[MU_DROP] = { "drop", 6 },
	[MU_EMPTY] = { "empty", 2 },
	[MU_TAG] = { "tag", 6 },
	[MU_ID] = { "id", 6 },
	[MU_PERM] = { "perm", 4 },
	[MU_VERSION] = { "version", 3 },
	[MU_MULTI] = { "multi", 3 },
};

/* A plan being made: the value's length and entries as the steps so
 * far leave them (entries: 0 when the length is no 4 + 8n). */
struct draft {
	struct fuzz_reply *r;
	uint64_t *st;
	uint64_t len;
	uint32_t n;
	size_t wlen;
};

static void add_op(struct draft *d, uint8_t kind, uint32_t a, uint32_t b,
		   uint32_t val)
{
	if (d->r->nops < FUZZ_OPS_MAX)
		d->r->ops[d->r->nops++] = (struct fuzz_op){ kind, a, b, val };
}

static void what(struct draft *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void what(struct draft *d, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (d->wlen >= sizeof(d->r->what) - 1)
		return;
	va_start(ap, fmt);
	k = vsnprintf(d->r->what + d->wlen, sizeof(d->r->what) - d->wlen, fmt, ap);
	va_end(ap);
	if (k > 0)
		d->wlen += (size_t)k;
	if (d->wlen > sizeof(d->r->what) - 1)
		d->wlen = sizeof(d->r->what) - 1;
}

static void entries(struct draft *d)
{
	d->n = d->len >= 4 && (d->len - 4) % 8 == 0 ? (uint32_t)((d->len - 4) / 8) : 0;
}

/* One entry-level step (dup swap drop tag id perm version perms) on
 * the draft; 0, or -1 when the value has no entries for it. */
static int entry_step(struct draft *d, enum mut m)
{
	uint32_t i, j;

	if (m != MU_VERSION && d->n == 0)
		return -1;
	i = below(d->st, d->n);
	switch (m) {
	case MU_DUP:
		add_op(d, OP_DUP, i, 0, 0);
		d->len += 8;
		what(d, "dup:%u", i);
		break;
	case MU_SWAP:
		if (d->n < 2)
			return -1;
		j = (i + 1 + below(d->st, d->n - 1)) % d->n;
		add_op(d, OP_SWAP, i, j, 0);
		what(d, "swap:%u,%u", i, j);
		break;
	case MU_DROP:
		add_op(d, OP_DROP, i, 0, 0);
		d->len -= 8;
		what(d, "drop:%u", i);
		break;
	case MU_TAG: {
		uint32_t v = below(d->st, 4) ? TAGS[below(d->st, N(TAGS))] :
			     (uint32_t)(splitmix64(d->st) & 0xffff);

		add_op(d, OP_SET16, 4 + 8 * i, 0, v);
		what(d, "tag:%u=0x%x", i, v);
		break;
	}
	case MU_PERM: {
		uint32_t v = below(d->st, 4) ? PERMS[below(d->st, N(PERMS))] :
			     (uint32_t)(splitmix64(d->st) & 0xffff);

		add_op(d, OP_SET16, 4 + 8 * i + 2, 0, v);
		what(d, "perm:%u=0x%x", i, v);
		break;
	}
	case MU_ID: {
		uint32_t v = below(d->st, 4) ? IDS[below(d->st, N(IDS))] :
			     (uint32_t)splitmix64(d->st);

		add_op(d, OP_SET32, 4 + 8 * i + 4, 0, v);
		what(d, "id:%u=%u", i, v);
		break;
	}
	case MU_VERSION: {
		uint32_t v = below(d->st, 4) ? VERSIONS[below(d->st, N(VERSIONS))] :
			     (uint32_t)splitmix64(d->st);

		if (d->len < 4)
			return -1;
		add_op(d, OP_SET32, 0, 0, v);
		what(d, "version:0x%x", v);
		break;
	}
	case MU_PERMS:
		add_op(d, OP_PERMS, 0, 0, (uint32_t)splitmix64(d->st));
		what(d, "perms");
		break;
	default:
		return -1;
	}
	entries(d);
	return 0;
}

static uint64_t size_of(struct draft *d, uint64_t s)
{
	uint32_t k = below(d->st, N(SIZE_DELTAS) + N(SIZES) + 1);

	if (k < N(SIZE_DELTAS)) {
		int64_t delta = SIZE_DELTAS[k];

		return delta < 0 && (uint64_t)-delta > s ? 0 : s + (uint64_t)delta;
	}
	k -= (uint32_t)N(SIZE_DELTAS);
	if (k < N(SIZES))
		return SIZES[k];
	return below(d->st, (uint32_t)(2 * s + 16));	/* anywhere near */
}

static void extend(struct draft *d)
{
	struct fuzz_reply *r = d->r;
	uint32_t k = 1 + below(d->st, FUZZ_EXTRA_MAX), style = below(d->st, 4);
	/* a whole entry that would grant uid 1001 everything */
	static const uint8_t entry[8] = { 0x02, 0, 0x07, 0, 0xe9, 0x03, 0, 0 };

	for (uint32_t i = 0; i < k; i++)
		r->extra[i] = style == 0 ? 0 : style == 1 ? 0xff :
			      style == 2 ? entry[i % 8] : (uint8_t)splitmix64(d->st);
	if (style == 2)
		k = k < 8 ? 8 : 16;
	add_op(d, OP_APPEND, k, 0, 0);
	d->len += k;
	what(d, "extend:%u:%s", k, style == 0 ? "zeros" : style == 1 ? "ff" :
	     style == 2 ? "entry" : "random");
}

void fuzz_plan(struct fuzz_reply *r, uint32_t seed, uint64_t index,
	       uint64_t real_size)
{
	uint64_t st = ((uint64_t)seed << 32) ^ index;
	struct draft d = { r, &st, real_size, 0, 0 };
	unsigned total = 0, roll;
	enum mut m = MU_NONE;

	memset(r, 0, sizeof(*r));
	r->seed = seed;
	r->index = index;
	r->real_size = real_size;
	r->limit = UINT64_MAX;
	entries(&d);
	splitmix64(&st);		/* neighbouring seeds start apart */
	for (size_t i = 0; i < N(MUTS); i++)
		total += MUTS[i].weight;
	roll = below(&st, total);
	for (size_t i = 0; i < N(MUTS); i++) {
		if (roll < MUTS[i].weight) {
			m = (enum mut)i;
			break;
		}
		roll -= MUTS[i].weight;
	}
	switch (m) {
	case MU_NONE:
		what(&d, "none");
		break;
	case MU_BITFLIP:
		if (!d.len) {
			what(&d, "none");
			break;
		}
		what(&d, "bitflip");
		for (uint32_t k = 1 + below(&st, 3); k > 0; k--) {
			uint32_t bit = below(&st, (uint32_t)(8 * d.len));

			add_op(&d, OP_FLIP, bit, 0, 0);
			what(&d, ":%u", bit);
		}
		break;
	case MU_SHORTREAD:
		r->limit = below(&st, (uint32_t)d.len);
		what(&d, "shortread:%llu", (unsigned long long)r->limit);
		break;
	case MU_TRUNCATE:
		d.len = below(&st, (uint32_t)d.len);
		add_op(&d, OP_CUT, (uint32_t)d.len, 0, 0);
		what(&d, "truncate:%llu", (unsigned long long)d.len);
		break;
	case MU_EXTEND:
		extend(&d);
		break;
	case MU_SIZE:
		r->declared = size_of(&d, d.len);
		what(&d, "size:%llu", (unsigned long long)r->declared);
		r->what[sizeof(r->what) - 1] = '\0';
		return;
	case MU_EMPTY:
		if (d.len < 4) {
			what(&d, "none");
			break;
		}
		add_op(&d, OP_CUT, 4, 0, 0);
		d.len = 4;
		what(&d, "empty");
		break;
	case MU_MULTI:
		what(&d, "multi:");
		for (uint32_t k = 2 + below(&st, 2), done = 0; k > 0; k--) {
			static const enum mut steps[] = {
				MU_DUP, MU_SWAP, MU_DROP, MU_TAG, MU_ID, MU_PERM,
				MU_VERSION, MU_PERMS,
			};
			size_t mark = d.wlen;

			if (done)
				what(&d, "+");
			if (entry_step(&d, steps[below(&st, N(steps))]) == 0) {
				done++;
			} else {
				/* a step the value had no entries for: not said */
				d.wlen = mark;
				r->what[mark] = '\0';
			}
		}
		break;
	default:
		if (entry_step(&d, m) != 0) {
			/* no entries to work on: flip a bit instead */
			if (d.len) {
				uint32_t bit = below(&st, (uint32_t)(8 * d.len));

				add_op(&d, OP_FLIP, bit, 0, 0);
				what(&d, "bitflip:%u", bit);
			} else {
				what(&d, "none");
			}
		}
		break;
	}
	r->declared = d.len;
	r->what[sizeof(r->what) - 1] = '\0';
}

/* Entry I of the value B (LEN bytes), or NULL when it is not whole. */
static uint8_t *entry_at(uint8_t *b, size_t len, uint32_t i)
{
	size_t off = 4 + 8 * (size_t)i;

	return off + 8 <= len ? b + off : NULL;
}

int fuzz_take_value(struct fuzz_reply *r, const uint8_t *v, size_t n)
{
	size_t cap = n + FUZZ_GROW_MAX;
	uint8_t *b = calloc(1, cap), *e, *f, tmp[8];
	size_t len = n;

	if (!b)
		return -1;
	memcpy(b, v, n);
	for (unsigned k = 0; k < r->nops; k++) {
		const struct fuzz_op *o = &r->ops[k];

		/* a step past the value (the server's was not the size it
		 * declared) is left out */
		switch (o->kind) {
		case OP_FLIP:
			if (o->a / 8 < len)
				b[o->a / 8] ^= (uint8_t)(1u << (o->a % 8));
			break;
		case OP_CUT:
			if (o->a < len)
				len = o->a;
			break;
		case OP_APPEND:
			if (len + o->a <= cap) {
				memcpy(b + len, r->extra, o->a);
				len += o->a;
			}
			break;
		case OP_DUP:
			if ((e = entry_at(b, len, o->a)) && len + 8 <= cap) {
				memmove(e + 8, e, len - (size_t)(e - b));
				len += 8;
			}
			break;
		case OP_SWAP:
			if ((e = entry_at(b, len, o->a)) && (f = entry_at(b, len, o->b))) {
				memcpy(tmp, e, 8);
				memcpy(e, f, 8);
				memcpy(f, tmp, 8);
			}
			break;
		case OP_DROP:
			if ((e = entry_at(b, len, o->a))) {
				memmove(e, e + 8, len - (size_t)(e - b) - 8);
				len -= 8;
			}
			break;
		case OP_SET16:
			if (o->a + 2 <= len) {
				b[o->a] = (uint8_t)o->val;
				b[o->a + 1] = (uint8_t)(o->val >> 8);
			}
			break;
		case OP_SET32:
			if (o->a + 4 <= len)
				for (int i = 0; i < 4; i++)
					b[o->a + i] = (uint8_t)(o->val >> 8 * i);
			break;
		case OP_PERMS: {
			uint64_t st = o->val;

			for (uint32_t i = 0; (e = entry_at(b, len, i)); i++) {
				e[2] = (uint8_t)(splitmix64(&st) & 7);
				e[3] = 0;
			}
			break;
		}
		}
	}
	r->value = b;
	r->len = len;
	r->have_value = 1;
	return 0;
}

uint32_t fuzz_read(struct fuzz_reply *r, uint64_t off, uint32_t count,
		   const uint8_t **data)
{
	uint64_t end = r->len < r->limit ? r->len : r->limit;
	uint32_t k = off >= end ? 0 : (uint32_t)(end - off < count ? end - off : count);

	*data = r->value + (off < r->len ? off : r->len);
	r->nreads++;
	if (off > r->covered)
		r->gap = 1;
	else if (off + k > r->covered)
		r->covered = off + k;
	return k;
}

void fuzz_end(struct fuzz_reply *r)
{
	/* the bytes in hex, and no more than PATH_TAIL bytes of the path
	 * (its end names the file), so the line stays whole in the log */
	enum { PATH_TAIL = 256 };
	char hex[2 * (FUZZ_VALUE_MAX + FUZZ_GROW_MAX) + 2];
	const char *path;
	size_t plen;

	if (!r)
		return;
	hex[0] = '-';
	hex[1] = '\0';
	for (uint64_t i = 0; i < r->covered && i < FUZZ_VALUE_MAX + FUZZ_GROW_MAX; i++)
		snprintf(hex + 2 * i, 3, "%02x", r->value[i]);
	path = r->path ? r->path : "?";
	plen = strlen(path);
	if (plen > PATH_TAIL)
		path += plen - PATH_TAIL;
	plog("fuzz seed=%u reply=%llu bucket=%s fid=%u name=%s mutation=%s size=%llu declared=%llu reads=%u gap=%d sent=%s path=%s",
	     r->seed, (unsigned long long)r->index, r->bucket, r->fid,
	     r->aclname ? r->aclname : "?", r->what,
	     (unsigned long long)r->real_size, (unsigned long long)r->declared,
	     r->nreads, r->gap, hex, path);
	free(r->value);
	free(r->path);
	free(r);
}
