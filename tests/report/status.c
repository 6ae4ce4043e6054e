#include "status.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static long to_long(const char *v, long dflt)
{
	char *end;
	long n = strtol(v, &end, 10);
	return end == v ? dflt : n;
}

void status_read(const char *path, struct status *st)
{
	memset(st, 0, sizeof(*st));
	st->exit_code = -1;
	st->wall_ms = -1;
	st->kernel_reports = -1;
	st->reason = xstrdup("");
	st->console = xstrdup("");
	st->ktap_error = xstrdup("");

	FILE *f = fopen(path, "r");
	if (!f)
		return;
	st->present = 1;
	char *buf = NULL, *line;
	size_t cap = 0;
	/* Lenient on purpose: a status file the rig half-wrote should still
	 * give us what it has; unknown keys are for newer rigs. */
	while ((line = read_clean_line(f, &buf, &cap))) {
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = 0;
		char *k = trim(line), *v = eq + 1;
		if (!strcmp(k, "exit")) {
			st->exit_code = to_long(v, -1);
			st->has_exit = 1;
		} else if (!strcmp(k, "timeout")) {
			st->timeout = to_long(v, 0) != 0;
		} else if (!strcmp(k, "splat")) {
			st->splat = to_long(v, 0) != 0;
		} else if (!strcmp(k, "kernel_reports")) {
			st->kernel_reports = to_long(v, -2);
			/* a value that is no count is judged, not ignored */
			if (st->kernel_reports < 0)
				st->kernel_reports = -2;
		} else if (!strcmp(k, "wall_ms")) {
			st->wall_ms = to_long(v, -1);
		} else if (!strcmp(k, "reason")) {
			free(st->reason);
			st->reason = xstrdup(trim(v));
		} else if (!strcmp(k, "console")) {
			free(st->console);
			st->console = rel_path(trim(v));
		} else if (!strcmp(k, "ktap_errors")) {
			st->ktap_errors = to_long(v, 0);
		} else if (!strcmp(k, "ktap_error")) {
			free(st->ktap_error);
			st->ktap_error = xstrdup(trim(v));
		}
	}
	free(buf);
	fclose(f);
}

void status_free(struct status *st)
{
	free(st->reason);
	free(st->console);
	free(st->ktap_error);
	st->reason = st->console = st->ktap_error = NULL;
}
