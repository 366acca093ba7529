/* `effbench --list-json`: every benchmark of every component as one JSON
 * document, derived from the registered descriptors (docs/json-lines.md,
 * "The benchmark listing").  The tests and the docs' tables are checked
 * against it, so no list of names is kept anywhere else. */
#ifndef EB_LISTING_H
#define EB_LISTING_H

#include "core/json.h"

#include <stdio.h>

#define EB_LISTING_SCHEMA 1
#define EB_LISTING_MAX_FLAGS 16

/* One element of the "benchmarks" array. */
typedef struct {
    const char *component;   /* "mpi1", "osu", ... */
    const char *name;        /* the name a command line selects it by */
    const char *program;     /* the program (argv[0]) that runs it: "IMB-MPI1", "osu_latency" */
    const char *cls;         /* "single_transfer", "parallel_transfer", "collective", ... */
    int is_default;          /* runs when the program is given no benchmark names */
    int checked;             /* -check verifies its data (else its rows say "not checked") */
    int reduction, root, modes, multi;
    int min_procs, fixed_procs; /* 0: none */
    long long fixed_bytes;      /* 0: none */
    const char *flags[EB_LISTING_MAX_FLAGS]; /* descriptor flag names, NULL-terminated */
} eb_listing_entry;

/* Append e to the open "benchmarks" array as a complete object. */
void eb_listing_add(eb_json *benchmarks, const eb_listing_entry *e);
/* The same, left open for members of the component's own; close it with
 * eb_json_close. */
void eb_listing_open_entry(eb_json *benchmarks, const eb_listing_entry *e);

/* The whole listing, one JSON document and a newline, on f. */
void eb_listing_print(FILE *f);

#endif
