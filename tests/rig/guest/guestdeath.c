// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_rig_guestdeath: the guest half of tests/rig/guest-death.sh.
 * Sets a deterministic sequence of valid access ACLs on one file of the
 * share, as fast as it goes, until the host kills QEMU (SIGKILL) under
 * it; the host then reads what its export holds.  Never in the matrix
 * (ACL9P_TESTS_DIR=/tests/rig).
 *
 * Value k (k = 0 is set first, then 1, 2, ...) is a pure function of k,
 * the same as acl9p_faults' loop values (tests/faults.c, loop_text) and
 * guest-death.sh's value_hex:
 *   u::rw-, u:(2000+k):{r--,rw-,r-x}[k%3], g::r--, m::{r--,rw-}[k%2],
 *   o::{---,r--}[k/2%2]
 * as the kernel stores it (ACL xattr version 2, little endian, entries
 * in the kernel's order).  Two consecutive values differ in the named
 * entry and in the mask: a mix of two is neither.
 *
 * On the results port: "# guestdeath: start" once value 0 is set, then
 * "# guestdeath: acked K" after each setxattr of value K returned 0
 * (what the host reads must be that value or a later one), and
 * "# guestdeath: done" or an error if it ever ends by itself (after
 * LIMIT_S: the host did not kill it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define NAME		"acl9p-guestdeath"
#define XA		"system.posix_acl_access"
#define LEN		(4 + 5 * 8)
#define LIMIT_S		60

static unsigned char *put(unsigned char *p, uint16_t tag, uint16_t perm,
			  uint32_t id)
{
	p[0] = tag & 0xff;
	p[1] = tag >> 8;
	p[2] = perm & 0xff;
	p[3] = perm >> 8;
	p[4] = id & 0xff;
	p[5] = (id >> 8) & 0xff;
	p[6] = (id >> 16) & 0xff;
	p[7] = id >> 24;
	return p + 8;
}

static void value(unsigned char *v, unsigned long k)
{
	static const uint16_t named[] = { 4, 6, 5 };
	unsigned char *p = v + 4;

	v[0] = 2;
	v[1] = v[2] = v[3] = 0;
	p = put(p, 0x01, 6, 0xffffffff);			/* u:: */
	p = put(p, 0x02, named[k % 3], (uint32_t)(2000 + k));	/* u:id: */
	p = put(p, 0x04, 4, 0xffffffff);			/* g:: */
	p = put(p, 0x10, k % 2 ? 6 : 4, 0xffffffff);		/* m:: */
	put(p, 0x20, k / 2 % 2 ? 4 : 0, 0xffffffff);		/* o:: */
}

int main(void)
{
	const char *mnt = getenv("ACL9P_MNT");
	unsigned char v[LEN];
	char path[512];
	struct timespec t0, t;
	unsigned long k;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(path, sizeof(path), "%s/" NAME, mnt ? mnt : "/mnt/share");
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0640);
	if (fd < 0 || fchmod(fd, 0640) || close(fd)) {
		printf("# guestdeath: create %s: %s\nnot ok 1 guestdeath\n",
		       path, strerror(errno));
		return 1;
	}
	value(v, 0);
	if (setxattr(path, XA, v, sizeof(v), 0)) {
		printf("# guestdeath: set 0: %s\nnot ok 1 guestdeath\n",
		       strerror(errno));
		return 1;
	}
	printf("# guestdeath: start %s\n", path);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (k = 1;; k++) {
		value(v, k);
		if (setxattr(path, XA, v, sizeof(v), 0)) {
			printf("# guestdeath: set %lu: %s\nnot ok 1 guestdeath\n",
			       k, strerror(errno));
			return 1;
		}
		printf("# guestdeath: acked %lu\n", k);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > LIMIT_S)
			break;
	}
	printf("# guestdeath: done after %lu values, not killed\nnot ok 1 guestdeath\n", k);
	return 1;
}
