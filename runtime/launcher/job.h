/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * job.h - the launcher's private state, shared by the files of this room.
 *
 * One struct job holds everything a running job owns (ranks, pipes,
 * pidfds, the ring, the output queue, the arena), so that teardown is
 * one walk over one structure and nothing lives in globals: the launcher
 * is also linked into user programs (the in-library launch), where hidden
 * global state would be a liability.  Each file owns a slice of it:
 *
 *   launch.c   setup and teardown, the order of the steps
 *   spawn.c    starting one rank (clone, the child's side before exec)
 *   execpath.c finding the program in PATH
 *   rankenv.c  the environment every rank gets
 *   bind.c     CPU topology, core binding, --report-bindings
 *   evloop.c   the io_uring ring and the dispatch of completions
 *   iofwd.c    rank output pipes: reading and cutting into whole lines
 *   outq.c     ordered writes of those lines to our stdout/stderr
 *   signals.c  signalfd, forwarding signals, the kill grace period
 *   policy.c   judging how ranks ended, the one failure line, exit status
 *   noinit.c   ranks exiting before MPI_Init: a non-MPI job, or a failure
 *   deadlock.c the deadlock report and the hang report
 *   tree.c     the ranks' own children: process groups, subreaper, guardian
 *   say.c      the launcher's own messages
 *
 * Internal functions carry the prefix shmpi_ln_ (ln: launcher) - this
 * code lives in libmpi.a next to user code and the other rooms' code, so
 * it keeps to a name space of its own - and hidden visibility (not
 * exported from libmpi.so).
 */
#ifndef SHMPI_LAUNCHER_JOB_H
#define SHMPI_LAUNCHER_JOB_H

#include <liburing.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/types.h>
#include <time.h>

#include "launcher/launch.h"
#include "shm_arena/arena.h"

#define SHMPI_HIDDEN __attribute__((visibility("hidden")))

#define SHMPI_STREAM_BUF (64 * 1024) /* a longer line is cut here */
#define SHMPI_OUTQ_HIGH (1u << 20)   /* stop reading ranks above this */
#define SHMPI_OUTQ_LOW (1u << 18)    /* resume reading below this */
#define SHMPI_LINGER_MS 100          /* see evloop.c, lingering() */
#define SHMPI_LN_STOP_SIGNALS 6      /* signals.c's stop_signals */

/* What a completion is about: low 8 bits of user_data, index above. */
enum shmpi_ud {
    UD_READ = 1,   /* index: rank * 2 + stream */
    UD_EXIT,       /* index: rank (pidfd became readable) */
    UD_SIGNAL,     /* signalfd read */
    UD_TIMEOUT,    /* --timeout */
    UD_GRACE,      /* kill grace period after a forwarded signal */
    UD_LINGER,     /* all ranks gone, some pipe still open */
    UD_WRITE,      /* output queue write */
    UD_WRITE_POLL, /* output fd became writable again */
    UD_RECHECK,    /* noinit.c: ask again whether the job uses MPI */
    UD_WATCH,      /* deadlock.c: the deadlock and hang reports' tick */
    UD_CANCEL,     /* teardown: cancel everything */
};

/* One output pipe of one rank (stdout or stderr). */
struct shmpi_stream {
    int fd;          /* read end, -1 once closed */
    int rank;
    int dest;        /* 1 or 2: our fd the lines go to */
    bool reading;    /* a read is in flight */
    bool stalled;    /* not re-armed because the output queue is full */
    size_t len;      /* bytes held in buf (no newline among them) */
    char *buf;       /* SHMPI_STREAM_BUF bytes */
};

struct shmpi_rank {
    pid_t pid;       /* 0 = never started */
    int pidfd;       /* -1 once reaped (a zombie until the sweep, tree.c) */
    bool alive;
    bool own_group;  /* leads process group pid (tree.c) */
    struct shmpi_stream io[2];
};

/* Bytes waiting to be written to fd 1 or 2, in arrival order. */
struct shmpi_chunk {
    struct shmpi_chunk *next;
    int fd;
    size_t len, off;
    char data[];
};

struct shmpi_outq {
    struct shmpi_chunk *head, *tail;
    size_t bytes;        /* queued, not yet written */
    bool busy;           /* a write (or its poll) is in flight */
    bool broken[3];      /* writing to fd 1/2 failed: drop its output */
    bool midline;        /* the last byte queued was not a newline */
    bool abandoned;      /* stopped job, output stuck: drop the rest */
    int stalled;         /* streams waiting for the queue to shrink */
};

/* CPU topology and the plan for binding (bind.c); not comm's struct
   shmpi_topo, the topology of a communicator. */
struct shmpi_ln_topo {
    size_t setsize;      /* bytes of each cpu_set_t below */
    cpu_set_t *allowed;  /* the launcher's affinity */
    int ncpus;           /* CPUs in allowed */
    int ncores;          /* 0 = not read (binding not needed) */
    cpu_set_t **cores;   /* [ncores]: allowed CPUs of each core */
    bool bind;           /* ranks are bound: rank i -> core i % ncores */
};

/* What the child needs between clone and exec (spawn.c). */
struct shmpi_spawn_args {
    const char *path;
    char **argv, **envp;
    int in_fd;           /* -1: inherit our stdin */
    int out_fd, err_fd, arena_fd;
    const cpu_set_t *cpus; /* NULL: not bound */
    size_t setsize;
    const struct rlimit *nofile; /* NULL: leave the limit alone */
    pid_t launcher;
    bool new_group;              /* setpgid(0, 0): lead a process group */
    int32_t *pid_slot;           /* the rank's arena slot: its pid */
    volatile int exec_errno;     /* set by the child if exec failed */
};

/* The ranks' process groups, in memory shared with the guardian. */
struct shmpi_guard_list {
    _Atomic int32_t count;
    int32_t group[];     /* [np] */
};

/* The processes of the job besides the ranks (tree.c). */
#define SHMPI_TREE_BEFORE 64
struct shmpi_tree {
    bool started;        /* shmpi_ln_tree_start ran */
    pid_t guardian;      /* 0: none */
    int guard_fd;        /* write end of the guardian's pipe, -1 */
    struct shmpi_guard_list *list; /* shared with the guardian */
    size_t list_bytes;
    bool had_children;   /* we had children before the job (in-library) */
    pid_t before[SHMPI_TREE_BEFORE]; /* those, and the guardian */
    int nbefore;
    bool subreaper_set;  /* we made ourselves a child subreaper */
};

/* deadlock.c: the reports' timer and what it remembers. */
struct shmpi_ln_watch {
    long deadlock_ms;    /* SHMPI_DEADLOCK_MS, 0: off */
    uint64_t hang_ns;    /* SHMPI_HANG_REPORT, 0: off */
    long tick_ms;        /* the scan's period */
    struct __kernel_timespec ts;
    bool armed;
    uint64_t *snap;      /* [np]: each rank's quiet key at the last scan */
    bool snap_valid;     /* every rank was quiet at the last scan */
    uint64_t snap_ns;    /* since when the keys have been as in snap */
    uint64_t *hung;      /* [np]: since_ns of the wait last reported */
    uint64_t *asked;     /* bit r: rank r was asked for its lines */
    bool asking;         /* waiting for those lines */
    bool deciding;       /* ... for a deadlock report (else hangs) */
    int ask_ticks;
};

struct shmpi_job {
    const struct shmpi_launch_opts *opts;
    const char *tool;
    int np;
    struct shmpi_rank *ranks;
    int started;         /* ranks forked so far */
    bool launching;      /* ranks are still being started: no sweep yet */
    int alive;           /* started and not yet reaped */
    int open_streams;    /* output pipes not yet at EOF */

    char *path;          /* the program, resolved in PATH */
    char **envp;         /* rankenv.c; rank_var is rewritten per rank */
    char rank_var[32], size_var[32], fd_var[32];
    struct shmpi_ln_topo topo;
    struct shmpi_tree tree;
    bool tty_stdin;      /* rank 0 reads a terminal: keep it in our group */
    int arena_fd, devnull;
    struct shmpi_arena_header *hdr;
    void *stack;         /* for the clone()d child until it execs */
    struct rlimit nofile_orig;
    bool nofile_raised;

    struct io_uring ring;
    bool ring_ok;
    unsigned inflight;   /* SQEs prepared whose CQE has not been seen */
    struct shmpi_outq out;

    int sigfd;
    sigset_t sigs, old_mask;
    struct sigaction old_chld;
    bool chld_reset;
    /* signals.c: the stop signals' actions before pass_to_launcher, and
       which ones it replaced (put back by shmpi_ln_signals_restore) */
    struct sigaction old_stop[SHMPI_LN_STOP_SIGNALS];
    bool stop_forwarded[SHMPI_LN_STOP_SIGNALS];
    struct signalfd_siginfo siginfo;

    struct timespec t0;  /* when shmpi_ln_launch started (CLOCK_MONOTONIC) */
    double timeout_s;
    int grace_ms;
    struct shmpi_tun_set tun; /* what the launcher and the ranks read */
    struct __kernel_timespec timeout_ts, grace_ts, linger_ts;
    bool linger_armed;
    bool linger_heard;   /* a read brought data since linger was armed */

    int noinit_rank;     /* first rank that exited 0 before MPI_Init */
    long recheck_ms;     /* noinit.c */
    struct __kernel_timespec recheck_ts;
    bool recheck_armed;

    struct shmpi_ln_watch watch;

    bool decided;        /* status below is final */
    int status;
    char verdict[400];   /* the failure line, printed after all output */
    bool verdict_pending;
    int named;           /* the rank the verdict names, -1: none */
    int others_failed;   /* ranks besides it that failed by themselves */
    int stop_signal;     /* a signal made us stop the job (0 = none) */
    bool stopping;       /* signal or timeout: output may be given up */
    bool killed;         /* SIGKILL sent to every rank */
};

/* launch.c */
SHMPI_HIDDEN bool shmpi_ln_finished(const struct shmpi_job *j);

/* say.c */
SHMPI_HIDDEN int shmpi_ln_write_all(int fd, const char *p, size_t n);
SHMPI_HIDDEN void shmpi_ln_say(const char *tool, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
SHMPI_HIDDEN void shmpi_ln_job_say(struct shmpi_job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* execpath.c */
SHMPI_HIDDEN int shmpi_ln_find_program(const char *name, char **path_out);

/* rankenv.c */
SHMPI_HIDDEN int shmpi_ln_env_build(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_env_set_rank(struct shmpi_job *j, int rank);

/* bind.c */
SHMPI_HIDDEN int shmpi_ln_topo_read(struct shmpi_ln_topo *t);
SHMPI_HIDDEN int shmpi_ln_topo_cores(struct shmpi_ln_topo *t);
SHMPI_HIDDEN void shmpi_ln_topo_plan(struct shmpi_ln_topo *t,
                                     enum shmpi_bind b, int np);
SHMPI_HIDDEN const cpu_set_t *
shmpi_ln_topo_rank_cpus(const struct shmpi_ln_topo *t, int rank);
SHMPI_HIDDEN void shmpi_ln_topo_report(const struct shmpi_ln_topo *t, int np,
                                       const char *tool);
SHMPI_HIDDEN void shmpi_ln_topo_free(struct shmpi_ln_topo *t);

/* spawn.c */
SHMPI_HIDDEN void *shmpi_ln_spawn_stack(void);
SHMPI_HIDDEN void shmpi_ln_spawn_stack_free(void *stack);
SHMPI_HIDDEN pid_t shmpi_ln_spawn(struct shmpi_spawn_args *a, void *stack);

/* evloop.c */
SHMPI_HIDDEN int shmpi_ln_loop_init(struct shmpi_job *j);
SHMPI_HIDDEN struct io_uring_sqe *shmpi_ln_loop_sqe(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_loop_tag(struct io_uring_sqe *sqe,
                                    enum shmpi_ud kind, unsigned index);
SHMPI_HIDDEN void shmpi_ln_loop_run(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_loop_poll(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_loop_quiesce(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_loop_timeout(struct shmpi_job *j, enum shmpi_ud kind,
                                        struct __kernel_timespec *ts, long ms);

/* iofwd.c */
SHMPI_HIDDEN int shmpi_ln_iofwd_pipes(struct shmpi_job *j, int rank,
                                      int write_ends[2]);
SHMPI_HIDDEN void shmpi_ln_iofwd_arm(struct shmpi_job *j,
                                     struct shmpi_stream *s);
SHMPI_HIDDEN void shmpi_ln_iofwd_read_done(struct shmpi_job *j, unsigned index,
                                           int res);
SHMPI_HIDDEN void shmpi_ln_iofwd_resume(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_iofwd_abandon(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_iofwd_free(struct shmpi_job *j);

/* outq.c */
SHMPI_HIDDEN struct shmpi_chunk *shmpi_ln_chunk_new(int fd, size_t cap);
SHMPI_HIDDEN void shmpi_ln_outq_add(struct shmpi_job *j, struct shmpi_chunk *c);
SHMPI_HIDDEN void shmpi_ln_outq_write_done(struct shmpi_job *j, int res);
SHMPI_HIDDEN void shmpi_ln_outq_poll_done(struct shmpi_job *j, int res);
SHMPI_HIDDEN bool shmpi_ln_outq_full(const struct shmpi_job *j);
SHMPI_HIDDEN bool shmpi_ln_outq_idle(const struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_outq_abandon(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_outq_free(struct shmpi_job *j);

/* signals.c */
SHMPI_HIDDEN int shmpi_ln_signals_take(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_signals_arm(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_signals_restore(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_signal_seen(struct shmpi_job *j, int res);
SHMPI_HIDDEN void shmpi_ln_grace_over(struct shmpi_job *j, int res);
SHMPI_HIDDEN bool shmpi_ln_signal_pending(const struct shmpi_job *j, int sig);

/* policy.c */
SHMPI_HIDDEN void shmpi_ln_rank_exited(struct shmpi_job *j, int rank, int res);
SHMPI_HIDDEN void shmpi_ln_fail(struct shmpi_job *j, int status,
                                const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
SHMPI_HIDDEN void shmpi_ln_kill_all(struct shmpi_job *j, int sig);
SHMPI_HIDDEN void shmpi_ln_verdict_flush(struct shmpi_job *j, bool direct);
SHMPI_HIDDEN void shmpi_ln_timed_out(struct shmpi_job *j, int res);
SHMPI_HIDDEN void shmpi_ln_reap_all(struct shmpi_job *j);
SHMPI_HIDDEN int shmpi_ln_check_verdict(struct shmpi_job *j);

/* tree.c */
SHMPI_HIDDEN int shmpi_ln_tree_start(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_tree_rank(struct shmpi_job *j, int rank);
SHMPI_HIDDEN void shmpi_ln_tree_sweep(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_tree_end(struct shmpi_job *j);

/* noinit.c */
SHMPI_HIDDEN void shmpi_ln_noinit_exit(struct shmpi_job *j, int rank);
SHMPI_HIDDEN void shmpi_ln_noinit_check(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_noinit_timer(struct shmpi_job *j, int res);

/* deadlock.c */
SHMPI_HIDDEN void shmpi_ln_watch_start(struct shmpi_job *j);
SHMPI_HIDDEN void shmpi_ln_watch_tick(struct shmpi_job *j, int res);
SHMPI_HIDDEN void shmpi_ln_watch_free(struct shmpi_job *j);

#endif
