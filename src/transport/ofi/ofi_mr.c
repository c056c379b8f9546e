/* Registering the symmetric segments with the provider.
 *
 * The global data is one region.  The heap is one region too, unless its
 * registration is lazy (SHOAL_OFI_MR_LAZY; auto: where registering pins
 * pages, see ofi_limits.c): then it is registered in chunks of
 * SHOAL_OFI_MR_CHUNK bytes as allocations reach them, so a program that
 * uses 50 MiB of a 1 GiB heap pins about 64 MiB, not 1 GiB.  Every
 * symmetric allocation is a collective in which all PEs reach the same
 * high-water mark (the allocator is deterministic), so all PEs register
 * the same chunks at the same call and trade their keys in one bootstrap
 * allgather; a growth is rare (chunks are large) and costs that allgather.
 * Init registers the chunks of the heap's internal part (team pools): the
 * first one's keys travel on the card with the global data's, the others'
 * as a growth.
 *
 * Keys: region 0 is the global data, region 1 + k the heap's chunk k;
 * key[region * n_pes + pe], so chunks never registered never touch their
 * (calloc'ed) rows.  An operation never crosses a region (ofi_rma.c cuts
 * at shoal_ofi_region_left). */
#include <stdlib.h>

#include "ofi.h"
#include "../../boot/boot.h"

enum { MAX_CHUNKS = 4096 };   /* bounds the key table: chunks grow with the heap beyond that */

static bool lazy_wanted(void)
{
    return shoal_ofi_setting(shoal_cfg.ofi_mr_lazy, shoal_ofi_registration_pins());
}

static unsigned log2_ceil(size_t x)
{
    unsigned s = 0;
    while (s < 63 && ((size_t)1 << s) < x)
        s++;
    return s;
}

/* Chunk size (a power of two, as shift): the setting, and no more than
 * MAX_CHUNKS chunks. */
static void choose_chunks(void)
{
    size_t heap = shoal.seg_size[SHOAL_SEG_HEAP];
    shoal_ofi.chunk_shift = 63;   /* one region: off & mask == off */
    if (lazy_wanted()) {
        unsigned s = log2_ceil(shoal_cfg.ofi_mr_chunk), few = log2_ceil((heap + MAX_CHUNKS - 1) / MAX_CHUNKS);
        s = s > few ? s : few;
        if (((size_t)1 << s) < heap)
            shoal_ofi.chunk_shift = s;
    }
    shoal_ofi.heap_chunks = (unsigned)(shoal_ofi.chunk_shift >= 63 ? 1 : ((heap - 1) >> shoal_ofi.chunk_shift) + 1);
    shoal_ofi.regions = 1 + shoal_ofi.heap_chunks;
}

static unsigned chunks_below(size_t end)
{
    return end ? (unsigned)(((end - 1) >> shoal_ofi.chunk_shift) + 1) : 0;
}

/* Bytes registered in all once the heap's first `chunks` chunks are. */
static size_t registered_bytes(unsigned chunks)
{
    size_t heap = shoal.seg_size[SHOAL_SEG_HEAP];
    if ((heap >> shoal_ofi.chunk_shift) >= chunks)
        heap = (size_t)chunks << shoal_ofi.chunk_shift;
    return shoal.seg_size[SHOAL_SEG_DATA] + heap;
}

/* Register region r (0: global data, 1 + k: heap chunk k) and return its key. */
static uint64_t register_region(unsigned r, const char *routine)
{
    int seg = r == 0 ? SHOAL_SEG_DATA : SHOAL_SEG_HEAP;
    size_t start = r == 0 ? 0 : (size_t)(r - 1) << shoal_ofi.chunk_shift;   /* shift 63: r is 1 */
    size_t len = shoal.seg_size[seg] - start;
    if (r > 0 && len > shoal_ofi_region_left(seg, start))
        len = shoal_ofi_region_left(seg, start);
    struct fid_mr **mr = &shoal_ofi.mr[r];
    int rc = fi_mr_reg(shoal_ofi.domain, shoal.seg_base[seg] + start, len, FI_REMOTE_READ | FI_REMOTE_WRITE, 0,
                       (uint64_t)r + 1, 0, mr, NULL);
    if (rc == 0 && (shoal_ofi.info->domain_attr->mr_mode & FI_MR_ENDPOINT)) {
        rc = fi_mr_bind(*mr, &shoal_ofi.main_ep.ep->fid, 0);
        if (rc == 0)
            rc = fi_mr_enable(*mr);
    }
    if (rc != 0)
        shoal_fatal(routine, "libfabric %s could not register %zu bytes of %s (%s); raise the locked-memory "
                    "limit (ulimit -l) or lower SHMEM_SYMMETRIC_SIZE", shoal_ofi.prov, len,
                    seg == SHOAL_SEG_HEAP ? "the symmetric heap" : "global data", fi_strerror(-rc));
    return fi_mr_key(*mr);
}

void shoal_ofi_mr_register(struct shoal_ofi_card *card)
{
    choose_chunks();
    shoal_ofi.virt = (shoal_ofi.info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) != 0;
    shoal_ofi.mr = calloc(shoal_ofi.regions, sizeof *shoal_ofi.mr);
    /* All that init registers, the internal part's other chunks (grow) too. */
    shoal_ofi_check_memlock("shmem_init", registered_bytes(chunks_below(shoal.heap_internal)),
                            shoal_ofi.heap_chunks > 1);
    shoal_ofi.heap_registered = 1;
    for (int s = 0; s < SHOAL_NSEGS; s++) {
        card->key[s] = register_region(s == SHOAL_SEG_DATA ? 0 : 1, "shmem_init");
        card->base[s] = shoal_ofi.virt ? (uint64_t)(uintptr_t)shoal.seg_base[s] : 0;
    }
}

/* From every PE's card: addresses are done elsewhere, keys and bases here. */
void shoal_ofi_mr_publish(const struct shoal_ofi_card *all)
{
    size_t n = (size_t)shoal.n_pes;
    shoal_ofi.key = calloc(shoal_ofi.regions * n, sizeof *shoal_ofi.key);
    shoal_ofi.base = calloc(n * SHOAL_NSEGS, sizeof *shoal_ofi.base);
    if (!shoal_ofi.key || !shoal_ofi.base || !shoal_ofi.mr)
        shoal_fatal("shmem_init", "out of memory for the peers' memory keys (%zu PEs)", n);
    for (size_t pe = 0; pe < n; pe++)
        for (int s = 0; s < SHOAL_NSEGS; s++) {
            shoal_ofi.key[(s == SHOAL_SEG_DATA ? 0 : 1) * n + pe] = all[pe].key[s];
            shoal_ofi.base[pe * SHOAL_NSEGS + s] = all[pe].base[s];
        }
}

/* Register the chunks below `end`, trade the keys (collective). */
static void grow(size_t end, const char *routine)
{
    unsigned want = chunks_below(end), have = shoal_ofi.heap_registered;
    if (want <= have)
        return;
    size_t n = (size_t)shoal.n_pes, count = want - have;
    shoal_ofi_check_memlock(routine, registered_bytes(want), true);
    shoal_ofi.heap_registered = want;
    uint64_t *mine = calloc(count, sizeof *mine), *all = calloc(count * n, sizeof *all);
    if (!mine || !all)
        shoal_fatal(routine, "out of memory for the peers' memory keys (%zu PEs)", n);
    for (unsigned k = have; k < want; k++)
        mine[k - have] = register_region(1 + k, routine);
    shoal_boot_allgather(mine, all, count * sizeof *mine);
    for (size_t pe = 0; pe < n; pe++)
        for (size_t i = 0; i < count; i++)
            shoal_ofi.key[(1 + have + i) * n + pe] = all[pe * count + i];   /* read after the allocation returns */
    free(mine);
    free(all);
}

void shoal_ofi_mr_grow_internal(void)
{
    grow(shoal.heap_internal, "shmem_init");
}

/* remote_ops.heap_used */
void shoal_ofi_mr_heap_used(size_t end)
{
    grow(end, "shmem_malloc");
}

void shoal_ofi_mr_close(void)
{
    for (unsigned r = 0; shoal_ofi.mr && r < shoal_ofi.regions; r++)
        if (shoal_ofi.mr[r])
            fi_close(&shoal_ofi.mr[r]->fid);
    free(shoal_ofi.mr);
    free(shoal_ofi.key);
    free(shoal_ofi.base);
    shoal_ofi.mr = NULL;
    shoal_ofi.key = shoal_ofi.base = NULL;
}
