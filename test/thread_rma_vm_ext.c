/* thread_rma_vm_ext: under MPI_THREAD_MULTIPLE, with process_vm_readv/writev refused by a seccomp filter, four threads per rank put, get and accumulate into windows over stack memory (MPI_Win_create and an attached region of a dynamic window) at once, every access going through the target's mailbox and helper thread; every value is checked. */
/* shmpi-test: np=2,4 timeout=120 threads ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/* Window memory per rank: SLOT ints per (origin, thread) that only that
   thread writes (put, then get back), then one int every thread of
   every rank adds to (accumulate, which works element by element on a
   target reached through its mailbox). */
#define THREADS 4
#define ROUNDS 100
#define SLOT 8
#define MAXRANKS 8
#define NINTS (MAXRANKS * THREADS * SLOT + 1)

static int rank, size;

/* process_vm_readv and process_vm_writev fail with EPERM from now on, as
   in a container or under Yama's ptrace_scope 3 (rma_win_vm_denied_ext). */
static void refuse_process_vm(void)
{
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_writev, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    };
    struct sock_fprog prog = {sizeof filter / sizeof *filter, filter};
    CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0, "no_new_privs");
    CHECK(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0,
          "seccomp: %s", strerror(errno));
}

struct job {
    MPI_Win win;
    const MPI_Aint *at;        /* each rank's displacement of int 0 */
    MPI_Aint step;             /* displacement units of one int */
    int id;
};

static int value(int origin, int id, int round, int k)
{
    return ((origin * THREADS + id) * ROUNDS + round) * SLOT + k;
}

static void *work(void *arg)
{
    const struct job *j = arg;
    int one = 1;
    for (int r = 0; r < ROUNDS; r++) {
        int t = (rank + j->id + r) % size, out[SLOT], in[SLOT];
        MPI_Aint mine = j->at[t] +
                        ((MPI_Aint)rank * THREADS + j->id) * SLOT * j->step;
        for (int k = 0; k < SLOT; k++)
            out[k] = value(rank, j->id, r, k), in[k] = -1;
        CHECK_MPI(MPI_Put(out, SLOT, MPI_INT, t, mine, SLOT, MPI_INT,
                          j->win));
        CHECK_MPI(MPI_Win_flush(t, j->win));
        CHECK_MPI(MPI_Get(in, SLOT, MPI_INT, t, mine, SLOT, MPI_INT,
                          j->win));
        CHECK_MPI(MPI_Win_flush(t, j->win));
        for (int k = 0; k < SLOT; k++)
            CHECK(in[k] == out[k], "thread %d round %d: read back %d from "
                  "%d, put %d", j->id, r, in[k], t, out[k]);
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, t,
                                 j->at[t] + (NINTS - 1) * j->step, 1,
                                 MPI_INT, MPI_SUM, j->win));
    }
    /* one is this thread's stack: complete the accumulates that used it
       before it is gone (MPI-3.1 11.3) */
    CHECK_MPI(MPI_Win_flush_local_all(j->win));
    return NULL;
}

/* All threads on win over mem (NINTS ints at displacement at[r] of rank
   r), then the check of what they left in mem. */
static void exercise(MPI_Win win, int *mem, const MPI_Aint *at,
                     MPI_Aint step)
{
    for (int i = 0; i < NINTS; i++)
        mem[i] = 0;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    pthread_t th[THREADS];
    struct job jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (struct job){win, at, step, i};
        CHECK(pthread_create(&th[i], NULL, work, &jobs[i]) == 0,
              "pthread_create");
    }
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_join(th[i], NULL) == 0, "pthread_join");
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    CHECK(mem[NINTS - 1] == THREADS * ROUNDS,
          "accumulates: %d, expected %d", mem[NINTS - 1], THREADS * ROUNDS);
    for (int o = 0; o < size; o++)
        for (int id = 0; id < THREADS; id++) {
            int last = ROUNDS - 1; /* o's thread id was here last then */
            while ((o + id + last) % size != rank)
                last--;
            for (int k = 0; k < SLOT; k++) {
                int got = mem[(o * THREADS + id) * SLOT + k];
                CHECK(got == value(o, id, last, k), "slot of thread %d of "
                      "%d: %d, expected %d", id, o, got,
                      value(o, id, last, k));
            }
        }
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    refuse_process_vm();
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size <= MAXRANKS, "at most %d ranks", MAXRANKS);
    int stack[NINTS];
    MPI_Aint zero[MAXRANKS] = {0}, at[MAXRANKS], mine;
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(stack, sizeof stack, sizeof(int), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    exercise(win, stack, zero, 1);
    CHECK_MPI(MPI_Win_free(&win));

    int region[NINTS];
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_attach(win, region, sizeof region));
    CHECK_MPI(MPI_Get_address(region, &mine));
    CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, at, 1, MPI_AINT,
                            MPI_COMM_WORLD));
    exercise(win, region, at, sizeof(int)); /* disp_unit 1 */
    CHECK_MPI(MPI_Win_detach(win, region));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
