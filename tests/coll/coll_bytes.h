/* Byte collectives (broadcast, fcollect, collect) checked against a
 * pattern every member computes for itself; shared by coll_test.c and
 * coll_hier_test.c.  A member's block j of call salt is pat(j, i, salt). */
#ifndef COLL_BYTES_H
#define COLL_BYTES_H

#include <string.h>

#include <shmem.h>

#include "check.h"

struct team {
    shmem_team_t t;
    const char *label;
    int my, n;
};

static unsigned char pat(int j, size_t i, int salt)
{
    return (unsigned char)(j * 13 + i * 3 + salt * 7 + 1);
}

/* Member j's contribution to collect call salt: uneven, zero for some; in
 * every third call some exceed a ring entry (collect_shm.c's fallback). */
static size_t collect_len(int j, int salt)
{
    return (size_t)((j * 5 + salt) % 4 == 0 ? 0 : (j * 37 + salt * 11) % (salt % 3 == 2 ? 900 : 300));
}

static void check_bcast(const struct team *tm, unsigned char *dst, unsigned char *src, size_t n, int root,
                        int salt)
{
    for (size_t i = 0; i < n; i++) {
        src[i] = pat(tm->my, i, salt);
        dst[i] = 0xee;
    }
    CHECK(shmem_broadcastmem(tm->t, dst, src, n, root) == 0, "broadcast rc");
    for (size_t i = 0; i < n; i++)
        CHECK(dst[i] == pat(root, i, salt), "team %s: broadcast %zu B from root %d: byte %zu is %d, want %d",
              tm->label, n, root, i, dst[i], pat(root, i, salt));
}

static void check_fcollect(const struct team *tm, unsigned char *dst, unsigned char *src, size_t n, int salt)
{
    for (size_t i = 0; i < n; i++)
        src[i] = pat(tm->my, i, salt);
    memset(dst, 0xee, n * tm->n);
    CHECK(shmem_fcollectmem(tm->t, dst, src, n) == 0, "fcollect rc");
    for (int j = 0; j < tm->n; j++)
        for (size_t i = 0; i < n; i++)
            CHECK(dst[j * n + i] == pat(j, i, salt), "team %s: fcollect %zu B: block %d byte %zu is %d, want %d",
                  tm->label, n, j, i, dst[j * n + i], pat(j, i, salt));
}

/* dst must hold the total and one byte more: nothing is written past it. */
static void check_collect(const struct team *tm, unsigned char *dst, unsigned char *src, int salt)
{
    size_t mine = collect_len(tm->my, salt), total = 0;
    for (size_t i = 0; i < mine; i++)
        src[i] = pat(tm->my, i, salt);
    for (int j = 0; j < tm->n; j++)
        total += collect_len(j, salt);
    memset(dst, 0xee, total + 1);
    CHECK(shmem_collectmem(tm->t, dst, src, mine) == 0, "collect rc");
    size_t at = 0;
    for (int j = 0; j < tm->n; j++)
        for (size_t i = 0; i < collect_len(j, salt); i++, at++)
            CHECK(dst[at] == pat(j, i, salt), "team %s: collect: block %d byte %zu is %d, want %d", tm->label, j, i,
                  dst[at], pat(j, i, salt));
    CHECK(dst[total] == 0xee, "team %s: collect wrote past its %zu bytes", tm->label, total);
}

#endif
