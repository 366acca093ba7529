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

/* Collective over MPI_COMM_WORLD (main, before the component runs): when an
 * expectation was given and the ranks are not there, every rank exits with
 * status 2 and rank 0's message. */
void eb_expect_placement_check(void);

#endif
