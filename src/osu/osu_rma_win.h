/* OSU's one-sided programs: the state they share (osu_rma.h tells the
 * family's files apart) and the windows, their refusal and the text
 * (osu_rma_win.c), at the bottom of the family: the other files call down
 * to it, it calls none of them. */
#ifndef EB_OSU_RMA_WIN_H
#define EB_OSU_RMA_WIN_H

#include "osu/osu.h"

/* How a program's iteration uses the synchronisation (OSU's three loop shapes). */
typedef enum {
    RMA_LATENCY, /* one call; fence / pscw: rank 1 answers, time / 2 */
    RMA_UNI,     /* -W calls from rank 0; rank 1 only synchronises */
    RMA_BI,      /* -W calls from both ranks (fence, pscw only) */
} rma_shape;

typedef struct osu_rma osu_rma;

/* The program's RMA call: the k-th of an iteration, toward `target`, at
 * window offset disp + k * bytes. */
typedef void (*rma_call)(const osu_ctx *c, osu_rma *r, int target, size_t k);

/* OSU's first bytes of a row's buffers: the origin's, the window's memory
 * where OSU makes it itself (-w create, dynamic; MPI_Win_allocate's memory is
 * left as the library hands it over, as OSU leaves it), the result's and the
 * compare value's. */
typedef struct {
    char origin, window, result, compare;
} rma_fill;

/* What a program is, beyond its descriptor (its descriptor's .priv-less
 * static data: the family keeps it next to the descriptor). */
typedef struct {
    rma_call call;
    rma_shape shape;
    int lock_exclusive;  /* -s lock: MPI_LOCK_EXCLUSIVE (fop, cas, get_acc) */
    int flush_exclusive; /* -s flush / flush_local: the lock around the loop is exclusive (get_acc) */
    int passive_barrier; /* a barrier before the passive loops (fop, cas) */
    int window_per_max;  /* the window is max_size bytes, made once per row (fop, cas) */
    int atomic_summary;  /* -c prints OSU's "Atomic Data Validation results" (acc, fop, cas) */
    int no_datatype_line;/* get_acc: its header has no "# Datatype" line */
    int result_buf;      /* a result buffer (get_acc, fop, cas) */
    int compare_buf;     /* a compare buffer (cas) */
    rma_fill fill;
} rma_kind;

/* Per-rank tally of the checked passes, for OSU's atomic summary (longs
 * only: rank 0 gathers it as MPI_LONG). */
typedef struct {
    long trials[OSU_MAX_DTYPES], failures[OSU_MAX_DTYPES];
    long first[OSU_MAX_DTYPES], last[OSU_MAX_DTYPES];
    long checked[OSU_MAX_DTYPES]; /* this rank verified data of that datatype */
} rma_tally;

struct osu_rma {
    const rma_kind *kind;
    eb_mem_kind mem; /* where this rank's buffers are (-d: its buffer letter) */
    MPI_Win win;
    int win_open;
    /* the current row's buffers, each of the window's size (OSU's
     * allocate_memory_one_sided / allocate_atomic_memory, made per row and
     * freed after it as OSU's) */
    char *origin;   /* the origin's buffer (OSU's sbuf / rbuf) */
    char *result;   /* get_accumulate / fetch_and_op / compare_and_swap results, or NULL */
    char *compare;  /* compare_and_swap's compare value, or NULL */
    char *memory;   /* -w create / dynamic: the window's memory; NULL under allocate */
    char *base;     /* this rank's window memory of the current row */
    size_t win_bytes;
    MPI_Aint disp;  /* the target's displacement: its address under -w dynamic, else 0 */
    MPI_Group peer; /* the other rank, for post / start */
    int dtype_index;/* the current -T datatype (0..) */
    rma_tally tally;
};

/* osu_rma_win.c ------------------------------------------------------- */

/* setup for every one-sided program: the -w/-s checks (a flavour the
 * library cannot create is refused), the peer group. */
int osu_rma_setup(osu_ctx *c, const rma_kind *kind, char *err, size_t n);
void osu_rma_teardown(osu_ctx *c);
/* "flush_local": the -s name of a synchronisation. */
const char *osu_rma_sync_name(osu_sync s);
/* The current row's buffers and window (the previous row's freed): `bytes`
 * of window memory in the -w flavour, as OSU makes them per message size. */
void osu_rma_open(osu_ctx *c, size_t bytes);
/* OSU's header of a table, rows, and nothing before the first table (its
 * title belongs to each table). */
void osu_rma_preamble(const osu_ctx *c, FILE *f);
void osu_rma_header(const osu_ctx *c, FILE *f);
void osu_rma_row(const osu_ctx *c, const osu_row *row, FILE *f);

#endif
