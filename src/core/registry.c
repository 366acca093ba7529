#include "core/registry.h"

#include "core/component_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char first_error[256];

void eb_registry_refuse(const char *message)
{
    if (!first_error[0])
        snprintf(first_error, sizeof first_error, "%s", message);
}

const char *eb_registry_error(void) { return first_error[0] ? first_error : NULL; }

void eb_reg_insert(eb_reg_list *l, const void *p, int order, int (*order_of)(const void *))
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 32;
        const void **v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v) { /* before main: no MPI to end the job through */
            fputs("effbench: error: out of memory registering components\n", stderr);
            abort();
        }
        l->v = v;
        l->cap = cap;
    }
    int i = l->n++;
    while (i > 0 && order_of(l->v[i - 1]) > order) {
        l->v[i] = l->v[i - 1];
        i--;
    }
    l->v[i] = p;
}

static eb_reg_list components;

static int component_order(const void *p) { return ((const eb_component *)p)->order; }

static const eb_component *component_at(int i) { return components.v[i]; }

void eb_register_component(const eb_component *c)
{
    const char *names[4] = {c->name, c->aliases[0], c->aliases[1], c->aliases[2]};
    for (int k = 0; k < 4 && names[k]; k++) {
        const eb_component *other = eb_find_component(names[k]);
        if (other) {
            char msg[256];
            snprintf(msg, sizeof msg, "two components answer to the name '%s' (the second "
                     "one, of '%s', is refused)", names[k], c->name);
            eb_registry_refuse(msg);
            return;
        }
    }
    eb_reg_insert(&components, c, c->order, component_order);
}

/* Spellings a component had before the naming rule (core/component_names.h):
 * old command lines keep working. */
static const char *const old_spellings[][2] = {
    {"imb-p2p", EB_COMPONENT_P2P},
    {"beff-io", EB_COMPONENT_BEFF_IO},
};

const char *eb_component_current_name(const char *name)
{
    for (size_t i = 0; i < sizeof old_spellings / sizeof *old_spellings; i++)
        if (strcmp(name, old_spellings[i][0]) == 0)
            return old_spellings[i][1];
    return name;
}

const eb_component *eb_find_component(const char *name)
{
    name = eb_component_current_name(name);
    for (int i = 0; i < components.n; i++) {
        const eb_component *c = component_at(i);
        if (strcmp(c->name, name) == 0)
            return c;
        for (int a = 0; a < 3 && c->aliases[a]; a++)
            if (strcmp(c->aliases[a], name) == 0)
                return c;
        if (c->claims && c->claims(name))
            return c;
    }
    return NULL;
}

int eb_component_count(void) { return components.n; }
const eb_component *eb_component_at(int i) { return component_at(i); }
