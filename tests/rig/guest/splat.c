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
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

/*
 * First what failslab prints for a failure it injects on purpose (the
 * allocation-failure tests, tests/allocfail.c): its stack is no report
 * (tests/lib/kernel-reports: quiet), so the cell must count one report,
 * the WARNING after it, not two.
 */
TEST(kmsg_takes_an_injected_failure_and_a_warning_record)
{
	static const char *const quiet[] = {
		/* KERN_NOTICE really: allocfail lets that reach the console */
		"<4>FAULT_INJECTION: forcing a failure.\n",
		"<4>Call Trace:\n",
		"<4> <TASK>\n",
		"<4> acl9p_rig_fake_frame+0x1/0x2\n",
		"<4> </TASK>\n",
	};
	size_t i;
	/* one write is one record; a split one would not match */
	static const char rec[] =
		"<4>WARNING: acl9p rig self-test, not a kernel bug\n";
	int fd = open("/dev/kmsg", O_WRONLY);

	ASSERT_LE(0, fd);
	for (i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
		ASSERT_EQ((ssize_t)strlen(quiet[i]),
			  write(fd, quiet[i], strlen(quiet[i])));
	ASSERT_EQ((ssize_t)sizeof(rec) - 1, write(fd, rec, sizeof(rec) - 1));
	close(fd);
}

TEST_HARNESS_MAIN
