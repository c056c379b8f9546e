/* What oshinfo and SHMEM_INFO print. */
#include <stdio.h>
#include <unistd.h>

#include "shoal.h"

#ifndef SHOAL_TUNING_DEFAULT
#define SHOAL_TUNING_DEFAULT ""
#endif
#ifndef SHOAL_BUILD_FEATURES
#define SHOAL_BUILD_FEATURES "shm"
#endif

SHOAL_EXPORT void shoal_info_print(FILE *f)
{
    fprintf(f, "Shoal %s, OpenSHMEM 1.6 (vendor string \"Shoal\")\n", SHOAL_VERSION_STRING);
    fprintf(f, "built: %s %s with %s\n", __DATE__, __TIME__, __VERSION__);
    fprintf(f, "transports and launchers: %s\n", SHOAL_BUILD_FEATURES);
    /* where shmem_init looks for tools/oshtune's rules when SHOAL_TUNING_FILE is unset */
    fprintf(f, "tuning rules: %s (%s)\n\n", SHOAL_TUNING_DEFAULT,
            access(SHOAL_TUNING_DEFAULT, R_OK) == 0 ? "present" : "absent: the built-in model");
    shoal_config_print(f);
}
