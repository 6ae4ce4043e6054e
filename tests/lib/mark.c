// SPDX-License-Identifier: GPL-2.0
/* Per-test traffic markers: see acl9p.h ("per-test traffic markers"). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl9p.h"

/* The counter's last N (0 when empty), under the caller's lock. */
static long read_counter(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return n < 0 ? -errno : 0;
	buf[n] = 0;
	return strtol(buf, NULL, 10);
}

static int write_counter(int fd, long n)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%ld\n", n);

	if (pwrite(fd, buf, (size_t)len, 0) != len)
		return -EIO;
	return ftruncate(fd, len) ? -errno : 0;
}

/* this process' test, named by its marker (the harness forks one per
 * test, so a static is the test's own) */
static char current[512];

int a9_mark(const char *test)
{
	int fd = open(A9_MARK_COUNTER, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	long n = -1;
	int r = 0;

	snprintf(current, sizeof(current), "%s", test);
	if (fd < 0 || flock(fd, LOCK_EX)) {
		r = -errno;
	} else if ((n = read_counter(fd)) < 0) {
		r = (int)n;
	} else {
		n++;
		r = write_counter(fd, n);
	}
	if (r) {
		printf("# acl9p-mark none %s: %s: %s\n", test, A9_MARK_COUNTER,
		       a9_errname(r));
	} else {
		/* mtime only (atime UTIME_OMIT), as guest/wire.sh's touch -m:
		 * one Tsetattr whose mtime is the marker */
		struct timespec ts[2] = {
			{ .tv_nsec = UTIME_OMIT },
			{ .tv_sec = A9_MARK_EPOCH + n },
		};

		/* under the lock: markers leave in the order of their N */
		if (utimensat(AT_FDCWD, a9_mnt(), ts, 0))
			r = -errno;
		printf("# acl9p-mark %ld %s%s%s\n", n, test,
		       r ? " not sent: " : "", r ? a9_errname(r) : "");
	}
	fflush(stdout);
	if (fd >= 0)
		close(fd);	/* and the lock with it */
	return r;
}

void a9_mark_timed(void)
{
	static bool said;

	if (!current[0] || said)
		return;	/* not marked (by hand, on the host), or said so */
	said = true;
	fflush(stdout);
	printf("# acl9p-mark timed %s\n", current);
	fflush(stdout);
}
