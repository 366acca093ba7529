/* The registry of IMB benchmark descriptors (bench.h), on the core's sorted
 * list: a benchmark whose name (ignoring case, as the command line matches
 * it) its component already has is refused through eb_registry_refuse. */
#include "imb/driver/bench.h"

#include "core/registry.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static eb_reg_list benches;

static int bench_order(const void *p) { return ((const eb_bench *)p)->order; }

static const eb_bench *bench_at(int i) { return benches.v[i]; }

void eb_register_bench(const eb_bench *b)
{
    for (int i = 0; i < benches.n; i++)
        if (strcmp(bench_at(i)->component, b->component) == 0 &&
            strcasecmp(bench_at(i)->name, b->name) == 0) {
            char msg[256];
            snprintf(msg, sizeof msg, "component '%s' has two benchmarks called '%s' (the "
                     "second one is refused)", b->component, b->name);
            eb_registry_refuse(msg);
            return;
        }
    eb_reg_insert(&benches, b, b->order, bench_order);
}

int eb_bench_count(const char *component)
{
    int n = 0;
    for (int i = 0; i < benches.n; i++)
        n += strcmp(bench_at(i)->component, component) == 0;
    return n;
}

const eb_bench *eb_bench_at(const char *component, int k)
{
    for (int i = 0; i < benches.n; i++)
        if (strcmp(bench_at(i)->component, component) == 0 && k-- == 0)
            return bench_at(i);
    return NULL;
}
