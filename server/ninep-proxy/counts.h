/* T-message counts per bucket, for the per-test traffic report.  A
 * bucket is named by the LABEL of the acl9p-mark=LABEL walk that began
 * it ("-" for the first); when it ends its counts are appended to the
 * counts file as "LABEL<TAB>Tname<TAB>N" lines, in type order, one
 * write() per bucket so the proxies of several connections appending
 * to the same file do not interleave lines. */
#ifndef COUNTS_H
#define COUNTS_H

#include <stdint.h>

enum { LABEL_MAX = 128 };

struct counts {
	int fd;			/* the counts file, -1: counting only */
	char label[LABEL_MAX + 1];
	uint64_t n[256];
};

void counts_init(struct counts *c, int fd);
void counts_add(struct counts *c, uint8_t type);
/* Append the bucket's lines; 0, or -1 when the write failed. */
int counts_flush(struct counts *c);
/* Flush the bucket and begin LABEL. */
int counts_mark(struct counts *c, const char *label);
/* Whether LABEL (LEN bytes) can name a bucket: 1-LABEL_MAX printable
 * ASCII bytes without blanks, so the TSV line stays one line of three
 * fields. */
int counts_label_ok(const char *label, unsigned long len);

#endif
