/* Size of the split-phase barrier's part of each pSync slot; its layout is
 * struct shoal_split_area (sync/split_barrier.h, which checks that it fits):
 * 2 x 32 round words and two counters, 528 bytes, rounded to cache lines. */
#ifndef SHOAL_SPLIT_SCRATCH_H
#define SHOAL_SPLIT_SCRATCH_H
#define SHOAL_SPLIT_SCRATCH_BYTES 576
#endif
