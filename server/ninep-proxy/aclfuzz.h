/* The fuzz mode's mutations of ACL replies (fault SPEC fuzz=SEED,
 * server/README.md).  Each successful Rxattrwalk of an ACL name, while
 * fuzz is armed, is one fuzzed reply, numbered from 0 per connection
 * since the arming: its mutation is drawn from a generator seeded with
 * the seed and that number alone, so the same seed and the same
 * requests give the same mutations.
 *
 * The mutation is planned from the real size S when the Rxattrwalk
 * passes (it may show another size); the first Tread of the fid is
 * sent on as a read of the whole value, and from what the server
 * answers the mutated value M is made once; every Rread of the fid
 * then carries M's bytes from the guest's offset, no more than it
 * asked for, and none at or past the plan's read limit.  Only the
 * value and the declared size change: every frame stays valid 9P.
 * What the guest got (M from offset 0 as far as its reads reached) is
 * logged in one line when the fid ends. */
#ifndef ACLFUZZ_H
#define ACLFUZZ_H

#include <stddef.h>
#include <stdint.h>

enum {
	/* the largest real value fuzzed: its whole read and the log line
	 * of its mutation (hex) stay small */
	FUZZ_VALUE_MAX = 512,
	FUZZ_OPS_MAX = 3,
	FUZZ_EXTRA_MAX = 16,	/* bytes an extension appends */
	/* how much a plan can grow a value: three entries and an extension */
	FUZZ_GROW_MAX = 3 * 8 + FUZZ_EXTRA_MAX,
	FUZZ_WHAT_MAX = 96,
};

/* One step of a plan, on the value as the steps before left it. */
struct fuzz_op {
	uint8_t kind;		/* enum in aclfuzz.c */
	uint32_t a, b;		/* positions: a bit, an entry, a byte offset */
	uint32_t val;		/* the value written, or a sub-seed */
};

struct fuzz_reply {
	uint32_t seed;
	uint64_t index;
	uint64_t real_size;	/* the server's Rxattrwalk size */
	uint64_t declared;	/* the size the guest is shown */
	uint64_t limit;		/* reads end here (UINT64_MAX: at M's end) */
	unsigned nops;
	struct fuzz_op ops[FUZZ_OPS_MAX];
	uint8_t extra[FUZZ_EXTRA_MAX];
	char what[FUZZ_WHAT_MAX];	/* the mutation, one word for the log */

	int have_value;
	uint8_t *value;		/* M */
	size_t len;
	uint64_t covered;	/* the guest got M[0..covered) */
	int gap;		/* a read began past covered */
	unsigned nreads;

	/* for the log line */
	uint32_t fid;
	const char *aclname;
	char *path;
	char bucket[129];
};

/* A new reply's plan: declared size, steps, read limit, what.  Pure. */
void fuzz_plan(struct fuzz_reply *r, uint32_t seed, uint64_t index,
	       uint64_t real_size);

/* M from the server's value V (N bytes), once; 0 or -1 (memory). */
int fuzz_take_value(struct fuzz_reply *r, const uint8_t *v, size_t n);

/* The bytes an Rread of COUNT at OFF carries (*DATA points into M);
 * recorded as sent.  Needs fuzz_take_value first. */
uint32_t fuzz_read(struct fuzz_reply *r, uint64_t off, uint32_t count,
		   const uint8_t **data);

/* Log R's line (seed, reply, bucket, fid, name, mutation, sizes, the
 * bytes sent in hex, path) and free it; NULL is nothing. */
void fuzz_end(struct fuzz_reply *r);

#endif
