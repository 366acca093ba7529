/* `effbench --list-json`: what each component's list_json hook adds, each
 * entry with every field of the listing: IMB's eb_bench descriptors
 * (eb_bench_list_json, an IMB family's hook), then a table of its own. */
#include "core/listing.h"
#include "core/registry.h"
#include "imb/driver/bench.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int noop_main(const eb_component *self, int argc, char **argv)
{
    (void)self, (void)argc, (void)argv;
    return 0;
}

/* What an IMB family does (its descriptors), then what a personality with a
 * table of its own (OSU) does. */
static void own_table(const eb_component *self, eb_json *benchmarks)
{
    eb_bench_list_json(self, benchmarks);
    eb_listing_entry e = {.component = self->name, .name = "unit_latency",
                          .program = "unit_latency", .cls = "single_transfer",
                          .is_default = 1, .checked = 1, .fixed_procs = 2};
    eb_listing_add(benchmarks, &e);
    eb_listing_entry hello = {.component = self->name, .name = "unit_hello",
                              .program = "unit_hello", .cls = "other", .flags = {"STARTUP"}};
    eb_listing_open_entry(benchmarks, &hello);
    eb_json_str(benchmarks, "requires", "MPI-4"); /* a member of its own */
    eb_json_close(benchmarks);
}

static const eb_component unit_component = {.name = "unit", .aliases = {"unit-prog"},
                                            .summary = "unit test", .order = 10000,
                                            .main = noop_main, .list_json = own_table};
static const eb_bench unit_bench = {.component = "unit", .name = "Descriptor", .order = 1,
                                    .cls = EB_COLLECTIVE,
                                    .flags = EB_F_EXPLICIT_ONLY | EB_F_NO_BYTES | EB_F_ROOT,
                                    .min_procs = 3, .fixed_bytes = 8};

static char *listing_text(void)
{
    FILE *f = tmpfile();
    eb_listing_print(f);
    long n = ftell(f);
    rewind(f);
    char *s = calloc((size_t)n + 1, 1);
    CHECK(fread(s, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    return s;
}

int main(void)
{
    eb_register_component(&unit_component);
    eb_register_bench(&unit_bench);
    CHECK(eb_registry_error() == NULL);
    char *s = listing_text();
    const char *desc = strstr(s, "{\"component\": \"unit\", \"name\": \"Descriptor\", "
                                 "\"program\": \"unit-prog\", \"class\": \"collective\", "
                                 "\"default\": false, \"checked\": false, \"reduction\": false, "
                                 "\"root\": true, \"modes\": false, \"min_procs\": 3, "
                                 "\"fixed_procs\": 0, \"fixed_bytes\": 8, \"multi\": true, "
                                 "\"flags\": [\"EXPLICIT_ONLY\", \"ROOT\", \"NO_BYTES\"]}");
    const char *own = strstr(s, "{\"component\": \"unit\", \"name\": \"unit_latency\", "
                                "\"program\": \"unit_latency\", \"class\": \"single_transfer\", "
                                "\"default\": true, \"checked\": true, \"reduction\": false, "
                                "\"root\": false, \"modes\": false, \"min_procs\": 0, "
                                "\"fixed_procs\": 2, \"fixed_bytes\": 0, \"multi\": false, "
                                "\"flags\": []}, ");
    const char *hello = strstr(s, "\"name\": \"unit_hello\", \"program\": \"unit_hello\", "
                                  "\"class\": \"other\"");
    CHECK(desc && own && hello && desc < own && own < hello);
    CHECK(strstr(s, "\"flags\": [\"STARTUP\"], \"requires\": \"MPI-4\"}]}\n") != NULL);
    const char *head = "{\"schema\": 1, \"version\": \"" EFFBENCH_VERSION "\", \"components\": [";
    CHECK(strncmp(s, head, strlen(head)) == 0);
    CHECK(strstr(s, "{\"name\": \"unit\", \"aliases\": [\"unit-prog\"], \"summary\": \"unit test\"}") != NULL);
    CHECK(strstr(s, "\"benchmarks\": [{\"component\": \"mpi1\", \"name\": \"PingPong\"") != NULL);
    free(s);
    UNIT_DONE();
}
