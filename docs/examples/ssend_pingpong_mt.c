/* SsendPingPongMT: IMB-MT's PingPongMT with synchronous sends (MPI_Ssend),
 * the IMB-MT worked example of docs/extending.md.  Every thread runs it on a
 * communicator of its own, with a partner -stride ranks away. */
#include "core/registry.h"
#include "imbmt/imbmt.h"

/* `repeat` round trips of th->count elements; 0 when this rank has no
 * partner at this stride (the driver leaves it out of the row). */
static int ssend_pingpong_mt(mt_thread *th, int repeat, int skip)
{
    int first, peer = mt_partner(th, &first);
    (void)skip; /* the collectives' untimed iterations */
    if (peer < 0)
        return 0;
    MPI_Datatype t = th->run->o->datatype;
    mt_fill(th, th->in, th->rank + 1, 0); /* -check: IMB-MT's pattern, else nothing */
    mt_fill(th, th->out, 0, -1);
    for (int i = 0; i < repeat; i++) {
        if (first)
            MPI_Ssend(th->in, th->count, t, peer, 0, th->comm);
        MPI_Recv(th->out, th->count, t, peer, 0, th->comm, MPI_STATUS_IGNORE);
        if (!first)
            MPI_Ssend(th->in, th->count, t, peer, 0, th->comm);
    }
    mt_check(th, th->out, peer + 1); /* the partner's pattern */
    return 1;
}

static const mt_bench ssend_pingpong_mt_bench = {
    .name = "SsendPingPongMT",
    .flags = MT_OUT_MINMAX | MT_OUT_BW | MT_DIV_2, /* PingPongMT's columns, half a round trip */
    .kernel = ssend_pingpong_mt,
};

EB_CONSTRUCTOR(register_ssend_pingpong_mt) { mt_register_bench(&ssend_pingpong_mt_bench); }
