/* The rig's per-cell "status" file: key=value lines. */
#ifndef ACL9P_REPORT_STATUS_H
#define ACL9P_REPORT_STATUS_H

struct status {
	int present;  /* the file existed */
	int has_exit; /* an exit= line was there */
	long exit_code; /* guest exit code, -1 when the rig could not get one */
	int timeout, splat; /* splat=1: a rig before kernel_reports= */
	/* kernel_reports=N: boot.sh scanned the console and wrote the first
	 * line of each of the N kernel reports it found to kernel-reports,
	 * the console pseudo-test's input; -1 when the key is absent */
	long kernel_reports;
	long wall_ms;   /* -1 unknown */
	long ktap_errors; /* what kunit_parser.py found in ktap.txt */
	char *ktap_error; /* its first message; never NULL */
	char *reason;   /* never NULL */
	char *console;  /* never NULL; relative to the cwd when below it */
};

/* Missing file is not an error here (present=0); the caller decides. */
void status_read(const char *path, struct status *st);
void status_free(struct status *st);

#endif
