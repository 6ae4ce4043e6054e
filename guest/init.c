// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p guest init: PID 1 of the test VM.
 *
 * It mounts the pseudo filesystems and the 9p share, runs the job (the
 * test binaries, the demo script or an interactive shell), and ends the
 * VM through QEMU's isa-debug-exit port so that the host learns how the
 * guest ended.  Test output goes to the second serial port, raw, so the
 * console log (first port) can carry kernel messages without mixing
 * them into the KTAP stream.
 *
 * It is configured the kernel's own way: boot parameters without a dot
 * that the kernel does not know reach PID 1 as environment (init/main.c,
 * at most CONFIG_INIT_ENV_ARG_LIMIT of them).  scripts/boot.sh composes
 * them from the cell (tests/matrix.conf, server/NAME.sh); the init only
 * reads them, and the tests inherit them:
 *   ACL9P_MODE        check | demo | wire | bench | fuzz | shell | run
 *                     (default check); wire runs the 9P request count script
 *                     (scripts/wire.sh), bench /bin/acl9p-bench
 *                     (scripts/bench.sh; its ACL9P_BENCH_* parameters
 *                     are its own, ACL9P_BENCH_LIMIT its time limit in
 *                     seconds, default 600), fuzz /bin/acl9p-fuzz
 *                     (scripts/fuzz.sh; ACL9P_FUZZ_* its parameters,
 *                     ACL9P_FUZZ_LIMIT its time limit, default 600);
 *                     run the command of the file ACL9P_RUN names
 *                     (scripts/shell.sh --run; ACL9P_RUN_LIMIT its limit)
 *   ACL9P_ROOT        initramfs (default) | host: the root is the host's
 *                     / over 9p, read-only (scripts/boot.sh --root host);
 *                     the init gives the guest tmpfs where it writes, and
 *                     takes the host's tools (PATH, bash)
 *   ACL9P_ROOT_SRC, ACL9P_ROOT_OPTS
 *                     with ACL9P_ROOT=host, for a kernel whose 9p is a
 *                     module: the 9p source and options of the host's /,
 *                     which this init, run from the initramfs, mounts
 *                     and enters itself
 *   ACL9P_FUSED       the FUSE daemon of the local-fuse cells (default
 *                     /bin/acl9p-fused of the initramfs)
 *   ACL9P_SRC, ACL9P_OPTS
 *                     9p mount source and options of the share under test
 *   ACL9P_FSTYPE      its filesystem type (default 9p; tmpfs, ext4 for
 *                     the guest-local cells; fuse: ACL9P_SRC is the
 *                     backing directory of the guest's acl9p-fused and
 *                     ACL9P_OPTS its option, "-" for none)
 *   ACL9P_NOACL_SRC, ACL9P_NOACL_OPTS
 *                     the same export without posixacl (check mode; a 9p
 *                     share only: unset, there is no second mount, and
 *                     the tests that need one skip)
 *   ACL9P_OWN_SRC     a 9p share: the source a test mounts (with
 *                     ACL9P_OPTS) for a connection of its own
 *   ACL9P_NOHOST      1: the share has no host side (no control channel,
 *                     no host checks)
 *   ACL9P_PROBE_OPTS  options of a probe mount of the second source with
 *                     posixacl; when set, ACL9P_REQUIRE_ACL=auto is
 *                     decided from it (see export_acl_requirement)
 *   ACL9P_REQUIRE_ACL 1 | 0 | auto: whether ACL tests fail or may skip
 *                     when the share refuses ACLs
 *   ACL9P_TESTS       glob over the test binaries without the acl9p_
 *                     prefix (default: all; fnmatch with FNM_EXTMATCH,
 *                     so @(concurrency|modesync) names two)
 *   ACL9P_REPEAT      N: run the selected binaries N times over, one
 *                     KTAP line per binary per round (scripts/flaky.sh:
 *                     a race's failure rate, not one run's outcome)
 *   ACL9P_TESTS_DIR   where the binaries are (default /tests; the rig's
 *                     own tests use /tests/rig)
 *   ACL9P_TIMEOUT_SCALE  N: every time limit of a test or binary times N
 *                     (a slow kernel flavour's command line, matrix.conf)
 *   ip                the kernel's ip= parameter, when the kernel did not
 *                     take it (no CONFIG_IP_PNP: a distribution's
 *                     kernel): configured by the init (guest/modules.c)
 * The rest (ACL9P_CELL, ACL9P_SERVER, ACL9P_HOSTCTL, ...) is for the
 * tests only.  A kernel with modules finds them in /lib/modules/acl9p
 * (scripts/distro-kernel.sh) and the init loads them first.
 *
 * The results port carries one KTAP document (as kselftest's runner
 * nests its binaries): a plan over the binaries, each binary's own
 * output indented by four spaces as its subtests, then "ok N name",
 * "not ok N name" or "not ok N name # TIMEOUT 120", and a diagnostic
 * "# time_ms name MS".
 *
 * Guest exit codes (QEMU exits with code * 2 + 1):
 *   0 the job ran (its own results are in the KTAP stream; a run's
 *     command's exit status on the fourth serial port)
 *   1 setup failed before the job ran (reason on the console)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "modules.h"

#define DEBUG_EXIT_PORT	0xf4
#define SHARE		"/mnt/share"
#define NOACL		"/mnt/noacl"
#define LOCAL		"/mnt/local"
#define RESULTS_TTY	"/dev/ttyS1"
/* a run's command: its stderr, then its exit status (scripts/shell.sh --run) */
#define STDERR_TTY	"/dev/ttyS2"
#define STATUS_TTY	"/dev/ttyS3"
/*
 * What one test binary may run (a harness test has its own timeout),
 * times ACL9P_TIMEOUT_SCALE (acl9p_test.h) on a slow kernel flavour.
 */
#define BINARY_TIMEOUT	120
/* kselftest's "skip" exit status */
#define KSFT_SKIP	4

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("acl9p-init: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/*
 * End the VM.  isa-debug-exit turns the written value into QEMU's exit
 * status; if the device is missing, fall back to a reboot, which
 * -no-reboot also turns into an exit (with status 0, which the host
 * reads as "no verdict").
 */
static void __attribute__((noreturn)) vm_exit(int code)
{
	sync();
	if (ioperm(DEBUG_EXIT_PORT, 4, 1) == 0)
		outl((unsigned int)code, DEBUG_EXIT_PORT);
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

static void __attribute__((noreturn)) fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("acl9p-init: FATAL: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	vm_exit(1);
}

static const char *env(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v && *v ? v : dflt;
}

static const char *must_env(const char *name)
{
	const char *v = getenv(name);

	if (!v || !*v)
		fail("%s is not set: boot through scripts/boot.sh, which passes the cell's settings as kernel parameters",
		     name);
	return v;
}

static void must_mount(const char *src, const char *dst, const char *type,
		       unsigned long flags, const char *opts)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, flags, opts) != 0)
		fail("mount %s on %s (%s, %s): %s", src, dst, type,
		     opts ? opts : "", strerror(errno));
}


/*
 * A FUSE share (server/local-fuse*.sh): there is no mount(2) of it to
 * do here, the guest's FUSE daemon mounts it and then serves it.  src
 * is the daemon's backing directory, made a tmpfs of its own (the store
 * that holds the files and their ACL xattrs); opts are the daemon's
 * options.  The daemon's first process returns once the mount is there.
 */
static void start_fuse(const char *src, const char *dst, const char *opts)
{
	char *argv[6];
	int st, n = 0;
	pid_t pid;

	const char *fused = env("ACL9P_FUSED", "/bin/acl9p-fused");

	must_mount("tmpfs", src, "tmpfs", 0, "mode=0755");
	mkdir(dst, 0755);
	argv[n++] = (char *)fused;
	if (strcmp(opts, "-"))
		argv[n++] = (char *)opts;
	argv[n++] = (char *)src;
	argv[n++] = (char *)dst;
	argv[n] = NULL;
	say("%s %s %s %s", fused, strcmp(opts, "-") ? opts : "", src, dst);
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (!pid) {
		execv(argv[0], argv);
		say("exec %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		fail("%s did not mount %s (see its message above)", fused, dst);
}

static void mount_share(const char *type, const char *src, const char *dst,
			const char *opts)
{
	if (!strcmp(type, "fuse")) {
		start_fuse(src, dst, opts);
		return;
	}
	say("mount -t %s %s %s -o %s", type, src, dst, opts);
	must_mount(src, dst, type, 0, opts);
}

/* whether the 9p mount on dir shows "posixacl" in /proc/mounts */
static bool shows_posixacl(const char *dir)
{
	char line[1024];
	size_t n = strlen(dir);
	bool found = false;
	FILE *f = fopen("/proc/mounts", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *d = strchr(line, ' ');

		if (d && !strncmp(d + 1, dir, n) && d[n + 1] == ' ' &&
		    strstr(d, ",posixacl"))
			found = true;
	}
	if (f)
		fclose(f);
	return found;
}

/*
 * ACL9P_REQUIRE_ACL=auto (a kernel the rig did not build): may ACL tests
 * skip when the share refuses ACLs?  Not when a probe shows 9p ACL
 * support: the second source is mounted briefly with posixacl before
 * its real mount, and v9fs_show_options() prints "posixacl" only when
 * CONFIG_9P_FS_POSIX_ACL is built in.  This works in access=user cells
 * too, where the refusal itself would look like a missing feature.
 */
static void export_acl_requirement(void)
{
	const char *req = env("ACL9P_REQUIRE_ACL", "auto");
	const char *probe = getenv("ACL9P_PROBE_OPTS");
	bool required = false;

	if (strcmp(req, "auto"))
		return;
	if (probe) {
		mkdir(NOACL, 0755);
		if (mount(must_env("ACL9P_NOACL_SRC"), NOACL, "9p", 0,
			  probe) == 0) {
			required = shows_posixacl(NOACL);
			umount2(NOACL, 0);
		} else {
			say("ACL probe mount failed: %s", strerror(errno));
		}
	}
	if (probe)
		say("9p POSIX ACL support in this kernel: %s",
		    required ? "yes" : "no (ACL tests may skip)");
	else
		say("no 9p mount to probe for ACL support (a local share): ACL tests may skip");
	setenv("ACL9P_REQUIRE_ACL", required ? "1" : "0", 1);
}

static int open_raw(const char *tty)
{
	struct termios t;
	int fd = open(tty, O_WRONLY | O_NOCTTY);

	if (fd < 0)
		fail("open %s: %s", tty, strerror(errno));
	/* Raw: no \n -> \r\n translation inside the KTAP stream. */
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		cfsetospeed(&t, B115200);
		tcsetattr(fd, TCSANOW, &t);
	}
	return fd;
}

static int open_results(void)
{
	return open_raw(RESULTS_TTY);
}

static bool host_root;

static void setup_env(void)
{
	setenv("PATH", host_root ?
	       "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" :
	       "/bin:/sbin", 1);
	setenv("HOME", "/tmp", 1);
	setenv("ACL9P_MNT", SHARE, 1);
	setenv("ACL9P_MNT_NOACL", NOACL, 1);
	setenv("ACL9P_LOCAL", LOCAL, 1);
}

static long ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000 +
	       (now.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * Copy what the child wrote to out; with bol, each line indented by four
 * spaces (a KTAP subtest), *bol telling whether the next byte starts a
 * line.  Without it (the demo), as it is.
 */
static void copy_indented(int in, int out, bool *bol)
{
	char buf[4096];
	ssize_t n, i, from;

	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (!bol) {
			write(out, buf, (size_t)n);
			continue;
		}
		for (i = 0, from = 0; i < n; i++) {
			if (*bol) {
				dprintf(out, "    ");
				*bol = false;
			}
			if (buf[i] == '\n') {
				write(out, buf + from, (size_t)(i + 1 - from));
				from = i + 1;
				*bol = true;
			}
		}
		if (from < n)
			write(out, buf + from, (size_t)(n - from));
	}
}

/*
 * Run one program with its stdout and stderr on a pipe, copied to out
 * (indented when indent), with a wall-clock limit.  Returns its wait
 * status, or -1 when it had to be killed.  The harness writes its
 * assertion messages ("# file:line: Expected ...") to stderr: KTAP
 * diagnostics belong with the results, not in the console log.
 */
static int run_limited(char *const argv[], int out, bool indent, int limit)
{
	struct timespec start;
	bool bol = true;
	int status = -1, p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		fail("pipe: %s", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &start);
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (pid == 0) {
		/* Own process group, so a timeout kills forked tests too. */
		setpgid(0, 0);
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		if (chdir("/") != 0)
			_exit(126);
		execv(argv[0], argv);
		say("exec %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };

		poll(&pfd, 1, 20);
		copy_indented(p[0], out, indent ? &bol : NULL);
		/*
		 * Not EOF: a grandchild may hold the pipe open after the
		 * binary has ended.
		 */
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (ms_since(&start) >= limit * 1000L) {
			say("%s ran over %d s; killed", argv[0], limit);
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			status = -1;
			break;
		}
	}
	copy_indented(p[0], out, indent ? &bol : NULL);
	if (indent && !bol)
		dprintf(out, "\n");
	close(p[0]);
	return status;
}

static const char *tests_glob;

static int is_selected(const struct dirent *d)
{
	if (strncmp(d->d_name, "acl9p_", 6))
		return 0;
	return !tests_glob || !fnmatch(tests_glob, d->d_name + 6, FNM_EXTMATCH);
}

/* One KTAP document over the selected binaries, each nested in it. */
#define KMEMLEAK	"/sys/kernel/debug/kmemleak"

/*
 * The debug flavour (kernel/config/debug.config) has kmemleak without
 * background scans: scan once the suite is done and copy what it found,
 * with the allocation stacks, to the console, where scripts/boot.sh
 * fails the boot on it.  Objects younger than kmemleak's minimum age
 * (5 s) are not reported, so the last test's leaks wait that long.  And
 * an object is reported only by a scan that finds it unchanged since
 * the one before (kmemleak checksums a suspect and greys it while its
 * checksum moves; the first checksum always "moves"): one scan alone
 * reports nothing that no earlier scan saw, so scan twice.
 */
static void scan_kmemleak(void)
{
	char buf[4096];
	ssize_t n;
	int fd;

	if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) &&
	    errno != EBUSY)
		return;
	fd = open(KMEMLEAK, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	sleep(6);
	if (write(fd, "scan", 4) != 4)
		say("kmemleak scan: %s", strerror(errno));
	sleep(1);
	if (write(fd, "scan", 4) != 4)
		say("kmemleak scan: %s", strerror(errno));
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stderr);
	close(fd);
	say("kmemleak scanned");
}

static void run_tests(void)
{
	const char *dir = env("ACL9P_TESTS_DIR", "/tests");
	long scale = strtol(env("ACL9P_TIMEOUT_SCALE", "1"), NULL, 10);
	int limit = BINARY_TIMEOUT * (scale > 1 && scale <= 100 ? scale : 1);
	long repeat = strtol(env("ACL9P_REPEAT", "1"), NULL, 10);
	struct dirent **names;
	int out = open_results();
	int i, k, n, status;

	if (repeat < 1 || repeat > 1000)
		fail("ACL9P_REPEAT=%ld: not a count from 1 to 1000", repeat);
	tests_glob = getenv("ACL9P_TESTS");
	n = scandir(dir, &names, is_selected, alphasort);
	if (n < 0)
		fail("scandir %s: %s", dir, strerror(errno));
	dprintf(out, "KTAP version 1\n1..%ld\n", n * repeat);
	for (k = 0; k < n * repeat; k++) {
		const char *name = names[k % n]->d_name;
		char path[512];
		char *argv[] = { path, NULL };
		struct timespec t0;

		snprintf(path, sizeof(path), "%s/%s", dir, name);
		/* kselftest's runner names a binary before its output too */
		dprintf(out, "# selftests: acl9p: %s\n", name);
		say("running %s", name);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		status = run_limited(argv, out, true, limit);
		if (status == -1)
			dprintf(out, "not ok %d %s # TIMEOUT %d\n", k + 1, name,
				limit);
		else if (WIFEXITED(status) && WEXITSTATUS(status) == KSFT_SKIP)
			dprintf(out, "ok %d %s # SKIP\n", k + 1, name);
		else
			dprintf(out, "%sok %d %s\n",
				WIFEXITED(status) && !WEXITSTATUS(status) ?
				"" : "not ", k + 1, name);
		dprintf(out, "# time_ms %s %ld\n", name, ms_since(&t0));
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	tcdrain(out);
	close(out);
}

/* demo and wire: one script of the initramfs, its output on the results port */
static void run_script(const char *script)
{
	char *argv[] = { "/bin/sh", (char *)script, NULL };
	int out = open_results();

	run_limited(argv, out, false, BINARY_TIMEOUT);
	tcdrain(out);
	close(out);
}

/*
 * bench and fuzz: one program, its output on the results port as it
 * is, then "WORD STATUS" (bench-exit, fuzz-exit: its exit status, -1
 * when killed at the limit LIMIT_VAR gives in seconds, default 600,
 * 128 + N for signal N): a run that did not end with 0 has no figures
 * or verdicts to trust, and the host must be able to tell.
 */
static void run_program(const char *path, const char *limit_var,
			const char *word)
{
	char *argv[] = { (char *)path, NULL };
	long limit = strtol(env(limit_var, "600"), NULL, 10);
	int out = open_results();
	int status = run_limited(argv, out, false, limit > 0 ? (int)limit : 600);

	dprintf(out, "%s %d\n", word, status == -1 ? -1 :
		WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	tcdrain(out);
	close(out);
}

static void run_shell(void)
{
	char *argv[] = { host_root && !access("/bin/bash", X_OK) ?
			 "/bin/bash" : "/bin/sh", "-l", NULL };
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		/* A controlling tty, so ^C reaches the shell's children. */
		setsid();
		ioctl(STDIN_FILENO, TIOCSCTTY, 1);
		if (chdir(SHARE) != 0)
			say("chdir %s: %s", SHARE, strerror(errno));
		execv(argv[0], argv);
		_exit(127);
	}
	waitpid(pid, &status, 0);
}

/*
 * run: the command in the file ACL9P_RUN names (on the host's root, so
 * written there by scripts/shell.sh --run), run by /bin/sh in the
 * share, stdin /dev/null, stdout on the results port and stderr on the
 * third, both raw, then "run-exit N" on the fourth: its exit status,
 * 128 + N for signal N, -1 when killed at ACL9P_RUN_LIMIT seconds
 * (default 600).  The status has a port of its own because the VM's
 * exit code says only whether the guest got that far.
 */
static void run_command(void)
{
	const char *file = must_env("ACL9P_RUN");
	long limit = strtol(env("ACL9P_RUN_LIMIT", "600"), NULL, 10);
	int out = open_results(), err = open_raw(STDERR_TTY);
	int st = open_raw(STATUS_TTY);
	int status = -1, code;
	struct timespec t0;
	pid_t pid;

	if (access(file, R_OK))
		fail("%s: %s", file, strerror(errno));
	if (limit <= 0)
		limit = 600;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (pid == 0) {
		char *argv[] = { "/bin/sh", (char *)file, NULL };
		int null = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		dup2(null, STDIN_FILENO);
		dup2(out, STDOUT_FILENO);
		dup2(err, STDERR_FILENO);
		if (chdir(SHARE) != 0)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, WNOHANG) != pid) {
		if (ms_since(&t0) >= limit * 1000L) {
			say("the command ran over %ld s; killed", limit);
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			status = -1;
			break;
		}
		usleep(20000);
	}
	code = status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) :
	       128 + WTERMSIG(status);
	dprintf(st, "run-exit %d\n", code);
	tcdrain(out);
	tcdrain(err);
	tcdrain(st);
	close(out);
	close(err);
	close(st);
}

/*
 * The host's / as the root (ACL9P_ROOT=host): it is read-only and the
 * host's own, so the guest writes only to tmpfs of its own, mounted
 * over the directories it writes: /mnt (where the shares are mounted),
 * /run, /var/tmp, /root, /dev/shm (and /tmp, as in every boot).  A pty
 * is a convenience of the shell: no devpts, no failure.
 */
static void host_root_setup(void)
{
	must_mount("tmpfs", "/mnt", "tmpfs", 0, "mode=0755");
	must_mount("tmpfs", "/run", "tmpfs", 0, "mode=0755");
	must_mount("tmpfs", "/var/tmp", "tmpfs", 0, "mode=1777");
	must_mount("tmpfs", "/root", "tmpfs", 0, "mode=0700");
	must_mount("tmpfs", "/dev/shm", "tmpfs", 0, "mode=1777");
	mkdir("/dev/pts", 0755);
	if (mount("devpts", "/dev/pts", "devpts", 0, "gid=5,mode=620,ptmxmode=0666"))
		say("no devpts (%s): the shell has no ptys", strerror(errno));
}

/*
 * A host-root boot of a kernel whose 9p is a module (ACL9P_ROOT_SRC
 * set: scripts/boot.sh): the kernel ran this init from the initramfs,
 * which loaded the modules; mount the host's / (ACL9P_ROOT_SRC,
 * ACL9P_ROOT_OPTS) read-only and make it the root, the pseudo
 * filesystems moved along, as switch_root does.
 */
#define NEWROOT "/newroot"

static void enter_host_root(void)
{
	static const char *const keep[] = { "/proc", "/sys", "/dev" };
	char dst[64];

	must_mount(must_env("ACL9P_ROOT_SRC"), NEWROOT, "9p", MS_RDONLY,
		   must_env("ACL9P_ROOT_OPTS"));
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		snprintf(dst, sizeof(dst), NEWROOT "%s", keep[i]);
		if (mount(keep[i], dst, NULL, MS_MOVE, NULL))
			fail("move %s to %s: %s", keep[i], dst, strerror(errno));
	}
	if (chdir(NEWROOT) || mount(".", "/", NULL, MS_MOVE, NULL) ||
	    chroot(".") || chdir("/"))
		fail("enter the host's root at %s: %s", NEWROOT, strerror(errno));
	say("root: the host's / (%s), entered from the initramfs",
	    getenv("ACL9P_ROOT_SRC"));
}

int main(void)
{
	const char *mode;
	int con;

	must_mount("proc", "/proc", "proc", 0, NULL);
	must_mount("sysfs", "/sys", "sysfs", 0, NULL);
	must_mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	con = open("/dev/console", O_RDWR);
	if (con >= 0) {
		dup2(con, STDIN_FILENO);
		dup2(con, STDOUT_FILENO);
		dup2(con, STDERR_FILENO);
		if (con > STDERR_FILENO)
			close(con);
	}
	setvbuf(stderr, NULL, _IOLBF, 0);
	/* a kernel with modules: appended to the initramfs by scripts/boot.sh */
	if (load_modules(say) < 0)
		fail("%s/order: %s", MODULES_DIR, strerror(errno));
	if (getenv("ip") && configure_ip(getenv("ip"), say))
		fail("ip=%s: the network the share needs is not there (above)",
		     getenv("ip"));
	host_root = !strcmp(env("ACL9P_ROOT", "initramfs"), "host");
	if (host_root && getenv("ACL9P_ROOT_SRC"))
		enter_host_root();
	if (host_root)
		host_root_setup();
	must_mount("tmpfs", "/tmp", "tmpfs", 0, "mode=1777");
	must_mount("tmpfs", LOCAL, "tmpfs", 0, "mode=0755");

	mode = env("ACL9P_MODE", "check");
	if (strcmp(mode, "check") && strcmp(mode, "demo") &&
	    strcmp(mode, "wire") && strcmp(mode, "bench") &&
	    strcmp(mode, "fuzz") && strcmp(mode, "shell") && strcmp(mode, "run"))
		fail("unknown ACL9P_MODE '%s'", mode);
	/* their scripts and programs are the initramfs' own */
	if (host_root && (!strcmp(mode, "demo") || !strcmp(mode, "wire") ||
			  !strcmp(mode, "bench") || !strcmp(mode, "fuzz")))
		fail("ACL9P_MODE=%s needs the initramfs root, not the host's", mode);
	setup_env();
	if (host_root)
		setenv("HOME", "/root", 1);
	/* what the concurrency tests had to race on */
	say("%ld CPUs online", sysconf(_SC_NPROCESSORS_ONLN));
	umask(022);
	mkdir("/mnt", 0755);
	mount_share(env("ACL9P_FSTYPE", "9p"), must_env("ACL9P_SRC"), SHARE,
		    must_env("ACL9P_OPTS"));
	if (!strcmp(mode, "check")) {
		export_acl_requirement();
		if (getenv("ACL9P_NOACL_SRC"))
			mount_share("9p", must_env("ACL9P_NOACL_SRC"), NOACL,
				    must_env("ACL9P_NOACL_OPTS"));
		else
			unsetenv("ACL9P_MNT_NOACL");
		run_tests();
		scan_kmemleak();
	} else if (!strcmp(mode, "demo")) {
		run_script("/etc/acl9p-demo.sh");
	} else if (!strcmp(mode, "wire")) {
		run_script("/etc/acl9p-wire.sh");
	} else if (!strcmp(mode, "bench")) {
		run_program("/bin/acl9p-bench", "ACL9P_BENCH_LIMIT", "bench-exit");
	} else if (!strcmp(mode, "fuzz")) {
		run_program("/bin/acl9p-fuzz", "ACL9P_FUZZ_LIMIT", "fuzz-exit");
	} else if (!strcmp(mode, "run")) {
		run_command();
	} else {
		run_shell();
	}

	umount2(NOACL, MNT_DETACH);
	umount2(SHARE, 0);
	vm_exit(0);
}
