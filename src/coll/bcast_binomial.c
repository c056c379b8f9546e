/* Binomial-tree broadcast.  Arrivals are gathered up the tree (a subtree
 * reports once all of it has arrived), then the data goes down it, largest
 * subtree first: 2 ceil(log2 P) latencies, and no PE sends more than
 * log2 P copies.  Gathering the arrivals first is what lets a member leave
 * only once every member has entered (see coll_internal.h). */
#include "coll_internal.h"

enum { F_ARRIVE = 0, F_DATA = 1 };

/* Over the network a large payload goes down the tree in pieces, each on
 * its own flag (signals need not arrive in order), so a member forwards
 * the first piece while later ones still arrive: depth + pieces - 1 piece
 * times instead of depth whole ones.  The pieces go out without waiting
 * (cc_put_signal_nbi), their sources kept until the sends complete at the
 * end.  Pieces of 256 KiB: 8 hosts x 2 PEs on 2 cores, active-set
 * broadcast of 1 MiB, 2-3 runs each, medians: whole 8.8-12.1 ms, 256 KiB
 * pieces 6.0-6.4 (each piece's put waiting for its delivery: 6.4-7.1),
 * 128 KiB 7.0-7.2, 64 KiB (waiting) 13.7-14.8, 512 KiB 7.2-7.6; Open MPI
 * 6.3-6.4.  On shared memory the members copy from the root instead
 * (bcast_pull.c), and two members forward nothing. */
enum { PIECE_MIN = 256 * 1024, PIECES_MAX = 16 };
_Static_assert(F_DATA + PIECES_MAX <= COLL_NFLAGS - 2, "the pieces' flags stay clear of the last two"
                                                      " (active_hier.c's host phase)");

size_t bcast_binomial_pieces(bool shm, int P, size_t n)
{
    if (shm || P <= 2 || n < 2 * (size_t)PIECE_MIN)
        return 1;
    size_t pieces = n / PIECE_MIN;
    return pieces < PIECES_MAX ? pieces : PIECES_MAX;
}

/* Piece k of pieces over n bytes: [*off, *off + return). */
static size_t piece_at(size_t n, size_t pieces, size_t k, size_t *off)
{
    size_t each = (n + pieces - 1) / pieces;
    *off = k * each;
    return n - *off < each ? n - *off : each;
}

void bcast_binomial(const struct coll_call *c, void *dest, const void *src, size_t n, int root, bool root_dest)
{
    int P = c->n, r = (c->me - root + P) % P;   /* rank relative to the root */
    int low = 1;                                /* children are r + d for d >= low */
    while (low <= r)
        low <<= 1;
    int kids = 0;
    for (int d = low; r + d < P; d <<= 1)
        kids++;
    if (!c->dest_ready)
        cc_await(c, F_ARRIVE, kids);
    if (r > 0 && !c->dest_ready)
        cc_signal(c, (r - (low >> 1) + root) % P, F_ARRIVE);
    const char *from = r == 0 ? src : dest;
    int top = low;
    while (r + top * 2 < P)
        top <<= 1;
    size_t pieces = bcast_binomial_pieces(c->shm, P, n);
    for (size_t k = 0, off; k < pieces; k++) {
        size_t len = piece_at(n, pieces, k, &off);
        if (r > 0)
            cc_await(c, F_DATA + (int)k, 1);
        for (int d = top; d >= low; d >>= 1)
            if (r + d < P)
                (pieces > 1 ? cc_put_signal_nbi : cc_put_signal)(c, (r + d + root) % P, (char *)dest + off,
                                                                 from + off, len, F_DATA + (int)k);
    }
    if (pieces > 1)
        shoal_complete(COLL_CTX);
    if (r == 0 && root_dest && dest != src)   /* after the sends: the subtrees' copies are awaited */
        memcpy(dest, src, n);
}
