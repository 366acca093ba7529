#include "core/listing.h"

#include "core/bench.h"
#include "core/registry.h"

#include <string.h>

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

void eb_listing_open_entry(eb_json *j, const eb_listing_entry *e)
{
    eb_json_object(j, NULL);
    eb_json_str(j, "component", e->component);
    eb_json_str(j, "name", e->name);
    eb_json_str(j, "program", e->program);
    eb_json_str(j, "class", e->cls);
    eb_json_bool(j, "default", e->is_default);
    eb_json_bool(j, "checked", e->checked);
    eb_json_bool(j, "reduction", e->reduction);
    eb_json_bool(j, "root", e->root);
    eb_json_bool(j, "modes", e->modes);
    eb_json_int(j, "min_procs", e->min_procs);
    eb_json_int(j, "fixed_procs", e->fixed_procs);
    eb_json_int(j, "fixed_bytes", e->fixed_bytes);
    eb_json_bool(j, "multi", e->multi);
    eb_json_array(j, "flags");
    for (int k = 0; k < EB_LISTING_MAX_FLAGS && e->flags[k]; k++)
        eb_json_str(j, NULL, e->flags[k]);
    eb_json_close(j);
}

void eb_listing_add(eb_json *j, const eb_listing_entry *e)
{
    eb_listing_open_entry(j, e);
    eb_json_close(j);
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

void eb_listing_print(FILE *f)
{
    eb_json j;
    eb_json_init(&j);
    eb_json_int(&j, "schema", EB_LISTING_SCHEMA);
    eb_json_str(&j, "version", EFFBENCH_VERSION);
    eb_json_array(&j, "components");
    for (int i = 0; i < eb_component_count(); i++) {
        const eb_component *c = eb_component_at(i);
        eb_json_object(&j, NULL);
        eb_json_str(&j, "name", c->name);
        eb_json_array(&j, "aliases");
        for (int a = 0; a < 3 && c->aliases[a]; a++)
            eb_json_str(&j, NULL, c->aliases[a]);
        eb_json_close(&j);
        eb_json_str(&j, "summary", c->summary);
        eb_json_close(&j);
    }
    eb_json_close(&j);
    eb_json_array(&j, "benchmarks");
    for (int i = 0; i < eb_component_count(); i++) {
        const eb_component *c = eb_component_at(i);
        for (int k = 0; k < eb_bench_count(c->name); k++) {
            eb_listing_entry e = entry_of(eb_bench_at(c->name, k), c);
            eb_listing_add(&j, &e);
        }
        if (c->list_json)
            c->list_json(c, &j);
    }
    eb_json_close(&j);
    fprintf(f, "%s\n", eb_json_finish(&j));
    eb_json_free(&j);
}
