/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * thread_multiple.h - what the MPI_THREAD_MULTIPLE tests (test/thread_*.c
 * with the `threads` word) share, after check.h:
 *
 *   mt_init(&argc, &argv)      MPI_Init_thread(MPI_THREAD_MULTIPLE), and
 *                              CHECK that MULTIPLE was provided: these
 *                              programs test nothing else, so a library
 *                              that provides less fails them here
 *   mt_run(n, fn, args, size)  runs fn(args + i * size) in n threads at
 *                              once, i = 0..n-1, and joins them; a pthread
 *                              barrier in the threads' start makes them
 *                              enter their first MPI call together
 *   mt_together()              that barrier, for the threads' own use
 *                              between phases (all n threads of mt_run)
 *
 * Standard MPI and POSIX threads only (make check-ref builds them with
 * -pthread too).
 */
#ifndef SHMPI_TEST_THREAD_MULTIPLE_H
#define SHMPI_TEST_THREAD_MULTIPLE_H

#include <pthread.h>

static inline void mt_init(int *argc, char ***argv)
{
    int provided = -1;
    CHECK_MPI(MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE,
          "MPI_Init_thread(MPI_THREAD_MULTIPLE) provided %d, not "
          "MPI_THREAD_MULTIPLE (%d)", provided, MPI_THREAD_MULTIPLE);
}

static pthread_barrier_t mt_barrier_;

static inline void mt_together(void)
{
    int rc = pthread_barrier_wait(&mt_barrier_);
    CHECK(rc == 0 || rc == PTHREAD_BARRIER_SERIAL_THREAD,
          "pthread_barrier_wait: %d", rc);
}

struct mt_start_ {
    void *(*fn)(void *);
    void *arg;
};

static void *mt_start_(void *p)
{
    struct mt_start_ *s = p;
    mt_together();
    return s->fn(s->arg);
}

static inline void mt_run(int n, void *(*fn)(void *), void *args, size_t size)
{
    pthread_t t[64];
    struct mt_start_ s[64];
    CHECK(n > 0 && n <= 64, "mt_run: %d threads", n);
    CHECK(pthread_barrier_init(&mt_barrier_, NULL, (unsigned)n) == 0,
          "pthread_barrier_init");
    for (int i = 0; i < n; i++) {
        s[i] = (struct mt_start_){fn, (char *)args + (size_t)i * size};
        CHECK(pthread_create(&t[i], NULL, mt_start_, &s[i]) == 0,
              "pthread_create");
    }
    for (int i = 0; i < n; i++)
        CHECK(pthread_join(t[i], NULL) == 0, "pthread_join");
    pthread_barrier_destroy(&mt_barrier_);
}

#endif
