/* Size of the collectives' part of each pSync slot (layout: struct
 * coll_area in coll/coll_internal.h): flag words, then the receive scratch
 * of the scratch-based algorithms.  Pages nobody touches cost no memory. */
#ifndef SHOAL_COLL_SCRATCH_H
#define SHOAL_COLL_SCRATCH_H
#define SHOAL_COLL_SCRATCH_BYTES 65536
#endif
