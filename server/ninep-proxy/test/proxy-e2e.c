/* End-to-end self-test of ninep-proxy, on the host, no QEMU: this
 * program is a tiny 9P2000.L client that runs the proxy (built with
 * ASan and UBSan) in front of the real server, over pipes, and checks
 * what comes back against the host's own bytes.
 *
 *   proxy-e2e PROXY EXPORT WORKDIR -- SERVER [ARG...]
 *
 * EXPORT holds a file "f" with an access ACL (tests/rig/run.sh sets it
 * with setfacl); SERVER serves EXPORT on its stdin/stdout (diod, as
 * server/diod.sh starts it).  Each case runs one proxy; its log and
 * counts go to WORKDIR.  Checked: the unfaulted ACL bytes are the
 * host's; each fault transforms as server/README.md says; control
 * names arm, disarm and mark; the drop faults close the connection and
 * the proxy exits 3; malformed frames from either side are logged with
 * their reason and the proxy exits 1 (never by a signal); the counts
 * file has exactly the expected lines; no sanitizer report.
 *
 * With --fake-server HEX (run by the proxy as its server) it writes
 * the bytes HEX says and reads until EOF: a server that misbehaves. */
#include "p9build.h"
#include "p9frame.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
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

enum { MSIZE = 65536, TIMEOUT_MS = 10000 };
#define ACCESS "system.posix_acl_access"
#define DEFAULT "system.posix_acl_default"

static const char *proxy, *export_dir, *workdir, *self;
static char **server_argv;
static int failures, cases;
static uint8_t host_acl[4096];
static size_t host_len;

struct conn {
	const char *name;
	pid_t pid;
	int to, from;		/* the proxy's stdin, stdout */
	char log[PATH_MAX], counts[PATH_MAX];
	uint8_t buf[MSIZE];
	struct p9_msg m;	/* the last reply */
};

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "proxy-e2e: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	failures++;
}

#define EXPECT(c, ...) do { if (!(c)) { fail(__VA_ARGS__); return; } } while (0)

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Start a proxy in front of SERVER (NULL: the real one) for case NAME. */
static int conn_start(struct conn *c, const char *name, char **server)
{
	int in[2], out[2];
	char **argv;
	int n = 0;

	memset(c, 0, sizeof(*c));
	c->name = name;
	snprintf(c->log, sizeof(c->log), "%s/%s.log", workdir, name);
	snprintf(c->counts, sizeof(c->counts), "%s/%s.counts", workdir, name);
	unlink(c->log);
	unlink(c->counts);
	if (!server)
		server = server_argv;
	while (server[n])
		n++;
	argv = calloc((size_t)n + 9, sizeof(*argv));
	if (!argv || pipe(in) || pipe(out))
		return -1;
	argv[0] = (char *)proxy;
	argv[1] = "--log";
	argv[2] = c->log;
	argv[3] = "--counts";
	argv[4] = c->counts;
	argv[5] = "--cwd";
	argv[6] = (char *)workdir;
	argv[7] = "--";
	memcpy(argv + 8, server, (size_t)n * sizeof(*argv));
	c->pid = fork();
	if (c->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]); close(in[1]); close(out[0]); close(out[1]);
		execv(proxy, argv);
		_exit(126);
	}
	free(argv);
	close(in[0]);
	close(out[1]);
	c->to = in[1];
	c->from = out[0];
	return c->pid > 0 ? 0 : -1;
}

/* Close the guest side and wait for the proxy: its wait status. */
static int conn_end(struct conn *c)
{
	int status = 0;

	if (c->to >= 0)
		close(c->to);
	c->to = -1;
	close(c->from);
	for (int64_t end = now_ms() + TIMEOUT_MS; now_ms() < end;) {
		if (waitpid(c->pid, &status, WNOHANG) == c->pid)
			return status;
		poll(NULL, 0, 10);
	}
	kill(c->pid, SIGKILL);
	waitpid(c->pid, &status, 0);
	fail("%s: proxy did not exit after EOF", c->name);
	return status;
}

static int send_frame(struct conn *c, const uint8_t *buf, size_t len)
{
	while (len) {
		ssize_t w = write(c->to, buf, len);

		if (w <= 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Read exactly N bytes within the deadline: 0, or -1 at EOF/timeout. */
static int read_full(struct conn *c, uint8_t *p, size_t n, int64_t deadline)
{
	while (n) {
		struct pollfd pfd = { c->from, POLLIN, 0 };
		int64_t left = deadline - now_ms();
		ssize_t r;

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			return -1;
		r = read(c->from, p, n);
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* The next reply into c->m: 0, or -1 at EOF, timeout or a bad frame. */
static int recv_frame(struct conn *c)
{
	int64_t deadline = now_ms() + TIMEOUT_MS;
	uint32_t size;

	if (read_full(c, c->buf, 4, deadline))
		return -1;
	size = p9_get32(c->buf);
	if (size < P9_HDRSZ || size > MSIZE)
		return -1;
	if (read_full(c, c->buf + 4, size - 4, deadline))
		return -1;
	return p9_parse(c->buf, size, MSIZE, P9_FROM_SERVER, &c->m) == P9_OK ? 0 : -1;
}

/* Whether the proxy closed the guest side (EOF within the timeout). */
static int closed(struct conn *c)
{
	uint8_t b[64];
	int64_t deadline = now_ms() + TIMEOUT_MS;

	for (;;) {
		struct pollfd pfd = { c->from, POLLIN, 0 };
		int64_t left = deadline - now_ms();

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			return 0;
		if (read(c->from, b, sizeof(b)) <= 0)
			return 1;
	}
}

static int rpc(struct conn *c, const uint8_t *buf, size_t len)
{
	uint16_t tag = p9_get16(buf + 5);

	if (send_frame(c, buf, len) || recv_frame(c))
		return -1;
	return c->m.tag == tag ? 0 : -1;
}

/* The T-messages the cases send; each returns the frame's length. */
static uint8_t tb[MSIZE];

static size_t t_version(uint32_t msize, const char *v)
{
	struct p9b b;

	p9b_begin(&b, tb, sizeof(tb), P9_TVERSION, P9_NOTAG);
	p9b_u32(&b, msize);
	p9b_str(&b, v);
	return p9b_end(&b);
}

static size_t t_attach(uint16_t tag, uint32_t fid)
{
	struct p9b b;

	p9b_begin(&b, tb, sizeof(tb), P9_TATTACH, tag);
	p9b_u32(&b, fid);
	p9b_u32(&b, P9_NOFID);
	p9b_str(&b, "root");
	p9b_str(&b, export_dir);
	p9b_u32(&b, 0);
	return p9b_end(&b);
}

static size_t t_walk(uint16_t tag, uint32_t fid, uint32_t newfid, const char *name)
{
	struct p9b b;

	p9b_begin(&b, tb, sizeof(tb), P9_TWALK, tag);
	p9b_u32(&b, fid);
	p9b_u32(&b, newfid);
	p9b_u16(&b, name ? 1 : 0);
	if (name)
		p9b_str(&b, name);
	return p9b_end(&b);
}

static size_t t_xattrwalk(uint16_t tag, uint32_t fid, uint32_t newfid, const char *name)
{
	struct p9b b;

	p9b_begin(&b, tb, sizeof(tb), P9_TXATTRWALK, tag);
	p9b_u32(&b, fid);
	p9b_u32(&b, newfid);
	p9b_str(&b, name);
	return p9b_end(&b);
}

static size_t t_xattrcreate(uint16_t tag, uint32_t fid, const char *name, uint64_t size)
{
	struct p9b b;

	p9b_begin(&b, tb, sizeof(tb), P9_TXATTRCREATE, tag);
	p9b_u32(&b, fid);
	p9b_str(&b, name);
	p9b_u64(&b, size);
	p9b_u32(&b, 0);
	return p9b_end(&b);
}

static size_t t_read(uint16_t tag, uint32_t fid, uint64_t off, uint32_t count)
{
	struct p9b b;

	p9b_begin(&b, tb, sizeof(tb), P9_TREAD, tag);
	p9b_u32(&b, fid);
	p9b_u64(&b, off);
	p9b_u32(&b, count);
	return p9b_end(&b);
}

static size_t t_write(uint16_t tag, uint32_t fid, const uint8_t *data, uint32_t n)
{
	struct p9b b;

	p9b_begin(&b, tb, sizeof(tb), P9_TWRITE, tag);
	p9b_u32(&b, fid);
	p9b_u64(&b, 0);
	p9b_u32(&b, n);
	p9b_mem(&b, data, n);
	return p9b_end(&b);
}

static size_t t_clunk(uint16_t tag, uint32_t fid)
{
	struct p9b b;

	p9b_begin(&b, tb, sizeof(tb), P9_TCLUNK, tag);
	p9b_u32(&b, fid);
	return p9b_end(&b);
}

static size_t t_setattr_mode(uint16_t tag, uint32_t fid, uint32_t mode)
{
	struct p9b b;

	p9b_begin(&b, tb, sizeof(tb), P9_TSETATTR, tag);
	p9b_u32(&b, fid);
	p9b_u32(&b, 0x1);	/* P9_ATTR_MODE */
	p9b_u32(&b, mode);
	p9b_u32(&b, 0);
	p9b_u32(&b, 0);
	for (int i = 0; i < 5; i++)	/* size, atime, mtime */
		p9b_u64(&b, 0);
	return p9b_end(&b);
}

static size_t t_unlinkat(uint16_t tag, uint32_t dirfid, const char *name)
{
	struct p9b b;

	p9b_begin(&b, tb, sizeof(tb), P9_TUNLINKAT, tag);
	p9b_u32(&b, dirfid);
	p9b_str(&b, name);
	p9b_u32(&b, 0);
	return p9b_end(&b);
}

static size_t t_flush(uint16_t tag, uint16_t oldtag)
{
	struct p9b b;

	p9b_begin(&b, tb, sizeof(tb), P9_TFLUSH, tag);
	p9b_u16(&b, oldtag);
	return p9b_end(&b);
}

/* Version, attach as fid 0, walk fid 1 to "f". */
static int setup(struct conn *c, const char *name)
{
	if (conn_start(c, name, NULL)) {
		fail("%s: cannot start the proxy", name);
		return -1;
	}
	if (rpc(c, tb, t_version(MSIZE, "9P2000.L")) || c->m.type != P9_RVERSION ||
	    c->m.u.version.msize != MSIZE) {
		fail("%s: no Rversion", name);
		return -1;
	}
	if (rpc(c, tb, t_attach(1, 0)) || c->m.type != P9_RATTACH) {
		fail("%s: attach to %s failed (errno %u)", name, export_dir,
		     c->m.type == P9_RLERROR ? c->m.u.lerror.ecode : 0);
		return -1;
	}
	if (rpc(c, tb, t_walk(2, 0, 1, "f")) || c->m.type != P9_RWALK ||
	    c->m.u.rwalk.nwqid != 1) {
		fail("%s: walk to f failed", name);
		return -1;
	}
	return 0;
}

/* Walk to a control name: the server answers ENOENT. */
static int control(struct conn *c, const char *word)
{
	if (rpc(c, tb, t_walk(3, 0, 9, word)) || c->m.type != P9_RLERROR ||
	    c->m.u.lerror.ecode != ENOENT) {
		fail("%s: walk to %s not answered ENOENT", c->name, word);
		return -1;
	}
	return 0;
}

/* Xattrwalk fid 1's NAME to fid 2: the size shown, or -1 (errno in *ERR). */
static int64_t xattr_size(struct conn *c, const char *name, uint32_t *err)
{
	*err = 0;
	if (rpc(c, tb, t_xattrwalk(4, 1, 2, name)))
		return -1;
	if (c->m.type == P9_RLERROR) {
		*err = c->m.u.lerror.ecode;
		return -1;
	}
	return c->m.type == P9_RXATTRWALK ? (int64_t)c->m.u.rxattrwalk.size : -1;
}

/* Read fid 2 at OFF for COUNT bytes into OUT: how many, or -1. */
static int64_t xattr_read(struct conn *c, uint64_t off, uint32_t count, uint8_t *out)
{
	if (rpc(c, tb, t_read(5, 2, off, count)) || c->m.type != P9_RREAD)
		return -1;
	memcpy(out, c->m.u.rread.data, c->m.u.rread.count);
	return c->m.u.rread.count;
}

static int clunk(struct conn *c, uint32_t fid)
{
	return rpc(c, tb, t_clunk(6, fid)) || c->m.type != P9_RCLUNK ? -1 : 0;
}

static char *slurp(const char *path)
{
	static char text[1 << 16];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);

	if (fd >= 0)
		close(fd);
	text[n > 0 ? n : 0] = '\0';
	return text;
}

/* The log has no sanitizer report and, if WANT, a line with it. */
static int log_has(struct conn *c, const char *want)
{
	const char *text = slurp(c->log);

	if (strstr(text, "Sanitizer") || strstr(text, "runtime error")) {
		fail("%s: sanitizer report in %s", c->name, c->log);
		return 0;
	}
	return !want || strstr(text, want);
}

/* The proxy exited by itself with CODE. */
static int exited(struct conn *c, int status, int code)
{
	if (WIFSIGNALED(status)) {
		fail("%s: proxy killed by signal %d", c->name, WTERMSIG(status));
		return 0;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != code) {
		fail("%s: proxy exit status %d, want %d (86: sanitizer)", c->name,
		     WEXITSTATUS(status), code);
		return 0;
	}
	return 1;
}

/* Unfaulted: the host's bytes; ENODATA passes through; a mark starts
 * a bucket; the counts file is exact. */
static void case_plain(void)
{
	struct conn c;
	uint8_t got[4096];
	uint32_t err;
	int64_t n;
	/* a bucket begins with the walk that names it; type order */
	const char *want_counts =
		"-\tTversion\t1\n-\tTattach\t1\n-\tTwalk\t1\n"
		"alpha\tTxattrwalk\t2\nalpha\tTwalk\t1\nalpha\tTread\t1\n"
		"alpha\tTclunk\t1\nbeta\tTwalk\t1\nbeta\tTclunk\t1\n";

	cases++;
	if (setup(&c, "plain") || control(&c, "acl9p-mark=alpha"))
		goto out;
	n = xattr_size(&c, ACCESS, &err);
	EXPECT(n == (int64_t)host_len, "plain: size %lld, host %zu", (long long)n, host_len);
	n = xattr_read(&c, 0, (uint32_t)host_len, got);
	EXPECT(n == (int64_t)host_len && !memcmp(got, host_acl, host_len),
	       "plain: bytes read differ from the host's");
	EXPECT(clunk(&c, 2) == 0, "plain: clunk");
	n = xattr_size(&c, DEFAULT, &err);
	EXPECT(n < 0 && err == ENODATA, "plain: default ACL of a file: errno %u", err);
	if (control(&c, "acl9p-mark=beta"))
		goto out;
	EXPECT(clunk(&c, 1) == 0, "plain: clunk 1");
	EXPECT(exited(&c, conn_end(&c), 0), "plain: exit");
	EXPECT(!strcmp(slurp(c.counts), want_counts), "plain: counts file:\n%s\nwant:\n%s",
	       slurp(c.counts), want_counts);
	EXPECT(log_has(&c, "version 9P2000.L, msize 65536"), "plain: log");
	return;
out:
	conn_end(&c);
}

static void case_rd_errno(void)
{
	static const struct { const char *name; uint32_t e; } es[] = {
		{ "EIO", EIO }, { "ENOSYS", ENOSYS }, { "EOPNOTSUPP", EOPNOTSUPP },
		{ "ENODATA", ENODATA }, { "EACCES", EACCES }, { "ENOMEM", ENOMEM },
		{ "ERANGE", ERANGE },
	};
	struct conn c;
	char word[64];
	uint32_t err;
	int64_t n;

	cases++;
	if (setup(&c, "rd-errno"))
		goto out;
	for (size_t i = 0; i < sizeof(es) / sizeof(es[0]); i++) {
		snprintf(word, sizeof(word), "acl9p-fault=rd-errno=%s", es[i].name);
		if (control(&c, word))
			goto out;
		n = xattr_size(&c, i % 2 ? DEFAULT : ACCESS, &err);
		EXPECT(n < 0 && err == es[i].e, "rd-errno=%s: got errno %u", es[i].name, err);
	}
	/* armed, but not ACL traffic: the listing of names passes */
	n = xattr_size(&c, "", &err);
	EXPECT(n > 0, "rd-errno: the xattr list was refused too (errno %u)", err);
	EXPECT(clunk(&c, 2) == 0, "rd-errno: clunk of the list fid");
	/* the refused walks made no fid 2 on the server: it is free now */
	if (control(&c, "acl9p-fault=none"))
		goto out;
	n = xattr_size(&c, ACCESS, &err);
	EXPECT(n == (int64_t)host_len, "rd-errno: after none, size %lld errno %u",
	       (long long)n, err);
	EXPECT(log_has(&c, "fault rd-errno=ERANGE: Txattrwalk") &&
	       log_has(&c, "control: fault none: nothing armed"), "rd-errno: log");
out:
	conn_end(&c);
}

/* A read fault: arm SPEC, walk, check the size shown, read READ bytes
 * from OFF and compare with WANT (WANT_LEN bytes). */
static void read_fault(const char *spec, int64_t want_size, uint64_t off,
		       uint32_t read, const uint8_t *want, int64_t want_len)
{
	struct conn c;
	char word[80];
	uint8_t got[MSIZE];
	uint32_t err;
	int64_t n;

	cases++;
	snprintf(word, sizeof(word), "acl9p-fault=%s", spec);
	if (setup(&c, spec) || control(&c, word))
		goto out;
	n = xattr_size(&c, ACCESS, &err);
	EXPECT(n == want_size, "%s: size %lld, want %lld", spec, (long long)n,
	       (long long)want_size);
	n = xattr_read(&c, off, read, got);
	EXPECT(n == want_len && !memcmp(got, want, (size_t)n),
	       "%s: read %lld bytes, want %lld (or other bytes)", spec, (long long)n,
	       (long long)want_len);
	EXPECT(log_has(&c, "fault "), "%s: no fault line in the log", spec);
out:
	conn_end(&c);
}

static void case_read_faults(void)
{
	uint8_t want[4096];

	/* 9 TiB shown, the real bytes read */
	read_fault("rd-hugesize", (int64_t)9 << 40, 0, 4000, host_acl, (int64_t)host_len);
	/* 65537 shown: the real bytes, then zeros, to the size shown */
	memset(want, 0, sizeof(want));
	memcpy(want, host_acl, host_len);
	read_fault("rd-size=65537", 65537, 0, 4000, want, 4000);
	read_fault("rd-size=65537", 65537, 65537 - 100, 4000, want + 1000, 100);
	/* smaller than the value: no byte past the size shown */
	read_fault("rd-size=8", 8, 0, 4000, host_acl, 8);
	memcpy(want, host_acl, host_len);
	want[0] = 3;
	read_fault("rd-badversion", (int64_t)host_len, 0, (uint32_t)host_len, want,
		   (int64_t)host_len);
	/* from offset 2: bytes 2 and 3 of a_version (zero) */
	read_fault("rd-badversion", (int64_t)host_len, 2, (uint32_t)host_len, host_acl + 2,
		   (int64_t)host_len - 2);
	read_fault("rd-oddsize", (int64_t)host_len - 3, 0, (uint32_t)host_len, host_acl,
		   (int64_t)host_len - 3);
	read_fault("rd-truncentry", (int64_t)host_len - 4, 0, 4000, host_acl,
		   (int64_t)host_len - 4);
	/* the size as it is; the reads end after half the entries
	 * (rounded up), or at once */
	read_fault("rd-shortentry", (int64_t)host_len, 0, 4000, host_acl,
		   (int64_t)(4 + 8 * (((host_len - 4) / 8 + 1) / 2)));
	read_fault("rd-emptyread", (int64_t)host_len, 0, 4000, host_acl, 0);
}

/* S, S+8, S+16; zeros past the real value. */
static void case_sizechange(void)
{
	struct conn c;
	uint8_t got[4096], want[4096];
	uint32_t err;
	int64_t n;

	cases++;
	if (setup(&c, "rd-sizechange") || control(&c, "acl9p-fault=rd-sizechange"))
		goto out;
	for (int i = 0; i < 3; i++) {
		n = xattr_size(&c, ACCESS, &err);
		EXPECT(n == (int64_t)host_len + 8 * i, "rd-sizechange: walk %d size %lld",
		       i, (long long)n);
		if (i < 2)
			EXPECT(clunk(&c, 2) == 0, "rd-sizechange: clunk");
	}
	memset(want, 0, sizeof(want));
	memcpy(want, host_acl, host_len);
	n = xattr_read(&c, 0, 4000, got);
	EXPECT(n == (int64_t)host_len + 16 && !memcmp(got, want, (size_t)n),
	       "rd-sizechange: read %lld bytes", (long long)n);
	n = xattr_read(&c, host_len, 4000, got);
	EXPECT(n == 16 && !memcmp(got, want + host_len, 16),
	       "rd-sizechange: read past the real end gave %lld bytes", (long long)n);
out:
	conn_end(&c);
}

/* rd-delay: other traffic overtakes the held reply; a Tflush sends it
 * out at once, before the Rflush. */
static void case_rd_delay(void)
{
	struct conn c;
	int64_t t0, t1;

	cases++;
	if (setup(&c, "rd-delay") || control(&c, "acl9p-fault=rd-delay=400"))
		goto out;
	t0 = now_ms();
	send_frame(&c, tb, t_xattrwalk(10, 1, 2, ACCESS));
	send_frame(&c, tb, t_walk(11, 0, 5, NULL));
	EXPECT(recv_frame(&c) == 0 && c.m.tag == 11 && c.m.type == P9_RWALK,
	       "rd-delay: the clone walk did not overtake the held reply (tag %u)", c.m.tag);
	EXPECT(recv_frame(&c) == 0 && c.m.tag == 10 && c.m.type == P9_RXATTRWALK,
	       "rd-delay: no Rxattrwalk");
	t1 = now_ms();
	EXPECT(t1 - t0 >= 400 && t1 - t0 < 3000, "rd-delay: held %lld ms", (long long)(t1 - t0));
	EXPECT(clunk(&c, 2) == 0, "rd-delay: clunk");
	if (control(&c, "acl9p-fault=rd-delay=8000"))
		goto out;
	t0 = now_ms();
	send_frame(&c, tb, t_xattrwalk(12, 1, 2, ACCESS));
	poll(NULL, 0, 100);
	send_frame(&c, tb, t_flush(13, 12));
	EXPECT(recv_frame(&c) == 0 && c.m.tag == 12 && c.m.type == P9_RXATTRWALK,
	       "rd-delay: Tflush did not release the held reply first");
	EXPECT(recv_frame(&c) == 0 && c.m.tag == 13 && c.m.type == P9_RFLUSH,
	       "rd-delay: no Rflush after it");
	EXPECT(now_ms() - t0 < 3000, "rd-delay: the flush waited for the delay");
	EXPECT(log_has(&c, "held 400 ms"), "rd-delay: log");
out:
	conn_end(&c);
}

/* Arming something unknown leaves nothing armed. */
static void case_unknown(void)
{
	struct conn c;
	uint32_t err;
	int64_t n;

	cases++;
	if (setup(&c, "unknown") || control(&c, "acl9p-fault=rd-errno=EIO") ||
	    control(&c, "acl9p-fault=bogus"))
		goto out;
	n = xattr_size(&c, ACCESS, &err);
	EXPECT(n == (int64_t)host_len, "unknown SPEC: the old fault stayed (errno %u)", err);
	EXPECT(clunk(&c, 2) == 0, "unknown: clunk");
	if (control(&c, "acl9p-fault=rd-errno=EBADF"))
		goto out;
	n = xattr_size(&c, ACCESS, &err);
	EXPECT(n == (int64_t)host_len, "rd-errno=EBADF (not in the list) applied");
	EXPECT(log_has(&c, "unknown fault SPEC 'bogus'"), "unknown: not logged");
out:
	conn_end(&c);
}

/* wr-errno refuses the create without forwarding; unfaulted, a write
 * reaches the host; wr-delay holds the Rxattrcreate. */
static void case_write(void)
{
	struct conn c;
	uint8_t acl[4096], now[4096];
	char path[PATH_MAX];
	ssize_t n;
	int64_t t0;

	cases++;
	memcpy(acl, host_acl, host_len);
	/* the named user's entry (tag 2) gets rwx */
	for (size_t i = 4; i + 8 <= host_len; i += 8)
		if (p9_get16(acl + i) == 2)
			p9_put16(acl + i + 2, 7);
	if (setup(&c, "write") || control(&c, "acl9p-fault=wr-errno=EACCES"))
		goto out;
	EXPECT(rpc(&c, tb, t_walk(20, 0, 3, "f")) == 0, "write: walk");
	EXPECT(rpc(&c, tb, t_xattrcreate(21, 3, ACCESS, host_len)) == 0 &&
	       c.m.type == P9_RLERROR && c.m.u.lerror.ecode == EACCES,
	       "wr-errno: Txattrcreate not refused with EACCES");
	if (control(&c, "acl9p-fault=wr-delay=300"))
		goto out;
	t0 = now_ms();
	EXPECT(rpc(&c, tb, t_xattrcreate(22, 3, ACCESS, host_len)) == 0 &&
	       c.m.type == P9_RXATTRCREATE, "write: Txattrcreate failed");
	EXPECT(now_ms() - t0 >= 300, "wr-delay: not held");
	EXPECT(rpc(&c, tb, t_write(23, 3, acl, (uint32_t)host_len)) == 0 &&
	       c.m.type == P9_RWRITE && c.m.u.rwrite.count == host_len, "write: Twrite");
	EXPECT(clunk(&c, 3) == 0, "write: clunk (the set)");
	snprintf(path, sizeof(path), "%s/f", export_dir);
	n = getxattr(path, ACCESS, now, sizeof(now));
	EXPECT(n == (ssize_t)host_len && !memcmp(now, acl, host_len),
	       "write: the host's ACL is not what was written");
	EXPECT(log_has(&c, "fault wr-errno=EACCES: Txattrcreate") &&
	       log_has(&c, "fault wr-delay=300: Rxattrcreate"), "write: log");
out:
	conn_end(&c);
}

/*
 * sa-errno refuses the mode Tsetattr that comes right after an ACL
 * store's Rclunk, and no other; ul-errno refuses a Tunlinkat without
 * forwarding it (the file stays on the host).
 */
static void case_setattr_unlink(void)
{
	struct conn c;
	char path[PATH_MAX];
	struct stat st;
	uint32_t mode;
	int fd;

	cases++;
	snprintf(path, sizeof(path), "%s/f", export_dir);
	if (stat(path, &st) != 0) {
		fail("setattr: %s: %s", path, strerror(errno));
		return;
	}
	mode = st.st_mode & 07777;
	if (setup(&c, "setattr") || control(&c, "acl9p-fault=sa-errno=EPERM"))
		goto out;
	EXPECT(rpc(&c, tb, t_setattr_mode(20, 1, mode)) == 0 &&
	       c.m.type == P9_RSETATTR, "sa-errno: a Tsetattr after no store refused");
	EXPECT(rpc(&c, tb, t_walk(21, 1, 3, NULL)) == 0 && c.m.type == P9_RWALK,
	       "setattr: clone");
	EXPECT(rpc(&c, tb, t_xattrcreate(22, 3, ACCESS, host_len)) == 0 &&
	       c.m.type == P9_RXATTRCREATE, "setattr: Txattrcreate failed");
	EXPECT(rpc(&c, tb, t_write(23, 3, host_acl, (uint32_t)host_len)) == 0 &&
	       c.m.type == P9_RWRITE, "setattr: Twrite failed");
	EXPECT(clunk(&c, 3) == 0, "setattr: clunk (the store)");
	EXPECT(rpc(&c, tb, t_setattr_mode(24, 1, mode)) == 0 &&
	       c.m.type == P9_RLERROR && c.m.u.lerror.ecode == EPERM,
	       "sa-errno: the Tsetattr after the store not refused with EPERM");
	EXPECT(rpc(&c, tb, t_setattr_mode(25, 1, mode)) == 0 &&
	       c.m.type == P9_RSETATTR, "sa-errno: a second Tsetattr refused too");
	EXPECT(log_has(&c, "fault sa-errno=EPERM: Tsetattr tag 24"), "sa-errno: log");

	snprintf(path, sizeof(path), "%s/g", export_dir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	if (fd < 0) {
		fail("unlink: %s: %s", path, strerror(errno));
		goto out;
	}
	close(fd);
	if (control(&c, "acl9p-fault=ul-errno=EOPNOTSUPP"))
		goto out;
	EXPECT(rpc(&c, tb, t_unlinkat(26, 0, "g")) == 0 &&
	       c.m.type == P9_RLERROR && c.m.u.lerror.ecode == EOPNOTSUPP,
	       "ul-errno: Tunlinkat not refused with EOPNOTSUPP");
	EXPECT(access(path, F_OK) == 0, "ul-errno: the refused unlink reached the host");
	EXPECT(log_has(&c, "fault ul-errno=EOPNOTSUPP: Tunlinkat"), "ul-errno: log");
	unlink(path);
out:
	conn_end(&c);
}

/*
 * A number the server still holds cannot name a new fid: Tattach, Twalk
 * (unless newfid is fid) and Txattrwalk naming one are refused EINVAL
 * and not forwarded; once its Tclunk is answered the number is free.
 */
static void case_newfid_in_use(void)
{
	struct conn c;

	cases++;
	if (setup(&c, "newfid"))
		goto out;
	EXPECT(rpc(&c, tb, t_attach(30, 1)) == 0 && c.m.type == P9_RLERROR &&
	       c.m.u.lerror.ecode == EINVAL, "newfid: Tattach to a held fid not refused");
	EXPECT(rpc(&c, tb, t_walk(31, 0, 1, "f")) == 0 && c.m.type == P9_RLERROR &&
	       c.m.u.lerror.ecode == EINVAL, "newfid: Twalk to a held fid not refused");
	EXPECT(rpc(&c, tb, t_xattrwalk(32, 1, 0, ACCESS)) == 0 &&
	       c.m.type == P9_RLERROR && c.m.u.lerror.ecode == EINVAL,
	       "newfid: Txattrwalk to a held fid not refused");
	EXPECT(log_has(&c, "Twalk tag 31: newfid 1 is in use"), "newfid: log");
	/* the refused requests left fid 1 as it was: it still names f */
	EXPECT(rpc(&c, tb, t_walk(33, 1, 1, NULL)) == 0 && c.m.type == P9_RWALK,
	       "newfid: a walk of fid 1 to itself refused");
	EXPECT(clunk(&c, 1) == 0, "newfid: clunk of fid 1");
	EXPECT(rpc(&c, tb, t_walk(34, 0, 1, "f")) == 0 && c.m.type == P9_RWALK &&
	       c.m.u.rwalk.nwqid == 1, "newfid: Twalk to a clunked number refused");
out:
	conn_end(&c);
}

/* The drop faults: EOF for the guest, exit 3. */
static void drop_case(const char *spec, int reads_before)
{
	struct conn c;
	char word[64];
	uint8_t got[4096];
	uint32_t err;

	cases++;
	snprintf(word, sizeof(word), "acl9p-fault=%s", spec);
	if (setup(&c, spec) || control(&c, word))
		goto out;
	if (!strcmp(spec, "wr-drop")) {
		send_frame(&c, tb, t_xattrcreate(30, 1, DEFAULT, 12));
	} else if (reads_before) {
		/* drop-after=2: xattrwalk and read pass, the clunk drops */
		EXPECT(xattr_size(&c, ACCESS, &err) == (int64_t)host_len, "%s: walk", spec);
		EXPECT(xattr_read(&c, 0, 4000, got) == (int64_t)host_len, "%s: read", spec);
		send_frame(&c, tb, t_clunk(31, 2));
	} else {
		send_frame(&c, tb, t_xattrwalk(32, 1, 2, ACCESS));
	}
	EXPECT(closed(&c), "%s: the connection stayed open", spec);
	EXPECT(exited(&c, conn_end(&c), 3), "%s: exit", spec);
	EXPECT(log_has(&c, "closing both connections"), "%s: log", spec);
	/* a death, not an EOF the server could crash on */
	EXPECT(log_has(&c, "server killed by signal 9"), "%s: server not killed", spec);
	return;
out:
	conn_end(&c);
}

/* A malformed frame from the guest: logged with REASON, exit 1. */
static void malformed_guest(const char *name, int version_first,
			    const uint8_t *bytes, size_t len, const char *reason)
{
	struct conn c;

	cases++;
	if (conn_start(&c, name, NULL)) {
		fail("%s: cannot start", name);
		return;
	}
	if (version_first && (rpc(&c, tb, t_version(8192, "9P2000.L")) ||
			      c.m.type != P9_RVERSION)) {
		fail("%s: no Rversion", name);
		conn_end(&c);
		return;
	}
	send_frame(&c, bytes, len);
	EXPECT(closed(&c), "%s: not closed", name);
	EXPECT(exited(&c, conn_end(&c), 1), "%s: exit", name);
	EXPECT(log_has(&c, reason), "%s: log has no '%s'", name, reason);
	EXPECT(log_has(&c, "from guest"), "%s: no hex line", name);
}

static void case_malformed_guest(void)
{
	uint8_t b[64];
	struct p9b pb;
	size_t n;

	malformed_guest("size3", 0, (const uint8_t *)"\x03\x00\x00\x00", 4,
			"size below the 7-byte header: 4 bytes: 03 00 00 00");
	/* the first Tversion may be 8192 bytes at most */
	p9_put32(b, 9000);
	b[4] = P9_TVERSION;
	malformed_guest("version-too-big", 0, b, 5, "size above msize");
	/* after Rversion msize 8192: a frame of 8193 */
	p9_put32(b, 8193);
	b[4] = P9_TREAD;
	malformed_guest("over-msize", 1, b, 7, "size above msize");
	malformed_guest("unknown-type", 1, (const uint8_t *)"\x07\x00\x00\x00\x63\x01\x00", 7,
			"not a 9P2000.L message of this direction");
	malformed_guest("r-from-guest", 1, (const uint8_t *)"\x07\x00\x00\x00\x79\x01\x00", 7,
			"not a 9P2000.L message of this direction");
	/* a Txattrwalk whose name runs past the frame */
	p9b_begin(&pb, b, sizeof(b), P9_TXATTRWALK, 1);
	p9b_u32(&pb, 0);
	p9b_u32(&pb, 1);
	p9b_u16(&pb, 200);
	p9b_mem(&pb, "system", 6);
	n = p9b_end(&pb);
	malformed_guest("string-overrun", 1, b, n, "a field runs past the end");
	p9b_begin(&pb, b, sizeof(b), P9_TWALK, 1);
	p9b_u32(&pb, 0);
	p9b_u32(&pb, 1);
	p9b_u16(&pb, 17);
	n = p9b_end(&pb);
	malformed_guest("nwname17", 1, b, n, "more than 16 names");
	/* before any version: an attach */
	n = t_attach(1, 0);
	malformed_guest("no-version", 0, tb, n, "no version negotiated");
}

/* A server that answers wrongly: logged, exit 1. */
static void malformed_server(const char *name, const char *hex, const char *reason)
{
	char *argv[] = { (char *)self, "--fake-server", (char *)hex, NULL };
	struct conn c;

	cases++;
	if (conn_start(&c, name, argv)) {
		fail("%s: cannot start", name);
		return;
	}
	send_frame(&c, tb, t_version(8192, "9P2000.L"));
	EXPECT(closed(&c), "%s: not closed", name);
	EXPECT(exited(&c, conn_end(&c), 1), "%s: exit", name);
	EXPECT(log_has(&c, reason), "%s: log has no '%s'", name, reason);
	EXPECT(log_has(&c, "from server"), "%s: no hex line", name);
}

static void case_malformed_server(void)
{
	/* Rversion with tag 5: no such request */
	malformed_server("server-tag", "150000006505000020000008003950323030302e4c",
			 "no request outstanding with this tag");
	/* Rversion with an msize above the Tversion's 8192 */
	malformed_server("server-msize", "1500000065ffff000001000800" "3950323030302e4c",
			 "Rversion msize above Tversion's");
	malformed_server("server-size3", "03000000", "size below the 7-byte header");
	/* Rattach to the Tversion */
	malformed_server("server-type", "1400000069ffff00000000000000000000000000",
			 "reply of another type than the request");
}

static int fake_server(const char *hex)
{
	uint8_t b[4096];
	size_t n = 0;

	/* answer after the request came, like a server */
	if (read(0, b, sizeof(b)) <= 0)
		return 1;
	for (; hex[0] && hex[1] && n < sizeof(b); hex += 2) {
		unsigned v;

		if (sscanf(hex, "%2x", &v) != 1)
			return 2;
		b[n++] = (uint8_t)v;
	}
	if (write(1, b, n) != (ssize_t)n)
		return 1;
	while (read(0, b, sizeof(b)) > 0)
		;
	return 0;
}

int main(int argc, char **argv)
{
	char path[PATH_MAX];
	ssize_t n;
	int64_t t0 = now_ms();

	if (argc == 3 && !strcmp(argv[1], "--fake-server"))
		return fake_server(argv[2]);
	if (argc < 6 || strcmp(argv[4], "--")) {
		fprintf(stderr, "usage: proxy-e2e PROXY EXPORT WORKDIR -- SERVER [ARG...]\n");
		return 2;
	}
	/* absolute: the cases run in WORKDIR */
	if (mkdir(argv[3], 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "proxy-e2e: %s: %s\n", argv[3], strerror(errno));
		return 1;
	}
	proxy = realpath(argv[1], NULL);
	export_dir = realpath(argv[2], NULL);
	workdir = realpath(argv[3], NULL);
	if (!proxy || !export_dir || !workdir) {
		fprintf(stderr, "proxy-e2e: %s, %s or %s not found\n", argv[1], argv[2], argv[3]);
		return 1;
	}
	server_argv = argv + 5;
	self = realpath("/proc/self/exe", path) ? strdup(path) : argv[0];
	/* a sanitizer report makes the proxy exit 86, not 1 like a refusal */
	setenv("ASAN_OPTIONS", "exitcode=86", 1);
	setenv("UBSAN_OPTIONS", "exitcode=86:print_stacktrace=1", 1);
	signal(SIGPIPE, SIG_IGN);

	/* the servers run here: Debian's diod 1.0.24 sometimes dies of
	 * SIGSEGV on EOF with fids open, and it raises its own core limit,
	 * so its core file lands in our directory, not the source tree */
	if (chdir(workdir) != 0) {
		fprintf(stderr, "proxy-e2e: %s: %s\n", workdir, strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/f", export_dir);
	n = getxattr(path, ACCESS, host_acl, sizeof(host_acl));
	if (n < 12) {
		fprintf(stderr, "proxy-e2e: %s has no access ACL (%s)\n", path, strerror(errno));
		return 1;
	}
	host_len = (size_t)n;

	case_plain();
	case_rd_errno();
	case_read_faults();
	case_sizechange();
	case_rd_delay();
	case_unknown();
	case_write();
	case_setattr_unlink();
	case_newfid_in_use();
	drop_case("rd-drop", 0);
	drop_case("wr-drop", 0);
	drop_case("drop-after=2", 1);
	drop_case("drop-after=0", 0);
	case_malformed_guest();
	case_malformed_server();
	printf("proxy-e2e: %d cases, %d failures, %lld ms\n", cases, failures,
	       (long long)(now_ms() - t0));
	return failures ? 1 : 0;
}
