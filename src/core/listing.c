#include "core/listing.h"

#include "core/registry.h"

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
        if (c->list_json)
            c->list_json(c, &j);
    }
    eb_json_close(&j);
    fprintf(f, "%s\n", eb_json_finish(&j));
    eb_json_free(&j);
}
