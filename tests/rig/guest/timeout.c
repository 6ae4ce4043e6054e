// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_rig_timeout: proves that the harness' per-test timeout works in
 * the rig's guest kernel.  The harness arms alarm() around each test and
 * kills the test when SIGALRM fires; a kernel without POSIX timers
 * answers alarm() with ENOSYS and the hung test runs on until the init
 * kills the whole binary.  Run by tests/rig/run.sh (ACL9P_TESTS_DIR=
 * /tests/rig), never in the matrix.
 */
#include <unistd.h>

#include "kselftest_harness.h"

FIXTURE(rig) {
	int unused;
};

FIXTURE_SETUP(rig)
{
}

FIXTURE_TEARDOWN(rig)
{
}

/* must be reported "not ok" with "Test terminated by timeout" */
TEST_F_TIMEOUT(rig, hangs_past_its_timeout, 2)
{
	sleep(60);
}

/* and the binary goes on with the next test */
TEST_F(rig, runs_after_the_hung_one)
{
	ASSERT_EQ(2, 1 + 1);
}

TEST_HARNESS_MAIN
