/* Registration of components (what `effbench NAME` / argv[0] runs), and the
 * sorted list a component's own registry is built on (IMB's benchmark
 * descriptors: imb/driver/bench.h).  Components and benchmarks register
 * themselves from constructor functions, so adding one is adding files.
 *
 * The registries grow as needed and refuse a duplicate: a component whose
 * name or alias is already taken (a component's own registry refuses what it
 * must, e.g. a benchmark name its component already has).  A constructor
 * runs before main and cannot call MPI, so the refusal is recorded, not
 * printed: main reports the first one (eb_registry_error) on rank 0 and every
 * rank exits with status 2 before anything runs. */
#ifndef EB_REGISTRY_H
#define EB_REGISTRY_H

struct eb_json;

typedef struct eb_component {
    const char *name;        /* "mpi1", "beff", ... : `effbench NAME` */
    const char *aliases[3];  /* program names that select it, e.g. "IMB-MPI1" */
    const char *summary;     /* one line for `effbench --help` */
    int order;               /* position in the help list */
    /* Runs after MPI_Init; argv[0] is the component's name.  Returns the
     * exit status (user errors exit through eb_exit_all instead). */
    int (*main)(const struct eb_component *self, int argc, char **argv);
    /* Optional: 1 when program name `prog` selects this component besides its
     * name and aliases (the OSU personality answers to ~90 program names). */
    int (*claims)(const char *prog);
    /* Optional: the thread level MPI_Init_thread asks for when the command
     * line has no -thread_level (osu_latency_mt: MPI_THREAD_MULTIPLE).  Runs
     * before MPI_Init: argv[0] is the program or component name. */
    int (*thread_level)(int argc, char **argv);
    /* Optional, for `effbench --list-json` (core/listing.h): the component
     * appends one element per benchmark of its descriptor table to the open
     * "benchmarks" array `benchmarks`, each through eb_listing_add (or
     * eb_listing_open_entry, its own members, eb_json_close), so every entry
     * has the listing's fields (IMB's families: eb_bench_list_json).  Called on
     * rank 0 only, without MPI calls. */
    void (*list_json)(const struct eb_component *self, struct eb_json *benchmarks);
} eb_component;

void eb_register_component(const eb_component *c);
/* By name, alias, old spelling or claim. */
const eb_component *eb_find_component(const char *name);
/* The name an old spelling ("imb-p2p") has now ("p2p"); any other word as is. */
const char *eb_component_current_name(const char *name);
int eb_component_count(void);
const eb_component *eb_component_at(int i); /* sorted by order */

/* The first registration refused (a duplicate name), NULL if none. */
const char *eb_registry_error(void);
/* Record a refusal, from a registry of a component's own: the first one is
 * eb_registry_error's. */
void eb_registry_refuse(const char *message);

/* A sorted, growing list of registrations. */
typedef struct {
    const void **v;
    int n, cap;
} eb_reg_list;
/* Insert p after every entry of the same or lower order (stable: the
 * registration order breaks ties); order_of gives an entry's order. */
void eb_reg_insert(eb_reg_list *l, const void *p, int order, int (*order_of)(const void *));

#define EB_CONSTRUCTOR(fn) static void fn(void) __attribute__((constructor)); static void fn(void)

#endif
