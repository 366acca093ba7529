/* osu_latency_mp: OSU's multi-process latency test, a check of the MPI
 * library's fork safety.  Rank 0 (the sender) and rank 1 (the receiver) fork
 * child processes after MPI_Init (-t [S:]R: S children on the sender, R on
 * the receiver; -t R alone: none on the sender; default 2:2), then ping-pong
 * as osu_latency does, with a barrier before every iteration.  The children
 * never call MPI.
 *
 * OSU 7.4's children sleep 2 seconds and return from main (running the
 * parent's exit handlers, MPI's among them); its receiver forks
 * options.num_threads children, which is 0 in this program, whatever -t
 * says.  effbench forks the counts it prints on both sides, and its children
 * live until the measurement ends (so the pages they share with the parent
 * stay copy-on-write through every timed message, OSU's point), then leave
 * with _exit, running nothing of the parent's. */
#include "osu/osu.h"
#include "osu/osu_p2p.h"
#include "osu/osu_text.h"

#include "core/error.h"
#include "core/registry.h"
#include "core/smpi_build.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>


typedef struct {
    pid_t *child;
    int nchild;
    int hold;       /* write end of the pipe the children wait on (-1: none) */
} mp_state;

static int forks_on(const osu_ctx *c, int rank)
{
    const osu_options *o = c->o;
    return rank == 0 ? (o->senders < 0 ? 0 : o->senders) : o->receivers;
}

/* The child: wait for the parent to close the pipe (or die), then leave. */
static _Noreturn void idle_child(int rd, int wr)
{
    char b;
    close(wr);
    while (read(rd, &b, 1) < 0 && errno == EINTR)
        continue;
    _exit(0);
}

static int fork_children(osu_ctx *c, mp_state *s, char *err, size_t n)
{
    int want = forks_on(c, c->rank), fd[2];
    s->hold = -1;
    if (!want)
        return 0;
    if (pipe(fd))
        return eb_err(err, n, "osu_latency_mp: pipe: %s", strerror(errno));
    fflush(NULL); /* nothing buffered may be written twice */
    s->child = eb_calloc((size_t)want, sizeof *s->child);
    for (; s->nchild < want; s->nchild++) {
        pid_t pid = fork();
        if (pid < 0)
            return eb_err(err, n, "osu_latency_mp: fork of child %d on rank %d: %s",
                          s->nchild + 1, c->rank, strerror(errno));
        if (pid == 0)
            idle_child(fd[0], fd[1]);
        s->child[s->nchild] = pid;
    }
    close(fd[0]);
    s->hold = fd[1];
    return 0;
}

static void reap_children(mp_state *s)
{
    if (s->hold >= 0)
        close(s->hold); /* the children's read returns: they exit */
    for (int k = 0; k < s->nchild; k++)
        while (waitpid(s->child[k], NULL, 0) < 0 && errno == EINTR)
            continue;
    free(s->child);
    free(s);
}

static int mp_setup(osu_ctx *c, char *err, size_t n)
{
    if (EB_SMPI_BUILD)
        return eb_err(err, n, "osu_latency_mp forks processes: not in a simulation (SMPI "
                      "ranks share one process)");
    if (osu_p2p_setup(c, 1, err, n))
        return -1;
    mp_state *s = eb_calloc(1, sizeof *s);
    osu_p2p_of(c)->program = s;
    return fork_children(c, s, err, n);
}

static void mp_teardown(osu_ctx *c)
{
    reap_children(osu_p2p_of(c)->program);
    osu_p2p_teardown(c);
}

/* A barrier (untimed), then one round trip timed on rank 0. */
static double mp_round_trip(osu_ctx *c)
{
    MPI_Barrier(c->comm);
    return osu_p2p_round_trip(c);
}

static void mp_measure(osu_ctx *c, osu_row *row)
{
    osu_p2p_size(c, row);
    osu_row_name(row, "sender_processes", forks_on(c, 0));
    osu_row_name(row, "receiver_processes", forks_on(c, 1));
    osu_p2p_latency_row(c, row, mp_round_trip);
}

static long mp_check(osu_ctx *c)
{
    long defects = 0;
    for (long i = 0; i < c->iterations; i++) {
        osu_p2p_prepare(c, 1, i);
        mp_round_trip(c);
        defects += osu_p2p_verify(c, 1, 1 - c->rank, i);
    }
    return defects;
}

static void mp_preamble(const osu_ctx *c, FILE *f)
{
    fprintf(f, "# Number of forked processes in sender: %d\n", forks_on(c, 0));
    fprintf(f, "# Number of forked processes in receiver: %d\n", forks_on(c, 1));
    fputc('\n', f);
    osu_text_title(c->prog, f);
}

/* OSU's row: the latency 10 wide without -c (20 with it). */
static void mp_row(const osu_ctx *c, const osu_row *row, FILE *f)
{
    const osu_options *o = c->o;
    fprintf(f, "%-*zu%*.*f", 10, row->bytes, o->validate ? OSU_FIELD_WIDTH : 10,
            OSU_FLOAT_PRECISION, row->avg_us);
    if (o->validate)
        osu_text_validation(row, f);
    osu_text_percentile_values(o, row, f);
    if (o->ddt)
        fprintf(f, "%*zu", OSU_FIELD_WIDTH, row->transmit_size);
    fputc('\n', f);
}

static const osu_prog osu_latency_mp = {
    .name = "osu_latency_mp",
    .title = "OSU MPI%s Multi-process Latency Test",
    OSU_P2P_PAIR,
    .row = OSU_ROW_LATENCY,
    .optstring = OSU_OPTS_PT2PT_LAT_MP,
    .loops = {10000, 100, 1000, 10},
    .default_min_size = 0,
    .setup = mp_setup,
    .measure = mp_measure,
    .check = mp_check,
    .teardown = mp_teardown,
    .preamble = mp_preamble,
    .row_text = mp_row,
};

EB_CONSTRUCTOR(register_osu_latency_mp)
{
    osu_register(&osu_latency_mp);
}
