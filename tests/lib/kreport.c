// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel reports that appear in /dev/kmsg while a test runs, told apart
 * from the rest of the log by the rules of tests/lib/kernel-reports,
 * the file scripts/boot.sh reads for the console (tests/Makefile
 * compiles it in as kernel_reports.h): the same lines, grouped the same
 * way, so that what fails a test here is what the console pseudo-test
 * console.kernel_reports shows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "acl9p.h"

struct rule {
	const char *kind;
	const char *re;
};

#define A9_KREPORT_RULE(kind, re) { kind, re },
static const struct rule rules[] = {
#include "kernel_reports.h"
};
#undef A9_KREPORT_RULE
#define NRULES (sizeof(rules) / sizeof(rules[0]))

/* a report without an end marker (lockdep, hung tasks) ends this late */
#define REPORT_LINES	200

enum kind { K_REPORT, K_TRACE, K_QUIET, K_END, K_NONE };

static regex_t compiled[NRULES];
static enum kind kinds[NRULES];
static int ready;	/* 1 compiled, -errno failed */

static int compile(void)
{
	size_t i;

	if (ready)
		return ready < 0 ? ready : 0;
	ready = -EINVAL;
	for (i = 0; i < NRULES; i++) {
		if (!strcmp(rules[i].kind, "report"))
			kinds[i] = K_REPORT;
		else if (!strcmp(rules[i].kind, "trace"))
			kinds[i] = K_TRACE;
		else if (!strcmp(rules[i].kind, "quiet"))
			kinds[i] = K_QUIET;
		else if (!strcmp(rules[i].kind, "end"))
			kinds[i] = K_END;
		else
			return ready;
		if (regcomp(&compiled[i], rules[i].re, REG_EXTENDED | REG_NOSUB))
			return ready;
	}
	ready = NRULES ? 1 : -EINVAL;
	return ready < 0 ? ready : 0;
}

static enum kind classify(const char *line)
{
	enum kind k = K_NONE;
	size_t i;

	for (i = 0; i < NRULES; i++) {
		if (regexec(&compiled[i], line, 0, NULL, 0))
			continue;
		if (kinds[i] == K_REPORT)
			return K_REPORT;
		if (k == K_NONE || kinds[i] == K_TRACE)
			k = kinds[i];
	}
	return k;
}

int a9_kmsg_open(void)
{
	int fd, r;

	r = compile();
	if (r)
		return r;
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_END) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	return fd;
}

ssize_t a9_kmsg_next(int fd, char *rec, size_t sz, char **msg)
{
	for (;;) {
		ssize_t len = read(fd, rec, sz - 1);
		char *nl;

		if (len < 0 && errno == EINTR)
			continue;
		if (len < 0)
			return errno == EAGAIN ? 0 : -errno;
		if (len == 0)
			return 0;
		rec[len] = 0;
		/* "prio,seq,usec,flags;text\n" then " KEY=value" lines */
		*msg = strchr(rec, ';');
		if (!*msg)
			continue;
		(*msg)++;
		nl = strchr(*msg, '\n');
		if (nl)
			*nl = 0;
		return len;
	}
}

int a9_kmsg_reports(int fd, char (*out)[A9_KREPORT_LEN], int max)
{
	/* a record is at most 1 KiB of text in 6.1 (escaped: 4 times) */
	char rec[8192];
	int n = 0, open = 0, age = 0, lost = 0;

	for (;;) {
		char *msg;
		ssize_t len = a9_kmsg_next(fd, rec, sizeof(rec), &msg);
		enum kind k;

		/* overwritten before we read them: say so, as a report */
		if (len == -EPIPE) {
			lost = 1;
			continue;
		}
		if (len < 0)
			return (int)len;
		if (len == 0)
			break;
		if (open && ++age > REPORT_LINES)
			open = 0;
		k = classify(msg);
		if (k == K_REPORT || (k == K_TRACE && !open)) {
			if (n < max)
				snprintf(out[n], A9_KREPORT_LEN, "%s", msg);
			n++;
			open = 1;
			age = 0;
		} else if (k == K_QUIET) {
			/* no report; its trace is not one either */
			open = 1;
			age = 0;
		} else if (k == K_END) {
			open = 0;
		}
	}
	if (lost) {
		if (n < max)
			snprintf(out[n], A9_KREPORT_LEN,
				 "/dev/kmsg: records lost before they were read (EPIPE)");
		n++;
	}
	return n;
}
