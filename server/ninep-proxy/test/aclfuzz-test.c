/* Self-test of the fuzz mode (aclfuzz.c, driven through session.c as
 * the proxy drives it) and of the POSIX ACL xattr format (aclxattr.c,
 * which the fuzz judge and guest use), built with ASan and UBSan
 * (Makefile: selftest), run by tests/rig/run.sh.
 *
 * 1. The strict reading: known values accepted or refused, with the
 *    reason; the canonical encoding; permission decisions.
 * 2. The fuzz mode, a session with no I/O (its callbacks collect the
 *    frames), for many seeds, each a series of ACL reads of real values
 *    as the kernel makes them: every frame either way is valid 9P
 *    within msize, the server is asked for the whole value, an Rread
 *    carries no more than its Tread asked, the guest sees the planned
 *    size, and the log line of each reply holds the declared size and
 *    exactly the bytes the guest got.  The same seed gives the same
 *    bytes, another seed others; every mutation is drawn, truncation
 *    and short reads reach every length below the value's, and the
 *    strict verdicts of what the guest got include valid, none and
 *    invalid.  An Rlerror and a value too large to fuzz pass unchanged
 *    and are logged.
 * Prints one line per group; exits 1 at the first wrong outcome. */
#include "aclfuzz.h"
#include "aclxattr.h"
#include "log.h"
#include "p9build.h"
#include "p9frame.h"
#include "session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK_PROG "aclfuzz-test"
#include "test/check.h"

static struct aclx acl;	/* 64 KiB: not on the stack */

static size_t from_hex(const char *hex, uint8_t *out, size_t cap)
{
	size_t n = 0;

	for (; hex[0] && hex[1] && n < cap; hex += 2) {
		unsigned v;

		if (sscanf(hex, "%2x", &v) != 1)
			break;
		out[n++] = (uint8_t)v;
	}
	return n;
}

static enum aclx_verdict verdict_hex(const char *hex, uint64_t declared,
				     char *why, size_t cap)
{
	uint8_t v[1024];
	size_t n = from_hex(hex, v, sizeof(v));

	return aclx_parse(v, n, declared, &acl, why, cap);
}

static void test_strict(void)
{
	/* u::rw-,u:1001:r--,g::r--,m::r--,o::--- as the kernel stores it */
	static const char *const good =
		"0200000001000600ffffffff02000400e903000004000400ffffffff10000400ffffffff20000000ffffffff";
	static const struct { const char *hex; const char *why; } bad[] = {
		{ "0300000001000600ffffffff04000400ffffffff20000000ffffffff", "version 3" },
		{ "02000000", "no entries" },
		{ "020000", "below the header" },
		{ "0200000001000600ffffffff04000400ffffffff20000000ffffff", "not 4+8n" },
		/* a named user and no mask */
		{ "0200000001000600ffffffff02000600e903000004000400ffffffff20000000ffffffff", "no MASK" },
		{ "0200000001000600ffffffff40000600ffffffff04000400ffffffff20000000ffffffff", "unknown tag" },
		{ "0200000001000e00ffffffff04000400ffffffff20000000ffffffff", "beyond rwx" },
		{ "0200000001000600ffffffff02000600ffffffff04000400ffffffff10000400ffffffff20000000ffffffff", "0xffffffff" },
		{ "0200000001000600ffffffff01000600ffffffff04000400ffffffff20000000ffffffff", "USER_OBJ" },
		{ "0200000004000400ffffffff01000600ffffffff20000000ffffffff", "GROUP_OBJ" },
		{ "0200000001000600ffffffff04000400ffffffff", "no OTHER" },
		{ "0200000001000600ffffffff04000400ffffffff20000000ffffffff20000000ffffffff", "after OTHER" },
		{ "0200000001000600ffffffff04000400ffffffff10000400ffffffff10000400ffffffff20000000ffffffff", "MASK out of order" },
	};
	uint8_t v[512], enc[512];
	char why[96];
	size_t n;

	n = from_hex(good, v, sizeof(v));
	CHECK(aclx_parse(v, n, n, &acl, why, sizeof(why)) == ACLX_VALID, "good: %s", why);
	CHECK(acl.count == 5 && acl.e[1].tag == ACLX_USER && acl.e[1].id == 1001 &&
	      acl.e[1].perm == 4, "good's entries");
	CHECK(aclx_encode(&acl, enc, sizeof(enc)) == n && !memcmp(enc, v, n), "encoding");
	CHECK(aclx_ids_sorted(&acl), "sorted");
	CHECK(aclx_parse(v, n, 0, NULL, why, sizeof(why)) == ACLX_NONE, "size 0");
	/* the first 28 of 44 bytes: they would parse without the mask */
	CHECK(aclx_parse(v, 28, n, NULL, why, sizeof(why)) == ACLX_INVALID &&
	      strstr(why, "28 bytes read of 44"), "short read: %s", why);
	CHECK(aclx_parse(v, n, n + 8, NULL, why, sizeof(why)) == ACLX_INVALID, "declared more");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = from_hex(bad[i].hex, v, sizeof(v));
		CHECK(aclx_parse(v, n, n, NULL, why, sizeof(why)) == ACLX_INVALID &&
		      strstr(why, bad[i].why), "%s: got '%s'", bad[i].why, why);
	}
	/* what posix_acl_valid() does not check: ids unsorted or twice;
	 * a mask with no named entry; an unnamed entry's id */
	CHECK(aclx_from_text("u::rw-,u:1002:r--,u:1001:rw-,g::r--,m::rw-,o::---", &acl) == 0,
	      "text");
	n = aclx_encode(&acl, v, sizeof(v));
	CHECK(aclx_parse(v, n, n, &acl, why, sizeof(why)) == ACLX_VALID && !aclx_ids_sorted(&acl),
	      "unsorted ids: %s", why);
	CHECK(aclx_from_text("u::rw-,u:1001:r--,u:1001:rw-,g::r--,m::rw-,o::---", &acl) == 0 &&
	      (n = aclx_encode(&acl, v, sizeof(v))) &&
	      aclx_parse(v, n, n, &acl, why, sizeof(why)) == ACLX_VALID && !aclx_ids_sorted(&acl),
	      "a named user twice: %s", why);
	n = from_hex("0200000001000600000000000400040005000000100004000000000020000000ffffffff", v, sizeof(v));
	CHECK(aclx_parse(v, n, n, &acl, why, sizeof(why)) == ACLX_VALID, "mask alone: %s", why);
	CHECK(aclx_encode(&acl, enc, sizeof(enc)) == n && enc[8] == 0xff && enc[16] == 0xff &&
	      enc[24] == 0xff, "unnamed ids encode as 0xffffffff");
	CHECK(aclx_from_text("u::rw-,q::---", &acl) == -1 &&
	      aclx_from_text("u::rw", &acl) == -1 && aclx_from_text("m:5:rw-", &acl) == -1,
	      "bad text");
	printf("ok - strict ACL reading: 1 value accepted, %zu refused with their reasons, encoding\n",
	       sizeof(bad) / sizeof(bad[0]) + 3);
}

static int decide(const char *text, uint32_t mode, int want)
{
	static const struct aclx_cred c = { 1001, 1001, 1, { 1002 } };
	struct aclx_inode ino = { 0, 0, mode };

	if (!text)
		return aclx_permission(NULL, &ino, &c, want);
	CHECK(aclx_from_text(text, &acl) == 0, "text %s", text);
	return aclx_permission(&acl, &ino, &c, want);
}

static void test_permission(void)
{
	const char *masked = "u::rw-,u:1001:rw-,g::r--,m::r--,o::---";

	CHECK(decide(masked, 0640, 4) == 0, "named user reads");
	CHECK(decide(masked, 0640, 2) == EACCES, "the mask takes write");
	/* without its mask (invalid) a named entry goes unmasked */
	CHECK(decide("u::rw-,u:1001:rw-,g::r--,o::---", 0640, 2) == 0, "unmasked");
	/* a named group of a supplementary group; found, so not other */
	CHECK(decide("u::rw-,g::---,g:1002:r--,m::rwx,o::rw-", 0670, 4) == 0, "group reads");
	CHECK(decide("u::rw-,g::---,g:1002:r--,m::rwx,o::rw-", 0670, 2) == EACCES,
	      "group found: other does not grant");
	/* the first matching entry decides */
	CHECK(decide("u::rw-,u:1001:r--,u:1001:rw-,g::r--,m::rw-,o::---", 0660, 2) == EACCES,
	      "first entry");
	/* no group bits in the mode: the ACL is not asked */
	CHECK(decide("u::rw-,u:1001:---,g::---,m::---,o::r--", 0604, 4) == 0, "no group bits");
	CHECK(decide(NULL, 0604, 4) == 0 && decide(NULL, 0640, 4) == EACCES &&
	      decide(NULL, 0664, 6) == EACCES, "mode bits");
	printf("ok - permission decisions of uid 1001 (groups 1001, 1002)\n");
}

/* The session under test and what it sends either way. */
enum { MSIZE = 8192 };
struct wire {
	uint8_t buf[1 << 16];
	size_t len;
	int frames;
};
static struct wire to_server, to_guest;

static int put(struct wire *w, const uint8_t *b, size_t n)
{
	CHECK(w->len + n <= sizeof(w->buf), "wire full");
	memcpy(w->buf + w->len, b, n);
	w->len += n;
	w->frames++;
	return 0;
}

static int cb_server(void *ctx, const uint8_t *b, size_t n) { (void)ctx; return put(&to_server, b, n); }
static int cb_guest(void *ctx, const uint8_t *b, size_t n) { (void)ctx; return put(&to_guest, b, n); }
static int cb_hold(void *ctx, const uint8_t *b, size_t n, uint16_t tag, uint32_t ms)
{
	(void)ctx; (void)b; (void)n; (void)tag; (void)ms;
	CHECK(0, "a reply held: nothing delays here");
	return -1;
}
static void cb_release(void *ctx, uint16_t tag) { (void)ctx; (void)tag; }

/* The one frame W got, parsed (as sent in DIR); its type checked. */
static void one(struct wire *w, enum p9_dir dir, uint8_t type, struct p9_msg *m)
{
	CHECK(w->frames == 1, "%d frames where one was due", w->frames);
	CHECK(p9_parse(w->buf, w->len, MSIZE, dir, m) == P9_OK, "invalid frame of %zu bytes",
	      w->len);
	CHECK(m->type == type, "type %u, not %u", m->type, type);
}

static struct session s;

static void guest(uint8_t *b, size_t n)
{
	to_server.len = 0;
	to_server.frames = 0;
	to_guest.len = 0;
	to_guest.frames = 0;
	CHECK(session_from_guest(&s, b, n) == S_OK, "guest frame refused");
}

static void server(uint8_t *b, size_t n)
{
	to_guest.len = 0;
	to_guest.frames = 0;
	CHECK(session_from_server(&s, b, n) == S_OK, "server frame refused");
}

static const uint8_t QID[13];

static void start(void)
{
	static const struct session_io io = {
		NULL, cb_server, cb_guest, cb_hold, cb_release,
	};
	uint8_t f[256];
	struct p9b b;
	struct p9_msg m;

	CHECK(session_init(&s, &io, -1) == 0, "session");
	p9b_begin(&b, f, sizeof(f), P9_TVERSION, P9_NOTAG);
	p9b_u32(&b, MSIZE);
	p9b_str(&b, "9P2000.L");
	guest(f, p9b_end(&b));
	p9b_begin(&b, f, sizeof(f), P9_RVERSION, P9_NOTAG);
	p9b_u32(&b, MSIZE);
	p9b_str(&b, "9P2000.L");
	server(f, p9b_end(&b));
	p9b_begin(&b, f, sizeof(f), P9_TATTACH, 1);
	p9b_u32(&b, 1);
	p9b_u32(&b, P9_NOFID);
	p9b_str(&b, "");
	p9b_str(&b, "/exp");
	p9b_u32(&b, 0);
	guest(f, p9b_end(&b));
	p9b_begin(&b, f, sizeof(f), P9_RATTACH, 1);
	p9b_mem(&b, QID, 13);
	server(f, p9b_end(&b));
	one(&to_guest, P9_FROM_SERVER, P9_RATTACH, &m);
	/* fid 2: the file */
	p9b_begin(&b, f, sizeof(f), P9_TWALK, 1);
	p9b_u32(&b, 1);
	p9b_u32(&b, 2);
	p9b_u16(&b, 1);
	p9b_str(&b, "f");
	guest(f, p9b_end(&b));
	p9b_begin(&b, f, sizeof(f), P9_RWALK, 1);
	p9b_u16(&b, 1);
	p9b_mem(&b, QID, 13);
	server(f, p9b_end(&b));
}

/* A walk to a control name, answered ENOENT as diod does. */
static void control(const char *name)
{
	uint8_t f[256];
	struct p9b b;

	p9b_begin(&b, f, sizeof(f), P9_TWALK, 1);
	p9b_u32(&b, 1);
	p9b_u32(&b, 9);
	p9b_u16(&b, 1);
	p9b_str(&b, name);
	guest(f, p9b_end(&b));
	server(f, p9b_rlerror(f, sizeof(f), 1, ENOENT));
}

/* What the guest got of one ACL read. */
struct got {
	uint64_t declared;
	uint8_t bytes[1024];
	size_t len;
};

/* One ACL read of VALUE (N bytes) as 6.1's second walk or the series'
 * one walk make it: Txattrwalk, Treads of what is left of the declared
 * size (none when READ is 0, as 6.1's size probe), Tclunk. */
static void acl_read(const uint8_t *value, size_t n, int read, struct got *g)
{
	uint8_t f[MSIZE];
	struct p9b b;
	struct p9_msg m;

	p9b_begin(&b, f, sizeof(f), P9_TXATTRWALK, 2);
	p9b_u32(&b, 2);
	p9b_u32(&b, 3);
	p9b_str(&b, "system.posix_acl_access");
	guest(f, p9b_end(&b));
	one(&to_server, P9_FROM_CLIENT, P9_TXATTRWALK, &m);
	p9b_begin(&b, f, sizeof(f), P9_RXATTRWALK, 2);
	p9b_u64(&b, n);
	server(f, p9b_end(&b));
	one(&to_guest, P9_FROM_SERVER, P9_RXATTRWALK, &m);
	g->declared = m.u.rxattrwalk.size;
	g->len = 0;
	while (read && g->declared <= 65536 && g->len < g->declared) {
		uint64_t want = g->declared - g->len;
		uint32_t count = want > MSIZE - 11 ? MSIZE - 11 : (uint32_t)want;

		p9b_begin(&b, f, sizeof(f), P9_TREAD, 3);
		p9b_u32(&b, 3);
		p9b_u64(&b, g->len);
		p9b_u32(&b, count);
		guest(f, p9b_end(&b));
		one(&to_server, P9_FROM_CLIENT, P9_TREAD, &m);
		CHECK(m.u.read.offset == 0 && m.u.read.count == n,
		      "the server is asked %u at %llu, not the whole value", m.u.read.count,
		      (unsigned long long)m.u.read.offset);
		p9b_begin(&b, f, sizeof(f), P9_RREAD, 3);
		p9b_u32(&b, (uint32_t)n);
		p9b_mem(&b, value, n);
		server(f, p9b_end(&b));
		one(&to_guest, P9_FROM_SERVER, P9_RREAD, &m);
		CHECK(m.u.rread.count <= count, "Rread of %u for a Tread of %u",
		      m.u.rread.count, count);
		CHECK(g->len + m.u.rread.count <= sizeof(g->bytes), "more than a value");
		memcpy(g->bytes + g->len, m.u.rread.data, m.u.rread.count);
		g->len += m.u.rread.count;
		if (!m.u.rread.count)
			break;
	}
	p9b_begin(&b, f, sizeof(f), P9_TCLUNK, 4);
	p9b_u32(&b, 3);
	guest(f, p9b_end(&b));
	p9b_begin(&b, f, sizeof(f), P9_RCLUNK, 4);
	server(f, p9b_end(&b));
	one(&to_guest, P9_FROM_SERVER, P9_RCLUNK, &m);
}

static int log_fd;

/* The log so far (NUL-terminated, static), then an empty log. */
static const char *take_log(void)
{
	static char text[1 << 20];
	ssize_t n = pread(log_fd, text, sizeof(text) - 1, 0);

	CHECK(n >= 0, "log read");
	text[n] = '\0';
	CHECK(ftruncate(log_fd, 0) == 0 && lseek(log_fd, 0, SEEK_SET) == 0, "log reset");
	return text;
}

/* The value of KEY= in LINE, up to a blank, into OUT. */
static int field(const char *line, const char *key, char *out, size_t cap)
{
	char pat[32];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	n = strcspn(p, " \n");
	if (n >= cap)
		return -1;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

enum { SEEDS = 2000, REPLIES = 6, VALUES = 3 };

static const char *const TEXTS[VALUES] = {
	"u::rw-,u:1001:r--,g::r--,m::r--,o::---",
	"u::rwx,u:1001:r-x,u:1003:rw-,g::r-x,g:1002:rw-,m::rwx,o::--x",
	"u::rw-,g::r--,o::r--",
};

static void test_fuzz(void)
{
	static struct got got[SEEDS][REPLIES];
	static const char *const kinds[] = {
		"none", "perms", "bitflip", "shortread", "truncate", "extend", "size",
		"dup", "swap", "drop", "empty", "tag", "id", "perm", "version", "multi",
	};
	unsigned seen_kind[16] = { 0 }, cut_len[64] = { 0 };
	unsigned long verdicts[3] = { 0 }, lines = 0;
	uint8_t values[VALUES][256];
	size_t lens[VALUES];
	char spec[64];

	for (int v = 0; v < VALUES; v++) {
		CHECK(aclx_from_text(TEXTS[v], &acl) == 0, "text");
		lens[v] = aclx_encode(&acl, values[v], sizeof(values[v]));
	}
	start();
	for (uint32_t seed = 0; seed < SEEDS; seed++) {
		const char *log, *line;
		uint64_t next = 0;

		snprintf(spec, sizeof(spec), "acl9p-fault=fuzz=%u", seed);
		control(spec);
		control("acl9p-mark=call.1");
		for (int k = 0; k < REPLIES; k++) {
			int v = k % VALUES;

			/* every third reply read as 6.1's size probe */
			acl_read(values[v], lens[v], k % 3 != 2, &got[seed][k]);
		}
		log = take_log();
		for (line = strstr(log, "fuzz seed="); line; line = strstr(line + 1, "fuzz seed=")) {
			char val[2200], mut[FUZZ_WHAT_MAX], *colon;
			unsigned long long reply, declared;
			struct got *g;
			char hex[2200] = "-";

			CHECK(field(line - 1, "reply", val, sizeof(val)) == 0, "no reply=");
			reply = strtoull(val, NULL, 10);
			CHECK(reply == next++ && reply < REPLIES, "reply %llu out of order", reply);
			g = &got[seed][reply];
			CHECK(field(line - 1, "seed", val, sizeof(val)) == 0 &&
			      strtoul(val, NULL, 10) == seed, "seed");
			CHECK(field(line - 1, "bucket", val, sizeof(val)) == 0 &&
			      !strcmp(val, "call.1"), "bucket %s", val);
			CHECK(field(line - 1, "declared", val, sizeof(val)) == 0, "declared=");
			declared = strtoull(val, NULL, 10);
			CHECK(declared == g->declared, "seed %u reply %llu: logged %llu, shown %llu",
			      seed, reply, declared, (unsigned long long)g->declared);
			for (size_t i = 0; i < g->len; i++)
				snprintf(hex + 2 * i, 3, "%02x", g->bytes[i]);
			CHECK(field(line - 1, "sent", val, sizeof(val)) == 0 && !strcmp(val, hex),
			      "seed %u reply %llu: logged %s, the guest got %s", seed, reply, val, hex);
			CHECK(field(line - 1, "mutation", mut, sizeof(mut)) == 0, "mutation=");
			if ((colon = strchr(mut, ':')))
				*colon = '\0';
			for (size_t i = 0; i < 16; i++)
				if (!strcmp(mut, kinds[i]))
					seen_kind[i]++;
			if ((!strcmp(mut, "truncate") || !strcmp(mut, "shortread")) &&
			    reply % VALUES == 0)
				cut_len[strtoul(colon + 1, NULL, 10) % 64]++;
			if (reply % 3 != 2)
				verdicts[verdict_hex(hex, declared, NULL, 0)]++;
			lines++;
		}
		CHECK(next == REPLIES, "seed %u: %llu log lines for %d replies", seed,
		      (unsigned long long)next, REPLIES);
	}
	session_end(&s);
	for (size_t i = 0; i < 16; i++)
		CHECK(seen_kind[i] > 0, "mutation %s never drawn", kinds[i]);
	for (size_t l = 0; l < lens[0]; l++)
		CHECK(cut_len[l] > 0, "no value cut at %zu bytes", l);
	CHECK(verdicts[ACLX_VALID] && verdicts[ACLX_NONE] && verdicts[ACLX_INVALID],
	      "verdicts %lu %lu %lu", verdicts[0], verdicts[1], verdicts[2]);

	/* the same seed again: the same bytes; seeds apart: not */
	for (uint32_t seed = 7; seed <= 8; seed++) {
		struct got again;

		start();
		snprintf(spec, sizeof(spec), "acl9p-fault=fuzz=%u", seed);
		control(spec);
		for (int k = 0; k < REPLIES; k++) {
			acl_read(values[k % VALUES], lens[k % VALUES], k % 3 != 2, &again);
			CHECK(again.declared == got[seed][k].declared && again.len == got[seed][k].len &&
			      !memcmp(again.bytes, got[seed][k].bytes, again.len),
			      "seed %u reply %d differs on a second run", seed, k);
		}
		session_end(&s);
		take_log();
	}
	{
		int differ = 0;

		for (int k = 0; k < REPLIES; k++)
			differ |= got[7][k].len != got[8][k].len ||
				  memcmp(got[7][k].bytes, got[8][k].bytes, got[7][k].len);
		CHECK(differ, "seeds 7 and 8 gave the same bytes");
	}
	printf("ok - fuzz mode: %u seeds x %d ACL reads, every frame valid 9P within msize, %lu log lines with the bytes sent; %lu valid, %lu none, %lu invalid; the same seed the same bytes\n",
	       SEEDS, REPLIES, lines, verdicts[ACLX_VALID], verdicts[ACLX_NONE],
	       verdicts[ACLX_INVALID]);
}

/* Rlerror, a value too large to fuzz, and disarming: unchanged, logged. */
static void test_passthrough(void)
{
	static uint8_t big[600];
	uint8_t f[MSIZE];
	struct p9b b;
	struct p9_msg m;
	struct got g;
	const char *log;

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)i;
	start();
	control("acl9p-fault=fuzz=1");
	p9b_begin(&b, f, sizeof(f), P9_TXATTRWALK, 2);
	p9b_u32(&b, 2);
	p9b_u32(&b, 3);
	p9b_str(&b, "system.posix_acl_default");
	guest(f, p9b_end(&b));
	server(f, p9b_rlerror(f, sizeof(f), 2, ENODATA));
	one(&to_guest, P9_FROM_SERVER, P9_RLERROR, &m);
	CHECK(m.u.lerror.ecode == ENODATA, "Rlerror changed");
	/* 600 bytes: no mutation, and the reads as the server gives them */
	p9b_begin(&b, f, sizeof(f), P9_TXATTRWALK, 2);
	p9b_u32(&b, 2);
	p9b_u32(&b, 3);
	p9b_str(&b, "system.posix_acl_access");
	guest(f, p9b_end(&b));
	p9b_begin(&b, f, sizeof(f), P9_RXATTRWALK, 2);
	p9b_u64(&b, sizeof(big));
	server(f, p9b_end(&b));
	one(&to_guest, P9_FROM_SERVER, P9_RXATTRWALK, &m);
	CHECK(m.u.rxattrwalk.size == sizeof(big), "large value's size changed");
	p9b_begin(&b, f, sizeof(f), P9_TREAD, 3);
	p9b_u32(&b, 3);
	p9b_u64(&b, 0);
	p9b_u32(&b, sizeof(big));
	guest(f, p9b_end(&b));
	p9b_begin(&b, f, sizeof(f), P9_RREAD, 3);
	p9b_u32(&b, sizeof(big));
	p9b_mem(&b, big, sizeof(big));
	server(f, p9b_end(&b));
	one(&to_guest, P9_FROM_SERVER, P9_RREAD, &m);
	CHECK(m.u.rread.count == sizeof(big) && !memcmp(m.u.rread.data, big, sizeof(big)),
	      "large value changed");
	p9b_begin(&b, f, sizeof(f), P9_TCLUNK, 4);
	p9b_u32(&b, 3);
	guest(f, p9b_end(&b));
	p9b_begin(&b, f, sizeof(f), P9_RCLUNK, 4);
	server(f, p9b_end(&b));
	/* disarmed: a value passes as it is */
	control("acl9p-fault=none");
	acl_read(big, 44, 1, &g);
	CHECK(g.declared == 44 && g.len == 44 && !memcmp(g.bytes, big, 44), "disarmed");
	session_end(&s);
	log = take_log();
	CHECK(strstr(log, "fuzz seed=1 reply=0 bucket=- fid=2 name=system.posix_acl_default rlerror=61 path=/exp/f"),
	      "Rlerror not logged: %s", log);
	CHECK(strstr(log, "fuzz seed=1 reply=1 bucket=- fid=3 name=system.posix_acl_access unfuzzed=600 path=/exp/f"),
	      "large value not logged: %s", log);
	CHECK(!strstr(log, "reply=2"), "a reply fuzzed after disarming: %s", log);
	printf("ok - fuzz mode: an Rlerror and a 600-byte value pass unchanged and are logged; disarmed, nothing changes\n");
}

int main(void)
{
	FILE *lf = tmpfile();

	CHECK(lf != NULL, "tmpfile");
	log_fd = fileno(lf);
	log_open(log_fd);
	test_strict();
	test_permission();
	test_fuzz();
	test_passthrough();
	printf("aclfuzz-test: %lu checks passed\n", checks);
	return 0;
}
