/* Preloaded by failures.sh abort-hangs: a launcher that never answers an
 * abort.  PMIx_Abort blocks for ever instead of ending the job. */
#include <pmix.h>
#include <unistd.h>

pmix_status_t PMIx_Abort(int status, const char msg[], pmix_proc_t procs[], size_t nprocs)
{
    (void)status;
    (void)msg;
    (void)procs;
    (void)nprocs;
    for (;;)
        pause();
}
