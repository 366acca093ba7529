#include "core/threads.h"
#include "core/error.h"
#include "core/smpi_build.h"
#include "core/sysinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int eb_omp_num_threads(char *err, size_t errlen)
{
    const char *s = getenv("OMP_NUM_THREADS");
    if (!s || !*s) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        return n < 1 ? 1 : n > EB_MAX_THREADS ? EB_MAX_THREADS : (int)n;
    }
    char *end;
    long n = strtol(s, &end, 10);
    /* OpenMP takes a list ("4,2": nested levels); the outer level is first */
    if (end == s || (*end && *end != ',') || n < 1 || n > EB_MAX_THREADS)
        return eb_err(err, errlen, "OMP_NUM_THREADS=%s: expected a number of threads from 1 "
                      "to %d", s, EB_MAX_THREADS);
    return (int)n;
}

void eb_team_init(eb_team *t, int n)
{
    t->n = n;
    pthread_barrier_init(&t->barrier, NULL, (unsigned)n);
}

void eb_team_destroy(eb_team *t) { pthread_barrier_destroy(&t->barrier); }

typedef struct {
    void (*fn)(int, void *);
    void *arg;
    int tid;
} member;

static void *member_main(void *p)
{
    member *m = p;
    m->fn(m->tid, m->arg);
    return NULL;
}

void eb_team_run(eb_team *t, void (*fn)(int tid, void *arg), void *arg)
{
    pthread_t th[EB_MAX_THREADS];
    member m[EB_MAX_THREADS];
    for (int i = 1; i < t->n; i++) {
        m[i] = (member){fn, arg, i};
        if (pthread_create(&th[i], NULL, member_main, &m[i]))
            eb_abort("cannot start thread %d of %d", i, t->n);
    }
    fn(0, arg);
    for (int i = 1; i < t->n; i++)
        pthread_join(th[i], NULL);
}

void eb_team_barrier(eb_team *t) { pthread_barrier_wait(&t->barrier); }

MPI_Comm eb_thread_comm(MPI_Comm comm, int tid)
{
    MPI_Comm c;
    MPI_Info info;
    char v[16];
    MPI_Comm_dup(comm, &c);
    MPI_Info_create(&info);
    snprintf(v, sizeof v, "%d", tid);
    MPI_Info_set(info, "thread_id", v);
    MPI_Comm_set_info(c, info);
    MPI_Info_free(&info);
    return c;
}

const char *eb_thread_refusal(const char *who, int provided, char *msg, size_t msglen)
{
    if (EB_SMPI_BUILD) { /* SMPI's ranks are threads of one process already */
        snprintf(msg, msglen, "%s runs threads: not in a simulation (SMPI ranks share one "
                 "process)", who);
        return msg;
    }
    if (provided >= MPI_THREAD_MULTIPLE)
        return NULL;
    snprintf(msg, msglen, "%s needs MPI_THREAD_MULTIPLE, but the MPI library granted %s", who,
             eb_thread_level_name(provided));
    return msg;
}
