/* What OSU's point-to-point programs share: the message of the current size
 * (its MPI type and count: the -T type, or the -D derived type built from it
 * as OSU does, one element of it per message, and the bytes it carries,
 * "Transmit Size"), the buffers (one pair, or with -b multiple one per
 * message of a window, allocated per size as OSU does), the requests, and
 * the checked pass's fill and verification of what the type covers. */
#ifndef EB_OSU_P2P_H
#define EB_OSU_P2P_H

#include "osu/osu.h"

typedef struct {
    int nbuf;            /* buffers per direction: 1, or the window (-b multiple) */
    char **s, **r;       /* [nbuf] send and receive buffers */
    eb_mem_kind mem;     /* where they are (-d and this rank's buffer letter) */
    char **hs, **hr;     /* --stage-through-host: [nbuf] host buffers MPI moves; else NULL */
    size_t buf_bytes;    /* bytes allocated for each buffer */
    MPI_Request *req;    /* [nreq] requests of a window (or two) */
    int nreq;
    MPI_Datatype type;   /* the message's type for the current size */
    int count;           /* elements of `type` per message */
    size_t transmit;     /* bytes a message carries (OSU: the size, or -D's Transmit Size) */
    size_t span;         /* bytes of a buffer the message touches (fill and poison) */
    int derived;         /* `type` is ours to free */
    int npersistent;     /* persistent requests in req[0..npersistent) (freed by teardown) */
    int nblocks;         /* -D indx:FILE: the file's blocks (in elements) */
    int *blocklens, *displs;
    void *program;       /* the program's own state, if any */
} osu_p2p;

/* The descriptor fields OSU's programs between exactly two processes share:
 * the point-to-point type and a "# Datatype" line before the table. */
#define OSU_P2P_PAIR .bench = OSU_PT2PT, .exact_procs = 2, .datatype_lines = 1

/* Once on every rank: buffers for sizes up to max_size, `windows` messages
 * in flight at most (the requests: 2 * windows; with -b multiple as many
 * buffers), the -D indx file read.  0, or -1 with a user error in err. */
int osu_p2p_setup(osu_ctx *c, int windows, char *err, size_t errlen);
void osu_p2p_teardown(osu_ctx *c);

/* The current size (c->bytes, c->dtype): the message's type and count, the
 * -b multiple buffers, row->transmit_size.  Called at the top of measure. */
void osu_p2p_size(osu_ctx *c, osu_row *row);

static inline osu_p2p *osu_p2p_of(const osu_ctx *c) { return (osu_p2p *)c->priv; }
/* Buffer j of a window (buffer 0 without -b multiple). */
static inline char *osu_p2p_s(const osu_p2p *m, int j) { return m->s[j % m->nbuf]; }
static inline char *osu_p2p_r(const osu_p2p *m, int j) { return m->r[j % m->nbuf]; }

/* The buffers MPI gets in the timed loop (osu_latency, osu_bw, osu_bibw): send buffer j,
 * and receive buffer j, and after the receive osu_p2p_landed.  --stage-through-host: the
 * host buffers, send buffer j copied device to host first, received data copied host to
 * device by osu_p2p_landed; otherwise the buffers themselves, and landed does nothing.
 * The acknowledgement of a window carries no data: from and into buffer 0 MPI gets,
 * never copied. */
char *osu_p2p_out(const osu_p2p *m, int j);
static inline char *osu_p2p_in(const osu_p2p *m, int j)
{
    return m->hr ? m->hr[j % m->nbuf] : osu_p2p_r(m, j);
}
void osu_p2p_landed(const osu_p2p *m, int j);
static inline char *osu_p2p_ack_s(const osu_p2p *m) { return m->hs ? m->hs[0] : m->s[0]; }
static inline char *osu_p2p_ack_r(const osu_p2p *m) { return m->hr ? m->hr[0] : m->r[0]; }

/* The checked pass, iteration i of messages in windows of `window`: this
 * rank's send buffers get its pattern (buffer j that of i * nbuf + j), its
 * receive buffers the poison. */
void osu_p2p_prepare(osu_ctx *c, int window, long i);
/* Defects in this rank's receive buffers after iteration i, sent by rank
 * `sender` (prepared as above): every byte the message's type covers. */
long osu_p2p_verify(osu_ctx *c, int window, int sender, long i);

/* OSU's timed loop after a barrier: c->skip untimed, then c->iterations
 * timed calls of op (which returns the seconds of its timed part); returns
 * their sum.  -z: each timed call into c->lat, with `bw` as MB/s of `mb`
 * megabytes, else as half the time in us (a round trip's one-way latency). */
double osu_p2p_loop(osu_ctx *c, double (*op)(osu_ctx *c), int bw, double mb);

/* Two-process rows on rank 0 (after osu_p2p_size): the average one-way
 * latency of round trips op, or the MB/s of op moving `directions` windows
 * (-W) of the message per call; -z percentiles of rank 0's calls. */
void osu_p2p_latency_row(osu_ctx *c, osu_row *row, double (*op)(osu_ctx *c));
void osu_p2p_bandwidth_row(osu_ctx *c, osu_row *row, double (*op)(osu_ctx *c), int directions);
#define OSU_P2P_TAG_DATA 1
/* One blocking round trip of the current size from rank 0 (osu_latency's,
 * and osu_latency_mp's after its barrier); its time in seconds. */
double osu_p2p_round_trip(osu_ctx *c);
/* The checked pass of a windowed program: each iteration's pattern into the
 * windows, op, then the receiving side verifies every message (rank 1 the
 * pattern of rank 0 when directions is 1, each rank the other's when 2). */
long osu_p2p_windows_checked(osu_ctx *c, double (*op)(osu_ctx *c), int directions);

#endif
