// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p-fuzz: the guest side of make fuzz (scripts/fuzz.sh).  The init
 * runs it in ACL9P_MODE=fuzz on the share, mounted
 * access=client,posixacl,cache=none through ninep-proxy; it is not a
 * test of the suite (no acl9p_ prefix: check mode and the manifest
 * leave it alone).
 *
 * It makes files and directories with valid ACLs (named users and
 * groups, a mask; directories with a default ACL too), checks that
 * they read back, turns the proxy's fuzz mode on for this connection
 * (a walk to "acl9p-fault=fuzz=SEED": from then on every ACL reply
 * the server gives is mutated, server/README.md), and makes COUNT
 * calls, each after a marker walk "acl9p-mark=fuzz.I", so that the
 * proxy's log puts every fuzzed reply in the call it fell in: the judge
 * (tests/host/fuzzjudge.c) then asks of each call whether its outcome
 * is what those replies' bytes mean, without depending on when the
 * kernel fetches an ACL.
 *
 * The calls go through the work directory, held open as the current
 * directory (with cache=none every lookup of a name in it builds a new
 * inode, while the directory's own is kept): a call meets its
 * target's ACL requests, not its parents'.  Its ACLs are read once,
 * by root and by the caller, before fuzzing starts, so that no later
 * permission check of it needs a request.  The calls, drawn from the
 * seed:
 *   stat             fstatat() as root: the lookup alone
 *   getxattr-access  the bytes of system.posix_acl_access, as root
 *   getxattr-default the same of system.posix_acl_default (directories)
 *   access-r, -w, -rw, -x
 *                    faccessat() as uid 1001 (gid 1001, groups 1002),
 *                    no capabilities: the client's own decision, which
 *                    the ACL makes (open() would also ask the server,
 *                    which decides by the real ACL on the host)
 * Each runs in a child bounded by alarm(); a call that does not return
 * in CALL_LIMIT_S seconds is "hang".
 *
 * Parameters: ACL9P_FUZZ_SEED (0-4294967295, default 1),
 * ACL9P_FUZZ_COUNT (calls, default 200), ACL9P_MNT.
 *
 * Output on stdout (the init copies it to the results port):
 *   fuzz-start seed=S count=N
 *   caller uid=U gid=G groups=G[,G...]
 *   target NAME kind=file|dir mode=OCTAL uid=U gid=G
 *   call I OP NAME RESULT   RESULT: ok | granted | denied | bytes=HEX |
 *                           errno=E (the number) | hang
 *   fuzz-done calls=N ms=T  T: the calls' wall time
 *   fuzz-error WHAT         the setup failed (exit 1)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "aclxattr.h"
#include "splitmix.h"

#define WORKDIR		"acl9p-fuzz"
#define XA_ACCESS	"system.posix_acl_access"
#define XA_DEFAULT	"system.posix_acl_default"
#define CALL_LIMIT_S	20
#define CALLER_UID	1001
#define CALLER_GID	1001
#define CALLER_GROUP	1002

/* The targets and their ACLs: the one list of them (the judge reads
 * the "target" lines).  Each grants or denies uid 1001 through another
 * kind of entry, so that a mutation of any entry can change a decision. */
static const struct target {
	const char *name;
	int dir;
	const char *access, *dflt;
} TARGETS[] = {
	{ "f0", 0, "u::rw-,u:1001:rw-,g::r--,m::rw-,o::---", NULL },
	{ "f1", 0, "u::rw-,u:1001:r--,u:1003:rw-,g::r--,g:1002:rw-,m::rw-,o::---", NULL },
	{ "f2", 0, "u::rw-,u:1001:---,g::rw-,m::rw-,o::rw-", NULL },
	{ "f3", 0, "u::rw-,u:1003:rw-,g::r--,g:1001:rw-,g:1002:r--,m::r--,o::---", NULL },
	{ "f4", 0, "u::r--,u:1001:rwx,g::---,m::r-x,o::---", NULL },
	{ "d0", 1, "u::rwx,u:1001:r-x,g::r-x,m::r-x,o::---",
	  "u::rwx,u:1001:rw-,g::r--,m::rw-,o::---" },
	{ "d1", 1, "u::rwx,g::rwx,g:1002:r-x,m::r-x,o::--x",
	  "u::rw-,g::r--,g:1001:rw-,m::rw-,o::r--" },
};
#define NTARGETS (sizeof(TARGETS) / sizeof(TARGETS[0]))

enum op { OP_STAT, OP_GET_ACCESS, OP_GET_DEFAULT, OP_R, OP_W, OP_RW, OP_X, NOPS };
static const struct { const char *name; int want; int dir_only; } OPS[NOPS] = {
	[OP_STAT] = { "stat", 0, 0 },
	[OP_GET_ACCESS] = { "getxattr-access", 0, 0 },
	[OP_GET_DEFAULT] = { "getxattr-default", 0, 1 },
	[OP_R] = { "access-r", R_OK, 0 },
	[OP_W] = { "access-w", W_OK, 0 },
	[OP_RW] = { "access-rw", R_OK | W_OK, 0 },
	[OP_X] = { "access-x", X_OK, 0 },
};

static struct aclx acl;

static void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	printf("fuzz-error ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(": %s\n", strerror(e));
	exit(1);
}

static size_t encode(const char *text, uint8_t *out, size_t cap)
{
	size_t n;

	if (aclx_from_text(text, &acl) != 0 || !(n = aclx_encode(&acl, out, cap))) {
		errno = EINVAL;
		fail("ACL text %s", text);
	}
	return n;
}

static long param(const char *name, long dflt, long max)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return dflt;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end || n < 0 || n > max) {
		errno = EINVAL;
		fail("%s=%s (0-%ld)", name, v, max);
	}
	return n;
}

/* A walk to a control name of the proxy; the server answers ENOENT. */
static void control(const char *name)
{
	struct stat st;

	if (fstatat(AT_FDCWD, name, &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT)
		fail("control walk %s did not give ENOENT", name);
}

static void become_caller(void)
{
	gid_t g = CALLER_GROUP;

	if (setgroups(1, &g) || setresgid(CALLER_GID, CALLER_GID, CALLER_GID) ||
	    setresuid(CALLER_UID, CALLER_UID, CALLER_UID))
		_exit(125);
}

/* What a call's child reports. */
struct outcome {
	int err;		/* 0 or the errno */
	int len;		/* getxattr: the bytes */
	uint8_t bytes[65536];
};

static void call_child(enum op op, const char *name, struct outcome *o)
{
	struct stat st;
	ssize_t n;

	alarm(CALL_LIMIT_S);
	switch (op) {
	case OP_STAT:
		o->err = fstatat(AT_FDCWD, name, &st, AT_SYMLINK_NOFOLLOW) ? errno : 0;
		break;
	case OP_GET_ACCESS:
	case OP_GET_DEFAULT:
		n = lgetxattr(name, op == OP_GET_ACCESS ? XA_ACCESS : XA_DEFAULT,
			      o->bytes, sizeof(o->bytes));
		o->err = n < 0 ? errno : 0;
		o->len = n < 0 ? 0 : (int)n;
		break;
	default:
		become_caller();
		o->err = faccessat(AT_FDCWD, name, OPS[op].want, 0) ? errno : 0;
		break;
	}
}

/* One call in a child; its result line's RESULT into OUT. */
static void call(enum op op, const char *name, char *out, size_t cap)
{
	static struct outcome o;
	int p[2], st;
	pid_t pid;
	ssize_t got = 0, r;

	if (pipe(p))
		fail("pipe");
	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0) {
		close(p[0]);
		memset(&o, 0, sizeof(o));
		call_child(op, name, &o);
		if (write(p[1], &o, sizeof(o)) != (ssize_t)sizeof(o))
			_exit(124);
		_exit(0);
	}
	close(p[1]);
	memset(&o, 0, sizeof(o));
	while ((size_t)got < sizeof(o) &&
	       ((r = read(p[0], (char *)&o + got, sizeof(o) - (size_t)got)) > 0 ||
		(r < 0 && errno == EINTR)))
		got += r > 0 ? r : 0;
	close(p[0]);
	if (waitpid(pid, &st, 0) != pid)
		fail("waitpid");
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) {
		snprintf(out, cap, "hang");
	} else if (!WIFEXITED(st) || WEXITSTATUS(st) || (size_t)got != sizeof(o)) {
		errno = 0;
		fail("call %s %s: child status 0x%x", OPS[op].name, name, st);
	} else if (o.err) {
		snprintf(out, cap, "errno=%d", o.err);
	} else if (op == OP_GET_ACCESS || op == OP_GET_DEFAULT) {
		size_t k = (size_t)snprintf(out, cap, "bytes=");

		for (int i = 0; i < o.len && k + 3 <= cap; i++, k += 2)
			snprintf(out + k, 3, "%02x", o.bytes[i]);
	} else {
		snprintf(out, cap, "%s", op == OP_STAT ? "ok" : "granted");
	}
	if (!strcmp(out, "errno=13") && op >= OP_R)
		snprintf(out, cap, "denied");
}

/* The target: made with its ACLs, read back; its "target" line. */
static void prepare(const struct target *t)
{
	uint8_t v[512], back[512];
	size_t n;
	ssize_t r;
	struct stat st;
	int fd;

	if (t->dir) {
		if (mkdir(t->name, 0750))
			fail("mkdir %s", t->name);
	} else {
		fd = open(t->name, O_CREAT | O_EXCL | O_WRONLY, 0640);
		if (fd < 0 || write(fd, "x", 1) != 1 || close(fd))
			fail("create %s", t->name);
	}
	n = encode(t->access, v, sizeof(v));
	if (lsetxattr(t->name, XA_ACCESS, v, n, 0))
		fail("setxattr %s %s", t->name, XA_ACCESS);
	r = lgetxattr(t->name, XA_ACCESS, back, sizeof(back));
	if (r != (ssize_t)n || memcmp(v, back, n)) {
		errno = EIO;
		fail("%s of %s does not read back as set (%zd bytes)", XA_ACCESS, t->name, r);
	}
	if (t->dflt) {
		n = encode(t->dflt, v, sizeof(v));
		if (lsetxattr(t->name, XA_DEFAULT, v, n, 0))
			fail("setxattr %s %s", t->name, XA_DEFAULT);
		r = lgetxattr(t->name, XA_DEFAULT, back, sizeof(back));
		if (r != (ssize_t)n || memcmp(v, back, n)) {
			errno = EIO;
			fail("%s of %s does not read back as set", XA_DEFAULT, t->name);
		}
	}
	if (lstat(t->name, &st))
		fail("stat %s", t->name);
	printf("target %s kind=%s mode=%04o uid=%u gid=%u\n", t->name,
	       t->dir ? "dir" : "file", (unsigned)(st.st_mode & 07777),
	       (unsigned)st.st_uid, (unsigned)st.st_gid);
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

int main(void)
{
	const char *mnt = getenv("ACL9P_MNT");
	uint32_t seed = (uint32_t)param("ACL9P_FUZZ_SEED", 1, 4294967295L);
	long count = param("ACL9P_FUZZ_COUNT", 200, 1000000);
	/* the calls' own sequence: another stream than the proxy's plans */
	uint64_t rng = ((uint64_t)seed << 32) ^ 0xca11ca11u;
	static char result[2 * 65536 + 16];
	char name[64];
	struct timespec t0;
	pid_t pid;
	int st;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("fuzz-start seed=%" PRIu32 " count=%ld\n", seed, count);
	if (!mnt || chdir(mnt) || (mkdir(WORKDIR, 0755) && errno != EEXIST) ||
	    chdir(WORKDIR))
		fail("work directory %s/%s", mnt ? mnt : "(ACL9P_MNT unset)", WORKDIR);
	printf("caller uid=%d gid=%d groups=%d\n", CALLER_UID, CALLER_GID, CALLER_GROUP);
	for (size_t i = 0; i < NTARGETS; i++)
		prepare(&TARGETS[i]);
	/* the work directory's ACLs read before fuzzing (see above) */
	(void)lgetxattr(".", XA_ACCESS, result, sizeof(result));
	(void)lgetxattr(".", XA_DEFAULT, result, sizeof(result));
	pid = fork();
	if (pid == 0) {
		become_caller();
		_exit(faccessat(AT_FDCWD, ".", X_OK, 0) ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		errno = EACCES;
		fail("uid %d cannot search the work directory", CALLER_UID);
	}

	snprintf(name, sizeof(name), "acl9p-fault=fuzz=%" PRIu32, seed);
	control(name);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < count; i++) {
		const struct target *t = &TARGETS[splitmix64(&rng) % NTARGETS];
		enum op op;

		do
			op = (enum op)(splitmix64(&rng) % NOPS);
		while (OPS[op].dir_only && !t->dir);
		snprintf(name, sizeof(name), "acl9p-mark=fuzz.%ld", i);
		control(name);
		call(op, t->name, result, sizeof(result));
		printf("call %ld %s %s %s\n", i, OPS[op].name, t->name, result);
	}
	printf("fuzz-done calls=%ld ms=%ld\n", count, ms_since(&t0));
	control("acl9p-mark=fuzz.end");
	control("acl9p-fault=none");
	return 0;
}
