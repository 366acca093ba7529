/* Active process sets: IMB's Q list, -npmin, -map, and multi-mode groups. */
#ifndef EB_PROCSETS_H
#define EB_PROCSETS_H

/* IMB's process counts for P processes: npmin, 2*npmin, 4*npmin, ...,
 * (all below P), then P.  npmin <= 0 means the default (2, or 1 when P is 1);
 * npmin > P means P.  Returns the count written to out (at most max). */
int eb_procs_list(int P, int npmin, int *out, int max);

/* The order in which world ranks fill process sets.  Without -map it is
 * 0..P-1; with -map p x q the p x q matrix is numbered down the columns
 * (entry (i,j) = i + j*p) and read along the rows, as the IMB guide's -map. */
int eb_map_order(int P, int map_p, int map_q, int *order, char *err, int errlen);

/* Parse "PxQ" of -map. */
int eb_parse_map(const char *arg, int *p, int *q, char *err, int errlen);

#endif
