/* SPDX-License-Identifier: GPL-2.0 */
/*
 * acl9p test library: helpers shared by the acl9p_* test binaries.
 *
 * Nothing in here includes kselftest_harness.h (it defines non-static
 * symbols, so it may be included by exactly one object per binary).
 * Functions return 0 / a positive count on success and -errno on failure
 * unless documented otherwise; the tests do the asserting.
 */
#ifndef ACL9P_H
#define ACL9P_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- on-the-wire system.posix_acl_* format (include/uapi/linux/posix_acl_xattr.h) */
#define A9_XATTR_VERSION	2
#define A9_ACL_USER_OBJ		0x01
#define A9_ACL_USER		0x02
#define A9_ACL_GROUP_OBJ	0x04
#define A9_ACL_GROUP		0x08
#define A9_ACL_MASK		0x10
#define A9_ACL_OTHER		0x20
#define A9_ACL_UNDEFINED_ID	0xffffffffu

#define A9_XA_ACCESS	"system.posix_acl_access"
#define A9_XA_DEFAULT	"system.posix_acl_default"

/* Linux XATTR_SIZE_MAX */
#define A9_XATTR_SIZE_MAX	65536
#define A9_MAX_ENTS		8192

struct a9_ent {
	uint16_t tag;
	uint16_t perm;
	uint32_t id;
};

static inline size_t a9_xattr_size(int nents)
{
	return 4 + 8 * (size_t)nents;
}

/*
 * Encode entries exactly in the order given (no sorting, no checks) with
 * the given header version.  Returns the number of bytes written, or
 * -ERANGE if buf is too small.
 */
ssize_t a9_encode(void *buf, size_t bufsz, uint32_t version,
		  const struct a9_ent *e, int n);

/*
 * Parse a short ACL text ("u::rw-,u:1001:r--,g::r-x,g:7:rwx,m::rwx,o::---",
 * also accepts "user:", "group:", "mask:", "other:" and perms like "rw" or
 * "6") into entries, in the given order.  Returns the count or -EINVAL.
 */
int a9_parse(const char *text, struct a9_ent *out, int max);

/* a9_parse + a9_encode with version 2; aborts the process on bad text. */
ssize_t a9_build(void *buf, size_t bufsz, const char *text);

/*
 * Decode xattr bytes into short text (same syntax as a9_parse, ids
 * numeric, entries in stored order).  Malformed input is rendered as
 * "<bad:...>".  Returns out.
 */
char *a9_decode(const void *buf, size_t len, char *out, size_t outsz);

/* lower-case hex of buf; returns out (outsz must be >= 2*len+1) */
char *a9_hex(const void *buf, size_t len, char *out, size_t outsz);

/* ---- raw xattr access (no symlink following) */
/* getxattr into buf; returns size or -errno */
ssize_t a9_get(const char *path, const char *name, void *buf, size_t sz);
/* read the ACL xattr and decode it to text; returns 0 or -errno */
int a9_get_text(const char *path, const char *name, char *out, size_t outsz);
/* setxattr of the ACL given as text (v2); returns 0 or -errno */
int a9_set_text(const char *path, const char *name, const char *text);
/* setxattr raw bytes; returns 0 or -errno */
int a9_set_raw(const char *path, const char *name, const void *v, size_t n);
/* removexattr; returns 0 or -errno */
int a9_remove(const char *path, const char *name);
/* true if listxattr(path) contains name; -errno on error */
int a9_listed(const char *path, const char *name);

/* ---- libacl wrappers */
/* acl_get_file + acl_to_any_text(",", TEXT_ABBREVIATE); 0 or -errno */
int a9_lib_get_text(const char *path, int deflt, char *out, size_t outsz);
/* acl_from_text + acl_set_file; 0 or -errno */
int a9_lib_set_text(const char *path, int deflt, const char *text);

/* ---- environment */
const char *a9_env(const char *name, const char *dflt);
const char *a9_mnt(void);		/* ACL9P_MNT, default /mnt/share */
const char *a9_local(void);		/* ACL9P_LOCAL, default /mnt/local */
/*
 * ACL9P_REQUIRE_ACL == 1: the kernel has 9p POSIX ACL support (the init
 * probes it), so a refusal with EOPNOTSUPP is a failure, not a reason to
 * skip.
 */
bool a9_acl_required(void);
const char *a9_binary(void);		/* e.g. "acl9p_roundtrip" */
/*
 * ACL9P_RACE_MS, default 1000: how long a race test's workers race when
 * nothing goes wrong (they stop at the first error).  Asking makes the
 * test a timed one for its traffic (a9_mark_timed()).
 */
int a9_race_ms(void);

/*
 * ---- per-test traffic markers (mark.c)
 *
 * A marker is a utimensat() of the share's root setting its mtime to
 * A9_MARK_EPOCH + N seconds, a time nothing else sets: the client sends
 * it as one Tsetattr, at which acl9p-p9trace splits QEMU's trace of its
 * server and ninep-proxy begins its bucket "N" (the same epoch:
 * guest/wire.sh, tests/host/p9trace.c, server/ninep-proxy/session.c).
 * N is 1, 2, 3, ... over the whole boot, every binary included, because
 * the host refuses a marker that is not one more than the last (a lost
 * or doubled one would shift every later slice): it comes from
 * A9_MARK_COUNTER, a file on the guest's own tmpfs (no 9P traffic),
 * incremented under flock().
 */
#define A9_MARK_EPOCH	1000000000L
#define A9_MARK_COUNTER	"/tmp/acl9p-mark.counter"
/*
 * Send the next marker and print "# acl9p-mark N TEST" on stdout
 * (flushed), the line that names slice N for the host; when the
 * utimensat failed the line goes on with " not sent: ERRNO" (whether a
 * request left is unknown: the host's order check decides), and when no
 * N could be had it is "# acl9p-mark none TEST: why" and nothing is
 * sent.  0, or -errno of what failed.
 */
int a9_mark(const char *test);
/*
 * The marked test runs for a time, not a count of operations (a race
 * window): "# acl9p-mark timed TEST", once, so that the host does not
 * compare its requests across runs or kernels as if they meant the
 * same work.  Nothing when the test was not marked.
 */
void a9_mark_timed(void);

/* build "<dir>/<name>" into buf (PATH_MAX bytes); returns buf */
char *a9_path(char *buf, const char *dir, const char *name);

/* rm -rf; returns 0 or -errno */
int a9_rm_rf(const char *path);
/*
 * Create a fresh directory root/name (removing an older one), mode 0755
 * regardless of umask.  Writes its path to out.  0 or -errno.
 */
int a9_mkworkdir(const char *root, const char *name, char *out, size_t outsz);
/*
 * Probe whether POSIX ACLs can be set in dir: creates a scratch file and
 * sets an extended access ACL.  0 if supported, -EOPNOTSUPP if not,
 * another -errno on an unexpected failure (the caller must not skip then).
 */
int a9_probe_acl(const char *dir);

/* create a regular file with exactly this mode (fchmod after create) */
int a9_mkfile(const char *path, mode_t mode, const char *content);
/* open(O_CREAT | O_EXCL) with mode, nothing more: the mode the kernel
 * derives from the umask or an inherited default ACL stays as it is
 * (a9_mkfile() chmods to mode afterwards).  0 or -errno. */
int a9_create(const char *path, mode_t mode);
/* mkdir with exactly this mode */
int a9_mkdir(const char *path, mode_t mode);
/* open + fsync + close (works for directories) */
int a9_fsync_path(const char *path);
/* st_mode & 07777, or -errno */
int a9_mode(const char *path);
/* sync, then drop the guest's unused dentries and inodes (echo 3) */
void a9_drop_caches(void);
/* read whole small file into buf (NUL-terminated); length or -errno */
ssize_t a9_read_file(const char *path, char *buf, size_t sz);
/* write s to path in one write() (a sysfs/procfs knob): 0 or -errno */
int a9_write_file(const char *path, const char *s);

/*
 * Emit "# HOSTCHECK <path relative to ACL9P_MNT> <name> <hex|absent>" on
 * stdout (flushed).  path must be under a9_mnt().  value NULL = absent.
 * The file is fsync'ed first.  A value over A9_HOSTCHECK_MAX bytes goes
 * as "digest:<length>:<fnv1a64 in hex>" (digest.h), which the host
 * computes over what it holds.
 */
#define A9_HOSTCHECK_MAX 8192
void a9_hostcheck(const char *path, const char *name, const void *value,
		  size_t len);
/* same, taking the expected ACL as text (NULL = absent) */
void a9_hostcheck_text(const char *path, const char *name, const char *text);

/* ---- host control channel (tests/host/hostctl.c, item 11) */
/*
 * Whether the host control channel is there: 0, or -ENODEV with a reason
 * in why (for a SKIP) when ACL9P_HOSTCTL is unset or the host does not
 * answer a PING.
 */
int a9_hostctl_probe(char *why, size_t whysz);
/*
 * Send one request line (no newline) and wait for the answer: 0 for OK,
 * -errno for "ERR errno", -EIO/-ETIMEDOUT when the channel failed.  The
 * change is on the host when this returns 0.
 */
int a9_hostctl(const char *request);
/* host-side setxattr of the ACL given as text; path under a9_mnt() */
int a9_host_set_text(const char *path, const char *name, const char *text);
/* host-side removexattr; path under a9_mnt() */
int a9_host_remove(const char *path, const char *name);
/* host-side chmod; path under a9_mnt() (EOPNOTSUPP on mapped-xattr) */
int a9_host_chmod(const char *path, mode_t mode);

/* ---- kernel reports (tests/lib/kernel-reports, kreport.c) */
#define A9_KREPORT_LEN	256
/*
 * /dev/kmsg opened at its end (O_NONBLOCK): the fd, or -errno (also when
 * the compiled-in rules of tests/lib/kernel-reports do not compile).
 */
int a9_kmsg_open(void);
/*
 * The kernel reports among the records written since a9_kmsg_open() (or
 * the last call): each report's first line, as scripts/boot.sh takes it
 * from the console, into out (at most max, cut to A9_KREPORT_LEN).
 * Returns how many there were (more than max when out was too short),
 * or -errno.  Records the kernel overwrote before they were read count
 * as one report ("records lost").
 */
int a9_kmsg_reports(int fd, char (*out)[A9_KREPORT_LEN], int max);
/*
 * The next record of a /dev/kmsg fd opened O_NONBLOCK, its text (first
 * line, without the "prio,seq,usec,flags;" header) at *msg inside rec:
 * > 0; 0 when none is left; -EPIPE when records were overwritten
 * before they were read (the next call goes on after them); -errno.
 */
ssize_t a9_kmsg_next(int fd, char *rec, size_t sz, char **msg);

/* ---- processes */
struct a9_cred {
	uid_t uid;
	gid_t gid;
	int ngroups;
	gid_t groups[16];
	int ncaps;		/* capabilities kept (CAP_* numbers) */
	int caps[8];
};

/* exit status the child uses when it cannot switch identity */
#define A9_NOSWITCH	250
/*
 * Fork, switch to the credentials (setgroups, libcap-ng change_id with all
 * other capabilities cleared), verify the switch, run fn(arg) and return
 * its result (expected: 0 or a positive errno value, < 200).  Returns
 * -A9_NOSWITCH if the identity switch failed, -1 on fork/wait problems.
 */
typedef int (*a9_fn)(void *arg);
int a9_run_as(const struct a9_cred *c, a9_fn fn, void *arg);

/* convenient fn for a9_run_as: open(path, flags) and close; errno or 0 */
struct a9_open_arg {
	const char *path;
	int flags;
	mode_t mode;
};
int a9_fn_open(void *arg);

/*
 * Run argv (argv[0] an absolute path) in cwd (NULL = unchanged) with
 * stdout captured into out (NUL-terminated, truncated to outsz-1) and
 * stderr into err (may be NULL).  Returns the exit status (0..255), or
 * -1 if it did not exit normally or could not be started.
 */
int a9_run_cmd(const char *cwd, char *const argv[], char *out, size_t outsz,
	       char *err, size_t errsz);
/* path of an acl tool: /bin/NAME if executable, else /usr/bin/NAME */
const char *a9_tool(const char *name);

/* replace every occurrence of from by to in s (in place, to shorter/equal) */
void a9_strreplace(char *s, const char *from, const char *to);

/*
 * Sort the blank-line separated blocks of s in place (getfacl -R's
 * output, whose order is readdir's, which differs between
 * filesystems); 0, or -ENOMEM with s as it was
 */
int a9_sort_blocks(char *s);

/* errno name, e.g. "EINVAL" (for messages) */
const char *a9_errname(int err);

#endif
