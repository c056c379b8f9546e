/* What armed waits teach the next waits (core/wait.c, shoal_wait_learn):
 * waits that armed and ended quickly (arming and waking cost more than
 * they saved) raise the yields' budget step by step to its cap; waits that
 * slept long lower it one step at a time; medium ones keep it; with more
 * PEs than cores it stays 0.  Without the rule two PEs calling collectives
 * back to back on a VM could keep each other arming: a barrier took 130-300
 * us instead of 0.1-0.3 for whole batches of calls. */
#include <stdio.h>
#include <stdlib.h>

#include "core/shoal.h"

#define CHECK(c, ...)                                                  \
    do {                                                               \
        if (!(c)) {                                                    \
            fprintf(stderr, "wait_learn: " __VA_ARGS__);               \
            fputc('\n', stderr);                                       \
            exit(1);                                                   \
        }                                                              \
    } while (0)

int main(void)
{
    uint8_t b = 0, prev = 0;
    for (int i = 0; i < 20; i++) {   /* quick arms: up to the cap, never past it */
        b = shoal_wait_learn(b, 200000, false);
        CHECK(b >= prev && b <= prev + 1, "quick arm %d: %u after %u", i, b, prev);
        prev = b;
    }
    CHECK(b >= 4 && b <= 8, "the cap is %u", b);
    uint8_t cap = b;
    CHECK(shoal_wait_learn(cap, 10000000, false) == cap, "a 10 ms wait changed the budget");
    for (int i = cap; i > 0; i--) {   /* long sleeps: down one step each */
        b = shoal_wait_learn(b, 100000000, false);
        CHECK(b == i - 1, "long sleep: %u, want %d", b, i - 1);
    }
    CHECK(shoal_wait_learn(0, 100000000, false) == 0, "below 0");
    CHECK(shoal_wait_learn(3, 200000, true) == 0, "crowded PEs learned a budget");
    puts("wait_learn: ok");
    return 0;
}
