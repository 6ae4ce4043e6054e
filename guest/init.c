// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p guest init: PID 1 of the test VM.
 *
 * It mounts the pseudo filesystems and the 9p share the kernel command
 * line describes, runs the job (the test binaries, the demo script or
 * an interactive shell), and ends the VM through QEMU's isa-debug-exit
 * port so that the host learns how the guest ended.  Test output goes
 * to the second serial port, raw, so the console log (first port) can
 * carry kernel messages without mixing them into the KTAP stream.
 *
 * Kernel command line parameters (all "acl9p.NAME=VALUE"):
 *   mode    check | demo | shell
 *   server  qemu-passthrough | qemu-mapped-xattr | diod
 *   access  client | user
 *   cache   none | loose
 *   kernel  vanilla | patched | custom (passed on to the tests)
 *   trans   virtio | tcp
 *   msize   9p msize
 *   aname   export path (tcp only; diod serves by path)
 *   timeout seconds one test binary may run
 *   tests   glob over test binaries without the acl9p_ prefix
 *           (default: all), e.g. "hostchange" or "perm*"
 *   selftest "splat": write a fake WARNING line to the kernel log at
 *           start; the rig's self-test checks that it fails the cell
 *           (the marker is not on the command line, which the kernel
 *           echoes to the log).  "timeout": run the rig's own binaries
 *           in /tests/rig instead of the suite (per-test timeouts)
 *   require_acl 1: the kernel has 9p POSIX ACL support, so ACL tests
 *           fail rather than skip when ACLs are refused; 0: they may
 *           skip; auto (default): probe the kernel (see
 *           export_acl_requirement)
 *   hostctl serial device of the host control channel (ACL9P_HOSTCTL;
 *           tests that change the export on the host need it)
 *
 * Guest exit codes (QEMU exits with code * 2 + 1):
 *   0 the job ran (its own results are in the KTAP stream)
 *   1 setup failed before the job ran (reason on the console)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
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

#define DEBUG_EXIT_PORT	0xf4
#define SHARE		"/mnt/share"
#define NOACL		"/mnt/noacl"
#define LOCAL		"/mnt/local"
#define TESTS_DIR	"/tests"
#define RESULTS_TTY	"/dev/ttyS1"

struct params {
	char mode[16];
	char server[32];
	char access[16];
	char cache[16];
	char kernel[16];
	char trans[16];
	char msize[16];
	char aname[256];
	char hostctl[32];
	char tests[64];
	char selftest[16];
	char require_acl[4];
	int timeout;
};

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

static void copy_param(char *dst, size_t size, const char *val)
{
	snprintf(dst, size, "%s", val);
}

static void parse_cmdline(struct params *p)
{
	char buf[4096], *tok, *save = NULL;
	FILE *f = fopen("/proc/cmdline", "r");
	size_t n;

	memset(p, 0, sizeof(*p));
	copy_param(p->mode, sizeof(p->mode), "check");
	copy_param(p->server, sizeof(p->server), "qemu-passthrough");
	copy_param(p->access, sizeof(p->access), "client");
	copy_param(p->cache, sizeof(p->cache), "none");
	copy_param(p->kernel, sizeof(p->kernel), "custom");
	copy_param(p->trans, sizeof(p->trans), "virtio");
	copy_param(p->msize, sizeof(p->msize), "262144");
	p->timeout = 120;
	if (!f)
		fail("cannot read /proc/cmdline: %s", strerror(errno));
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';

	for (tok = strtok_r(buf, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		char *val;

		if (strncmp(tok, "acl9p.", 6) != 0)
			continue;
		val = strchr(tok, '=');
		if (!val)
			continue;
		*val++ = '\0';
		tok += 6;
		if (!strcmp(tok, "mode"))
			copy_param(p->mode, sizeof(p->mode), val);
		else if (!strcmp(tok, "server"))
			copy_param(p->server, sizeof(p->server), val);
		else if (!strcmp(tok, "access"))
			copy_param(p->access, sizeof(p->access), val);
		else if (!strcmp(tok, "cache"))
			copy_param(p->cache, sizeof(p->cache), val);
		else if (!strcmp(tok, "kernel"))
			copy_param(p->kernel, sizeof(p->kernel), val);
		else if (!strcmp(tok, "trans"))
			copy_param(p->trans, sizeof(p->trans), val);
		else if (!strcmp(tok, "msize"))
			copy_param(p->msize, sizeof(p->msize), val);
		else if (!strcmp(tok, "aname"))
			copy_param(p->aname, sizeof(p->aname), val);
		else if (!strcmp(tok, "require_acl"))
			copy_param(p->require_acl, sizeof(p->require_acl), val);
		else if (!strcmp(tok, "selftest"))
			copy_param(p->selftest, sizeof(p->selftest), val);
		else if (!strcmp(tok, "tests"))
			copy_param(p->tests, sizeof(p->tests), val);
		else if (!strcmp(tok, "hostctl"))
			copy_param(p->hostctl, sizeof(p->hostctl), val);
		else if (!strcmp(tok, "timeout"))
			p->timeout = atoi(val) > 0 ? atoi(val) : 120;
	}
}

static void must_mount(const char *src, const char *dst, const char *type,
		       unsigned long flags, const char *opts)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, flags, opts) != 0)
		fail("mount %s on %s (%s, %s): %s", src, dst, type,
		     opts ? opts : "", strerror(errno));
}

/* The 9p mount options of the cell; noacl drops posixacl and access. */
static void share_options(const struct params *p, int noacl, char *buf,
			  size_t size)
{
	char access[64];
	int n;

	if (noacl)
		snprintf(access, sizeof(access), "access=client");
	else if (!strcmp(p->access, "client"))
		snprintf(access, sizeof(access), "access=client,posixacl");
	else
		snprintf(access, sizeof(access), "access=%s", p->access);

	n = snprintf(buf, size, "version=9p2000.L,%s,cache=%s,msize=%s",
		     access, p->cache, p->msize);
	if (!strcmp(p->trans, "tcp"))
		snprintf(buf + n, size - (size_t)n,
			 ",trans=tcp,port=564,aname=%s,uname=root", p->aname);
	else
		snprintf(buf + n, size - (size_t)n, ",trans=virtio");
}

static void mount_share(const struct params *p, const char *dst, int noacl)
{
	char opts[512];
	const char *src;

	share_options(p, noacl, opts, sizeof(opts));
	if (!strcmp(p->trans, "tcp"))
		src = "10.0.2.100";
	else
		src = noacl ? "share-noacl" : "share";
	say("mount -t 9p %s %s -o %s", src, dst, opts);
	must_mount(src, dst, "9p", 0, opts);
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
 * Whether ACL tests may skip when the share refuses ACLs (exported as
 * ACL9P_REQUIRE_ACL).  Not when the host says the kernel has 9p ACL
 * support, nor when a probe shows it: the second device is mounted
 * briefly with access=client,posixacl before its real mount, and
 * v9fs_show_options() prints "posixacl" only when CONFIG_9P_FS_POSIX_ACL
 * is built in.  This works in access=user cells too, where the refusal
 * itself would look like a missing feature.
 */
static void export_acl_requirement(const struct params *p)
{
	struct params q = *p;
	bool required = !strcmp(p->require_acl, "1");
	char opts[512];
	const char *src;

	if (!required && strcmp(p->require_acl, "0")) {
		copy_param(q.access, sizeof(q.access), "client");
		share_options(&q, 0, opts, sizeof(opts));
		src = strcmp(p->trans, "tcp") ? "share-noacl" : "10.0.2.100";
		mkdir(NOACL, 0755);
		if (mount(src, NOACL, "9p", 0, opts) == 0) {
			required = shows_posixacl(NOACL);
			umount2(NOACL, 0);
		} else {
			say("ACL probe mount failed: %s", strerror(errno));
		}
		say("9p POSIX ACL support in this kernel: %s",
		    required ? "yes" : "no (ACL tests may skip)");
	}
	setenv("ACL9P_REQUIRE_ACL", required ? "1" : "0", 1);
}

static int open_results(void)
{
	struct termios t;
	int fd = open(RESULTS_TTY, O_WRONLY | O_NOCTTY);

	if (fd < 0)
		fail("open %s: %s", RESULTS_TTY, strerror(errno));
	/* Raw: no \n -> \r\n translation inside the KTAP stream. */
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		cfsetospeed(&t, B115200);
		tcsetattr(fd, TCSANOW, &t);
	}
	return fd;
}

static void setup_env(const struct params *p)
{
	setenv("PATH", "/bin:/sbin", 1);
	setenv("HOME", "/tmp", 1);
	setenv("TERM", "linux", 1);
	setenv("ACL9P_MNT", SHARE, 1);
	setenv("ACL9P_MNT_NOACL", NOACL, 1);
	setenv("ACL9P_LOCAL", LOCAL, 1);
	setenv("ACL9P_ACCESS", p->access, 1);
	setenv("ACL9P_SERVER", p->server, 1);
	setenv("ACL9P_CACHE", p->cache, 1);
	setenv("ACL9P_KERNEL", p->kernel, 1);
	if (p->hostctl[0])
		setenv("ACL9P_HOSTCTL", p->hostctl, 1);
}

/*
 * Run one program with stdout on the results port and a wall-clock
 * limit.  Returns its wait status, or -1 when it had to be killed.
 */
static int run_limited(char *const argv[], int out_fd, int timeout)
{
	struct timespec start, now;
	pid_t pid, w;
	int status;

	clock_gettime(CLOCK_MONOTONIC, &start);
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (pid == 0) {
		/* Own process group, so a timeout kills forked tests too. */
		setpgid(0, 0);
		/*
		 * The harness writes its assertion messages ("# file:line:
		 * Expected ...") to stderr: KTAP diagnostics belong with
		 * the results, not in the console log.
		 */
		if (out_fd >= 0) {
			dup2(out_fd, STDOUT_FILENO);
			dup2(out_fd, STDERR_FILENO);
		}
		if (chdir("/") != 0)
			_exit(126);
		execv(argv[0], argv);
		say("exec %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	for (;;) {
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			return status;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= timeout) {
			say("%s ran over %d s; killed", argv[0], timeout);
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		usleep(20000);
	}
}

static int is_test_binary(const struct dirent *d)
{
	return !strncmp(d->d_name, "acl9p_", 6);
}

static void run_tests(const struct params *p)
{
	const char *dir = strcmp(p->selftest, "timeout") ? TESTS_DIR :
			  TESTS_DIR "/rig";
	struct dirent **names;
	int out = open_results();
	int i, n, status;

	n = scandir(dir, &names, is_test_binary, alphasort);
	if (n < 0)
		fail("scandir %s: %s", dir, strerror(errno));
	for (i = 0; i < n; i++) {
		char path[512];
		char *argv[] = { path, NULL };

		if (p->tests[0] &&
		    fnmatch(p->tests, names[i]->d_name + strlen("acl9p_"), 0)) {
			free(names[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		dprintf(out, "# ACL9P-BINARY %s\n", names[i]->d_name);
		say("running %s", names[i]->d_name);
		status = run_limited(argv, out, p->timeout);
		if (status == -1)
			dprintf(out, "# ACL9P-TIMEOUT %s %d\n",
				names[i]->d_name, p->timeout);
		free(names[i]);
	}
	free(names);
	dprintf(out, "# ACL9P-DONE\n");
	tcdrain(out);
	close(out);
}

static void run_demo(const struct params *p)
{
	char *argv[] = { "/bin/sh", "/etc/acl9p-demo.sh", NULL };
	int out = open_results();

	run_limited(argv, out, p->timeout);
	dprintf(out, "# ACL9P-DONE\n");
	tcdrain(out);
	close(out);
}

static void run_shell(void)
{
	char *argv[] = { "/bin/sh", "-l", NULL };
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

int main(void)
{
	struct params p;
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
	must_mount("tmpfs", "/tmp", "tmpfs", 0, "mode=1777");
	must_mount("tmpfs", LOCAL, "tmpfs", 0, "mode=0755");

	parse_cmdline(&p);
	if (strcmp(p.mode, "check") && strcmp(p.mode, "demo") &&
	    strcmp(p.mode, "shell"))
		fail("unknown acl9p.mode '%s'", p.mode);
	setup_env(&p);
	if (!strcmp(p.selftest, "splat")) {
		/*
		 * KERN_WARNING, the level WARN() splats print at; one write
		 * is one record (dprintf may split it, /dev/kmsg refuses).
		 */
		static const char rec[] =
			"<4>WARNING: acl9p rig self-test, not a kernel bug\n";
		int k = open("/dev/kmsg", O_WRONLY);

		if (k < 0 || write(k, rec, sizeof(rec) - 1) < 0)
			say("cannot write to /dev/kmsg: %s", strerror(errno));
		if (k >= 0)
			close(k);
	}
	umask(022);
	mkdir("/mnt", 0755);
	mount_share(&p, SHARE, 0);
	if (!strcmp(p.mode, "check")) {
		export_acl_requirement(&p);
		mount_share(&p, NOACL, 1);
	}

	if (!strcmp(p.mode, "check"))
		run_tests(&p);
	else if (!strcmp(p.mode, "demo"))
		run_demo(&p);
	else
		run_shell();

	umount2(NOACL, MNT_DETACH);
	umount2(SHARE, 0);
	vm_exit(0);
}
