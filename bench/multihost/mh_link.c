/* mh_link - the link's own one-way time between two namespace hosts: an
 * 8-byte TCP ping-pong (TCP_NODELAY), no SHMEM library, so the figure is
 * the floor any library's message over this link pays.  Started by mpirun
 * as a plain program on two hosts (run_mh.sh --ppn 1,1): rank 0 listens on
 * its host's address, rank 1 connects to it.
 *   mh_link ADDRESS [ROUNDS]   prints {"op":"link one-way","value":US,"unit":"us"}, then the
 * same with the reader polling ("link one-way polled"). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "mh_clock.h"

enum { PORT = 47911, MAX_ROUNDS = 100000 };
static double t[MAX_ROUNDS];

/* polled: spin on a non-blocking read, as a library polling its sockets
 * does; otherwise the reader sleeps in read() and pays a wake-up. */
static void xfer(int fd, char *buf, int send_first, int polled)
{
    for (int k = 0; k < 2; k++) {
        if ((k == 0) == send_first) {
            if (write(fd, buf, 8) != 8)
                exit(1);
        } else {
            for (int got = 0; got < 8;) {
                ssize_t r = recv(fd, buf + got, 8 - got, polled ? MSG_DONTWAIT : 0);
                if (r < 0 && polled && (errno == EAGAIN || errno == EWOULDBLOCK))
                    continue;
                if (r <= 0)
                    exit(1);
                got += (int)r;
            }
        }
    }
}

int main(int argc, char **argv)
{
    const char *rank_s = getenv("OMPI_COMM_WORLD_RANK");
    if (argc < 2 || !rank_s) {
        fprintf(stderr, "usage: mpirun -np 2 mh_link ADDRESS [ROUNDS]\n");
        return 2;
    }
    int rank = atoi(rank_s), rounds = argc > 2 ? atoi(argv[2]) : 2000, one = 1, fd;
    if (rounds < 1 || rounds > MAX_ROUNDS)
        rounds = 2000;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(PORT)};
    inet_pton(AF_INET, argv[1], &a.sin_addr);
    if (rank == 0) {
        int ls = socket(AF_INET, SOCK_STREAM, 0);
        setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 1)) {
            perror("mh_link: bind/listen");
            return 1;
        }
        fd = accept(ls, NULL, NULL);
    } else {
        fd = socket(AF_INET, SOCK_STREAM, 0);
        int tries = 0;
        while (connect(fd, (struct sockaddr *)&a, sizeof a)) {
            if (++tries > 200) {
                perror("mh_link: connect");
                return 1;
            }
            close(fd);
            fd = socket(AF_INET, SOCK_STREAM, 0);
            usleep(20000);
        }
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char buf[8] = {0};
    static const char *names[] = {"link one-way", "link one-way polled"};
    for (int polled = 0; polled < 2; polled++) {
        for (int i = 0; i < rounds / 10; i++)   /* warm-up */
            xfer(fd, buf, rank == 0, polled);
        for (int i = 0; i < rounds; i++) {
            double t0 = now_us();
            xfer(fd, buf, rank == 0, polled);
            t[i] = (now_us() - t0) / 2;
        }
        if (rank == 0) {
            sort_times(t, (size_t)rounds);
            printf("{\"op\":\"%s\",\"value\":%.3f,\"unit\":\"us\"}\n", names[polled], t[rounds / 2]);
        }
    }
    close(fd);
    return 0;
}
