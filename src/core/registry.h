/* Registration of components (what `effbench NAME` / argv[0] runs) and of
 * IMB-style benchmark descriptors.  Components and benchmarks register
 * themselves from constructor functions, so adding one is adding files. */
#ifndef EB_REGISTRY_H
#define EB_REGISTRY_H

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
} eb_component;

void eb_register_component(const eb_component *c);
const eb_component *eb_find_component(const char *name); /* name or alias */
int eb_component_count(void);
const eb_component *eb_component_at(int i); /* sorted by order */

#define EB_CONSTRUCTOR(fn) static void fn(void) __attribute__((constructor)); static void fn(void)

#endif
