/* Message-length series: IMB's -msglog rule and -msglen files.  (b_eff's 21
 * lengths live with b_eff.) */
#ifndef EB_SIZES_H
#define EB_SIZES_H

#include <stddef.h>

typedef struct {
    size_t *v;
    int n;
} eb_sizes;

void eb_sizes_free(eb_sizes *s);

/* IMB: 0, then 2^k for k = minlog..maxlog, except lengths below `unit`
 * (sizeof(float) for reductions) which are skipped, so the second length is
 * max(unit, 2^minlog).  minlog <= maxlog <= 62 is the caller's check. */
void eb_sizes_msglog(int minlog, int maxlog, size_t unit, eb_sizes *out);

/* Parse a -msglen file's text: one non-negative integer per line; blank
 * lines and lines starting with '#' are ignored.  For reductions (unit > 1)
 * a length is rounded down to a multiple of unit; duplicates that creates
 * are dropped.  Error messages name the file and line. */
int eb_sizes_parse_msglen(const char *text, const char *fname, size_t unit,
                          eb_sizes *out, char *err, size_t errlen);

/* Parse "[min:]max" of -msglog. */
int eb_parse_msglog(const char *arg, int *minlog, int *maxlog, int *min_given,
                    char *err, size_t errlen);

#endif
