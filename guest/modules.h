/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a kernel with modules (a distribution's, scripts/distro-kernel.sh)
 * needs from PID 1 before the share can be mounted: its modules loaded
 * and, without the kernel's own IP autoconfiguration, its network.
 */
#ifndef ACL9P_GUEST_MODULES_H
#define ACL9P_GUEST_MODULES_H

/* the list scripts/distro-kernel.sh appends to the initramfs */
#define MODULES_DIR	"/lib/modules/acl9p"

/*
 * Load the modules MODULES_DIR/order names, in its order.  Returns the
 * number loaded, 0 when there is no list (a kernel with everything
 * built in), -1 when the list cannot be read.  A module that fails to
 * load is said on the console and the next one is tried: a softdep the
 * CPU cannot run (crc32c-intel under TCG) is not needed, and a missing
 * one shows as the failure of the mount that needed it.
 */
int load_modules(void (*say)(const char *fmt, ...));

/*
 * The kernel's "ip=CLIENT::GATEWAY:NETMASK::DEVICE:off" done by hand:
 * a kernel without CONFIG_IP_PNP does not know the parameter, so it
 * reaches PID 1 as the environment variable "ip" (init/main.c) and is
 * configured here.  Returns 0, or -1 with errno after saying why.
 */
int configure_ip(const char *spec, void (*say)(const char *fmt, ...));

#endif
