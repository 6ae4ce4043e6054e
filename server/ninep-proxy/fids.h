/* The fids of one 9P connection: each one's path (for the log) and, for
 * an ACL xattr fid, what the proxy shows of it.  Bounded: at most
 * FIDS_MAX live fids, paths cut at PATH_CAP bytes. */
#ifndef FIDS_H
#define FIDS_H

#include "aclfuzz.h"
#include "fault.h"

#include <stddef.h>
#include <stdint.h>

enum {
	FIDS_MAX = 1 << 18,	/* far above what a guest holds open */
	PATH_CAP = 1024,	/* paths are for the log only */
};

enum xattr_role {
	XR_NONE,		/* a file fid, or an xattr fid of another name */
	XR_ACL_READ,		/* made by Txattrwalk of an ACL name */
	XR_ACL_WRITE,		/* turned by Txattrcreate of an ACL name */
};

/* How the proxy shows the value read through an ACL read fid. */
enum {
	XV_CAP = 1,		/* no byte at or past shown_size */
	XV_PAD = 2,		/* zeros from the real end up to shown_size */
	XV_BADVERSION = 4,	/* a_version (bytes 0-3) read as 3 */
	XV_SHORT = 8,		/* no byte at or past data_end, size as is */
};

struct xview {
	uint64_t real_size, shown_size;
	uint64_t data_end;	/* XV_SHORT: where the reads stop */
	unsigned flags;		/* XV_* */
	char fault[FAULT_SPEC_MAX];	/* the SPEC that set it up, for the log */
};

struct fid {
	uint32_t num;
	char *path;
	size_t rootlen;		/* the attach path's length: ".." stops there */
	enum xattr_role role;
	const char *aclname;	/* the ACL's xattr name (a static string) */
	struct xview view;
	struct fuzz_reply *fuzz;	/* fuzz mode: what the guest is shown */
	struct fid *next;
};

struct fids {
	struct fid **bucket;
	size_t nbuckets, count;
};

int fids_init(struct fids *t);
void fids_free(struct fids *t);
struct fid *fids_get(struct fids *t, uint32_t num);
/* Make NUM refer to PATH (copied), a plain file fid; an existing entry
 * is replaced.  A fid that ends (replaced, forgotten, cleared) ends
 * its fuzzed reply: fuzz_end() logs it.  NULL when FIDS_MAX fids are live or memory runs out. */
struct fid *fids_set(struct fids *t, uint32_t num, const char *path,
		     size_t rootlen);
void fids_forget(struct fids *t, uint32_t num);
void fids_clear(struct fids *t);

/* BASE/NAME (".." goes up, not above ROOTLEN; "." stays) into OUT
 * (PATH_CAP bytes), cut at PATH_CAP - 1 bytes. */
void path_join(char *out, const char *base, size_t rootlen, const char *name,
	       size_t namelen);

#endif
