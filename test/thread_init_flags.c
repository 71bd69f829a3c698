/* thread_init_flags: a thread polls MPI_Initialized and MPI_Finalized while the main thread runs MPI_Init_thread and MPI_Finalize; the answers only go from false to true, and (under make check-tsan) reading them races with nothing. */
/* shmpi-test: np=1,2 timeout=60 ext threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

/* ext: MPI-3.1 says that MPI_Initialized and MPI_Finalized may be called
   before MPI_Init and after MPI_Finalize, not that they may overlap those
   calls in another thread; shmpi promises that (core/proc.h), as MPICH's
   and Open MPI's pages do for theirs. */

static atomic_int watching;    /* the watcher runs */
static atomic_int saw_init;    /* it saw MPI_Initialized turn true */

struct seen {
    int init_false, init_true, fin_false, fin_true;
    int bad;                   /* a flag went from true back to false */
};

static void *watch(void *arg)
{
    struct seen *s = arg;
    int init = 0, fin = 0;
    while (!fin) {
        int i = -1, f = -1;
        if (MPI_Initialized(&i) != MPI_SUCCESS ||
            MPI_Finalized(&f) != MPI_SUCCESS) {
            s->bad = 1;
            break;
        }
        s->bad |= (init && !i) || (fin && !f) || (f && !i) ||
                  (i != 0 && i != 1) || (f != 0 && f != 1);
        if (i) {
            s->init_true++;
            atomic_store(&saw_init, 1);
        } else {
            s->init_false++;
        }
        if (f)
            s->fin_true++;
        else
            s->fin_false++;
        init = i;
        fin = f;
        atomic_store(&watching, 1); /* after a first look, before MPI_Init */
        sched_yield();
    }
    return NULL;
}

int main(int argc, char **argv)
{
    struct seen s = {0};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, watch, &s) == 0, "pthread_create");
    while (!atomic_load(&watching))
        sched_yield();
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED,
                              &provided));
    while (!atomic_load(&saw_init))
        sched_yield();
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    CHECK(pthread_join(t, NULL) == 0, "pthread_join");
    CHECK(!s.bad, "a flag was not 0 or 1, or went back from true to false");
    CHECK(s.init_false > 0 && s.init_true > 0,
          "the watcher saw MPI_Initialized false %d and true %d times: it "
          "should have seen both", s.init_false, s.init_true);
    CHECK(s.fin_false > 0 && s.fin_true == 1,
          "the watcher saw MPI_Finalized false %d and true %d times",
          s.fin_false, s.fin_true);
    return 0;
}
