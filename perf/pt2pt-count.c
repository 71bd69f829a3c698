/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pt2pt-count.c - osu_bw's window (perf/pt2pt.c -t bw) cut into phases,
 * for counting instructions per message with callgrind: counts repeat
 * whatever the machine does, where times on this shared VM do not.
 *
 *   pt2pt-count [SIZE [WINDOW [WINDOWS [p|u|r|l]]]]   (8 64 100 p)
 *
 *   p  receiver posts WINDOW MPI_Irecv; then the sender's WINDOW MPI_Isend
 *      and MPI_Waitall; then the receiver's MPI_Waitall (every message is
 *      in its ring, each meets a posted receive)
 *   u  the sender first; the receiver takes the messages in (MPI_Iprobe of
 *      another tag) before its MPI_Irecv: every message is unexpected
 *   r  the sender first; then the receiver's MPI_Irecv and MPI_Waitall,
 *      the messages still in the ring: a receiver behind its sender
 *   l  osu_bw's order: the receiver waits while the messages arrive (the
 *      wait's polls are counted too, so this one varies from run to run)
 *
 * Phases are ordered by a flag in a page both ranks map (shm_open), not by
 * MPI calls, which would turn the progress engine outside the counted
 * functions.  The counted functions are count_isends, count_irecvs and
 * count_waitall (perf/pt2pt-count.sh passes them to callgrind).
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>

#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MAX_WINDOW 1024
static MPI_Request reqs[MAX_WINDOW];
static MPI_Status stats[MAX_WINDOW];
static char sbuf[1 << 16], rbuf[1 << 16];
static _Atomic int *flag;

__attribute__((noinline)) void count_isends(int w, int size)
{
    for (int j = 0; j < w; j++)
        MPI_Isend(sbuf, size, MPI_BYTE, 1, 5, MPI_COMM_WORLD, &reqs[j]);
}

__attribute__((noinline)) void count_irecvs(int w, int size)
{
    for (int j = 0; j < w; j++)
        MPI_Irecv(rbuf, size, MPI_BYTE, 0, 5, MPI_COMM_WORLD, &reqs[j]);
}

__attribute__((noinline)) void count_waitall(int w)
{
    MPI_Waitall(w, reqs, stats);
}

static void wait_for(int v)
{
    struct timespec t = {0, 100000};
    while (atomic_load(flag) < v)
        nanosleep(&t, NULL);
}

static void window(int rank, char mode, int w, int size, int v)
{
    int f;
    if (mode == 'l') {
        if (rank == 1) {
            count_irecvs(w, size);
            atomic_store(flag, v + 1);
            count_waitall(w);
            atomic_store(flag, v + 3);
        } else {
            wait_for(v + 1);
            count_isends(w, size);
            count_waitall(w);
        }
    } else if (mode == 'u' || mode == 'r') {
        if (rank == 0) {
            count_isends(w, size);
            count_waitall(w);
            atomic_store(flag, v + 1);
        } else {
            wait_for(v + 1);
            if (mode == 'u')
                MPI_Iprobe(0, 99, MPI_COMM_WORLD, &f, MPI_STATUS_IGNORE);
            count_irecvs(w, size);
            count_waitall(w);
            atomic_store(flag, v + 3);
        }
    } else {
        if (rank == 1) {
            count_irecvs(w, size);
            atomic_store(flag, v + 1);
            wait_for(v + 2);
            count_waitall(w);
            atomic_store(flag, v + 3);
        } else {
            wait_for(v + 1);
            count_isends(w, size);
            count_waitall(w);
            atomic_store(flag, v + 2);
        }
    }
    wait_for(v + 3);
}

int main(int argc, char **argv)
{
    /* a 5th argument "multiple": the same counts under
       MPI_THREAD_MULTIPLE with one thread (what the locks cost) */
    int multiple = argc > 5 && strcmp(argv[5], "multiple") == 0;
    int provided = MPI_THREAD_SINGLE;
    if (multiple)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int size = argc > 1 ? atoi(argv[1]) : 8;
    int w = argc > 2 ? atoi(argv[2]) : 64;
    int windows = argc > 3 ? atoi(argv[3]) : 100;
    char mode = argc > 4 ? argv[4][0] : 'p';
    if (np != 2 || size < 0 || size > (int)sizeof sbuf || w < 1 ||
        w > MAX_WINDOW || windows < 1 || (mode != 'p' && mode != 'u' && mode != 'r' &&
                                          mode != 'l') ||
        (multiple && provided != MPI_THREAD_MULTIPLE)) {
        if (rank == 0)
            fprintf(stderr, "usage (2 ranks): pt2pt-count [SIZE (<= 64K) "
                            "[WINDOW (<= 1024) [WINDOWS [p|u|r|l [multiple]]]]]"
                            " (multiple: MPI_THREAD_MULTIPLE must be "
                            "provided)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char name[64];
    int pid = rank == 0 ? (int)getpid() : 0;
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(name, sizeof name, "/pt2pt-count.%d", pid);
    int fd = rank == 0 ? shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600) : -1;
    if (rank == 0 && (fd < 0 || ftruncate(fd, 4096) != 0))
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        fd = shm_open(name, O_RDWR, 0600);
    flag = fd < 0 ? MAP_FAILED
                  : mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        shm_unlink(name);
    if (flag == MAP_FAILED)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int i = 0; i < windows; i++)
        window(rank, mode, w, size, 3 * i);
    MPI_Finalize();
    return 0;
}
