/* `effbench guidelines`: the self-consistent performance guidelines of Träff,
 * Gropp and Thakur (IEEE TPDS 21(5), 2010), checked as ReproMPI's PGMPI does
 * with core's mock-ups (core/mockups.h): each collective against the same
 * operation built from other collectives, in seeded shuffled rounds, a
 * one-sided rank-sum test per comparison and Holm's correction over the table
 * (core/ranktest.h).  docs/guidelines.md. */
#ifndef EB_GL_H
#define EB_GL_H

#include "core/mockup_types.h"

#include <mpi.h>
#include <stdio.h>

#define GL_METHODOLOGY "guidelines"
#define GL_MAX_VARIANTS 8 /* the library call and its mock-ups */
#define GL_MAX_BYTES (1L << 26) /* a block; P blocks must count below INT_MAX ints */

typedef struct {
    int *colls; /* indices of gl_coll_name */
    int ncolls;
    long *sizes; /* bytes of one block */
    int nsizes;
    const eb_mockup **mockups; /* --mockups, or NULL: every mock-up */
    int nmockups;
    int rounds, reps;
    double alpha;
    unsigned long seed;
    int check, help;
    const char *json;
} gl_options;

/* ---- gl_opts.c ---- */
int gl_parse(gl_options *o, int argc, char **argv, char *err, size_t errlen);
void gl_usage(FILE *f);
void gl_options_free(gl_options *o);

/* ---- gl_data.c: the collectives with mock-ups, their buffers and -check ---- */
int gl_coll_count(void);
const char *gl_coll_name(int c);
int gl_coll_find(const char *name); /* "MPI_Bcast", "bcast" (any case); -1 if none */

typedef struct gl_bufs gl_bufs;
/* The buffers of collective c at `bytes` per block (ints, MPI_SUM, root 0),
 * with the mock-ups of o->mockups (all when NULL). */
gl_bufs *gl_bufs_make(int c, long bytes, const gl_options *o, MPI_Comm comm);
void gl_bufs_free(gl_bufs *b);
/* The variants: 0 the library's call, 1.. its mock-ups. */
int gl_variant_count(const gl_bufs *b);
const char *gl_variant_name(const gl_bufs *b, int v);
void gl_variant_run(gl_bufs *b, int v);
/* One checked call of variant v outside the timing: this rank's defects. */
long gl_variant_check(gl_bufs *b, int v);

#endif
