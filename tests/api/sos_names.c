/* Sandia OpenSHMEM's shmemx_ names of routines 1.6 standardised, as SOS
 * programs call them: block-strided put/get (typed, sized, ctx and the C11
 * generic with and without a context), signal add/set, sum scans, and the
 * SHMEMX_MALLOC_NO_BARRIER hint.  Results are checked against values
 * computed here. */
#include <shmemx.h>

#include "api_test.h"

#define BSIZE 3
#define NBLOCKS 4
#define DST 5   /* dest stride */
#define SST 4   /* source stride */
#define SPAN (DST * NBLOCKS)

/* Element i of a block-strided destination: the source element that lands
 * there (value from), or -1 where no block writes. */
static long expected(int from, size_t i)
{
    return i % DST < BSIZE ? 1000L * from + (long)(i / DST * SST + i % DST) : -1;
}

static long lsrc[SPAN], ldst[SPAN];
static int isrc[SPAN], idst[SPAN];
static uint32_t s32[SPAN], d32[SPAN];
static uint64_t s64[SPAN], d64[SPAN];

static void fill(int pe)
{
    for (size_t i = 0; i < SPAN; i++) {
        lsrc[i] = 1000L * pe + (long)i, ldst[i] = -1;
        isrc[i] = (int)lsrc[i], idst[i] = -1;
        s32[i] = (uint32_t)lsrc[i], d32[i] = (uint32_t)-1;
        s64[i] = (uint64_t)lsrc[i], d64[i] = (uint64_t)-1;
    }
}

static void check_all(int from, const char *what)
{
    for (size_t i = 0; i < SPAN; i++) {
        long want = expected(from, i);
        CHECK(ldst[i] == want && idst[i] == (int)want && d32[i] == (uint32_t)want && d64[i] == (uint64_t)want,
              "%s element %zu: %ld %d %u %lu, want %ld", what, i, ldst[i], idst[i], (unsigned)d32[i],
              (unsigned long)d64[i], want);
    }
}

static void block_strided(void)
{
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "ctx_create");
    fill(me);
    shmem_barrier_all();
    shmemx_long_ibput(ldst, lsrc, DST, SST, BSIZE, NBLOCKS, next_pe);
    shmemx_ibput(ctx, idst, isrc, DST, SST, BSIZE, NBLOCKS, next_pe);   /* generic, context */
    shmemx_ibput32(d32, s32, DST, SST, BSIZE, NBLOCKS, next_pe);
    shmemx_ctx_ibput64(ctx, d64, s64, DST, SST, BSIZE, NBLOCKS, next_pe);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    check_all(prev_pe, "ibput");

    fill(me);
    shmem_barrier_all();
    shmemx_ibget(ldst, lsrc, DST, SST, BSIZE, NBLOCKS, next_pe);        /* generic */
    shmemx_ctx_int_ibget(ctx, idst, isrc, DST, SST, BSIZE, NBLOCKS, next_pe);
    shmemx_ibget32(d32, s32, DST, SST, BSIZE, NBLOCKS, next_pe);
    shmemx_ctx_ibget64(ctx, d64, s64, DST, SST, BSIZE, NBLOCKS, next_pe);
    check_all(next_pe, "ibget");
    shmem_barrier_all();
    shmem_ctx_destroy(ctx);
}

static uint64_t sig[2];

static void signals(void)
{
    shmem_barrier_all();
    shmemx_signal_add(&sig[0], 2, next_pe);
    shmemx_signal_add(SHMEM_CTX_DEFAULT, &sig[0], 5, next_pe);   /* generic, context */
    shmemx_ctx_signal_set(SHMEM_CTX_DEFAULT, &sig[1], 40, next_pe);
    CHECK(shmem_signal_wait_until(&sig[0], SHMEM_CMP_EQ, 7) == 7, "signal_add");
    CHECK(shmem_signal_wait_until(&sig[1], SHMEM_CMP_EQ, 40) == 40, "ctx signal_set");
    shmem_barrier_all();
    shmemx_signal_set(&sig[1], 41, next_pe);
    CHECK(shmem_signal_wait_until(&sig[1], SHMEM_CMP_EQ, 41) == 41, "signal_set");
}

static long vin[4], vout[4];
static double din[4], dout[4];

static void scans(void)
{
    for (int i = 0; i < 4; i++)
        vin[i] = me * 10L + i, din[i] = me + 0.5 * i;
    for (int inc = 0; inc < 2; inc++) {
        int rc = inc ? shmemx_long_sum_inscan(SHMEM_TEAM_WORLD, vout, vin, 4)
                     : shmemx_sum_exscan(SHMEM_TEAM_WORLD, vout, vin, 4);   /* generic */
        CHECK(rc == 0, "long scan rc %d", rc);
        rc = inc ? shmemx_sum_inscan(SHMEM_TEAM_WORLD, dout, din, 4) : shmemx_double_sum_exscan(SHMEM_TEAM_WORLD, dout, din, 4);
        CHECK(rc == 0, "double scan rc %d", rc);
        for (int i = 0; i < 4; i++) {
            long lw = 0;
            double dw = 0;
            for (int p = 0; p < me + inc; p++)
                lw += p * 10L + i, dw += p + 0.5 * i;
            CHECK(vout[i] == lw && dout[i] == dw, "%s [%d]: %ld %g, want %ld %g", inc ? "inscan" : "exscan", i,
                  vout[i], dout[i], lw, dw);
        }
    }
}

static void no_barrier_hint(void)
{
    long *p = shmem_malloc_with_hints(8 * sizeof(long), SHMEMX_MALLOC_NO_BARRIER);
    CHECK(p != NULL, "malloc_with_hints(SHMEMX_MALLOC_NO_BARRIER)");
    shmem_barrier_all();   /* what SOS programs do before using such a block */
    shmem_long_p(&p[me % 8], me, next_pe);
    shmem_barrier_all();
    CHECK_EQ_LONG(p[prev_pe % 8], prev_pe);
    shmem_free(p);
}

int main(void)
{
    test_init();
    block_strided();
    signals();
    scans();
    no_barrier_hint();
    shmem_finalize();
    if (me == 0)
        printf("api_sos_names: %d PEs ok\n", npes);
    return 0;
}
