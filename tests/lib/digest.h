/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The digest a HOSTCHECK line carries for a value too long to print in
 * hex on a serial console: its length and 64-bit FNV-1a.  Shared by the
 * guest's tests (tests/lib/env.c) and the host's acl9p-hostcheck, so
 * both compute it one way.  Not cryptographic: it tells the host's
 * bytes from the ones the guest expected, against no adversary.
 */
#ifndef ACL9P_DIGEST_H
#define ACL9P_DIGEST_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t a9_fnv1a64(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t h = 0xcbf29ce484222325ull;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ull;
	}
	return h;
}

#endif
