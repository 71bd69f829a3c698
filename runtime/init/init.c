/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * init.c - MPI_Init, MPI_Init_thread, MPI_Finalize and their queries.
 *
 * How this process learns its place in a job:
 *   SHMPI_RANK set     a rank started by a launcher: attach the arena whose
 *                      descriptor SHMPI_ARENA_FD names;
 *   SHMPI_NP=N set     (and no SHMPI_RANK) the in-library launch: this
 *                      process becomes the launcher of N copies of itself,
 *                      supervises them exactly as mpirun would, and exits
 *                      with the job's status - MPI_Init never returns here;
 *   neither            a singleton: a job of size 1 with its own arena.
 *
 * Which process is the rank.  The launcher starts one process per rank,
 * but that may be a wrapper script whose child is the MPI program, and a
 * rank may start programs or fork() before and after MPI_Init; all of
 * them inherit SHMPI_RANK and, before MPI_Init, the arena descriptor.
 * The rank is the first process of its tree that runs shmpi's code: at
 * its start, before main (mark_rank_process), it puts its pid in
 * SHMPI_RANK_PID, which whatever it starts inherits.  MPI_Init refuses a
 * process whose pid is not that one, and claims the rank's arena slot
 * (owner_pid: a CAS from 0), so that a second program run by a wrapper
 * cannot take a rank that is taken; a fork() of a rank is marked by an
 * atfork handler and refused at its first MPI call.  A refusal is one
 * line and the end of that process only: it touches nothing shared, so
 * the rank and the job go on.
 *
 * This room is the top of the layers (README, "Layout of the tree") and
 * the only one that calls every other.  The rooms below reach upward only
 * through what init hands base here, once, in this order (init()):
 * comm gives core the last release of a communicator
 * (shmpi_comm_init_predefined: core/objects.h), pt2pt gives the wait loop
 * its stall hook (shmpi_p2p_init), coll gives the progress engine the
 * schedules' progress hook (shmpi_nbc_init; core/hooks.h).  No MPI
 * call can run before init() returns, so none can miss a hook.
 *
 * The World Model and sessions in one process (MPI-4.0 11.3): what a
 * rank needs whichever model it uses - its place in the job, the arena,
 * its claim on its rank, every room's state - is "the runtime", brought
 * up by the first of MPI_Init, MPI_Init_thread and MPI_Session_init
 * (shmpi_init_runtime_enter) and taken down by the last of MPI_Finalize
 * and MPI_Session_finalize (shmpi_init_runtime_leave): a count of users
 * under a mutex, so that threads starting and ending sessions at once
 * agree on who is first and who is last.  Taking it down ends the
 * rank's part in the job (MPI_Finalize's barrier over MPI_COMM_WORLD,
 * the slot marked finalized), so it cannot come up again: a
 * MPI_Session_init after that is an error.  shmpi_proc.initialized and
 * .finalized say whether the runtime is up (every call's entry check);
 * MPI_Initialized and MPI_Finalized answer for the World Model alone
 * (world_init, world_final), as 11.2.1 and 11.3 ask.
 *
 * Thread levels: the runtime takes the locks of process state (mt) when
 * the call that brings it up asks for MULTIPLE; each model then gets the
 * level it asks for up to SERIALIZED, its own (MPI_Query_thread answers
 * for MPI_Init_thread, MPI_Session_get_info's "thread_level" for a
 * session), so that several levels coexist without any of them being
 * more than the library gives.
 *
 * State: this rank's is shmpi_proc (core/proc.c; core/proc.h says who
 * may touch each member); MPI_Init makes each room's part of it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "coll/coll.h"
#include "coll/sched.h"
#include "comm/comm.h"
#include "core/blocked.h"
#include "core/check.h"
#include "core/error.h"
#include "core/fence.h"
#include "core/fint.h"
#include "core/info.h"
#include "core/live.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "core/wait.h"
#include "core/lock.h"
#include "datatypes/datatype.h"
#include "init/init.h"
#include "launcher/launch.h"
#include "pt2pt/leftovers.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"
#include "rma/sync_counter.h"
#include "rma/state.h"

SHMPI_WEAK_ALIAS(Init)
SHMPI_WEAK_ALIAS(Init_thread)
SHMPI_WEAK_ALIAS(Query_thread)
SHMPI_WEAK_ALIAS(Is_thread_main)
SHMPI_WEAK_ALIAS(Finalize)
SHMPI_WEAK_ALIAS(Initialized)
SHMPI_WEAK_ALIAS(Finalized)


static _Noreturn void init_failed(const char *why)
{
    shmpi_core_fatal(MPI_ERR_OTHER, shmpi_proc.init_fn, why);
}

/* A variable of the table (core/tunables.h): 0 unset, 1 set; garbage
   ends MPI_Init with the parser's line. */
static int env_value(enum shmpi_tun_id id, uint64_t *out)
{
    char err[SHMPI_TUN_ERR];
    int r = shmpi_tun_read(id, NULL, out, err, sizeof err);
    if (r < 0)
        init_failed(err);
    return r;
}

/* Runs in every process linked with shmpi, before main; see the top. */
__attribute__((constructor)) static void mark_rank_process(void)
{
    if (!shmpi_tun_text(SHMPI_TUN_P_RANK, NULL) ||
        shmpi_tun_text(SHMPI_TUN_P_RANK_PID, NULL))
        return;
    char pid[24];
    snprintf(pid, sizeof pid, "%d", (int)getpid());
    setenv(SHMPI_ENV_RANK_PID, pid, 1);
}

/* pthread_atfork: in the child of a fork() of this rank.  It shares
   nothing with the rank but the arena, which it must not touch. */
static void forked_child(void)
{
    struct shmpi_proc *p = &shmpi_proc;
    p->forked_from = p->slot ? p->slot->pid : (int)getppid();
    atomic_store_explicit(&p->initialized, 0, memory_order_relaxed);
    p->slot = NULL;
}

/* Before MPI_Init: a program or child the rank started. */
static void check_rank_process(int rank)
{
    uint64_t owner_pid;
    if (env_value(SHMPI_TUN_P_RANK_PID, &owner_pid) &&
        owner_pid != (uint64_t)getpid())
        shmpi_core_not_the_rank(shmpi_proc.init_fn, rank, (int)owner_pid,
                     "a program or child a rank starts cannot call MPI_Init");
}

/* The first process of the rank's tree to get here is the rank. */
static void claim_rank(struct shmpi_proc *p)
{
    struct shmpi_rank_slot *s = shmpi_arena_slot(p->arena, p->rank);
    int32_t owner_pid = 0, me = (int32_t)getpid();
    /* relaxed: the CAS only picks one claimant; what the rank publishes
       later is ordered by the release store of its state */
    if (!atomic_compare_exchange_strong_explicit(&s->owner_pid, &owner_pid, me,
                                                 memory_order_relaxed,
                                                 memory_order_relaxed) &&
        owner_pid != me)
        shmpi_core_not_the_rank(shmpi_proc.init_fn, p->rank, owner_pid,
                     "that process already called MPI_Init as this rank");
}

/* The whole command line of this process, for relaunching it. */
static char **own_argv(int *argc, char ***argv)
{
    if (argc && argv && *argv && *argc > 0)
        return *argv;
    static char buf[1 << 16];
    static char *args[1024];
    FILE *f = fopen("/proc/self/cmdline", "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    int k = 0;
    for (size_t i = 0; i < n && k < 1023; i += strlen(buf + i) + 1)
        args[k++] = buf + i;
    args[k] = NULL;
    return args;
}

static _Noreturn void launch_self(int np, int *argc, char ***argv)
{
    static char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        init_failed("SHMPI_NP is set but /proc/self/exe cannot be read");
    exe[len] = '\0';
    char **args = own_argv(argc, argv);
    int n = 0;
    while (args[n])
        n++;
    char **copy = calloc((size_t)n + 1, sizeof *copy);
    if (!copy)
        init_failed("out of memory");
    memcpy(copy, args, (size_t)n * sizeof *copy);
    copy[0] = exe;
    struct shmpi_launch_opts o = {
        .np = np, .argv = copy, .bind = SHMPI_BIND_AUTO, .tool = "shmpi"};
    uint64_t v;
    if (env_value(SHMPI_TUN_BIND_TO, &v))
        o.bind = v == SHMPI_TUN_BIND_CORE ? SHMPI_BIND_CORE : SHMPI_BIND_NONE;
    o.tag_output = env_value(SHMPI_TUN_TAG_OUTPUT, &v) && v;
    o.report_bindings = env_value(SHMPI_TUN_REPORT_BINDINGS, &v) && v;
    fflush(stdout);
    fflush(stderr);
    exit(shmpi_ln_launch(&o));
}

/* A singleton is its own launcher: it reads what shapes its arena, and
   records the job-wide tunables there as a launcher does. */
static void create_arena(struct shmpi_proc *p, char *err, size_t errlen)
{
    struct shmpi_arena_params params;
    int fd;
    if (shmpi_tun_load(&p->tun, SHMPI_TUN_READERS(SHMPI_TUN_BY_LAUNCHER) |
                                    SHMPI_TUN_READERS(SHMPI_TUN_BY_RANK),
                       NULL, 0, err, errlen) != 0)
        return;
    struct shmpi_arena_header *made;
    shmpi_tun_arena_params(&p->tun, &params);
    if (shmpi_arena_create(1, (int)sysconf(_SC_NPROCESSORS_ONLN), &params,
                           &fd, &made, err, errlen) != 0)
        return;
    shmpi_tun_record(&p->tun, made);
    shmpi_arena_detach(made); /* the creator's view; a rank's follows */
    p->arena = shmpi_arena_attach(fd, 1, err, errlen);
    p->arena_fd = fd;
    p->singleton = 1;
}

static void attach_or_create_arena(struct shmpi_proc *p)
{
    char err[SHMPI_TUN_ERR];
    if (p->arena_fd >= 0)
        p->arena = shmpi_arena_attach(p->arena_fd, p->size, err, sizeof err);
    else
        create_arena(p, err, sizeof err);
    if (!p->arena)
        init_failed(err);
}

/* After the rank's slot is claimed, so that of several ranks that fail
   here only the first prints its line (core/error.c). */
static void join_tunables(struct shmpi_proc *p)
{
    char err[SHMPI_TUN_ERR];
    if (shmpi_tun_join(&p->tun, p->arena, p->oversubscribed, err,
                       sizeof err) != 0)
        init_failed(err);
}

static void find_place_in_job(struct shmpi_proc *p, int *argc, char ***argv)
{
    uint64_t rank, size, fd, np;
    if (!env_value(SHMPI_TUN_P_RANK, &rank)) {
        if (env_value(SHMPI_TUN_NP, &np))
            launch_self((int)np, argc, argv);
        p->rank = 0;
        p->size = 1;
        p->arena_fd = -1;
        return;
    }
    /* stdout is a pipe to the launcher: without this, printf output would
       appear only at exit, not line by line as on a terminal */
    setvbuf(stdout, NULL, _IOLBF, 0);
    p->rank = (int)rank;
    check_rank_process(p->rank);
    if (!env_value(SHMPI_TUN_P_SIZE, &size) || rank >= size ||
        !env_value(SHMPI_TUN_P_ARENA_FD, &fd))
        init_failed("SHMPI_RANK is set but SHMPI_SIZE or SHMPI_ARENA_FD is "
                    "missing or wrong; start ranks with mpirun");
    p->size = (int)size;
    p->arena_fd = (int)fd;
}

/* What only this process may use: a program it starts (system(),
   posix_spawn) must not take itself for this rank and join the job. */
static void hide_job_from_children(struct shmpi_proc *p)
{
    unsetenv(SHMPI_ENV_RANK);
    unsetenv(SHMPI_ENV_SIZE);
    unsetenv(SHMPI_ENV_ARENA_FD);
    unsetenv(SHMPI_ENV_RANK_PID);
    unsetenv(shmpi_tun_table[SHMPI_TUN_NP].name);
    fcntl(p->arena_fd, F_SETFD, FD_CLOEXEC);
}

/* Every level is provided.  Below MULTIPLE no call depends on which
   thread makes it and nothing is locked (one at a time is the program's
   promise); under MULTIPLE (mt) the process state is locked where
   threads share it (core/lock.h, pt2pt/lane.h).  The locks are switched
   on only by the call that brings the runtime up (bring_up sets mt
   first): switching them on later, with other threads possibly inside
   MPI, would be unsafe, so a later MPI_Init_thread or session that asks
   for MULTIPLE gets SERIALIZED. */
int shmpi_init_thread_level(int required)
{
    int max = shmpi_proc.mt ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED;
    /* the highest level not above required: a value between two levels
       asks for the lower */
    int level = required >= MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE
              : required >= MPI_THREAD_SERIALIZED ? MPI_THREAD_SERIALIZED
              : required >= MPI_THREAD_FUNNELED ? MPI_THREAD_FUNNELED
              : MPI_THREAD_SINGLE;
    return level < max ? level : max;
}

static void bring_up(struct shmpi_proc *p, int *argc, char ***argv,
                     int required)
{
    find_place_in_job(p, argc, argv);
    attach_or_create_arena(p);
    if (!p->singleton)
        claim_rank(p);
    hide_job_from_children(p);
    pthread_atfork(NULL, NULL, forked_child);
    p->slot = shmpi_arena_slot(p->arena, p->rank);
    p->slot->pid = (int32_t)getpid();
    p->oversubscribed = p->size > (int)p->arena->ncpus;
    join_tunables(p);
    shmpi_core_wait_configure(&p->tun);
    shmpi_core_check_configure(&p->tun);
    shmpi_core_fence_register();
    shmpi_rma_sync_register_kind();
    if (shmpi_comm_init_predefined(p) != 0)
        init_failed(p->open_why[0] ? p->open_why
                                          : "out of memory");
    if (shmpi_dt_compile_predefined() != MPI_SUCCESS ||
        shmpi_p2p_init() != 0 || shmpi_rma_init() != 0 ||
        shmpi_info_env_init(required) != MPI_SUCCESS)
        init_failed("out of memory");
    shmpi_nbc_init();
    p->mt = required >= MPI_THREAD_MULTIPLE;
    p->thread_level = shmpi_init_thread_level(required);
    p->main_thread = pthread_self();
    atomic_store_explicit(&p->slot->state, SHMPI_RANK_INITIALIZED,
                          memory_order_release);
    atomic_store_explicit(&p->initialized, 1, memory_order_release);
}

/* The rank's part in the job ends: sends still waiting for ring space
   go out first; after the barrier everyone is done with everyone
   else's shared state. */
static void take_down(struct shmpi_proc *p)
{
    shmpi_p2p_progress_flush_backlog();
    shmpi_p2p_bsend_drain();
    shmpi_core_blocked_finalizing();
    shmpi_coll_barrier_as(MPI_COMM_WORLD, "MPI_Finalize");
    if (shmpi_core_checking()) {
        shmpi_p2p_check_leftovers();
        shmpi_core_live_report();
    }
    atomic_store_explicit(&p->slot->state, SHMPI_RANK_FINALIZED,
                          memory_order_release);
    shmpi_fint_finalize();
    atomic_store_explicit(&p->finalized, 1, memory_order_release);
}

int shmpi_init_runtime_enter(const char *fn, int *argc, char ***argv,
                             int required)
{
    struct shmpi_proc *p = &shmpi_proc;
    if (p->forked_from)
        shmpi_core_not_initialized(fn);
    shmpi_core_mutex_lock(&p->runtime_lock);
    int up = !atomic_load_explicit(&p->finalized, memory_order_relaxed);
    if (up && p->runtime_users++ == 0) {
        p->init_fn = fn;
        bring_up(p, argc, argv, required);
    }
    shmpi_core_mutex_unlock(&p->runtime_lock);
    return up ? 0 : -1;
}

void shmpi_init_runtime_leave(void)
{
    struct shmpi_proc *p = &shmpi_proc;
    shmpi_core_mutex_lock(&p->runtime_lock);
    if (--p->runtime_users == 0)
        take_down(p);
    shmpi_core_mutex_unlock(&p->runtime_lock);
}

static int init(const char *fn, int *argc, char ***argv, int required,
                int *provided)
{
    struct shmpi_proc *p = &shmpi_proc;
    shmpi_proc.init_fn = fn;
    if (p->forked_from)
        shmpi_core_not_initialized(fn);
    if (p->world_init || p->world_final)
        init_failed(p->world_final ? "called after MPI_Finalize"
                                   : "MPI is already initialized (MPI_Init "
                                     "may be called once)");
    if (shmpi_init_runtime_enter(fn, argc, argv, required) != 0)
        init_failed("the last MPI_Session_finalize ended MPI in this "
                    "process; it cannot start again");
    /* MPI_Query_thread's and MPI_Is_thread_main's, also when a session
       brought the runtime up */
    p->thread_level = shmpi_init_thread_level(required);
    p->main_thread = pthread_self();
    atomic_store_explicit(&p->world_init, 1, memory_order_release);
    if (provided)
        *provided = p->thread_level;
    return MPI_SUCCESS;
}

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    return init("MPI_Init_thread", argc, argv, required, provided);
}

int PMPI_Init(int *argc, char ***argv)
{
    return init("MPI_Init", argc, argv, MPI_THREAD_SINGLE, NULL);
}

int PMPI_Finalize(void)
{
    struct shmpi_proc *p = &shmpi_proc;
    SHMPI_REQUIRE_INIT("MPI_Finalize");
    if (!p->world_init || p->world_final)
        shmpi_core_fatal(MPI_ERR_OTHER, "MPI_Finalize",
                         p->world_final ? "called twice"
                                        : "called without MPI_Init (a "
                                          "session ends with "
                                          "MPI_Session_finalize)");
    /* 8.7.1: first of all, MPI_COMM_SELF is freed as by MPI_Comm_free:
       its attributes' delete callbacks run, newest first, while all of
       MPI still works for them.  A failing one is reported, and the
       finalization goes on. */
    int rc = shmpi_comm_delete_attrs(MPI_COMM_SELF, "MPI_Finalize");
    atomic_store_explicit(&p->world_final, 1, memory_order_release);
    shmpi_init_runtime_leave();
    return rc;
}

int PMPI_Query_thread(int *provided)
{
    SHMPI_REQUIRE_INIT("MPI_Query_thread");
    if (!provided)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Query_thread",
                           "provided is NULL");
    *provided = shmpi_proc.thread_level;
    return MPI_SUCCESS;
}

int PMPI_Is_thread_main(int *flag)
{
    SHMPI_REQUIRE_INIT("MPI_Is_thread_main");
    if (!flag)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Is_thread_main",
                           "flag is NULL");
    *flag = pthread_equal(pthread_self(), shmpi_proc.main_thread) != 0;
    return MPI_SUCCESS;
}

int PMPI_Initialized(int *flag)
{
    if (!flag)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Initialized",
                           "flag is NULL");
    *flag = atomic_load_explicit(&shmpi_proc.world_init,
                                 memory_order_acquire);
    return MPI_SUCCESS;
}

int PMPI_Finalized(int *flag)
{
    if (!flag)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Finalized",
                           "flag is NULL");
    *flag = atomic_load_explicit(&shmpi_proc.world_final,
                                 memory_order_acquire);
    return MPI_SUCCESS;
}
