/* Built instead of the ofi transport when libfabric is not installed: the
 * library is then shared-memory only, and a job that spans hosts stops at
 * init with the fix. */
#include "../../core/shoal.h"

int shoal_ofi_init(void)
{
    shoal_fatal("shmem_init", "this job spans %d hosts, but this Shoal was built without libfabric; install "
                "libfabric-dev (Debian) and rebuild Shoal, or run all PEs on one host", shoal.n_hosts);
}

void shoal_ofi_quiet_all(void) {}
void shoal_ofi_fini(void) {}

int shoal_ctx_net_create(struct shoal_ctx *ctx)
{
    ctx->net = NULL;
    return 0;
}

void shoal_ctx_net_destroy(struct shoal_ctx *ctx)
{
    ctx->net = NULL;
}
