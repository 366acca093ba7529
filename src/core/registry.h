/* Registration of components (what `effbench NAME` / argv[0] runs) and of
 * IMB-style benchmark descriptors.  Components and benchmarks register
 * themselves from constructor functions, so adding one is adding files.
 *
 * Both registries grow as needed and refuse a duplicate: a component whose
 * name or alias is already taken, a benchmark whose name (ignoring case, as
 * the command line matches it) its component already has.  A constructor
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
    /* Optional, for `effbench --list-json` (core/listing.h): a component with
     * a descriptor table of its own (not eb_bench) appends one element per
     * benchmark to the open "benchmarks" array `benchmarks`, each through
     * eb_listing_add (or eb_listing_open_entry, its own members, eb_json_close),
     * so every entry has the listing's fields.  Called on rank 0 only, without
     * MPI calls; the component's eb_bench descriptors, if any, are listed
     * before it by the core. */
    void (*list_json)(const struct eb_component *self, struct eb_json *benchmarks);
} eb_component;

void eb_register_component(const eb_component *c);
const eb_component *eb_find_component(const char *name); /* name or alias */
int eb_component_count(void);
const eb_component *eb_component_at(int i); /* sorted by order */

/* The first registration refused (a duplicate name), NULL if none. */
const char *eb_registry_error(void);

#define EB_CONSTRUCTOR(fn) static void fn(void) __attribute__((constructor)); static void fn(void)

#endif
