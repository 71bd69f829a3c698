/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * unit.h - what the unit tests of the lock-free structures share (the
 * test/unit_*.c programs, declared "shmpi-test: unit"): a job of forked
 * processes over one real arena, without a launcher and without MPI_Init,
 * so that one protocol is hammered alone.
 *
 *   UCHECK(cond, fmt, ...)  when cond is false: print "unit_x[p]:
 *                           file:line: message" and end this process with
 *                           status 1 (the job then fails, see unit_job)
 *   unit_shared(bytes)      zeroed MAP_SHARED memory, inherited by the
 *                           processes unit_job forks (at the same address)
 *   unit_job(n, body, arg)  creates an arena for n ranks (shm_arena), forks
 *                           n processes, makes each rank p of the job as
 *                           far as the protocols need (shmpi_proc, the
 *                           wait policy, membarrier registration,
 *                           MPI_COMM_WORLD, the pt2pt progress engine, all
 *                           idle) and runs body(p, arg) in it; returns 0
 *                           once all exited 0, else 1 (the others are
 *                           killed at the first failure)
 *   unit_threads(n, body, arg)
 *                           the same with n threads of this process, which
 *                           is rank 0 of the job: for protocols whose
 *                           process state is that of one rank (the ring,
 *                           the claim words), so that ThreadSanitizer,
 *                           which sees one process only, can watch them
 *                           (a program's --threads; see below)
 *   unit_barrier(b, n)      a barrier of the n processes, on a struct
 *                           unit_barrier in unit_shared memory
 *   unit_rand(&state)       a deterministic pseudo-random number
 *
 * Verdicts never depend on timing: each test checks invariants that hold
 * however its processes interleave.  The one clock is the watchdog: a
 * job that has not ended after UNIT_WATCHDOG_S seconds (a lost wake-up
 * or a deadlock; every test takes a few seconds) prints so and fails.
 * Built with -Iruntime against build/FLAVOR/internal.a (test/run-tests):
 * these programs use the runtime's internals, so make check-ref skips
 * them.
 *
 * Under ThreadSanitizer, the protocol's own file built with it and the
 * rest taken from the normal library, e.g.
 *   clang -fsanitize=thread -g -O1 -std=c11 -D_GNU_SOURCE -I. -Iruntime \
 *     -o /tmp/unit_ring test/unit_ring.c runtime/queues/ring.c \
 *     build/opt/internal.a -luring -lnuma -lpthread && /tmp/unit_ring --threads
 * it reports a data race where an ordering that x86 keeps anyway is
 * missing (the ring's release stores of a record's seq made relaxed: the
 * consumer's read of the record races with the producer's write).
 */
#ifndef SHMPI_TEST_UNIT_H
#define SHMPI_TEST_UNIT_H

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "comm/comm.h"
#include "core/fence.h"
#include "core/proc.h"
#include "core/tunables.h"
#include "core/wait.h"
#include "pt2pt/pt2pt.h"
#include "rma/state.h"
#include "shm_arena/arena.h"

#define UNIT_WATCHDOG_S 60
#define UNIT_MAX_PROCS 16

static const char *unit_name_ = "unit";
static _Thread_local int unit_rank_ = -1;

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5), noreturn))
#endif
static inline void unit_fail_(const char *file, int line, const char *cond,
                              const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s[%d]: %s:%d: %s (%s)\n", unit_name_, unit_rank_, file,
            line, msg, cond);
    fflush(stderr);
    _exit(1);
}

#define UCHECK(cond, ...)                                                    \
    do {                                                                     \
        if (!(cond))                                                         \
            unit_fail_(__FILE__, __LINE__, #cond, __VA_ARGS__);              \
    } while (0)

static inline void *unit_shared(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    UCHECK(p != MAP_FAILED, "mmap of %zu shared bytes: %s", bytes,
           strerror(errno));
    return p;
}

/* xorshift64: the same sequence in every process that starts from the
   same state, so that one process can check what another made. */
static inline uint64_t unit_rand(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* One poll of a loop waiting for another process found nothing: spin a
   little (it may be running on the other CPU), then yield (it may wait
   for ours: processes may outnumber CPUs, and the machine is shared). */
static inline void unit_pause(unsigned *polls)
{
    if (++*polls < 256)
        shmpi_cpu_relax();
    else
        sched_yield();
}

/* Sense-reversing: the last to arrive bumps the generation.  Yields while
   it waits, for processes may outnumber CPUs. */
struct unit_barrier {
    _Atomic uint32_t arrived;
    _Atomic uint32_t generation;
};

static inline void unit_barrier(struct unit_barrier *b, int n)
{
    uint32_t g = atomic_load_explicit(&b->generation, memory_order_acquire);
    if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) ==
        (uint32_t)n - 1) {
        atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
        atomic_store_explicit(&b->generation, g + 1, memory_order_release);
        return;
    }
    unsigned polls = 0;
    while (atomic_load_explicit(&b->generation, memory_order_acquire) == g)
        unit_pause(&polls);
}

/* Rank p of a job of n over arena a: what MPI_Init (init/init.c) sets up
   that the protocols use, and nothing that talks to a launcher. */
static inline void unit_become_rank(struct shmpi_arena_header *a, int fd,
                                    int p, int n)
{
    struct shmpi_proc *me = &shmpi_proc;
    me->rank = p;
    me->size = n;
    me->arena_fd = fd;
    me->arena = a;
    me->slot = shmpi_arena_slot(a, p);
    me->slot->pid = (int32_t)getpid();
    me->oversubscribed = n > (int)a->ncpus;
    shmpi_core_wait_configure(&me->tun);
    shmpi_core_fence_register();
    UCHECK(shmpi_comm_init_predefined(me) == 0,
           "shmpi_comm_init_predefined failed");
    UCHECK(shmpi_p2p_init() == 0, "shmpi_p2p_init failed");
    UCHECK(shmpi_rma_init() == 0, "shmpi_rma_init failed");
}

/* The arena of a job of n, made as the launcher makes it: the tunables
   read from the environment (a test may set SHMPI_SPIN_US, say) shape it
   and are recorded in it; the forked ranks inherit shmpi_proc.tun. */
static inline struct shmpi_arena_header *unit_arena(int n, int cpus, int *fd)
{
    char err[SHMPI_TUN_ERR];
    struct shmpi_arena_params params;
    struct shmpi_arena_header *a;
    unsigned readers = SHMPI_TUN_READERS(SHMPI_TUN_BY_LAUNCHER) |
                       SHMPI_TUN_READERS(SHMPI_TUN_BY_RANK);
    UCHECK(shmpi_tun_load(&shmpi_proc.tun, readers, NULL, n > cpus, err,
                          sizeof err) == 0, "%s", err);
    shmpi_tun_arena_params(&shmpi_proc.tun, &params);
    UCHECK(shmpi_arena_create(n, cpus, &params, fd, &a, err, sizeof err) == 0,
           "shmpi_arena_create: %s", err);
    shmpi_tun_record(&shmpi_proc.tun, a);
    shmpi_arena_detach(a); /* the creator's view; the ranks' follows */
    a = shmpi_arena_attach(*fd, n, err, sizeof err);
    UCHECK(a != NULL, "shmpi_arena_attach: %s", err);
    return a;
}

static pid_t unit_pids_[UNIT_MAX_PROCS];
static int unit_nprocs_;

static void unit_kill_all_(void)
{
    for (int i = 0; i < unit_nprocs_; i++)
        if (unit_pids_[i] > 0)
            kill(unit_pids_[i], SIGKILL);
}

static void unit_watchdog_(int sig)
{
    (void)sig;
    static const char m[] = "unit: the job did not end within the watchdog's "
                            "time: a lost wake-up or a deadlock\n";
    ssize_t w = write(2, m, sizeof m - 1);
    (void)w;
    unit_kill_all_();
    _exit(1);
}

static inline int unit_job(int n, void (*body)(int rank, void *arg),
                           void *arg)
{
    int fd;
    struct shmpi_arena_header *a;
    UCHECK(n >= 1 && n <= UNIT_MAX_PROCS, "%d processes", n);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    a = unit_arena(n, (int)cpus, &fd);
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    unit_nprocs_ = n;
    for (int p = 0; p < n; p++) {
        pid_t pid = fork();
        UCHECK(pid >= 0, "fork: %s", strerror(errno));
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent)
                _exit(1);
            unit_rank_ = p;
            unit_become_rank(a, fd, p, n);
            body(p, arg);
            fflush(stdout);
            _exit(0);
        }
        unit_pids_[p] = pid;
    }
    signal(SIGALRM, unit_watchdog_);
    alarm(UNIT_WATCHDOG_S);
    int failed = 0;
    for (int left = n; left > 0; left--) {
        int st;
        pid_t pid = wait(&st);
        UCHECK(pid > 0, "wait: %s", strerror(errno));
        for (int i = 0; i < n; i++)
            if (unit_pids_[i] == pid)
                unit_pids_[i] = 0;
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            if (WIFSIGNALED(st))
                fprintf(stderr, "%s: a process died of signal %d\n",
                        unit_name_, WTERMSIG(st));
            if (!failed)
                unit_kill_all_();
            failed = 1;
        }
    }
    alarm(0);
    shmpi_arena_leave(a);
    close(fd);
    return failed;
}

struct unit_thread_ {
    pthread_t id;
    int rank;
    void (*body)(int, void *);
    void *arg;
};

static void *unit_thread_main_(void *t_)
{
    struct unit_thread_ *t = t_;
    unit_rank_ = t->rank;
    t->body(t->rank, t->arg);
    return NULL;
}

/* A failed check ends the whole process with status 1. */
static inline int unit_threads(int n, void (*body)(int rank, void *arg),
                               void *arg)
{
    int fd;
    struct shmpi_arena_header *a;
    struct unit_thread_ t[UNIT_MAX_PROCS];
    UCHECK(n >= 1 && n <= UNIT_MAX_PROCS, "%d threads", n);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    a = unit_arena(n, (int)cpus, &fd);
    unit_become_rank(a, fd, 0, n);
    for (int p = 0; p < n; p++) {
        t[p] = (struct unit_thread_){.rank = p, .body = body, .arg = arg};
        UCHECK(pthread_create(&t[p].id, NULL, unit_thread_main_, &t[p]) == 0,
               "pthread_create failed");
    }
    for (int p = 0; p < n; p++)
        pthread_join(t[p].id, NULL);
    return 0;
}

/* unit_threads if the program's argument is --threads, else unit_job. */
static inline int unit_run(int argc, char **argv, int n,
                           void (*body)(int rank, void *arg), void *arg)
{
    if (argc > 1 && !strcmp(argv[1], "--threads"))
        return unit_threads(n, body, arg);
    UCHECK(argc == 1, "usage: %s [--threads]", argv[0]);
    return unit_job(n, body, arg);
}

#endif
