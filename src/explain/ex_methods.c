/* The methods of `effbench explain` as parameter sets of one kernel, each
 * from its tool's documented method (docs/methods.md has the table and the
 * sources), and the chains of rows that change one factor at a time from
 * the reference towards a method. */
#include "explain/ex.h"

#include <string.h>
#include <strings.h>

/* factor order: sync, form, statistic, order, region, warm-up, buffers, root, unit; in-flight
 * is one message except in osu_bw's method (bw_methods) */
#define CFG(s, f, st, o, r, w, b, rt, u) {{s, f, st, o, r, w, b, rt, u, 0}}

/* the collectives; root rotation is IMB 4.0's (i % P) and only matters for
 * rooted operations, where ex_methods keeps it (elsewhere it is cleared) */
static const ex_method coll_methods[] = {
    {"reprompi-window", "ReproMPI window/global",
     CFG(EX_SYNC_WINDOW, EX_FORM_GLOBAL, EX_STAT_MEDIAN, EX_ORDER_REGION, EX_REGION_EACH,
         EX_WARM_NONE, 0, 0, 0)},
    {"reprompi-barrier", "ReproMPI barrier/local",
     CFG(EX_SYNC_BARRIER, EX_FORM_MAX, EX_STAT_MEDIAN, EX_ORDER_REGION, EX_REGION_EACH,
         EX_WARM_NONE, 0, 0, 0)},
    {"imb-4.0", "IMB 4.0",
     CFG(EX_SYNC_BARRIER, EX_FORM_MAX, EX_STAT_MEAN, EX_ORDER_PROCESS, EX_REGION_LOOP,
         EX_WARM_IMB4, 0, 1, 0)},
    {"imb-4.0-off_cache", "IMB 4.0 -off_cache",
     CFG(EX_SYNC_BARRIER, EX_FORM_MAX, EX_STAT_MEAN, EX_ORDER_PROCESS, EX_REGION_LOOP,
         EX_WARM_IMB4, 1, 1, 0)},
    {"imb-2021", "IMB 2021.11",
     CFG(EX_SYNC_BARRIER, EX_FORM_MAX, EX_STAT_MEAN, EX_ORDER_PROCESS, EX_REGION_EACH,
         EX_WARM_IMB2021, 0, 0, 0)},
    {"osu-7.4", "OSU 7.4",
     CFG(EX_SYNC_BARRIER, EX_FORM_MEAN, EX_STAT_MEAN, EX_ORDER_PROCESS, EX_REGION_EACH,
         EX_WARM_OSU, 0, 0, 0)},
    {"skampi", "SKaMPI window",
     CFG(EX_SYNC_WINDOW, EX_FORM_FROM_START, EX_STAT_MEAN, EX_ORDER_REGION, EX_REGION_EACH,
         EX_WARM_NONE, 0, 0, 0)},
};

/* PingPong between ranks 0 and 1; unit 1: half the round trip (IMB, OSU) */
static const ex_method pp_methods[] = {
    {"reprompi-window", "ReproMPI window/global",
     CFG(EX_SYNC_WINDOW, EX_FORM_GLOBAL, EX_STAT_MEDIAN, EX_ORDER_REGION, EX_REGION_EACH,
         EX_WARM_NONE, 0, 0, 0)},
    {"reprompi-barrier", "ReproMPI barrier/local",
     CFG(EX_SYNC_BARRIER, EX_FORM_MAX, EX_STAT_MEDIAN, EX_ORDER_REGION, EX_REGION_EACH,
         EX_WARM_NONE, 0, 0, 0)},
    {"imb-4.0", "IMB 4.0",
     CFG(EX_SYNC_BARRIER, EX_FORM_MAX, EX_STAT_MEAN, EX_ORDER_PROCESS, EX_REGION_LOOP,
         EX_WARM_IMB4, 0, 0, 1)},
    {"imb-4.0-off_cache", "IMB 4.0 -off_cache",
     CFG(EX_SYNC_BARRIER, EX_FORM_MAX, EX_STAT_MEAN, EX_ORDER_PROCESS, EX_REGION_LOOP,
         EX_WARM_IMB4, 1, 0, 1)},
    {"imb-2021", "IMB 2021.11",
     CFG(EX_SYNC_BARRIER, EX_FORM_MAX, EX_STAT_MEAN, EX_ORDER_PROCESS, EX_REGION_LOOP,
         EX_WARM_IMB2021, 0, 0, 1)},
    {"osu-7.4", "OSU 7.4",
     CFG(EX_SYNC_BARRIER, EX_FORM_RANK0, EX_STAT_MEAN, EX_ORDER_PROCESS, EX_REGION_LOOP,
         EX_WARM_OSU, 0, 0, 1)},
    {"skampi", "SKaMPI",
     CFG(EX_SYNC_NONE, EX_FORM_RANK0, EX_STAT_MEAN, EX_ORDER_REGION, EX_REGION_EACH,
         EX_WARM_NONE, 0, 0, 0)},
};

/* bw: PingPong's methods, OSU's by osu_bw: a window of 64 messages in flight, then an ack;
 * the time per message (the loop over the window's messages), 10 warm-up steps (2 above
 * 8192 bytes) */
static ex_method bw_methods[sizeof pp_methods / sizeof pp_methods[0]];

#define NCOLL (int)(sizeof coll_methods / sizeof coll_methods[0])
#define NPP (int)(sizeof pp_methods / sizeof pp_methods[0])

static ex_method rooted[NCOLL], unrooted[NCOLL], p2p[NCOLL];

int ex_methods(ex_op op, const ex_method **out)
{
    if (op == EX_OP_PINGPONG) {
        *out = pp_methods;
        return NPP;
    }
    if (op == EX_OP_BW) {
        for (int i = 0; i < NPP; i++) {
            bw_methods[i] = pp_methods[i];
            if (!strcmp(bw_methods[i].name, "osu-7.4")) {
                bw_methods[i].title = "OSU 7.4 osu_bw";
                bw_methods[i].c.v[EX_F_WARMUP] = EX_WARM_OSU_BW;
                bw_methods[i].c.v[EX_F_INFLIGHT] = 1;
            }
        }
        *out = bw_methods;
        return NPP;
    }
    if (op == EX_OP_PINGPING || op == EX_OP_SENDRECV || op == EX_OP_EXCHANGE) {
        /* IMB's own benchmarks; OSU 7.4 has none of them (its osu_bibw is a window) */
        int n = 0;
        for (int i = 0; i < NCOLL; i++)
            if (strcmp(coll_methods[i].name, "osu-7.4")) {
                p2p[n] = coll_methods[i];
                p2p[n++].c.v[EX_F_ROOT] = 0;
            }
        *out = p2p;
        return n;
    }
    int is_rooted = op == EX_OP_BCAST || op == EX_OP_REDUCE;
    ex_method *m = is_rooted ? rooted : unrooted;
    for (int i = 0; i < NCOLL; i++) {
        m[i] = coll_methods[i];
        if (!is_rooted)
            m[i].c.v[EX_F_ROOT] = 0;
    }
    *out = m;
    return NCOLL;
}

int ex_method_find(ex_op op, const char *name)
{
    const ex_method *m;
    int n = ex_methods(op, &m);
    for (int i = 0; i < n; i++)
        if (!strcasecmp(m[i].name, name))
            return i;
    return -1;
}

static const char *const factor_names[EX_NFACTORS] = {
    "sync", "form", "statistic", "order", "region", "warm-up", "buffers", "root", "unit",
    "in-flight"};

const char *ex_factor_name(ex_factor f) { return factor_names[f]; }

const char *ex_value_name(ex_factor f, int v)
{
    static const char *const sync[] = {"none", "barrier", "double-barrier", "window"};
    static const char *const form[] = {"mean", "max", "rank0", "global", "from-start"};
    static const char *const stat[] = {"mean", "median", "min"};
    static const char *const order[] = {"region-first", "process-first"};
    static const char *const region[] = {"each", "loop"};
    static const char *const warm[] = {"none", "imb-4.0", "imb-2021", "osu-7.4", "osu-7.4-bw"};
    static const char *const buf[] = {"reused", "cache-cold"};
    static const char *const root[] = {"fixed", "rotating"};
    static const char *const unit[] = {"per-call", "per-message"};
    static const char *const inflight[] = {"one", "window-64"};
    static const char *const *const all[EX_NFACTORS] = {sync, form, stat,  order, region,
                                                         warm, buf,  root,  unit,  inflight};
    return all[f][v];
}

int ex_chain(const ex_config *ref, const ex_config *m, ex_config *rows, ex_factor *which)
{
    ex_config c = *ref;
    int n = 0;
    for (int f = 0; f < EX_NFACTORS; f++) {
        if (c.v[f] == m->v[f])
            continue;
        c.v[f] = m->v[f];
        rows[n] = c;
        which[n++] = (ex_factor)f;
    }
    return n;
}

/* IMB 4.0: the guide's N_WARMUP = 2 calls; IMB 2021 (-warm_up on): n/10,
 * one for n of 2..9; OSU 7.4: 100 calls, 10 above 8192 bytes */
long ex_warmup_calls(int warm, long size, long reps)
{
    switch (warm) {
    case EX_WARM_IMB4:
        return 2;
    case EX_WARM_IMB2021:
        return reps >= 10 ? reps / 10 : reps >= 2 ? 1 : 0;
    case EX_WARM_OSU:
        return size > 8192 ? 10 : 100;
    case EX_WARM_OSU_BW:
        return size > 8192 ? 2 : 10;
    default:
        return 0;
    }
}
