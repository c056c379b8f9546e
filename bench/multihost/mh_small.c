/* mh_small - per-call latency of small operations between two hosts, with
 * the spread: every call is timed alone, and the median, p99 and maximum
 * are printed (the network path must have no multi-millisecond stalls).
 * PE 0 talks to the first PE that does not share memory with it; with
 * --all-pairs every PE that has a partner on another host does the same at
 * once (2 PEs per host: both pairs busy).
 *   put        8-byte put + quiet
 *   get        8-byte get
 *   fetch_add  8-byte fetch-add
 *   add        8-byte add (no wait: what a collective flag costs the sender)
 *   pingpong   one-way time: p, wait_until, bounced back (round trip / 2)
 *   put_signal one-way time: 8-byte put_signal, wait_until, bounced back
 *   put_fence  one-way time: 8-byte put, fence, flag put, wait_until,
 *              bounced back (the classic data-then-flag idiom)
 *
 *   mh_small [calls] [--all-pairs]     (oshrun/mpirun; prints one line per op;
 *   two hosts with the same number of PEs) */
#include <shmem.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mh_clock.h"

static long word, flag, data, sigdata;
static uint64_t sig;

static int me, partner, active, leader;
static long round_no;

static void one(const char *op, double *t)
{
    long v = 1;
    double t0 = now_us();
    if (!strcmp(op, "put")) {
        shmem_long_put(&data, &v, 1, partner);
        shmem_quiet();
    } else if (!strcmp(op, "get")) {
        shmem_long_get(&v, &data, 1, partner);
    } else if (!strcmp(op, "fetch_add")) {
        v = shmem_long_atomic_fetch_add(&word, 1, partner);
    } else if (!strcmp(op, "add")) {
        shmem_long_atomic_add(&word, 1, partner);
    }
    *t = now_us() - t0;
    (void)v;
}

static void bounce(const char *op, double *t)
{
    long r = ++round_no;
    double t0 = now_us();
    bool sig_op = !strcmp(op, "put_signal"), fence_op = !strcmp(op, "put_fence");
    if (fence_op && !leader)
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r);
    if (fence_op) {
        shmem_long_p(&sigdata, r, partner);
        shmem_fence();
        shmem_long_p(&flag, r, partner);
        if (leader)
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r);
        if (sigdata != r)
            fprintf(stderr, "mh_small: PE %d: put_fence round %ld: data %ld arrived after its flag\n", me, r,
                    sigdata);
    } else if (leader) {
        if (sig_op) {
            shmem_long_put_signal(&sigdata, &r, 1, &sig, (uint64_t)r, SHMEM_SIGNAL_SET, partner);
            shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, (uint64_t)r);
        } else {
            shmem_long_p(&flag, r, partner);
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r);
        }
    } else {
        if (sig_op) {
            shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, (uint64_t)r);
            shmem_long_put_signal(&sigdata, &r, 1, &sig, (uint64_t)r, SHMEM_SIGNAL_SET, partner);
        } else {
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r);
            shmem_long_p(&flag, r, partner);
        }
    }
    *t = (now_us() - t0) / 2;
}

int main(int argc, char **argv)
{
    long calls = argc > 1 && argv[1][0] != '-' ? atol(argv[1]) : 2000;
    bool all_pairs = argc > 1 && !strcmp(argv[argc - 1], "--all-pairs");
    shmem_init();
    me = shmem_my_pe();
    int n = shmem_n_pes();
    /* Two hosts of equal size: the i-th PE of one host pairs with the i-th
     * PE of the other (i-th among the PEs I cannot reach).  Without
     * --all-pairs only PE 0's pair runs. */
    static int unreach[4096];
    int local_idx = 0, nu = 0;
    for (int pe = 0; pe < n && pe < 4096; pe++) {
        if (!shmem_ptr(&word, pe))
            unreach[nu++] = pe;
        else if (pe < me)
            local_idx++;
    }
    if (nu * 2 != n) {   /* with a third host, partners would not pair up, and the bounces hang */
        if (me == 0)
            fprintf(stderr, "mh_small: needs two hosts with the same number of PEs; PE 0 reaches %d of %d "
                    "PEs by load/store\n", n - nu, n);
        shmem_global_exit(2);
    }
    partner = local_idx < nu ? unreach[local_idx] : -1;
    active = partner >= 0 && (all_pairs || local_idx == 0);
    leader = partner > me;
    static const char *ops[] = {"put", "get", "fetch_add", "add", "pingpong", "put_fence", "put_signal"};
    double *t = malloc(sizeof *t * calls);
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        bool pp = o >= 4;
        round_no = 0;
        flag = 0;
        sig = 0;
        shmem_barrier_all();
        for (long i = 0; i < calls; i++) {
            if (!active)
                continue;
            if (pp)
                bounce(ops[o], &t[i]);
            else if (leader)
                one(ops[o], &t[i]);
        }
        shmem_quiet();
        shmem_barrier_all();
        if (active && leader) {
            sort_times(t, (size_t)calls);
            printf("PE %d->%d %-10s median %7.1f us  p99 %7.1f us  max %8.1f us  p99/median %.2f\n", me, partner,
                   ops[o], t[calls / 2], t[calls * 99 / 100], t[calls - 1], t[calls * 99 / 100] / t[calls / 2]);
            fflush(stdout);
        }
    }
    /* Check: the partner's word got every fetch_add and add, the last
     * bounce carried its round. */
    int bad = active && !leader && (word != 2 * calls || sigdata != round_no || sig != (uint64_t)round_no);
    if (bad)
        fprintf(stderr, "mh_small: PE %d: word %ld (want %ld), put_signal data %ld and signal %ld (want %ld)\n", me,
                word, 2 * calls, sigdata, (long)sig, round_no);
    free(t);
    shmem_finalize();
    return bad;
}
