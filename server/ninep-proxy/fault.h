/* The faults the proxy can inject into ACL xattr traffic and the
 * requests around it, and their SPEC strings (server/README.md lists
 * them with what each does). */
#ifndef FAULT_H
#define FAULT_H

#include <stddef.h>
#include <stdint.h>

enum fault_kind {
	F_NONE,
	F_RD_ERRNO,		/* arg: errno */
	F_RD_BADVERSION,
	F_RD_ODDSIZE,
	F_RD_TRUNCENTRY,
	F_RD_HUGESIZE,
	F_RD_SIZECHANGE,
	F_RD_SIZE,		/* arg: the size shown */
	F_RD_SHORTENTRY,
	F_RD_EMPTYREAD,
	F_RD_DELAY,		/* arg: milliseconds */
	F_RD_DROP,
	F_WR_ERRNO,		/* arg: errno */
	F_WR_DELAY,		/* arg: milliseconds */
	F_WR_DROP,
	F_SA_ERRNO,		/* arg: errno */
	F_UL_ERRNO,		/* arg: errno */
	F_DROP_AFTER,		/* arg: requests to let through */
	F_FUZZ,			/* arg: seed of the mutations (aclfuzz.h) */
};

enum {
	FAULT_SPEC_MAX = 64,		/* longest SPEC kept (for the log) */
	FAULT_DELAY_MAX_MS = 600000,	/* a delay longer than a cell's limit means nothing */
};

struct fault {
	enum fault_kind kind;
	uint32_t arg;
	char spec[FAULT_SPEC_MAX];
};

/* The reported size of rd-hugesize: 9 TiB, more than any buffer. */
#define FAULT_HUGE_SIZE ((uint64_t)9 << 40)

/* Parse SPEC (LEN bytes, not NUL-terminated): 0 and *F set, or -1 for
 * a SPEC the proxy does not know (*F is then F_NONE). "none" is F_NONE. */
int fault_parse(const char *spec, size_t len, struct fault *f);

#endif
