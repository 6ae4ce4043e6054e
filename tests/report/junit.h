/* R/junit.xml for CI: one testsuite per cell (classname = cell), plus
 * one for the A/B differential. */
#ifndef ACL9P_REPORT_JUNIT_H
#define ACL9P_REPORT_JUNIT_H

#include "cells.h"
#include "diff.h"

/* Returns 0, or -1 with errno set. */
int junit_write(const char *path, const struct run *r, const struct diff_result *d);

#endif
