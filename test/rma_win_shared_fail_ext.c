/* rma_win_shared_fail_ext: MPI_Win_allocate_shared whose shared memory cannot be made (rank 0) or mapped (the last rank), and MPI_Win_change_comm whose newcomer cannot map a shared window's memory, because that rank may open no more files (RLIMIT_NOFILE): MPI_ERR_RMA_SHARED on every rank under MPI_ERRORS_RETURN, no window, descriptor or mapping left behind (the changed window unchanged), and the job goes on with a working shared window. */
/* shmpi-test: np=1,2,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <dirent.h>
#include <sys/resource.h>

static int rank, size;

/* Descriptors this process has open (the listing's own left out). */
static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    CHECK(d, "/proc/self/fd: %s", strerror(errno));
    int n = 0;
    while (readdir(d))
        n++;
    closedir(d);
    return n - 3; /* ".", "..", and the listing's descriptor */
}

/* Mappings of shmpi's window memory files in this process. */
static int window_mappings(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f, "/proc/self/maps: %s", strerror(errno));
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strstr(line, "memfd:shmpi-win") != NULL;
    fclose(f);
    return n;
}

/* From now on this process can open no file: the limit becomes its
   lowest free descriptor.  Returns the limit to restore. */
static struct rlimit starve_fds(void)
{
    struct rlimit old, low;
    CHECK(getrlimit(RLIMIT_NOFILE, &old) == 0, "getrlimit: %s",
          strerror(errno));
    int fd = open("/dev/null", O_RDONLY);
    CHECK(fd >= 0, "/dev/null: %s", strerror(errno));
    close(fd);
    low = (struct rlimit){(rlim_t)fd, old.rlim_max};
    CHECK(setrlimit(RLIMIT_NOFILE, &low) == 0, "setrlimit: %s",
          strerror(errno));
    return old;
}

/* Stores to its own part of a new shared window, loads the left
   neighbour's. */
static void shared_window_works(void)
{
    int *mine, *left;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_shared(sizeof(int), sizeof(int),
                                      MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                                      &win));
    MPI_Aint bytes;
    int unit, l = (rank + size - 1) % size;
    CHECK_MPI(MPI_Win_shared_query(win, l, &bytes, &unit, &left));
    CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    *mine = 1000 + rank;
    CHECK_MPI(MPI_Win_sync(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_sync(win));
    CHECK(*left == 1000 + l, "rank %d's part holds %d", l, *left);
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Win_free(&win));
}

/* What a call that failed must leave: the descriptors and window
   mappings there were before it. */
static void nothing_left(int fds, int maps, const char *what)
{
    CHECK(open_fds() == fds, "%s: %d descriptors open, %d before", what,
          open_fds(), fds);
    CHECK(window_mappings() == maps, "%s: %d window mappings, %d before",
          what, window_mappings(), maps);
}

/* MPI_Win_allocate_shared while rank `starved` can open no file: rank 0
   cannot make the memory file, another rank cannot open rank 0's. */
static void cannot_share(int starved)
{
    int fds = open_fds(), maps = window_mappings();
    struct rlimit saved = {0, 0};
    if (rank == starved)
        saved = starve_fds();
    MPI_Win win = MPI_WIN_NULL;
    int *base = NULL;
    int rc = MPI_Win_allocate_shared(4096, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                                     &base, &win);
    if (rank == starved)
        CHECK(setrlimit(RLIMIT_NOFILE, &saved) == 0, "setrlimit: %s",
              strerror(errno));
    CHECK_CLASS(rc, MPI_ERR_RMA_SHARED);
    CHECK(win == MPI_WIN_NULL, "rank %d starved: a failed call made a window",
          starved);
    nothing_left(fds, maps, starved == 0 ? "rank 0 starved"
                                         : "the last rank starved");
}

/* MPI_Win_change_comm to MPI_COMM_WORLD of a shared window of the other
   ranks, whose memory the last rank, new to it, cannot open. */
static void cannot_join(void)
{
    int newcomer = rank == size - 1;
    MPI_Comm members;
    MPI_Win win;
    int *base;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, newcomer, 0, &members));
    if (newcomer) /* a one-process window without memory */
        CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_SELF, &win));
    else
        CHECK_MPI(MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, members,
                                          &base, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    int fds = open_fds(), maps = window_mappings();
    struct rlimit saved = {0, 0};
    if (newcomer)
        saved = starve_fds();
    int rc = MPI_Win_change_comm(MPI_COMM_WORLD, 0, win);
    if (newcomer)
        CHECK(setrlimit(RLIMIT_NOFILE, &saved) == 0, "setrlimit: %s",
              strerror(errno));
    CHECK_CLASS(rc, MPI_ERR_RMA_SHARED);
    nothing_left(fds, maps, "MPI_Win_change_comm");
    MPI_Group g;
    int n;
    CHECK_MPI(MPI_Win_get_group(win, &g));
    CHECK_MPI(MPI_Group_size(g, &n));
    CHECK(n == (newcomer ? 1 : size - 1), "the failed change left a group "
          "of %d", n);
    MPI_Group_free(&g);
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Comm_free(&members);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    shared_window_works(); /* whatever MPI opens once is open now */
    cannot_share(0);
    if (size > 1) {
        cannot_share(size - 1);
        cannot_join();
    }
    shared_window_works();
    MPI_Finalize();
    if (rank == 0)
        printf("rma_win_shared_fail_ext: ok\n");
    return 0;
}
