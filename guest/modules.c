// SPDX-License-Identifier: GPL-2.0
/*
 * Modules and network for a kernel with modules (guest/modules.h).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <net/route.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "modules.h"

int load_modules(void (*say)(const char *fmt, ...))
{
	char name[256], path[512];
	int loaded = 0, failed = 0;
	FILE *order = fopen(MODULES_DIR "/order", "r");

	if (!order)
		return errno == ENOENT ? 0 : -1;
	while (fgets(name, sizeof(name), order)) {
		int fd, n;

		name[strcspn(name, "\n")] = '\0';
		if (!*name)
			continue;
		n = snprintf(path, sizeof(path), "%s/%s", MODULES_DIR, name);
		if (n < 0 || (size_t)n >= sizeof(path)) {
			say("module %s: name too long", name);
			failed++;
			continue;
		}
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			say("module %s: %s", path, strerror(errno));
			failed++;
			continue;
		}
		/* EEXIST: built in, or loaded already */
		if (syscall(SYS_finit_module, fd, "", 0) == 0)
			loaded++;
		else if (errno != EEXIST) {
			say("module %s: %s", name, strerror(errno));
			failed++;
		}
		close(fd);
	}
	fclose(order);
	say("%d modules loaded from %s%s", loaded, MODULES_DIR,
	    failed ? " (the failures above)" : "");
	return loaded;
}

static int set_addr(int s, const char *dev, unsigned long req,
		    const char *addr)
{
	struct ifreq ifr;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;

	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, dev, IFNAMSIZ - 1);
	sin->sin_family = AF_INET;
	if (inet_pton(AF_INET, addr, &sin->sin_addr) != 1) {
		errno = EINVAL;
		return -1;
	}
	return ioctl(s, req, &ifr);
}

/* up: flags |= IFF_UP */
static int set_up(int s, const char *dev)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, dev, IFNAMSIZ - 1);
	if (ioctl(s, SIOCGIFFLAGS, &ifr))
		return -1;
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	return ioctl(s, SIOCSIFFLAGS, &ifr);
}

static int add_default_route(int s, const char *gw)
{
	struct rtentry rt;
	struct sockaddr_in *dst = (struct sockaddr_in *)&rt.rt_dst;
	struct sockaddr_in *mask = (struct sockaddr_in *)&rt.rt_genmask;
	struct sockaddr_in *gate = (struct sockaddr_in *)&rt.rt_gateway;

	memset(&rt, 0, sizeof(rt));
	dst->sin_family = AF_INET;
	mask->sin_family = AF_INET;
	gate->sin_family = AF_INET;
	if (inet_pton(AF_INET, gw, &gate->sin_addr) != 1) {
		errno = EINVAL;
		return -1;
	}
	rt.rt_flags = RTF_UP | RTF_GATEWAY;
	return ioctl(s, SIOCADDRT, &rt);
}

int configure_ip(const char *spec, void (*say)(const char *fmt, ...))
{
	/* client:server:gateway:netmask:hostname:device:autoconf */
	char buf[256], *field[7] = { 0 }, *p;
	int s, i, n, ret = -1;
	const char *dev;

	n = snprintf(buf, sizeof(buf), "%s", spec);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		say("ip=%s: too long", spec);
		errno = EINVAL;
		return -1;
	}
	for (i = 0, p = buf; i < 7 && p; i++) {
		field[i] = p;
		p = strchr(p, ':');
		if (p)
			*p++ = '\0';
	}
	if (!field[0] || !*field[0] || !field[3] || !*field[3]) {
		say("ip=%s: only CLIENT::GATEWAY:NETMASK::DEVICE:off is understood",
		    spec);
		errno = EINVAL;
		return -1;
	}
	dev = field[5] && *field[5] ? field[5] : "eth0";
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0) {
		say("ip: socket: %s", strerror(errno));
		return -1;
	}
	if (set_addr(s, dev, SIOCSIFADDR, field[0])) {
		say("ip: %s address %s: %s", dev, field[0], strerror(errno));
		goto out;
	}
	if (set_addr(s, dev, SIOCSIFNETMASK, field[3])) {
		say("ip: %s netmask %s: %s", dev, field[3], strerror(errno));
		goto out;
	}
	if (set_up(s, dev)) {
		say("ip: %s up: %s", dev, strerror(errno));
		goto out;
	}
	if (field[2] && *field[2] && add_default_route(s, field[2])) {
		say("ip: default route via %s: %s", field[2], strerror(errno));
		goto out;
	}
	say("ip: %s %s/%s%s%s, by the init (the kernel has no IP autoconfiguration)",
	    dev, field[0], field[3], field[2] && *field[2] ? " via " : "",
	    field[2] ? field[2] : "");
	ret = 0;
out:
	close(s);
	return ret;
}
