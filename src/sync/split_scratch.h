/* Size of the split-phase barrier's part of each pSync slot (layout: sync/split_barrier*). */
#ifndef SHOAL_SPLIT_SCRATCH_H
#define SHOAL_SPLIT_SCRATCH_H
#define SHOAL_SPLIT_SCRATCH_BYTES 1024
#endif
