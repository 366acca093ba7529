#include "osu/osu_nhbr_topo.h"

#include "core/error.h"
#include "core/own_coll.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- graph:FILE -------------------------------------------------------- */

static void push(int **v, int *n, int x)
{
    *v = eb_realloc(*v, (size_t)(*n + 1) * sizeof **v);
    (*v)[(*n)++] = x;
}

/* A rank of the file: a whole number, blanks around it allowed. */
static int rank_field(const char *s, long *v)
{
    char *end;
    while (*s == ' ' || *s == '\t')
        s++;
    errno = 0;
    *v = strtol(s, &end, 10);
    if (end == s || errno)
        return -1;
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
        end++;
    return *end ? -1 : 0;
}

/* One "source, destination" line; 0, or -1 with err. */
static int edge_line(char *line, const char *path, int lineno, int np, long *src, long *dst,
                     char *err, size_t errlen)
{
    char *comma = strchr(line, ',');
    if (comma)
        *comma = '\0';
    if (!comma || rank_field(line, src) || rank_field(comma + 1, dst))
        return eb_err(err, errlen, "%s:%d: expected 'source, destination' (two ranks "
                      "separated by a comma)", path, lineno);
    if (*src < 0 || *dst < 0 || *src >= np || *dst >= np)
        return eb_err(err, errlen, "%s:%d: rank %ld in the graph, but there are %d processes "
                      "(ranks 0 to %d): increase the number of processes", path, lineno,
                      *src < 0 || *src >= np ? *src : *dst, np, np - 1);
    return 0;
}

int osu_nhbr_read_graph(const char *path, int me, int np, int **sources, int *indegree,
                        int **destinations, int *outdegree, char *err, size_t errlen)
{
    *sources = *destinations = NULL;
    *indegree = *outdegree = 0;
    if (!path[0])
        return eb_err(err, errlen, "-N graph needs its adjacency list file: -N graph:FILE");
    FILE *f = fopen(path, "r");
    if (!f)
        return eb_err(err, errlen, "cannot open the graph file '%s' (-N graph:FILE): %s", path,
                      strerror(errno));
    char line[1024];
    int lineno = 0, status = 0;
    while (status == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || strspn(line, " \t\r\n") == strlen(line))
            continue;
        long src, dst;
        status = edge_line(line, path, lineno, np, &src, &dst, err, errlen);
        if (status == 0 && src == me)
            push(destinations, outdegree, (int)dst);
        if (status == 0 && dst == me)
            push(sources, indegree, (int)src);
    }
    fclose(f);
    return status;
}

/* ---- cart:DIM:RAD ------------------------------------------------------ */

/* Every neighbour within rad steps per dimension, the displacement vector
 * counted up from (-rad, ..., -rad) with the last dimension fastest (OSU's
 * order); the process itself left out. */
static void cart_neighbours(MPI_Comm cart, int d, int rad, int me, coll_state *a)
{
    int coords[16], at[16], disp[16];
    MPI_Cart_coords(cart, me, d, coords);
    for (int k = 0; k < d; k++)
        disp[k] = -rad;
    for (;;) {
        int nbr;
        for (int k = 0; k < d; k++)
            at[k] = coords[k] + disp[k];
        MPI_Cart_rank(cart, at, &nbr); /* periodic: coordinates wrap */
        if (nbr != me) {
            push(&a->sources, &a->indegree, nbr);
            push(&a->destinations, &a->outdegree, nbr);
        }
        int k = d - 1;
        while (k >= 0 && disp[k] == rad)
            disp[k--] = -rad;
        if (k < 0)
            return;
        disp[k]++;
    }
}

static int cart_topology(osu_ctx *c, coll_state *a, char *err, size_t errlen)
{
    int d = c->o->nhbr_dim, rad = c->o->nhbr_rad, periods[16], smallest = c->size;
    a->ndims = d;
    for (int k = 0; k < d; k++) {
        a->dims[k] = 0;
        periods[k] = 1;
    }
    MPI_Dims_create(c->size, d, a->dims);
    for (int k = 0; k < d; k++)
        smallest = a->dims[k] < smallest ? a->dims[k] : smallest;
    /* OSU's rule: no neighbour twice, in either direction */
    if (rad > (smallest - 1) / 2)
        return eb_err(err, errlen, "-N cart:%d:%d: the given neighborhood radius (r = %d) is "
                      "greater than the half of the minimum dimension size %d (%d processes in "
                      "%d dimensions): increase the number of processes or reduce dim and rad",
                      d, rad, rad, smallest, c->size, d);
    MPI_Comm cart;
    MPI_Cart_create(c->comm, d, a->dims, periods, 0, &cart);
    cart_neighbours(cart, d, rad, c->rank, a);
    MPI_Comm_free(&cart);
    return 0;
}

/* ---- the distributed graph --------------------------------------------- */

static int *ones(int n)
{
    int *w = eb_malloc((size_t)(n > 0 ? n : 1) * sizeof *w);
    for (int k = 0; k < n; k++)
        w[k] = 1;
    return w;
}

/* The distributed graph communicator of the lists; the seconds it took. */
static double graph_comm(osu_ctx *c, coll_state *a)
{
    int *sw = ones(a->indegree), *dw = ones(a->outdegree);
    double t0 = MPI_Wtime();
    MPI_Dist_graph_create_adjacent(c->comm, a->indegree, a->sources, sw, a->outdegree,
                                   a->destinations, dw, MPI_INFO_NULL, 0, &a->comm);
    double t = MPI_Wtime() - t0;
    free(sw);
    free(dw);
    return t;
}

int osu_nhbr_topo_create(osu_ctx *c, coll_state *a, char *err, size_t errlen)
{
    const osu_options *o = c->o;
    double t_lists = MPI_Wtime();
    int bad = o->nhbr_graph ? osu_nhbr_read_graph(o->nhbr_file, c->rank, c->size, &a->sources,
                                                  &a->indegree, &a->destinations,
                                                  &a->outdegree, err, errlen)
                            : cart_topology(c, a, err, errlen);
    t_lists = MPI_Wtime() - t_lists;
    /* every rank agrees before the collective creation (a file error may be
     * one rank's): the others return without a graph, and the runner's check
     * of every rank's setup ends the run with the failing rank's message */
    int any_bad = 0;
    eb_own_allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MIN, c->comm);
    if (any_bad)
        return bad;
    if (!a->sources)
        a->sources = eb_malloc(sizeof *a->sources);
    if (!a->destinations)
        a->destinations = eb_malloc(sizeof *a->destinations);
    double t = t_lists, sum = 0;
    if (eb_nhbr_emulated()) /* SMPI: no topology communicator; the calls go point to point */
        a->p2p = eb_nhbr_p2p_new(c->comm, a->indegree, a->sources, a->outdegree,
                                 a->destinations);
    else
        t = graph_comm(c, a);
    eb_own_reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, c->comm);
    a->create_us = sum * 1e6 / c->size;
    return 0;
}

void osu_nhbr_topo_print(const osu_ctx *c, const coll_state *a, FILE *f)
{
    if (!c->o->nhbr_graph) {
        fputs("Dimensions size = ", f);
        for (int k = 0; k < a->ndims; k++)
            fprintf(f, "%d ", a->dims[k]);
        fputc('\n', f);
    }
    fprintf(f, "Time took to create topology graph:%.*f us.\n", OSU_FLOAT_PRECISION,
            a->create_us);
}
