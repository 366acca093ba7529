/* Threads inside one MPI process, for the threaded programs (IMB-MT,
 * osu_latency_mt): a team of POSIX threads that runs one function on every
 * member, a barrier of the team, and a communicator per thread.  One place
 * for what both need, so their threads start, meet and talk alike. */
#ifndef EB_THREADS_H
#define EB_THREADS_H
#include <mpi.h>
#include <pthread.h>

#define EB_MAX_THREADS 128

typedef struct eb_team {
    int n;                     /* members: thread 0 is the caller */
    pthread_barrier_t barrier; /* all n members */
} eb_team;

/* The team size OpenMP would use: OMP_NUM_THREADS's first value, or the
 * processors online when it is unset.  -1 with a message in err when
 * OMP_NUM_THREADS is not a number from 1 to EB_MAX_THREADS. */
int eb_omp_num_threads(char *err, size_t errlen);
void eb_team_init(eb_team *t, int n);
void eb_team_destroy(eb_team *t);
/* Runs fn(tid, arg) on every member (tid 0 on the calling thread) and
 * returns when all have returned. */
void eb_team_run(eb_team *t, void (*fn)(int tid, void *arg), void *arg);
void eb_team_barrier(eb_team *t);
/* A duplicate of `comm` for thread `tid`, with the info key "thread_id" set
 * to tid (MPI libraries may map it to a channel of its own, as IMB-MT asks). */
MPI_Comm eb_thread_comm(MPI_Comm comm, int tid);
/* NULL when `provided` is at least MPI_THREAD_MULTIPLE, else a message for
 * `who` naming the level the library granted (in an SMPI build always a
 * message: no thread may run beside the simulated ranks). */
const char *eb_thread_refusal(const char *who, int provided, char *msg, size_t msglen);
#endif
