/* Tuning rules (tools/oshtune writes them, docs/TUNING.md): a measured
 * answer for auto that replaces the cost model's, per collective, locality,
 * team size and payload.  Loaded at init from SHOAL_TUNING_FILE (or the
 * install prefix's share/shoal/tuning.rules); every PE must hold the same
 * table, or members of one call choose differently and wait forever. */
#ifndef SHOAL_COLL_TUNING_H
#define SHOAL_COLL_TUNING_H

#include "../core/shoal.h"

/* Reads and checks the file.  The vote is the hash of the rules read (equal
 * tables, equal hashes) and whether the file had a bad line, which is kept
 * for shoal_tuning_agree to report: a file every PE reads wrong makes one
 * line, not one per PE. */
struct shoal_vote shoal_tuning_load(void);
/* Every PE's vote: the first PE with a bad line reports it; else PE 0
 * names the PEs whose rules differ from its own.  Either stops the job. */
void shoal_tuning_agree(const struct shoal_vote *votes, int n_pes);
/* SHMEM_INFO: which file was read, or none (FILE *). */
void shoal_tuning_print(void *file);

#endif
