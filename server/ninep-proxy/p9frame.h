/* 9P2000.L frames: a pure parser (bytes in, parsed struct or error
 * out).  No I/O, no allocation, no state: the proxy's strictness about
 * sessions (msize, outstanding tags) lives in session.c, and the fuzz
 * test (p9frame-fuzz.c) can feed this any bytes.
 *
 * A frame is size[4] type[1] tag[2] body, little endian.  Parsed
 * strings and data point into the caller's buffer, which must outlive
 * the struct. */
#ifndef P9FRAME_H
#define P9FRAME_H

#include <stddef.h>
#include <stdint.h>

enum {
	P9_HDRSZ = 7,
	P9_NOTAG = 0xffff,
	P9_NOFID = 0xffffffffu,
	P9_MAXWELEM = 16,	/* the most names one Twalk may carry */
	P9_QIDSZ = 13,
};

/* The 9P2000.L messages (Linux's include/net/9p/9p.h numbering).  The
 * 9P2000 base messages that .L replaced (Topen, Tcreate, Tstat, Twstat,
 * Rerror) are not part of it, so they are unknown types here. */
enum p9_type {
	P9_RLERROR = 7,
	P9_TSTATFS = 8, P9_RSTATFS,
	P9_TLOPEN = 12, P9_RLOPEN,
	P9_TLCREATE = 14, P9_RLCREATE,
	P9_TSYMLINK = 16, P9_RSYMLINK,
	P9_TMKNOD = 18, P9_RMKNOD,
	P9_TRENAME = 20, P9_RRENAME,
	P9_TREADLINK = 22, P9_RREADLINK,
	P9_TGETATTR = 24, P9_RGETATTR,
	P9_TSETATTR = 26, P9_RSETATTR,
	P9_TXATTRWALK = 30, P9_RXATTRWALK,
	P9_TXATTRCREATE = 32, P9_RXATTRCREATE,
	P9_TREADDIR = 40, P9_RREADDIR,
	P9_TFSYNC = 50, P9_RFSYNC,
	P9_TLOCK = 52, P9_RLOCK,
	P9_TGETLOCK = 54, P9_RGETLOCK,
	P9_TLINK = 70, P9_RLINK,
	P9_TMKDIR = 72, P9_RMKDIR,
	P9_TRENAMEAT = 74, P9_RRENAMEAT,
	P9_TUNLINKAT = 76, P9_RUNLINKAT,
	P9_TVERSION = 100, P9_RVERSION,
	P9_TAUTH = 102, P9_RAUTH,
	P9_TATTACH = 104, P9_RATTACH,
	P9_TFLUSH = 108, P9_RFLUSH,
	P9_TWALK = 110, P9_RWALK,
	P9_TREAD = 116, P9_RREAD,
	P9_TWRITE = 118, P9_RWRITE,
	P9_TCLUNK = 120, P9_RCLUNK,
	P9_TREMOVE = 122, P9_RREMOVE,
};

/* Who sent the frame: the client sends T-messages, the server R. */
enum p9_dir { P9_FROM_CLIENT, P9_FROM_SERVER };

enum p9_err {
	P9_OK = 0,
	P9_NEED_MORE,		/* not an error: the frame is not complete yet */
	P9_E_SIZE_SMALL,	/* size field below the 7-byte header */
	P9_E_SIZE_BIG,		/* size field above the limit (msize) */
	P9_E_LENGTH,		/* the buffer is not as long as the size field says */
	P9_E_TYPE,		/* not a 9P2000.L message of this direction */
	P9_E_FIELD,		/* a field runs past the end of the frame */
	P9_E_TRAILING,		/* bytes after the last field */
	P9_E_NWNAME,		/* Twalk with more than 16 names */
	P9_E_NWQID,		/* Rwalk with more than 16 qids */
};

struct p9_str {
	const uint8_t *s;	/* not NUL-terminated */
	uint16_t len;
};

struct p9_msg {
	uint32_t size;
	uint8_t type;
	uint16_t tag;
	union {
		struct { uint32_t msize; struct p9_str version; } version;
		struct {
			uint32_t fid, afid;
			struct p9_str uname, aname;
			uint32_t n_uname;
		} attach;
		struct {
			uint32_t fid, newfid;
			uint16_t nwname;
			struct p9_str wname[P9_MAXWELEM];
		} walk;
		struct { uint16_t nwqid; const uint8_t *qids; } rwalk;
		struct {
			uint32_t fid;
			struct p9_str name;
			uint32_t flags, mode, gid;
		} lcreate;
		struct { const uint8_t *qid; uint32_t iounit; } rlcreate;
		struct { uint32_t fid, newfid; struct p9_str name; } xattrwalk;
		struct { uint64_t size; } rxattrwalk;
		struct {
			uint32_t fid;
			struct p9_str name;
			uint64_t attr_size;
			uint32_t flags;
		} xattrcreate;
		struct { uint32_t fid; uint64_t offset; uint32_t count; } read;
		struct { uint32_t count; const uint8_t *data; } rread;
		struct {
			uint32_t fid;
			uint64_t offset;
			uint32_t count;
			const uint8_t *data;
		} write;
		struct { uint32_t count; } rwrite;
		struct { uint32_t fid; } clunk;		/* Tclunk and Tremove */
		struct {
			uint32_t dirfid;
			struct p9_str name;
			uint32_t flags;
		} unlinkat;
		struct {
			uint32_t fid, valid;
			uint64_t mtime_sec;	/* the only time guest/wire.sh sets */
		} setattr;
		struct { uint32_t ecode; } lerror;
		struct { uint16_t oldtag; } flush;
	} u;
};

/* The frame at the start of a byte stream: P9_NEED_MORE until its
 * header is complete, then its size, checked against the header size
 * and LIMIT, and its type, checked against the direction.  *SIZE is set
 * once the size field is complete (four bytes), so a frame can be
 * refused before its body arrives. */
enum p9_err p9_frame_header(const uint8_t *buf, size_t len, uint32_t limit,
			    enum p9_dir dir, uint32_t *size);

/* One whole frame (LEN bytes, which the size field must equal): the
 * header checks of p9_frame_header, then every field of the messages
 * the proxy acts on, bounds-checked, with nothing left over; the body
 * of any other known message is not looked at. */
enum p9_err p9_parse(const uint8_t *buf, size_t len, uint32_t limit,
		     enum p9_dir dir, struct p9_msg *m);

/* "Twalk", "Rlerror", ...; NULL for a type 9P2000.L does not have. */
const char *p9_type_name(uint8_t type);

const char *p9_strerror(enum p9_err e);

/* Whether S is exactly the C string LIT. */
int p9_str_is(struct p9_str s, const char *lit);

static inline uint16_t p9_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t p9_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t p9_get64(const uint8_t *p)
{
	return (uint64_t)p9_get32(p) | (uint64_t)p9_get32(p + 4) << 32;
}

static inline void p9_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void p9_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static inline void p9_put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

#endif
