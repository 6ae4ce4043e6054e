/* 9P2000.L frame parser: see p9frame.h. */
#include "p9frame.h"

#include <string.h>

/* The one table of the message types: a name means the type exists.
 * T-messages are even, their R-messages the next odd number (Rlerror,
 * 7, answers any of them). */
static const char *const type_names[256] = {
	[P9_RLERROR] = "Rlerror",
	[P9_TSTATFS] = "Tstatfs", [P9_RSTATFS] = "Rstatfs",
	[P9_TLOPEN] = "Tlopen", [P9_RLOPEN] = "Rlopen",
	[P9_TLCREATE] = "Tlcreate", [P9_RLCREATE] = "Rlcreate",
	[P9_TSYMLINK] = "Tsymlink", [P9_RSYMLINK] = "Rsymlink",
	[P9_TMKNOD] = "Tmknod", [P9_RMKNOD] = "Rmknod",
	[P9_TRENAME] = "Trename", [P9_RRENAME] = "Rrename",
	[P9_TREADLINK] = "Treadlink", [P9_RREADLINK] = "Rreadlink",
	[P9_TGETATTR] = "Tgetattr", [P9_RGETATTR] = "Rgetattr",
	[P9_TSETATTR] = "Tsetattr", [P9_RSETATTR] = "Rsetattr",
	[P9_TXATTRWALK] = "Txattrwalk", [P9_RXATTRWALK] = "Rxattrwalk",
	[P9_TXATTRCREATE] = "Txattrcreate", [P9_RXATTRCREATE] = "Rxattrcreate",
	[P9_TREADDIR] = "Treaddir", [P9_RREADDIR] = "Rreaddir",
	[P9_TFSYNC] = "Tfsync", [P9_RFSYNC] = "Rfsync",
	[P9_TLOCK] = "Tlock", [P9_RLOCK] = "Rlock",
	[P9_TGETLOCK] = "Tgetlock", [P9_RGETLOCK] = "Rgetlock",
	[P9_TLINK] = "Tlink", [P9_RLINK] = "Rlink",
	[P9_TMKDIR] = "Tmkdir", [P9_RMKDIR] = "Rmkdir",
	[P9_TRENAMEAT] = "Trenameat", [P9_RRENAMEAT] = "Rrenameat",
	[P9_TUNLINKAT] = "Tunlinkat", [P9_RUNLINKAT] = "Runlinkat",
	[P9_TVERSION] = "Tversion", [P9_RVERSION] = "Rversion",
	[P9_TAUTH] = "Tauth", [P9_RAUTH] = "Rauth",
	[P9_TATTACH] = "Tattach", [P9_RATTACH] = "Rattach",
	[P9_TFLUSH] = "Tflush", [P9_RFLUSH] = "Rflush",
	[P9_TWALK] = "Twalk", [P9_RWALK] = "Rwalk",
	[P9_TREAD] = "Tread", [P9_RREAD] = "Rread",
	[P9_TWRITE] = "Twrite", [P9_RWRITE] = "Rwrite",
	[P9_TCLUNK] = "Tclunk", [P9_RCLUNK] = "Rclunk",
	[P9_TREMOVE] = "Tremove", [P9_RREMOVE] = "Rremove",
};

const char *p9_type_name(uint8_t type)
{
	return type_names[type];
}

const char *p9_strerror(enum p9_err e)
{
	switch (e) {
	case P9_OK: return "ok";
	case P9_NEED_MORE: return "incomplete frame";
	case P9_E_SIZE_SMALL: return "size below the 7-byte header";
	case P9_E_SIZE_BIG: return "size above msize";
	case P9_E_LENGTH: return "size field does not match the frame";
	case P9_E_TYPE: return "not a 9P2000.L message of this direction";
	case P9_E_FIELD: return "a field runs past the end of the frame";
	case P9_E_TRAILING: return "bytes after the last field";
	case P9_E_NWNAME: return "Twalk with more than 16 names";
	case P9_E_NWQID: return "Rwalk with more than 16 qids";
	}
	return "unknown error";
}

int p9_str_is(struct p9_str s, const char *lit)
{
	size_t n = strlen(lit);

	return s.len == n && memcmp(s.s, lit, n) == 0;
}

static int type_ok(uint8_t type, enum p9_dir dir)
{
	if (!type_names[type])
		return 0;
	return (type & 1) == (dir == P9_FROM_SERVER);
}

enum p9_err p9_frame_header(const uint8_t *buf, size_t len, uint32_t limit,
			    enum p9_dir dir, uint32_t *size)
{
	if (len < 4)
		return P9_NEED_MORE;
	*size = p9_get32(buf);
	if (*size < P9_HDRSZ)
		return P9_E_SIZE_SMALL;
	if (*size > limit)
		return P9_E_SIZE_BIG;
	if (len < 5)
		return P9_NEED_MORE;
	if (!type_ok(buf[4], dir))
		return P9_E_TYPE;
	if (len < P9_HDRSZ)
		return P9_NEED_MORE;
	return P9_OK;
}

/* A cursor over the body: every read checks the bytes left first and,
 * past the end, marks the cursor bad and yields zeros. */
struct cur {
	const uint8_t *p;
	size_t left;
	int bad;
};

static const uint8_t *take(struct cur *c, size_t n)
{
	const uint8_t *p = c->p;

	if (c->bad || n > c->left) {
		c->bad = 1;
		return NULL;
	}
	c->p += n;
	c->left -= n;
	return p;
}

static uint16_t u16(struct cur *c)
{
	const uint8_t *p = take(c, 2);

	return p ? p9_get16(p) : 0;
}

static uint32_t u32(struct cur *c)
{
	const uint8_t *p = take(c, 4);

	return p ? p9_get32(p) : 0;
}

static uint64_t u64(struct cur *c)
{
	const uint8_t *p = take(c, 8);

	return p ? p9_get64(p) : 0;
}

static struct p9_str str(struct cur *c)
{
	struct p9_str s = { NULL, 0 };
	uint16_t n = u16(c);
	const uint8_t *p = take(c, n);

	if (p) {
		s.s = p;
		s.len = n;
	}
	return s;
}

/* The body of the messages the proxy acts on; 0 when the type is one
 * whose body it does not look at. */
static enum p9_err body(struct cur *c, struct p9_msg *m, int *parsed)
{
	*parsed = 1;
	switch (m->type) {
	case P9_TVERSION:
	case P9_RVERSION:
		m->u.version.msize = u32(c);
		m->u.version.version = str(c);
		break;
	case P9_TATTACH:
		m->u.attach.fid = u32(c);
		m->u.attach.afid = u32(c);
		m->u.attach.uname = str(c);
		m->u.attach.aname = str(c);
		m->u.attach.n_uname = u32(c);
		break;
	case P9_TWALK:
		m->u.walk.fid = u32(c);
		m->u.walk.newfid = u32(c);
		m->u.walk.nwname = u16(c);
		if (c->bad)
			break;
		if (m->u.walk.nwname > P9_MAXWELEM)
			return P9_E_NWNAME;
		for (unsigned i = 0; i < m->u.walk.nwname; i++)
			m->u.walk.wname[i] = str(c);
		break;
	case P9_RWALK:
		m->u.rwalk.nwqid = u16(c);
		if (c->bad)
			break;
		if (m->u.rwalk.nwqid > P9_MAXWELEM)
			return P9_E_NWQID;
		m->u.rwalk.qids = take(c, (size_t)m->u.rwalk.nwqid * P9_QIDSZ);
		break;
	case P9_TLCREATE:
		m->u.lcreate.fid = u32(c);
		m->u.lcreate.name = str(c);
		m->u.lcreate.flags = u32(c);
		m->u.lcreate.mode = u32(c);
		m->u.lcreate.gid = u32(c);
		break;
	case P9_RLCREATE:
		m->u.rlcreate.qid = take(c, P9_QIDSZ);
		m->u.rlcreate.iounit = u32(c);
		break;
	case P9_TXATTRWALK:
		m->u.xattrwalk.fid = u32(c);
		m->u.xattrwalk.newfid = u32(c);
		m->u.xattrwalk.name = str(c);
		break;
	case P9_RXATTRWALK:
		m->u.rxattrwalk.size = u64(c);
		break;
	case P9_TXATTRCREATE:
		m->u.xattrcreate.fid = u32(c);
		m->u.xattrcreate.name = str(c);
		m->u.xattrcreate.attr_size = u64(c);
		m->u.xattrcreate.flags = u32(c);
		break;
	case P9_TREAD:
		m->u.read.fid = u32(c);
		m->u.read.offset = u64(c);
		m->u.read.count = u32(c);
		break;
	case P9_RREAD:
		m->u.rread.count = u32(c);
		m->u.rread.data = take(c, m->u.rread.count);
		break;
	case P9_TWRITE:
		m->u.write.fid = u32(c);
		m->u.write.offset = u64(c);
		m->u.write.count = u32(c);
		m->u.write.data = take(c, m->u.write.count);
		break;
	case P9_RWRITE:
		m->u.rwrite.count = u32(c);
		break;
	case P9_TCLUNK:
	case P9_TREMOVE:
		m->u.clunk.fid = u32(c);
		break;
	case P9_TUNLINKAT:
		m->u.unlinkat.dirfid = u32(c);
		m->u.unlinkat.name = str(c);
		m->u.unlinkat.flags = u32(c);
		break;
	case P9_TSETATTR:
		/* fid valid mode uid gid size atime[2] mtime[2] */
		m->u.setattr.fid = u32(c);
		m->u.setattr.valid = u32(c);
		u32(c);
		u32(c);
		u32(c);
		u64(c);
		u64(c);
		u64(c);
		m->u.setattr.mtime_sec = u64(c);
		u64(c);
		break;
	case P9_RLERROR:
		m->u.lerror.ecode = u32(c);
		break;
	case P9_TFLUSH:
		m->u.flush.oldtag = u16(c);
		break;
	case P9_RCLUNK:
	case P9_RREMOVE:
	case P9_RFLUSH:
	case P9_RXATTRCREATE:
		/* empty bodies: nothing may follow the header */
		break;
	default:
		*parsed = 0;
		break;
	}
	return P9_OK;
}

enum p9_err p9_parse(const uint8_t *buf, size_t len, uint32_t limit,
		     enum p9_dir dir, struct p9_msg *m)
{
	uint32_t size = 0;
	enum p9_err e = p9_frame_header(buf, len, limit, dir, &size);
	struct cur c;
	int parsed;

	memset(m, 0, sizeof(*m));
	if (e != P9_OK)
		return e;
	if (size != len)
		return size > len ? P9_NEED_MORE : P9_E_LENGTH;
	m->size = size;
	m->type = buf[4];
	m->tag = p9_get16(buf + 5);
	c.p = buf + P9_HDRSZ;
	c.left = len - P9_HDRSZ;
	c.bad = 0;
	e = body(&c, m, &parsed);
	if (e != P9_OK)
		return e;
	if (c.bad)
		return P9_E_FIELD;
	if (parsed && c.left)
		return P9_E_TRAILING;
	return P9_OK;
}
