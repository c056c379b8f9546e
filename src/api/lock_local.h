/* The line the threads of one PE form for a distributed lock before one of
 * them uses the PE's queue node (lock.c).  A ticket lock per lock address:
 * each thread waits for its own ticket, and any thread may release. */
#ifndef SHOAL_API_LOCK_LOCAL_H
#define SHOAL_API_LOCK_LOCAL_H

#include <stdbool.h>

void shoal_lock_local_take(const long *lock);   /* waits for this thread's turn */
bool shoal_lock_local_try(const long *lock);    /* takes the turn only if nobody holds or waits */
void shoal_lock_local_give(const long *lock);   /* passes the turn to the next thread */

#endif
