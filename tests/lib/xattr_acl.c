// SPDX-License-Identifier: GPL-2.0
/* Encoding/decoding of system.posix_acl_* values, raw xattr access. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "acl9p.h"

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) |
	       ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

ssize_t a9_encode(void *buf, size_t bufsz, uint32_t version,
		  const struct a9_ent *e, int n)
{
	unsigned char *p = buf;
	size_t need = a9_xattr_size(n);
	int i;

	if (bufsz < need)
		return -ERANGE;
	put32(p, version);
	for (i = 0; i < n; i++) {
		unsigned char *q = p + 4 + 8 * i;

		put16(q, e[i].tag);
		put16(q + 2, e[i].perm);
		put32(q + 4, e[i].id);
	}
	return (ssize_t)need;
}

static int parse_perm(const char *s, size_t len, uint16_t *perm)
{
	uint16_t p = 0;
	size_t i;

	if (len == 1 && s[0] >= '0' && s[0] <= '7') {
		*perm = (uint16_t)(s[0] - '0');
		return 0;
	}
	if (len == 0 || len > 3)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		switch (s[i]) {
		case 'r': p |= 4; break;
		case 'w': p |= 2; break;
		case 'x': p |= 1; break;
		case '-': break;
		default: return -EINVAL;
		}
	}
	*perm = p;
	return 0;
}

int a9_parse(const char *text, struct a9_ent *out, int max)
{
	const char *s = text;
	int n = 0;

	while (*s) {
		const char *end = strchr(s, ',');
		const char *c1, *c2;
		size_t len = end ? (size_t)(end - s) : strlen(s);
		char tagname[16], idstr[32];
		size_t tl, il;
		struct a9_ent e = { 0, 0, A9_ACL_UNDEFINED_ID };

		if (n >= max)
			return -EINVAL;
		c1 = memchr(s, ':', len);
		if (!c1)
			return -EINVAL;
		c2 = memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - s));
		if (!c2)
			return -EINVAL;
		tl = (size_t)(c1 - s);
		il = (size_t)(c2 - c1 - 1);
		if (tl >= sizeof(tagname) || il >= sizeof(idstr))
			return -EINVAL;
		memcpy(tagname, s, tl);
		tagname[tl] = 0;
		memcpy(idstr, c1 + 1, il);
		idstr[il] = 0;
		if (parse_perm(c2 + 1, len - (size_t)(c2 + 1 - s), &e.perm))
			return -EINVAL;
		if (!strcmp(tagname, "u") || !strcmp(tagname, "user"))
			e.tag = il ? A9_ACL_USER : A9_ACL_USER_OBJ;
		else if (!strcmp(tagname, "g") || !strcmp(tagname, "group"))
			e.tag = il ? A9_ACL_GROUP : A9_ACL_GROUP_OBJ;
		else if (!strcmp(tagname, "m") || !strcmp(tagname, "mask"))
			e.tag = A9_ACL_MASK;
		else if (!strcmp(tagname, "o") || !strcmp(tagname, "other"))
			e.tag = A9_ACL_OTHER;
		else
			return -EINVAL;
		if (il) {
			char *ep;
			unsigned long v = strtoul(idstr, &ep, 10);

			if (*ep || v > 0xffffffffUL)
				return -EINVAL;
			if (e.tag != A9_ACL_USER && e.tag != A9_ACL_GROUP)
				return -EINVAL;
			e.id = (uint32_t)v;
		}
		out[n++] = e;
		s += len;
		if (*s == ',')
			s++;
	}
	return n;
}

ssize_t a9_build(void *buf, size_t bufsz, const char *text)
{
	static struct a9_ent e[A9_MAX_ENTS];
	int n = a9_parse(text, e, A9_MAX_ENTS);

	if (n < 0) {
		fprintf(stderr, "# acl9p: bad ACL text in test: %s\n", text);
		abort();
	}
	return a9_encode(buf, bufsz, A9_XATTR_VERSION, e, n);
}

static void perm_str(uint16_t perm, char *p)
{
	p[0] = (perm & 4) ? 'r' : '-';
	p[1] = (perm & 2) ? 'w' : '-';
	p[2] = (perm & 1) ? 'x' : '-';
	p[3] = 0;
}

char *a9_decode(const void *buf, size_t len, char *out, size_t outsz)
{
	const unsigned char *p = buf;
	size_t off = 0, i, n;

	out[0] = 0;
	if (len < 4 || (len - 4) % 8) {
		snprintf(out, outsz, "<bad:size %zu>", len);
		return out;
	}
	if (get32(p) != A9_XATTR_VERSION) {
		snprintf(out, outsz, "<bad:version %u>", get32(p));
		return out;
	}
	n = (len - 4) / 8;
	for (i = 0; i < n && off < outsz; i++) {
		const unsigned char *q = p + 4 + 8 * i;
		uint16_t tag = get16(q), perm = get16(q + 2);
		uint32_t id = get32(q + 4);
		char ps[4], idbuf[16] = "";
		const char *t;

		switch (tag) {
		case A9_ACL_USER_OBJ: t = "u"; break;
		case A9_ACL_USER: t = "u"; snprintf(idbuf, sizeof(idbuf), "%u", id); break;
		case A9_ACL_GROUP_OBJ: t = "g"; break;
		case A9_ACL_GROUP: t = "g"; snprintf(idbuf, sizeof(idbuf), "%u", id); break;
		case A9_ACL_MASK: t = "m"; break;
		case A9_ACL_OTHER: t = "o"; break;
		default: t = "?"; snprintf(idbuf, sizeof(idbuf), "tag%#x", tag); break;
		}
		if (perm & ~7u)
			snprintf(ps, sizeof(ps), "%03o", perm & 0777);
		else
			perm_str(perm, ps);
		off += (size_t)snprintf(out + off, outsz - off, "%s%s:%s:%s",
					i ? "," : "", t, idbuf, ps);
	}
	return out;
}

char *a9_hex(const void *buf, size_t len, char *out, size_t outsz)
{
	const unsigned char *p = buf;
	size_t i;

	out[0] = 0;
	for (i = 0; i < len && 2 * i + 2 < outsz; i++)
		snprintf(out + 2 * i, 3, "%02x", p[i]);
	return out;
}

ssize_t a9_get(const char *path, const char *name, void *buf, size_t sz)
{
	ssize_t r = lgetxattr(path, name, buf, sz);

	return r < 0 ? -errno : r;
}

int a9_get_text(const char *path, const char *name, char *out, size_t outsz)
{
	static unsigned char buf[A9_XATTR_SIZE_MAX];
	ssize_t r = a9_get(path, name, buf, sizeof(buf));

	out[0] = 0;
	if (r < 0)
		return (int)r;
	a9_decode(buf, (size_t)r, out, outsz);
	return 0;
}

int a9_set_raw(const char *path, const char *name, const void *v, size_t n)
{
	return lsetxattr(path, name, v, n, 0) ? -errno : 0;
}

int a9_set_text(const char *path, const char *name, const char *text)
{
	static unsigned char buf[A9_XATTR_SIZE_MAX + 64];
	ssize_t n = a9_build(buf, sizeof(buf), text);

	if (n < 0)
		return (int)n;
	return a9_set_raw(path, name, buf, (size_t)n);
}

int a9_remove(const char *path, const char *name)
{
	return lremovexattr(path, name) ? -errno : 0;
}

int a9_listed(const char *path, const char *name)
{
	char buf[8192];
	ssize_t n = llistxattr(path, buf, sizeof(buf));
	ssize_t off = 0;

	if (n < 0)
		return -errno;
	while (off < n) {
		if (!strcmp(buf + off, name))
			return 1;
		off += (ssize_t)strlen(buf + off) + 1;
	}
	return 0;
}

const char *a9_errname(int err)
{
	static char buf[32];

	if (err < 0)
		err = -err;
	switch (err) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EIO: return "EIO";
	case E2BIG: return "E2BIG";
	case EACCES: return "EACCES";
	case EEXIST: return "EEXIST";
	case EINVAL: return "EINVAL";
	case ENOSPC: return "ENOSPC";
	case ERANGE: return "ERANGE";
	case ENODATA: return "ENODATA";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOSYS: return "ENOSYS";
	case EFAULT: return "EFAULT";
	case ENOMEM: return "ENOMEM";
	case EROFS: return "EROFS";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EBADF: return "EBADF";
	case EMSGSIZE: return "EMSGSIZE";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	}
	snprintf(buf, sizeof(buf), "errno%d", err);
	return buf;
}
