// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_rig_splat: writes a fake splat line into the kernel log, so that
 * tests/rig/run.sh can check that boot.sh fails a cell on it although
 * every test passed.  KERN_WARNING is the level WARN() and lockdep
 * reports print at: the console loglevel must let it through.  The
 * marker text is not on the kernel command line, which the kernel
 * echoes to the log.  Never in the matrix.
 */
#include <fcntl.h>
#include <unistd.h>

#include "kselftest_harness.h"

TEST(kmsg_takes_a_warning_record)
{
	/* one write is one record; a split one would not match */
	static const char rec[] =
		"<4>WARNING: acl9p rig self-test, not a kernel bug\n";
	int fd = open("/dev/kmsg", O_WRONLY);

	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)sizeof(rec) - 1, write(fd, rec, sizeof(rec) - 1));
	close(fd);
}

TEST_HARNESS_MAIN
