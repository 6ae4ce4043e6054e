/* One 9P2000.L connection as the proxy sees it: the negotiated msize,
 * the outstanding tags, the fids and their paths, the armed fault and
 * the message counts.  Frames come in whole (ninep-proxy.c cuts the
 * streams with p9_frame_header); what goes out, when and where, is
 * said through the callbacks of struct session_io, so this file does
 * no I/O of its own but the log and the counts file. */
#ifndef SESSION_H
#define SESSION_H

#include "counts.h"
#include "fault.h"
#include "fids.h"
#include "p9frame.h"

#include <stddef.h>
#include <stdint.h>

enum {
	MSIZE_CAP = 1 << 20,	/* a larger Tversion msize is lowered to it */
	PRE_VERSION_MAX = 8192,	/* frame limit until Rversion */
};

struct session_io {
	void *ctx;
	/* queue bytes for the server, or for the guest; 0 or -1 */
	int (*to_server)(void *ctx, const uint8_t *buf, size_t len);
	int (*to_guest)(void *ctx, const uint8_t *buf, size_t len);
	/* queue a reply for the guest in MS milliseconds; 0 or -1 */
	int (*hold)(void *ctx, const uint8_t *buf, size_t len, uint16_t tag,
		    uint32_t ms);
	/* send the held reply of TAG now, if there is one */
	void (*release)(void *ctx, uint16_t tag);
};

enum session_rc {
	S_OK = 0,
	S_BAD = -1,	/* a malformed frame or a protocol violation (logged) */
	S_DROP = 1,	/* a fault closes the connection now (logged) */
};

struct pending;

struct session {
	struct session_io io;
	uint32_t msize;		/* 0 until a 9P2000.L Rversion */
	struct pending *pending;	/* by tag: the T-messages not answered */
	struct fids fids;
	struct counts counts;
	struct fault armed;
	uint32_t drop_left;		/* drop-after: requests still let through */
	int sizechange_seen;		/* rd-sizechange: the size shown last */
	uint64_t sizechange_last;
	uint64_t fuzz_next;		/* fuzz: the next reply's number */
	int acl_stored;			/* sa-errno: the last request was the
					 * Tclunk of an ACL store, answered
					 * Rclunk (the store is on the host) */
};

int session_init(struct session *s, const struct session_io *io,
		 int counts_fd);
/* Write the last bucket's counts and free everything. */
void session_end(struct session *s);
/* The largest frame DIR may send now. */
uint32_t session_limit(const struct session *s, enum p9_dir dir);
/* A whole frame from the guest (T) or the server (R); it may be
 * changed in place before it is passed on. */
enum session_rc session_from_guest(struct session *s, uint8_t *buf,
				   size_t len);
enum session_rc session_from_server(struct session *s, uint8_t *buf,
				    size_t len);

#endif
