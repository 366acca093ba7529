/* The IMB measurement driver: IMB's control flow ("Benchmark Methodology"
 * of the IMB user guide) for any benchmark descriptor of a family. */
#ifndef EB_DRIVER_H
#define EB_DRIVER_H

#include "imb/driver/bench.h"
#include "imb/driver/options.h"

/* The whole run of an IMB component (`effbench mpi1 ...` / IMB-MPI1 ...):
 * options, plan, measurement, reports.  Returns the exit status. */
int eb_imb_run(const eb_imb_family *family, int argc, char **argv);

/* Make family f a component (`effbench NAME`, its program name as alias,
 * f->summary, f->order) whose main is eb_imb_run(f, ...).  From a
 * constructor (EB_CONSTRUCTOR), like every registration. */
void eb_register_imb_family(const eb_imb_family *f);

#endif
