/* b_eff_io's files: their names and their removal (docs/beff-io.md). */
#include "beffio/beff_io_files.h"

#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

void bio_leaf_name(const char *prefix, int n, int type, int k, char *out, size_t len)
{
    if (type == 2)
        snprintf(out, len, "%s_n%03d_t2.%03d", prefix, n, k);
    else
        snprintf(out, len, "%s_n%03d_t%d", prefix, n, type);
}

void bio_file_name(const bio_run *r, int n, int type, int k, char *out, size_t len)
{
    char leaf[80];
    bio_leaf_name(r->prefix, n, type, k, leaf, sizeof leaf);
    snprintf(out, len, "%s/%s", r->path, leaf);
}

/* The files of a run with this prefix (each rank removes its own). */
void bio_remove_prefix_files(bio_run *r, const char *prefix)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char name[4200];
    for (int i = 0; i < r->nparts; i++) {
        int n = r->parts[i];
        if (rank >= n)
            continue;
        for (int t = 0; t < BIO_NTYPES; t++) {
            if (t != 2 && rank != 0)
                continue;
            char leaf[80];
            bio_leaf_name(prefix, n, t, rank, leaf, sizeof leaf);
            snprintf(name, sizeof name, "%s/%s", r->path, leaf);
            unlink(name);
        }
    }
}

void bio_remove_files(bio_run *r)
{
    if (!r->keep)
        bio_remove_prefix_files(r, r->prefix);
}
