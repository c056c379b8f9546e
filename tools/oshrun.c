/* oshrun: start N PEs of a program on this host, with no daemon and no
 * configuration.  The PEs share a control block (a memfd passed by file
 * descriptor); when one PE fails or calls shmem_global_exit, the others are
 * stopped at once, and if oshrun itself dies the kernel kills the PEs
 * (PR_SET_PDEATHSIG).  No name is ever created in /dev/shm. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../src/boot/local_ctl.h"

#ifdef SHOAL_HAVE_HWLOC
#include <hwloc.h>
#endif

struct job {
    int npes;
    char **argv;             /* the program and its arguments */
    pid_t *pids;             /* 0 once reaped */
    int alive;
    struct shoal_local_ctl *ctl;
    int ctl_fd;
    int status;              /* oshrun's exit status */
    int stopping;            /* the job is being taken down */
    int bind;                /* pin PE i to core i (default when the PEs fit on the cores) */
    int bind_set;            /* --bind-to given */
};

/* The signals that end the job when they reach oshrun.  They stay blocked
 * in oshrun and are taken with sigwaitinfo, together with SIGCHLD: a
 * signal that arrives while PEs are still being started waits, pending,
 * until it is taken, so it can never be lost between a check and a wait. */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
static sigset_t child_mask;   /* oshrun's mask before blocking: the PEs get it back */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: oshrun [-np N] [-x NAME[=VALUE]]... [--] program [args...]\n"
            "Start N processing elements (PEs) of an OpenSHMEM program on this host.\n\n"
            "  -np N, -n N, --np N   number of PEs (default 1)\n"
            "  -x NAME[=VALUE]       set NAME in every PE's environment (PEs inherit the\n"
            "                        whole environment anyway; -x is accepted for mpirun users)\n"
            "  --oversubscribe       accepted and ignored: more PEs than cores is always allowed\n"
            "  --profile DIR         every PE writes its communication profile into DIR\n"
            "                        (SHOAL_PROFILE=DIR; read it with oshprof DIR)\n"
            "  --trace FILE          write a timeline of the run to FILE (SHOAL_TRACE=FILE;\n"
            "                        open it in Perfetto or chrome://tracing)\n"
            "  --bind-to core|none   pin each PE to its own core (default: core when the PEs fit\n"
            "                        on this machine's cores, none when they do not)\n"
            "  --host h1:2,h2:2, --hostfile FILE, [--map-by node|slot]\n"
            "                        several hosts: hand the job to the site's launcher (also\n"
            "                        inside a Slurm allocation of several nodes; SHOAL_LAUNCHER\n"
            "                        picks it: srun, prterun, mpirun, mpiexec.hydra)\n"
            "  -h, --help            this text\n"
            "  -V, --version         Shoal's version\n\n"
            "If a PE is killed by a signal, exits non-zero or calls shmem_global_exit, the\n"
            "other PEs are stopped and oshrun exits with that status (128+signal for a signal).\n"
            "Environment variables the library reads: run oshinfo.\n");
}

/* --profile DIR and --trace FILE: the variable each sets in the PEs' environment. */
static const char *profile_option(const char *a)
{
    return !strcmp(a, "--profile") ? "SHOAL_PROFILE" : !strcmp(a, "--trace") ? "SHOAL_TRACE" : NULL;
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
        } else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
            printf("oshrun (Shoal %s, OpenSHMEM 1.6)\n", SHOAL_VERSION_STRING);
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
        } else if (profile_option(a) && i + 1 < argc) {
            setenv(profile_option(a), argv[++i], 1);
        } else if (!strcmp(a, "--bind-to") && i + 1 < argc) {
            const char *how = argv[++i];
            if (strcmp(how, "core") && strcmp(how, "none")) {
                fprintf(stderr, "oshrun: --bind-to takes core or none, not \"%s\"\n", how);
                return -1;
            }
            job->bind = !strcmp(how, "core");
            job->bind_set = 1;
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

/* Core binding through hwloc: PE i on core i, so two PEs never share a core
 * by accident (latency between PEs then stays that of the hardware).  Done
 * only when every PE gets a core of its own. */
static void bind_to_core(struct job *job, int pe)
{
#ifdef SHOAL_HAVE_HWLOC
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0)
        return;
    if (hwloc_topology_load(topo) == 0) {
        int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        if (!job->bind_set)
            job->bind = cores > 0 && job->npes <= cores;
        hwloc_obj_t core = job->bind && cores > 0 ? hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, pe % cores) : NULL;
        if (core && hwloc_set_cpubind(topo, core->cpuset, HWLOC_CPUBIND_PROCESS) != 0 && job->bind_set)
            fprintf(stderr, "oshrun: could not bind PE %d to core %d\n", pe, pe % cores);
    }
    hwloc_topology_destroy(topo);
#else
    (void)job;
    (void)pe;
#endif
}

static void exec_pe(struct job *job, int pe, pid_t parent)
{
    char buf[32];
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)   /* oshrun died before prctl took effect */
        _exit(1);
    for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
        signal(stop_signals[i], SIG_DFL);
    signal(SIGCHLD, SIG_DFL);
    sigprocmask(SIG_SETMASK, &child_mask, NULL);
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
    bind_to_core(job, pe);
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
        fprintf(stderr, "oshrun: PE %d exited with status 0 without finalizing (it skipped the exit handlers "
                        "that finalize implicitly: _exit or quick_exit?)%s\n", pe,
                job->alive > 0 ? "; stopping the other PEs (they could wait for it forever)" : "");
    } else {
        return;
    }
    stop_all(job);
}

/* Installed only so that no signal oshrun waits for is ignored (a shell
 * starts background jobs with SIGINT ignored); sigwaitinfo takes them
 * before this could run. */
static void on_signal(int sig)
{
    (void)sig;
}

static void block_job_signals(sigset_t *set)
{
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigemptyset(set);
    for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++) {
        sigaction(stop_signals[i], &sa, NULL);
        sigaddset(set, stop_signals[i]);
    }
    sigaction(SIGCHLD, &sa, NULL);   /* not SIG_IGN inherited from the parent: PEs must stay waitable */
    sigaddset(set, SIGCHLD);
    sigprocmask(SIG_BLOCK, set, &child_mask);
}

/* A stop signal already pending (sent while PEs were being started), or 0. */
static int pending_stop(void)
{
    sigset_t p;
    sigpending(&p);
    for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
        if (sigismember(&p, stop_signals[i]))
            return stop_signals[i];
    return 0;
}

static void interrupted(struct job *job, int sig)
{
    if (job->stopping)
        return;
    fprintf(stderr, "oshrun: %s received; stopping all PEs\n", strsignal(sig));
    job->status = 128 + sig;
    stop_all(job);
}

static void reap_ended(struct job *job)
{
    int st;
    pid_t pid;
    while (job->alive > 0 && (pid = waitpid(-1, &st, WNOHANG)) > 0)
        if (pe_of(job, pid) >= 0)
            pe_ended(job, pe_of(job, pid), st);
}

static int run(struct job *job)
{
    pid_t self = getpid();
    sigset_t waited;
    block_job_signals(&waited);
    job->pids = calloc(job->npes, sizeof(pid_t));
    for (int pe = 0; pe < job->npes && !pending_stop(); pe++) {
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
    if (pending_stop())
        interrupted(job, pending_stop());
    reap_ended(job);   /* a PE may have ended before SIGCHLD was waited for */
    while (job->alive > 0) {
        int sig = sigwaitinfo(&waited, NULL);
        if (sig == SIGCHLD)
            reap_ended(job);
        else if (sig > 0)
            interrupted(job, sig);
    }
    return job->status;
}

/* ==== Handing a multi-host job to the site's launcher (issue 7) ==========
 * `oshrun --host h1:2,h2:2 -np 4 prog`, `oshrun --hostfile F ...`, or oshrun
 * inside a Slurm allocation of several nodes: Shoal starts no processes on
 * other hosts itself.  It execs the installed launcher (srun --mpi=pmix,
 * prterun, Open MPI's mpirun, MPICH's mpiexec.hydra), whose PMIx or PMI the
 * PEs then read.  SHOAL_LAUNCHER names one (or a path).  Without a host list
 * and outside Slurm none of this runs: the single-host path above is used. */

struct handover {
    const char *np, *hosts, *hostfile, *map, *bind;
    char **xvars;           /* -x arguments */
    int nx;
    char **prog;            /* program and its arguments */
};

static bool on_path(const char *name, char *full, size_t len)
{
    if (strchr(name, '/')) {
        snprintf(full, len, "%s", name);
        return access(full, X_OK) == 0;
    }
    const char *path = getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin";
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(full, len, "%.*s/%s", (int)n, p, name);
        if (n && access(full, X_OK) == 0)
            return true;
        p += n + (p[n] == ':');
    }
    return false;
}

static bool in_slurm_allocation(void)
{
    const char *nodes = getenv("SLURM_JOB_NUM_NODES") ? getenv("SLURM_JOB_NUM_NODES") : getenv("SLURM_NNODES");
    return getenv("SLURM_JOB_ID") && nodes && atoi(nodes) > 1;
}

/* The options oshrun knows, with a host list among them; 0 when this is not a handover. */
static int handover_parse(int argc, char **argv, struct handover *h)
{
    int i = 1;
    h->xvars = calloc(argc, sizeof *h->xvars);
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        bool has_val = i + 1 < argc;
        if (!strcmp(a, "--")) {
            i++;
            break;
        } else if ((!strcmp(a, "-np") || !strcmp(a, "-n") || !strcmp(a, "--np") || !strcmp(a, "-N")) && has_val) {
            h->np = argv[++i];
        } else if ((!strcmp(a, "--host") || !strcmp(a, "-host") || !strcmp(a, "--hosts") || !strcmp(a, "-H")) &&
                   has_val) {
            h->hosts = argv[++i];
        } else if ((!strcmp(a, "--hostfile") || !strcmp(a, "-hostfile") || !strcmp(a, "--machinefile")) &&
                   has_val) {
            h->hostfile = argv[++i];
        } else if (!strcmp(a, "--map-by") && has_val) {
            h->map = argv[++i];
        } else if (!strcmp(a, "--bind-to") && has_val) {
            h->bind = argv[++i];
        } else if (!strcmp(a, "-x") && has_val) {
            h->xvars[h->nx++] = argv[++i];
        } else if (profile_option(a) && has_val) {   /* passed on as -x NAME=VALUE */
            const char *var = profile_option(a), *val = argv[++i];
            char *kv = malloc(strlen(var) + strlen(val) + 2);
            sprintf(kv, "%s=%s", var, val);
            h->xvars[h->nx++] = kv;
        } else if (strcmp(a, "--oversubscribe") != 0) {
            return 0;   /* an option only the single-host path knows (or a mistake it reports) */
        }
    }
    h->prog = argv + i;
    return i < argc && (h->hosts || h->hostfile || in_slurm_allocation());
}

static const char *pick_launcher(char *full, size_t len)
{
    const char *forced = getenv("SHOAL_LAUNCHER");
    if (forced && *forced)
        return on_path(forced, full, len) ? full : NULL;
    static const char *const order[] = {"prterun", "mpirun.openmpi", "mpirun", "mpiexec.hydra"};
    if (in_slurm_allocation() && on_path("srun", full, len))
        return full;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (on_path(order[i], full, len))
            return full;
    return NULL;
}

/* Environment variables the PEs need on the other hosts: Open MPI's mpirun
 * forwards only those named with -x. */
static bool forwarded(const char *kv)
{
    static const char *const prefixes[] = {"SHMEM_", "SMA_", "SHOAL_", "FI_", "OMP_"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (!strncmp(kv, prefixes[i], strlen(prefixes[i])))
            return true;
    return false;
}

static int handover_exec(const struct handover *h, const char *launcher)
{
    extern char **environ;
    const char *base = strrchr(launcher, '/') ? strrchr(launcher, '/') + 1 : launcher;
    bool slurm = strstr(base, "srun") != NULL, hydra = strstr(base, "hydra") != NULL;
    size_t nenv = 0;
    while (environ[nenv])
        nenv++;
    char **av = calloc(32 + 2 * (nenv + 2 * (size_t)h->nx), sizeof *av);
    int n = 0;
    av[n++] = (char *)launcher;
    for (int i = 0; i < h->nx; i++) {   /* -x NAME=VALUE: set here, so every launcher passes it on */
        char *eq = strchr(h->xvars[i], '=');
        if (eq) {
            *eq = '\0';
            setenv(h->xvars[i], eq + 1, 1);
        }
    }
    if (slurm) {
        av[n++] = "--mpi=pmix";
        av[n++] = "-K1";   /* a PE that fails ends the job, as under oshrun itself (not KillOnBadExit=0) */
        if (h->np)
            av[n++] = "-n", av[n++] = (char *)h->np;
        if (h->map)
            av[n++] = !strcmp(h->map, "node") ? "--distribution=cyclic" : "--distribution=block";
        if (h->hosts)
            av[n++] = "--nodelist", av[n++] = (char *)h->hosts;   /* plain names; counts come from -n */
        if (h->bind)
            av[n++] = !strcmp(h->bind, "none") ? "--cpu-bind=none" : "--cpu-bind=cores";
    } else if (hydra) {
        if (h->np)
            av[n++] = "-n", av[n++] = (char *)h->np;
        if (h->hosts)
            av[n++] = "-hosts", av[n++] = (char *)h->hosts;
        if (h->hostfile)
            av[n++] = "-f", av[n++] = (char *)h->hostfile;
        if (h->map && !strcmp(h->map, "node"))
            av[n++] = "-ppn", av[n++] = "1";
        if (h->bind)
            av[n++] = "-bind-to", av[n++] = (char *)h->bind;
    } else {   /* Open MPI's mpirun / PRRTE's prterun */
        if (h->np)
            av[n++] = "-np", av[n++] = (char *)h->np;
        if (h->hosts)
            av[n++] = "--host", av[n++] = (char *)h->hosts;
        if (h->hostfile)
            av[n++] = "--hostfile", av[n++] = (char *)h->hostfile;
        if (h->map)
            av[n++] = "--map-by", av[n++] = (char *)h->map;
        if (h->bind)
            av[n++] = "--bind-to", av[n++] = (char *)h->bind;
        for (int i = 0; i < h->nx; i++)
            av[n++] = "-x", av[n++] = h->xvars[i];   /* NAME (its value was set above) */
        for (size_t i = 0; i < nenv; i++) {
            if (forwarded(environ[i])) {
                av[n++] = "-x";
                av[n++] = strndup(environ[i], strcspn(environ[i], "="));
            }
        }
    }
    for (char **p = h->prog; *p; p++)
        av[n++] = *p;
    av[n] = NULL;
    if (getenv("SHOAL_LAUNCHER_SHOW")) {
        for (int i = 0; av[i]; i++)
            fprintf(stderr, "%s%s", i ? " " : "oshrun: ", av[i]);
        fprintf(stderr, "\n");
    }
    execv(launcher, av);
    fprintf(stderr, "oshrun: cannot run %s: %s\n", launcher, strerror(errno));
    return 127;
}

/* -1: not a multi-host job (go on with the single-host path); else the
 * exit status (only when the launcher could not be started). */
static int handover(int argc, char **argv)
{
    struct handover h = {0};
    if (!handover_parse(argc, argv, &h)) {
        free(h.xvars);   /* nothing left for LeakSanitizer to report at exit */
        return -1;
    }
    char full[PATH_MAX];
    const char *launcher = pick_launcher(full, sizeof full);
    if (!launcher) {
        fprintf(stderr, "oshrun: a job on several hosts needs the site's launcher, and none was found "
                        "(srun, prterun, mpirun, mpiexec.hydra%s%s); install one (Debian: openmpi-bin) or "
                        "set SHOAL_LAUNCHER to its path\n",
                getenv("SHOAL_LAUNCHER") ? "; SHOAL_LAUNCHER=" : "",
                getenv("SHOAL_LAUNCHER") ? getenv("SHOAL_LAUNCHER") : "");
        return 127;
    }
    return handover_exec(&h, launcher);
}
/* ==== end of the handover ================================================ */

int main(int argc, char **argv)
{
    struct job job = {0};
    int handed = handover(argc, argv);   /* several hosts: the site's launcher takes over */
    if (handed >= 0)
        return handed;
    if (parse_args(argc, argv, &job) != 0)
        return 2;
    if (create_ctl(&job) != 0) {
        fprintf(stderr, "oshrun: cannot create the control block: %s\n", strerror(errno));
        return 1;
    }
    int status = run(&job);
    free(job.pids);
    return status;
}
