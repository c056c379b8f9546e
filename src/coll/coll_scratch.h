/* Size of the collectives' part of each pSync slot (layout: coll/). */
#ifndef SHOAL_COLL_SCRATCH_H
#define SHOAL_COLL_SCRATCH_H
#define SHOAL_COLL_SCRATCH_BYTES 4096
#endif
