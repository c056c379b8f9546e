/* Team extensions: the per-team scratch and state of the layers above
 * (collectives, split-phase barriers), laid out in every pSync slot of a
 * team's pool block without this layer knowing what they hold.  Small areas
 * come first, so the flag words of several extensions share pages and a
 * destroy that zeroes them touches few. */
#include <stdlib.h>

#include "team_impl.h"

size_t shoal_team_ext_offset[SHOAL_TEAM_EXT_MAX];
size_t shoal_team_slot_bytes;

static const struct shoal_team_ext *exts[SHOAL_TEAM_EXT_MAX];
static int n_exts;
static bool laid_out;

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

int shoal_team_ext_register(const struct shoal_team_ext *ext)
{
    if (n_exts == SHOAL_TEAM_EXT_MAX || laid_out)
        shoal_fatal("shmem_init", "team extension %s registered %s; raise SHOAL_TEAM_EXT_MAX in "
                    "src/team/team.h or register from a constructor", ext->name,
                    laid_out ? "after the pSync pool was laid out" : "beyond the table");
    exts[n_exts] = ext;
    return n_exts++;
}

/* By size, then by registration order: the same on every PE. */
void shoal_team_ext_layout(void)
{
    int order[SHOAL_TEAM_EXT_MAX];
    for (int i = 0; i < n_exts; i++) {
        int j = i;
        for (; j > 0 && exts[order[j - 1]]->bytes > exts[i]->bytes; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    size_t at = 0;
    for (int k = 0; k < n_exts; k++) {
        shoal_team_ext_offset[order[k]] = at;
        at += round_up(exts[order[k]]->bytes, SHOAL_CACHELINE);
    }
    shoal_team_slot_bytes = at;
    laid_out = true;
}

/* Destroy: every extension leaves this PE's part of t's block as zeroes. */
void shoal_team_ext_clear(struct shoal_team *t)
{
    for (int e = 0; e < n_exts; e++) {
        if (exts[e]->clear) {
            exts[e]->clear(t);
            continue;
        }
        for (int s = 0; s < SHOAL_PSYNC_PER_TEAM; s++)
            memset(shoal_team_ext_area(t, e, s), 0, exts[e]->bytes);
    }
}

void shoal_team_ext_fini(struct shoal_team *t)
{
    for (int e = 0; e < n_exts; e++) {
        if (exts[e]->team_fini && t->ext_state[e])
            exts[e]->team_fini(t);
        t->ext_state[e] = NULL;
    }
}
