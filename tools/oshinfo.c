/* oshinfo: what this Shoal is, how it was built, and every environment
 * variable it reads with its default and meaning. */
#include <stdio.h>
#include <string.h>

#include <shmem.h>

void shoal_info_print(FILE *f);   /* exported by libshoal for this tool */

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        printf("usage: oshinfo\nPrints Shoal's version, build configuration and environment variables.\n");
        return 0;
    }
    shoal_info_print(stdout);
    return 0;
}
