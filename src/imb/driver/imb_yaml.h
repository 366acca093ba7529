/* IMB 2021's -dump FILE and -load FILE: the session's options as YAML, as
 * IMB's args_parser::dump / load write and read them (yaml-cpp builds of
 * IMB): a map from option names to values (scalars, [a, b] lists), the
 * benchmark names under `extra_args`, `version: 0`, and options left at
 * their default written as comments "# {name: value} (default)".  effbench
 * reads and writes that subset itself (docs/imb.md). */
#ifndef EB_IMB_YAML_H
#define EB_IMB_YAML_H

#include "imb/driver/imb_option_types.h"

#include <stdio.h>

/* The YAML text of a -load file as command-line words ("-iter",
 * "1000,40,100", ..., then the benchmark names), to parse before the real
 * command line (whose options then win).  0, or -1 with err naming the file
 * and line. */
int eb_imb_yaml_to_args(const char *text, const char *fname, char ***args, int *nargs,
                        char *err, size_t errlen);
void eb_imb_yaml_free_args(char **args, int nargs);

/* -dump: the options of o in that YAML on f. */
void eb_imb_yaml_dump(FILE *f, const eb_imb_options *o);

/* Collective: argv with the words of the last -load FILE (rank 0 reads it)
 * put before the command line's, or argv itself; a bad file ends the run
 * with status 2. */
char **eb_imb_yaml_load_argv(int argc, char **argv, int *nargc);

/* Collective: -dump FILE written by rank 0 (status 2 everywhere if it cannot be). */
void eb_imb_yaml_dump_file(const eb_imb_options *o);

#endif
