// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p-hostcheck: the host half of the tests.
 *
 * Guest tests print "# HOSTCHECK <path> <xattr> <hex|absent|digest:...>" once they
 * have written an ACL and synced it: the bytes they expect the server to
 * have stored for <path> (relative to the export).  After the VM exits,
 * this program reads the cell's KTAP on stdin, looks at the export on
 * the host and prints one KTAP result per check on stdout (a KTAP
 * document of its own, hostcheck.ktap next to the guest's ktap.txt).
 *
 * Where the server keeps the bytes depends on it (its hook
 * SERVER_XATTR_PREFIX, server/README.md): passthrough and diod store
 * the guest's system.posix_acl_* as the host's own xattrs (no prefix);
 * QEMU's mapped-xattr model keeps them in user.virtfs.<name>.
 *
 * usage: acl9p-hostcheck [--prefix PREFIX] EXPORT < ktap.txt > hostcheck.ktap
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "../lib/digest.h"

#define MAX_CHECKS	1024
#define MAX_VALUE	65536

struct check {
	char path[512];
	char name[128];
	char hex[2 * MAX_VALUE + 1];
	int absent;
};

static struct check checks[MAX_CHECKS];

static int parse_line(const char *line, struct check *c)
{
	const char *tag = "# HOSTCHECK ";
	const char *p = strstr(line, tag);

	if (!p)
		return 0;
	p += strlen(tag);
	if (sscanf(p, "%511s %127s %131072s", c->path, c->name, c->hex) != 3)
		return -1;
	c->absent = !strcmp(c->hex, "absent");
	/* The path is relative to the export: refuse a way out of it. */
	if (c->path[0] == '/' || strstr(c->path, ".."))
		return -1;
	return 1;
}

static void to_hex(const unsigned char *buf, ssize_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	ssize_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[buf[i] >> 4];
		out[2 * i + 1] = digits[buf[i] & 15];
	}
	out[2 * len] = '\0';
}

/*
 * Returns 1 when the host holds what the guest expected; otherwise says
 * why on a KTAP diagnostic line, which precedes the "not ok" line.
 */
static int run_check(const char *prefix, const char *export,
		     const struct check *c)
{
	static unsigned char buf[MAX_VALUE];
	static char got[2 * MAX_VALUE + 1];
	char path[1024], name[160];
	ssize_t len;

	snprintf(path, sizeof(path), "%s/%s", export, c->path);
	snprintf(name, sizeof(name), "%s%s", prefix, c->name);

	len = lgetxattr(path, name, buf, sizeof(buf));
	if (len < 0) {
		if (errno == ENODATA && c->absent)
			return 1;
		printf("# host %s of %s: %s (expected %s)\n",
			 name, c->path, strerror(errno),
			 c->absent ? "absent" : c->hex);
		return 0;
	}
	/* a value too long for a hex line: its length and digest */
	if (!strncmp(c->hex, "digest:", 7))
		snprintf(got, sizeof(got), "digest:%zd:%016llx", len,
			 (unsigned long long)a9_fnv1a64(buf, (size_t)len));
	else
		to_hex(buf, len, got);
	if (c->absent) {
		printf("# host %s of %s holds %s (expected absent)\n",
			 name, c->path, got);
		return 0;
	}
	if (strcasecmp(got, c->hex) != 0) {
		printf("# host %s of %s holds %s (expected %s)\n",
			 name, c->path, got, c->hex);
		return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	static char line[2 * MAX_VALUE + 1024];
	const char *prefix = "", *export;
	int n = 0, bad = 0, i;

	if (argc == 4 && !strcmp(argv[1], "--prefix")) {
		prefix = argv[2];
		export = argv[3];
	} else if (argc == 2 && argv[1][0] != '-') {
		export = argv[1];
	} else {
		fprintf(stderr, "usage: acl9p-hostcheck [--prefix PREFIX] EXPORT < ktap\n");
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		int r;

		if (n == MAX_CHECKS) {
			fprintf(stderr, "acl9p-hostcheck: more than %d checks\n",
				MAX_CHECKS);
			break;
		}
		r = parse_line(line, &checks[n]);
		if (r < 0)
			fprintf(stderr, "acl9p-hostcheck: malformed: %s", line);
		else if (r > 0)
			n++;
	}
	printf("KTAP version 1\n1..%d\n", n);
	for (i = 0; i < n; i++) {
		int ok = run_check(prefix, export, &checks[i]);

		int j, dup = 0;

		/* A name checked again gets a suffix: KTAP names stay unique. */
		for (j = 0; j < i; j++)
			dup += !strcmp(checks[j].path, checks[i].path) &&
			       !strcmp(checks[j].name, checks[i].name);
		printf("%sok %d host.%s.%s", ok ? "" : "not ", i + 1,
		       checks[i].path, checks[i].name);
		printf(dup ? ".%d\n" : "\n", dup + 1);
		bad += !ok;
	}
	printf("# Totals: pass:%d fail:%d\n", n - bad, bad);
	return bad ? 1 : 0;
}
