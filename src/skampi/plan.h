/* The plan of one suite: its defaults and Max_Value resolved against this run
 * (processes, @MEMORY) before any suite is measured. */
#ifndef EB_SKAMPI_PLAN_H
#define EB_SKAMPI_PLAN_H

#include "skampi/config.h"
#include "skampi/env.h"
#include "skampi/refine.h"

#include <stddef.h>

typedef struct {
    sk_grid grid;
    enum sk_variation var;
    int procs;          /* processes when not varying Nodes */
    long count;         /* elements when not varying Length */
    long chunks;        /* chunks when not varying Chunks (master-worker) */
    int skip;           /* cannot run with this many processes */
    char why[256];
} sk_plan;

/* Resolve defaults and Max_Value against this run; -1 and a message naming
 * the file, line and key when the suite cannot be run as written. */
int sk_plan_make(const sk_env *e, const sk_config *cfg, const sk_suite *s, sk_plan *p, char *err,
                 size_t errlen);

#endif
