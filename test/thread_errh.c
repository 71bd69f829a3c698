/* thread_errh: under MPI_THREAD_MULTIPLE four threads create, set, get and free error handlers on a shared communicator and window and on their own, and raise errors through MPI_Comm_call_errhandler and MPI_Win_call_errhandler: on their own objects the handler they set runs, with their code, every time; on the shared ones some live handler runs every time; meanwhile they add error classes, codes and strings and read them back with MPI_Error_string and MPI_Error_class. */
/* shmpi-test: np=1,2 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

/* MPI_Init_thread asks for MPI_THREAD_MULTIPLE and needs it (shmpi,
   Open MPI and MPICH provide it).  The communicators and windows are made by the main thread
   before the threads start (making them needs messages). */
#define THREADS 4
#define ITERS 1500
/* 640 codes in all: MPICH 4.0 refused an MPI_Add_error_string with
   2560 (one thread or four, 2026-11-29) */
#define CLASSES 8              /* per thread */
#define CODES 20               /* per class */

static MPI_Comm shared_comm, own_comm[THREADS];
static MPI_Win shared_win, own_win[THREADS];

/* What the running thread expects of the handler it calls: which of two
   functions (a or b), with which code.  A handler on a shared object may
   be another thread's: it then only counts. */
static _Thread_local int my_id = -1, expect_fn, expect_code;
static _Thread_local long ran_own, ran_shared;

static void handled(int fn, MPI_Comm comm, MPI_Win win, int code)
{
    int own = my_id >= 0 && (comm == own_comm[my_id] || win == own_win[my_id]);
    if (own) {
        CHECK(fn == expect_fn && code == expect_code,
              "thread %d: handler %c ran with code %d, expected handler %c "
              "with code %d", my_id, 'a' + fn, code, 'a' + expect_fn,
              expect_code);
        ran_own++;
    } else {
        CHECK(comm == shared_comm || win == shared_win,
              "thread %d: a handler ran on an object of another thread",
              my_id);
        CHECK(code == expect_code, "thread %d: shared handler got code %d, "
              "expected %d", my_id, code, expect_code);
        ran_shared++;
    }
}

static void comm_a(MPI_Comm *comm, int *code, ...)
{
    handled(0, *comm, MPI_WIN_NULL, *code);
}

static void comm_b(MPI_Comm *comm, int *code, ...)
{
    handled(1, *comm, MPI_WIN_NULL, *code);
}

static void win_a(MPI_Win *win, int *code, ...)
{
    handled(0, MPI_COMM_NULL, *win, *code);
}

static void win_b(MPI_Win *win, int *code, ...)
{
    handled(1, MPI_COMM_NULL, *win, *code);
}

/* The added classes and codes of one thread. */
struct added {
    int cls[CLASSES], code[CLASSES][CODES];
    int ncls, ncode;
};
static struct added added[THREADS];

static void expect_string(int code, const char *want)
{
    char got[MPI_MAX_ERROR_STRING];
    int len = -1;
    CHECK_MPI(MPI_Error_string(code, got, &len));
    CHECK(len == (int)strlen(want) && strcmp(got, want) == 0,
          "MPI_Error_string(%d) = \"%s\" (%d), expected \"%s\"", code, got,
          len, want);
}

/* One more code (and every CODES codes, one more class), its string
   set and read back, and an older one of this thread read again. */
static void add_code(int t, int i)
{
    struct added *a = &added[t];
    char s[64];
    if (a->ncode % CODES == 0 && a->ncls < CLASSES) {
        CHECK_MPI(MPI_Add_error_class(&a->cls[a->ncls]));
        snprintf(s, sizeof s, "class %d of thread %d", a->ncls, t);
        CHECK_MPI(MPI_Add_error_string(a->cls[a->ncls], s));
        a->ncls++;
    }
    int k = a->ncls - 1, j = a->ncode % CODES, code, cls;
    CHECK_MPI(MPI_Add_error_code(a->cls[k], &code));
    a->code[k][j] = code;
    a->ncode++;
    snprintf(s, sizeof s, "code %d.%d of thread %d", k, j, t);
    CHECK_MPI(MPI_Add_error_string(code, s));
    expect_string(code, s);
    CHECK_MPI(MPI_Error_class(code, &cls));
    CHECK(cls == a->cls[k], "class of code %d: %d, expected %d", code, cls,
          a->cls[k]);
    int old = (i * 7) % a->ncode;  /* an earlier one, as the array grew */
    snprintf(s, sizeof s, "code %d.%d of thread %d", old / CODES,
             old % CODES, t);
    expect_string(a->code[old / CODES][old % CODES], s);
    snprintf(s, sizeof s, "class %d of thread %d", old / CODES, t);
    expect_string(a->cls[old / CODES], s);
}

static void on_comm(int t, int i)
{
    MPI_Errhandler eh, got;
    int fn = i % 2;
    CHECK_MPI(MPI_Comm_create_errhandler(fn ? comm_b : comm_a, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(own_comm[t], eh));
    CHECK_MPI(MPI_Comm_set_errhandler(shared_comm, eh));
    CHECK_MPI(MPI_Errhandler_free(&eh)); /* the objects keep it */
    expect_fn = fn;
    expect_code = MPI_ERR_OTHER;
    long own = ran_own, shared = ran_shared;
    CHECK_MPI(MPI_Comm_call_errhandler(own_comm[t], expect_code));
    CHECK(ran_own == own + 1, "thread %d: own handler did not run", t);
    CHECK_MPI(MPI_Comm_call_errhandler(shared_comm, expect_code));
    CHECK(ran_shared == shared + 1, "thread %d: no shared handler ran", t);
    CHECK_MPI(MPI_Comm_get_errhandler(own_comm[t], &got));
    CHECK(got != MPI_ERRHANDLER_NULL, "thread %d: null handler", t);
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Comm_get_errhandler(shared_comm, &got));
    CHECK_MPI(MPI_Errhandler_free(&got));
    if (i % 3 == 0) { /* the predefined one, which is never freed */
        CHECK_MPI(MPI_Comm_set_errhandler(own_comm[t], MPI_ERRORS_RETURN));
        CHECK_MPI(MPI_Comm_get_errhandler(own_comm[t], &got));
        CHECK(got == MPI_ERRORS_RETURN, "thread %d: not MPI_ERRORS_RETURN",
              t);
        CHECK_MPI(MPI_Errhandler_free(&got));
    }
}

static void on_win(int t, int i)
{
    MPI_Errhandler eh, got;
    int fn = (i / 2) % 2;
    CHECK_MPI(MPI_Win_create_errhandler(fn ? win_b : win_a, &eh));
    CHECK_MPI(MPI_Win_set_errhandler(own_win[t], eh));
    CHECK_MPI(MPI_Win_set_errhandler(shared_win, eh));
    CHECK_MPI(MPI_Errhandler_free(&eh));
    expect_fn = fn;
    expect_code = added[t].code[0][0];
    long own = ran_own, shared = ran_shared;
    CHECK_MPI(MPI_Win_call_errhandler(own_win[t], expect_code));
    CHECK(ran_own == own + 1, "thread %d: own window handler did not run",
          t);
    CHECK_MPI(MPI_Win_call_errhandler(shared_win, expect_code));
    CHECK(ran_shared == shared + 1, "thread %d: no shared window handler "
          "ran", t);
    CHECK_MPI(MPI_Win_get_errhandler(shared_win, &got));
    CHECK_MPI(MPI_Errhandler_free(&got));
}

static void *work(void *arg)
{
    int t = (int)(long)arg;
    my_id = t;
    for (int i = 0; i < ITERS; i++) {
        if (added[t].ncode < CLASSES * CODES)
            add_code(t, i);
        on_comm(t, i);
        on_win(t, i);
    }
    CHECK(ran_own == 2L * ITERS && ran_shared == 2L * ITERS,
          "thread %d: %ld own and %ld shared handler calls, expected %d each",
          t, ran_own, ran_shared, 2 * ITERS);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE,
          "MPI_Init_thread(MPI_THREAD_MULTIPLE) provided only %d", provided);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &shared_comm));
    /* shared-memory windows: Open MPI 4.1 serves other windows on one
       node with its pt2pt component, which refuses MPI_THREAD_MULTIPLE */
    int *base;
    CHECK_MPI(MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL,
                                      MPI_COMM_WORLD, &base, &shared_win));
    for (int t = 0; t < THREADS; t++) {
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &own_comm[t]));
        CHECK_MPI(MPI_Win_allocate_shared(sizeof(int), sizeof(int),
                                          MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                                          &own_win[t]));
    }
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        CHECK(pthread_create(&th[t], NULL, work, (void *)t) == 0,
              "pthread_create");
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_join(th[t], NULL) == 0, "pthread_join");
    /* every string as it was left, and the last class in use (MPICH 4.0
       gives the last class as MPI_LASTUSEDCODE, not the last code) */
    int last = 0, *lastp, flag = 0;
    for (int t = 0; t < THREADS; t++) {
        struct added *a = &added[t];
        CHECK(a->ncode == CLASSES * CODES && a->ncls == CLASSES,
              "thread %d added %d codes and %d classes", t, a->ncode,
              a->ncls);
        for (int k = 0; k < CLASSES; k++)
            for (int j = 0; j < CODES; j++) {
                char s[64];
                snprintf(s, sizeof s, "code %d.%d of thread %d", k, j, t);
                expect_string(a->code[k][j], s);
            }
        for (int k = 0; k < CLASSES; k++)
            last = a->cls[k] > last ? a->cls[k] : last;
    }
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastp,
                                &flag));
    CHECK(flag && *lastp >= last, "MPI_LASTUSEDCODE %d, below class %d",
          flag ? *lastp : -1, last);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int t = 0; t < THREADS; t++) {
        CHECK_MPI(MPI_Win_free(&own_win[t]));
        CHECK_MPI(MPI_Comm_free(&own_comm[t]));
    }
    CHECK_MPI(MPI_Win_free(&shared_win));
    CHECK_MPI(MPI_Comm_free(&shared_comm));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
