#include "core/registry.h"

#include <string.h>

#define EB_MAX_COMPONENTS 32
static const eb_component *components[EB_MAX_COMPONENTS];
static int ncomponents;

void eb_register_component(const eb_component *c)
{
    if (ncomponents == EB_MAX_COMPONENTS)
        return;
    int i = ncomponents++;
    while (i > 0 && components[i - 1]->order > c->order) {
        components[i] = components[i - 1];
        i--;
    }
    components[i] = c;
}

const eb_component *eb_find_component(const char *name)
{
    for (int i = 0; i < ncomponents; i++) {
        if (strcmp(components[i]->name, name) == 0)
            return components[i];
        for (int a = 0; a < 3 && components[i]->aliases[a]; a++)
            if (strcmp(components[i]->aliases[a], name) == 0)
                return components[i];
        if (components[i]->claims && components[i]->claims(name))
            return components[i];
    }
    return NULL;
}

int eb_component_count(void) { return ncomponents; }
const eb_component *eb_component_at(int i) { return components[i]; }

#include "core/bench.h"

#define EB_MAX_BENCHES 512
static const eb_bench *benches[EB_MAX_BENCHES];
static int nbenches;

void eb_register_bench(const eb_bench *b)
{
    if (nbenches == EB_MAX_BENCHES)
        return;
    int i = nbenches++;
    while (i > 0 && benches[i - 1]->order > b->order) {
        benches[i] = benches[i - 1];
        i--;
    }
    benches[i] = b;
}

int eb_bench_count(const char *component)
{
    int n = 0;
    for (int i = 0; i < nbenches; i++)
        n += strcmp(benches[i]->component, component) == 0;
    return n;
}

const eb_bench *eb_bench_at(const char *component, int k)
{
    for (int i = 0; i < nbenches; i++)
        if (strcmp(benches[i]->component, component) == 0 && k-- == 0)
            return benches[i];
    return NULL;
}
