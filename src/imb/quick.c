/* `effbench quick [component] [benchmarks] [options]`: an IMB component in
 * accuracy-driven mode (docs/imb.md).  It runs the component's own entry
 * point with -quick added, so every IMB family gets it unchanged. */
#include "core/component_names.h"
#include "core/error.h"
#include "core/registry.h"
#include "core/simulate.h"

#include <stdio.h>
#include <string.h>

static const char *imb_components[] = {EB_COMPONENT_MPI1, EB_COMPONENT_NBC, EB_COMPONENT_EXT,
                                       EB_COMPONENT_RMA, EB_COMPONENT_IO};

static int quick_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    const eb_component *target = eb_find_component(EB_COMPONENT_MPI1);
    int first = 1;
    if (argc > 1)
        for (size_t i = 0; i < sizeof imb_components / sizeof *imb_components; i++)
            if (strcmp(argv[1], imb_components[i]) == 0 && eb_find_component(argv[1])) {
                target = eb_find_component(argv[1]);
                first = 2;
            }
    if (!target)
        eb_exit_all(EB_EXIT_USAGE, "quick: no IMB component in this build");
    /* quick's loops estimate noise; a simulated machine has none, so they would only
     * repeat the first loop's time at several times its cost (docs/imb.md) */
    if (eb_sim_active())
        eb_exit_all(EB_EXIT_USAGE, "quick: not for a simulation: a simulated machine repeats "
                    "every loop exactly, so quick mode's extra loops measure the same time "
                    "again at several times the cost; run the component itself (docs/imb.md, "
                    "\"Where quick mode pays\")");
    char *args[argc + 2];
    int n = 0;
    args[n++] = (char *)target->name;
    args[n++] = "-quick";
    for (int i = first; i < argc; i++)
        args[n++] = argv[i];
    args[n] = NULL;
    return target->main(target, n, args);
}

static const eb_component quick_component = {
    .name = EB_COMPONENT_QUICK,
    .summary = "an IMB component measured to -epsilon accuracy (default 2 %)",
    .order = 90,
    .main = quick_main,
};

EB_CONSTRUCTOR(register_quick) { eb_register_component(&quick_component); }
