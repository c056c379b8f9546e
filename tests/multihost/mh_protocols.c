/* The ordering promises of the network path, whichever protocol carries an
 * operation (one message, an RMA write, a provider atomic):
 *   put_signal   the data is there when the signal is seen, for data that
 *                fits in one message, just does not, is copied, or is
 *                written from the caller's buffer; blocking and nbi, on the
 *                default context and on a context of its own (whose
 *                endpoint nobody waits on); signal adds from many PEs land
 *   fence        put then fence then flag: the put is there when the flag
 *                is (flag an AMO, and flag a put: one put or two before,
 *                so written both ways of ofi_flush.c); AMO then fence then
 *                put: the AMO is applied when the put is seen (a message
 *                may not be overtaken by a write; a put after it goes as
 *                a message where it fits one); put_signal then fence
 *                then put
 *   quiet        AMOs and put_signals then quiet: a get sees them all;
 *                puts then quiet then a flag sent through another
 *                context (its own endpoint and connection, so nothing
 *                orders the flag behind the puts but quiet): the target,
 *                and a third PE reading from it, see the puts with the flag
 * PE 0 and the first PE on another host talk both ways; for quiet every
 * PE uses its right neighbour; checks are against values computed here. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

enum { ROUNDS = 60, BIG = 16384, QUIET_ROUNDS = 800, HUGE = 1 << 20 };
/* up to BIG: one message, a copy, the caller's buffer; beyond: writes that
 * leave in many socket sends, with the signal message right behind them
 * where the provider orders sends after writes (net) */
static const size_t sizes[] = {8, 24, 32, 33, 64, 200, 4096, 8192, 8193, BIG, 65536, 262147, HUGE};
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

static uint64_t sig, sig_add;
static long counter, flag, fenced;
static char data[HUGE];

static char pattern(int from, long round, size_t i)
{
    return (char)(from * 31 + round * 7 + (long)i);
}

/* Round r: from puts a pattern of every size with put_signal (signal r,
 * SET) to to, which checks the data each time the signal moves. */
static void put_signal_order(shmem_ctx_t ctx, int me, int from, int to)
{
    static char src[HUGE];
    for (long r = 1; r <= ROUNDS; r++) {
        size_t n = sizes[r % NSIZES];
        if (me == from) {
            for (size_t i = 0; i < n; i++)
                src[i] = pattern(from, r, i);
            if (r % 3 == 0)   /* no quiet: the answer below proves the data arrived */
                shmem_ctx_putmem_signal_nbi(ctx, data, src, n, &sig, (uint64_t)r, SHMEM_SIGNAL_SET, to);
            else
                shmem_ctx_putmem_signal(ctx, data, src, n, &sig, (uint64_t)r, SHMEM_SIGNAL_SET, to);
        }
        if (me == to) {
            shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, (uint64_t)r);
            for (size_t i = 0; i < n; i++)
                CHECK(data[i] == pattern(from, r, i), "round %ld, %zu bytes: byte %zu is %d, want %d", r, n, i,
                      data[i], pattern(from, r, i));
            /* Tell from the buffer is free again: put_signal back. */
            shmem_putmem_signal(data, src, 0, &sig_add, 1, SHMEM_SIGNAL_ADD, from);
        }
        if (me == from)
            shmem_signal_wait_until(&sig_add, SHMEM_CMP_GE, (uint64_t)r);
    }
}

static void fence_order(int me, int from, int to)
{
    for (long r = 1; r <= ROUNDS; r++) {
        size_t n = sizes[r % NSIZES];
        if (me == from) {
            static char src[HUGE];
            memset(src, (int)r, n);
            shmem_putmem(data, src, n, to);
            shmem_fence();
            shmem_long_atomic_set(&flag, r, to);   /* put, fence, AMO */
        }
        if (me == to) {
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r);
            for (size_t i = 0; i < n; i++)
                CHECK(data[i] == (char)r, "round %ld, %zu bytes: byte %zu not there with the flag", r, n, i);
        }
        shmem_barrier_all();
        if (me == from) {   /* AMO, fence, put (data, then the flag after another fence) */
            static char src[HUGE];
            memset(src, (int)(r + 2), n);
            shmem_long_atomic_add(&counter, 2, to);
            shmem_fence();
            shmem_putmem(data, src, n, to);
            shmem_fence();
            shmem_long_p(&flag, -r, to);
        }
        if (me == to) {
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, -r);
            CHECK_EQ_LONG(counter, 2 * r);
            for (size_t i = 0; i < n; i++)
                CHECK(data[i] == (char)(r + 2), "round %ld, %zu bytes: byte %zu not there with the flag put after "
                      "AMO, fence, put, fence", r, n, i);
        }
        shmem_barrier_all();
        if (me == from) {   /* put (once or twice), fence, put */
            static char src[HUGE];
            memset(src, (int)(r + 1), n);
            shmem_putmem(data, src, n / 2, to);
            shmem_putmem(data + n / 2, src + n / 2, n - n / 2, to);
            shmem_fence();
            shmem_long_p(&flag, r + 1000, to);
        }
        if (me == to) {
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r + 1000);
            for (size_t i = 0; i < n; i++)
                CHECK(data[i] == (char)(r + 1), "round %ld, %zu bytes: byte %zu not there with the flag put after "
                      "fence", r, n, i);
        }
        shmem_barrier_all();
        if (me == from) {   /* put_signal, fence, put */
            long v = r;
            shmem_long_put_signal(&fenced, &v, 1, &sig, (uint64_t)r, SHMEM_SIGNAL_SET, to);
            shmem_fence();
            shmem_long_p(&flag, r + 2000, to);
        }
        if (me == to) {
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r + 2000);
            CHECK_EQ_LONG(fenced, r);
            CHECK_EQ_LONG((long)sig, r);
        }
        shmem_barrier_all();
    }
}

static void quiet_complete(int me, int n)
{
    int right = (me + 1) % n;
    long before = shmem_long_atomic_fetch(&counter, right);
    shmem_barrier_all();
    for (int i = 0; i < 50; i++)
        shmem_long_atomic_add(&counter, 1, right);
    long v = me + 1000;
    shmem_long_put_signal(&flag, &v, 1, &sig, 77, SHMEM_SIGNAL_SET, right);
    shmem_quiet();
    CHECK_EQ_LONG(shmem_long_g(&counter, right), before + 50);
    CHECK_EQ_LONG(shmem_long_g(&flag, right), me + 1000);
    uint64_t remote_sig;
    shmem_getmem(&remote_sig, &sig, sizeof remote_sig, right);
    CHECK_EQ_LONG(remote_sig, 77);
    shmem_barrier_all();
}

/* Round r: from puts r's pattern (sizes injected, copied and written from
 * the caller's buffer) to `to`, quiets, then raises `to`'s flag through a
 * context of its own.  `to` checks its data when the flag comes; a third PE
 * (when there is one) reads it back after `to` says so. */
static char huge[HUGE], seen[HUGE];
static long ack;

static void quiet_visible(int me, int n, int from, int to)
{
    static const size_t qsizes[] = {8, 200, BIG, HUGE};
    int third = n > 2 ? (to + 1) % n == from ? (to + 2) % n : (to + 1) % n : -1;
    shmem_ctx_t side;
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &side) == 0, "shmem_ctx_create failed");
    for (long r = 1; r <= QUIET_ROUNDS; r++) {
        size_t len = qsizes[r % 4];
        if (me == from) {
            static char src[HUGE];
            for (size_t i = 0; i < len; i++)
                src[i] = pattern(from, r, i);
            /* Two puts per quiet: Shoal then reads them back rather than
             * have each acknowledged (ofi_progress.c). */
            size_t half = len / 2;
            if (len == HUGE) {   /* still on their way when quiet starts */
                shmem_putmem_nbi(huge, src, half, to);
                shmem_putmem_nbi(huge + half, src + half, len - half, to);
            } else {
                shmem_putmem(huge, src, half, to);
                shmem_putmem(huge + half, src + half, len - half, to);
            }
            shmem_quiet();
            shmem_ctx_long_p(side, &flag, r, to);
            shmem_ctx_quiet(side);
            shmem_long_wait_until(&ack, SHMEM_CMP_EQ, r);   /* the next round's put may not overwrite this one */
        }
        if (me == to) {
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r);
            for (size_t i = 0; i < len; i++)
                CHECK(huge[i] == pattern(from, r, i), "round %ld, %zu bytes: byte %zu not there after quiet", r,
                      len, i);
            shmem_long_atomic_set(third >= 0 ? &counter : &ack, r, third >= 0 ? third : from);
        }
        if (me == third) {
            shmem_long_wait_until(&counter, SHMEM_CMP_EQ, r);
            shmem_getmem(seen, huge, len, to);
            for (size_t i = 0; i < len; i++)
                CHECK(seen[i] == pattern(from, r, i), "round %ld: PE %d read byte %zu of PE %d's put too early",
                      r, me, i, to);
            shmem_long_atomic_set(&ack, r, from);
        }
    }
    shmem_ctx_destroy(side);
    shmem_barrier_all();
}

/* Everyone adds to PE 0's signal with put_signal: every add lands once. */
static void signal_adds(int me, int n)
{
    shmem_barrier_all();
    sig_add = 0;
    shmem_barrier_all();
    long v = me;
    for (int i = 0; i < 20; i++)
        shmem_long_put_signal(&counter, &v, 1, &sig_add, (uint64_t)me + 1, SHMEM_SIGNAL_ADD, 0);
    if (me == 0)
        shmem_signal_wait_until(&sig_add, SHMEM_CMP_EQ, 20ULL * (uint64_t)n * (n + 1) / 2);
    shmem_barrier_all();
}

static long other;   /* on PE 0: the first PE on another host (n / 2 when none) */

int main(int argc, char **argv)
{
    /* "no-quiet-rounds": libfabric's sockets provider stops completing
     * operations to the target within a few hundred of those rounds, with
     * any Shoal (CMakeLists.txt) */
    bool quiet_rounds = !(argc > 1 && !strcmp(argv[1], "no-quiet-rounds"));
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (me == 0) {
        other = n / 2;
        for (int pe = n - 1; pe > 0; pe--)
            if (!shmem_ptr(&sig, pe))
                other = pe;
    }
    shmem_barrier_all();
    int far = (int)shmem_long_g(&other, 0);
    for (int pass = 0; pass < 2; pass++) {
        int from = pass == 0 ? 0 : far, to = pass == 0 ? far : 0;
        if (n == 1)
            break;
        sig = sig_add = 0;
        counter = flag = 0;
        shmem_barrier_all();
        put_signal_order(SHMEM_CTX_DEFAULT, me, from, to);
        shmem_barrier_all();
        sig = sig_add = 0;
        shmem_barrier_all();
        shmem_ctx_t ctx;
        CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create failed");
        put_signal_order(ctx, me, from, to);
        shmem_ctx_quiet(ctx);
        shmem_ctx_destroy(ctx);
        shmem_barrier_all();
        counter = flag = 0;
        shmem_barrier_all();
        fence_order(me, from, to);
    }
    shmem_barrier_all();
    counter = 0;
    shmem_barrier_all();
    quiet_complete(me, n);
    if (n > 1 && quiet_rounds) {
        flag = counter = ack = 0;
        shmem_barrier_all();
        quiet_visible(me, n, 0, far);
        flag = counter = ack = 0;
        shmem_barrier_all();
        quiet_visible(me, n, far, 0);
    }
    signal_adds(me, n);
    if (me == 0)
        printf("mh_protocols: %d PEs: put_signal, fence and quiet ordering kept\n", n);
    shmem_finalize();
    return 0;
}
