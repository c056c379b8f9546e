/* oshrun: start N PEs of a program on this host, with no daemon and no
 * configuration.  The PEs share a control block (a memfd passed by file
 * descriptor); when one PE fails or calls shmem_global_exit, the others are
 * stopped at once, and if oshrun itself dies the kernel kills the PEs
 * (PR_SET_PDEATHSIG).  No name is ever created in /dev/shm. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../src/boot/local_ctl.h"

struct job {
    int npes;
    char **argv;             /* the program and its arguments */
    pid_t *pids;             /* 0 once reaped */
    int alive;
    struct shoal_local_ctl *ctl;
    int ctl_fd;
    int status;              /* oshrun's exit status */
    int stopping;            /* the job is being taken down */
};

static volatile sig_atomic_t interrupted;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: oshrun [-np N] [-x NAME[=VALUE]]... [--] program [args...]\n"
            "Start N processing elements (PEs) of an OpenSHMEM program on this host.\n\n"
            "  -np N, -n N, --np N   number of PEs (default 1)\n"
            "  -x NAME[=VALUE]       set NAME in every PE's environment (PEs inherit the\n"
            "                        whole environment anyway; -x is accepted for mpirun users)\n"
            "  --oversubscribe       accepted and ignored: more PEs than cores is always allowed\n"
            "  -h, --help            this text\n\n"
            "If a PE is killed by a signal, exits non-zero or calls shmem_global_exit, the\n"
            "other PEs are stopped and oshrun exits with that status (128+signal for a signal).\n"
            "Environment variables the library reads: run oshinfo.\n");
}

static int parse_args(int argc, char **argv, struct job *job)
{
    int i = 1;
    job->npes = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if ((!strcmp(a, "-np") || !strcmp(a, "-n") || !strcmp(a, "--np") || !strcmp(a, "-N")) &&
                   i + 1 < argc) {
            char *end;
            job->npes = (int)strtol(argv[++i], &end, 10);
            if (*end || job->npes <= 0) {
                fprintf(stderr, "oshrun: -np needs a positive number, not \"%s\"\n", argv[i]);
                return -1;
            }
        } else if (!strcmp(a, "-x") && i + 1 < argc) {
            char *kv = argv[++i], *eq = strchr(kv, '=');
            if (eq) {
                *eq = '\0';
                setenv(kv, eq + 1, 1);
            }
        } else if (!strcmp(a, "--oversubscribe")) {
        } else {
            fprintf(stderr, "oshrun: unknown option %s (see oshrun --help)\n", a);
            return -1;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return -1;
    }
    job->argv = argv + i;
    return 0;
}

static int create_ctl(struct job *job)
{
    size_t size = shoal_local_ctl_size(job->npes);
    job->ctl_fd = memfd_create("shoal-oshrun", 0);   /* inherited by the PEs on purpose */
    if (job->ctl_fd < 0 || ftruncate(job->ctl_fd, (off_t)size) != 0)
        return -1;
    job->ctl = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, job->ctl_fd, 0);
    if (job->ctl == MAP_FAILED)
        return -1;
    job->ctl->npes = job->npes;
    job->ctl->magic = SHOAL_LOCAL_MAGIC;
    return 0;
}

static void exec_pe(struct job *job, int pe, pid_t parent)
{
    char buf[32];
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)   /* oshrun died before prctl took effect */
        _exit(1);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    /* PSM libraries (loaded with libfabric) install a SIGSEGV handler that
     * turns a crash into exit status 1; keep the real signal visible. */
    setenv("IPATH_NO_BACKTRACE", "1", 0);
    setenv("HFI_NO_BACKTRACE", "1", 0);
    snprintf(buf, sizeof buf, "%d", pe);
    setenv("SHOAL_PE", buf, 1);
    snprintf(buf, sizeof buf, "%d", job->npes);
    setenv("SHOAL_NPES", buf, 1);
    snprintf(buf, sizeof buf, "%d", job->ctl_fd);
    setenv("SHOAL_LOCAL_FD", buf, 1);
    if (pe != 0) {   /* standard input goes to PE 0 only */
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0) {
            dup2(null, 0);
            close(null);
        }
    }
    execvp(job->argv[0], job->argv);
    fprintf(stderr, "oshrun: cannot run %s: %s\n", job->argv[0], strerror(errno));
    _exit(127);
}

static int pe_of(const struct job *job, pid_t pid)
{
    for (int i = 0; i < job->npes; i++)
        if (job->pids[i] == pid)
            return i;
    return -1;
}

/* Kill every PE still running and reap them all. */
static void stop_all(struct job *job)
{
    job->stopping = 1;
    for (int i = 0; i < job->npes; i++)
        if (job->pids[i])
            kill(job->pids[i], SIGKILL);
    while (job->alive > 0) {
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0 && errno != EINTR)
            break;
        int pe = pid > 0 ? pe_of(job, pid) : -1;
        if (pe >= 0) {
            job->pids[pe] = 0;
            job->alive--;
        }
    }
}

/* A PE ended: decide whether the job goes on. */
static void pe_ended(struct job *job, int pe, int st)
{
    pid_t pid = job->pids[pe];
    job->pids[pe] = 0;
    job->alive--;
    if (job->stopping)
        return;
    if (__atomic_load_n(&job->ctl->exit_requested, __ATOMIC_ACQUIRE)) {
        job->status = job->ctl->exit_status;
        if (job->alive > 0)
            fprintf(stderr, "oshrun: PE %d ended the job (shmem_global_exit or a fatal error, status %d); "
                            "stopping the other PEs\n", job->ctl->exit_pe, job->status);
    } else if (WIFSIGNALED(st)) {
        job->status = 128 + WTERMSIG(st);
        fprintf(stderr, "oshrun: PE %d (pid %d) was killed by signal %d (%s); stopping the other PEs\n", pe,
                (int)pid, WTERMSIG(st), strsignal(WTERMSIG(st)));
    } else if (WEXITSTATUS(st) != 0) {
        job->status = WEXITSTATUS(st);
        fprintf(stderr, "oshrun: PE %d exited with status %d%s\n", pe, job->status,
                job->alive > 0 ? "; stopping the other PEs" : "");
    } else if (*shoal_local_state(job->ctl, pe) == SHOAL_PE_RUNNING) {
        job->status = 1;
        fprintf(stderr, "oshrun: PE %d exited without calling shmem_finalize%s\n", pe,
                job->alive > 0 ? "; stopping the other PEs (they could wait for it forever)" : "");
    } else {
        return;
    }
    stop_all(job);
}

static void on_signal(int sig)
{
    interrupted = sig;
}

static int run(struct job *job)
{
    pid_t self = getpid();
    job->pids = calloc(job->npes, sizeof(pid_t));
    for (int pe = 0; pe < job->npes; pe++) {
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "oshrun: fork failed for PE %d: %s\n", pe, strerror(errno));
            stop_all(job);
            return 1;
        }
        if (pid == 0)
            exec_pe(job, pe, self);
        job->pids[pe] = pid;
        job->alive++;
    }
    while (job->alive > 0) {
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0 && errno == EINTR && interrupted && !job->stopping) {
            fprintf(stderr, "oshrun: %s received; stopping all PEs\n", strsignal(interrupted));
            job->status = 128 + interrupted;
            stop_all(job);
        } else if (pid > 0 && pe_of(job, pid) >= 0) {
            pe_ended(job, pe_of(job, pid), st);
        } else if (pid < 0 && errno == ECHILD) {
            break;
        }
    }
    return job->status;
}

int main(int argc, char **argv)
{
    struct job job = {0};
    if (parse_args(argc, argv, &job) != 0)
        return 2;
    if (create_ctl(&job) != 0) {
        fprintf(stderr, "oshrun: cannot create the control block: %s\n", strerror(errno));
        return 1;
    }
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;   /* no SA_RESTART: waitpid returns EINTR */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    return run(&job);
}
