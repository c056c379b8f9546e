/* A program whose communication is known exactly, for the profile tests:
 * check_profile.py recomputes every count from the numbers below (they are
 * printed on the first line so the checker and this file cannot drift).
 * It also checks shmemx_pcntr_* against the same counts, that
 * shmem_pcontrol(0) stops recording and that shmem_pcontrol(2) writes the
 * profile at once. */
#include <stdlib.h>
#include <string.h>

#include <shmem.h>
#include <shmemx.h>

#include "check.h"

enum { PUTS = 1234, PUT_NBI = 321, GETS = 77, AMOS = 55, AMO_NBI = 5, PUT_SIGNALS = 33, SIGNAL_ADDS = 11,
       UNRECORDED = 1000, BARRIERS = 3, REDUCES = 4, BROADCASTS = 2, QUIETS = 5 };

static long word[4], sum_src[3], sum_dst[3], bc[8];
static long counter;
static uint64_t sig;

/* shmem_pcontrol(2) writes SHOAL_PROFILE/pe<me>.json now: it must be there, saying so. */
static void flushed_profile_has(int me, const char *text)
{
    const char *dir = getenv("SHOAL_PROFILE");
    if (!dir)
        return;
    shmem_pcontrol(2);
    char path[4096], buf[1 << 16];
    snprintf(path, sizeof path, "%s/pe%d.json", dir, me);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "shmem_pcontrol(2) wrote no %s", path);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CHECK(strstr(buf, text) != NULL, "%s lacks %s", path, text);
    CHECK(strstr(buf, "\"count\": 1234,") != NULL, "%s lacks the 1234 puts", path);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n, far = (me + 2) % n;
    if (me == 0)
        printf("known: PUTS=%d PUT_NBI=%d GETS=%d AMOS=%d AMO_NBI=%d PUT_SIGNALS=%d SIGNAL_ADDS=%d "
               "BARRIERS=%d REDUCES=%d BROADCASTS=%d QUIETS=%d\n", PUTS, PUT_NBI, GETS, AMOS, AMO_NBI,
               PUT_SIGNALS, SIGNAL_ADDS, BARRIERS, REDUCES, BROADCASTS, QUIETS);
    long v[3] = {me, me, me}, got[3];
    for (int i = 0; i < PUTS; i++)
        shmem_putmem(&word[0], &v[0], sizeof(long), right);               /* 8 bytes to the right */
    for (int i = 0; i < PUT_NBI; i++)
        shmem_long_put_nbi(&word[1], v, 2, left);                         /* 16 bytes to the left */
    for (int i = 0; i < GETS; i++)
        shmem_getmem(got, &word[0], 3 * sizeof(long), far);               /* 24 bytes from two along */
    for (int i = 0; i < AMOS; i++)
        shmem_long_atomic_fetch_add(&counter, 1, 0);                       /* 8 bytes to PE 0 */
    for (int i = 0; i < AMO_NBI; i++)
        shmem_long_atomic_fetch_add_nbi(&got[0], &counter, 1, 0);
    shmem_quiet();
    shmem_pcontrol(0);
    for (int i = 0; i < UNRECORDED; i++)
        shmem_putmem(&word[0], &v[0], sizeof(long), right);
    shmem_pcontrol(1);
    shmemx_pcntr_t c;
    shmemx_pcntr_get_all(SHMEM_CTX_DEFAULT, &c);
    uint64_t writes, reads;
    shmemx_pcntr_get_issued_write(SHMEM_CTX_DEFAULT, &writes);
    shmemx_pcntr_get_issued_read(SHMEM_CTX_DEFAULT, &reads);
    CHECK_EQ_LONG(writes, PUTS + PUT_NBI + AMOS + AMO_NBI);
    CHECK_EQ_LONG(reads, GETS);
    CHECK_EQ_LONG(c.completed_put, writes);   /* a quiet came after them all */
    CHECK_EQ_LONG(c.pending_put, 0);
    CHECK_EQ_LONG(c.completed_get, reads);

    flushed_profile_has(me, "\"written_at\": \"shmem_pcontrol\"");
    for (int i = 0; i < PUT_SIGNALS; i++)
        shmem_putmem_signal(&word[2], v, 2 * sizeof(long), &sig, 1, SHMEM_SIGNAL_ADD, right);   /* 16 + 8 */
    for (int i = 0; i < SIGNAL_ADDS; i++)
        shmem_signal_add(&sig, 1, right);                                                       /* 8 */
    shmem_signal_wait_until(&sig, SHMEM_CMP_GE, PUT_SIGNALS + SIGNAL_ADDS);
    for (int i = 0; i < BARRIERS; i++)
        shmem_barrier_all();
    for (int i = 0; i < REDUCES; i++) {
        for (int k = 0; k < 3; k++)
            sum_src[k] = me + k;
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, sum_dst, sum_src, 3);
        for (int k = 0; k < 3; k++)
            CHECK_EQ_LONG(sum_dst[k], (long)n * (n - 1) / 2 + (long)k * n);
    }
    for (int i = 0; i < BROADCASTS; i++) {
        long src[8] = {7, 7, 7, 7, 7, 7, 7, i};
        shmem_long_broadcast(SHMEM_TEAM_WORLD, bc, src, 8, 0);
        CHECK_EQ_LONG(bc[7], i);
    }
    for (int i = 0; i < QUIETS; i++)
        shmem_quiet();
    shmem_finalize();
    return 0;
}
