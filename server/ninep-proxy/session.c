/* One 9P2000.L connection: strictness beyond the frame (msize, tags),
 * fid paths, fault injection and counting.  See session.h, and
 * server/README.md for the control names and fault SPECs. */
#include "session.h"
#include "log.h"
#include "p9build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the proxy keeps of a T-message until its R arrives. */
struct pending {
	uint8_t used, type;
	uint8_t acl;		/* ACL xattr traffic */
	uint8_t viewed;		/* Tread: view holds the fid's view */
	uint8_t acl_write;	/* Tclunk of a fid an ACL Txattrcreate made */
	uint8_t fuzzread;	/* Tread of a fuzzed fid, sent on as a read
				 * of the whole value */
	uint16_t nwname;	/* Twalk */
	uint16_t oldtag;	/* Tflush */
	uint32_t fid, newfid;
	uint32_t msize;		/* Tversion, as forwarded */
	char *path;		/* Tattach, Twalk, Tlcreate: the path it makes;
				 * Txattrwalk: the path of fid */
	size_t rootlen;
	const char *aclname;
	struct fault fault;	/* Txattrwalk: the fault armed when it came */
	uint32_t delay_ms;	/* hold the reply this long */
	uint64_t offset;	/* Tread (fuzzread: as the guest asked) */
	uint32_t count;		/* Tread: as sent on */
	uint32_t gcount;	/* fuzzread: the count the guest asked */
	struct xview view;
};

static const char CTL_FAULT[] = "acl9p-fault=";
static const char CTL_MARK[] = "acl9p-mark=";
static const char VERSION_L[] = "9P2000.L";

int session_init(struct session *s, const struct session_io *io,
		 int counts_fd)
{
	memset(s, 0, sizeof(*s));
	s->io = *io;
	/* one per tag: calloc's pages stay untouched (and unallocated)
	 * but for the tags in use, which Linux takes from the bottom */
	s->pending = calloc(65536, sizeof(*s->pending));
	if (!s->pending || fids_init(&s->fids) != 0)
		return -1;
	counts_init(&s->counts, counts_fd);
	return 0;
}

static void pending_clear(struct pending *p)
{
	free(p->path);
	memset(p, 0, sizeof(*p));
}

static void pending_clear_all(struct session *s)
{
	for (size_t i = 0; i < 65536; i++)
		if (s->pending[i].used)
			pending_clear(&s->pending[i]);
}

void session_end(struct session *s)
{
	counts_flush(&s->counts);
	if (s->pending) {
		pending_clear_all(s);
		free(s->pending);
		s->pending = NULL;
	}
	fids_free(&s->fids);
}

uint32_t session_limit(const struct session *s, enum p9_dir dir)
{
	(void)dir;
	return s->msize ? s->msize : PRE_VERSION_MAX;
}

/* N bytes of S as one log-safe word. */
static void printable(char *out, size_t cap, const uint8_t *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k + 1 < cap; i++)
		out[k++] = s[i] > ' ' && s[i] <= '~' ? (char)s[i] : '?';
	out[k] = '\0';
}

static enum session_rc refuse(const char *who, const char *why,
			      const uint8_t *buf, size_t len)
{
	plog_frame(who, why, buf, len);
	return S_BAD;
}

/* The ACL name NAME is, or NULL. */
static const char *acl_name(struct p9_str name)
{
	static const char *const names[] = {
		"system.posix_acl_access", "system.posix_acl_default",
	};

	for (size_t i = 0; i < 2; i++)
		if (p9_str_is(name, names[i]))
			return names[i];
	return NULL;
}

static int has_prefix(struct p9_str s, const char *prefix, size_t n)
{
	return s.len >= n && memcmp(s.s, prefix, n) == 0;
}

/* A wname of a Twalk that is a control name: arm a fault or start a
 * bucket.  The walk itself goes on to the server, which answers ENOENT. */
static void control(struct session *s, struct p9_str name)
{
	char word[2 * LABEL_MAX];

	if (has_prefix(name, CTL_FAULT, sizeof(CTL_FAULT) - 1)) {
		const char *spec = (const char *)name.s + sizeof(CTL_FAULT) - 1;
		size_t n = name.len - (sizeof(CTL_FAULT) - 1);
		struct fault f;

		if (fault_parse(spec, n, &f) != 0) {
			printable(word, sizeof(word), (const uint8_t *)spec, n);
			plog("control: unknown fault SPEC '%s': nothing armed", word);
		} else if (f.kind == F_NONE) {
			plog("control: fault none: nothing armed");
		} else {
			plog("control: fault %s armed", f.spec);
		}
		s->armed = f;
		s->drop_left = f.kind == F_DROP_AFTER ? f.arg : 0;
		s->sizechange_seen = 0;
		s->fuzz_next = 0;
	} else if (has_prefix(name, CTL_MARK, sizeof(CTL_MARK) - 1)) {
		const char *label = (const char *)name.s + sizeof(CTL_MARK) - 1;
		size_t n = name.len - (sizeof(CTL_MARK) - 1);

		if (!counts_label_ok(label, n)) {
			printable(word, sizeof(word), (const uint8_t *)label, n);
			plog("control: mark '%s' refused (1-%d printable bytes, no blanks): bucket '%s' goes on",
			     word, LABEL_MAX, s->counts.label);
			return;
		}
		memcpy(word, label, n);
		word[n] = '\0';
		if (counts_mark(&s->counts, word) != 0)
			plog("counts: write failed");
	}
}

/*
 * make wire's marker (guest/wire.sh): a Tsetattr that sets the mtime
 * to WIRE_MARK_EPOCH + N seconds, a time nothing else sets, begins the
 * bucket "N", as the marker splits QEMU's trace for acl9p-p9trace.
 * 1 when M is one.
 */
#define WIRE_MARK_EPOCH	1000000000ULL
#define WIRE_MARK_MAX	100000ULL
#define P9_SETATTR_MODE		0x1
#define P9_SETATTR_MTIME_SET	0x100
static int wire_mark(struct session *s, const struct p9_msg *m)
{
	char label[24];
	uint64_t t;

	if (m->type != P9_TSETATTR || !(m->u.setattr.valid & P9_SETATTR_MTIME_SET))
		return 0;
	t = m->u.setattr.mtime_sec;
	if (t <= WIRE_MARK_EPOCH || t >= WIRE_MARK_EPOCH + WIRE_MARK_MAX)
		return 0;
	snprintf(label, sizeof(label), "%llu",
		 (unsigned long long)(t - WIRE_MARK_EPOCH));
	if (counts_mark(&s->counts, label) != 0)
		plog("counts: write failed");
	return 1;
}

/* drop-after=N: N matching requests pass, the next one ends the
 * connection.  1 when this one does. */
static int drop_after(struct session *s, const char *req, uint16_t tag,
		      uint32_t fid, const char *path)
{
	if (s->armed.kind != F_DROP_AFTER)
		return 0;
	if (s->drop_left > 0) {
		s->drop_left--;
		return 0;
	}
	plog("fault %s: %s tag %u fid %u: closing both connections: %s",
	     s->armed.spec, req, tag, fid, path);
	return 1;
}

static enum session_rc reply_error(struct session *s, uint16_t tag,
				   uint32_t ecode)
{
	uint8_t buf[16];
	size_t n = p9b_rlerror(buf, sizeof(buf), tag, ecode);

	return s->io.to_guest(s->io.ctx, buf, n) == 0 ? S_OK : S_BAD;
}

/*
 * A fid number the server still holds (it answered the walk, attach or
 * create that made it, and no Tclunk or Tremove of it has been answered)
 * cannot name a new fid.  QEMU refuses such a request with EINVAL; the
 * proxy does too, whatever server is behind it (diod takes it), so a
 * client that hands out again the number of a fid whose Tclunk or
 * Tremove never left is caught here.  Not forwarded: the server's fid
 * stays as it was.
 */
static enum session_rc newfid_in_use(struct session *s, const struct p9_msg *m,
				     uint32_t newfid)
{
	const struct fid *f = fids_get(&s->fids, newfid);

	plog("%s tag %u: newfid %u is in use (%s): answered Rlerror EINVAL",
	     p9_type_name(m->type), m->tag, newfid, f ? f->path : "?");
	return reply_error(s, m->tag, EINVAL);
}

static char *dup_path(const char *path)
{
	char *p = strdup(path);

	if (!p)
		plog("out of memory");
	return p;
}

static enum session_rc t_version(struct session *s, struct pending *p,
				 struct p9_msg *m, uint8_t *buf, size_t len)
{
	(void)len;
	/* a new session: the server forgets every fid and request */
	fids_clear(&s->fids);
	pending_clear_all(s);
	s->msize = 0;
	if (!p9_str_is(m->u.version.version, VERSION_L)) {
		/* what a 9P2000.L-only server answers */
		uint8_t r[64];
		struct p9b b;
		char word[32];

		printable(word, sizeof(word), m->u.version.version.s,
			  m->u.version.version.len);
		plog("Tversion '%s': not 9P2000.L, answered 'unknown'", word);
		p9b_begin(&b, r, sizeof(r), P9_RVERSION, m->tag);
		p9b_u32(&b, m->u.version.msize);
		p9b_str(&b, "unknown");
		return s->io.to_guest(s->io.ctx, r, p9b_end(&b)) == 0 ? S_OK : S_BAD;
	}
	p->msize = m->u.version.msize;
	if (p->msize > MSIZE_CAP) {
		plog("Tversion msize %u lowered to %u", p->msize, MSIZE_CAP);
		p->msize = MSIZE_CAP;
		p9_put32(buf + P9_HDRSZ, p->msize);
	}
	p->used = 1;
	return s->io.to_server(s->io.ctx, buf, m->size) == 0 ? S_OK : S_BAD;
}

enum session_rc session_from_guest(struct session *s, uint8_t *buf, size_t len)
{
	struct p9_msg m;
	enum p9_err e = p9_parse(buf, len, session_limit(s, P9_FROM_CLIENT),
				 P9_FROM_CLIENT, &m);
	struct pending *p;
	struct fid *f;
	char path[PATH_CAP];
	int stored;

	if (e != P9_OK)
		return refuse("from guest", p9_strerror(e), buf, len);
	if (m.tag == P9_NOTAG && m.type != P9_TVERSION)
		return refuse("from guest", "NOTAG on a message other than Tversion", buf, len);
	if (!s->msize && m.type != P9_TVERSION)
		return refuse("from guest", "no version negotiated yet", buf, len);
	p = &s->pending[m.tag];
	if (p->used)
		return refuse("from guest", "tag already outstanding", buf, len);
	/* sa-errno takes only the request right after a store */
	stored = s->acl_stored;
	s->acl_stored = 0;
	/* control names first: a bucket begins with the walk naming it */
	if (m.type == P9_TWALK)
		for (unsigned i = 0; i < m.u.walk.nwname; i++)
			control(s, m.u.walk.wname[i]);
	/* a wire marker begins a bucket and, as in acl9p-p9trace's
	 * slices of QEMU's log, is not counted itself */
	if (!wire_mark(s, &m))
		counts_add(&s->counts, m.type);
	memset(p, 0, sizeof(*p));
	p->type = m.type;

	switch (m.type) {
	case P9_TVERSION:
		return t_version(s, p, &m, buf, len);
	case P9_TATTACH:
		p->fid = m.u.attach.fid;
		if (fids_get(&s->fids, p->fid))
			return newfid_in_use(s, &m, p->fid);
		printable(path, sizeof(path), m.u.attach.aname.s, m.u.attach.aname.len);
		if (!(p->path = dup_path(path)))
			return S_BAD;
		p->rootlen = strlen(path);
		break;
	case P9_TWALK:
		p->fid = m.u.walk.fid;
		p->newfid = m.u.walk.newfid;
		p->nwname = m.u.walk.nwname;
		if (p->newfid != p->fid && fids_get(&s->fids, p->newfid))
			return newfid_in_use(s, &m, p->newfid);
		f = fids_get(&s->fids, p->fid);
		snprintf(path, sizeof(path), "%s", f ? f->path : "?");
		p->rootlen = f ? f->rootlen : 0;
		for (unsigned i = 0; i < m.u.walk.nwname; i++)
			path_join(path, path, p->rootlen,
				  (const char *)m.u.walk.wname[i].s,
				  m.u.walk.wname[i].len);
		if (!(p->path = dup_path(path)))
			return S_BAD;
		break;
	case P9_TLCREATE:
		p->fid = m.u.lcreate.fid;
		f = fids_get(&s->fids, p->fid);
		p->rootlen = f ? f->rootlen : 0;
		path_join(path, f ? f->path : "?", p->rootlen,
			  (const char *)m.u.lcreate.name.s, m.u.lcreate.name.len);
		if (!(p->path = dup_path(path)))
			return S_BAD;
		break;
	case P9_TXATTRWALK:
		p->fid = m.u.xattrwalk.fid;
		p->newfid = m.u.xattrwalk.newfid;
		if (fids_get(&s->fids, p->newfid))
			return newfid_in_use(s, &m, p->newfid);
		f = fids_get(&s->fids, p->fid);
		p->rootlen = f ? f->rootlen : 0;
		if (!(p->path = dup_path(f ? f->path : "?")))
			return S_BAD;
		p->aclname = acl_name(m.u.xattrwalk.name);
		if (!p->aclname)
			break;
		p->acl = 1;
		if (drop_after(s, "Txattrwalk", m.tag, p->fid, p->path)) {
			pending_clear(p);
			return S_DROP;
		}
		switch (s->armed.kind) {
		case F_RD_ERRNO:
			plog("fault %s: Txattrwalk tag %u fid %u newfid %u answered Rlerror %u: %s %s",
			     s->armed.spec, m.tag, p->fid, p->newfid, s->armed.arg,
			     p->path, p->aclname);
			pending_clear(p);
			return reply_error(s, m.tag, s->armed.arg);
		case F_RD_DROP:
			plog("fault %s: Txattrwalk tag %u fid %u: closing both connections: %s %s",
			     s->armed.spec, m.tag, p->fid, p->path, p->aclname);
			pending_clear(p);
			return S_DROP;
		case F_RD_DELAY:
			p->delay_ms = s->armed.arg;
			break;
		default:
			break;
		}
		p->fault = s->armed;
		break;
	case P9_TXATTRCREATE:
		p->fid = m.u.xattrcreate.fid;
		f = fids_get(&s->fids, p->fid);
		if (!(p->path = dup_path(f ? f->path : "?")))
			return S_BAD;
		p->aclname = acl_name(m.u.xattrcreate.name);
		if (!p->aclname)
			break;
		p->acl = 1;
		if (drop_after(s, "Txattrcreate", m.tag, p->fid, p->path)) {
			pending_clear(p);
			return S_DROP;
		}
		switch (s->armed.kind) {
		case F_WR_ERRNO:
			plog("fault %s: Txattrcreate tag %u fid %u answered Rlerror %u: %s %s",
			     s->armed.spec, m.tag, p->fid, s->armed.arg, p->path,
			     p->aclname);
			pending_clear(p);
			return reply_error(s, m.tag, s->armed.arg);
		case F_WR_DROP:
			plog("fault %s: Txattrcreate tag %u fid %u: closing both connections: %s %s",
			     s->armed.spec, m.tag, p->fid, p->path, p->aclname);
			pending_clear(p);
			return S_DROP;
		case F_WR_DELAY:
			p->delay_ms = s->armed.arg;
			p->fault = s->armed;
			break;
		default:
			break;
		}
		break;
	case P9_TSETATTR:
		p->fid = m.u.setattr.fid;
		if (s->armed.kind != F_SA_ERRNO || !stored ||
		    !(m.u.setattr.valid & P9_SETATTR_MODE))
			break;
		f = fids_get(&s->fids, p->fid);
		plog("fault %s: Tsetattr tag %u fid %u valid %#x after an ACL store answered Rlerror %u: %s",
		     s->armed.spec, m.tag, p->fid, m.u.setattr.valid,
		     s->armed.arg, f ? f->path : "?");
		pending_clear(p);
		return reply_error(s, m.tag, s->armed.arg);
	case P9_TUNLINKAT:
		if (s->armed.kind != F_UL_ERRNO)
			break;
		f = fids_get(&s->fids, m.u.unlinkat.dirfid);
		printable(path, sizeof(path), m.u.unlinkat.name.s,
			  m.u.unlinkat.name.len);
		plog("fault %s: Tunlinkat tag %u dirfid %u answered Rlerror %u: %s %s",
		     s->armed.spec, m.tag, m.u.unlinkat.dirfid, s->armed.arg,
		     f ? f->path : "?", path);
		return reply_error(s, m.tag, s->armed.arg);
	case P9_TREAD:
	case P9_TWRITE:
	case P9_TCLUNK:
	case P9_TREMOVE:
		/* the fid is at the same place in all four */
		p->fid = m.type == P9_TREAD ? m.u.read.fid :
			 m.type == P9_TWRITE ? m.u.write.fid : m.u.clunk.fid;
		if (m.type == P9_TREAD) {
			p->offset = m.u.read.offset;
			p->count = m.u.read.count;
		}
		f = fids_get(&s->fids, p->fid);
		if (!f || f->role == XR_NONE || m.type == P9_TREMOVE)
			break;
		p->acl = 1;
		p->acl_write = m.type == P9_TCLUNK && f->role == XR_ACL_WRITE;
		if (drop_after(s, p9_type_name(m.type), m.tag, p->fid, f->path))
			return S_DROP;
		if (m.type == P9_TREAD && f->fuzz) {
			/* the server's whole value, whatever part the guest
			 * asks for: the mutation is made of all of it (the
			 * frame keeps its size: two fields rewritten) */
			p->fuzzread = 1;
			p->gcount = p->count;
			p->count = (uint32_t)f->fuzz->real_size;
			p9_put64(buf + P9_HDRSZ + 4, 0);
			p9_put32(buf + P9_HDRSZ + 12, p->count);
			break;
		}
		if (m.type == P9_TREAD && f->role == XR_ACL_READ) {
			p->viewed = 1;
			p->view = f->view;
			if (!(p->path = dup_path(f->path)))
				return S_BAD;
			p->aclname = f->aclname;
		}
		break;
	case P9_TFLUSH:
		p->oldtag = m.u.flush.oldtag;
		/* a reply held back by a delay fault goes out before the
		 * server's Rflush, as the protocol orders them */
		s->io.release(s->io.ctx, p->oldtag);
		break;
	default:
		break;
	}
	p->used = 1;
	return s->io.to_server(s->io.ctx, buf, len) == 0 ? S_OK : S_BAD;
}

/* The data of an Rread of an ACL read fid as its view shows it.  OUT
 * holds the new frame (at most 11 + the count asked, below msize); its
 * length, or 0 when nothing changes. */
static size_t view_read(const struct session *s, const struct pending *p,
			const struct p9_msg *m, uint8_t **out)
{
	const struct xview *v = &p->view;
	uint64_t off = p->offset;
	uint32_t n = m->u.rread.count, len = n;
	uint64_t avail = off >= v->shown_size ? 0 : v->shown_size - off;
	uint8_t *r;

	if (!v->flags)
		return 0;
	if ((v->flags & XV_CAP) && len > avail)
		len = (uint32_t)avail;
	if (v->flags & XV_SHORT)
		len = off >= v->data_end ? 0 :
		      (uint32_t)(len < v->data_end - off ? len : v->data_end - off);
	/* padding only once the server's value has ended */
	if ((v->flags & XV_PAD) && off + n >= v->real_size) {
		uint64_t want = p->count < avail ? p->count : avail;

		if (s->msize > 11 && want > s->msize - 11u)
			want = s->msize - 11u;
		if (want > len)
			len = (uint32_t)want;
	}
	r = calloc(1, 11 + (size_t)len);
	if (!r)
		return 0;
	p9_put32(r, 11 + len);
	r[4] = P9_RREAD;
	p9_put16(r + 5, m->tag);
	p9_put32(r + 7, len);
	memcpy(r + 11, m->u.rread.data, n < len ? n : len);
	if (v->flags & XV_BADVERSION)
		for (uint64_t i = off; i < 4 && i < off + len; i++)
			r[11 + (i - off)] = i == 0 ? 3 : 0;
	*out = r;
	return 11 + (size_t)len;
}

/* The size an Rxattrwalk of an ACL shows under the fault armed when
 * its Txattrwalk came. */
static void view_size(struct session *s, const struct pending *p,
		      uint64_t size, struct xview *v)
{
	memset(v, 0, sizeof(*v));
	v->real_size = v->shown_size = size;
	snprintf(v->fault, sizeof(v->fault), "%s", p->fault.spec);
	switch (p->fault.kind) {
	case F_RD_ODDSIZE:
		if (size >= 7) {
			v->shown_size = size - 3;
			v->flags = XV_CAP;
		}
		break;
	case F_RD_TRUNCENTRY:
		if (size >= 8) {
			v->shown_size = size - 4;
			v->flags = XV_CAP;
		}
		break;
	case F_RD_HUGESIZE:
		v->shown_size = FAULT_HUGE_SIZE;
		break;
	case F_RD_SIZE:
		/* the edges of XATTR_SIZE_MAX: 65536 a value may be, 65537
		 * it may not; the bytes past the server's value are zeros */
		v->shown_size = p->fault.arg;
		v->flags = XV_CAP | XV_PAD;
		break;
	case F_RD_SIZECHANGE:
		v->shown_size = s->sizechange_seen ? s->sizechange_last + 8 : size;
		s->sizechange_seen = 1;
		s->sizechange_last = v->shown_size;
		v->flags = XV_CAP | XV_PAD;
		break;
	case F_RD_BADVERSION:
		v->flags = XV_BADVERSION;
		break;
	case F_RD_SHORTENTRY:
		/* the first half of the entries, rounded up: of
		 * u::,u:N:,g::,m::,o:: the mask and other go */
		if (size >= 20 && (size - 4) % 8 == 0) {
			v->data_end = 4 + 8 * (((size - 4) / 8 + 1) / 2);
			v->flags = XV_SHORT;
		}
		break;
	case F_RD_EMPTYREAD:
		if (size > 0) {
			v->data_end = 0;
			v->flags = XV_SHORT;
		}
		break;
	default:
		break;
	}
}

static const char *nz(const char *s)
{
	return s ? s : "";
}

static enum session_rc out(struct session *s, const struct pending *p,
			   const uint8_t *buf, size_t len, uint16_t tag)
{
	int rc;

	if (p->delay_ms) {
		plog("fault %s: %s tag %u held %u ms: %s %s", p->fault.spec,
		     p9_type_name(buf[4]), tag, p->delay_ms, nz(p->path),
		     nz(p->aclname));
		rc = s->io.hold(s->io.ctx, buf, len, tag, p->delay_ms);
	} else {
		rc = s->io.to_guest(s->io.ctx, buf, len);
	}
	return rc == 0 ? S_OK : S_BAD;
}

/* Fuzz mode: the Rxattrwalk of ACL fid F (size SIZE) is the next
 * fuzzed reply; its plan goes with the fid.  A value too large to
 * read in one Rread, or to log, passes unchanged (and is logged so).
 * 0, or -1 when memory runs out. */
static int fuzz_reply(struct session *s, const struct pending *p,
		      struct fid *f, uint64_t size)
{
	uint64_t index = s->fuzz_next++;
	struct fuzz_reply *r;

	if (size > FUZZ_VALUE_MAX || size + 11 > s->msize) {
		plog("fuzz seed=%u reply=%llu bucket=%s fid=%u name=%s unfuzzed=%llu path=%s",
		     p->fault.arg, (unsigned long long)index, s->counts.label,
		     p->newfid, p->aclname, (unsigned long long)size, p->path);
		return 0;
	}
	if (!(r = malloc(sizeof(*r)))) {
		plog("out of memory");
		return -1;
	}
	fuzz_plan(r, p->fault.arg, index, size);
	r->fid = p->newfid;
	r->aclname = p->aclname;
	snprintf(r->bucket, sizeof(r->bucket), "%s", s->counts.label);
	if (!(r->path = dup_path(p->path))) {
		free(r);
		return -1;
	}
	f->fuzz = r;
	return 0;
}

/* Fuzz mode: the Rread M of a fuzzed fid's read, whose Tread was sent
 * on as a read of the whole value: the mutated value's bytes at the
 * guest's offset, no more than it asked for and msize allows. */
static enum session_rc fuzz_rread(struct session *s, const struct pending *p,
				  const struct p9_msg *m)
{
	struct fid *f = fids_get(&s->fids, p->fid);
	uint32_t count = p->gcount, k;
	const uint8_t *data;
	uint8_t *r;
	enum session_rc rc;

	if (!f || !f->fuzz)
		return refuse("from server", "Rread of a fuzzed fid that ended", NULL, 0);
	if (!f->fuzz->have_value &&
	    fuzz_take_value(f->fuzz, m->u.rread.data, m->u.rread.count) != 0) {
		plog("out of memory");
		return S_BAD;
	}
	if (count > s->msize - 11u)
		count = s->msize - 11u;
	k = fuzz_read(f->fuzz, p->offset, count, &data);
	if (!(r = malloc(11 + (size_t)k))) {
		plog("out of memory");
		return S_BAD;
	}
	p9_put32(r, 11 + k);
	r[4] = P9_RREAD;
	p9_put16(r + 5, m->tag);
	p9_put32(r + 7, k);
	memcpy(r + 11, data, k);
	rc = out(s, p, r, 11 + (size_t)k, m->tag);
	free(r);
	return rc;
}

enum session_rc session_from_server(struct session *s, uint8_t *buf, size_t len)
{
	struct p9_msg m;
	enum p9_err e = p9_parse(buf, len, session_limit(s, P9_FROM_SERVER),
				 P9_FROM_SERVER, &m);
	struct pending *p;
	struct fid *f;
	enum session_rc rc = S_OK;
	uint8_t *copy = NULL;
	size_t n;

	if (e != P9_OK)
		return refuse("from server", p9_strerror(e), buf, len);
	p = &s->pending[m.tag];
	if (!p->used)
		return refuse("from server", "no request outstanding with this tag", buf, len);
	if (m.type != P9_RLERROR && m.type != p->type + 1)
		return refuse("from server", "reply of another type than the request", buf, len);

	switch (m.type) {
	case P9_RVERSION:
		if (m.u.version.msize > p->msize)
			return refuse("from server", "Rversion msize above Tversion's", buf, len);
		if (p9_str_is(m.u.version.version, VERSION_L)) {
			s->msize = m.u.version.msize;
			plog("version 9P2000.L, msize %u (asked %u)", s->msize, p->msize);
		}
		break;
	case P9_RATTACH:
		if (!fids_set(&s->fids, p->fid, p->path, p->rootlen))
			return refuse("from server", "too many fids", buf, len);
		break;
	case P9_RWALK:
		if (m.u.rwalk.nwqid > p->nwname)
			return refuse("from server", "Rwalk with more qids than names", buf, len);
		/* a partial walk makes no newfid */
		if (m.u.rwalk.nwqid == p->nwname &&
		    !fids_set(&s->fids, p->newfid, p->path, p->rootlen))
			return refuse("from server", "too many fids", buf, len);
		break;
	case P9_RLCREATE:
		if (!fids_set(&s->fids, p->fid, p->path, p->rootlen))
			return refuse("from server", "too many fids", buf, len);
		break;
	case P9_RXATTRWALK:
		if (!(f = fids_set(&s->fids, p->newfid, p->path, p->rootlen)))
			return refuse("from server", "too many fids", buf, len);
		if (!p->acl)
			break;
		f->role = XR_ACL_READ;
		f->aclname = p->aclname;
		if (p->fault.kind == F_FUZZ) {
			if (fuzz_reply(s, p, f, m.u.rxattrwalk.size) != 0)
				return S_BAD;
			if (f->fuzz && f->fuzz->declared != f->fuzz->real_size)
				p9_put64(buf + P9_HDRSZ, f->fuzz->declared);
			break;
		}
		view_size(s, p, m.u.rxattrwalk.size, &f->view);
		if (f->view.shown_size != f->view.real_size) {
			plog("fault %s: Rxattrwalk tag %u newfid %u size %llu shown as %llu: %s %s",
			     p->fault.spec, m.tag, p->newfid,
			     (unsigned long long)f->view.real_size,
			     (unsigned long long)f->view.shown_size, p->path, p->aclname);
			p9_put64(buf + P9_HDRSZ, f->view.shown_size);
		}
		break;
	case P9_RXATTRCREATE:
		f = fids_get(&s->fids, p->fid);
		if (f && p->acl) {
			f->role = XR_ACL_WRITE;
			f->aclname = p->aclname;
		}
		break;
	case P9_RREAD:
		if (m.u.rread.count > p->count)
			return refuse("from server", "Rread with more data than asked", buf, len);
		if (p->fuzzread) {
			rc = fuzz_rread(s, p, &m);
			pending_clear(p);
			return rc;
		}
		if (!p->viewed)
			break;
		n = view_read(s, p, &m, &copy);
		if (!n)
			break;
		plog("fault %s: Rread tag %u fid %u offset %llu: %u bytes shown as %zu: %s %s",
		     p->view.fault, m.tag, p->fid, (unsigned long long)p->offset,
		     m.u.rread.count, n - 11, p->path, p->aclname);
		rc = out(s, p, copy, n, m.tag);
		free(copy);
		pending_clear(p);
		return rc;
	case P9_RLERROR:
		if (p->type == P9_TXATTRWALK && p->acl && p->fault.kind == F_FUZZ)
			plog("fuzz seed=%u reply=%llu bucket=%s fid=%u name=%s rlerror=%u path=%s",
			     p->fault.arg, (unsigned long long)s->fuzz_next++,
			     s->counts.label, p->fid, p->aclname, m.u.lerror.ecode,
			     p->path);
		break;
	case P9_RFLUSH:
		/* the server will not answer the flushed request any more */
		if (p->oldtag != m.tag && s->pending[p->oldtag].used)
			pending_clear(&s->pending[p->oldtag]);
		break;
	default:
		break;
	}
	if (p->acl_write && m.type == P9_RCLUNK)
		s->acl_stored = 1;
	/* Tclunk and Tremove end the fid whatever the answer */
	if (p->type == P9_TCLUNK || p->type == P9_TREMOVE)
		fids_forget(&s->fids, p->fid);
	rc = out(s, p, buf, len, m.tag);
	pending_clear(p);
	return rc;
}
