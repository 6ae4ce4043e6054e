// SPDX-License-Identifier: GPL-2.0
/*
 * acl9p_concurrency: ACL calls that race each other.
 *
 * concurrency: several processes set/read/remove ACLs on one file, chmod
 * it, and create files in a directory with a default ACL, for about 3 s
 * (and a bounded number of iterations): no unexpected errno, every value
 * read is one that was written, and the final state is one of the written
 * values with the mode agreeing with it.
 *
 * coherence: the guest half.  The pre-boot hostset/ tree's ACLs must read
 * back unchanged across stat/open/close and cache drops; within the guest,
 * changes made through another path, fd, hard link or the second mount
 * ($ACL9P_MNT_NOACL) must be seen.  Changes made on the host while the
 * guest runs are acl9p_hostchange's.
 */
#include <signal.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "acl9p_test.h"

A9_FIXTURE(concurrency, A9_PROBE)

#define NWORKERS	4
#define MAX_ITER	3000
/*
 * The fewest iterations a worker must complete for a race test to
 * count: a pass after none (a worker that started after the window, a
 * loop that never ran) would say nothing.  Under TCG an iteration takes
 * 5-40 ms, so the 1 s window gives each worker tens.
 */
#define MIN_OPS		3

/* four valid ACLs with distinct masks (and owner/other) */
static const char *VALS[NWORKERS] = {
	"u::rw-,u:1001:r--,g::r--,m::r--,o::---",
	"u::rwx,u:1002:rw-,g::r--,m::rw-,o::r--",
	"u::rw-,u:1001:rwx,u:1003:r--,g::---,m::rwx,o::--x",
	"u::r--,g::r--,g:1002:-wx,m::-wx,o::r-x",
};

/* mode a VALS[i] stands for */
static const int MODES[NWORKERS] = { 0640, 0764, 0671, 0435 };

struct shared {
	int errors;
	int stop;		/* the test's own loop is done */
	long long start_ns;	/* when the workers were started */
	long long end_ns;	/* start_ns + ACL9P_RACE_MS */
	long long first_ns;	/* when the first error was counted */
	int ops[NWORKERS];	/* iterations each worker completed */
	char first[512];
};

static struct shared *shm;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void vfmt(char *buf, size_t sz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sz, fmt, ap);
	va_end(ap);
}

/* count an error; keep the first message ("%s %s %s": a, b, errno name) */
static void report(const char *fmt, const char *a, const char *b, int err)
{
	if (__sync_fetch_and_add(&shm->errors, 1) == 0) {
		shm->first_ns = now_ns();
		vfmt(shm->first, sizeof(shm->first), fmt, a, b,
		     err ? a9_errname(err) : "");
	}
}

/*
 * Whether a worker goes on: until the race window (ACL9P_RACE_MS) has
 * passed, and not once an error was counted.  After the first error
 * the verdict is decided, so racing on only costs time (under TCG, all
 * of a cell's time); the window bounds the search where nothing bites.
 */
static int racing(int it, int max_iter)
{
	return it < max_iter && !__atomic_load_n(&shm->errors, __ATOMIC_RELAXED) &&
	       !__atomic_load_n(&shm->stop, __ATOMIC_RELAXED) && now_ns() < shm->end_ns;
}

/* where the race bit: the time from the start to the first error */
static void log_race(struct __test_metadata *_metadata)
{
	if (shm->errors)
		TH_LOG("%d errors, the first after %lld ms (window %d ms): %s",
		       shm->errors, (shm->first_ns - shm->start_ns) / 1000000,
		       a9_race_ms(), shm->first);
}

/* worker slot ends after n completed iterations */
static void worker_done(int slot, int n)
{
	shm->ops[slot] = n;
	_exit(0);
}

/*
 * The race ran: each of the n workers completed MIN_OPS iterations,
 * unless an error ended the race early (the test fails on that).
 */
static void expect_raced(struct __test_metadata *_metadata, int n)
{
	int i;

	if (shm->errors)
		return;
	for (i = 0; i < n; i++) {
		EXPECT_LE(MIN_OPS, shm->ops[i])
			TH_LOG("worker %d completed %d iterations in the %d ms window: the race did not run",
			       i, shm->ops[i], a9_race_ms());
	}
}

static int value_index(const char *text)
{
	int i;

	for (i = 0; i < NWORKERS; i++)
		if (!strcmp(text, VALS[i]))
			return i;
	return -1;
}

static void setup_shm(void)
{
	shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	memset(shm, 0, sizeof(*shm));
	shm->start_ns = now_ns();
	shm->end_ns = shm->start_ns + a9_race_ms() * 1000000LL;
}

static int wait_all(pid_t *pids, int n)
{
	int i, st, bad = 0;

	for (i = 0; i < n; i++) {
		if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			bad++;
	}
	return bad;
}

/* do_remove: 0 set+get, 1 also remove, 2 set+get without value checks */
static void setget_worker(const char *p, int id, int do_remove)
{
	char t[1024];
	int it, r;

	for (it = 0; racing(it, MAX_ITER); it++) {
		if (do_remove == 1 && (it % 5) == 4) {
			r = a9_remove(p, A9_XA_ACCESS);
			if (r && r != -ENODATA)
				report("%s: removexattr %s: %s", p, "", r);
			continue;
		}
		r = a9_set_text(p, A9_XA_ACCESS, VALS[(id + it) % NWORKERS]);
		if (r)
			report("%s: setxattr %s: %s", p, VALS[(id + it) % NWORKERS], r);
		r = a9_get_text(p, A9_XA_ACCESS, t, sizeof(t));
		if (r == -ENODATA && do_remove == 1)
			continue;
		if (r)
			report("%s: getxattr%s: %s", p, "", r);
		else if (do_remove != 2 && value_index(t) < 0)
			report("%s: read a value never written: %s%s", p, t, 0);
	}
	worker_done(id, it);
}

static void final_state(struct __test_metadata *_metadata, const char *p,
			int may_be_absent)
{
	char t[1024];
	int r = a9_get_text(p, A9_XA_ACCESS, t, sizeof(t)), i;

	if (r == -ENODATA && may_be_absent) {
		/* always one HOSTCHECK line, whatever the race left */
		a9_hostcheck(p, A9_XA_ACCESS, NULL, 0);
		return;
	}
	ASSERT_EQ(0, r) TH_LOG("final getxattr: %s", a9_errname(r));
	i = value_index(t);
	ASSERT_LE(0, i) TH_LOG("final ACL %s is none of the written values", t);
	EXPECT_MODE(p, MODES[i]);
	a9_hostcheck_text(p, A9_XA_ACCESS, VALS[i]);
}

TEST_F_TIMEOUT(concurrency, parallel_set_and_get_one_file, 60)
{
	pid_t pids[NWORKERS];
	int i;

	setup_shm();
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, VALS[0]);
	for (i = 0; i < NWORKERS; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i])
			setget_worker(self->p, i, 0);
	}
	EXPECT_EQ(0, wait_all(pids, NWORKERS));
	log_race(_metadata);
	expect_raced(_metadata, NWORKERS);
	EXPECT_EQ(0, shm->errors);
	final_state(_metadata, self->p, 0);
}

TEST_F_TIMEOUT(concurrency, parallel_set_remove_get_one_file, 60)
{
	pid_t pids[NWORKERS];
	int i;

	setup_shm();
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	for (i = 0; i < NWORKERS; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i])
			setget_worker(self->p, i, 1);
	}
	EXPECT_EQ(0, wait_all(pids, NWORKERS));
	log_race(_metadata);
	expect_raced(_metadata, NWORKERS);
	EXPECT_EQ(0, shm->errors);
	final_state(_metadata, self->p, 1);
}

static void fd_reader(const char *p, int id)
{
	unsigned char v[1024];
	char t[1024];
	int it, fd = open(p, O_RDONLY);

	if (fd < 0) {
		report("%s: open%s: %s", p, "", errno);
		_exit(1);
	}
	for (it = 0; racing(it, MAX_ITER); it++) {
		ssize_t n = fgetxattr(fd, A9_XA_ACCESS, v, sizeof(v));

		if (n < 0) {
			report("%s: fgetxattr%s: %s", p, "", errno);
			continue;
		}
		a9_decode(v, (size_t)n, t, sizeof(t));
		if (value_index(t) < 0)
			report("%s: fgetxattr read %s%s", p, t, 0);
	}
	close(fd);
	worker_done(id, it);
}

TEST_F_TIMEOUT(concurrency, fd_readers_while_setting, 60)
{
	pid_t pids[NWORKERS];
	int i;

	setup_shm();
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, VALS[1]);
	for (i = 0; i < NWORKERS; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i]) {
			if (i < 2)
				setget_worker(self->p, i, 0);
			fd_reader(self->p, i);
		}
	}
	EXPECT_EQ(0, wait_all(pids, NWORKERS));
	log_race(_metadata);
	expect_raced(_metadata, NWORKERS);
	EXPECT_EQ(0, shm->errors);
	final_state(_metadata, self->p, 0);
}

static void chmod_worker(const char *p, int id)
{
	int it;

	for (it = 0; racing(it, MAX_ITER); it++) {
		if (chmod(p, (mode_t)MODES[it % NWORKERS]))
			report("%s: chmod%s: %s", p, "", errno);
	}
	worker_done(id, it);
}

TEST_F_TIMEOUT(concurrency, chmod_races_setacl_mode_and_mask_agree, 60)
{
	pid_t pids[2];
	char t[1024];
	struct a9_ent e[16];
	int n, k, mode, want;

	setup_shm();
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	pids[0] = fork();
	ASSERT_LE(0, pids[0]);
	if (!pids[0])
		setget_worker(self->p, 0, 2);	/* values change under chmod */
	pids[1] = fork();
	ASSERT_LE(0, pids[1]);
	if (!pids[1])
		chmod_worker(self->p, 1);
	EXPECT_EQ(0, wait_all(pids, 2));
	log_race(_metadata);
	expect_raced(_metadata, 2);
	EXPECT_EQ(0, shm->errors);
	/* at rest the mode and the ACL must describe the same permissions */
	ASSERT_EQ(0, a9_get_text(self->p, A9_XA_ACCESS, t, sizeof(t)));
	n = a9_parse(t, e, 16);
	ASSERT_LT(0, n);
	mode = a9_mode(self->p);
	want = 0;
	for (k = 0; k < n; k++) {
		if (e[k].tag == A9_ACL_USER_OBJ)
			want |= e[k].perm << 6;
		if (e[k].tag == A9_ACL_MASK)
			want |= e[k].perm << 3;
		if (e[k].tag == A9_ACL_OTHER)
			want |= e[k].perm;
	}
	EXPECT_EQ(want, mode) TH_LOG("mode %04o but ACL %s", mode, t);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, t);
}

static const char *DEF = "u::rwx,u:1001:rwx,g::r-x,g:1002:rw-,m::rwx,o::r--";
static const char *INH = "u::rw-,u:1001:rwx,g::r-x,g:1002:rw-,m::rw-,o::r--";

static void creator(const char *dir, int id)
{
	char p[PATH_MAX], name[64], t[1024];
	int it, fd, r;

	umask(077);
	/* the first file of each worker whatever the others found: the
	 * test checks w0_0 afterwards */
	for (it = 0; !it || racing(it, MAX_ITER / 4); it++) {
		snprintf(name, sizeof(name), "w%d_%d", id, it);
		a9_path(p, dir, name);
		if (it % 3 == 2) {
			if (mkdir(p, 0777)) {
				report("%s: mkdir%s: %s", p, "", errno);
				continue;
			}
			r = a9_get_text(p, A9_XA_DEFAULT, t, sizeof(t));
			if (r || strcmp(t, DEF))
				report("%s: default ACL %s: %s", p, t, r);
			continue;
		}
		fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0666);
		if (fd < 0) {
			report("%s: create%s: %s", p, "", errno);
			continue;
		}
		close(fd);
		r = a9_get_text(p, A9_XA_ACCESS, t, sizeof(t));
		if (r || strcmp(t, INH))
			report("%s: inherited ACL %s: %s", p, t, r);
		if (a9_mode(p) != 0664)
			report("%s: mode of new file not 0664%s: %s", p, "", 0);
	}
	worker_done(id, it);
}

TEST_F_TIMEOUT(concurrency, parallel_create_under_default_acl, 60)
{
	pid_t pids[NWORKERS];
	int i;

	setup_shm();
	a9_path(self->q, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->q, 0755));
	ASSERT_SET(self->q, A9_XA_DEFAULT, DEF);
	for (i = 0; i < NWORKERS; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i])
			creator(self->q, i);
	}
	EXPECT_EQ(0, wait_all(pids, NWORKERS));
	log_race(_metadata);
	expect_raced(_metadata, NWORKERS);
	EXPECT_EQ(0, shm->errors);
	EXPECT_ACL(self->q, A9_XA_DEFAULT, DEF);
	a9_path(self->p, self->q, "w0_0");
	EXPECT_ACL(self->p, A9_XA_ACCESS, INH);
	a9_hostcheck_text(self->p, A9_XA_ACCESS, INH);
}

TEST_F_TIMEOUT(concurrency, default_acl_changes_while_creating, 60)
{
	/* one process flips the default ACL; created files carry one of
	 * the two inherited forms, never a mix */
	static const char *DEF2 = "u::rwx,u:1003:r-x,g::---,m::r-x,o::---";
	static const char *INH2 = "u::rw-,u:1003:r-x,g::---,m::r--,o::---";
	pid_t pid;
	int i, k;

	setup_shm();
	a9_path(self->q, self->dir, "d");
	ASSERT_EQ(0, a9_mkdir(self->q, 0755));
	ASSERT_SET(self->q, A9_XA_DEFAULT, DEF);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* for as long as the creator creates, not the window */
		for (i = 0; i < MAX_ITER && !__atomic_load_n(&shm->stop, __ATOMIC_RELAXED) &&
			    !__atomic_load_n(&shm->errors, __ATOMIC_RELAXED); i++)
			if (a9_set_text(self->q, A9_XA_DEFAULT, i % 2 ? DEF : DEF2))
				report("%s: set default%s: %s", self->q, "", errno);
		worker_done(0, i);
	}
	/* all 300 files, as before the race window, unless something went
	 * wrong already; the flipper stops when this loop is done */
	for (k = 0; k < 300 && !__atomic_load_n(&shm->errors, __ATOMIC_RELAXED); k++) {
		char name[32], t[1024];
		int fd, r, m;

		snprintf(name, sizeof(name), "f%d", k);
		a9_path(self->p, self->q, name);
		fd = open(self->p, O_CREAT | O_EXCL | O_WRONLY, 0664);
		if (fd < 0) {
			report("%s: create%s: %s", self->p, "", errno);
			continue;
		}
		close(fd);
		r = a9_get_text(self->p, A9_XA_ACCESS, t, sizeof(t));
		m = a9_mode(self->p);
		if (r)
			report("%s: getxattr%s: %s", self->p, "", r);
		else if (!((!strcmp(t, INH) && m == 0664) ||
			   (!strcmp(t, INH2) && m == 0640))) {
			char got[1100];

			snprintf(got, sizeof(got), "%s with mode %04o", t, m);
			report("%s: inherited %s%s", self->p, got, 0);
		}
	}
	shm->stop = 1;
	EXPECT_EQ(0, wait_all(&pid, 1));
	log_race(_metadata);
	expect_raced(_metadata, 1);
	EXPECT_EQ(0, shm->errors);
}

/* ---------------------------------------------------------------- coherence */

A9_FIXTURE(coherence, A9_PROBE)

static const char *HOST_F = "u::rw-,u:1001:r--,g::r--,m::r--,o::---";
static const char *HOST_D = "u::rwx,u:1002:r-x,g::r-x,m::r-x,o::---";

static int hostset(char *p, const char *name)
{
	struct stat st;

	char d[PATH_MAX];

	a9_path(d, a9_mnt(), "hostset");
	if (stat(d, &st))
		return -errno;
	a9_path(p, d, name);
	return 0;
}

TEST_F(coherence, hostset_file_acl_stable_across_stat_open)
{
	char buf[PATH_MAX];
	struct stat st;
	int fd;

	if (hostset(buf, "f"))
		SKIP(return, "%s/hostset missing (host did not pre-populate)", a9_mnt());
	EXPECT_ACL(buf, A9_XA_ACCESS, HOST_F);
	ASSERT_EQ(0, stat(buf, &st));
	EXPECT_EQ(0640u, (unsigned)(st.st_mode & 07777));
	fd = open(buf, O_RDONLY);
	ASSERT_LE(0, fd);
	close(fd);
	EXPECT_ACL(buf, A9_XA_ACCESS, HOST_F);
	a9_drop_caches();
	EXPECT_ACL(buf, A9_XA_ACCESS, HOST_F);
}

TEST_F(coherence, hostset_dir_default_stable_across_readdir)
{
	char buf[PATH_MAX], cmdout[4096];
	char *argv[] = { (char *)a9_tool("ls"), "-la", buf, NULL };

	if (hostset(buf, "d"))
		SKIP(return, "%s/hostset missing (host did not pre-populate)", a9_mnt());
	EXPECT_ACL(buf, A9_XA_DEFAULT, HOST_D);
	a9_run_cmd(NULL, argv, cmdout, sizeof(cmdout), NULL, 0);
	EXPECT_ACL(buf, A9_XA_DEFAULT, HOST_D);
	a9_drop_caches();
	EXPECT_ACL(buf, A9_XA_DEFAULT, HOST_D);
}

TEST_F(coherence, acl_survives_cache_drop)
{
	const char *t = "u::rw-,u:1003:rw-,g::r--,m::rw-,o::---";

	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, t);
	a9_drop_caches();
	EXPECT_ACL(self->p, A9_XA_ACCESS, t);
	EXPECT_MODE(self->p, 0660);
}

TEST_F(coherence, chmod_result_survives_cache_drop)
{
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1003:rw-,g::r--,m::rw-,o::---");
	ASSERT_EQ(0, chmod(self->p, 0604));
	a9_drop_caches();
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1003:rw-,g::r--,m::---,o::r--");
	EXPECT_MODE(self->p, 0604);
}

TEST_F(coherence, change_via_fd_seen_via_path_and_link)
{
	const char *a = "u::rw-,u:1001:r--,g::r--,m::r--,o::---";
	const char *b = "u::rw-,u:1002:rwx,g::r--,m::rwx,o::---";
	unsigned char v[256];
	ssize_t n;
	int fd;

	a9_path(self->p, self->dir, "f");
	a9_path(self->q, self->dir, "link");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_EQ(0, link(self->p, self->q));
	ASSERT_SET(self->q, A9_XA_ACCESS, a);
	EXPECT_ACL(self->p, A9_XA_ACCESS, a);
	fd = open(self->p, O_RDONLY);
	ASSERT_LE(0, fd);
	n = a9_build(v, sizeof(v), b);
	ASSERT_EQ(0, fsetxattr(fd, A9_XA_ACCESS, v, (size_t)n, 0));
	EXPECT_ACL(self->p, A9_XA_ACCESS, b);
	EXPECT_ACL(self->q, A9_XA_ACCESS, b);
	EXPECT_MODE(self->q, 0670);
	close(fd);
}

TEST_F(coherence, chmod_via_second_mount_updates_mask)
{
	const char *n = getenv("ACL9P_MNT_NOACL");
	char np[PATH_MAX];

	if (!n || !*n)
		SKIP(return, "ACL9P_MNT_NOACL not set: no second mount of the export");
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,m::rwx,o::---");
	snprintf(np, sizeof(np), "%s%s", n, self->p + strlen(a9_mnt()));
	ASSERT_EQ(0, chmod(np, 0640)) TH_LOG("chmod %s: %s", np, strerror(errno));
	EXPECT_MODE(self->p, 0640);
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,m::r--,o::---");
}

TEST_F(coherence, file_replaced_via_second_mount_has_no_acl)
{
	const char *n = getenv("ACL9P_MNT_NOACL");
	char np[PATH_MAX];

	if (!n || !*n)
		SKIP(return, "ACL9P_MNT_NOACL not set: no second mount of the export");
	a9_path(self->p, self->dir, "f");
	ASSERT_EQ(0, a9_mkfile(self->p, 0600, NULL));
	ASSERT_SET(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,m::rwx,o::---");
	EXPECT_ACL(self->p, A9_XA_ACCESS, "u::rw-,u:1001:rwx,g::r--,m::rwx,o::---");
	/* replace the file under the same name through the other mount */
	snprintf(np, sizeof(np), "%s%s", n, self->p + strlen(a9_mnt()));
	ASSERT_EQ(0, unlink(np));
	ASSERT_EQ(0, a9_mkfile(np, 0644, NULL));
	EXPECT_NOACL(self->p, A9_XA_ACCESS);
	EXPECT_MODE(self->p, 0644);
}

TEST_HARNESS_MAIN
