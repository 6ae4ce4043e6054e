// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p-fused: a minimal FUSE passthrough daemon for testing the kernel's
 * FUSE POSIX ACL code (fs/fuse/acl.c) with and without FUSE_POSIX_ACL.
 *
 *	acl9p-fused [--posix-acl] [--log FILE] BACKING MOUNTPOINT
 *
 * It talks to /dev/fuse directly (no libfuse), is single-threaded, and
 * serves MOUNTPOINT from the directory BACKING (a tmpfs with POSIX ACLs).
 * Every request is carried out with the caller's fsuid, fsgid and
 * supplementary groups, so that the backing filesystem makes all
 * permission decisions, applies the umask or the default ACL and updates
 * the mode when an access ACL is set, exactly as it does for a local
 * caller.  Nothing is cached in the kernel (all timeouts are 0).
 *
 * The parent exits 0 once the mount exists; the child detaches from the
 * session and the caller's stdio (later errors go to the --log file) and
 * serves until the filesystem is unmounted.
 *
 * Protocol: written against <linux/fuse.h> 7.38 (Linux 6.1) but
 * negotiates at most 7.37, the first with TMPFILE, and uses nothing newer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/fuse.h>
#include <sys/fsuid.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/xattr.h>

/* handlers share one signature and not all of them need every argument */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define PROTO_MINOR	37	/* TMPFILE; Linux 6.1 speaks 7.38 */
#define PROTO_MINOR_MIN	23	/* full-size structs everywhere from here on */
#define MAX_WRITE	(128 * 1024)
#define IN_BUF_SIZE	(MAX_WRITE + 4096)	/* >= max_write + headers */
#define OUT_MAX		(128 * 1024)	/* READ (32 pages), xattrs (64 KiB) */
#define HASH_SIZE	4096		/* power of two */
#define NO_REPLY	1		/* handler result: send nothing */

/*
 * The id system calls with 32-bit ids.  On i386 (and the other ABIs that
 * kept Linux's first, 16-bit id calls) SYS_setgroups and SYS_setresuid
 * are those 16-bit calls: setgroups16 reads a gid_t array as 16-bit
 * ids, so groups 1002 and 1003 became 1002 and 0.  The 32-bit ones are
 * SYS_*32 there; elsewhere the plain numbers are already 32-bit.
 */
#ifdef SYS_setgroups32
#define SYS_SETGROUPS	SYS_setgroups32
#define SYS_SETRESUID	SYS_setresuid32
#define SYS_SETRESGID	SYS_setresgid32
#else
#define SYS_SETGROUPS	SYS_setgroups
#define SYS_SETRESUID	SYS_setresuid
#define SYS_SETRESGID	SYS_setresgid
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MIN(a, b)	((a) < (b) ? (a) : (b))

/*
 * A node is one backing inode the kernel knows by nodeid.  We hold an
 * O_PATH fd to it: that pins the inode (so st_dev/st_ino cannot be
 * reused while the node exists), needs no permission to hold and works
 * for every file type, symlinks included.
 */
struct node {
	uint64_t id;		/* index in nodes[] */
	uint64_t gen;
	uint64_t nlookup;	/* kernel references, dropped by FORGET */
	dev_t dev;
	ino_t ino;
	int fd;			/* O_PATH|O_NOFOLLOW */
	struct node *hnext;	/* (dev, ino) hash chain */
};

/* One request: the header and a cursor over its arguments. */
struct req {
	const struct fuse_in_header *in;
	const char *pos;
	size_t left;
};

enum { FH_NONE, FH_FILE, FH_DIR };

static int fuse_fd = -1;
static int log_fd = -1;
static bool posix_acl;
static bool initialized;

static struct node **nodes;	/* by nodeid; 0 unused, 1 is BACKING */
static uint64_t nr_nodes, nodes_cap;
static uint64_t *free_ids;	/* same capacity as nodes[] */
static uint64_t nr_free;
static struct node *node_hash[HASH_SIZE];
static uint64_t next_gen = 1;

/*
 * The fds that are file handles we gave out, by fd (so that a bad fh
 * cannot hit a node's fd), with a directory's read position.
 */
struct fh {
	unsigned char kind;
	off_t next_off;		/* where the last READDIR reply ended */
};
static struct fh *fhs;
static size_t fh_cap;

static struct __user_cap_header_struct cap_hdr = {
	.version = _LINUX_CAPABILITY_VERSION_3,
};
static struct __user_cap_data_struct root_caps[_LINUX_CAPABILITY_U32S_3];

static gid_t groups_buf[NGROUPS_MAX];
static char status_buf[64 * 1024];
static char in_buf[IN_BUF_SIZE] __attribute__((aligned(8)));
static char out_buf[OUT_MAX] __attribute__((aligned(8)));
static char dents_buf[OUT_MAX] __attribute__((aligned(8)));

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Before the fork to stderr; after it (stdio is /dev/null) to the log. */
static void msg(const char *what, const char *why)
{
	fprintf(stderr, "acl9p-fused: %s: %s\n", what, why);
	if (log_fd >= 0)
		dprintf(log_fd, "acl9p-fused: %s: %s\n", what, why);
}

static void die(const char *what)
{
	msg(what, strerror(errno));
	exit(1);
}

/* ---- request parsing and replies ---- */

static const void *take(struct req *r, size_t size)
{
	const char *p = r->pos;

	if (r->left < size)
		return NULL;
	r->pos += size;
	r->left -= size;
	return p;
}

static const char *take_str(struct req *r)
{
	const char *p = r->pos;
	const char *end = memchr(p, '\0', r->left);

	if (!end)
		return NULL;
	r->pos = end + 1;
	r->left -= end + 1 - p;
	return p;
}

/* A directory entry name: the kernel never sends "" or a '/'. */
static const char *take_name(struct req *r)
{
	const char *name = take_str(r);

	if (!name || !*name || strchr(name, '/'))
		return NULL;
	return name;
}

static int send_reply(const struct req *r, int err, const void *a,
		      size_t alen, const void *b, size_t blen)
{
	struct fuse_out_header out = {
		.len = sizeof(out) + alen + blen,
		.error = err,
		.unique = r->in->unique,
	};
	struct iovec iov[3] = {
		{ &out, sizeof(out) },
		{ (void *)a, alen },
		{ (void *)b, blen },
	};
	ssize_t n;

	do
		n = writev(fuse_fd, iov, 3);
	while (n < 0 && errno == EINTR);
	/* ENOENT: the request was interrupted and is gone; nothing to do. */
	return n < 0 ? -errno : 0;
}

static int reply_ok(const struct req *r, const void *a, size_t alen)
{
	send_reply(r, 0, a, alen, NULL, 0);
	return 0;
}

static void fill_attr(struct fuse_attr *a, const struct stat *st)
{
	memset(a, 0, sizeof(*a));
	a->ino = st->st_ino;
	a->size = st->st_size;
	a->blocks = st->st_blocks;
	a->atime = st->st_atim.tv_sec;
	a->mtime = st->st_mtim.tv_sec;
	a->ctime = st->st_ctim.tv_sec;
	a->atimensec = st->st_atim.tv_nsec;
	a->mtimensec = st->st_mtim.tv_nsec;
	a->ctimensec = st->st_ctim.tv_nsec;
	a->mode = st->st_mode;
	a->nlink = st->st_nlink;
	a->uid = st->st_uid;
	a->gid = st->st_gid;
	/* glibc's dev_t keeps the kernel's new_encode_dev() in its low bits */
	a->rdev = (uint32_t)st->st_rdev;
	a->blksize = st->st_blksize;
}

static void proc_path(char *buf, size_t size, int fd)
{
	snprintf(buf, size, "/proc/self/fd/%d", fd);
}

/* ---- nodes ---- */

static unsigned int hash_of(dev_t dev, ino_t ino)
{
	uint64_t h = ((uint64_t)ino ^ ((uint64_t)dev << 32)) *
		     0x9e3779b97f4a7c15ull;

	return (h >> 40) & (HASH_SIZE - 1);
}

static struct node *node_get(uint64_t id)
{
	return id && id < nr_nodes ? nodes[id] : NULL;
}

static struct node *node_find(dev_t dev, ino_t ino)
{
	struct node *n = node_hash[hash_of(dev, ino)];

	while (n && (n->dev != dev || n->ino != ino))
		n = n->hnext;
	return n;
}

static bool nodes_grow(void)
{
	uint64_t cap = nodes_cap ? nodes_cap * 2 : 256;
	struct node **nn = realloc(nodes, cap * sizeof(*nn));
	uint64_t *nf;

	if (!nn)
		return false;
	nodes = nn;
	nf = realloc(free_ids, cap * sizeof(*nf));
	if (!nf)
		return false;
	free_ids = nf;
	nodes_cap = cap;
	return true;
}

/* Takes over FD. */
static struct node *node_new(int fd, const struct stat *st)
{
	struct node *n = calloc(1, sizeof(*n));
	unsigned int h;

	if (!n)
		return NULL;
	if (nr_free) {
		n->id = free_ids[--nr_free];
	} else {
		if (nr_nodes >= nodes_cap && !nodes_grow()) {
			free(n);
			return NULL;
		}
		n->id = nr_nodes++;
	}
	/* nodeid:generation must never repeat while the fs is mounted */
	n->gen = next_gen++;
	n->dev = st->st_dev;
	n->ino = st->st_ino;
	n->fd = fd;
	h = hash_of(n->dev, n->ino);
	n->hnext = node_hash[h];
	node_hash[h] = n;
	nodes[n->id] = n;
	return n;
}

static void node_forget(struct node *n, uint64_t count)
{
	struct node **pp;

	if (n->id == FUSE_ROOT_ID)
		return;
	if (count < n->nlookup) {
		n->nlookup -= count;
		return;
	}
	for (pp = &node_hash[hash_of(n->dev, n->ino)]; *pp; pp = &(*pp)->hnext) {
		if (*pp == n) {
			*pp = n->hnext;
			break;
		}
	}
	nodes[n->id] = NULL;
	free_ids[nr_free++] = n->id;
	close(n->fd);
	free(n);
}

/* The node of the O_PATH fd PFD (taken over), with one more lookup. */
static int node_from_fd(int pfd, struct node **np, struct stat *st)
{
	struct node *n;

	if (fstatat(pfd, "", st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) < 0) {
		int err = -errno;

		close(pfd);
		return err;
	}
	n = node_find(st->st_dev, st->st_ino);
	if (n) {
		close(pfd);
	} else if (!(n = node_new(pfd, st))) {
		close(pfd);
		return -ENOMEM;
	}
	n->nlookup++;
	*np = n;
	return 0;
}

/*
 * Look NAME up in DIR as the caller: the O_PATH open needs search
 * permission on DIR, which is the check a lookup must make.
 */
static int lookup_node(struct node *dir, const char *name, struct node **np,
		       struct stat *st)
{
	int fd;

	/* ".." (FUSE_EXPORT_SUPPORT) of the root must not leave BACKING */
	if (dir->id == FUSE_ROOT_ID && strcmp(name, "..") == 0)
		name = ".";
	fd = openat(dir->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return node_from_fd(fd, np, st);
}

/* Returns the send result so that callers can undo what the kernel missed. */
static int reply_entry(const struct req *r, struct node *n,
		       const struct stat *st, const void *extra, size_t elen)
{
	struct fuse_entry_out e = { .nodeid = n->id, .generation = n->gen };
	int err;

	fill_attr(&e.attr, st);
	err = send_reply(r, 0, &e, sizeof(e), extra, elen);
	if (err == -ENOENT)
		node_forget(n, 1);	/* the kernel never saw this lookup */
	return err;
}

static int reply_lookup(const struct req *r, struct node *dir,
			const char *name)
{
	struct node *n;
	struct stat st;
	int err = lookup_node(dir, name, &n, &st);

	if (err)
		return err;
	reply_entry(r, n, &st, NULL, 0);
	return 0;
}

static int reply_attr(const struct req *r, int fd)
{
	struct fuse_attr_out out = { 0 };
	struct stat st;

	if (fstatat(fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	fill_attr(&out.attr, &st);
	return reply_ok(r, &out, sizeof(out));
}

/* ---- file handles: the backing fd itself ---- */

static int fh_set(int fd, unsigned char kind)
{
	if ((size_t)fd >= fh_cap) {
		size_t cap = fd + 1024;
		struct fh *f = realloc(fhs, cap * sizeof(*f));

		if (!f)
			return -ENOMEM;
		memset(f + fh_cap, 0, (cap - fh_cap) * sizeof(*f));
		fhs = f;
		fh_cap = cap;
	}
	fhs[fd] = (struct fh){ .kind = kind };
	return 0;
}

static int fh_get(uint64_t fh, unsigned char kind)
{
	return fh < fh_cap && fhs[fh].kind == kind ? (int)fh : -1;
}

static void fh_close(uint64_t fh, unsigned char kind)
{
	if (fh_get(fh, kind) >= 0) {
		fhs[fh].kind = FH_NONE;
		close((int)fh);
	}
}

/* The fd of the handle at the start of R, an fh-first struct of SIZE. */
static const void *take_fh(struct req *r, size_t size, unsigned char kind,
			   int *fd)
{
	const void *in = take(r, size);

	*fd = in ? fh_get(*(const uint64_t *)in, kind) : -1;
	return *fd < 0 ? NULL : in;
}

/* ---- credentials ---- */

/* What the caller's /proc/PID/status says about its credentials. */
struct caller {
	int nr_groups;		/* in groups_buf */
	bool has_caps;
	uint64_t cap_eff;
};

static void parse_groups(const char *p, struct caller *c)
{
	char *end;

	while (c->nr_groups < NGROUPS_MAX) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		groups_buf[c->nr_groups] = strtoul(p, &end, 10);
		if (*end != ' ' && *end != '\t' && *end != '\n')
			break;	/* cut off by the buffer */
		c->nr_groups++;
		p = end;
	}
}

/*
 * The kernel gives us the caller's fsuid, fsgid and pid only; take its
 * supplementary groups and effective capabilities from /proc (of the
 * thread group leader: a thread with other credentials is not seen).
 * No pid (a request of the kernel's own) or no such process: none.
 */
static void read_caller(uint32_t pid, struct caller *c)
{
	char path[32], *p;
	size_t len = 0;
	ssize_t n;
	int fd;

	*c = (struct caller){ 0 };
	if (!pid)
		return;
	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	while (len < sizeof(status_buf) - 1 &&
	       (n = read(fd, status_buf + len, sizeof(status_buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	status_buf[len] = '\0';
	p = strstr(status_buf, "\nCapEff:\t");
	if (p) {
		c->cap_eff = strtoull(p + strlen("\nCapEff:\t"), NULL, 16);
		c->has_caps = true;
	}
	p = strstr(status_buf, "\nGroups:");
	if (p)
		parse_groups(p + strlen("\nGroups:"), c);
}

/* Effective capabilities: EFF (a CapEff mask) within what we may have. */
static int set_caps(uint64_t eff)
{
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	memcpy(d, root_caps, sizeof(d));
	d[0].effective &= (uint32_t)eff;
	d[1].effective &= (uint32_t)(eff >> 32);
	return syscall(SYS_capset, &cap_hdr, d);
}

/*
 * Become the caller.  Normally only the fs ids change (going from fsuid
 * 0 to another clears the fs capabilities from the effective set), and
 * the effective capabilities become the caller's: a root caller keeps
 * root's powers, a non-root one has none, not even the CAP_SYS_ADMIN
 * that trusted.* xattrs want; without a status file, root's or none.
 * With REAL (for ACCESS) the real ids become the caller's instead:
 * faccessat() checks with those and sets the capabilities itself.
 */
static int set_creds(const struct fuse_in_header *in, bool real)
{
	struct caller c;

	if (in->uid == (uint32_t)-1 || in->gid == (uint32_t)-1)
		return -EOVERFLOW;
	read_caller(in->pid, &c);
	/* raw syscalls: glibc would sync ids across threads we do not have */
	if (syscall(SYS_SETGROUPS, c.nr_groups, groups_buf) < 0)
		return -errno;
	if (real) {
		if (syscall(SYS_SETRESGID, in->gid, -1, -1) < 0 ||
		    syscall(SYS_SETRESUID, in->uid, -1, -1) < 0)
			return -errno;
		return 0;
	}
	setfsgid(in->gid);
	setfsuid(in->uid);
	if ((uint32_t)setfsgid(-1) != in->gid ||
	    (uint32_t)setfsuid(-1) != in->uid)
		return -EPERM;
	if (!c.has_caps)
		c.cap_eff = in->uid == 0 ? ~0ull : 0;
	if (set_caps(c.cap_eff) < 0)
		return -errno;
	return 0;
}

static void restore_creds(bool real)
{
	/* capabilities first: changing ids back needs CAP_SETUID/SETGID */
	if (set_caps(~0ull) < 0)
		die("restore capabilities");
	if (real) {
		if (syscall(SYS_SETRESUID, 0, -1, -1) < 0 ||
		    syscall(SYS_SETRESGID, 0, -1, -1) < 0)
			die("restore real ids");
	} else {
		setfsuid(0);
		setfsgid(0);
		if (setfsuid(-1) != 0 || setfsgid(-1) != 0) {
			errno = EPERM;
			die("restore fs ids");
		}
	}
	if (syscall(SYS_SETGROUPS, 0, NULL) < 0)
		die("restore groups");
}

/* Make sure that switching to a user and back gives root's powers back. */
static void check_creds(void)
{
	struct fuse_in_header in = { .uid = 65534, .gid = 65534 };
	struct __user_cap_data_struct now[_LINUX_CAPABILITY_U32S_3];
	int real;

	for (real = 0; real <= 1; real++) {
		int err = set_creds(&in, real);

		if (err) {
			errno = -err;
			die("switch to a user");
		}
		restore_creds(real);
		memset(now, 0, sizeof(now));
		if (syscall(SYS_capget, &cap_hdr, now) < 0)
			die("capget");
		if (memcmp(now, root_caps, sizeof(now)) != 0) {
			errno = EPERM;
			die("capability restore check");
		}
	}
}

/* ---- handlers: return -errno, 0 (replied) or NO_REPLY ---- */

static int do_init(struct req *r, struct node *n)
{
	/* major, minor, max_readahead, flags: present in every version */
	const struct fuse_init_in *in = take(r, offsetof(struct fuse_init_in,
							 flags2));
	struct fuse_init_out out = { 0 };
	/*
	 * No FUSE_SETXATTR_EXT: the kernel then sends SETXATTR with the
	 * short struct (FUSE_COMPAT_SETXATTR_IN_SIZE) and no
	 * FUSE_SETXATTR_ACL_KILL_SGID, which we do not need: the backing
	 * setxattr runs as the caller and clears S_ISGID itself.
	 *
	 * FUSE_HANDLE_KILLPRIV: without it the kernel clears S_ISUID/S_ISGID
	 * on write/truncate/chown by sending a chmod, which as a non-owner
	 * caller fails (EPERM, seen as EIO by the writer).  The backing
	 * filesystem does it itself, with the caller's CAP_FSETID or not,
	 * as our write/truncate/chown run as the caller.
	 */
	uint32_t want = FUSE_ATOMIC_O_TRUNC | FUSE_EXPORT_SUPPORT |
			FUSE_BIG_WRITES | FUSE_DONT_MASK | FUSE_HANDLE_KILLPRIV;

	if (!in)
		return -EINVAL;
	if (in->major != FUSE_KERNEL_VERSION || in->minor < PROTO_MINOR_MIN) {
		char v[32];

		snprintf(v, sizeof(v), "%u.%u", in->major, in->minor);
		msg("unsupported kernel protocol", v);
		return -EPROTO;
	}
	if (posix_acl)
		want |= FUSE_POSIX_ACL;
	out.major = FUSE_KERNEL_VERSION;
	out.minor = MIN(in->minor, PROTO_MINOR);
	out.max_readahead = in->max_readahead;
	out.flags = want & in->flags;
	out.max_write = MAX_WRITE;
	out.time_gran = 1;
	if (posix_acl && !(out.flags & FUSE_POSIX_ACL))
		msg("--posix-acl", "kernel does not offer FUSE_POSIX_ACL");
	initialized = true;
	return reply_ok(r, &out, sizeof(out));
}

static int do_destroy(struct req *r, struct node *n)
{
	return reply_ok(r, NULL, 0);
}

static int do_noreply(struct req *r, struct node *n)
{
	return NO_REPLY;	/* INTERRUPT: we never block; NOTIFY_REPLY */
}

static int do_forget(struct req *r, struct node *n)
{
	const struct fuse_forget_in *in = take(r, sizeof(*in));

	if (in && n)
		node_forget(n, in->nlookup);
	return NO_REPLY;
}

static int do_batch_forget(struct req *r, struct node *n)
{
	const struct fuse_batch_forget_in *in = take(r, sizeof(*in));
	const struct fuse_forget_one *one;
	uint32_t i;

	for (i = 0; in && i < in->count; i++) {
		struct node *victim;

		one = take(r, sizeof(*one));
		if (!one)
			break;
		victim = node_get(one->nodeid);
		if (victim)
			node_forget(victim, one->nlookup);
	}
	return NO_REPLY;
}

static int do_lookup(struct req *r, struct node *dir)
{
	const char *name = take_name(r);

	return name ? reply_lookup(r, dir, name) : -EINVAL;
}

static int do_getattr(struct req *r, struct node *n)
{
	const struct fuse_getattr_in *in = take(r, sizeof(*in));
	int fd = -1;

	if (in && (in->getattr_flags & FUSE_GETATTR_FH))
		fd = fh_get(in->fh, FH_FILE);
	return reply_attr(r, fd >= 0 ? fd : n->fd);
}

static int set_times(const char *path, const struct fuse_setattr_in *in)
{
	struct timespec ts[2] = {
		{ .tv_nsec = UTIME_OMIT }, { .tv_nsec = UTIME_OMIT },
	};

	if (in->valid & FATTR_ATIME_NOW)
		ts[0].tv_nsec = UTIME_NOW;
	else if (in->valid & FATTR_ATIME)
		ts[0] = (struct timespec){ in->atime, in->atimensec };
	if (in->valid & FATTR_MTIME_NOW)
		ts[1].tv_nsec = UTIME_NOW;
	else if (in->valid & FATTR_MTIME)
		ts[1] = (struct timespec){ in->mtime, in->mtimensec };
	return utimensat(AT_FDCWD, path, ts, 0);
}

/*
 * The magic link /proc/self/fd/N of an O_PATH fd resolves to the inode
 * itself (for a symlink: the symlink, not its target), so it gives the
 * path-based calls (chmod, truncate, utimensat, *xattr) a race-free name.
 */
static int do_setattr(struct req *r, struct node *n)
{
	const struct fuse_setattr_in *in = take(r, sizeof(*in));
	char path[32];
	int fh = -1;

	if (!in)
		return -EINVAL;
	proc_path(path, sizeof(path), n->fd);
	if (in->valid & FATTR_FH)
		fh = fh_get(in->fh, FH_FILE);
	if ((in->valid & FATTR_MODE) && chmod(path, in->mode & 07777) < 0)
		return -errno;
	if ((in->valid & (FATTR_UID | FATTR_GID)) &&
	    fchownat(n->fd, "", in->valid & FATTR_UID ? in->uid : (uid_t)-1,
		     in->valid & FATTR_GID ? in->gid : (gid_t)-1,
		     AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (in->valid & FATTR_SIZE) {
		/* ftruncate on an open fd checks nothing more, like locally */
		if ((fh >= 0 ? ftruncate(fh, in->size) :
			       truncate(path, in->size)) < 0)
			return -errno;
	}
	if ((in->valid & (FATTR_ATIME | FATTR_MTIME | FATTR_ATIME_NOW |
			  FATTR_MTIME_NOW)) && set_times(path, in) < 0)
		return -errno;
	return reply_attr(r, n->fd);
}

static int do_readlink(struct req *r, struct node *n)
{
	ssize_t len = readlinkat(n->fd, "", out_buf, PATH_MAX);

	return len < 0 ? -errno : reply_ok(r, out_buf, len);
}

static int do_symlink(struct req *r, struct node *dir)
{
	const char *name = take_name(r);
	const char *target = take_str(r);

	if (!name || !target)
		return -EINVAL;
	if (symlinkat(target, dir->fd, name) < 0)
		return -errno;
	return reply_lookup(r, dir, name);
}

/*
 * Creates use the umask the kernel sent (FUSE_DONT_MASK): the backing
 * filesystem then applies it only when the parent has no default ACL,
 * just like a local create.  Our own umask is 0 otherwise.
 */
static int do_mknod(struct req *r, struct node *dir)
{
	const struct fuse_mknod_in *in = take(r, sizeof(*in));
	const char *name = take_name(r);
	int err;

	if (!in || !name)
		return -EINVAL;
	umask(in->umask & 0777);
	err = mknodat(dir->fd, name, in->mode, in->rdev);
	umask(0);
	if (err < 0)
		return -errno;
	return reply_lookup(r, dir, name);
}

static int do_mkdir(struct req *r, struct node *dir)
{
	const struct fuse_mkdir_in *in = take(r, sizeof(*in));
	const char *name = take_name(r);
	int err;

	if (!in || !name)
		return -EINVAL;
	umask(in->umask & 0777);
	err = mkdirat(dir->fd, name, in->mode & 07777);
	umask(0);
	if (err < 0)
		return -errno;
	return reply_lookup(r, dir, name);
}

/*
 * CREATE, and TMPFILE: an unnamed file in dir (O_TMPFILE; the kernel's
 * name for it, "/", is not a name in dir), which a LINK can name later
 * (do_link() links it through /proc, as it does any node).  The backing
 * tmpfs gives both the default ACL of dir, as for a local caller.
 */
static int do_create(struct req *r, struct node *dir)
{
	bool tmp = r->in->opcode == FUSE_TMPFILE;
	const struct fuse_create_in *in = take(r, sizeof(*in));
	const char *name = tmp ? take_str(r) : take_name(r);
	struct fuse_open_out oo = { 0 };
	struct node *n;
	struct stat st;
	char path[32];
	int fd, pfd, err;

	if (!in || !name)
		return -EINVAL;
	umask(in->umask & 0777);
	if (tmp)
		fd = openat(dir->fd, ".", (in->flags | O_TMPFILE | O_CLOEXEC) &
			    ~(O_CREAT | O_EXCL | O_NOCTTY | O_DIRECT),
			    in->mode & 07777);
	else
		fd = openat(dir->fd, name, (in->flags | O_CREAT | O_NOFOLLOW |
					    O_CLOEXEC) & ~(O_NOCTTY | O_DIRECT),
			    in->mode & 07777);
	umask(0);
	if (fd < 0)
		return -errno;
	/* the node from the open file itself: no race with a rename */
	proc_path(path, sizeof(path), fd);
	pfd = open(path, O_PATH | O_CLOEXEC);
	err = pfd < 0 ? -errno : node_from_fd(pfd, &n, &st);
	if (!err && (err = fh_set(fd, FH_FILE)))
		node_forget(n, 1);
	if (err) {
		close(fd);
		return err;
	}
	oo.fh = fd;
	if (reply_entry(r, n, &st, &oo, sizeof(oo)) == -ENOENT)
		fh_close(fd, FH_FILE);
	return 0;
}

static int do_unlink(struct req *r, struct node *dir)
{
	const char *name = take_name(r);
	int flags = r->in->opcode == FUSE_RMDIR ? AT_REMOVEDIR : 0;

	if (!name)
		return -EINVAL;
	return unlinkat(dir->fd, name, flags) < 0 ? -errno : reply_ok(r, NULL, 0);
}

/* fuse_rename_in is the start of fuse_rename2_in */
static int do_rename(struct req *r, struct node *dir)
{
	bool two = r->in->opcode == FUSE_RENAME2;
	const struct fuse_rename2_in *in =
		take(r, two ? sizeof(*in) : sizeof(struct fuse_rename_in));
	const char *oldname = take_name(r);
	const char *newname = take_name(r);
	struct node *nd;

	if (!in || !oldname || !newname)
		return -EINVAL;
	nd = node_get(in->newdir);
	if (!nd)
		return -ESTALE;
	if (renameat2(dir->fd, oldname, nd->fd, newname, two ? in->flags : 0) < 0)
		return -errno;
	return reply_ok(r, NULL, 0);
}

static int do_link(struct req *r, struct node *dir)
{
	const struct fuse_link_in *in = take(r, sizeof(*in));
	const char *name = take_name(r);
	struct node *old;
	char path[32];

	if (!in || !name)
		return -EINVAL;
	old = node_get(in->oldnodeid);
	if (!old)
		return -ESTALE;
	/* linkat(AT_EMPTY_PATH) wants CAP_DAC_READ_SEARCH; this does not */
	proc_path(path, sizeof(path), old->fd);
	if (linkat(AT_FDCWD, path, dir->fd, name, AT_SYMLINK_FOLLOW) < 0)
		return -errno;
	return reply_lookup(r, dir, name);
}

/* Reopen the node as the caller: open() makes the permission check. */
static int open_common(struct req *r, struct node *n, int flags,
		       unsigned char kind)
{
	struct fuse_open_out out = { 0 };
	char path[32];
	int fd, err;

	proc_path(path, sizeof(path), n->fd);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = fh_set(fd, kind);
	if (err) {
		close(fd);
		return err;
	}
	out.fh = fd;
	if (send_reply(r, 0, &out, sizeof(out), NULL, 0) == -ENOENT)
		fh_close(fd, kind);
	return 0;
}

static int do_open(struct req *r, struct node *n)
{
	const struct fuse_open_in *in = take(r, sizeof(*in));

	if (!in)
		return -EINVAL;
	/* O_NOFOLLOW would stop at the magic link; O_APPEND/O_TRUNC stay */
	return open_common(r, n, in->flags & ~(O_CREAT | O_EXCL | O_NOCTTY |
					       O_NOFOLLOW | O_DIRECT), FH_FILE);
}

static int do_opendir(struct req *r, struct node *n)
{
	return open_common(r, n, O_RDONLY | O_DIRECTORY, FH_DIR);
}

static int do_release(struct req *r, struct node *n)
{
	const struct fuse_release_in *in = take(r, sizeof(*in));

	if (in)
		fh_close(in->fh, r->in->opcode == FUSE_RELEASEDIR ?
			 FH_DIR : FH_FILE);
	return reply_ok(r, NULL, 0);
}

static int do_read(struct req *r, struct node *n)
{
	const struct fuse_read_in *in;
	ssize_t len;
	int fd;

	in = take_fh(r, sizeof(*in), FH_FILE, &fd);
	if (!in)
		return -EBADF;
	len = pread(fd, out_buf, MIN(in->size, OUT_MAX), in->offset);
	return len < 0 ? -errno : reply_ok(r, out_buf, len);
}

static int do_write(struct req *r, struct node *n)
{
	const struct fuse_write_in *in;
	struct fuse_write_out out = { 0 };
	const void *data;
	ssize_t len;
	int fd;

	in = take_fh(r, sizeof(*in), FH_FILE, &fd);
	if (!in)
		return -EBADF;
	data = take(r, in->size);
	if (!data)
		return -EINVAL;
	/* as the caller, so the backing fs clears S_ISUID/S_ISGID itself */
	len = pwrite(fd, data, in->size, in->offset);
	if (len < 0)
		return -errno;
	out.size = len;
	return reply_ok(r, &out, sizeof(out));
}

static int do_flush(struct req *r, struct node *n)
{
	return reply_ok(r, NULL, 0);	/* no locks, no write-back */
}

static int do_fsync(struct req *r, struct node *n)
{
	const struct fuse_fsync_in *in;
	int fd;

	in = take_fh(r, sizeof(*in), r->in->opcode == FUSE_FSYNCDIR ?
		     FH_DIR : FH_FILE, &fd);
	if (!in)
		return -EBADF;
	if ((in->fsync_flags & FUSE_FSYNC_FDATASYNC ? fdatasync(fd) :
						      fsync(fd)) < 0)
		return -errno;
	return reply_ok(r, NULL, 0);
}

/*
 * Keep reading from where the last reply ended and seek only when the
 * kernel asks for another offset (rewinddir, seekdir).  Seeking would be
 * wrong on a directory whose offsets count entries (tmpfs before Linux
 * 6.6, ramfs): after unlinks, as in a readdir+unlink loop, the offset of
 * the next entry moves down and entries would be skipped.  For the same
 * reason never read more than fits: a fuse_dirent is at most 4/3 the
 * size of a linux_dirent64 (24 -> 32 bytes for short names), so 3/4 of
 * the reply size of the latter always fits.
 */
static int do_readdir(struct req *r, struct node *n)
{
	const struct fuse_read_in *in;
	size_t max, used = 0;
	ssize_t got, pos;
	off_t off;
	int fd;

	in = take_fh(r, sizeof(*in), FH_DIR, &fd);
	if (!in)
		return -EBADF;
	max = MIN(in->size, OUT_MAX);
	off = in->offset;
	if (off != fhs[fd].next_off && lseek(fd, off, SEEK_SET) < 0)
		return -errno;
	got = syscall(SYS_getdents64, fd, dents_buf, max / 4 * 3);
	if (got < 0)
		return -errno;
	for (pos = 0; pos < got; pos += ((struct linux_dirent64 *)
					 (dents_buf + pos))->d_reclen) {
		struct linux_dirent64 *d = (void *)(dents_buf + pos);
		struct fuse_dirent *out = (void *)(out_buf + used);
		size_t namelen = strlen(d->d_name);
		size_t rec = FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET + namelen);

		if (used + rec > max)
			break;
		memset(out, 0, rec);
		out->ino = d->d_ino;
		out->off = off = d->d_off;
		out->namelen = namelen;
		out->type = d->d_type;
		memcpy(out->name, d->d_name, namelen);
		used += rec;
	}
	/* not reached (see above), but if it is, do our best */
	if (pos < got && lseek(fd, off, SEEK_SET) < 0)
		return -errno;
	fhs[fd].next_off = off;
	return reply_ok(r, out_buf, used);
}

static int do_statfs(struct req *r, struct node *n)
{
	struct fuse_statfs_out out = { 0 };
	struct statfs s;

	if (fstatfs(n->fd, &s) < 0)
		return -errno;
	out.st.blocks = s.f_blocks;
	out.st.bfree = s.f_bfree;
	out.st.bavail = s.f_bavail;
	out.st.files = s.f_files;
	out.st.ffree = s.f_ffree;
	out.st.bsize = s.f_bsize;
	out.st.namelen = s.f_namelen;
	out.st.frsize = s.f_frsize;
	return reply_ok(r, &out, sizeof(out));
}

/*
 * ACCESS (only sent without default_permissions: access(2), chdir).
 * faccessat() checks against the real ids (it ignores the fs ids), and
 * drops all capabilities for a non-root real uid; set_creds(real) gave
 * us the caller's real ids with the effective uid still 0.
 */
static int do_access(struct req *r, struct node *n)
{
	const struct fuse_access_in *in = take(r, sizeof(*in));
	char path[32];

	if (!in)
		return -EINVAL;
	proc_path(path, sizeof(path), n->fd);
	if (faccessat(AT_FDCWD, path, in->mask & (R_OK | W_OK | X_OK), 0) < 0)
		return -errno;
	return reply_ok(r, NULL, 0);
}

/* ---- xattrs: every name, system.posix_acl_* included, as it is ---- */

static int do_setxattr(struct req *r, struct node *n)
{
	/* the short (compat) struct: FUSE_SETXATTR_EXT is not negotiated */
	const struct { uint32_t size, flags; } *in =
		take(r, FUSE_COMPAT_SETXATTR_IN_SIZE);
	const char *name = take_str(r);
	const void *value;
	char path[32];

	if (!in || !name || !(value = take(r, in->size)))
		return -EINVAL;
	proc_path(path, sizeof(path), n->fd);
	if (setxattr(path, name, value, in->size, in->flags) < 0)
		return -errno;
	return reply_ok(r, NULL, 0);
}

/* Size 0 asks for the size only; a too small size gets ERANGE. */
static int reply_xattr(struct req *r, uint32_t size, ssize_t len)
{
	struct fuse_getxattr_out out = { 0 };

	if (len < 0)
		return -errno;
	if (size)
		return reply_ok(r, out_buf, len);
	out.size = len;
	return reply_ok(r, &out, sizeof(out));
}

/* GETXATTR and LISTXATTR */
static int do_getxattr(struct req *r, struct node *n)
{
	const struct fuse_getxattr_in *in = take(r, sizeof(*in));
	bool list = r->in->opcode == FUSE_LISTXATTR;
	const char *name = list ? "" : take_str(r);
	size_t size = in ? MIN(in->size, OUT_MAX) : 0;
	char *buf = size ? out_buf : NULL;
	char path[32];

	if (!in || !name)
		return -EINVAL;
	proc_path(path, sizeof(path), n->fd);
	return reply_xattr(r, in->size, list ? listxattr(path, buf, size) :
				      getxattr(path, name, buf, size));
}

static int do_removexattr(struct req *r, struct node *n)
{
	const char *name = take_str(r);
	char path[32];

	if (!name)
		return -EINVAL;
	proc_path(path, sizeof(path), n->fd);
	return removexattr(path, name) < 0 ? -errno : reply_ok(r, NULL, 0);
}

static int do_fallocate(struct req *r, struct node *n)
{
	const struct fuse_fallocate_in *in;
	int fd;

	in = take_fh(r, sizeof(*in), FH_FILE, &fd);
	if (!in)
		return -EBADF;
	if (fallocate(fd, in->mode, in->offset, in->length) < 0)
		return -errno;
	return reply_ok(r, NULL, 0);
}

static int do_lseek(struct req *r, struct node *n)
{
	const struct fuse_lseek_in *in;
	struct fuse_lseek_out out;
	off_t off;
	int fd;

	in = take_fh(r, sizeof(*in), FH_FILE, &fd);
	if (!in)
		return -EBADF;
	off = lseek(fd, in->offset, in->whence);
	if (off < 0)
		return -errno;
	out.offset = off;
	return reply_ok(r, &out, sizeof(out));
}

/* ---- dispatch ---- */

enum {
	F_NODE = 1,	/* needs a valid nodeid */
	F_CREDS = 2,	/* runs as the caller (fs ids) */
	F_REAL = 4,	/* runs as the caller (real ids) */
	F_QUIET = 8,	/* never replied to, not even an error */
};

static const struct op {
	const char *name;
	int (*fn)(struct req *r, struct node *n);
	int flags;
} ops[] = {
#define OP(code, fn, flags) [FUSE_##code] = { #code, fn, flags }
	OP(LOOKUP, do_lookup, F_NODE | F_CREDS),
	OP(FORGET, do_forget, F_QUIET),
	OP(GETATTR, do_getattr, F_NODE | F_CREDS),
	OP(SETATTR, do_setattr, F_NODE | F_CREDS),
	OP(READLINK, do_readlink, F_NODE | F_CREDS),
	OP(SYMLINK, do_symlink, F_NODE | F_CREDS),
	OP(MKNOD, do_mknod, F_NODE | F_CREDS),
	OP(MKDIR, do_mkdir, F_NODE | F_CREDS),
	OP(UNLINK, do_unlink, F_NODE | F_CREDS),
	OP(RMDIR, do_unlink, F_NODE | F_CREDS),
	OP(RENAME, do_rename, F_NODE | F_CREDS),
	OP(LINK, do_link, F_NODE | F_CREDS),
	OP(OPEN, do_open, F_NODE | F_CREDS),
	OP(READ, do_read, F_CREDS),
	OP(WRITE, do_write, F_CREDS),
	OP(STATFS, do_statfs, F_NODE | F_CREDS),
	OP(RELEASE, do_release, 0),
	OP(FSYNC, do_fsync, F_CREDS),
	OP(SETXATTR, do_setxattr, F_NODE | F_CREDS),
	OP(GETXATTR, do_getxattr, F_NODE | F_CREDS),
	OP(LISTXATTR, do_getxattr, F_NODE | F_CREDS),
	OP(REMOVEXATTR, do_removexattr, F_NODE | F_CREDS),
	OP(FLUSH, do_flush, 0),
	OP(INIT, do_init, 0),
	OP(OPENDIR, do_opendir, F_NODE | F_CREDS),
	OP(READDIR, do_readdir, F_CREDS),
	OP(RELEASEDIR, do_release, 0),
	OP(FSYNCDIR, do_fsync, F_CREDS),
	OP(GETLK, NULL, 0),
	OP(SETLK, NULL, 0),
	OP(SETLKW, NULL, 0),
	OP(ACCESS, do_access, F_NODE | F_REAL),
	OP(CREATE, do_create, F_NODE | F_CREDS),
	OP(INTERRUPT, do_noreply, F_QUIET),
	OP(BMAP, NULL, 0),
	OP(DESTROY, do_destroy, 0),
	OP(IOCTL, NULL, 0),
	OP(POLL, NULL, 0),
	OP(NOTIFY_REPLY, do_noreply, F_QUIET),
	OP(BATCH_FORGET, do_batch_forget, F_QUIET),
	OP(FALLOCATE, do_fallocate, F_CREDS),
	OP(READDIRPLUS, NULL, 0),
	OP(RENAME2, do_rename, F_NODE | F_CREDS),
	OP(LSEEK, do_lseek, 0),
	OP(COPY_FILE_RANGE, NULL, 0),
	OP(TMPFILE, do_create, F_NODE | F_CREDS),
#undef OP
};

static void log_req(const struct fuse_in_header *in, const char *name, int ret)
{
	if (log_fd < 0)
		return;
	if (name)
		dprintf(log_fd, "%s", name);
	else
		dprintf(log_fd, "OP%u", in->opcode);
	dprintf(log_fd, " nodeid=%llu uid=%u gid=%u pid=%u -> %d%s%s\n",
		(unsigned long long)in->nodeid, in->uid, in->gid, in->pid,
		ret < 0 ? ret : 0, ret < 0 ? " " : "",
		ret < 0 ? strerror(-ret) : "");
}

static int run_op(const struct op *op, struct req *r)
{
	const struct fuse_in_header *in = r->in;
	struct node *n = node_get(in->nodeid);
	bool creds = op->flags & (F_CREDS | F_REAL);
	int ret;

	if (!op->fn)
		return -ENOSYS;
	if (initialized != (in->opcode != FUSE_INIT))
		return -EIO;
	if ((op->flags & F_NODE) && !n)
		return -ESTALE;
	ret = creds ? set_creds(in, op->flags & F_REAL) : 0;
	if (!ret)
		ret = op->fn(r, n);
	if (creds)
		restore_creds(op->flags & F_REAL);
	return ret;
}

static void handle(size_t len)
{
	const struct fuse_in_header *in = (const void *)in_buf;
	struct req r = { .in = in };
	const struct op *op = NULL;
	size_t ext;
	int ret;

	if (len < sizeof(*in))
		return;
	if (in->opcode < ARRAY_SIZE(ops) && ops[in->opcode].name)
		op = &ops[in->opcode];
	r.pos = in_buf + sizeof(*in);
	r.left = len - sizeof(*in);
	ext = (size_t)in->total_extlen * 8;	/* extensions follow the args */
	if (in->len != len || ext > r.left) {
		ret = -EIO;
	} else {
		r.left -= ext;
		ret = op ? run_op(op, &r) : -ENOSYS;
	}
	if (ret < 0 && !(op && (op->flags & F_QUIET)))
		send_reply(&r, ret, NULL, 0, NULL, 0);
	log_req(in, op ? op->name : NULL, ret);
}

static int serve(void)
{
	for (;;) {
		ssize_t n = read(fuse_fd, in_buf, sizeof(in_buf));

		if (n >= 0) {
			handle(n);
			continue;
		}
		if (errno == ENODEV)
			return 0;	/* unmounted */
		if (errno != EINTR && errno != EAGAIN && errno != ENOENT) {
			msg("read /dev/fuse", strerror(errno));
			return 1;
		}
	}
}

/* ---- setup ---- */

static void usage(void)
{
	fprintf(stderr, "usage: acl9p-fused [--posix-acl] [--log FILE] "
		"BACKING MOUNTPOINT\n");
	exit(1);
}

static void setup_root(const char *backing)
{
	struct stat st;
	struct node *root;
	int fd = open(backing, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0)
		die(backing);
	nr_nodes = FUSE_ROOT_ID;	/* so that the first id is 1 */
	root = node_new(fd, &st);
	if (!root)
		die("out of memory");
	root->nlookup = 1;
}

static void raise_nofile(void)
{
	struct rlimit rl;

	/* every node holds an fd */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	const char *log_file = NULL, *backing, *mountpoint;
	char opts[128];
	int i = 1, devnull;
	pid_t pid;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--posix-acl") == 0)
			posix_acl = true;
		else if (strcmp(argv[i], "--log") == 0 && i + 1 < argc)
			log_file = argv[++i];
		else
			usage();
	}
	if (argc - i != 2)
		usage();
	backing = argv[i];
	mountpoint = argv[i + 1];

	umask(0);
	if (log_file) {
		log_fd = open(log_file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			      0644);
		if (log_fd < 0)
			die(log_file);
	}
	if (access("/proc/self/fd", X_OK) < 0)
		die("/proc/self/fd");
	if (syscall(SYS_capget, &cap_hdr, root_caps) < 0)
		die("capget");
	check_creds();
	raise_nofile();
	setup_root(backing);

	fuse_fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fuse_fd < 0)
		die("/dev/fuse");
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40755,user_id=0,group_id=0,allow_other",
		 fuse_fd);
	if (mount("acl9p-fused", mountpoint, "fuse", 0, opts) < 0) {
		snprintf(opts, sizeof(opts), "mount %s", mountpoint);
		die(opts);
	}

	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid > 0)
		return 0;	/* the mount is there */

	setsid();
	if (chdir("/") < 0)
		die("chdir /");
	/*
	 * Do not hold the caller's stdio open: a caller reading our output
	 * through a pipe would wait for the daemon to exit.
	 */
	devnull = open("/dev/null", O_RDWR);
	if (devnull >= 0) {
		dup2(devnull, 0);
		dup2(devnull, 1);
		dup2(devnull, 2);
		if (devnull > 2)
			close(devnull);
	}
	return serve();
}
