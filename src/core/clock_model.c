#include "core/clock_model.h"

#include <string.h>

static const char *const method_names[EB_CLOCK_NMETHODS] = {"linear", "skampi", "hca3",
                                                            "hca3_2level", "none"};

const char *eb_clock_method_name(int method)
{
    return method >= 0 && method < EB_CLOCK_NMETHODS ? method_names[method] : "?";
}

int eb_clock_method_parse(const char *name)
{
    for (int i = 0; i < EB_CLOCK_NMETHODS; i++)
        if (name && !strcmp(name, method_names[i]))
            return i;
    return -1;
}

double eb_clock_to_global(const eb_clock_model *m, double local)
{
    return local + m->offset + m->drift * (local - m->t_ref);
}

double eb_clock_to_local(const eb_clock_model *m, double global)
{
    /* invert global = local + offset + drift (local - t_ref), near t_ref for precision */
    return m->t_ref + (global - m->offset - m->t_ref) / (1.0 + m->drift);
}
