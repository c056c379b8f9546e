/* What oshinfo and SHMEM_INFO print. */
#include <stdio.h>

#include "shoal.h"

#ifndef SHOAL_BUILD_FEATURES
#define SHOAL_BUILD_FEATURES "shm"
#endif

SHOAL_EXPORT void shoal_info_print(FILE *f)
{
    fprintf(f, "Shoal %s, OpenSHMEM 1.6 (vendor string \"Shoal\")\n", SHOAL_VERSION_STRING);
    fprintf(f, "built: %s %s with %s\n", __DATE__, __TIME__, __VERSION__);
    fprintf(f, "transports and launchers: %s\n\n", SHOAL_BUILD_FEATURES);
    shoal_config_print(f);
}
