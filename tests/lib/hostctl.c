// SPDX-License-Identifier: GPL-2.0
/*
 * Guest end of the host control channel: a raw serial port (ACL9P_HOSTCTL,
 * /dev/ttyS2 in the rig) whose other end is acl9p-hostctl on the host.
 * One request line out, one answer line back; see tests/host/hostctl.c
 * for the protocol.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "acl9p.h"

/* generous: a 64 KiB value is 128 KiB of hex at serial speed */
#define ANSWER_TIMEOUT_MS	30000

static int open_channel(void)
{
	const char *dev = getenv("ACL9P_HOSTCTL");
	struct termios t;
	int fd;

	if (!dev || !*dev)
		return -ENODEV;
	fd = open(dev, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* Raw both ways: no echo of our request, no CR/LF games. */
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		cfsetispeed(&t, B115200);
		cfsetospeed(&t, B115200);
		tcsetattr(fd, TCSANOW, &t);
	}
	tcflush(fd, TCIFLUSH);
	return fd;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -EIO;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* read one line (without the newline) within the timeout */
static int read_line(int fd, char *buf, size_t sz)
{
	size_t n = 0;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	while (n + 1 < sz) {
		int r = poll(&pfd, 1, ANSWER_TIMEOUT_MS);
		char ch;

		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			return -ETIMEDOUT;
		if (r < 0 || read(fd, &ch, 1) != 1)
			return -EIO;
		if (ch == '\n')
			break;
		if (ch != '\r')
			buf[n++] = ch;
	}
	buf[n] = 0;
	return 0;
}

int a9_hostctl(const char *request)
{
	char answer[512];
	int fd, r, err;

	fd = open_channel();
	if (fd < 0)
		return fd;
	r = write_all(fd, request, strlen(request));
	if (!r)
		r = write_all(fd, "\n", 1);
	if (!r)
		r = read_line(fd, answer, sizeof(answer));
	close(fd);
	if (r)
		return r;
	if (!strcmp(answer, "OK"))
		return 0;
	if (sscanf(answer, "ERR %d", &err) == 1 && err > 0)
		return -err;
	return -EIO;
}

int a9_hostctl_probe(char *why, size_t whysz)
{
	const char *dev = getenv("ACL9P_HOSTCTL");
	int r;

	if (getenv("ACL9P_NOHOST")) {
		snprintf(why, whysz, "the share has no host side (ACL9P_NOHOST: %s)",
			 a9_env("ACL9P_SERVER", "a guest-local share"));
		return -ENODEV;
	}
	if (!dev || !*dev) {
		snprintf(why, whysz, "no host control channel (ACL9P_HOSTCTL unset: boot without acl9p-hostctl)");
		return -ENODEV;
	}
	r = a9_hostctl("PING");
	if (r) {
		snprintf(why, whysz, "host control channel %s does not answer: %s",
			 dev, a9_errname(r));
		return -ENODEV;
	}
	return 0;
}

/* path relative to the export, or NULL if it is not under a9_mnt() */
static const char *relative(const char *path)
{
	size_t n = strlen(a9_mnt());

	/* the protocol separates fields by spaces */
	if (strncmp(path, a9_mnt(), n) || path[n] != '/' || strchr(path, ' '))
		return NULL;
	return path + n + 1;
}

int a9_host_set_text(const char *path, const char *name, const char *text)
{
	static char req[2 * A9_XATTR_SIZE_MAX + PATH_MAX + 64];
	static unsigned char v[A9_XATTR_SIZE_MAX];
	const char *rel = relative(path);
	ssize_t n;
	int off;

	if (!rel)
		return -EINVAL;
	n = a9_build(v, sizeof(v), text);
	if (n < 0)
		return (int)n;
	off = snprintf(req, sizeof(req), "SETXATTR %s %s ", rel, name);
	if (off < 0 || (size_t)off + 2 * (size_t)n + 1 > sizeof(req))
		return -E2BIG;
	a9_hex(v, (size_t)n, req + off, sizeof(req) - (size_t)off);
	return a9_hostctl(req);
}

int a9_host_remove(const char *path, const char *name)
{
	char req[PATH_MAX + 64];
	const char *rel = relative(path);

	if (!rel)
		return -EINVAL;
	snprintf(req, sizeof(req), "REMOVEXATTR %s %s", rel, name);
	return a9_hostctl(req);
}

int a9_host_chmod(const char *path, mode_t mode)
{
	char req[PATH_MAX + 64];
	const char *rel = relative(path);

	if (!rel)
		return -EINVAL;
	snprintf(req, sizeof(req), "CHMOD %s %04o", rel, (unsigned)mode);
	return a9_hostctl(req);
}
