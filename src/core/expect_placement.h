/* --expect-placement: the run stops before measuring when the ranks are not
 * where the user asked (docs/placement.md).  main takes the option out of
 * argv before the component parses its own, like --row-timeout.
 *
 * Every rank of MPI_COMM_WORLD is checked, pairwise:
 *   same-node          all ranks on one host
 *   different-nodes    no two ranks on one host
 *   same-socket        all ranks on one host, each bound within one socket,
 *                      the same socket for all
 *   different-sockets  all ranks on one host, each bound within one socket,
 *                      no two on the same socket
 *   different-gpus     no two ranks of one host on the same GPU (PCI bus id),
 *                      and every rank on one: checked once the devices are open
 *                      (eb_expect_gpus_check, from the run record), as a run
 *                      without device buffers has no GPU to check
 * A rank whose CPUs span several sockets (not bound, or bound to a NUMA node
 * or cores of two packages) is on no one socket: the socket checks refuse it. */
#ifndef EB_EXPECT_PLACEMENT_H
#define EB_EXPECT_PLACEMENT_H

#include <stddef.h>

/* main: take `--expect-placement WHERE` out of argv (anywhere).  Returns -1
 * with a message for a value that is none of the four. */
int eb_expect_placement_take_option(int *argc, char **argv, char *err, size_t errlen);

/* The value taken, NULL when none was given (the run record's
 * "expect_placement"). */
const char *eb_expected_placement(void);

/* The verdict on n ranks (pure, unit-tested): node_of[r] the host number of
 * rank r, host[node] its name, sockets[r] the range list of rank r's sockets
 * ("" unknown).  Returns 0 when the ranks are where `want` says, else 1 with
 * a message naming the ranks, their hosts and sockets. */
int eb_placement_verdict(const char *want, int n, const int *node_of, const char *const *host,
                         const char *const *sockets, char *msg, size_t len);

/* different-gpus on n ranks (pure, unit-tested): bus_id[r] the PCI bus id of
 * rank r's GPU, "" for none.  0, or 1 with a message naming the ranks. */
int eb_gpu_verdict(int n, const int *node_of, const char *const *host,
                   const char *const *bus_id, char *msg, size_t len);

#define EB_BUS_ID_LEN 32
/* Collective over MPI_COMM_WORLD (core/device_mpi.c, as the run record is
 * written): when different-gpus was asked for and the ranks' GPUs (bus_id,
 * NULL or "" for none) are not so, every rank exits with status 2. */
void eb_expect_gpus_check(const char *bus_id);

/* Collective over MPI_COMM_WORLD (main, before the component runs): when an
 * expectation was given and the ranks are not there, every rank exits with
 * status 2 and rank 0's message. */
void eb_expect_placement_check(void);

#endif
