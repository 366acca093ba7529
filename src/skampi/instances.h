/* The pattern instances of SKaMPI's Figure 2: type number -> pattern, MPI
 * operations, and what the instance needs.  Pure data; the kernels that
 * run them are in patterns.c. */
#ifndef SK_INSTANCES_H
#define SK_INSTANCES_H

#include <stddef.h>

enum sk_pattern { SK_PINGPONG, SK_COLLECTIVE, SK_MASTER_WORKER, SK_SIMPLE };

enum {
    SK_I_REDUCE = 1,   /* MPI_SUM on the base type: numeric base types only */
    SK_I_NO_BYTES = 2, /* no message (Barrier, Comm_split): length not variable */
    SK_I_ONE_TYPE = 4, /* one datatype for sending and receiving (Sendrecv_replace) */
};

/* Buffer needs per process for a message of m bytes on p processes. */
enum sk_mem { SK_MEM_ONE, SK_MEM_P_RECV, SK_MEM_P_SEND, SK_MEM_P_BOTH, SK_MEM_P_SEND_ONE_RECV };

typedef struct {
    int type;
    enum sk_pattern pattern;
    const char *name;    /* MPI operations, as in Figure 2 */
    unsigned flags;
    enum sk_mem mem;
} sk_instance;

const sk_instance *sk_instance_find(int type);
const char *sk_pattern_name(enum sk_pattern p);

/* Bytes of send and receive buffer a message length m needs on p processes. */
void sk_instance_memory(const sk_instance *in, double m, int p, double *send, double *recv);

#endif
