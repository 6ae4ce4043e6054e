/* The POSIX ACL xattr value: see aclxattr.h.  Each check names the
 * kernel function of Linux 6.1 (fs/posix_acl.c, fs/namei.c) it mirrors. */
#include "aclxattr.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static enum aclx_verdict say(enum aclx_verdict v, char *why, size_t cap,
			     const char *fmt, ...)
{
	va_list ap;

	if (why && cap) {
		va_start(ap, fmt);
		vsnprintf(why, cap, fmt, ap);
		va_end(ap);
	}
	return v;
}

#define INVALID(...) say(ACLX_INVALID, why, whycap, __VA_ARGS__)

enum aclx_verdict aclx_parse(const uint8_t *v, size_t len, uint64_t declared,
			     struct aclx *acl, char *why, size_t whycap)
{
	/* posix_acl_valid()'s state: the next tag class expected */
	enum { S_USER_OBJ, S_USER, S_GROUP, S_OTHER, S_DONE } state = S_USER_OBJ;
	int needs_mask = 0;
	size_t n;

	if (declared == 0)
		return say(ACLX_NONE, why, whycap, "declared size 0");
	/* a value read short (or long) is not the one the server holds */
	if (len != declared)
		return INVALID("%zu bytes read of %llu declared", len,
			       (unsigned long long)declared);
	/* posix_acl_from_xattr() */
	if (len < ACLX_HDR)
		return INVALID("size %zu below the header", len);
	if (get32(v) != ACLX_VERSION)
		return INVALID("version %u", get32(v));
	if ((len - ACLX_HDR) % ACLX_ENTRY)
		return INVALID("size %zu is not 4+8n", len);
	n = (len - ACLX_HDR) / ACLX_ENTRY;
	/* the kernel reads no entries as no ACL; a server that has none
	 * says so with ENODATA or size 0, so this is no ACL anybody set */
	if (n == 0)
		return INVALID("no entries");
	if (n > ACLX_MAX_ENTRIES)
		return INVALID("%zu entries, over an xattr's", n);
	for (size_t i = 0; i < n; i++) {
		const uint8_t *p = v + ACLX_HDR + ACLX_ENTRY * i;
		struct aclx_entry e = { get16(p), get16(p + 2), get32(p + 4) };

		switch (e.tag) {
		case ACLX_USER_OBJ:
		case ACLX_GROUP_OBJ:
		case ACLX_MASK:
		case ACLX_OTHER:
			break;
		case ACLX_USER:
		case ACLX_GROUP:
			/* make_kuid()/make_kgid() in the initial namespace:
			 * every id but (uid_t)-1 */
			if (e.id == ACLX_UNDEFINED_ID)
				return INVALID("entry %zu: named id 0xffffffff", i);
			break;
		default:
			return INVALID("entry %zu: unknown tag 0x%x", i, e.tag);
		}
		if (acl)
			acl->e[i] = e;
	}
	if (acl)
		acl->count = n;
	/* posix_acl_valid(), with the entries as they were read */
	for (size_t i = 0; i < n; i++) {
		const uint8_t *p = v + ACLX_HDR + ACLX_ENTRY * i;
		uint16_t tag = get16(p), perm = get16(p + 2);

		if (perm & ~7u)
			return INVALID("entry %zu: perm 0x%x beyond rwx", i, perm);
		switch (tag) {
		case ACLX_USER_OBJ:
			if (state != S_USER_OBJ)
				return INVALID("entry %zu: a second or late USER_OBJ", i);
			state = S_USER;
			break;
		case ACLX_USER:
			if (state != S_USER)
				return INVALID("entry %zu: USER out of order", i);
			needs_mask = 1;
			break;
		case ACLX_GROUP_OBJ:
			if (state != S_USER)
				return INVALID("entry %zu: GROUP_OBJ out of order", i);
			state = S_GROUP;
			break;
		case ACLX_GROUP:
			if (state != S_GROUP)
				return INVALID("entry %zu: GROUP out of order", i);
			needs_mask = 1;
			break;
		case ACLX_MASK:
			if (state != S_GROUP)
				return INVALID("entry %zu: MASK out of order", i);
			state = S_OTHER;
			break;
		case ACLX_OTHER:
			if (state == S_GROUP && needs_mask)
				return INVALID("no MASK with named entries");
			if (state != S_OTHER && state != S_GROUP)
				return INVALID("entry %zu: OTHER out of order", i);
			state = S_DONE;
			break;
		}
		if (state == S_DONE && i + 1 < n)
			return INVALID("entry %zu after OTHER", i + 1);
	}
	if (state != S_DONE)
		return INVALID("no %s entry", state == S_USER_OBJ ? "USER_OBJ" :
			       state == S_USER ? "GROUP_OBJ" : "OTHER");
	return say(ACLX_VALID, why, whycap, "valid");
}

int aclx_ids_sorted(const struct aclx *acl)
{
	for (size_t i = 1; i < acl->count; i++) {
		const struct aclx_entry *a = &acl->e[i - 1], *b = &acl->e[i];

		if (a->tag == b->tag && (a->tag == ACLX_USER || a->tag == ACLX_GROUP) &&
		    a->id >= b->id)
			return 0;
	}
	return 1;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

size_t aclx_encode(const struct aclx *acl, uint8_t *out, size_t cap)
{
	size_t len = ACLX_HDR + ACLX_ENTRY * acl->count;

	if (len > cap)
		return 0;
	put32(out, ACLX_VERSION);
	for (size_t i = 0; i < acl->count; i++) {
		const struct aclx_entry *e = &acl->e[i];
		uint8_t *p = out + ACLX_HDR + ACLX_ENTRY * i;
		int named = e->tag == ACLX_USER || e->tag == ACLX_GROUP;

		put16(p, e->tag);
		put16(p + 2, e->perm);
		put32(p + 4, named ? e->id : ACLX_UNDEFINED_ID);
	}
	return len;
}

/* in_group_p(): the fsgid or a supplementary group */
static int in_group(const struct aclx_cred *c, uint32_t gid)
{
	if (c->gid == gid)
		return 1;
	for (size_t i = 0; i < c->ngroups && i < 16; i++)
		if (c->groups[i] == gid)
			return 1;
	return 0;
}

/* posix_acl_permission(): 0, EACCES or EIO */
static int acl_decides(const struct aclx *acl, const struct aclx_inode *ino,
		       const struct aclx_cred *c, int want)
{
	int found = 0;
	size_t i;

	for (i = 0; i < acl->count; i++) {
		const struct aclx_entry *e = &acl->e[i];

		switch (e->tag) {
		case ACLX_USER_OBJ:
			if (ino->uid == c->uid)
				goto check_perm;
			break;
		case ACLX_USER:
			if (e->id == c->uid)
				goto mask;
			break;
		case ACLX_GROUP_OBJ:
			if (in_group(c, ino->gid)) {
				found = 1;
				if ((e->perm & want) == want)
					goto mask;
			}
			break;
		case ACLX_GROUP:
			if (in_group(c, e->id)) {
				found = 1;
				if ((e->perm & want) == want)
					goto mask;
			}
			break;
		case ACLX_MASK:
			break;
		case ACLX_OTHER:
			if (found)
				return EACCES;
			goto check_perm;
		default:
			return EIO;
		}
	}
	return EIO;
mask:
	for (size_t m = i + 1; m < acl->count; m++)
		if (acl->e[m].tag == ACLX_MASK)
			return (acl->e[i].perm & acl->e[m].perm & want) == want ?
				0 : EACCES;
check_perm:
	return (acl->e[i].perm & want) == want ? 0 : EACCES;
}

int aclx_permission(const struct aclx *acl, const struct aclx_inode *ino,
		    const struct aclx_cred *cred, int want)
{
	uint32_t mode = ino->mode & 0777;

	want &= 7;
	/* acl_permission_check(): the owner, by the mode alone */
	if (ino->uid == cred->uid)
		return (want & ~(mode >> 6)) ? EACCES : 0;
	if (acl && (mode & 070))
		return acl_decides(acl, ino, cred, want);
	if ((want & (mode ^ (mode >> 3))) && in_group(cred, ino->gid))
		mode >>= 3;
	/* no capability helps the caller: the decision stands */
	return (want & ~mode) ? EACCES : 0;
}

int aclx_from_text(const char *text, struct aclx *acl)
{
	const char *s = text;

	acl->count = 0;
	while (*s) {
		struct aclx_entry e = { 0, 0, ACLX_UNDEFINED_ID };
		char kind = *s++;
		unsigned long id = 0;
		int named = 0;

		if (*s++ != ':')
			return -1;
		while (*s >= '0' && *s <= '9') {
			id = id * 10 + (unsigned long)(*s++ - '0');
			if (id > 0xffffffffUL)
				return -1;
			named = 1;
		}
		if (*s++ != ':')
			return -1;
		switch (kind) {
		case 'u': e.tag = named ? ACLX_USER : ACLX_USER_OBJ; break;
		case 'g': e.tag = named ? ACLX_GROUP : ACLX_GROUP_OBJ; break;
		case 'm': e.tag = ACLX_MASK; break;
		case 'o': e.tag = ACLX_OTHER; break;
		default: return -1;
		}
		if ((kind == 'm' || kind == 'o') && named)
			return -1;
		if (named)
			e.id = (uint32_t)id;
		for (int b = 0; b < 3; b++, s++) {
			if (*s == "rwx"[b])
				e.perm |= (uint16_t)(4 >> b);
			else if (*s != '-')
				return -1;
		}
		if (acl->count >= ACLX_MAX_ENTRIES)
			return -1;
		acl->e[acl->count++] = e;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return 0;
}
