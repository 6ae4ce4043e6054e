/* ninep-proxy: a strict 9P2000.L proxy between a guest and a 9p server
 * that talks on its stdin/stdout (diod --rfdno 0 --wfdno 1), with fault
 * injection into ACL xattr traffic and per-bucket message counts.
 *
 *   ninep-proxy [--log FILE] [--counts FILE] [--cwd DIR] -- SERVER [ARG...]
 *
 * The guest's connection is our stdin/stdout (QEMU's guestfwd runs one
 * proxy per guest TCP connection).  SERVER runs as our child with one
 * end of a socketpair on its fds 0 and 1.  Every frame of both ways is
 * cut out of the stream and handed to session.c; when either side
 * closes, the other is closed and the child reaped; a fault that drops
 * the connection kills the child at once (SIGKILL: a server's death,
 * and no core file of a server that crashes on a sudden EOF, as
 * Debian's diod 1.0.24 sometimes does).  One process, one
 * poll loop: delayed replies wait in a timer list, not in threads.
 *
 * Exit status: 0 when a side closed or a signal ended it, 1 after a
 * malformed frame or an I/O error, 2 for a usage or setup error, 3 when
 * a fault dropped the connection.  Everything is logged to --log. */
#include "log.h"
#include "p9frame.h"
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
	EXIT_CLOSED = 0,
	EXIT_PROTOCOL = 1,
	EXIT_USAGE = 2,
	EXIT_DROPPED = 3,
};

enum {
	QUEUE_MAX = 2 << 20,	/* stop reading while this much waits to go out */
	READ_CHUNK = 256 << 10,
	REAP_GRACE_MS = 2000,	/* the server's time to exit on EOF by itself */
};

/* Bytes waiting to be written to one side. */
struct queue {
	uint8_t *buf;
	size_t head, len, cap;
};

/* A frame being cut out of one side's stream. */
struct inbuf {
	uint8_t *buf;
	size_t len;
};

/* A reply held back by a delay fault. */
struct held {
	uint16_t tag;
	int64_t due_ms;
	uint8_t *buf;
	size_t len;
	struct held *next;
};

struct proxy {
	int guest_in, guest_out, server;
	pid_t child;
	struct queue to_guest, to_server;
	struct inbuf from_guest, from_server;
	struct held *held;
	struct session session;
};

static int sig_pipe[2] = { -1, -1 };

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void on_signal(int sig)
{
	int saved = errno;
	unsigned char c = (unsigned char)sig;

	if (write(sig_pipe[1], &c, 1) < 0) {
		/* the pipe is full: a signal is already waiting */
	}
	errno = saved;
}

static int queue_put(struct queue *q, const uint8_t *buf, size_t len)
{
	if (q->head && q->head + q->len + len > q->cap) {
		memmove(q->buf, q->buf + q->head, q->len);
		q->head = 0;
	}
	if (q->len + len > q->cap) {
		size_t cap = q->cap ? q->cap : 65536;
		uint8_t *nb;

		while (cap < q->len + len)
			cap *= 2;
		/* backpressure keeps a queue near QUEUE_MAX plus a frame or
		 * two; far beyond is a bug, not a load */
		if (cap > 8 * (size_t)QUEUE_MAX + 2 * MSIZE_CAP) {
			plog("queue over %zu bytes", cap);
			return -1;
		}
		nb = realloc(q->buf, cap);
		if (!nb) {
			plog("out of memory for a queue of %zu bytes", cap);
			return -1;
		}
		q->buf = nb;
		q->cap = cap;
	}
	memcpy(q->buf + q->head + q->len, buf, len);
	q->len += len;
	return 0;
}

/* Write what the queue holds to FD, as much as it takes; -1 on error. */
static int queue_flush(struct queue *q, int fd)
{
	while (q->len) {
		ssize_t w = write(fd, q->buf + q->head, q->len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (w <= 0)
			return -1;
		q->head += (size_t)w;
		q->len -= (size_t)w;
	}
	q->head = 0;
	return 0;
}

static int cb_to_server(void *ctx, const uint8_t *buf, size_t len)
{
	return queue_put(&((struct proxy *)ctx)->to_server, buf, len);
}

static int cb_to_guest(void *ctx, const uint8_t *buf, size_t len)
{
	return queue_put(&((struct proxy *)ctx)->to_guest, buf, len);
}

static int cb_hold(void *ctx, const uint8_t *buf, size_t len, uint16_t tag,
		   uint32_t ms)
{
	struct proxy *px = ctx;
	struct held *h = calloc(1, sizeof(*h));

	if (!h || !(h->buf = malloc(len))) {
		free(h);
		plog("out of memory holding a reply");
		return -1;
	}
	memcpy(h->buf, buf, len);
	h->len = len;
	h->tag = tag;
	h->due_ms = now_ms() + ms;
	h->next = px->held;
	px->held = h;
	return 0;
}

/* Send held replies: those due by NOW, or the one of TAG (ALL: every
 * one, for tag < 0 and now < 0 alike). */
static int release(struct proxy *px, int64_t now, int tag)
{
	struct held **pp = &px->held;
	int rc = 0;

	while (*pp) {
		struct held *h = *pp;

		if ((now >= 0 && h->due_ms <= now) || h->tag == tag) {
			*pp = h->next;
			if (queue_put(&px->to_guest, h->buf, h->len) != 0)
				rc = -1;
			free(h->buf);
			free(h);
		} else {
			pp = &h->next;
		}
	}
	return rc;
}

static void cb_release(void *ctx, uint16_t tag)
{
	struct proxy *px = ctx;

	for (struct held *h = px->held; h; h = h->next)
		if (h->tag == tag)
			plog("Tflush of tag %u: its held reply goes out now", tag);
	if (release(px, -1, tag) != 0)
		plog("could not queue a held reply");
}

static void free_held(struct proxy *px)
{
	while (px->held) {
		struct held *h = px->held;

		px->held = h->next;
		free(h->buf);
		free(h);
	}
}

/* Cut the whole frames out of IN and hand them to the session. */
static enum session_rc cut_frames(struct proxy *px, struct inbuf *in,
				  enum p9_dir dir)
{
	size_t off = 0;
	enum session_rc rc = S_OK;

	while (rc == S_OK) {
		uint32_t size = 0;
		enum p9_err e = p9_frame_header(in->buf + off, in->len - off,
						session_limit(&px->session, dir),
						dir, &size);

		if (e == P9_NEED_MORE || (e == P9_OK && in->len - off < size))
			break;
		if (e != P9_OK) {
			plog_frame(dir == P9_FROM_CLIENT ? "from guest" : "from server",
				   p9_strerror(e), in->buf + off, in->len - off);
			return S_BAD;
		}
		rc = dir == P9_FROM_CLIENT ?
			session_from_guest(&px->session, in->buf + off, size) :
			session_from_server(&px->session, in->buf + off, size);
		off += size;
	}
	memmove(in->buf, in->buf + off, in->len - off);
	in->len -= off;
	return rc;
}

/* Read what FD has into IN: 1 read, 0 at EOF, -1 on error. */
static int fill(int fd, struct inbuf *in)
{
	size_t room = MSIZE_CAP - in->len;
	ssize_t r;

	if (room > READ_CHUNK)
		room = READ_CHUNK;
	if (!room)	/* cannot be: a frame fits, and whole ones are cut */
		return -1;
	do
		r = read(fd, in->buf + in->len, room);
	while (r < 0 && errno == EINTR);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 1;
	if (r < 0)
		return -1;
	in->len += (size_t)r;
	return r > 0;
}

static void set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* Run ARGV in CWD (NULL: ours) with a socketpair's end on its fds 0
 * and 1, the log on its fd 2.  CWD is where a core file of a crashing
 * server lands (diod raises its own core limit). */
static pid_t spawn(char **argv, const char *cwd, int *server_fd, int log_fd)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		if (dup2(sv[1], 0) < 0 || dup2(sv[1], 1) < 0 ||
		    (log_fd >= 0 && dup2(log_fd, 2) < 0))
			_exit(127);
		if (cwd && chdir(cwd) != 0) {
			plog("chdir %s: %s", cwd, strerror(errno));
			_exit(127);
		}
		execvp(argv[0], argv);
		plog("exec %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	close(sv[1]);
	*server_fd = sv[0];
	return pid;
}

/* Close both connections, let the server exit by itself on its EOF
 * for a while (KILL: not at all), then end it; log how it ended. */
static void finish(struct proxy *px, const char *why, int kill_now)
{
	int status = 0;
	pid_t r = 0;

	if (kill_now)
		kill(px->child, SIGKILL);
	session_end(&px->session);
	free_held(px);
	/* shutdown: the guest's socket may be our stderr too (guestfwd),
	 * which a close of 0 and 1 alone would keep open */
	shutdown(px->guest_in, SHUT_RDWR);
	close(px->guest_in);
	close(px->guest_out);
	close(px->server);
	for (int64_t end = now_ms() + REAP_GRACE_MS; now_ms() < end;) {
		r = waitpid(px->child, &status, WNOHANG);
		if (r != 0)
			break;
		poll(NULL, 0, 10);
	}
	if (r == 0) {
		kill(px->child, SIGTERM);
		for (int64_t end = now_ms() + 1000; now_ms() < end && r == 0;) {
			poll(NULL, 0, 10);
			r = waitpid(px->child, &status, WNOHANG);
		}
		if (r == 0) {
			kill(px->child, SIGKILL);
			r = waitpid(px->child, &status, 0);
		}
	}
	if (r == px->child && WIFEXITED(status))
		plog("exit: %s; server exited %d", why, WEXITSTATUS(status));
	else if (r == px->child && WIFSIGNALED(status))
		plog("exit: %s; server killed by signal %d", why, WTERMSIG(status));
	else
		plog("exit: %s", why);
	free(px->to_guest.buf);
	free(px->to_server.buf);
	free(px->from_guest.buf);
	free(px->from_server.buf);
}

static int open_append(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

static void usage(void)
{
	fprintf(stderr, "usage: ninep-proxy [--log FILE] [--counts FILE] [--cwd DIR] -- SERVER [ARG...]\n");
	exit(EXIT_USAGE);
}

int main(int argc, char **argv)
{
	const char *log_path = NULL, *counts_path = NULL, *cwd = NULL;
	int log_fd = -1, counts_fd = -1, i;
	struct proxy px;
	struct session_io io = {
		.ctx = &px, .to_server = cb_to_server, .to_guest = cb_to_guest,
		.hold = cb_hold, .release = cb_release,
	};
	struct sigaction sa;
	const char *why = NULL;
	int code = EXIT_CLOSED;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--") && i + 1 < argc)
			break;
		if (!strcmp(argv[i], "--log") && i + 1 < argc)
			log_path = argv[++i];
		else if (!strcmp(argv[i], "--counts") && i + 1 < argc)
			counts_path = argv[++i];
		else if (!strcmp(argv[i], "--cwd") && i + 1 < argc)
			cwd = argv[++i];
		else
			usage();
	}
	if (i >= argc)
		usage();
	if (log_path && (log_fd = open_append(log_path)) < 0) {
		fprintf(stderr, "ninep-proxy: %s: %s\n", log_path, strerror(errno));
		return EXIT_USAGE;
	}
	log_open(log_fd);
	if (counts_path && (counts_fd = open_append(counts_path)) < 0) {
		plog("%s: %s", counts_path, strerror(errno));
		return EXIT_USAGE;
	}
	/* from here on nothing may reach stderr: under guestfwd it is the
	 * guest's connection (a sanitizer's report goes to the log) */
	if (log_fd >= 0)
		dup2(log_fd, 2);

	memset(&px, 0, sizeof(px));
	px.guest_in = 0;
	px.guest_out = 1;
	if (pipe(sig_pipe) != 0)
		return EXIT_USAGE;
	fcntl(sig_pipe[0], F_SETFD, FD_CLOEXEC);
	fcntl(sig_pipe[1], F_SETFD, FD_CLOEXEC);
	set_nonblock(sig_pipe[1]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	px.from_guest.buf = malloc(MSIZE_CAP);
	px.from_server.buf = malloc(MSIZE_CAP);
	if (!px.from_guest.buf || !px.from_server.buf ||
	    session_init(&px.session, &io, counts_fd) != 0) {
		plog("out of memory");
		return EXIT_USAGE;
	}
	px.child = spawn(argv + i + 1, cwd, &px.server, log_fd);
	if (px.child < 0) {
		plog("cannot start %s: %s", argv[i + 1], strerror(errno));
		return EXIT_USAGE;
	}
	plog("start: server %s pid %ld", argv[i + 1], (long)px.child);
	set_nonblock(px.guest_in);
	set_nonblock(px.guest_out);
	set_nonblock(px.server);

	while (!why) {
		struct pollfd pfd[4];
		int64_t now = now_ms(), due = -1;
		int timeout = -1, r;
		enum session_rc rc = S_OK;
		int reading = px.to_server.len < QUEUE_MAX &&
			      px.to_guest.len < QUEUE_MAX;

		for (struct held *h = px.held; h; h = h->next)
			if (due < 0 || h->due_ms < due)
				due = h->due_ms;
		if (due >= 0)
			timeout = due <= now ? 0 : (int)(due - now);
		/* the guest's two fds may be one socket: two entries then */
		pfd[0] = (struct pollfd){ px.guest_in, reading ? POLLIN : 0, 0 };
		pfd[1] = (struct pollfd){ px.guest_out, px.to_guest.len ? POLLOUT : 0, 0 };
		pfd[2] = (struct pollfd){ px.server,
			(px.to_guest.len < QUEUE_MAX ? POLLIN : 0) |
			(px.to_server.len ? POLLOUT : 0), 0 };
		pfd[3] = (struct pollfd){ sig_pipe[0], POLLIN, 0 };
		r = poll(pfd, 4, timeout);
		if (r < 0 && errno != EINTR) {
			why = "poll failed";
			code = EXIT_PROTOCOL;
			break;
		}
		if (r < 0)
			continue;
		if (pfd[3].revents) {
			unsigned char sig = 0;

			if (read(sig_pipe[0], &sig, 1) == 1)
				plog("signal %u", sig);
			why = "signal";
			break;
		}
		if (pfd[0].revents) {
			r = fill(px.guest_in, &px.from_guest);
			if (r <= 0) {
				why = r ? "guest read error" : "guest closed";
				code = r ? EXIT_PROTOCOL : EXIT_CLOSED;
				break;
			}
			rc = cut_frames(&px, &px.from_guest, P9_FROM_CLIENT);
		}
		if (rc == S_OK && (pfd[2].revents & (POLLIN | POLLHUP | POLLERR))) {
			r = fill(px.server, &px.from_server);
			if (r <= 0) {
				/* what the server said before it went */
				queue_flush(&px.to_guest, px.guest_out);
				why = r ? "server read error" : "server closed";
				code = r ? EXIT_PROTOCOL : EXIT_CLOSED;
				break;
			}
			rc = cut_frames(&px, &px.from_server, P9_FROM_SERVER);
		}
		if (rc == S_BAD) {
			why = "protocol error";
			code = EXIT_PROTOCOL;
			break;
		}
		if (rc == S_DROP) {
			why = "fault dropped the connection";
			code = EXIT_DROPPED;
			break;
		}
		if (release(&px, now_ms(), -1) != 0 ||
		    queue_flush(&px.to_server, px.server) != 0) {
			why = "server write error";
			code = EXIT_PROTOCOL;
			break;
		}
		if (queue_flush(&px.to_guest, px.guest_out) != 0) {
			why = "guest write error";
			code = EXIT_PROTOCOL;
			break;
		}
	}
	finish(&px, why, code == EXIT_DROPPED);
	return code;
}
