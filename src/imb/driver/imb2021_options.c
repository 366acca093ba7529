#include "imb/driver/imb2021_options.h"

#include "core/component_names.h"
#include "core/error.h"
#include "core/own_coll.h"
#include "core/text.h"
#include "imb/driver/gpu.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* Components, as bits: which of IMB 2021.11's programs declares an option. */
enum { C_MPI1 = 1, C_NBC = 2, C_RMA = 4, C_EXT = 8, C_IO = 16, C_MPI4 = 32, C_ALL = 63 };
enum { N_PROGRAMS = 6 };

static const char *const component_names[N_PROGRAMS] = {
    EB_COMPONENT_MPI1, EB_COMPONENT_NBC, EB_COMPONENT_RMA,
    EB_COMPONENT_EXT,  EB_COMPONENT_IO,  EB_COMPONENT_MPI4};
static const char *const program_names[N_PROGRAMS] = {"IMB-MPI1", "IMB-NBC", "IMB-RMA",
                                                      "IMB-EXT",  "IMB-IO",  "IMB-MPI4"};

static unsigned family_bit(const eb_imb_family *f)
{
    for (unsigned k = 0; k < N_PROGRAMS; k++)
        if (strcmp(f->component, component_names[k]) == 0)
            return 1u << k;
    return 0;
}

static unsigned component_bit(const eb_imb_options *o) { return family_bit(o->family); }

/* "IMB-MPI1, IMB-NBC and IMB-RMA" for a set of components. */
static void list_programs(unsigned comps, char *out, size_t len)
{
    int n = 0, total = 0;
    for (unsigned k = 0; k < N_PROGRAMS; k++)
        total += (comps >> k) & 1;
    out[0] = '\0';
    for (unsigned k = 0; k < N_PROGRAMS; k++) {
        if (!((comps >> k) & 1))
            continue;
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s", n == 0 ? "" : n == total - 1 ? " and " : ", ",
                 program_names[k]);
        n++;
    }
}

void eb_imb2021_init(eb_imb2021 *t)
{
    memset(t, 0, sizeof *t);
    t->root_shift = -1;
    t->sync = -1;
    t->zero_size = 1;
    t->warm_up = -1;
    t->data_type = EB_DT_BYTE;
    t->red_data_type = EB_DT_FLOAT;
    t->window_size = 256;
    t->aggregate_mode = EB_AGGR_BOTH;
}

int eb_imb_parse_bool(const char *s, int *out)
{
    static const char *const on[] = {"on", "yes", "true", "enable", "1"};
    static const char *const off[] = {"off", "no", "false", "disable", "0"};
    for (int k = 0; k < 5; k++) {
        if (strcasecmp(s, on[k]) == 0) {
            *out = 1;
            return 0;
        }
        if (strcasecmp(s, off[k]) == 0) {
            *out = 0;
            return 0;
        }
    }
    return -1;
}

/* ---- parsing ------------------------------------------------------------------- */

/* -data_type / -red_data_type: IMB falls back to its default with a note for
 * an unknown word; effbench stops instead of measuring another type. */
static int set_dtype(eb_dtype *dst, const char *opt, const char *val, int reduction, char *err,
                     size_t errlen)
{
    eb_dtype t;
    if (strcmp(val, "float16") == 0 || strcmp(val, "bfloat16") == 0)
        return eb_err(err, errlen, "-%s %s: this MPI library has no 16-bit floating-point type "
                      "(IMB 2021 needs MPIX_C_FLOAT16 / MPIX_C_BF16)", opt, val);
    if (eb_dtype_parse(val, &t) != 0 || (reduction && t == EB_DT_BYTE))
        return eb_err(err, errlen, "-%s %s: expected %s", opt, val,
                      reduction ? "char, int, float or double" : "byte, char, int, float or double");
    *dst = t;
    return 0;
}

/* -msgsize 0,1024,65536: the lengths, as -msglen's file would give them. */
static int set_msgsize(eb_imb_options *o, const char *val, char *err, size_t errlen)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", val) >= (int)sizeof buf)
        return eb_err(err, errlen, "-msgsize: list too long");
    eb_sizes_free(&o->msglen);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        long v;
        if (eb_parse_long(t, 0, INT_MAX, &v) != 0)
            return eb_err(err, errlen, "-msgsize %s: '%s' is not a message size in bytes "
                          "(comma-separated non-negative integers)", val, t);
        o->msglen.v = eb_realloc(o->msglen.v, (size_t)(o->msglen.n + 1) * sizeof *o->msglen.v);
        o->msglen.v[o->msglen.n++] = (size_t)v;
    }
    if (o->msglen.n == 0)
        return eb_err(err, errlen, "-msgsize %s: expected comma-separated message sizes", val);
    o->imb21.msgsize_given = 1;
    return 0;
}

static int set_bool(int *dst, const char *opt, const char *val, char *err, size_t errlen)
{
    if (eb_imb_parse_bool(val, dst) != 0)
        return eb_err(err, errlen, "-%s %s: expected on or off (1|enable|yes, 0|disable|no)", opt,
                      val);
    return 0;
}

/* One valued option; the caller has checked the component has it. */
static int set_value(eb_imb_options *o, const char *opt, const char *val, char *err, size_t errlen)
{
    eb_imb2021 *t = &o->imb21;
    long v;
    if (!strcmp(opt, "root_shift"))
        return set_bool(&t->root_shift, opt, val, err, errlen);
    if (!strcmp(opt, "imb_barrier"))
        return set_bool(&t->imb_barrier, opt, val, err, errlen);
    if (!strcmp(opt, "zero_size"))
        return set_bool(&t->zero_size, opt, val, err, errlen);
    if (!strcmp(opt, "warm_up"))
        return set_bool(&t->warm_up, opt, val, err, errlen);
    if (!strcmp(opt, "msg_pause"))
        return set_bool(&t->msg_pause, opt, val, err, errlen);
    if (!strcmp(opt, "data_type"))
        return set_dtype(&t->data_type, opt, val, 0, err, errlen);
    if (!strcmp(opt, "red_data_type"))
        return set_dtype(&t->red_data_type, opt, val, 1, err, errlen);
    if (!strcmp(opt, "msgsize"))
        return set_msgsize(o, val, err, errlen);
    if (!strcmp(opt, "window_size")) {
        if (eb_parse_long(val, 1, 1 << 20, &v) != 0)
            return eb_err(err, errlen, "-window_size %s: expected a positive number of messages", val);
        t->window_size = (int)v;
        return 0;
    }
    if (!strcmp(opt, "aggregate_mode")) {
        static const char *const words[] = {"multi", "aggregate", "non_aggregate"};
        for (int k = 0; k < 3; k++)
            if (!strcmp(val, words[k])) {
                t->aggregate_mode = (eb_aggr_mode)k;
                return 0;
            }
        return eb_err(err, errlen, "-aggregate_mode %s: expected aggregate, non_aggregate or multi", val);
    }
    if (!strcmp(opt, "contig_type")) {
        if (eb_contig_parse(val, &t->contig_type) == 0)
            return 0;
        return eb_err(err, errlen, "-contig_type %s: expected base, base_vec, resize or resize_vec",
                      val);
    }
    /* mem_alloc_type: IMB's GPU builds, IMB-MPI1-GPU and IMB-RMA-GPU */
    return eb_imb_gpu_set_mem(o, val, err, errlen);
}

static const struct {
    const char *name;
    unsigned comps;
} valued[] = {
    {"window_size", C_MPI1}, {"msgsize", C_MPI1}, {"data_type", C_MPI1},
    {"red_data_type", C_MPI1}, {"contig_type", C_MPI1}, {"mem_alloc_type", C_MPI1 | C_RMA},
    {"root_shift", C_MPI1 | C_NBC | C_RMA | C_MPI4}, {"zero_size", C_MPI1 | C_NBC | C_MPI4},
    {"imb_barrier", C_ALL}, {"warm_up", C_ALL}, {"msg_pause", C_ALL},
    {"aggregate_mode", C_RMA | C_EXT | C_IO},
};

int eb_imb2021_family_has(const eb_imb_family *f, const char *name)
{
    if (!strcmp(name, "sync"))
        return (family_bit(f) & (C_MPI1 | C_NBC | C_RMA)) != 0;
    for (size_t j = 0; j < sizeof valued / sizeof valued[0]; j++)
        if (!strcmp(name, valued[j].name))
            return (family_bit(f) & valued[j].comps) != 0;
    return 0;
}

static int not_here(const eb_imb_options *o, const char *opt, unsigned comps, char *err,
                    size_t errlen)
{
    char progs[128];
    list_programs(comps, progs, sizeof progs);
    return eb_err(err, errlen, "%s: %s has no such option in IMB 2021.11 (%s %s it)", opt,
                  o->family->program, progs, comps & (comps - 1) ? "have" : "has");
}

/* -sync: effbench's barrier|window (now -sync_method), or IMB 2021's on/off. */
static int parse_sync(eb_imb_options *o, const char *a, const char *val, char *err, size_t errlen)
{
    int method_only = !strcmp(a, "-sync_method");
    if (!strcmp(val, "barrier") || !strcmp(val, "window")) {
        o->sync_window = val[0] == 'w';
        return 0;
    }
    int on;
    if (method_only || eb_imb_parse_bool(val, &on) != 0)
        return eb_err(err, errlen, method_only ? "%s %s: expected barrier or window"
                      : "%s %s: expected barrier or window (effbench's -sync_method), or IMB "
                        "2021's on or off (1|enable|yes, 0|disable|no)", a, val);
    unsigned comps = C_MPI1 | C_NBC | C_RMA | C_MPI4;
    if (!(component_bit(o) & comps))
        return not_here(o, "-sync 0|1", comps, err, errlen);
    o->imb21.sync = on;
    return 0;
}

int eb_imb2021_parse(eb_imb_options *o, int argc, char **argv, int *i, char *err, size_t errlen)
{
    const char *a = argv[*i];
    const char *val = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!strcmp(a, "-list")) {
        o->imb21.list = 1;
        return 1;
    }
    if (!strcmp(a, "-dump") || !strcmp(a, "-load")) {
        if (!val)
            return eb_err(err, errlen, "option %s needs a value (a YAML file)", a);
        *(a[1] == 'd' ? &o->imb21.dump_path : &o->imb21.load_path) = val;
        ++*i;
        return 1;
    }
    int sync = !strcmp(a, "-sync") || !strcmp(a, "-sync_method");
    int k = -1;
    for (size_t j = 0; j < sizeof valued / sizeof valued[0] && !sync; j++)
        if (a[0] == '-' && !strcmp(a + 1, valued[j].name))
            k = (int)j;
    if (!sync && k < 0)
        return 0;
    if (!val)
        return eb_err(err, errlen, "option %s needs a value", a);
    ++*i;
    if (sync)
        return parse_sync(o, a, val, err, errlen) ? -1 : 1;
    if (!(component_bit(o) & valued[k].comps))
        return not_here(o, a, valued[k].comps, err, errlen);
    if (set_value(o, valued[k].name, val, err, errlen))
        return -1;
    o->imb21.given |= 1u << k;
    return 1;
}

int eb_imb2021_finish(eb_imb_options *o, char *err, size_t errlen)
{
    const eb_imb2021 *t = &o->imb21;
    if (t->msgsize_given && o->msglen_file)
        return eb_err(err, errlen, "-msglen and -msgsize exclude each other");
    if (o->sync_window && t->sync >= 0)
        return eb_err(err, errlen, "-sync_method window times each repetition in its own window: "
                      "IMB 2021's -sync %d does not go with it", t->sync);
    return 0;
}

/* ---- what the options change ------------------------------------------------------- */

eb_dtype eb_imb_dtype(const eb_imb_options *o, const eb_bench *b)
{
    return (b->flags & EB_F_REDUCTION) ? o->imb21.red_data_type : o->imb21.data_type;
}

size_t eb_imb_unit(const eb_imb_options *o, const eb_bench *b)
{
    return eb_dtype_size(eb_imb_dtype(o, b));
}

int eb_imb_root(const eb_ctx *c, long i)
{
    return c->opt && c->opt->imb21.root_shift == 0 ? 0 : (int)(i % c->size);
}

void eb_imb_barriers(const eb_imb_options *o, MPI_Comm comm, int n)
{
    for (int k = 0; k < n; k++) {
        if (o && o->imb21.imb_barrier)
            eb_dissemination_barrier(comm, 1000); /* IMB's tag */
        else
            MPI_Barrier(comm);
    }
}

int eb_imb2021_per_rep(const eb_imb_options *o, const eb_bench *b)
{
    return o->imb21.sync >= 0 && (b->flags & EB_F_REP_SYNC);
}

void eb_imb2021_after_rep(const eb_ctx *c)
{
    if (c->opt->imb21.sync == 1)
        eb_imb_barriers(c->opt, c->comm, 1);
}

double eb_imb2021_rep_loop(eb_ctx *c, long n)
{
    double t = 0;
    for (long i = 0; i < n; i++) {
        double t0 = MPI_Wtime();
        c->bench->kernel(c, i, 1);
        t += MPI_Wtime() - t0;
        eb_imb2021_after_rep(c);
    }
    return t / (double)n;
}

void eb_imb2021_warm_up(eb_ctx *c, long n)
{
    const eb_bench *b = c->bench;
    long w = n / 10;
    if (w == 0 && n > 1)
        w = 1;
    if (c->opt->imb21.warm_up != 1 || (b->flags & EB_F_NO_WARMUP) || w == 0)
        return;
    eb_imb_barriers(c->opt, c->comm, 2);
    if (b->measure)
        b->measure(c, w);
    else
        b->kernel(c, 0, w);
}

void eb_imb2021_pause(const eb_imb_options *o, double seconds)
{
    if (!o->imb21.msg_pause)
        return;
    double s = seconds / 10 > 0.1 ? seconds / 10 : 0.1;
    struct timespec ts = {.tv_sec = (time_t)s, .tv_nsec = (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

void eb_imb2021_trim_sizes(const eb_imb_options *o, eb_sizes *s)
{
    if (o->imb21.zero_size || s->n == 0 || s->v[0] != 0)
        return;
    memmove(s->v, s->v + 1, (size_t)(s->n - 1) * sizeof *s->v);
    s->n--;
}

int eb_imb2021_nmodes(const eb_imb_options *o)
{
    return o->imb21.aggregate_mode == EB_AGGR_BOTH ? 2 : 1;
}

const char *eb_imb2021_only_mode(const eb_imb_options *o)
{
    switch (o->imb21.aggregate_mode) {
    case EB_AGGR_ONLY_AGGREGATE: return "aggregate";
    case EB_AGGR_ONLY_NONAGGREGATE: return "non-aggregate";
    default: return NULL;
    }
}

/* ---- the run's header and record -------------------------------------------------- */

void eb_imb2021_print_header(const eb_imb_options *o)
{
    const eb_imb2021 *t = &o->imb21;
    if (t->root_shift >= 0)
        printf("# -root_shift %s: rooted collectives use %s\n", t->root_shift ? "on" : "off",
               t->root_shift ? "root i %% #processes in repetition i" : "root 0 in every repetition");
    if (t->sync >= 0)
        printf("# -sync %s (IMB 2021): collectives time each repetition on its own%s\n",
               t->sync ? "on" : "off", t->sync ? ", a barrier after each" : ", no barrier between");
    if (t->imb_barrier)
        printf("# -imb_barrier on: IMB's own barrier (zero-byte MPI_Sendrecv rounds) before the "
               "timed loops\n");
    if (!t->zero_size)
        printf("# -zero_size off: no 0-byte row\n");
    if (t->warm_up == 0)
        printf("# -warm_up off: no warm-up repetitions\n");
    else if (t->warm_up == 1)
        printf("# -warm_up on (IMB 2021): untimed repetitions (a tenth of the row's count) "
               "before every length\n");
    if (t->msg_pause)
        printf("# -msg_pause on: a pause after every length (a tenth of its time, at least 0.1 s)\n");
    if (t->aggregate_mode != EB_AGGR_BOTH)
        printf("# -aggregate_mode %s: only the %s tables\n",
               t->aggregate_mode == EB_AGGR_ONLY_AGGREGATE ? "aggregate" : "non_aggregate",
               eb_imb2021_only_mode(o));
    if (t->given & (1u << 0))
        printf("# -window_size %d: messages in flight per pair in Uniband and Biband\n",
               t->window_size);
    if (t->contig_type != EB_CONTIG_BASE) {
        static const char *const what[] = {
            "", "one vector of the elements per length",
            "elements resized to twice their extent, buffers twice as long",
            "one vector of elements resized to twice their extent, buffers twice as long"};
        printf("# -contig_type %s: %s; reductions with a user-defined sum\n",
               eb_contig_word(t->contig_type), what[t->contig_type]);
    }
}

void eb_imb2021_json(eb_json *j, const eb_imb_options *o)
{
    const eb_imb2021 *t = &o->imb21;
    static const char *const aggr[] = {"multi", "aggregate", "non_aggregate"};
    if (t->root_shift >= 0)
        eb_json_int(j, "root_shift", t->root_shift);
    else
        eb_json_null(j, "root_shift");
    if (t->sync >= 0)
        eb_json_int(j, "imb_sync", t->sync);
    else
        eb_json_null(j, "imb_sync");
    eb_json_bool(j, "imb_barrier", t->imb_barrier);
    eb_json_bool(j, "zero_size", t->zero_size);
    if (t->warm_up >= 0)
        eb_json_int(j, "warm_up", t->warm_up);
    else
        eb_json_null(j, "warm_up");
    eb_json_bool(j, "msg_pause", t->msg_pause);
    eb_json_str(j, "data_type", eb_dtype_word(t->data_type));
    eb_json_str(j, "red_data_type", eb_dtype_word(t->red_data_type));
    eb_json_str(j, "contig_type", eb_contig_word(t->contig_type));
    eb_json_int(j, "window_size", t->window_size);
    eb_json_str(j, "aggregate_mode", aggr[t->aggregate_mode]);
}

void eb_imb2021_print_help(const eb_imb_family *f)
{
    static const struct {
        unsigned comps;
        const char *text;
    } lines[] = {
        {C_MPI1 | C_NBC | C_RMA | C_MPI4,
         "  -root_shift on|off        off: root 0 always; on: root shifts each repetition\n"},
        {C_MPI1 | C_NBC | C_RMA | C_MPI4,
         "  -sync on|off              time each repetition of a collective on its own,\n"
         "                            on: with a barrier after each\n"},
        {C_ALL, "  -imb_barrier on|off       IMB's own barrier instead of MPI_Barrier\n"},
        {C_MPI1 | C_NBC | C_MPI4, "  -zero_size on|off         off: no 0-byte row\n"},
        {C_ALL, "  -warm_up on|off           on: n/10 untimed repetitions before every length;\n"
                "                            off: no warm-up (not given: the guide's warm-up)\n"},
        {C_ALL, "  -msg_pause on|off         pause after every length\n"},
        {C_MPI1, "  -data_type byte|char|int|float|double      type of data movement\n"
                 "  -red_data_type char|int|float|double       type of reductions\n"
                 "  -contig_type base|base_vec|resize|resize_vec  message layout: base elements;\n"
                 "                            one vector of them; elements resized to twice\n"
                 "                            their extent (a gap after each, buffers twice as\n"
                 "                            long); one vector of those (not base: reductions\n"
                 "                            with a user-defined sum)\n"
                 "  -msgsize L1,L2,...        message lengths in bytes\n"
                 "  -window_size N            messages per window of Uniband/Biband (256)\n"},
        {C_RMA | C_EXT | C_IO, "  -aggregate_mode multi|aggregate|non_aggregate\n"},
        {C_ALL, "  -list                     print the benchmark list and stop\n"},
        {C_ALL, "  -dump FILE, -load FILE    write / read the options as IMB's YAML\n"},
    };
    unsigned me = family_bit(f);
    printf("IMB 2021.11 options (docs/imb.md):\n");
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++)
        if (lines[k].comps & me)
            fputs(lines[k].text, stdout);
}
