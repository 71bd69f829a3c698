/* rma_win_vm_denied_ext: with process_vm_readv/writev refused by a seccomp filter, windows over stack memory (MPI_Win_create and an attached region) still work one-sided, through the target's helper thread: get, put and concurrent accumulates. */
/* shmpi-test: np=1,2,3,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

static int rank, size;

/* process_vm_readv and process_vm_writev fail with EPERM from now on, as
   in a container or under Yama's ptrace_scope 3. */
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

/* win over `mem` (n ints at displacement at[r] of rank r's window; one
   int is `step` displacement units): read the right neighbour's, add
   1 + rank to element 0 of every rank's, put a mark into the left
   neighbour's last element. */
static void exercise(MPI_Win win, int *mem, int n, const MPI_Aint *at,
                     MPI_Aint step)
{
    for (int i = 0; i < n; i++)
        mem[i] = rank * 10000 + i;
    mem[0] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int got[64], one = 1 + rank, mark = -1 - rank;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_MPI(MPI_Get(got, n, MPI_INT, right, at[right], n, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(right, win));
    for (int i = 1; i < n; i++)
        CHECK(got[i] == right * 10000 + i, "get: [%d] = %d", i, got[i]);
    MPI_Barrier(MPI_COMM_WORLD); /* all gets done before the puts */
    for (int t = 0; t < size; t++)
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, t, at[t], 1, MPI_INT,
                                 MPI_SUM, win));
    CHECK_MPI(MPI_Put(&mark, 1, MPI_INT, left, at[left] + (n - 1) * step, 1,
                      MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(mem[0] == size * (size + 1) / 2, "accumulates: %d", mem[0]);
    CHECK(mem[n - 1] == -1 - right, "put: %d", mem[n - 1]);
}

int main(int argc, char **argv)
{
    refuse_process_vm();
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int stack[64];
    MPI_Aint *zero = calloc((size_t)size, sizeof *zero);
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(stack, sizeof stack, sizeof(int), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    exercise(win, stack, 64, zero, 1);
    CHECK_MPI(MPI_Win_free(&win));

    int region[40];
    MPI_Aint mine, *at = malloc(sizeof *at * (size_t)size);
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_attach(win, region, sizeof region));
    MPI_Get_address(region, &mine);
    MPI_Allgather(&mine, 1, MPI_AINT, at, 1, MPI_AINT, MPI_COMM_WORLD);
    exercise(win, region, 40, at, sizeof(int)); /* disp_unit 1 */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_detach(win, region));
    CHECK_MPI(MPI_Win_free(&win));
    free(at);
    free(zero);
    MPI_Finalize();
    if (rank == 0)
        printf("rma_win_vm_denied_ext: ok\n");
    return 0;
}
