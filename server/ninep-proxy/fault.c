/* Fault SPEC parsing: see fault.h. */
#include "fault.h"

#include <errno.h>
#include <string.h>

/* The errnos a test may ask for: the ones a getxattr or setxattr of an
 * ACL, a chmod or an unlink can meet on a real server (ENOMEM, ERANGE:
 * the client's own). */
static const struct { const char *name; int value; } errnos[] = {
	{ "EIO", EIO }, { "ENOSYS", ENOSYS }, { "EOPNOTSUPP", EOPNOTSUPP },
	{ "ENODATA", ENODATA }, { "EACCES", EACCES }, { "ENOMEM", ENOMEM },
	{ "ERANGE", ERANGE }, { "EPERM", EPERM },
};

/* The SPECs without an argument. */
static const struct { const char *name; enum fault_kind kind; } plain[] = {
	{ "none", F_NONE },
	{ "rd-badversion", F_RD_BADVERSION },
	{ "rd-oddsize", F_RD_ODDSIZE },
	{ "rd-truncentry", F_RD_TRUNCENTRY },
	{ "rd-hugesize", F_RD_HUGESIZE },
	{ "rd-sizechange", F_RD_SIZECHANGE },
	{ "rd-shortentry", F_RD_SHORTENTRY },
	{ "rd-emptyread", F_RD_EMPTYREAD },
	{ "rd-drop", F_RD_DROP },
	{ "wr-drop", F_WR_DROP },
};

/* The SPECs NAME=ARG. */
enum arg_kind { ARG_ERRNO, ARG_MS, ARG_COUNT, ARG_SEED, ARG_SIZE };
static const struct {
	const char *name;
	enum fault_kind kind;
	enum arg_kind arg;
} with_arg[] = {
	{ "rd-errno", F_RD_ERRNO, ARG_ERRNO },
	{ "rd-size", F_RD_SIZE, ARG_SIZE },
	{ "rd-delay", F_RD_DELAY, ARG_MS },
	{ "wr-errno", F_WR_ERRNO, ARG_ERRNO },
	{ "wr-delay", F_WR_DELAY, ARG_MS },
	{ "sa-errno", F_SA_ERRNO, ARG_ERRNO },
	{ "ul-errno", F_UL_ERRNO, ARG_ERRNO },
	{ "drop-after", F_DROP_AFTER, ARG_COUNT },
	{ "fuzz", F_FUZZ, ARG_SEED },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int is(const char *s, size_t len, const char *lit)
{
	return strlen(lit) == len && memcmp(s, lit, len) == 0;
}

/* A decimal number of 1-10 digits, at most MAX. */
static int number(const char *s, size_t len, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;

	if (len == 0 || len > 10)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int arg(enum arg_kind k, const char *s, size_t len, uint32_t *out)
{
	switch (k) {
	case ARG_ERRNO:
		for (size_t i = 0; i < N(errnos); i++)
			if (is(s, len, errnos[i].name)) {
				*out = (uint32_t)errnos[i].value;
				return 0;
			}
		return -1;
	case ARG_MS:
		return number(s, len, FAULT_DELAY_MAX_MS, out);
	case ARG_COUNT:
		return number(s, len, 999999999, out);
	case ARG_SEED:
	case ARG_SIZE:
		return number(s, len, UINT32_MAX, out);
	}
	return -1;
}

int fault_parse(const char *spec, size_t len, struct fault *f)
{
	const char *eq = memchr(spec, '=', len);

	memset(f, 0, sizeof(*f));
	if (len >= FAULT_SPEC_MAX)
		return -1;
	for (size_t i = 0; i < N(plain); i++)
		if (is(spec, len, plain[i].name)) {
			f->kind = plain[i].kind;
			goto ok;
		}
	if (!eq)
		return -1;
	for (size_t i = 0; i < N(with_arg); i++) {
		size_t n = (size_t)(eq - spec);

		if (!is(spec, n, with_arg[i].name))
			continue;
		if (arg(with_arg[i].arg, eq + 1, len - n - 1, &f->arg) != 0)
			return -1;
		f->kind = with_arg[i].kind;
		goto ok;
	}
	return -1;
ok:
	memcpy(f->spec, spec, len);
	f->spec[len] = '\0';
	return 0;
}
