#include "imb/driver/procsets.h"

#include "core/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int eb_procs_list(int P, int npmin, int *out, int max)
{
    int n = 0;
    if (npmin <= 0)
        npmin = P > 1 ? 2 : 1;
    if (npmin > P)
        npmin = P;
    for (long q = npmin; q < P && n < max; q *= 2)
        out[n++] = (int)q;
    if (n < max)
        out[n++] = P;
    return n;
}

int eb_map_order(int P, int map_p, int map_q, int *order, char *err, int errlen)
{
    if (map_p <= 0) {
        for (int r = 0; r < P; r++)
            order[r] = r;
        return 0;
    }
    if ((long)map_p * map_q != P)
        return eb_err(err, (size_t)errlen,
                      "-map %dx%d: the matrix has %ld places but %d processes run",
                      map_p, map_q, (long)map_p * map_q, P);
    int k = 0;
    for (int i = 0; i < map_p; i++)
        for (int j = 0; j < map_q; j++)
            order[k++] = i + j * map_p;
    return 0;
}

int eb_parse_map(const char *arg, int *p, int *q, char *err, int errlen)
{
    const char *x = strchr(arg, 'x');
    if (!x)
        x = strchr(arg, 'X');
    char *end1, *end2;
    errno = 0;
    long a = x ? strtol(arg, &end1, 10) : 0;
    long b = x ? strtol(x + 1, &end2, 10) : 0;
    if (!x || end1 != x || *end2 || errno || a < 1 || b < 1 || a > 1000000 || b > 1000000)
        return eb_err(err, (size_t)errlen, "-map %s: expected PxQ with positive integers", arg);
    *p = (int)a;
    *q = (int)b;
    return 0;
}
