/* thread_solo_end: under MPI_THREAD_MULTIPLE the main thread of each rank streams windows of nonblocking messages alone, and a second thread started in the middle of that stream joins it on the same communicator (another tag) and on a dup of it; every payload arrives, and in order, on both threads. */
/* shmpi-test: np=2 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "thread_multiple.h"

enum { WINDOW = 32, WINDOWS = 3000, JOIN_AT = 200, HELPER_WINDOWS = 1000 };

struct stream {
    MPI_Comm comm;
    int tag;
    int windows;
    int rank;
};

/* rank 0 sends windows of (window, index), rank 1 receives them in
   order and checks each */
static void run_stream(const struct stream *s, int window_from, int window_to)
{
    int buf[WINDOW];
    MPI_Request req[WINDOW];
    for (int w = window_from; w < window_to; w++) {
        for (int j = 0; j < WINDOW; j++) {
            if (s->rank == 0) {
                buf[j] = w * WINDOW + j;
                CHECK_MPI(MPI_Isend(&buf[j], 1, MPI_INT, 1, s->tag, s->comm,
                                    &req[j]));
            } else {
                buf[j] = -1;
                CHECK_MPI(MPI_Irecv(&buf[j], 1, MPI_INT, 0, s->tag, s->comm,
                                    &req[j]));
            }
        }
        CHECK_MPI(MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE));
        if (s->rank == 1)
            for (int j = 0; j < WINDOW; j++)
                CHECK(buf[j] == w * WINDOW + j,
                      "tag %d: message %d of window %d carried %d", s->tag, j,
                      w, buf[j]);
    }
}

static void *helper(void *arg)
{
    const struct stream *s = arg;
    struct stream world = *s;
    world.comm = MPI_COMM_WORLD;
    for (int w = 0; w < s->windows; w += 10) {
        run_stream(&world, w, w + 5);
        run_stream(s, w + 5, w + 10);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int rank;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    struct stream mine = {MPI_COMM_WORLD, 1, WINDOWS, rank};
    struct stream other = {dup, 2, HELPER_WINDOWS, rank};
    run_stream(&mine, 0, JOIN_AT);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, helper, &other) == 0, "pthread_create");
    run_stream(&mine, JOIN_AT, WINDOWS);
    CHECK(pthread_join(t, NULL) == 0, "pthread_join");
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
