// SPDX-License-Identifier: GPL-2.0
/* Environment, work directories, files, HOSTCHECK lines, libacl wrappers. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <sys/acl.h>
#include <acl/libacl.h>

#include "acl9p.h"
#include "digest.h"

const char *a9_env(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return (v && *v) ? v : dflt;
}

const char *a9_mnt(void)
{
	return a9_env("ACL9P_MNT", "/mnt/share");
}

const char *a9_local(void)
{
	return a9_env("ACL9P_LOCAL", "/mnt/local");
}

bool a9_acl_required(void)
{
	return strcmp(a9_env("ACL9P_REQUIRE_ACL", "0"), "1") == 0;
}

int a9_race_ms(void)
{
	int ms = atoi(a9_env("ACL9P_RACE_MS", "1000"));
	/* a slow kernel flavour races as many iterations, not as long */
	int scale = atoi(a9_env("ACL9P_TIMEOUT_SCALE", "1"));

	/* the one sign that a test runs for a window: its requests count
	 * how far it got, not what an operation costs */
	a9_mark_timed();

	return (ms > 0 ? ms : 1000) * (scale > 1 && scale <= 100 ? scale : 1);
}

void a9_drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	sync();
	if (fd >= 0) {
		ssize_t w = write(fd, "3", 1);

		(void)w;
		close(fd);
	}
}

const char *a9_binary(void)
{
	return program_invocation_short_name;
}

char *a9_path(char *buf, const char *dir, const char *name)
{
	if (snprintf(buf, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX)
		abort();
	return buf;
}

static int rm_cb(const char *p, const struct stat *sb, int type,
		 struct FTW *ftw)
{
	(void)sb; (void)ftw;
	if (type == FTW_DP)
		return rmdir(p) ? -errno : 0;
	return unlink(p) ? -errno : 0;
}

int a9_rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) ? -errno : 0;
	return nftw(path, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

int a9_mkdir(const char *path, mode_t mode)
{
	if (mkdir(path, mode))
		return -errno;
	if (chmod(path, mode))
		return -errno;
	return 0;
}

int a9_mkworkdir(const char *root, const char *name, char *out, size_t outsz)
{
	int r;

	if ((size_t)snprintf(out, outsz, "%s/%s", root, name) >= outsz)
		return -ENAMETOOLONG;
	r = a9_rm_rf(out);
	if (r)
		return r;
	return a9_mkdir(out, 0755);
}

int a9_mkfile(const char *path, mode_t mode, const char *content)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
	int r = 0;

	if (fd < 0)
		return -errno;
	if (content && write(fd, content, strlen(content)) !=
	    (ssize_t)strlen(content))
		r = -EIO;
	if (!r && fchmod(fd, mode))
		r = -errno;
	if (close(fd) && !r)
		r = -errno;
	return r;
}

int a9_create(const char *path, mode_t mode)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, mode);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int a9_fsync_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	int r = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		r = -errno;
	close(fd);
	return r;
}

int a9_mode(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return -errno;
	return (int)(st.st_mode & 07777);
}

ssize_t a9_read_file(const char *path, char *buf, size_t sz)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sz - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = 0;
	close(fd);
	return n;
}

int a9_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		r = -errno;
	close(fd);
	return r;
}

int a9_probe_acl(const char *dir)
{
	char p[4096];
	int r;

	snprintf(p, sizeof(p), "%s/.acl9p-probe", dir);
	unlink(p);
	r = a9_mkfile(p, 0644, NULL);
	if (r)
		return r;
	r = a9_set_text(p, A9_XA_ACCESS, "u::rw-,u:1001:r--,g::r--,m::r--,o::r--");
	unlink(p);
	return r;
}

void a9_hostcheck(const char *path, const char *name, const void *value,
		  size_t len)
{
	static char hex[2 * A9_XATTR_SIZE_MAX + 2];
	const char *mnt = a9_mnt();
	size_t ml = strlen(mnt);
	const char *rel = path;

	/* A guest-local share (server/local-tmpfs.sh): the bytes the guest reads
	 * back are the only ones there are, and the test checks those. */
	if (getenv("ACL9P_NOHOST"))
		return;
	a9_fsync_path(path);
	sync();
	if (!strncmp(path, mnt, ml) && (path[ml] == '/' || !path[ml])) {
		rel = path + ml;
		while (*rel == '/')
			rel++;
	}
	if (value && len > A9_HOSTCHECK_MAX)
		/* a 128 KiB hex line is too slow for a serial console */
		snprintf(hex, sizeof(hex), "digest:%zu:%016llx", len,
			 (unsigned long long)a9_fnv1a64(value, len));
	else if (value)
		a9_hex(value, len, hex, sizeof(hex));
	fflush(stderr);
	fflush(stdout);
	printf("# HOSTCHECK %s %s %s\n", *rel ? rel : ".", name,
	       value ? hex : "absent");
	fflush(stdout);
}

void a9_hostcheck_text(const char *path, const char *name, const char *text)
{
	static unsigned char buf[A9_XATTR_SIZE_MAX + 64];
	ssize_t n;

	if (!text) {
		a9_hostcheck(path, name, NULL, 0);
		return;
	}
	n = a9_build(buf, sizeof(buf), text);
	a9_hostcheck(path, name, buf, n < 0 ? 0 : (size_t)n);
}

int a9_lib_get_text(const char *path, int deflt, char *out, size_t outsz)
{
	acl_t acl = acl_get_file(path, deflt ? ACL_TYPE_DEFAULT : ACL_TYPE_ACCESS);
	char *t;

	out[0] = 0;
	if (!acl)
		return -errno;
	t = acl_to_any_text(acl, NULL, ',', TEXT_ABBREVIATE | TEXT_NUMERIC_IDS);
	acl_free(acl);
	if (!t)
		return -errno;
	snprintf(out, outsz, "%s", t);
	acl_free(t);
	return 0;
}

int a9_lib_set_text(const char *path, int deflt, const char *text)
{
	acl_t acl = acl_from_text(text);
	int r = 0;

	if (!acl)
		return -errno;
	if (acl_set_file(path, deflt ? ACL_TYPE_DEFAULT : ACL_TYPE_ACCESS, acl))
		r = -errno;
	acl_free(acl);
	return r;
}

void a9_strreplace(char *s, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to);
	char *p;

	if (!fl || tl > fl)
		return;
	while ((p = strstr(s, from))) {
		memcpy(p, to, tl);
		memmove(p + tl, p + fl, strlen(p + fl) + 1);
		s = p + tl;
	}
}

static int cmp_block(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int a9_sort_blocks(char *s)
{
	size_t len = strlen(s), n = 0, cap = 64, i, at = 0;
	char *copy = malloc(len + 1), **blocks = malloc(cap * sizeof(*blocks));
	char *p, *q;

	if (!copy || !blocks) {
		free(copy);
		free(blocks);
		return -ENOMEM;
	}
	memcpy(copy, s, len + 1);
	for (p = copy; *p; p = q + 2) {
		if (n == cap) {
			char **more = realloc(blocks, 2 * cap * sizeof(*blocks));

			if (!more) {
				free(copy);
				free(blocks);
				return -ENOMEM;
			}
			blocks = more;
			cap *= 2;
		}
		blocks[n++] = p;
		q = strstr(p, "\n\n");
		if (!q)
			break;
		q[1] = 0;
	}
	qsort(blocks, n, sizeof(*blocks), cmp_block);
	/*
	 * each block as it was, then the blank line that ended it; the
	 * last one may have had none, so never past s's own length
	 */
	for (i = 0; i < n && at < len; i++) {
		size_t bl = strlen(blocks[i]);

		bl = bl < len - at ? bl : len - at;
		memcpy(s + at, blocks[i], bl);
		at += bl;
		if (at < len)
			s[at++] = '\n';
	}
	s[at] = 0;
	free(copy);
	free(blocks);
	return 0;
}
