/* The proxy's log: one line per event, appended with one write() so
 * the proxies of several connections can share the file.  Never
 * stderr once the proxy runs: under QEMU's guestfwd, stderr is the
 * guest's 9p connection. */
#ifndef LOG_H
#define LOG_H

#include <stddef.h>
#include <stdint.h>

/* Log to FD (-1: nowhere). */
void log_open(int fd);
void plog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A line "WHAT: REASON: first bytes XX XX ..." for a refused frame. */
void plog_frame(const char *what, const char *reason, const uint8_t *buf,
		size_t len);

#endif
