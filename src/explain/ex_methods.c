/* The methods of `effbench explain` as parameter sets of one kernel, each
 * from its tool's documented method (docs/methods.md has the table and the
 * sources), and the chains of rows that change one factor at a time from
 * the reference towards a method. */
#include "explain/ex.h"

#include <math.h>
#include <string.h>
#include <strings.h>

/* factor order: sync, form, statistic, order, region, warm-up, buffers, root, unit; in-flight
 * is one message except in osu_bw's method (bw_methods), calls the operation's own except in
 * b_eff's method on a ring (beff_ring) */
#define CFG(s, f, st, o, r, w, b, rt, u) {{s, f, st, o, r, w, b, rt, u, 0, 0}}

/* b_eff 3.6 (docs/beff.md): a barrier, then a loop timed as a whole (one untimed call
 * before it, except at the three largest lengths); the maximum over processes of the loop
 * time; three repetitions, the fastest counts; messages from a running offset in 6 * L_max.
 * Its "one PingPong Pair" (Sendrecv only, a bare Send and Recv per step): the half round
 * trip.  Its rings (a ring of 2 is PingPing's and Sendrecv's traffic, a ring of P >= 3 with
 * its ping and pong steps Exchange's): per iteration, each of its three MPI methods in its own
 * loops, the best counts. */
#define BEFF_CFG(unit) \
    CFG(EX_SYNC_BARRIER, EX_FORM_MAX, EX_STAT_MIN, EX_ORDER_REGION, EX_REGION_LOOPS3, \
        EX_WARM_BEFF, EX_BUF_BEFF, 0, unit)
static const ex_method beff_ring_m = {"b_eff", "b_eff 3.6 ring, best of 3 methods",
                                      {{EX_SYNC_BARRIER, EX_FORM_MAX, EX_STAT_MIN,
                                        EX_ORDER_REGION, EX_REGION_LOOPS3, EX_WARM_BEFF,
                                        EX_BUF_BEFF, 0, 0, 0, 1}}};

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
    {"b_eff", "b_eff 3.6 ping-pong pair", BEFF_CFG(1)},
};

/* bw: PingPong's methods, OSU's by osu_bw: a window of 64 messages in flight, then an ack;
 * the time per message (the loop over the window's messages), 10 warm-up steps (2 above
 * 8192 bytes) */
static ex_method bw_methods[sizeof pp_methods / sizeof pp_methods[0]];

#define NCOLL (int)(sizeof coll_methods / sizeof coll_methods[0])
#define NPP (int)(sizeof pp_methods / sizeof pp_methods[0])

static ex_method rooted[NCOLL], unrooted[NCOLL], p2p[NCOLL + 1];

/* b_eff's ring traffic is the operation's: a ring of 2 (the pong step dropped) is
 * PingPing's (a pair) and Sendrecv's on 2 processes; a ring of P >= 3 (to and from both
 * neighbours) is Exchange's.  Sendrecv on 3 or more has no pong step, Exchange on 2 sends
 * twice to the one partner: b_eff's traffic differs, no b_eff method. */
static int beff_ring(ex_op op, int procs)
{
    return op == EX_OP_PINGPING || (op == EX_OP_SENDRECV && procs == 2) ||
           (op == EX_OP_EXCHANGE && procs >= 3);
}

int ex_methods(ex_op op, int procs, const ex_method **out)
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
        if (beff_ring(op, procs))
            p2p[n++] = beff_ring_m;
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

int ex_method_find(ex_op op, int procs, const char *name)
{
    const ex_method *m;
    int n = ex_methods(op, procs, &m);
    for (int i = 0; i < n; i++)
        if (!strcasecmp(m[i].name, name))
            return i;
    return -1;
}

static const char *const factor_names[EX_NFACTORS] = {
    "sync", "form", "statistic", "order", "region", "warm-up", "buffers", "root", "unit",
    "in-flight", "calls"};

const char *ex_factor_name(ex_factor f) { return factor_names[f]; }

const char *ex_value_name(ex_factor f, int v)
{
    static const char *const sync[] = {"none", "barrier", "double-barrier", "window"};
    static const char *const form[] = {"mean", "max", "rank0", "global", "from-start"};
    static const char *const stat[] = {"mean", "median", "min"};
    static const char *const order[] = {"region-first", "process-first"};
    static const char *const region[] = {"each", "loop", "loops-3"};
    static const char *const warm[] = {"none",       "imb-4.0", "imb-2021",
                                       "osu-7.4",    "osu-7.4-bw", "b_eff"};
    static const char *const buf[] = {"reused", "cache-cold", "b_eff-6lmax"};
    static const char *const root[] = {"fixed", "rotating"};
    static const char *const unit[] = {"per-call", "per-message"};
    static const char *const inflight[] = {"one", "window-64"};
    static const char *const calls[] = {"own", "b_eff-3"};
    static const char *const *const all[EX_NFACTORS] = {
        sync, form, stat, order, region, warm, buf, root, unit, inflight, calls};
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

long ex_beff_lmax(const long *sizes, int n)
{
    long m = EX_BEFF_MIN_LMAX;
    for (int i = 0; i < n; i++)
        if (sizes[i] > m)
            m = sizes[i];
    return m;
}

/* b_eff's 19th of 21 lengths for L_max: floor(x + 0.5) of x = 4096 * a^6, a = (L_max /
 * 4096)^(1/8), x accumulated as b_eff does; from it on, its three largest lengths */
static long beff_third_largest(long lmax)
{
    double a = pow((double)lmax / 4096.0, 1.0 / 8.0), x = 4096.0;
    for (int k = 1; k <= 6; k++)
        x *= a;
    return (long)floor(x + 0.5);
}

void ex_regions_of(const ex_config *c, long reps, long *nreg, long *calls)
{
    switch (c->v[EX_F_REGION]) {
    case EX_REGION_LOOP:
        *nreg = 1;
        *calls = reps;
        break;
    case EX_REGION_LOOPS3:
        *nreg = EX_BEFF_LOOPS;
        *calls = reps / EX_BEFF_LOOPS > 0 ? reps / EX_BEFF_LOOPS : 1;
        break;
    default:
        *nreg = reps;
        *calls = 1;
    }
    if (c->v[EX_F_CALLS]) /* each loop once per b_eff method */
        *nreg *= EX_BEFF_NMETHODS;
}

/* IMB 4.0: the guide's N_WARMUP = 2 calls; IMB 2021 (-warm_up on): n/10,
 * one for n of 2..9; OSU 7.4: 100 calls, 10 above 8192 bytes; b_eff: one call before each
 * loop (the kernel makes it), none from the third largest of its lengths on */
long ex_warmup_calls(int warm, long size, long reps, long lmax)
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
    case EX_WARM_BEFF:
        return size >= beff_third_largest(lmax) ? 0 : 1;
    default:
        return 0;
    }
}
