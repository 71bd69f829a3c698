/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * victim - the MPI program the launcher shell tests (test/NAME.sh) run.
 *
 *   victim MODE [RANK [ARG]]
 *
 * Every rank calls MPI_Init, writes its pid to $TEST_TMPDIR/pid.<rank>,
 * and waits in MPI_Barrier until all have done so; then rank RANK
 * (default 1; -1: every rank) does what MODE says while the others call MPI_Barrier again
 * (where they block until the job is torn down, unless the mode lets them
 * through).  Just before RANK acts, it writes the time of day (seconds,
 * CLOCK_REALTIME, as `date +%s.%N` prints it) to $TEST_TMPDIR/event; once
 * every rank is in place, $TEST_TMPDIR/ready appears.
 *
 * Modes:
 *   ok                 everyone finalizes; rank 0 prints "ok size N"
 *   info               each rank prints "rank R of N" and finalizes
 *   segv RANK          RANK dereferences a null pointer
 *   thread-segv RANK   RANK's main thread blocks in MPI_Recv (a message
 *                      nobody sends) while a second thread it started
 *                      makes the same bad access
 *   exit RANK CODE     RANK calls exit(CODE) without MPI_Finalize
 *   raise-kill RANK    RANK raises SIGKILL
 *   hang RANK          RANK sleeps forever (kill it from outside, or
 *                      let --timeout fire)
 *   abort RANK CODE    RANK calls MPI_Abort(MPI_COMM_WORLD, CODE)
 *   nofinalize RANK    RANK returns 0 from main without MPI_Finalize
 *   fatal RANK         RANK calls MPI_Comm_rank(MPI_COMM_WORLD, NULL)
 *                      under the default MPI_ERRORS_ARE_FATAL
 *   errors-abort RANK  RANK sets MPI_ERRORS_ABORT on MPI_COMM_SELF and
 *                      calls MPI_Comm_rank(MPI_COMM_SELF, NULL)
 *   fatal-pair RANK K  (MPI_Init_thread asks for MPI_THREAD_MULTIPLE)
 *                      RANK starts a second thread, and both fail at the
 *                      same moment (a barrier of the two): K 0 both call
 *                      MPI_Comm_rank(MPI_COMM_WORLD, NULL) under the
 *                      default MPI_ERRORS_ARE_FATAL, K 1 both call
 *                      MPI_Abort(MPI_COMM_WORLD, 3), K 2 the main thread
 *                      the former and the second thread the latter
 *   put-range RANK     every rank makes two unnamed windows, of
 *                      MPI_Win_create and MPI_Win_allocate (8 doubles),
 *                      and locks all; RANK puts 2 doubles at
 *                      displacement 7 of rank 0's MPI_Win_allocate window
 *                      (past its end) under the default fatal handler
 *   before-init RANK   RANK (known from SHMPI_RANK) calls MPI_Comm_size
 *                      before MPI_Init; the others wait in MPI_Barrier
 *   noinit RANK        RANK (known from SHMPI_RANK) returns 0 without
 *                      ever calling MPI_Init; the others wait in
 *                      MPI_Barrier
 *   hang-ignint RANK   as hang, but RANK ignores SIGINT and SIGTERM
 *   hang-threaded RANK as hang, but every process first starts a thread
 *                      that sleeps forever, before MPI_Init: under the
 *                      in-library launch, the launcher has a second
 *                      thread that does not block its signals
 *   helpers RANK HANG  RANK starts three helpers that never end by
 *                      themselves: a fork()ed copy of itself (it maps
 *                      the arena) that writes its pid to helper.fork, a
 *                      `sleep` in the background of system(), whose pid
 *                      goes to helper.sys, and one in a session of its own
 *                      (setsid), to helper.setsid; then, HANG 0: everyone
 *                      finalizes, HANG 1: RANK sleeps forever
 *   children RANK      before MPI_Init, RANK (known from SHMPI_RANK) runs
 *                      this program in mode init-only with system(), and
 *                      fork()s a child that calls MPI_Init; after it, a
 *                      fork()ed child calls MPI_Comm_rank; RANK prints
 *                      "children: system S fork F fork-after A" (their
 *                      exit statuses); everyone finalizes
 *   stack-window       every rank makes a window of an array on its stack
 *                      (peers reach it with process_vm_writev), puts its
 *                      rank into its right neighbour's, checks its own
 *                      and prints "stack-window ok"; finalizes
 *   init-only          MPI_Init, print "init-only: rank R joined", finalize
 *   exec-env           a rank (SHMPI_RANK set) execs $SHMPI_EXEC
 *                      before MPI_Init; with SHMPI_NP set, MPI_Init
 *                      makes this process the launcher of such ranks
 *   stdin              each rank reads its stdin to the end and prints
 *                      "rank R read N bytes"
 *   env NAME           each rank prints "rank R: NAME=<value>" ("unset")
 *   print LINES LEN    each rank prints LINES lines of LEN characters on
 *                      stdout and LINES/4 lines on stderr, written in
 *                      pieces with stdio unbuffered, so that a launcher
 *                      that does not reassemble lines tears them
 */
#include <mpi.h>

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int rank = -1, size = -1;
static double created[8];
static MPI_Win wins[2] = {MPI_WIN_NULL, MPI_WIN_NULL};

/* put-range's windows: the second is the one the put goes to. */
static void open_windows(void)
{
    double *base;
    MPI_Win_create(created, sizeof created, sizeof(double), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &wins[0]);
    MPI_Win_allocate(8 * sizeof(double), sizeof(double), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &wins[1]);
    MPI_Win_lock_all(0, wins[1]);
}

static void put_file(const char *name, const char *text)
{
    const char *dir = getenv("TEST_TMPDIR");
    if (!dir)
        return;
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "victim: %s: %s\n", tmp, strerror(errno));
        exit(99);
    }
    fputs(text, f);
    fclose(f);
    rename(tmp, path); /* appears whole */
}

static void wait_for_file(const char *name)
{
    const char *dir = getenv("TEST_TMPDIR");
    char path[4096];
    if (!dir)
        return;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct timespec ms = {0, 1000 * 1000};
    while (access(path, F_OK) != 0)
        nanosleep(&ms, NULL);
}

static void mark_event(void)
{
    struct timespec ts;
    char buf[64];
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(buf, sizeof buf, "%lld.%09ld\n", (long long)ts.tv_sec,
             ts.tv_nsec);
    put_file("event", buf);
}

/* A real SIGSEGV, but no null pointer for UBSan to stop at. */
static void segfault(void)
{
    volatile int *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
                           -1, 0);
    *p = 1;
}

static void *segfault_thread(void *arg)
{
    (void)arg;
    segfault();
    return NULL;
}

/* fatal-pair: the two threads meet, then fail at once. */
static pthread_barrier_t pair_start;

static void fail_now(int by_abort)
{
    pthread_barrier_wait(&pair_start);
    if (by_abort)
        MPI_Abort(MPI_COMM_WORLD, 3);
    else
        MPI_Comm_rank(MPI_COMM_WORLD, NULL);
}

static void *pair_thread(void *arg)
{
    fail_now(*(const int *)arg != 0);
    return NULL;
}

static void *idle_thread(void *arg)
{
    (void)arg;
    for (;;)
        pause();
    return NULL;
}

/* See mode "stack-window" above. */
static void stack_window(void)
{
    int cell[4] = {-1, -1, -1, -1};
    MPI_Win w;
    MPI_Win_create(cell, sizeof cell, sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &w);
    MPI_Win_fence(0, w);
    MPI_Put(&rank, 1, MPI_INT, (rank + 1) % size, 1, 1, MPI_INT, w);
    MPI_Win_fence(0, w);
    MPI_Win_free(&w);
    if (cell[1] != (rank + size - 1) % size) {
        fprintf(stderr, "victim: rank %d: stack window holds %d\n", rank,
                cell[1]);
        exit(92);
    }
    printf("stack-window ok\n");
}

/* A fork()ed child calls MPI (MPI_Init before it, MPI_Comm_rank after);
   returns its wait status.  It should not get past that call. */
static int child_status(int after_init)
{
    pid_t pid = fork();
    if (pid == 0) {
        int r;
        if (after_init)
            MPI_Comm_rank(MPI_COMM_WORLD, &r);
        else
            MPI_Init(NULL, NULL);
        _exit(0);
    }
    int st = -1;
    waitpid(pid, &st, 0);
    return st;
}

/* See mode "helpers" above. */
static void start_helpers(void)
{
    char cmd[4200];
    pid_t pid = fork();
    if (pid == 0) {
        for (;;)
            pause();
    }
    snprintf(cmd, sizeof cmd, "%d\n", (int)pid);
    put_file("helper.fork", cmd);
    snprintf(cmd, sizeof cmd,
             "sleep 1000 & echo $! >\"$TEST_TMPDIR/helper.sys.tmp\" && "
             "mv \"$TEST_TMPDIR/helper.sys.tmp\" \"$TEST_TMPDIR/helper.sys\"");
    if (system(cmd) != 0)
        exit(94);
    snprintf(cmd, sizeof cmd,
             "setsid sleep 1000 & echo $! >\"$TEST_TMPDIR/helper.tmp\" && "
             "mv \"$TEST_TMPDIR/helper.tmp\" \"$TEST_TMPDIR/helper.setsid\"");
    if (system(cmd) != 0)
        exit(94);
}

/* Writes s in pieces of at most 97 bytes, each its own write(2). */
static void write_pieces(int fd, const char *s, size_t n)
{
    while (n > 0) {
        size_t k = n < 97 ? n : 97;
        ssize_t w = write(fd, s, k);
        if (w <= 0) {
            if (w < 0 && errno == EINTR)
                continue;
            exit(98);
        }
        s += w;
        n -= (size_t)w;
    }
}

static void print_lines(int lines, int len)
{
    char *buf = malloc((size_t)len + 64);
    if (!buf)
        exit(97);
    for (int i = 0; i < lines + lines / 4; i++) {
        int err = i >= lines;
        int k = snprintf(buf, 64, "%s r%d l%d ", err ? "ERR" : "OUT", rank,
                         err ? i - lines : i);
        /* payload: a letter that depends on rank and line, then '.' */
        char c = (char)('a' + (rank * 7 + i) % 26);
        while (k < len - 1)
            buf[k++] = c;
        buf[k++] = '.';
        buf[k++] = '\n';
        write_pieces(err ? 2 : 1, buf, (size_t)k);
        if (i % 50 == 0)
            sched_yield();
    }
    free(buf);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    int target = argc > 2 ? atoi(argv[2]) : 1;
    int arg = argc > 3 ? atoi(argv[3]) : 0;

    if (!strcmp(mode, "before-init")) {
        /* which rank we will be, from the launcher's variable */
        const char *me = getenv("SHMPI_RANK");
        if (me && atoi(me) == target) {
            int s;
            MPI_Comm_size(MPI_COMM_WORLD, &s);
            printf("MPI_Comm_size before MPI_Init returned\n");
            return 0;
        }
        MPI_Init(&argc, &argv);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Finalize();
        return 0;
    }

    if (!strcmp(mode, "init-only")) {
        MPI_Init(&argc, &argv);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        printf("init-only: rank %d joined\n", rank);
        MPI_Finalize();
        return 0;
    }
    if (!strcmp(mode, "children")) {
        const char *me = getenv("SHMPI_RANK");
        int st_sys = -1, st_fork = -1, st_after = -1;
        if (me && atoi(me) == target) {
            st_sys = system("exec /proc/$PPID/exe init-only");
            st_fork = child_status(0);
        }
        MPI_Init(&argc, &argv);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == target) {
            st_after = child_status(1);
            printf("children: system %d fork %d fork-after %d\n",
                   WIFEXITED(st_sys) ? WEXITSTATUS(st_sys) : -1,
                   WIFEXITED(st_fork) ? WEXITSTATUS(st_fork) : -1,
                   WIFEXITED(st_after) ? WEXITSTATUS(st_after) : -1);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Finalize();
        return 0;
    }
    if (!strcmp(mode, "exec-env")) {
        const char *prog = getenv("SHMPI_EXEC");
        if (getenv("SHMPI_RANK") && prog) {
            execl(prog, prog, (char *)NULL);
            perror(prog);
            return 93;
        }
        MPI_Init(&argc, &argv);
        MPI_Finalize();
        return 0;
    }

    if (!strcmp(mode, "noinit")) {
        const char *me = getenv("SHMPI_RANK");
        if (me && atoi(me) == target)
            return 0;
        MPI_Init(&argc, &argv);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Finalize();
        return 0;
    }

    if (!strcmp(mode, "hang-threaded")) {
        pthread_t t;
        if (pthread_create(&t, NULL, idle_thread, NULL) != 0) {
            perror("victim: pthread_create");
            return 92;
        }
    }
    if (!strcmp(mode, "fatal-pair")) {
        int provided;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    } else {
        MPI_Init(&argc, &argv);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char buf[64], name[64];
    snprintf(buf, sizeof buf, "%d\n", (int)getpid());
    snprintf(name, sizeof name, "pid.%d", rank);
    put_file(name, buf);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        put_file("ready", "ready\n");

    if (!strcmp(mode, "ok")) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            printf("ok size %d\n", size);
        MPI_Finalize();
        return 0;
    }
    if (!strcmp(mode, "info")) {
        printf("rank %d of %d\n", rank, size);
        MPI_Finalize();
        return 0;
    }
    if (!strcmp(mode, "env")) {
        const char *v = argc > 2 ? getenv(argv[2]) : NULL;
        printf("rank %d: %s=%s\n", rank, argc > 2 ? argv[2] : "?",
               v ? v : "unset");
        MPI_Finalize();
        return 0;
    }
    if (!strcmp(mode, "stdin")) {
        char b[4096];
        long total = 0;
        ssize_t n;
        while ((n = read(0, b, sizeof b)) != 0) {
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                break;
            total += n;
        }
        printf("rank %d read %ld bytes\n", rank, total);
        MPI_Finalize();
        return 0;
    }
    if (!strcmp(mode, "stack-window")) {
        stack_window();
        MPI_Finalize();
        return 0;
    }
    if (!strcmp(mode, "put-range"))
        open_windows();
    if (!strcmp(mode, "print")) {
        print_lines(argc > 2 ? atoi(argv[2]) : 100,
                    argc > 3 ? atoi(argv[3]) : 100);
        MPI_Finalize();
        return 0;
    }

    if (rank == target || target < 0) {
        /* wait until rank 0 has announced the job ready (however loaded
           the machine is), then let the others get into the barrier */
        wait_for_file("ready");
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
        mark_event();
        if (!strcmp(mode, "segv")) {
            segfault();
        } else if (!strcmp(mode, "thread-segv")) {
            pthread_t t;
            int x;
            if (pthread_create(&t, NULL, segfault_thread, NULL) == 0)
                MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        } else if (!strcmp(mode, "exit")) {
            exit(arg);
        } else if (!strcmp(mode, "raise-kill")) {
            raise(SIGKILL);
        } else if (!strcmp(mode, "hang") || !strcmp(mode, "hang-threaded")) {
            for (;;)
                pause();
        } else if (!strcmp(mode, "hang-ignint")) {
            signal(SIGINT, SIG_IGN);
            signal(SIGTERM, SIG_IGN);
            for (;;)
                pause();
        } else if (!strcmp(mode, "helpers")) {
            start_helpers();
            if (arg == 0) {
                MPI_Barrier(MPI_COMM_WORLD);
                MPI_Finalize();
                return 0;
            }
            for (;;)
                pause();
        } else if (!strcmp(mode, "abort")) {
            MPI_Abort(MPI_COMM_WORLD, arg);
        } else if (!strcmp(mode, "nofinalize")) {
            return 0;
        } else if (!strcmp(mode, "fatal")) {
            MPI_Comm_rank(MPI_COMM_WORLD, NULL);
            fprintf(stderr, "victim: the fatal error returned\n");
            return 0;
        } else if (!strcmp(mode, "errors-abort")) {
            MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ABORT);
            MPI_Comm_rank(MPI_COMM_SELF, NULL);
            fprintf(stderr, "victim: MPI_ERRORS_ABORT returned\n");
            return 0;
        } else if (!strcmp(mode, "fatal-pair")) {
            pthread_t t;
            pthread_barrier_init(&pair_start, NULL, 2);
            if (pthread_create(&t, NULL, pair_thread, &arg) == 0)
                fail_now(arg == 1);
            fprintf(stderr, "victim: the fatal errors returned\n");
            return 0;
        } else if (!strcmp(mode, "put-range")) {
            double two[2] = {1, 2};
            MPI_Put(two, 2, MPI_DOUBLE, 0, 7, 2, MPI_DOUBLE, wins[1]);
            fprintf(stderr, "victim: the out-of-range put returned\n");
            return 0;
        } else {
            fprintf(stderr, "victim: unknown mode %s\n", mode);
            MPI_Abort(MPI_COMM_WORLD, 96);
        }
        fprintf(stderr, "victim: rank %d survived mode %s\n", rank, mode);
        return 95;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
