/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check.h - the one helper every test program includes.
 *
 *   CHECK(cond, fmt, ...)   when cond is false: print
 *                           "rank R: file:line: message" on stderr and end
 *                           the job with MPI_Abort(MPI_COMM_WORLD, 1)
 *                           (or exit(1) outside Init..Finalize)
 *   CHECK_MPI(call)         CHECK that an MPI call returned MPI_SUCCESS
 *   CHECK_CLASS(rc, class)  CHECK that the error class of rc is class
 *   T_RC(call, want)        CHECK that a call returned the code want (the
 *                           MPI_T calls return theirs, MPI_T_ERR_...)
 *   test_dir(buf, len)      a directory every rank of this job agrees on,
 *                           for tests that need a channel outside MPI;
 *   test_dir_remove(dir)    and its removal, by one rank, once it is empty
 *   check_barrier_on(comm, name, rounds)
 *                           CHECK that MPI_Barrier on comm really waits
 *   check_barrier_with(comm, name, rounds, barrier)
 *                           the same of barrier(comm, round)
 *
 * Standard MPI only, so the same programs build with Open MPI (make
 * check-ref).
 */
#ifndef SHMPI_TEST_CHECK_H
#define SHMPI_TEST_CHECK_H

/* Every test includes this file first, so this is before any system
   header: the POSIX calls here and in the tests (nanosleep, getppid,
   ...) stay declared when a test is built with a strict -std=c11. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <mpi.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static inline int check_my_rank_(void)
{
    int init = 0, fin = 0, rank = -1;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin && MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS)
        rank = -1;
    return rank;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5), noreturn))
#endif
static inline void check_fail_(const char *file, int line, const char *cond,
                               const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    fflush(stdout);
    fprintf(stderr, "rank %d: %s:%d: %s [failed: %s]\n", check_my_rank_(),
            file, line, msg, cond);
    fflush(stderr);
    if (init && !fin)
        MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond))                                                       \
            check_fail_(__FILE__, __LINE__, #cond, __VA_ARGS__);           \
    } while (0)

static inline const char *check_err_text_(int code, char *buf)
{
    int len = 0;
    buf[0] = '\0';
    if (MPI_Error_string(code, buf, &len) != MPI_SUCCESS)
        snprintf(buf, MPI_MAX_ERROR_STRING, "code %d", code);
    return buf;
}

#define CHECK_MPI(call)                                                    \
    do {                                                                   \
        int check_rc_ = (call);                                            \
        char check_buf_[MPI_MAX_ERROR_STRING];                             \
        CHECK(check_rc_ == MPI_SUCCESS, "%s returned %d (%s)", #call,      \
              check_rc_, check_err_text_(check_rc_, check_buf_));          \
    } while (0)

/* call must return want: an MPI_T call, which calls no error handler. */
#define T_RC(call, want)                                                   \
    do {                                                                   \
        int t_rc_ = (call);                                                \
        CHECK(t_rc_ == (want), "%s returned %d, expected %s (%d)", #call,  \
              t_rc_, #want, (want));                                       \
    } while (0)

/* rc must be an error whose class is cls. */
#define CHECK_CLASS(rc, cls)                                               \
    do {                                                                   \
        int check_erc_ = (rc), check_cls_ = -1;                            \
        char check_ebuf_[MPI_MAX_ERROR_STRING];                            \
        CHECK(check_erc_ != MPI_SUCCESS, "%s succeeded, expected %s", #rc, \
              #cls);                                                       \
        CHECK_MPI(MPI_Error_class(check_erc_, &check_cls_));               \
        CHECK(check_cls_ == (cls), "%s gave class %d (%s), expected %s",   \
              #rc, check_cls_, check_err_text_(check_cls_, check_ebuf_),   \
              #cls);                                                       \
    } while (0)

/*
 * A directory shared by the ranks of this job: $TEST_TMPDIR when the test
 * harness set it (one fresh directory per run), else /tmp/mpitest-PPID
 * (every rank of a job is a child of the same launcher).  Created if
 * needed; the caller cleans up what it puts there.
 */
static inline void test_dir(char *buf, size_t len)
{
    const char *d = getenv("TEST_TMPDIR");
    if (d && *d)
        snprintf(buf, len, "%s", d);
    else
        snprintf(buf, len, "/tmp/mpitest-%ld", (long)getppid());
    if (mkdir(buf, 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "cannot create %s: %s\n", buf, strerror(errno));
        exit(1);
    }
}

/* Removes test_dir's directory if test_dir made it up (empty it first). */
static inline void test_dir_remove(const char *dir)
{
    const char *d = getenv("TEST_TMPDIR");
    if (!d || !*d)
        rmdir(dir);
}

static inline int check_barrier_blocking_(MPI_Comm comm, int round)
{
    (void)round;
    return MPI_Barrier(comm);
}

/* test/barrier.c's check, on comm, of barrier(comm, round) (which returns
   an MPI error code): a shared O_APPEND file holds exactly
   size * (round + 1) records after each barrier. */
static inline void check_barrier_with(MPI_Comm comm, const char *name,
                                      int rounds,
                                      int (*barrier)(MPI_Comm, int))
{
    int csize, crank;
    CHECK_MPI(MPI_Comm_size(comm, &csize));
    CHECK_MPI(MPI_Comm_rank(comm, &crank));
    char dir[512], path[700];
    test_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/%s.log", dir, name);
    if (crank == 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        CHECK(fd >= 0, "create %s: %s", path, strerror(errno));
        close(fd);
    }
    CHECK_MPI(MPI_Barrier(comm));
    int fd = open(path, O_RDWR | O_APPEND);
    CHECK(fd >= 0, "open %s: %s", path, strerror(errno));
    /* a named object, not a compound literal: test/cxx_api.cc includes
       this file as C++ */
    const struct timespec late = {0, 1000000};
    for (int round = 0; round < rounds; round++) {
        if (round % 16 == crank % 16) /* arrive late: 1 ms */
            nanosleep(&late, NULL);
        int rec[2] = {crank, round};
        CHECK(write(fd, rec, sizeof rec) == (ssize_t)sizeof rec, "write");
        CHECK_MPI(barrier(comm, round));
        struct stat sb;
        CHECK(fstat(fd, &sb) == 0, "fstat: %s", strerror(errno));
        long want = (long)csize * (round + 1), have = sb.st_size / sizeof rec;
        CHECK(have == want, "%s round %d: %ld records after the barrier, "
              "expected %ld", name, round, have, want);
        CHECK_MPI(MPI_Barrier(comm));
    }
    close(fd);
    if (crank == 0)
        unlink(path);
}

static inline void check_barrier_on(MPI_Comm comm, const char *name,
                                    int rounds)
{
    check_barrier_with(comm, name, rounds, check_barrier_blocking_);
}

#endif
