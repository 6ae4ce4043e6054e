/* The POSIX ACL xattr value (system.posix_acl_access and _default) as
 * Linux 6.1 takes it from a filesystem: the strict reading of a value
 * a server sent, the encoding a getxattr gives back, and the access
 * decision the VFS makes with it.  Pure functions, no I/O: the fuzz
 * judge (tests/host/fuzzjudge.c) and the fuzz guest (tests/fuzz/guest.c)
 * use them, the proxy's self-tests check them against known values.
 *
 * The format: a_version[4] (2), then 8-byte entries e_tag[2] e_perm[2]
 * e_id[4], little endian.  "Strict" is exactly what the kernel accepts
 * of a value: posix_acl_from_xattr() (version, a size of 4 + 8n with
 * n > 0, known tags, named ids that map to a kuid) and then
 * posix_acl_valid() (perm bits rwx only; USER_OBJ, USER..., GROUP_OBJ,
 * GROUP..., an optional MASK, OTHER in that order; the MASK required
 * when there is a named entry), plus that the value is as long as the
 * size the server declared.  posix_acl_valid() does not look at the
 * order or uniqueness of the named ids: a value with them unsorted or
 * twice is valid here, and aclx_ids_sorted() tells them apart. */
#ifndef ACLXATTR_H
#define ACLXATTR_H

#include <stddef.h>
#include <stdint.h>

enum {
	ACLX_VERSION = 2,
	ACLX_HDR = 4,
	ACLX_ENTRY = 8,
	/* the most entries a value of XATTR_SIZE_MAX (65536) bytes holds */
	ACLX_MAX_ENTRIES = (65536 - 4) / 8,
};

/* include/uapi/linux/posix_acl.h */
enum {
	ACLX_USER_OBJ = 0x01,
	ACLX_USER = 0x02,
	ACLX_GROUP_OBJ = 0x04,
	ACLX_GROUP = 0x08,
	ACLX_MASK = 0x10,
	ACLX_OTHER = 0x20,
};

/* what posix_acl_to_xattr() writes as the id of an unnamed entry, and
 * the one id no kuid maps to */
#define ACLX_UNDEFINED_ID 0xffffffffu

struct aclx_entry {
	uint16_t tag, perm;
	uint32_t id;
};

struct aclx {
	size_t count;
	struct aclx_entry e[ACLX_MAX_ENTRIES];
};

enum aclx_verdict {
	ACLX_VALID,	/* an ACL the kernel must take exactly so */
	ACLX_NONE,	/* declared size 0: the server says there is none */
	ACLX_INVALID,	/* anything else: the client must refuse it */
};

/* The strict reading of LEN bytes a client received for a value whose
 * Rxattrwalk declared DECLARED bytes.  ACL (may be NULL) holds the
 * entries when ACLX_VALID.  *WHY (may be NULL) says what is wrong, or
 * "valid", in a word or a few, for a log line. */
enum aclx_verdict aclx_parse(const uint8_t *v, size_t len, uint64_t declared,
			     struct aclx *acl, char *why, size_t whycap);

/* 1 when a valid ACL's named ids are sorted and unique within USER and
 * within GROUP, as libacl's acl_check() and setfacl make them; the
 * kernel does not ask for it. */
int aclx_ids_sorted(const struct aclx *acl);

/* The bytes getxattr gives for ACL, as posix_acl_to_xattr() makes them:
 * version 2, the entries in their order, ACLX_UNDEFINED_ID as the id of
 * unnamed ones.  The length, or 0 when CAP is too small. */
size_t aclx_encode(const struct aclx *acl, uint8_t *out, size_t cap);

/* Who asks, and about what file. */
struct aclx_cred {
	uint32_t uid, gid;	/* fsuid, fsgid */
	size_t ngroups;
	uint32_t groups[16];	/* supplementary */
};

struct aclx_inode {
	uint32_t uid, gid;
	uint32_t mode;		/* st_mode; the permission bits are used */
};

/* The decision of generic_permission() for CRED without capabilities
 * on INODE with ACL (NULL: none) for WANT (4 read, 2 write, 1 exec, or
 * together): 0 granted, or EACCES; EIO where posix_acl_permission()
 * says so (never for a valid ACL).  acl_permission_check(): the owner
 * by the mode's owner bits; an ACL only when the mode has group bits
 * (posix_acl_permission(): the first entry that matches decides,
 * masked by a MASK that follows it); else the group or other bits. */
int aclx_permission(const struct aclx *acl, const struct aclx_inode *ino,
		    const struct aclx_cred *cred, int want);

/* Short text, as setfacl's without names: "u::rw-,u:1001:r--,g::r--,
 * m::r--,o::---" (u, g, m, o; rwx or -), into ACL in the order given.
 * 0, or -1 on text it does not take. */
int aclx_from_text(const char *text, struct aclx *acl);

#endif
