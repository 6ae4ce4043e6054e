// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p-bench: what POSIX ACL operations cost on the share, with a
 * tmpfs of the same guest as the floor.  The guest init runs it in
 * ACL9P_MODE=bench (scripts/bench.sh boots it, make bench); it is not a
 * test of the suite (no acl9p_ prefix, so init's check mode and
 * scripts/manifest.sh leave it alone).
 *
 * The operations, on files made here with known ACLs (every result is
 * checked: a failed call or wrong bytes is a "bench-error" line and
 * exit 1, never a number):
 *   getxattr E   system.posix_acl_access of a file with an ACL of E
 *                entries, read the size-probe way: getxattr(p, n, NULL, 0),
 *                then the read of that size
 *   setxattr E   the same ACL set, two values in turn (a change each time)
 *   chmod 5      chmod of a file with a 5-entry ACL, 0640 and 0660 in
 *                turn (its mask follows)
 *   create N     open(O_CREAT|O_EXCL) + close of N files in a directory
 *                with a 5-entry default ACL (each inherits an access ACL):
 *                this fills the directory the walk then reads
 *   walk N       getfacl -R over that directory of N files: lstat, the
 *                access ACL of every entry, the default ACL of the
 *                directory, read as libacl 2.3.1 reads them (a 132-byte
 *                buffer first, the size probe only on ERANGE)
 *   lswalk N     find -ls over the same directory: readdir and lstat of
 *                every entry, no ACL read (a metadata walk: find, make,
 *                ls -l of a tree), checked by its entry count
 *   unlink N     unlink of those N files, first directory size only
 * E counts every entry: the 4 required ones (u::, g::, m::, o::) and
 * E - 4 named users, so the xattr is 4 + 8 * E bytes.
 *
 * Parameters (environment, from undotted kernel parameters; lists are
 * comma-separated, a kernel parameter has no blanks):
 *   ACL9P_BENCH_ITERS    timed iterations of a single operation on the share (100)
 *   ACL9P_BENCH_WARMUP   untimed iterations before them (10; walks: one
 *                        walk of the first size)
 *   ACL9P_BENCH_LOCAL_X  the tmpfs runs that many times the iterations (10):
 *                        its operations take microseconds
 *   ACL9P_BENCH_NAMED    named-user entries of the scaling sizes (1,10,50,100,250)
 *   ACL9P_BENCH_WALK     directory sizes of create/walk/unlink (100,1000)
 *   ACL9P_BENCH_WALK_ENTRIES  entries a walk size reads in all: it is
 *                        walked max(1, this / N) times (1000)
 *   ACL9P_BENCH_COUNT    1: count mode, the share only: each operation
 *                        once, untimed, after a marker (below)
 *   ACL9P_BENCH_SHARE    0: the tmpfs floor only (1).  For boots under
 *                        QEMU's -icount, where the guest's clock counts
 *                        its instructions: the floor's loops never wait,
 *                        so their "ns" are instructions, but the share's
 *                        wait for the server, and an idle guest's clock
 *                        jumps to its next timer
 *
 * Output on stdout (the init copies it to the results port):
 *   bench-start MS                the guest's uptime (CLOCK_BOOTTIME) as the
 *                                 program starts: kernel boot to first operation
 *   bench-param NAME VALUE        the parameters, then the guest: kernel
 *                                 release, CPUs online, memory (MiB)
 *   bench FS OP SIZE ITERS NS MED B
 *                                 ITERS timed iterations of OP took NS ns in
 *                                 all (CLOCK_MONOTONIC), in B batches timed
 *                                 apart, the median batch MED ns per
 *                                 operation (timed(), below); FS share|tmpfs
 *   op N OP SIZE                  count mode: slice N of the 9P log is OP
 *   bench-error FS OP SIZE: WHAT  the first failure, then exit 1
 *   bench-done MS                 the last line of a run without error: the
 *                                 ms it ran (the rest of the boot is overhead)
 *
 * Count mode uses make wire's marker (guest/wire.sh): a utimensat() of
 * the share's root with mtime 1000000000 + N, which the client sends as
 * one Tsetattr; acl9p-p9trace (QEMU's trace) and ninep-proxy (diod)
 * split the requests at those, so slice N holds exactly the requests of
 * the one operation after marker N.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define SHARE		"/mnt/share"
#define LOCAL		"/mnt/local"	/* the init's tmpfs */
#define ACCESS		"system.posix_acl_access"
#define DEFAULT		"system.posix_acl_default"
#define MARK_EPOCH	1000000000L	/* guest/wire.sh, tests/host/p9trace.c */
#define MAX_LIST	16
#define MAX_ENTRIES	1024
#define ACL_BYTES(e)	(4 + 8 * (size_t)(e))
/* libacl 2.3.1's acl_get_file(): a first read into acl_ea_size(16) bytes */
#define LIBACL_GUESS	ACL_BYTES(16)

/* include/uapi/linux/posix_acl.h, posix_acl_xattr.h */
enum { A_USER_OBJ = 1, A_USER = 2, A_GROUP_OBJ = 4, A_MASK = 16, A_OTHER = 32 };
#define A_VERSION	2
#define A_UNDEFINED	0xffffffffu

static const char *fs_now = "-", *op_now = "setup";
static long size_now;

static void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	printf("bench-error %s %s %ld: ", fs_now, op_now, size_now);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(e ? ": %s\n" : "\n", strerror(e));
	fflush(stdout);
	exit(1);
}

static void at(const char *fs, const char *op, long size)
{
	fs_now = fs;
	op_now = op;
	size_now = size;
	errno = 0;
}

static long param(const char *name, long dflt, long min, long max)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		n = dflt;
	else {
		errno = 0;
		n = strtol(v, &end, 10);
		if (errno || *end || n < min || n > max) {
			errno = 0;
			fail("%s=%s: not a number from %ld to %ld", name, v, min, max);
		}
	}
	printf("bench-param %s %ld\n", name, n);
	return n;
}

/* "1,10,50" -> {1, 10, 50}; returns how many */
static int param_list(const char *name, const char *dflt, long *out, long min, long max)
{
	const char *v = getenv(name);
	char *p, *end;
	int n = 0;

	if (!v || !*v)
		v = dflt;
	printf("bench-param %s %s\n", name, v);
	for (p = (char *)v; *p; p = *end ? end + 1 : end) {
		errno = 0;
		out[n] = strtol(p, &end, 10);
		if (errno || end == p || (*end && *end != ',') ||
		    out[n] < min || out[n] > max || ++n == MAX_LIST) {
			errno = 0;
			fail("%s=%s: not a list of numbers from %ld to %ld (at most %d)",
			     name, v, min, max, MAX_LIST - 1);
		}
	}
	return n;
}

/* snprintf that fails the run instead of cutting a path short */
static void __attribute__((format(printf, 3, 4))) path_of(char *buf, size_t cap,
							  const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= cap) {
		errno = 0;
		fail("path longer than %zu bytes (%s...)", cap, buf);
	}
}

static int64_t clock_ns(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static unsigned char *put(unsigned char *p, unsigned tag, unsigned perm, uint32_t id)
{
	/* little endian on the wire and in the xattr (posix_acl_xattr.h) */
	p[0] = tag & 0xff; p[1] = tag >> 8;
	p[2] = perm & 0xff; p[3] = perm >> 8;
	p[4] = id & 0xff; p[5] = (id >> 8) & 0xff;
	p[6] = (id >> 16) & 0xff; p[7] = id >> 24;
	return p + 8;
}

/*
 * An ACL of e entries (e >= 4; 4 has no named user but a mask all the
 * same): u::rw-, e - 4 named users 1001.. (r--, the last one rw- when
 * variant is 1), g::r--, m::rw-, o::r--.  Returns its size.
 */
static size_t acl_file(unsigned char *buf, long e, int variant)
{
	unsigned char *p = buf;

	buf[0] = A_VERSION; buf[1] = buf[2] = buf[3] = 0;
	p = put(p + 4, A_USER_OBJ, 6, A_UNDEFINED);
	for (long i = 0; i < e - 4; i++)
		p = put(p, A_USER, variant && i == e - 5 ? 6 : 4, 1001 + (uint32_t)i);
	p = put(p, A_GROUP_OBJ, 4, A_UNDEFINED);
	p = put(p, A_MASK, 6, A_UNDEFINED);
	p = put(p, A_OTHER, 4, A_UNDEFINED);
	return (size_t)(p - buf);
}

/* the directories' ACL, access and default: u::rwx,u:1001:r-x,g::r-x,m::r-x,o::r-x */
static size_t acl_dir(unsigned char *buf)
{
	unsigned char *p = buf;

	buf[0] = A_VERSION; buf[1] = buf[2] = buf[3] = 0;
	p = put(p + 4, A_USER_OBJ, 7, A_UNDEFINED);
	p = put(p, A_USER, 5, 1001);
	p = put(p, A_GROUP_OBJ, 5, A_UNDEFINED);
	p = put(p, A_MASK, 5, A_UNDEFINED);
	p = put(p, A_OTHER, 5, A_UNDEFINED);
	return (size_t)(p - buf);
}

static unsigned char acl_buf[ACL_BYTES(MAX_ENTRIES)], read_buf[ACL_BYTES(MAX_ENTRIES)];

static void make_file(const char *path, long e)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	size_t n;

	if (fd < 0)
		fail("create %s", path);
	if (close(fd))
		fail("close %s", path);
	n = acl_file(acl_buf, e, 0);
	if (setxattr(path, ACCESS, acl_buf, n, 0))
		fail("setxattr %s %s (%zu bytes)", path, ACCESS, n);
}

static void make_dir(const char *path)
{
	size_t n = acl_dir(acl_buf);

	if (mkdir(path, 0755))
		fail("mkdir %s", path);
	if (setxattr(path, ACCESS, acl_buf, n, 0) ||
	    setxattr(path, DEFAULT, acl_buf, n, 0))
		fail("setxattr %s access and default ACL (%zu bytes)", path, n);
}

/* The operation under measurement: one call each (the timed loops call them). */

/* the size probe, then the read, checked against the bytes set */
static void op_getxattr(const char *path, const unsigned char *want, size_t n)
{
	ssize_t r = getxattr(path, ACCESS, NULL, 0);

	if (r != (ssize_t)n) {
		if (r >= 0)
			errno = 0;
		fail("getxattr %s size probe: %zd, not %zu", path, r, n);
	}
	r = getxattr(path, ACCESS, read_buf, (size_t)r);
	if (r != (ssize_t)n || memcmp(read_buf, want, n)) {
		if (r >= 0)
			errno = 0;
		fail("getxattr %s: %zd bytes, not the %zu set", path, r, n);
	}
}

static void op_setxattr(const char *path, const unsigned char *v, size_t n)
{
	if (setxattr(path, ACCESS, v, n, 0))
		fail("setxattr %s (%zu bytes)", path, n);
}

static void op_chmod(const char *path, mode_t mode)
{
	if (chmod(path, mode))
		fail("chmod %s %o", path, (unsigned)mode);
}

static void op_create(const char *dir, long i)
{
	char path[512];
	int fd;

	path_of(path, sizeof(path), "%s/f%06ld", dir, i);
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		fail("create %s", path);
	if (close(fd))
		fail("close %s", path);
}

static void op_unlink(const char *dir, long i)
{
	char path[512];

	path_of(path, sizeof(path), "%s/f%06ld", dir, i);
	if (unlink(path))
		fail("unlink %s", path);
}

/* acl_get_file()'s reads: into LIBACL_GUESS bytes, on ERANGE the probe and the read */
static ssize_t libacl_read(const char *path, const char *name)
{
	ssize_t r = getxattr(path, name, read_buf, LIBACL_GUESS);

	if (r < 0 && errno == ERANGE) {
		r = getxattr(path, name, NULL, 0);
		if (r > 0)
			r = getxattr(path, name, read_buf, (size_t)r);
	}
	return r;
}

static void __attribute__((noreturn)) bad_read(const char *path, const char *name,
					      ssize_t r, ssize_t want)
{
	if (r >= 0)
		errno = 0;
	fail("getxattr %s %s: %zd bytes, not %zd", path, name, r, want);
}

/*
 * getfacl -R on path (len bytes of buf), or with acls false find -ls (no
 * ACL read): every entry has a 5-entry access ACL, every directory a
 * 5-entry default ACL too (made so); any other answer is an error.
 * Returns the entries walked.
 */
static long walk(char *buf, size_t len, size_t cap, bool acls)
{
	const ssize_t want = (ssize_t)ACL_BYTES(5);
	struct dirent *d;
	struct stat st;
	long n = 1;
	ssize_t r;
	DIR *dir;

	if (lstat(buf, &st))
		fail("lstat %s", buf);
	if (acls && (r = libacl_read(buf, ACCESS)) != want)
		bad_read(buf, ACCESS, r, want);
	if (!S_ISDIR(st.st_mode))
		return n;
	if (acls && (r = libacl_read(buf, DEFAULT)) != want)
		bad_read(buf, DEFAULT, r, want);
	dir = opendir(buf);
	if (!dir)
		fail("opendir %s", buf);
	for (errno = 0; (d = readdir(dir)); errno = 0) {
		size_t k = strlen(d->d_name);

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (len + 1 + k >= cap)
			fail("path %s/%s too long", buf, d->d_name);
		buf[len] = '/';
		memcpy(buf + len + 1, d->d_name, k + 1);
		n += walk(buf, len + 1 + k, cap, acls);
		buf[len] = '\0';
	}
	if (errno)
		fail("readdir %s", buf);
	closedir(dir);
	return n;
}

static void op_walk(const char *dir, long files, bool acls)
{
	char buf[4096];
	long n;

	path_of(buf, sizeof(buf), "%s", dir);
	n = walk(buf, strlen(buf), sizeof(buf), acls);
	if (n != files + 1) {
		errno = 0;
		fail("walk %s: %ld entries, not %ld", dir, n, files + 1);
	}
}

/* make wire's marker: slice n of the share's 9P requests begins here */
static long marker;

static void mark(const char *op, long size)
{
	struct timespec t[2] = { { .tv_nsec = UTIME_OMIT },
				 { .tv_sec = MARK_EPOCH + ++marker } };

	if (utimensat(AT_FDCWD, SHARE, t, 0))
		fail("marker %ld (utimensat %s)", marker, SHARE);
	printf("op %ld %s %ld\n", marker, op, size);
	/* the line may not wait in a buffer while the next slice runs */
	fflush(stdout);
}

struct params {
	long iters, warmup, named[MAX_LIST], walk[MAX_LIST], walk_entries;
	int nnamed, nwalk;
};

/*
 * The timed loop.  One operation is fn(c, i) for i = 0, 1, ...; the
 * iterations run in up to BATCHES batches of equal size (the last takes
 * the rest), each timed on its own, and the line reports the total and
 * the median batch's time per operation: a burst of other load on the
 * host (a kernel build beside the benchmark) slows a batch or two, and
 * the median leaves them out where the total cannot.
 */
#define BATCHES		10

struct op_ctx {
	const char *path;		/* getxattr, setxattr, chmod: the file */
	const char *dir;		/* create, walk, unlink: the directory */
	const unsigned char *val[2];	/* setxattr: the two values, in turn */
	size_t n;			/* their size */
	long j;				/* setxattr, chmod: calls so far */
	long files;			/* walk: files in dir */
};

static void fn_getxattr(struct op_ctx *c, long i)
{
	(void)i;
	op_getxattr(c->path, c->val[0], c->n);
}

static void fn_setxattr(struct op_ctx *c, long i)
{
	(void)i;
	op_setxattr(c->path, c->val[++c->j & 1], c->n);
}

static void fn_chmod(struct op_ctx *c, long i)
{
	(void)i;
	op_chmod(c->path, ++c->j & 1 ? 0640 : 0660);
}

static void fn_create(struct op_ctx *c, long i)
{
	op_create(c->dir, i);
}

static void fn_walk(struct op_ctx *c, long i)
{
	(void)i;
	op_walk(c->dir, c->files, true);
}

static void fn_lswalk(struct op_ctx *c, long i)
{
	(void)i;
	op_walk(c->dir, c->files, false);
}

static void fn_unlink(struct op_ctx *c, long i)
{
	op_unlink(c->dir, i);
}

static void timed(const char *fs, const char *op, long size, long iters,
		  void (*fn)(struct op_ctx *, long), struct op_ctx *c)
{
	long nb = iters < BATCHES ? iters : BATCHES, per = iters / nb, b, i = 0, k;
	int64_t total = 0, t0, ns[BATCHES], v;

	at(fs, op, size);
	for (b = 0; b < nb; b++) {
		long end = b == nb - 1 ? iters : i + per, done = end - i;

		t0 = now_ns();
		for (; i < end; i++)
			fn(c, i);
		v = now_ns() - t0;
		total += v;
		/* insertion sort: at most BATCHES values */
		v /= done;
		for (k = b - 1; k >= 0 && ns[k] > v; k--)
			ns[k + 1] = ns[k];
		ns[k + 1] = v;
	}
	v = nb % 2 ? ns[nb / 2] : (ns[nb / 2 - 1] + ns[nb / 2]) / 2;
	printf("bench %s %s %ld %ld %lld %lld %ld\n", fs, op, size, iters,
	       (long long)total, (long long)v, nb);
}

/* The timed runs on one filesystem: root is the bench's directory there. */
static void run_timed(const char *fs, const char *root, const struct params *p, long x)
{
	char path[512], dir[512];
	long iters = p->iters * x, e, i, k;
	unsigned char val[2][ACL_BYTES(MAX_ENTRIES)];
	struct op_ctx c = { .path = path, .dir = dir, .val = { val[0], val[1] } };
	struct stat st;

	for (k = 0; k < p->nnamed; k++) {
		e = p->named[k] + 4;
		at(fs, "getxattr", e);
		path_of(path, sizeof(path), "%s/get%ld", root, e);
		make_file(path, e);
		c.n = acl_file(val[0], e, 0);
		for (i = 0; i < p->warmup; i++)
			fn_getxattr(&c, i);
		timed(fs, "getxattr", e, iters, fn_getxattr, &c);
	}
	for (k = 0; k < p->nnamed; k++) {
		e = p->named[k] + 4;
		at(fs, "setxattr", e);
		path_of(path, sizeof(path), "%s/set%ld", root, e);
		make_file(path, e);
		c.n = acl_file(val[0], e, 0);
		acl_file(val[1], e, 1);
		/* the two values in turn, from the warm-up on: every set changes the ACL */
		c.j = 0;
		for (i = 0; i < p->warmup; i++)
			fn_setxattr(&c, i);
		timed(fs, "setxattr", e, iters, fn_setxattr, &c);
		/* the last value set is the one there */
		op_getxattr(path, val[c.j & 1], c.n);
	}

	at(fs, "chmod", 5);
	path_of(path, sizeof(path), "%s/chmod", root);
	make_file(path, 5);
	/* the file is 0664 (its ACL's u::rw-, m::rw-, o::r--): every chmod changes it */
	c.j = 0;
	for (i = 0; i < p->warmup; i++)
		fn_chmod(&c, i);
	timed(fs, "chmod", 5, iters, fn_chmod, &c);
	/*
	 * The last mode is there, and the ACL followed it: the mask is
	 * the group bits (r-- or rw-), o:: the other bits (---).
	 */
	c.n = acl_file(val[0], 5, 0);
	val[0][4 + 8 * 3 + 2] = c.j & 1 ? 4 : 6;
	val[0][4 + 8 * 4 + 2] = 0;
	if (stat(path, &st))
		fail("stat %s", path);
	if ((st.st_mode & 07777) != (c.j & 1 ? 0640u : 0660u)) {
		errno = 0;
		fail("%s: mode %o after the chmods", path, (unsigned)st.st_mode & 07777);
	}
	op_getxattr(path, val[0], c.n);

	/* create's warm-up in a directory of its own, emptied again */
	at(fs, "create", 0);
	path_of(dir, sizeof(dir), "%s/warm", root);
	make_dir(dir);
	for (i = 0; i < p->warmup; i++)
		fn_create(&c, i);
	for (i = 0; i < p->warmup; i++)
		fn_unlink(&c, i);
	for (k = 0; k < p->nwalk; k++) {
		long walks = p->walk_entries / p->walk[k] > 1 ? p->walk_entries / p->walk[k] : 1;

		c.files = p->walk[k];
		at(fs, "create", c.files);
		path_of(dir, sizeof(dir), "%s/w%ld", root, c.files);
		make_dir(dir);
		timed(fs, "create", c.files, c.files, fn_create, &c);

		/*
		 * One warm-up walk, of the first size only: the files are
		 * fresh from their creates, and a warm-up of every size
		 * would double the run's biggest cost.
		 */
		if (k == 0) {
			at(fs, "walk", c.files);
			fn_walk(&c, 0);
		}
		timed(fs, "walk", c.files, walks * x, fn_walk, &c);
		timed(fs, "lswalk", c.files, walks * x, fn_lswalk, &c);

		/*
		 * unlink, timed on the first directory only: the others
		 * stay, the host deletes the export before the next boot
		 * (and a tmpfs ends with the guest).
		 */
		if (k)
			continue;
		timed(fs, "unlink", c.files, c.files, fn_unlink, &c);
		if (rmdir(dir))
			fail("rmdir %s", dir);
	}
	fflush(stdout);
}

/* Count mode: each operation once on the share, after its marker. */
static void run_counted(const char *root, const struct params *p)
{
	char path[512], dir[512];
	unsigned char val[ACL_BYTES(MAX_ENTRIES)];
	long e, k, i, files = p->walk[0];
	size_t n;

	/* everything made first, so each slice holds its operation alone */
	for (k = 0; k < p->nnamed; k++) {
		e = p->named[k] + 4;
		path_of(path, sizeof(path), "%s/get%ld", root, e);
		make_file(path, e);
	}
	path_of(path, sizeof(path), "%s/chmod", root);
	make_file(path, 5);
	path_of(dir, sizeof(dir), "%s/c", root);
	make_dir(dir);
	/* the smallest walk size: counting is per walk, the report per entry */
	for (k = 1; k < p->nwalk; k++)
		if (p->walk[k] < files)
			files = p->walk[k];
	path_of(path, sizeof(path), "%s/w%ld", root, files);
	make_dir(path);
	for (i = 0; i < files; i++)
		op_create(path, i);

	/* what a marker leaves behind with nothing after it */
	at("share", "baseline", 0);
	mark("baseline", 0);
	for (k = 0; k < p->nnamed; k++) {
		e = p->named[k] + 4;
		at("share", "getxattr", e);
		path_of(path, sizeof(path), "%s/get%ld", root, e);
		n = acl_file(val, e, 0);
		mark("getxattr", e);
		op_getxattr(path, val, n);
	}
	for (k = 0; k < p->nnamed; k++) {
		e = p->named[k] + 4;
		at("share", "setxattr", e);
		path_of(path, sizeof(path), "%s/get%ld", root, e);
		n = acl_file(val, e, 1);
		mark("setxattr", e);
		op_setxattr(path, val, n);
	}
	at("share", "chmod", 5);
	path_of(path, sizeof(path), "%s/chmod", root);
	mark("chmod", 5);
	op_chmod(path, 0640);
	at("share", "create", 1);
	mark("create", 1);
	op_create(dir, 0);
	at("share", "unlink", 1);
	mark("unlink", 1);
	op_unlink(dir, 0);
	at("share", "walk", files);
	path_of(path, sizeof(path), "%s/w%ld", root, files);
	mark("walk", files);
	op_walk(path, files, true);
	at("share", "lswalk", files);
	mark("lswalk", files);
	op_walk(path, files, false);
	/* the last slice ends here, before the exit and the unmount */
	at("share", "end", 0);
	mark("end", 0);
}

int main(void)
{
	struct params p;
	struct utsname u;
	struct sysinfo si;
	int64_t start = now_ns();
	long x, count, share;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("bench-start %lld\n", (long long)(clock_ns(CLOCK_BOOTTIME) / 1000000));
	p.iters = param("ACL9P_BENCH_ITERS", 100, 1, 10000000);
	p.warmup = param("ACL9P_BENCH_WARMUP", 10, 0, 1000000);
	x = param("ACL9P_BENCH_LOCAL_X", 10, 1, 10000);
	p.walk_entries = param("ACL9P_BENCH_WALK_ENTRIES", 1000, 1, 100000000);
	count = param("ACL9P_BENCH_COUNT", 0, 0, 1);
	share = param("ACL9P_BENCH_SHARE", 1, 0, 1);
	p.nnamed = param_list("ACL9P_BENCH_NAMED", "1,10,50,100,250", p.named, 0,
			      MAX_ENTRIES - 4);
	p.nwalk = param_list("ACL9P_BENCH_WALK", "100,1000", p.walk, 1, 1000000);
	/* the guest as it runs: the report reads these, not boot.sh's options */
	if (uname(&u) == 0)
		printf("bench-param kernel %s\n", u.release);
	printf("bench-param cpus %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	if (sysinfo(&si) == 0)
		printf("bench-param memory_mib %llu\n",
		       (unsigned long long)si.totalram * si.mem_unit >> 20);

	umask(022);
	if (mkdir(SHARE "/acl9p-bench", 0755))
		fail("mkdir %s/acl9p-bench", SHARE);
	if (count) {
		run_counted(SHARE "/acl9p-bench", &p);
	} else {
		if (mkdir(LOCAL "/acl9p-bench", 0755))
			fail("mkdir %s/acl9p-bench", LOCAL);
		/* the floor first: it is short, and tells a slow guest apart */
		run_timed("tmpfs", LOCAL "/acl9p-bench", &p, x);
		if (share)
			run_timed("share", SHARE "/acl9p-bench", &p, 1);
	}
	printf("bench-done %lld\n", (long long)((now_ns() - start) / 1000000));
	return 0;
}
