/* The components' names: one word each, [a-z][a-z0-9_]*, the same on the
 * command line (`effbench NAME`), in the registry, in the listing and in every
 * JSON record's "component" (docs/architecture.md, "Component names").  An
 * IMB program IMB-X's component is x in lower case.  Python's copy is
 * python/effbench/component_names.py. */
#ifndef EB_COMPONENT_NAMES_H
#define EB_COMPONENT_NAMES_H

#define EB_COMPONENT_MPI1 "mpi1"
#define EB_COMPONENT_EXT "ext"
#define EB_COMPONENT_IO "io"
#define EB_COMPONENT_NBC "nbc"
#define EB_COMPONENT_RMA "rma"
#define EB_COMPONENT_MPI4 "mpi4"
#define EB_COMPONENT_MT "mt"
#define EB_COMPONENT_P2P "p2p"
#define EB_COMPONENT_BEFF "beff"
#define EB_COMPONENT_BEFF_IO "beff_io"
#define EB_COMPONENT_SKAMPI "skampi"
#define EB_COMPONENT_OSU "osu"
#define EB_COMPONENT_REPROMPI "reprompi"
#define EB_COMPONENT_NODES "nodes"
#define EB_COMPONENT_QUICK "quick"
#define EB_COMPONENT_EXPLAIN "explain"
#define EB_COMPONENT_GUIDELINES "guidelines"
#define EB_COMPONENT_DEVCOPY "devcopy"

#endif
