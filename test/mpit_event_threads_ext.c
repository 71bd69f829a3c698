/* mpit_event_threads_ext: under MPI_THREAD_MULTIPLE, four threads per rank each make and free communicators at once while a fifth registers the creation callback again and again with other user data and swaps the dropped handler of the other registration (a function, another, none); a callback registered at MPI_T_CB_REQUIRE_THREAD_SAFE is called for every creation and every free with cb_safety MPI_T_CB_REQUIRE_THREAD_SAFE and its registration, the counts exact, and a registration with only an MPI_T_CB_REQUIRE_MPI_RESTRICTED callback is never called and hears of every creation as dropped.  test/abi_event_threads builds it against the standard ABI. */
/* shmpi-test: np=2 timeout=120 threads ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include <pthread.h>
#include <stdatomic.h>

#include "check.h"

#define THREADS 4
#define N 20
#define SWAPS 200

static MPI_Comm comms[THREADS];
static MPI_T_event_registration rc, rf, rr;
static atomic_int made[2], freed, wrong_safety, restricted_calls;
static MPI_Count dropped;

static void on_event(MPI_T_event_instance e, MPI_T_event_registration r,
                     MPI_T_cb_safety safety, void *user)
{
    unsigned context;
    T_RC(MPI_T_event_read(e, 0, &context), MPI_SUCCESS);
    atomic_fetch_add((atomic_int *)user, 1);
    if (safety != MPI_T_CB_REQUIRE_THREAD_SAFE ||
        r != (user == &freed ? rf : rc))
        atomic_fetch_add(&wrong_safety, 1);
}

static void on_restricted(MPI_T_event_instance e, MPI_T_event_registration r,
                          MPI_T_cb_safety safety, void *user)
{
    atomic_fetch_add(&restricted_calls, 1);
    (void)e, (void)r, (void)safety, (void)user;
}

/* two handlers, swapped while events are raised: the count adds up
   all the same (raises call them one at a time) */
static void on_dropped(MPI_Count count, MPI_T_event_registration r,
                       int source, MPI_T_cb_safety safety, void *user)
{
    dropped += count;
    (void)r, (void)source, (void)safety, (void)user;
}
static void on_dropped_too(MPI_Count count, MPI_T_event_registration r,
                           int source, MPI_T_cb_safety safety, void *user)
{
    on_dropped(count, r, source, safety, user);
}

static void *swap(void *arg)
{
    for (int k = 0; k < SWAPS; k++) {
        T_RC(MPI_T_event_register_callback(rc, MPI_T_CB_REQUIRE_THREAD_SAFE,
                                           MPI_INFO_NULL, &made[k & 1],
                                           on_event),
             MPI_SUCCESS);
        T_RC(MPI_T_event_set_dropped_handler(
                 rr, k % 3 == 2 ? NULL : k & 1 ? on_dropped_too : on_dropped),
             MPI_SUCCESS);
    }
    return arg;
}

static void *work(void *arg)
{
    int t = (int)(long)arg;
    for (int k = 0; k < N; k++) {
        MPI_Comm c;
        CHECK_MPI(MPI_Comm_dup(comms[t], &c));
        CHECK_MPI(MPI_Comm_free(&c));
    }
    return NULL;
}

static int index_of(const char *name)
{
    int i = -1;
    T_RC(MPI_T_event_get_index(name, &i), MPI_SUCCESS);
    return i;
}

int main(int argc, char **argv)
{
    int provided, tp;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    T_RC(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &tp), MPI_SUCCESS);
    for (int t = 0; t < THREADS; t++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]));
    T_RC(MPI_T_event_handle_alloc(index_of("shmpi_comm_created"), NULL,
                                  MPI_INFO_NULL, &rc),
         MPI_SUCCESS);
    T_RC(MPI_T_event_register_callback(rc, MPI_T_CB_REQUIRE_THREAD_SAFE,
                                       MPI_INFO_NULL, &made[0], on_event),
         MPI_SUCCESS);
    T_RC(MPI_T_event_handle_alloc(index_of("shmpi_comm_freed"), NULL,
                                  MPI_INFO_NULL, &rf),
         MPI_SUCCESS);
    T_RC(MPI_T_event_register_callback(rf, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE,
                                       MPI_INFO_NULL, &freed, on_event),
         MPI_SUCCESS);
    T_RC(MPI_T_event_handle_alloc(index_of("shmpi_comm_created"), NULL,
                                  MPI_INFO_NULL, &rr),
         MPI_SUCCESS);
    T_RC(MPI_T_event_register_callback(rr, MPI_T_CB_REQUIRE_MPI_RESTRICTED,
                                       MPI_INFO_NULL, NULL, on_restricted),
         MPI_SUCCESS);
    T_RC(MPI_T_event_set_dropped_handler(rr, on_dropped), MPI_SUCCESS);

    pthread_t th[THREADS + 1];
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&th[t], NULL, work, (void *)(long)t) == 0,
              "pthread_create");
    CHECK(pthread_create(&th[THREADS], NULL, swap, NULL) == 0,
          "pthread_create");
    for (int t = 0; t <= THREADS; t++)
        pthread_join(th[t], NULL);

    /* what the swapper left undelivered is heard at the free */
    T_RC(MPI_T_event_set_dropped_handler(rr, on_dropped), MPI_SUCCESS);
    T_RC(MPI_T_event_handle_free(rr, NULL, NULL), MPI_SUCCESS);
    int seen = atomic_load(&made[0]) + atomic_load(&made[1]);
    CHECK(seen == THREADS * N && atomic_load(&freed) == THREADS * N,
          "%d creations, %d frees seen, of %d", seen, atomic_load(&freed),
          THREADS * N);
    CHECK(atomic_load(&wrong_safety) == 0 &&
              atomic_load(&restricted_calls) == 0 && dropped == THREADS * N,
          "%d at a wrong level, %d restricted calls, %lld dropped",
          atomic_load(&wrong_safety), atomic_load(&restricted_calls),
          (long long)dropped);
    T_RC(MPI_T_event_handle_free(rc, NULL, NULL), MPI_SUCCESS);
    T_RC(MPI_T_event_handle_free(rf, NULL, NULL), MPI_SUCCESS);
    for (int t = 0; t < THREADS; t++)
        CHECK_MPI(MPI_Comm_free(&comms[t]));
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    MPI_Finalize();
    return 0;
}
