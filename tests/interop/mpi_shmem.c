/* MPI and OpenSHMEM in one program (the spec's interoperability annex).
 * usage: mpi_shmem INIT FINI   INIT, FINI: "mpi" or "shmem", whichever starts / ends first.
 * Checks that PE numbers equal MPI_COMM_WORLD ranks, the annex's two ways of
 * mapping between them, and that both libraries move data correctly in
 * turn: an MPI allreduce of the PEs' numbers and a ring of shmem puts, each
 * checked against the value computed here.  PE 0 prints "interop: ok"
 * when every PE passed. */
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "interop: PE %d: ", shmem_my_pe());              \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
            failures++;                                                      \
        }                                                                    \
    } while (0)

static void start(const char *first, int *argc, char ***argv)
{
    if (!strcmp(first, "mpi")) {
        MPI_Init(argc, argv);
        shmem_init();
    } else {
        shmem_init();
        MPI_Init(argc, argv);
    }
}

static void finish(const char *first)
{
    if (!strcmp(first, "mpi")) {
        MPI_Finalize();
        shmem_finalize();
    } else {
        shmem_finalize();
        MPI_Finalize();
    }
}

/* Shoal's promise: PE number == MPI_COMM_WORLD rank. */
static void same_numbers(int me, int npes)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(rank == me, "MPI_COMM_WORLD rank %d, PE %d", rank, me);
    CHECK(size == npes, "MPI_COMM_WORLD size %d, %d PEs", size, npes);
}

/* Annex, first way: a communicator whose ranks are the PE numbers. */
static void comm_by_pe(int me, int npes)
{
    MPI_Comm shmem_comm;
    int rank, size;
    MPI_Comm_split(MPI_COMM_WORLD, 0, me, &shmem_comm);
    MPI_Comm_rank(shmem_comm, &rank);
    MPI_Comm_size(shmem_comm, &size);
    CHECK(rank == me && size == npes, "split communicator: rank %d of %d, PE %d of %d", rank, size, me, npes);
    MPI_Comm_free(&shmem_comm);
}

/* Annex, second way: every PE learns every PE's MPI rank by a collect. */
static void ranks_by_collect(int npes)
{
    static int myrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    int *ranks = shmem_calloc(npes, sizeof(int));
    shmem_int_collect(SHMEM_TEAM_WORLD, ranks, &myrank, 1);
    for (int i = 0; i < npes; i++)
        CHECK(ranks[i] == i, "PE %d's MPI rank came back as %d", i, ranks[i]);
    shmem_free(ranks);
}

/* Both libraries move data, one after the other. */
static void traffic(int me, int npes)
{
    long sum = 0, mine = me + 1;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == (long)npes * (npes + 1) / 2, "MPI_Allreduce gave %ld", sum);

    static long from_left[4];
    long out[4] = {me, 10L * me, -me, 7};
    shmem_long_put(from_left, out, 4, (me + 1) % npes);
    shmem_barrier_all();
    int left = (me + npes - 1) % npes;
    CHECK(from_left[0] == left && from_left[1] == 10L * left && from_left[2] == -left && from_left[3] == 7,
          "put from PE %d: %ld %ld %ld %ld", left, from_left[0], from_left[1], from_left[2], from_left[3]);

    int token = me, got = -1;
    MPI_Sendrecv(&token, 1, MPI_INT, (me + 1) % npes, 0, &got, 1, MPI_INT, left, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(got == left, "MPI_Sendrecv from rank %d gave %d", left, got);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: mpi_shmem mpi|shmem mpi|shmem (which initializes first, which finalizes first)\n");
        return 2;
    }
    const char *init_first = argv[1], *fini_first = argv[2];
    start(init_first, &argc, &argv);
    int flag = 0, initialized = 0;
    MPI_Initialized(&flag);
    shmem_query_initialized(&initialized);
    int me = shmem_my_pe(), npes = shmem_n_pes();
    CHECK(flag && initialized, "MPI_Initialized %d, shmem_query_initialized %d", flag, initialized);
    same_numbers(me, npes);
    comm_by_pe(me, npes);
    ranks_by_collect(npes);
    traffic(me, npes);

    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && all == 0)
        printf("interop: ok: %d PEs, %s initialized first, %s finalizes first\n", npes, init_first, fini_first);
    finish(fini_first);
    return all != 0;
}
