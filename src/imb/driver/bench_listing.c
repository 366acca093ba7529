/* The IMB families' entries of `effbench --list-json` (core/listing.h): one
 * per registered descriptor of the family, its flags by name. */
#include "imb/driver/bench.h"

#include "core/listing.h"
#include "core/registry.h"

/* The descriptor flags by bit, as the listing names them. */
static const char *const flag_names[] = {
    "EXPLICIT_ONLY", "REDUCTION", "ROOT", "NO_BYTES", "NO_MULTI", "MODES", "NONAGGR_FIRST",
    "NONAGGR_COUNTS", "AGGR_ONLY", "NONAGGR_ONLY", "NO_WARMUP", "REP_SYNC", "EVEN_PROCS",
    "DEFAULT_2021", "AGGR_IN_2021",
};
_Static_assert(EB_F_LAST == 1u << (sizeof flag_names / sizeof *flag_names - 1),
               "every EB_F_ flag needs its name in flag_names");
_Static_assert(sizeof flag_names / sizeof *flag_names < EB_LISTING_MAX_FLAGS,
               "EB_LISTING_MAX_FLAGS holds every flag and the NULL");

static const char *class_name(eb_class c)
{
    switch (c) {
    case EB_SINGLE_TRANSFER: return "single_transfer";
    case EB_PARALLEL_TRANSFER: return "parallel_transfer";
    case EB_COLLECTIVE: return "collective";
    }
    return "other";
}

static eb_listing_entry entry_of(const eb_bench *b, const eb_component *c)
{
    eb_listing_entry e = {
        .component = b->component, .name = b->name,
        .program = c->aliases[0] ? c->aliases[0] : "effbench", .cls = class_name(b->cls),
        .is_default = !(b->flags & EB_F_EXPLICIT_ONLY), .checked = eb_bench_checked(b),
        .reduction = (b->flags & EB_F_REDUCTION) != 0, .root = (b->flags & EB_F_ROOT) != 0,
        .modes = (b->flags & EB_F_MODES) != 0, .multi = !(b->flags & EB_F_NO_MULTI),
        .min_procs = b->min_procs, .fixed_procs = b->fixed_procs,
        .fixed_bytes = (long long)b->fixed_bytes};
    int n = 0;
    for (size_t bit = 0; bit < sizeof flag_names / sizeof *flag_names; bit++)
        if (b->flags & (1u << bit))
            e.flags[n++] = flag_names[bit];
    return e;
}

void eb_bench_list_json(const eb_component *self, eb_json *benchmarks)
{
    for (int k = 0; k < eb_bench_count(self->name); k++) {
        eb_listing_entry e = entry_of(eb_bench_at(self->name, k), self);
        eb_listing_add(benchmarks, &e);
    }
}
