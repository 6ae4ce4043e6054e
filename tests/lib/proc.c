// SPDX-License-Identifier: GPL-2.0
/* Child processes: identity switching with libcap-ng, running tools. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cap-ng.h>

#include "acl9p.h"

static int switch_id(const struct a9_cred *c)
{
	gid_t g[16];
	int n, i;

	if (setgroups((size_t)c->ngroups, c->groups))
		return -1;
	capng_clear(CAPNG_SELECT_BOTH);
	for (i = 0; i < c->ncaps; i++)
		if (capng_update(CAPNG_ADD, CAPNG_EFFECTIVE | CAPNG_PERMITTED,
				 (unsigned int)c->caps[i]))
			return -1;
	if (capng_change_id((int)c->uid, (int)c->gid, CAPNG_NO_FLAG))
		return -1;
	/* verify */
	if (getuid() != c->uid || geteuid() != c->uid ||
	    getgid() != c->gid || getegid() != c->gid)
		return -1;
	n = getgroups(16, g);
	if (n != c->ngroups)
		return -1;
	capng_get_caps_process();
	for (i = 0; i <= CAP_LAST_CAP; i++) {
		int want = 0, k;

		for (k = 0; k < c->ncaps; k++)
			if (c->caps[k] == i)
				want = 1;
		if (!!capng_have_capability(CAPNG_EFFECTIVE, (unsigned int)i) != want)
			return -1;
	}
	return 0;
}

int a9_run_as(const struct a9_cred *c, a9_fn fn, void *arg)
{
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int r;

		umask(022);
		if (switch_id(c))
			_exit(A9_NOSWITCH);
		r = fn(arg);
		fflush(stdout);
		fflush(stderr);
		_exit(r < 0 ? -r : r);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	if (!WIFEXITED(st))
		return -1;
	if (WEXITSTATUS(st) == A9_NOSWITCH)
		return -A9_NOSWITCH;
	return WEXITSTATUS(st);
}

int a9_fn_open(void *arg)
{
	const struct a9_open_arg *a = arg;
	int fd = open(a->path, a->flags, a->mode);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

const char *a9_tool(const char *name)
{
	static char buf[4][64];
	static int slot;
	char *p = buf[slot++ & 3];

	snprintf(p, 64, "/bin/%s", name);
	if (access(p, X_OK) == 0)
		return p;
	snprintf(p, 64, "/usr/bin/%s", name);
	return p;
}

int a9_run_cmd(const char *cwd, char *const argv[], char *out, size_t outsz,
	       char *err, size_t errsz)
{
	int po[2], pe[2];
	size_t no = 0, ne = 0;
	pid_t pid;
	int st;
	struct pollfd pf[2];
	int open_fds = 2;

	if (out && outsz)
		out[0] = 0;
	if (err && errsz)
		err[0] = 0;
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC))
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		if (cwd && chdir(cwd))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	pf[0].fd = po[0];
	pf[1].fd = pe[0];
	pf[0].events = pf[1].events = POLLIN;
	while (open_fds) {
		int i;

		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			char tmp[4096];
			ssize_t r;
			char *dst = i ? err : out;
			size_t *len = i ? &ne : &no;
			size_t cap = i ? errsz : outsz;

			if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			r = read(pf[i].fd, tmp, sizeof(tmp));
			if (r <= 0) {
				close(pf[i].fd);
				pf[i].fd = -1;
				open_fds--;
				continue;
			}
			if (dst && cap) {
				size_t c = (size_t)r;

				if (*len + c > cap - 1)
					c = cap - 1 - *len;
				memcpy(dst + *len, tmp, c);
				*len += c;
				dst[*len] = 0;
			}
		}
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}
