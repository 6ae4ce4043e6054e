/* The proxy's log: see log.h. */
#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static int log_fd = -1;

void log_open(int fd)
{
	log_fd = fd;
}

static void vline(const char *fmt, va_list ap)
{
	char buf[2048];
	struct timespec ts;
	int n, k;

	if (log_fd < 0)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	n = snprintf(buf, sizeof(buf), "%lld.%03ld ninep-proxy[%ld]: ",
		     (long long)ts.tv_sec, ts.tv_nsec / 1000000, (long)getpid());
	if (n < 0)
		return;
	k = vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	if (k < 0)
		return;
	n += k;
	if ((size_t)n > sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;	/* cut, but still one line */
	buf[n++] = '\n';
	while (write(log_fd, buf, (size_t)n) < 0 && errno == EINTR)
		;
}

void plog(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(fmt, ap);
	va_end(ap);
}

void plog_frame(const char *what, const char *reason, const uint8_t *buf,
		size_t len)
{
	char hex[3 * 32 + 1];
	size_t n = len < 32 ? len : 32;

	for (size_t i = 0; i < n; i++)
		snprintf(hex + 3 * i, 4, "%02x ", buf[i]);
	hex[n ? 3 * n - 1 : 0] = '\0';
	plog("%s: %s: %zu bytes: %s%s", what, reason, len, hex,
	     len > n ? " ..." : "");
}
