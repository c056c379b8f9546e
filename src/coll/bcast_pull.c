/* Broadcast of large payloads on a team that shares memory: every member
 * copies the root's source straight into its own dest, all at once.  The
 * root would otherwise copy the payload P-1 times (linear) or the members
 * would forward it log2 P times (binomial): here each byte is copied once
 * per dest and the copies run on every core in parallel.  With two members
 * and an active-set root (whose dest stays untouched) the root has nothing
 * of its own to copy, so it writes the second half of the other member's
 * dest while that member reads the first.
 *
 * A member leaves once its copy is done, so to keep the rule of
 * coll_internal.h (no member leaves before every member has entered) the
 * root hands out its source only when every member has arrived, or when a
 * barrier on the team since its previous call proves they all left it.
 *
 * The root tells each member where its source lies (segment and offset, in
 * the value of one signal), so members never derive it from their own
 * source argument, which the spec leaves unread off the root; a root source
 * outside the symmetric segments (not allowed, but harmless so far) is sent
 * by the linear form instead.  The root returns only after every member has
 * finished reading its source, since the caller may overwrite it then. */
#include "coll_internal.h"

enum { F_ARRIVE = 0, F_DATA = 1 /* both bcast_linear's */, F_WHERE = 2, F_DONE = 3, F_HALF = 4 };
enum { PUSHED = 1 };   /* a F_WHERE value: no symmetric source, the root sends the data */

static uint64_t where_of(const void *src)
{
    size_t off;
    int seg = shoal_seg_of(src, &off);
    return seg < 0 ? PUSHED : ((uint64_t)seg << 56 | off) + 2;
}

static const char *root_source(const struct coll_call *c, uint64_t where, int root)
{
    where -= 2;
    return shoal.peers[cc_pe(c, root)].base[where >> 56] + (where & ((UINT64_C(1) << 56) - 1));
}

/* The root writes into the other member's dest. */
static bool split(const struct coll_call *c, bool root_dest)
{
    return !root_dest && c->n == 2;
}

/* Members tell the root they have arrived (see the top). */
static bool arrivals(const struct coll_call *c, bool root_dest)
{
    return !c->dest_ready && (!c->synced || split(c, root_dest));
}

static void run_root(const struct coll_call *c, void *dest, const void *src, size_t n, int root,
                     bool root_dest)
{
    if (arrivals(c, root_dest))
        cc_await(c, F_ARRIVE, (uint64_t)(c->n - 1));
    uint64_t where = where_of(src);
    for (int i = 0; i < c->n; i++)
        if (i != root)
            cc_signal_value(c, i, F_WHERE, where);
    if (where == PUSHED) {
        bcast_linear(c, dest, src, n, root, root_dest);
        return;
    }
    if (root_dest && dest != src)
        memcpy(dest, src, n);
    if (split(c, root_dest)) {   /* nothing of its own to copy: half of the other's */
        size_t half = n / 2;
        cc_put_signal(c, 1 - root, (char *)dest + half, (const char *)src + half, n - half, F_HALF);
    }
    cc_await(c, F_DONE, (uint64_t)(c->n - 1));
}

void bcast_pull(const struct coll_call *c, void *dest, const void *src, size_t n, int root, bool root_dest)
{
    if (c->me == root) {
        run_root(c, dest, src, n, root, root_dest);
        return;
    }
    if (arrivals(c, root_dest))
        cc_signal(c, root, F_ARRIVE);
    uint64_t where = cc_await_value(c, F_WHERE);
    if (where == PUSHED) {   /* bcast_linear's member side */
        if (!c->dest_ready)
            cc_signal(c, root, F_ARRIVE);
        cc_await(c, F_DATA, 1);
        return;
    }
    bool halves = split(c, root_dest);
    memcpy(dest, root_source(c, where, root), halves ? n / 2 : n);
    cc_signal(c, root, F_DONE);
    if (halves)
        cc_await(c, F_HALF, 1);
}
