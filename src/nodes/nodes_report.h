/* The node-pair matrix's results and their two outputs: the text matrices
 * with the flags on stdout, and the JSON `result` and `summary` records. */
#ifndef EB_NODES_REPORT_H
#define EB_NODES_REPORT_H

#include "nodes/node_matrix.h"

#include "core/json.h"
#include "core/nodemap.h"
#include "core/sysinfo.h"

#include <stdio.h>

#define NODES_DEFAULT_BYTES 4194304
#define NODES_DEFAULT_REPS 100
#define NODES_DEFAULT_BW_REPS 20
#define NODES_NSIZES 3 /* 0 bytes, 8 bytes, --bytes */

typedef struct {
    long bytes;     /* bandwidth message */
    int reps, bw_reps;
    nm_rule rule;
    const char *json_path;
    int help;
} nodes_options;

typedef struct {
    double min, avg, max, median; /* half round trip, us */
} nodes_stat;

typedef struct {
    int a, b; /* node indices, a < b; a timed the pair */
    nodes_stat stat[NODES_NSIZES];
} nodes_pair;

/* The run record's `options`. */
void nodes_options_json(eb_json *j, const nodes_options *o, int nnodes);

/* Rank 0: print the matrices and flags to out, write the JSON records. */
void nodes_report(FILE *out, const nodes_options *o, const eb_sysinfo *si,
                  const eb_nodemap *map, const nodes_pair *pairs, int npairs);

#endif
