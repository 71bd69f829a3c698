/* thread_attr: under MPI_THREAD_MULTIPLE four threads create and free keyvals and set, get, replace and delete attributes at once, on a shared communicator and datatype and on their own, dup their own datatypes (copy callbacks) and free the dups (delete callbacks), and read the predefined attributes; every callback checks its arguments and calls MPI_Comm_get_attr itself, and every count of calls is checked. */
/* shmpi-test: np=1,2 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

/* MPI_Init_thread asks for MPI_THREAD_MULTIPLE and needs it (shmpi,
   Open MPI and MPICH provide it).  Only calls that are local and need no messages run in the threads;
   the communicators and datatypes are made by the main thread first. */
#define THREADS 4
#define ITERS 1500

/* A value names the thread, the iteration and which of two it is. */
#define VALUE(t, i, k) ((void *)(intptr_t)((((t) * ITERS + (i)) * 4 + (k)) + 1))
#define VALUE_THREAD(v) ((int)(((intptr_t)(v) - 1) / 4 / ITERS))
#define VALUE_ITER(v) ((int)(((intptr_t)(v) - 1) / 4 % ITERS))
#define SHARED_VALUE ((void *)(intptr_t)0x5eed)

static int shared_kv;                 /* on every comm, set by main */
static MPI_Comm shared_comm, own_comm[THREADS];
static MPI_Datatype shared_type, own_type[THREADS];

struct counts {
    int id;
    int ck[ITERS], tk[ITERS];  /* the keyvals of each iteration */
    _Atomic long comm_deletes, type_copies, type_deletes;
};
static struct counts counts[THREADS];
static _Atomic long shared_deletes;

/* A callback may call attribute functions itself: the library must not
   call it holding a lock those take. */
static void reads_shared(MPI_Comm comm)
{
    void *v = NULL;
    int flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(comm, shared_kv, &v, &flag));
    CHECK(flag && v == SHARED_VALUE, "shared attribute: flag %d value %p",
          flag, v);
}

static int comm_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    struct counts *c = extra;
    CHECK(VALUE_THREAD(value) == c->id,
          "comm delete callback of thread %d got a value of thread %d",
          c->id, VALUE_THREAD(value));
    CHECK(keyval == c->ck[VALUE_ITER(value)],
          "comm delete callback of thread %d: keyval %d, expected %d", c->id,
          keyval, c->ck[VALUE_ITER(value)]);
    CHECK(comm == shared_comm || comm == own_comm[c->id],
          "comm delete callback of thread %d: a communicator not its own "
          "nor the shared one", c->id);
    reads_shared(shared_comm);
    atomic_fetch_add(&c->comm_deletes, 1);
    return MPI_SUCCESS;
}

static int type_copy(MPI_Datatype old, int keyval, void *extra, void *in,
                     void *out, int *flag)
{
    struct counts *c = extra;
    CHECK(VALUE_THREAD(in) == c->id,
          "type copy callback of thread %d got a value of thread %d", c->id,
          VALUE_THREAD(in));
    CHECK(old == own_type[c->id], "type copy callback of thread %d: "
          "not its own datatype", c->id);
    CHECK(keyval == c->tk[VALUE_ITER(in)],
          "type copy callback of thread %d: keyval %d, expected %d", c->id,
          keyval, c->tk[VALUE_ITER(in)]);
    *(void **)out = in;
    *flag = 1;
    atomic_fetch_add(&c->type_copies, 1);
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype type, int keyval, void *value,
                       void *extra)
{
    struct counts *c = extra;
    CHECK(VALUE_THREAD(value) == c->id,
          "type delete callback of thread %d got a value of thread %d",
          c->id, VALUE_THREAD(value));
    CHECK(keyval == c->tk[VALUE_ITER(value)],
          "type delete callback of thread %d: keyval %d, expected %d", c->id,
          keyval, c->tk[VALUE_ITER(value)]);
    CHECK(type != MPI_DATATYPE_NULL, "type delete callback: a null type");
    reads_shared(shared_comm);
    atomic_fetch_add(&c->type_deletes, 1);
    return MPI_SUCCESS;
}

static int shared_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    CHECK(value == SHARED_VALUE, "shared delete callback got %p", value);
    CHECK(keyval == shared_kv && extra == NULL && comm != MPI_COMM_NULL,
          "shared delete callback: keyval %d (expected %d), extra %p",
          keyval, shared_kv, extra);
    atomic_fetch_add(&shared_deletes, 1);
    return MPI_SUCCESS;
}

static void expect_comm(MPI_Comm comm, int keyval, void *want)
{
    void *v = NULL;
    int flag = -1;
    CHECK_MPI(MPI_Comm_get_attr(comm, keyval, &v, &flag));
    CHECK(want ? flag && v == want : !flag,
          "comm attribute: flag %d value %p, expected %p", flag, v, want);
}

static void expect_type(MPI_Datatype type, int keyval, void *want)
{
    void *v = NULL;
    int flag = -1;
    CHECK_MPI(MPI_Type_get_attr(type, keyval, &v, &flag));
    CHECK(want ? flag && v == want : !flag,
          "type attribute: flag %d value %p, expected %p", flag, v, want);
}

static void predefined(void)
{
    int *v = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag));
    CHECK(flag && *v >= 32767, "MPI_TAG_UB: flag %d", flag);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag));
    CHECK(flag && *v >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE: flag %d", flag);
}

static void iteration(int t, int i)
{
    struct counts *c = &counts[t];
    MPI_Comm mine = own_comm[t];
    int ck, tk;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_delete, &ck,
                                     c));
    CHECK_MPI(MPI_Type_create_keyval(type_copy, type_delete, &tk, c));
    c->ck[i] = ck;
    c->tk[i] = tk;
    void *v1 = VALUE(t, i, 1), *v2 = VALUE(t, i, 2);

    CHECK_MPI(MPI_Comm_set_attr(shared_comm, ck, v1));
    CHECK_MPI(MPI_Comm_set_attr(mine, ck, v1));
    expect_comm(shared_comm, ck, v1);
    expect_comm(mine, ck, v1);
    CHECK_MPI(MPI_Comm_set_attr(shared_comm, ck, v2)); /* deletes v1 */
    expect_comm(shared_comm, ck, v2);
    expect_comm(shared_comm, shared_kv, SHARED_VALUE);
    CHECK_MPI(MPI_Comm_delete_attr(shared_comm, ck)); /* deletes v2 */
    expect_comm(shared_comm, ck, NULL);
    if (i % 2) { /* the attribute outlives the program's keyval handle */
        CHECK_MPI(MPI_Comm_free_keyval(&ck));
    } else {
        CHECK_MPI(MPI_Comm_delete_attr(mine, ck)); /* deletes v1 */
        CHECK_MPI(MPI_Comm_free_keyval(&ck));
    }

    CHECK_MPI(MPI_Type_set_attr(own_type[t], tk, v1));
    CHECK_MPI(MPI_Type_set_attr(shared_type, tk, v2));
    MPI_Datatype dup;
    CHECK_MPI(MPI_Type_dup(own_type[t], &dup)); /* copies v1 */
    expect_type(dup, tk, v1);
    expect_type(shared_type, tk, v2);
    CHECK_MPI(MPI_Type_free(&dup)); /* deletes the copy of v1 */
    CHECK_MPI(MPI_Type_delete_attr(own_type[t], tk)); /* deletes v1 */
    CHECK_MPI(MPI_Type_delete_attr(shared_type, tk)); /* deletes v2 */
    CHECK_MPI(MPI_Type_free_keyval(&tk));
    predefined();
}

static void *work(void *arg)
{
    struct counts *c = arg;
    for (int i = 0; i < ITERS; i++)
        iteration(c->id, i);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE,
          "MPI_Init_thread(MPI_THREAD_MULTIPLE) provided only %d", provided);
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, shared_delete,
                                     &shared_kv, NULL));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &shared_comm));
    CHECK_MPI(MPI_Comm_set_attr(shared_comm, shared_kv, SHARED_VALUE));
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &shared_type));
    for (int t = 0; t < THREADS; t++) {
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &own_comm[t]));
        CHECK_MPI(MPI_Comm_set_attr(own_comm[t], shared_kv, SHARED_VALUE));
        CHECK_MPI(MPI_Type_contiguous(t + 1, MPI_INT, &own_type[t]));
    }
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
        counts[t].id = t;
        CHECK(pthread_create(&th[t], NULL, work, &counts[t]) == 0,
              "pthread_create");
    }
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_join(th[t], NULL) == 0, "pthread_join");
    /* Per iteration: comm deletes v1 (replaced) and v2 on the shared
       communicator, and v1 on its own one when the keyval stays (even
       iterations); odd iterations leave v1 on the own communicator,
       deleted when it is freed below.  Types: one copy, three deletes. */
    for (int t = 0; t < THREADS; t++) {
        long odd = ITERS / 2, even = ITERS - odd;
        CHECK(counts[t].comm_deletes == 2L * ITERS + even,
              "thread %d: %ld comm delete callbacks, expected %ld", t,
              (long)counts[t].comm_deletes, 2L * ITERS + even);
        CHECK(counts[t].type_copies == ITERS,
              "thread %d: %ld type copy callbacks, expected %d", t,
              (long)counts[t].type_copies, ITERS);
        CHECK(counts[t].type_deletes == 3L * ITERS,
              "thread %d: %ld type delete callbacks, expected %d", t,
              (long)counts[t].type_deletes, 3 * ITERS);
    }
    CHECK(shared_deletes == 0, "%ld shared deletes before any free",
          (long)shared_deletes);
    for (int t = 0; t < THREADS; t++) {
        CHECK_MPI(MPI_Comm_free(&own_comm[t]));
        long odd = ITERS / 2;
        CHECK(counts[t].comm_deletes == 3L * ITERS,
              "thread %d: %ld comm delete callbacks after the free of its "
              "communicator, expected %d (%ld attributes of freed keyvals)",
              t, (long)counts[t].comm_deletes, 3 * ITERS, odd);
        CHECK_MPI(MPI_Type_free(&own_type[t]));
    }
    CHECK_MPI(MPI_Comm_free(&shared_comm));
    CHECK_MPI(MPI_Type_free(&shared_type));
    CHECK(shared_deletes == THREADS + 1, "%ld shared deletes, expected %d",
          (long)shared_deletes, THREADS + 1);
    CHECK_MPI(MPI_Comm_free_keyval(&shared_kv));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
