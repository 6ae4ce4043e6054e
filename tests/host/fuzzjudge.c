/*
 * acl9p-fuzzjudge: the verdict of a make fuzz boot (scripts/fuzz.sh).
 *
 *   acl9p-fuzzjudge [--ids-sorted] LOG RESULTS
 *
 * LOG is the cell's ninep-proxy.log, whose "fuzz seed=..." lines are
 * the ACL replies the proxy mutated, each with the bucket (the call's
 * marker) it fell in, its declared size and the exact bytes the guest
 * got (aclfuzz.h); RESULTS is the cell's ktap.txt, the guest's
 * "target" and "call" lines (tests/fuzz/guest.c).
 *
 * The invariant, for every call: it failed with EIO, or what the
 * client returned or decided is what the strict reading (aclxattr.h:
 * exactly what Linux 6.1 itself would take from a filesystem) gives
 * for the bytes of one of the replies inside the call:
 *   - a call that did not fail with EIO accepted every ACL it fetched:
 *     for each file and ACL name with replies in the call, one of them
 *     must be a valid ACL, size 0 (no ACL), or an Rlerror that means no
 *     ACL (ENODATA, ENOSYS, EOPNOTSUPP);
 *   - getxattr bytes: the canonical encoding of the valid ACL of one of
 *     the target's replies of that name;
 *   - getxattr ENODATA: one of them declared size 0 (or was such an
 *     Rlerror);
 *   - a permission decision of uid 1001: what one of the target's
 *     access ACL replies decides (aclx_permission), the mode's bits
 *     where it declared size 0;
 *   - any other errno, or a call that hung, fails.
 * The calls do not depend on when the kernel fetches an ACL: only on
 * which replies fell between their markers.
 *
 * --ids-sorted: take a valid ACL whose named ids are unsorted or
 * repeated (posix_acl_valid() does not check them) as invalid too.
 * Without it, such an ACL accepted is counted and noted, not failed.
 *
 * Output: one line per failure ("FAIL seed=S reply=K call=I ..."), a
 * summary line, and as the last line "replies=R calls=C failed=F
 * eio=E ms=T" for scripts/fuzz.sh.  Exit 0 when no call failed, 1
 * when one did, 2 when the inputs are not a whole run (no fuzz-done
 * line, a missing call, the guest program not ending with 0).
 */
#include "aclxattr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_REPLIES = 1 << 20, MAX_CALLS = 1 << 20, MAX_TARGETS = 64 };

struct reply {
	unsigned long long index, declared;
	long call;		/* the call whose bucket it is in, or -1 */
	int rlerror;		/* the server's errno, or -1 */
	int unfuzzed;		/* too large to fuzz: passed as it was */
	int gap;
	char name[32];		/* "access" or "default" */
	char *path, *mutation, *hex;
	uint8_t *bytes;
	size_t len;
	enum aclx_verdict verdict;
	int unsorted;
	char why[96];
};

struct target {
	char name[32];
	int dir;
	struct aclx_inode ino;
};

struct call {
	int seen;
	char op[32], target[32], *result;
};

static struct reply *replies;
static size_t nreplies;
static struct call *calls;
static long ncalls = -1, done_calls = -1, done_ms = -1, fuzz_exit = -1;
static struct target targets[MAX_TARGETS];
static size_t ntargets;
static struct aclx_cred cred;
static unsigned long seed;
static int seed_seen, ids_sorted;
static unsigned long failed, notes;
static struct aclx acl;

static void die(const char *fmt, const char *a)
{
	fprintf(stderr, "acl9p-fuzzjudge: ");
	fprintf(stderr, fmt, a);
	fputc('\n', stderr);
	exit(2);
}

/* The value of " KEY=" in LINE up to a blank (LAST: to the line's end). */
static char *field(const char *line, const char *key, int last)
{
	char pat[32];
	const char *p;
	size_t n;
	char *v;

	snprintf(pat, sizeof(pat), " %s=", key);
	if (!(p = strstr(line, pat)))
		return NULL;
	p += strlen(pat);
	n = last ? strcspn(p, "\r\n") : strcspn(p, " \r\n");
	if (!(v = malloc(n + 1)))
		die("out of memory%s", "");
	memcpy(v, p, n);
	v[n] = '\0';
	return v;
}

static unsigned long long num(const char *line, const char *key, int *ok)
{
	char *v = field(line, key, 0), *end;
	unsigned long long n;

	if (!v) {
		*ok = 0;
		return 0;
	}
	errno = 0;
	n = strtoull(v, &end, 0);
	if (errno || *end || !*v)
		*ok = 0;
	free(v);
	return n;
}

static uint8_t *unhex(const char *hex, size_t *len)
{
	size_t n = strcmp(hex, "-") ? strlen(hex) / 2 : 0;
	uint8_t *b = malloc(n + 1);

	if (!b)
		die("out of memory%s", "");
	for (size_t i = 0; i < n; i++) {
		unsigned v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			die("not hex: %s", hex);
		b[i] = (uint8_t)v;
	}
	*len = n;
	return b;
}

/* One "fuzz seed=..." line of the proxy's log. */
static void log_line(const char *line)
{
	struct reply *r;
	char *bucket, *name;
	int ok = 1;

	if (nreplies >= MAX_REPLIES)
		die("more than %s fuzzed replies", "2^20");
	r = &replies[nreplies];
	memset(r, 0, sizeof(*r));
	r->index = num(line, "reply", &ok);
	bucket = field(line, "bucket", 0);
	name = field(line, "name", 0);
	r->path = field(line, "path", 1);
	if (!ok || !bucket || !name || !r->path)
		die("log line without its fields: %s", line);
	r->call = strncmp(bucket, "fuzz.", 5) || !strcmp(bucket, "fuzz.end") ? -1 :
		  strtol(bucket + 5, NULL, 10);
	snprintf(r->name, sizeof(r->name), "%s",
		 !strcmp(name, "system.posix_acl_access") ? "access" :
		 !strcmp(name, "system.posix_acl_default") ? "default" : name);
	free(bucket);
	free(name);
	r->rlerror = -1;
	if (strstr(line, " rlerror=")) {
		r->rlerror = (int)num(line, "rlerror", &ok);
	} else if (strstr(line, " unfuzzed=")) {
		r->unfuzzed = 1;
	} else {
		r->declared = num(line, "declared", &ok);
		r->gap = (int)num(line, "gap", &ok);
		r->mutation = field(line, "mutation", 0);
		r->hex = field(line, "sent", 0);
		if (!ok || !r->mutation || !r->hex)
			die("log line without its fields: %s", line);
		r->bytes = unhex(r->hex, &r->len);
		r->verdict = aclx_parse(r->bytes, r->len, r->declared, &acl, r->why,
					sizeof(r->why));
		if (r->gap && r->verdict == ACLX_VALID) {
			r->verdict = ACLX_INVALID;
			snprintf(r->why, sizeof(r->why), "read with a gap");
		}
		if (r->verdict == ACLX_VALID && !aclx_ids_sorted(&acl)) {
			r->unsorted = 1;
			if (ids_sorted) {
				r->verdict = ACLX_INVALID;
				snprintf(r->why, sizeof(r->why), "named ids unsorted or repeated");
			}
		}
	}
	nreplies++;
}

static void read_log(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[8192], pat[64];

	if (!f)
		die("cannot read %s", path);
	snprintf(pat, sizeof(pat), ": fuzz seed=%lu ", seed);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, pat))
			log_line(line);
	fclose(f);
}

static void results_line(char *line)
{
	char op[32], name[32], kind[8];
	unsigned mode, uid, gid;
	long i;
	int n;

	line[strcspn(line, "\r\n")] = '\0';
	if (sscanf(line, "fuzz-start seed=%lu count=%ld", &seed, &ncalls) == 2) {
		if (ncalls < 0 || ncalls > MAX_CALLS)
			die("count out of range: %s", line);
		seed_seen = 1;
		free(calls);
		if (!(calls = calloc((size_t)ncalls + 1, sizeof(*calls))))
			die("out of memory%s", "");
	} else if (!strncmp(line, "caller ", 7)) {
		unsigned g;

		if (sscanf(line, "caller uid=%u gid=%u groups=%u", &cred.uid, &cred.gid, &g) != 3)
			die("caller line: %s", line);
		cred.ngroups = 1;
		cred.groups[0] = g;
	} else if (sscanf(line, "target %31s kind=%7s mode=%o uid=%u gid=%u", name, kind,
			  &mode, &uid, &gid) == 5) {
		if (ntargets >= MAX_TARGETS)
			die("too many targets%s", "");
		snprintf(targets[ntargets].name, sizeof(targets[0].name), "%s", name);
		targets[ntargets].dir = !strcmp(kind, "dir");
		targets[ntargets].ino = (struct aclx_inode){ uid, gid, mode };
		ntargets++;
	} else if (sscanf(line, "call %ld %31s %31s %n", &i, op, name, &n) == 3) {
		if (!calls || i < 0 || i >= ncalls || calls[i].seen)
			die("call line out of place: %s", line);
		calls[i].seen = 1;
		snprintf(calls[i].op, sizeof(calls[i].op), "%s", op);
		snprintf(calls[i].target, sizeof(calls[i].target), "%s", name);
		if (!(calls[i].result = strdup(line + n)))
			die("out of memory%s", "");
	} else if (sscanf(line, "fuzz-done calls=%ld ms=%ld", &done_calls, &done_ms) == 2) {
	} else if (sscanf(line, "fuzz-exit %ld", &fuzz_exit) == 1) {
	} else if (!strncmp(line, "fuzz-error", 10)) {
		die("the guest program failed: %s", line);
	}
}

static void read_results(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[2 * 65536 + 256];

	if (!f)
		die("cannot read %s", path);
	while (fgets(line, sizeof(line), f))
		results_line(line);
	fclose(f);
	if (!seed_seen)
		die("no fuzz-start line in %s", path);
	if (done_calls != ncalls)
		die("no fuzz-done line for every call in %s: the guest did not finish", path);
	if (fuzz_exit != 0)
		die("the guest program did not exit 0 (fuzz-exit) in %s", path);
	for (long i = 0; i < ncalls; i++)
		if (!calls[i].seen)
			die("a call line is missing in %s", path);
}

static const struct target *target_of(const char *name)
{
	for (size_t i = 0; i < ntargets; i++)
		if (!strcmp(targets[i].name, name))
			return &targets[i];
	return NULL;
}

/* Whether R is about the file NAME of the work directory. */
static int about(const struct reply *r, const char *name)
{
	size_t pl = strlen(r->path), nl = strlen(name);

	return pl > nl && !strcmp(r->path + pl - nl, name) && r->path[pl - nl - 1] == '/';
}

/* A reply that means "no ACL" without bytes. */
static int no_acl(const struct reply *r)
{
	return r->verdict == ACLX_NONE || r->rlerror == ENODATA ||
	       r->rlerror == ENOSYS || r->rlerror == EOPNOTSUPP;
}

static int acceptable(const struct reply *r)
{
	if (r->unfuzzed)
		return 1;
	if (r->rlerror >= 0)
		return no_acl(r);
	return r->verdict != ACLX_INVALID;
}

static void fail_reply(long i, const struct call *c, const struct reply *r,
		       const char *what)
{
	failed++;
	if (r && r->rlerror >= 0)
		printf("FAIL seed=%lu reply=%llu call=%ld %s %s: %s; the proxy sent Rlerror %d for %s; the client: %s\n",
		       seed, r->index, i, c->op, c->target, what, r->rlerror, r->name, c->result);
	else if (r)
		printf("FAIL seed=%lu reply=%llu call=%ld %s %s: %s; %s %s (%s), declared %llu, sent %s (%s); the client: %s\n",
		       seed, r->index, i, c->op, c->target, what, r->name, r->path, r->mutation,
		       r->declared, r->hex, r->why, c->result);
	else
		printf("FAIL seed=%lu call=%ld %s %s: %s; the client: %s\n",
		       seed, i, c->op, c->target, what, c->result);
}

/* What the client decided or returned for call C, against REPLY. */
static int explains(const struct call *c, const struct target *t, const struct reply *r)
{
	static uint8_t enc[65536];
	int want = 0, d;

	if (r->unfuzzed)
		return 1;
	if (!strncmp(c->op, "getxattr-", 9)) {
		if (!strcmp(c->result, "errno=61"))
			return no_acl(r);
		if (strncmp(c->result, "bytes=", 6) || r->verdict != ACLX_VALID)
			return 0;
		aclx_parse(r->bytes, r->len, r->declared, &acl, NULL, 0);
		size_t n = aclx_encode(&acl, enc, sizeof(enc));
		size_t blen;
		uint8_t *b = unhex(c->result + 6, &blen);
		int same = blen == n && !memcmp(b, enc, n);

		free(b);
		return same;
	}
	for (const char *p = c->op + 7; *p; p++)
		want |= *p == 'r' ? 4 : *p == 'w' ? 2 : *p == 'x' ? 1 : 0;
	if (no_acl(r))
		d = aclx_permission(NULL, &t->ino, &cred, want);
	else if (r->verdict == ACLX_VALID) {
		aclx_parse(r->bytes, r->len, r->declared, &acl, NULL, 0);
		d = aclx_permission(&acl, &t->ino, &cred, want);
	} else {
		return 0;
	}
	return (d == 0 && !strcmp(c->result, "granted")) ||
	       (d == EACCES && !strcmp(c->result, "denied"));
}

static unsigned long eio, judged;
/* the replies of call I: order[first[I]] .. order[first[I + 1] - 1] */
static size_t *order, *first;

static void index_calls(void)
{
	size_t *at;

	first = calloc((size_t)ncalls + 2, sizeof(*first));
	order = calloc(nreplies + 1, sizeof(*order));
	at = calloc((size_t)ncalls + 1, sizeof(*at));
	if (!first || !order || !at)
		die("out of memory%s", "");
	for (size_t k = 0; k < nreplies; k++)
		if (replies[k].call >= 0 && replies[k].call < ncalls)
			first[replies[k].call + 1]++;
	for (long i = 0; i < ncalls; i++)
		first[i + 1] += first[i];
	for (size_t k = 0; k < nreplies; k++) {
		long c = replies[k].call;

		if (c >= 0 && c < ncalls)
			order[first[c] + at[c]++] = k;
	}
	free(at);
}

static void judge(long i)
{
	const struct call *c = &calls[i];
	const struct target *t = target_of(c->target);
	const char *own = !strcmp(c->op, "getxattr-default") ? "default" : "access";
	const struct reply *first_own = NULL, *why_own = NULL;
	int observed = strcmp(c->op, "stat") != 0, explained = 0, unsorted_only = 1;

	judged++;
	if (!t)
		die("a call names an unknown target: %s", c->target);
	if (!strcmp(c->result, "hang")) {
		fail_reply(i, c, NULL, "the call did not return");
		return;
	}
	if (!strcmp(c->result, "errno=5")) {
		eio++;
		return;
	}
	/* anything fetched was accepted: each file and name had a good reply */
	for (size_t k = first[i]; k < first[i + 1]; k++) {
		const struct reply *r = &replies[order[k]];
		int good = 0;

		for (size_t j = first[i]; j < first[i + 1] && !good; j++) {
			const struct reply *o = &replies[order[j]];

			good = !strcmp(o->path, r->path) && !strcmp(o->name, r->name) &&
			       acceptable(o);
		}
		if (!good) {
			/* name every reply of this ACL in the call; show the
			 * one the client read most of */
			char what[1024];
			const struct reply *most = r;
			size_t w = (size_t)snprintf(what, sizeof(what),
				"the call did not fail with EIO, but no reply of this ACL in it was valid (replies");

			for (size_t j = first[i]; j < first[i + 1]; j++) {
				const struct reply *o = &replies[order[j]];

				if (strcmp(o->path, r->path) || strcmp(o->name, r->name))
					continue;
				if (o->len > most->len)
					most = o;
				if (w < sizeof(what))
					w += (size_t)snprintf(what + w, sizeof(what) - w, " %llu: %s;",
							      o->index, o->rlerror >= 0 ? "Rlerror" : o->why);
			}
			if (w < sizeof(what))
				snprintf(what + w - 1, sizeof(what) - w + 1, ")");
			fail_reply(i, c, most, what);
			return;
		}
	}
	if (!strcmp(c->op, "stat") && strcmp(c->result, "ok")) {
		fail_reply(i, c, NULL, "stat failed with an errno other than EIO");
		return;
	}
	if (!observed)
		return;
	if (strncmp(c->result, "bytes=", 6) && strcmp(c->result, "errno=61") &&
	    strcmp(c->result, "granted") && strcmp(c->result, "denied")) {
		fail_reply(i, c, NULL, "an errno other than EIO");
		return;
	}
	for (size_t k = first[i]; k < first[i + 1]; k++) {
		const struct reply *r = &replies[order[k]];

		if (!about(r, t->name) || strcmp(r->name, own))
			continue;
		if (!first_own)
			first_own = r;
		if (explains(c, t, r)) {
			explained = 1;
			unsorted_only &= r->unsorted;
		} else if (!why_own) {
			why_own = r;
		}
	}
	if (!first_own) {
		struct reply none = { .verdict = ACLX_NONE, .rlerror = -1 };

		/* no fetch: only right when no ACL could decide */
		if (strncmp(c->op, "access-", 7) || (t->ino.mode & 070) ||
		    !explains(c, t, &none))
			fail_reply(i, c, NULL, "no reply of the ACL in the call to explain the outcome");
		return;
	}
	if (!explained) {
		fail_reply(i, c, why_own ? why_own : first_own,
			   "the outcome is not what the reply's bytes say");
		return;
	}
	if (unsorted_only) {
		notes++;
		printf("NOTE seed=%lu call=%ld %s %s: decided by an ACL whose named ids are unsorted or repeated (valid for the kernel)\n",
		       seed, i, c->op, c->target);
	}
}

int main(int argc, char **argv)
{
	unsigned long counts[3] = { 0 }, rlerr = 0, unfuzzed = 0, outside = 0;
	int a = 1;

	if (a < argc && !strcmp(argv[a], "--ids-sorted")) {
		ids_sorted = 1;
		a++;
	}
	if (argc - a != 2) {
		fprintf(stderr, "usage: acl9p-fuzzjudge [--ids-sorted] ninep-proxy.log ktap.txt\n");
		return 2;
	}
	if (!(replies = calloc(MAX_REPLIES, sizeof(*replies))))
		die("out of memory%s", "");
	read_results(argv[a + 1]);
	read_log(argv[a]);
	for (size_t k = 0; k < nreplies; k++) {
		const struct reply *r = &replies[k];

		if (r->call < 0 || r->call >= ncalls)
			outside++;
		if (r->rlerror >= 0)
			rlerr++;
		else if (r->unfuzzed)
			unfuzzed++;
		else
			counts[r->verdict]++;
	}
	index_calls();
	for (long i = 0; i < ncalls; i++)
		judge(i);
	printf("fuzz-judge: seed %lu: %lu replies fuzzed (%lu valid, %lu size 0, %lu invalid), %lu Rlerror, %lu unfuzzed, %lu outside the calls; %lu calls judged, %lu EIO, %lu failed, %lu notes\n",
	       seed, counts[0] + counts[1] + counts[2], counts[ACLX_VALID], counts[ACLX_NONE],
	       counts[ACLX_INVALID], rlerr, unfuzzed, outside, judged, eio, failed, notes);
	printf("replies=%lu calls=%lu failed=%lu eio=%lu ms=%ld\n",
	       counts[0] + counts[1] + counts[2], judged, failed, eio, done_ms);
	return failed ? 1 : 0;
}
