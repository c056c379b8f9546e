/* The symmetric heap registered in chunks as it is used (ofi_mr.c), run
 * with SHOAL_OFI_MR_LAZY=on and a small SHOAL_OFI_MR_CHUNK: blocks are
 * allocated one after another (each growth registers chunks and trades
 * keys), and every operation across hosts that crosses a MiB boundary
 * (a chunk boundary for any chunk size of 1 MiB or more: the heap's base is
 * 1 GiB-aligned) moves the right bytes: puts and gets of whole blocks,
 * pieces straddling each boundary, put-with-signal, AMOs on either side.
 *
 *   mh_chunks [MiB]   allocate about MiB MiB in all (default 12) */
#include <stdint.h>
#include <string.h>

#include <shmem.h>

#include "check.h"

enum { BLOCK = 700 * 1024, MIB = 1 << 20, STRADDLE = 100 };

static uint64_t sig;
static int me, n, partner, from;

static unsigned char byte_of(int pe, size_t block, size_t i)
{
    return (unsigned char)(pe * 31 + block * 7 + i * 13 + (i >> 11));
}

/* Offsets in [0, len) of block b that sit on a MiB boundary of the address space. */
static size_t first_boundary(const void *b)
{
    uintptr_t a = (uintptr_t)b;
    return (size_t)(((a + MIB - 1) & ~(uintptr_t)(MIB - 1)) - a);
}

static void whole_block(unsigned char *blk, size_t b, size_t len)
{
    unsigned char *src = malloc(len), *back = malloc(len);
    for (size_t i = 0; i < len; i++)
        src[i] = byte_of(me, b, i);
    shmem_putmem(blk, src, len, partner);
    shmem_barrier_all();
    for (size_t i = 0; i < len; i++)
        CHECK(blk[i] == byte_of(from, b, i), "block %zu [%zu] = %u, want %u (put from PE %d)", b, i, blk[i],
              byte_of(from, b, i), from);
    shmem_getmem(back, blk, len, partner);
    CHECK(memcmp(back, src, len) == 0, "get of block %zu (%zu bytes) from PE %d differs", b, len, partner);
    shmem_barrier_all();
    free(src);
    free(back);
}

/* At each MiB boundary inside the block: a put, a get and a put_signal
 * that straddle it, and fetch-adds on the words on either side. */
static void boundaries(unsigned char *blk, size_t b, size_t len)
{
    for (size_t at = first_boundary(blk); at < len; at += MIB) {
        if (at < STRADDLE || at + STRADDLE > len)
            continue;
        unsigned char piece[2 * STRADDLE], got[2 * STRADDLE];
        for (int i = 0; i < 2 * STRADDLE; i++)
            piece[i] = (unsigned char)(me + b + at + (size_t)i * 3);
        sig = 0;
        shmem_barrier_all();
        shmem_putmem_signal(blk + at - STRADDLE, piece, sizeof piece, &sig, at, SHMEM_SIGNAL_SET, partner);
        shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, at);
        for (int i = 0; i < 2 * STRADDLE; i++)
            CHECK(blk[at - STRADDLE + i] == (unsigned char)(from + b + at + (size_t)i * 3),
                  "put_signal across the boundary at %zu of block %zu: byte %d wrong", at, b, i);
        shmem_barrier_all();
        shmem_getmem(got, blk + at - STRADDLE + 1, sizeof got - 2, partner);
        CHECK(memcmp(got, piece + 1, sizeof got - 2) == 0, "get across the boundary at %zu of block %zu", at, b);
        long *before = (long *)(blk + at) - 1, *after = (long *)(blk + at);
        shmem_barrier_all();
        *before = *after = 0;
        shmem_barrier_all();
        long old_b = shmem_long_atomic_fetch_add(before, 3, partner);
        long old_a = shmem_long_atomic_fetch_add(after, 5, partner);
        CHECK(old_b == 0 && old_a == 0, "fetch-adds at the boundary at %zu of block %zu: old values %ld, %ld", at,
              b, old_b, old_a);
        shmem_barrier_all();
        CHECK(*before == 3 && *after == 5, "fetch-adds at the boundary at %zu of block %zu: %ld, %ld", at, b,
              *before, *after);
    }
}

int main(int argc, char **argv)
{
    size_t total = (size_t)(argc > 1 ? atol(argv[1]) : 12) * MIB;
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    partner = (me + n / 2) % n;           /* another host in block placement */
    from = (me - n / 2 + n) % n;
    if (n % 2)
        partner = (me + 1) % n, from = (me - 1 + n) % n;
    size_t blocks = total / BLOCK + 1, checked = 0;
    unsigned char **blk = calloc(blocks, sizeof *blk);
    for (size_t b = 0; b < blocks; b++) {
        blk[b] = shmem_malloc(BLOCK);
        CHECK(blk[b] != NULL, "shmem_malloc of block %zu failed", b);
        whole_block(blk[b], b, BLOCK);
        boundaries(blk[b], b, BLOCK);
        checked++;
    }
    /* Growing by realloc and calloc, then the first block again (its keys
     * must still be right after all the growth). */
    unsigned char *big = shmem_realloc(blk[blocks - 1], 3 * BLOCK);
    CHECK(big != NULL, "shmem_realloc to %d bytes failed", 3 * BLOCK);
    blk[blocks - 1] = big;
    whole_block(big, blocks, 3 * BLOCK);
    boundaries(big, blocks, 3 * BLOCK);
    unsigned char *zeroed = shmem_calloc(2, BLOCK);
    CHECK(zeroed != NULL, "shmem_calloc failed");
    whole_block(zeroed, blocks + 1, 2 * BLOCK);
    whole_block(blk[0], 0, BLOCK);
    shmem_free(zeroed);
    for (size_t b = 0; b < blocks; b++)
        shmem_free(blk[b]);
    free(blk);
    if (me == 0)
        printf("mh_chunks: %d PEs OK, %zu blocks of %d bytes\n", n, checked, BLOCK);
    shmem_finalize();
    return 0;
}
