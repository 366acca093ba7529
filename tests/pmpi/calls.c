/* A PMPI interposition library for the tests of IMB 2021's options: it
 * counts, on world rank 0, the MPI calls those options change, and writes
 * "key count" lines to $EFFBENCH_CALLS_FILE at MPI_Finalize.  Load it with
 * LD_PRELOAD.  Keys:
 *   Barrier                       MPI_Barrier calls
 *   Win_flush_all                 MPI_Win_flush_all calls
 *   Sendrecv0                     zero-count MPI_Sendrecv (IMB's own barrier)
 *   Allreduce:TYPE                MPI_Allreduce by datatype name
 *   Bcast:TYPE:rootR              MPI_Bcast by datatype and root
 *   Send:TYPE, Isend:TYPE         by datatype name
 *   Reduce_scatter:counts:C0,C1,... MPI_Reduce_scatter by its receive counts
 *   Send_c:TYPE, Allreduce_c:TYPE, Allgatherv_c:TYPE, Iallreduce_c:TYPE
 *                                 MPI-4's large-count forms, where the library has them */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 128

static char keys[MAX_KEYS][64];
static long counts[MAX_KEYS];
static int nkeys;

static int counting(void)
{
    int rank = -1, inited = 0, finalized = 0;
    PMPI_Initialized(&inited);
    PMPI_Finalized(&finalized);
    if (!inited || finalized)
        return 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank == 0;
}

static void count(const char *key)
{
    for (int i = 0; i < nkeys; i++)
        if (strcmp(keys[i], key) == 0) {
            counts[i]++;
            return;
        }
    if (nkeys < MAX_KEYS) {
        snprintf(keys[nkeys], sizeof keys[nkeys], "%s", key);
        counts[nkeys++] = 1;
    }
}

static void count_typed(const char *what, MPI_Datatype t, int root)
{
    if (!counting())
        return;
    char name[MPI_MAX_OBJECT_NAME] = "?", key[64];
    int len = 0;
    PMPI_Type_get_name(t, name, &len);
    if (root >= 0)
        snprintf(key, sizeof key, "%s:%s:root%d", what, name, root);
    else
        snprintf(key, sizeof key, "%s:%s", what, name);
    count(key);
}

int MPI_Barrier(MPI_Comm comm)
{
    if (counting())
        count("Barrier");
    return PMPI_Barrier(comm);
}

int MPI_Win_flush_all(MPI_Win win)
{
    if (counting())
        count("Win_flush_all");
    return PMPI_Win_flush_all(win);
}

int MPI_Sendrecv(const void *sb, int sc, MPI_Datatype st, int dest, int stag, void *rb, int rc,
                 MPI_Datatype rt, int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
    if (sc == 0 && rc == 0 && counting())
        count("Sendrecv0");
    return PMPI_Sendrecv(sb, sc, st, dest, stag, rb, rc, rt, src, rtag, comm, status);
}

int MPI_Allreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    count_typed("Allreduce", t, -1);
    return PMPI_Allreduce(sb, rb, n, t, op, comm);
}

int MPI_Reduce_scatter(const void *sb, void *rb, const int rc[], MPI_Datatype t, MPI_Op op,
                       MPI_Comm comm)
{
    if (counting()) {
        char key[64] = "Reduce_scatter:counts:";
        int n = 0;
        PMPI_Comm_size(comm, &n);
        for (int i = 0; i < n && strlen(key) < sizeof key - 12; i++)
            snprintf(key + strlen(key), sizeof key - strlen(key), i ? ",%d" : "%d", rc[i]);
        count(key);
    }
    return PMPI_Reduce_scatter(sb, rb, rc, t, op, comm);
}

int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm)
{
    count_typed("Bcast", t, root);
    return PMPI_Bcast(b, n, t, root, comm);
}

int MPI_Send(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    count_typed("Send", t, -1);
    return PMPI_Send(b, n, t, dest, tag, comm);
}

int MPI_Isend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    count_typed("Isend", t, -1);
    return PMPI_Isend(b, n, t, dest, tag, comm, req);
}

#ifdef EB_HAVE_MPI_SEND_C
/* MPI-4's large-count forms (docs/imb.md "Messages of 2 GiB and more") */
int MPI_Send_c(const void *b, MPI_Count n, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    count_typed("Send_c", t, -1);
    return PMPI_Send_c(b, n, t, dest, tag, comm);
}
#endif
#ifdef EB_HAVE_MPI_ALLREDUCE_C
int MPI_Allreduce_c(const void *sb, void *rb, MPI_Count n, MPI_Datatype t, MPI_Op op,
                    MPI_Comm comm)
{
    count_typed("Allreduce_c", t, -1);
    return PMPI_Allreduce_c(sb, rb, n, t, op, comm);
}
int MPI_Allgatherv_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                     const MPI_Count rc[], const MPI_Aint displs[], MPI_Datatype rt, MPI_Comm comm)
{
    count_typed("Allgatherv_c", rt, -1);
    return PMPI_Allgatherv_c(sb, sc, st, rb, rc, displs, rt, comm);
}
#endif
#ifdef EB_HAVE_MPI_IALLREDUCE_C
int MPI_Iallreduce_c(const void *sb, void *rb, MPI_Count n, MPI_Datatype t, MPI_Op op,
                     MPI_Comm comm, MPI_Request *req)
{
    count_typed("Iallreduce_c", t, -1);
    return PMPI_Iallreduce_c(sb, rb, n, t, op, comm, req);
}
#endif

int MPI_Finalize(void)
{
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *path = getenv("EFFBENCH_CALLS_FILE");
    if (rank == 0 && path) {
        FILE *f = fopen(path, "w");
        if (f) {
            for (int i = 0; i < nkeys; i++)
                fprintf(f, "%s %ld\n", keys[i], counts[i]);
            fclose(f);
        }
    }
    return PMPI_Finalize();
}
