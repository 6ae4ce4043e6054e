// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p-hostctl: lets a guest test change the export on the host while
 * the VM runs.
 *
 * The guest has no other way to reach the host: the 9p mount is what is
 * being tested, and diod's network is restricted.  So the VM gets a third
 * serial port whose chardev is a Unix socket this program listens on.
 * A test writes one request line and waits for the one-line answer; the
 * change has been made on the host when the answer arrives.
 *
 * Requests (paths relative to the export, no "..", no leading '/'):
 *   PING
 *   SETXATTR <path> <name> <hex bytes>
 *   REMOVEXATTR <path> <name>
 *   CHMOD <path> <octal mode>
 * Answers:
 *   OK
 *   ERR <errno number> <text>
 *
 * Only ACL xattrs (system.posix_acl_access / _default) may be named.
 * A server may keep a guest's ACL under a prefix (--prefix, the server's
 * SERVER_XATTR_PREFIX, server/README.md): QEMU's mapped-xattr model
 * keeps it in user.virtfs.<name>, so the names are mapped the same way.
 * What the server cannot show the guest is refused with EOPNOTSUPP
 * (--cannot host-chmod: mapped-xattr keeps the guest's mode in
 * user.virtfs.mode, so a host chmod of the backing file is not a chmod
 * the guest can see).
 *
 * Every request and answer is logged to stderr, so a cell's hostctl.log
 * shows what the host did and when.
 *
 * usage: acl9p-hostctl [--prefix P] [--cannot WORDS] EXPORT --socket PATH
 *        acl9p-hostctl [--prefix P] [--cannot WORDS] EXPORT --stdio
 * (one connection with --socket; --stdio for the rig's self-test)
 * With --socket the socket is bound under PATH.tmp and renamed to PATH
 * once listening, so a caller that sees PATH can connect at once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define MAX_LINE	(2 * 65536 + 1024)
#define MAX_VALUE	65536

struct ctx {
	const char *prefix;	/* where the server keeps ACL bytes */
	const char *export;
	bool no_chmod;		/* --cannot host-chmod */
	FILE *in;
	FILE *out;
};

static void logf_(const char *fmt, ...)
{
	struct timespec ts;
	va_list ap;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	fprintf(stderr, "[%ld.%03ld] ", (long)ts.tv_sec, ts.tv_nsec / 1000000);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

static int reply(struct ctx *c, int err, const char *why)
{
	if (err)
		fprintf(c->out, "ERR %d %s\n", err, why);
	else
		fputs("OK\n", c->out);
	fflush(c->out);
	if (err)
		logf_("  -> ERR %s (%s)", strerror(err), why);
	else
		logf_("  -> OK");
	return 0;
}

/*
 * A path the guest names must stay inside the export: relative, and no
 * ".." anywhere (the same rule as acl9p-hostcheck's).
 */
static int resolve(const struct ctx *c, const char *rel, char *out)
{
	if (!*rel || rel[0] == '/' || strstr(rel, ".."))
		return -EINVAL;
	if (snprintf(out, PATH_MAX, "%s/%s", c->export, rel) >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

/* The name the server stores a guest xattr under on the host. */
static int host_name(const struct ctx *c, const char *name, char *out,
		     size_t sz)
{
	if (strcmp(name, "system.posix_acl_access") &&
	    strcmp(name, "system.posix_acl_default"))
		return -EINVAL;
	if (snprintf(out, sz, "%s%s", c->prefix, name) >= (int)sz)
		return -ENAMETOOLONG;
	return 0;
}

static int nibble(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static int unhex(const char *hex, unsigned char *out, size_t max)
{
	size_t n = strlen(hex), i;

	if (n % 2 || n / 2 > max)
		return -EINVAL;
	for (i = 0; i < n / 2; i++) {
		int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return (int)(n / 2);
}

static int handle(struct ctx *c, char *line)
{
	static unsigned char value[MAX_VALUE];
	char path[PATH_MAX], hname[256];
	char *save = NULL, *cmd, *rel, *name, *arg;
	int r, n;

	cmd = strtok_r(line, " ", &save);
	if (!cmd)
		return reply(c, EINVAL, "empty request");
	if (!strcmp(cmd, "PING"))
		return reply(c, 0, NULL);
	rel = strtok_r(NULL, " ", &save);
	if (!rel)
		return reply(c, EINVAL, "missing path");
	r = resolve(c, rel, path);
	if (r)
		return reply(c, -r, "path must be relative to the export, without ..");

	if (!strcmp(cmd, "SETXATTR")) {
		name = strtok_r(NULL, " ", &save);
		arg = strtok_r(NULL, " ", &save);
		if (!name || !arg)
			return reply(c, EINVAL, "usage: SETXATTR path name hex");
		r = host_name(c, name, hname, sizeof(hname));
		if (r)
			return reply(c, -r, "only system.posix_acl_access/default");
		n = unhex(arg, value, sizeof(value));
		if (n < 0)
			return reply(c, EINVAL, "value is not hex bytes");
		if (lsetxattr(path, hname, value, (size_t)n, 0))
			return reply(c, errno, "lsetxattr failed");
		return reply(c, 0, NULL);
	}
	if (!strcmp(cmd, "REMOVEXATTR")) {
		name = strtok_r(NULL, " ", &save);
		if (!name)
			return reply(c, EINVAL, "usage: REMOVEXATTR path name");
		r = host_name(c, name, hname, sizeof(hname));
		if (r)
			return reply(c, -r, "only system.posix_acl_access/default");
		if (lremovexattr(path, hname))
			return reply(c, errno, "lremovexattr failed");
		return reply(c, 0, NULL);
	}
	if (!strcmp(cmd, "CHMOD")) {
		unsigned long mode;
		char *end;

		arg = strtok_r(NULL, " ", &save);
		if (!arg)
			return reply(c, EINVAL, "usage: CHMOD path octal");
		errno = 0;
		mode = strtoul(arg, &end, 8);
		if (errno || *end || mode > 07777)
			return reply(c, EINVAL, "mode is not octal 0..07777");
		if (c->no_chmod)
			return reply(c, EOPNOTSUPP,
				     "this server does not show a host chmod to the guest");
		if (fchmodat(AT_FDCWD, path, (mode_t)mode, 0))
			return reply(c, errno, "chmod failed");
		return reply(c, 0, NULL);
	}
	return reply(c, EINVAL, "unknown request");
}

static int serve(struct ctx *c)
{
	static char line[MAX_LINE];
	size_t len;

	while (fgets(line, sizeof(line), c->in)) {
		len = strlen(line);
		if (len && line[len - 1] != '\n' && !feof(c->in)) {
			int ch;

			/* Too long: drop the rest of it, answer once. */
			while ((ch = fgetc(c->in)) != EOF && ch != '\n')
				;
			logf_("request over %zu bytes", sizeof(line));
			reply(c, E2BIG, "request line too long");
			continue;
		}
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		/* Log the request without a 128 KiB hex tail. */
		logf_("%.200s%s", line, len > 200 ? "..." : "");
		handle(c, line);
	}
	logf_("channel closed");
	return 0;
}

static int listen_on(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char tmp[sizeof(sa.sun_path)];
	int fd;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		fprintf(stderr, "acl9p-hostctl: socket path too long: %s\n", path);
		return -1;
	}
	strcpy(sa.sun_path, tmp);
	unlink(tmp);
	unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(fd, 1) || rename(tmp, path)) {
		fprintf(stderr, "acl9p-hostctl: listen on %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return fd;
}

static int usage(void)
{
	fprintf(stderr, "usage: acl9p-hostctl [--prefix P] [--cannot WORDS] EXPORT --socket PATH | --stdio\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct ctx c = { .prefix = "" };
	const char *sock = NULL;
	bool stdio = false;
	struct stat st;
	int i, lfd, fd;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--stdio"))
			stdio = true;
		else if (i + 1 == argc && argv[i][0] == '-')
			return usage();
		else if (!strcmp(argv[i], "--prefix"))
			c.prefix = argv[++i];
		else if (!strcmp(argv[i], "--cannot"))
			c.no_chmod = strstr(argv[++i], "host-chmod") != NULL;
		else if (!strcmp(argv[i], "--socket"))
			sock = argv[++i];
		else if (argv[i][0] != '-' && !c.export)
			c.export = argv[i];
		else
			return usage();
	}
	if (!c.export || stdio == (sock != NULL))
		return usage();
	if (stat(c.export, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "acl9p-hostctl: export %s is not a directory\n",
			c.export);
		return 2;
	}
	if (stdio) {
		c.in = stdin;
		c.out = stdout;
		return serve(&c);
	}
	lfd = listen_on(sock);
	if (lfd < 0)
		return 1;
	logf_("listening on %s, export %s, prefix '%s'%s", sock, c.export,
	      c.prefix, c.no_chmod ? ", no host chmod" : "");
	/* One VM, one connection: QEMU connects at start-up. */
	fd = accept(lfd, NULL, NULL);
	if (fd < 0) {
		fprintf(stderr, "acl9p-hostctl: accept: %s\n", strerror(errno));
		return 1;
	}
	close(lfd);
	unlink(sock);
	c.in = fdopen(fd, "r");
	c.out = fdopen(dup(fd), "w");
	if (!c.in || !c.out) {
		fprintf(stderr, "acl9p-hostctl: fdopen: %s\n", strerror(errno));
		return 1;
	}
	return serve(&c);
}
