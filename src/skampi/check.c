#include "skampi/check.h"

#include <string.h>

int sk_check_applies(int type)
{
    return !(type == 19 || type == 23 || (type >= 24 && type <= 28));
}

unsigned char sk_check_byte(int src, long msg, long k)
{
    /* hashed (splitmix64's finaliser), so no shift of a block, other
     * message or other sender reproduces it */
    unsigned long long h = (unsigned long long)k ^ ((unsigned long long)src << 40) ^
                           ((unsigned long long)msg << 52);
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    h ^= h >> 31;
    unsigned char v = (unsigned char)(1 + h % 251);
    return v == SK_CHECK_GUARD || v == SK_CHECK_GAP ? (unsigned char)(v + 1) : v;
}

void sk_check_put(unsigned char *img, long len, long at, const sk_block *bl, long n, int src,
                  long msg)
{
    long k = 0;
    for (long i = 0; i < n; i++)
        for (long x = 0; x < bl[i].len; x++, k++) {
            long o = at + bl[i].off + x;
            if (o < len)
                img[o] = sk_check_byte(src, msg, k);
        }
}

static int is_reduction(int t)
{
    return t == 20 || t == 22 || (t >= 36 && t <= 38) || t == 44;
}

/* Reductions: element i of rank r's send buffer, and sums over ranks. */
static long rvalue(int r, long i) { return 1 + (r + 2 * i) % 7; }

static long rsum(int upto, long i)
{
    long v = 0;
    for (int r = 0; r < upto; r++)
        v += rvalue(r, i);
    return v;
}

static void store(const sk_check_case *k, unsigned char *img, long len, long i, long v)
{
    long o = i * k->base->size;
    if (o + k->base->size <= len)
        sk_base_store(k->base, img + o, v);
}

void sk_check_before(const sk_check_case *k, unsigned char *s, long ls, unsigned char *r, long lr)
{
    int t = k->type, me = k->rank, P = k->size;
    memset(s, SK_CHECK_GAP, (size_t)ls);
    memset(r, SK_CHECK_GUARD, (size_t)lr);
    if (is_reduction(t)) {
        long n = k->count * (t == 38 || t == 44 ? P : 1);
        for (long i = 0; i < n; i++)
            store(k, s, ls, i, rvalue(me, i));
        return;
    }
    switch (t) {
    case 34: /* one buffer, sent and received in place */
        sk_check_put(r, lr, 0, k->rbl, k->nrb, me, 0);
        break;
    case 18: /* Bcast: the others receive into this buffer */
        if (me == 0)
            sk_check_put(s, ls, 0, k->sbl, k->nsb, 0, 0);
        else
            memset(s, SK_CHECK_GUARD, (size_t)ls);
        break;
    case 21:
    case 43: /* block j goes to rank j */
        for (int j = 0; j < P; j++)
            sk_check_put(s, ls, j * k->sspan, k->sbl, k->nsb, me, j);
        break;
    case 35:
    case 40:
        if (me == 0)
            for (int j = 0; j < P; j++)
                sk_check_put(s, ls, j * k->sspan, k->sbl, k->nsb, 0, j);
        break;
    default: /* one message of this rank's */
        sk_check_put(s, ls, 0, k->sbl, k->nsb, me, 0);
        break;
    }
}

static void deliver_reduction(const sk_check_case *k, unsigned char *s, long ls, unsigned char *r,
                              long lr)
{
    int t = k->type, me = k->rank, P = k->size;
    long n = k->count;
    for (long i = 0; i < n; i++) {
        switch (t) {
        case 20:
            if (me == 0)
                store(k, r, lr, i, rsum(P, i));
            break;
        case 22: store(k, r, lr, i, rsum(me + 1, i)); break;
        case 36:
        case 37: store(k, r, lr, i, rsum(P, i)); break;
        case 38: store(k, r, lr, i, rsum(P, me * n + i)); break;
        case 44: /* the P blocks reduced at the root, block i scattered back to i */
            store(k, s, ls, i, rsum(P, me * n + i));
            break;
        }
    }
    if (t == 44 && me == 0)
        for (long i = 0; i < n * P; i++)
            store(k, r, lr, i, rsum(P, i));
}

void sk_check_deliver(const sk_check_case *k, int last, unsigned char *s, long ls,
                      unsigned char *r, long lr)
{
    int t = k->type, me = k->rank, P = k->size;
    const sk_block *R = k->rbl;
    long nr = k->nrb;
    if (is_reduction(t)) {
        deliver_reduction(k, s, ls, r, lr);
        return;
    }
    if (t >= 10 && t <= 16) { /* master-worker: workers 1..K get a chunk */
        int W = P - 1;
        long K = k->chunks < W ? k->chunks : W;
        if (me > 0 && me <= K)
            sk_check_put(r, lr, 0, R, nr, 0, 0);
        if (me == 0 && (t == 10 || t == 11))
            for (int w = 1; w <= K; w++)
                sk_check_put(r, lr, (w - 1) * k->rspan, R, nr, w, 0);
        else if (me == 0)
            sk_check_put(r, lr, 0, R, nr, last, 0);
        return;
    }
    switch (t) {
    case 17: sk_check_put(r, lr, 0, R, nr, (me - 1 + P) % P, 0); break;
    case 18:
        if (me != 0)
            sk_check_put(s, ls, 0, R, nr, 0, 0);
        break;
    case 21:
    case 43:
        for (int i = 0; i < P; i++)
            sk_check_put(r, lr, i * k->rspan, R, nr, i, me);
        break;
    case 32: sk_check_put(r, lr, 0, R, nr, me, 0); break;
    case 33:
    case 41:
    case 45:
    case 46:
        if (me == 0)
            for (int i = 0; i < P; i++)
                sk_check_put(r, lr, i * k->rspan, R, nr, i, 0);
        break;
    case 35:
    case 40: sk_check_put(r, lr, 0, R, nr, 0, me); break;
    case 39:
    case 42:
        for (int i = 0; i < P; i++)
            sk_check_put(r, lr, i * k->rspan, R, nr, i, 0);
        break;
    default: /* ping-pong: the partner's message */
        sk_check_put(r, lr, 0, R, nr, 1 - me, 0);
        break;
    }
}

int sk_check_last_worker(int type, long chunks, int workers)
{
    if (type < 13 || type > 16 || workers < 1 || chunks < 1)
        return 0;
    /* rounds of one chunk per worker; the last round's last worker */
    return (int)((chunks - 1) % workers) + 1;
}

long sk_check_diff(const unsigned char *a, const unsigned char *b, long len)
{
    long bad = 0;
    for (long i = 0; i < len; i++)
        bad += a[i] != b[i];
    return bad;
}
