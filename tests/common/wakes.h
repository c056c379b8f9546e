/* How often a process went to sleep and woke: the voluntary context
 * switches of all its threads (a sleep in futex, poll or nanosleep counts
 * one; a sched_yield that hands the core over does not).  -1 when /proc
 * cannot tell. */
#ifndef SHOAL_TEST_WAKES_H
#define SHOAL_TEST_WAKES_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>

static long wakes_of(int pid)
{
    char path[96], line[256];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    long sum = 0;
    for (struct dirent *t; (t = readdir(d));) {
        if (t->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/%d/task/%.20s/status", pid, t->d_name);
        FILE *f = fopen(path, "r");
        while (f && fgets(line, sizeof line, f)) {
            long n;
            if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1)
                sum += n;
        }
        if (f)
            fclose(f);
    }
    closedir(d);
    return sum;
}

#endif
