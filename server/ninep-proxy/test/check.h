/* The proxy self-tests' assertion: count it, or name the failed
 * condition (CHECK_PROG: the test program) and exit 1. */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static unsigned long checks;

#define CHECK(cond, ...) do {						\
	checks++;							\
	if (!(cond)) {							\
		fprintf(stderr, "%s: %s:%d: %s: ", CHECK_PROG, __FILE__, \
			__LINE__, #cond);				\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		exit(1);						\
	}								\
} while (0)

#endif
