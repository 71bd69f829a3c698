/* thread_handles: under MPI_THREAD_MULTIPLE four threads at once convert many handles to Fortran integers and back (their own, freed as they go, and shared ones, which must get one number), set, get, delete and dup keys of a shared info object and of their own, name a shared and their own communicator and datatype, allocate and free memory with MPI_Alloc_mem, and make the Fortran 90 kinds' datatypes; every result is checked. */
/* shmpi-test: np=1,2 timeout=120 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* MPI_Init_thread asks for MPI_THREAD_MULTIPLE and needs it (shmpi,
   Open MPI and MPICH provide it).  The communicators are made
   by the main thread before the threads start (making them needs
   messages). */
#define THREADS 4
#define ITERS 1000
#define KEYS 6                 /* each thread's keys in the shared info */
#define HELD 8                 /* MPI_Alloc_mem blocks alive per thread */
#define RMAX 18                /* f90 integer ranges 1..RMAX */
#define PMAX 15                /* f90 real precisions 1..PMAX */

static MPI_Comm shared_comm, own_comm[THREADS];
static MPI_Datatype shared_type;
static MPI_Info shared_info;

struct result {
    MPI_Fint comm_f, type_f, info_f, world_f; /* of the shared handles */
    MPI_Datatype f90_int[RMAX + 1], f90_real[PMAX + 1], f90_cplx[PMAX + 1];
};
static struct result results[THREADS];

static void my_errh(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

static void my_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in;
    (void)inout;
    (void)len;
    (void)type;
}

/* The number of a shared handle: the same every time, in every thread. */
static void same_number(MPI_Fint *seen, MPI_Fint f, const char *what, int t)
{
    if (*seen == 0)
        *seen = f;
    CHECK(f == *seen, "thread %d: %s numbered %d, earlier %d", t, what,
          (int)f, (int)*seen);
}

/* Not groups: the dups of world share its group, and taking it
   (MPI_Comm_group) counts a reference on that one object, which is
   the reference counts' concern, not the tables'. */
static void conversions(int t)
{
    struct result *r = &results[t];
    MPI_Info info;
    MPI_Errhandler eh;
    MPI_Datatype type;
    MPI_Op op;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Comm_create_errhandler(my_errh, &eh));
    CHECK_MPI(MPI_Type_contiguous(t + 2, MPI_INT, &type));
    CHECK_MPI(MPI_Op_create(my_op, 1, &op));
    MPI_Fint fi = MPI_Info_c2f(info), fe = MPI_Errhandler_c2f(eh),
             ft = MPI_Type_c2f(type), fo = MPI_Op_c2f(op),
             fc = MPI_Comm_c2f(own_comm[t]);
    CHECK(MPI_Info_f2c(fi) == info && MPI_Info_c2f(info) == fi,
          "thread %d: info %d does not come back", t, (int)fi);
    CHECK(MPI_Errhandler_f2c(fe) == eh && MPI_Errhandler_c2f(eh) == fe,
          "thread %d: errhandler %d does not come back", t, (int)fe);
    CHECK(MPI_Type_f2c(ft) == type && MPI_Type_c2f(type) == ft,
          "thread %d: datatype %d does not come back", t, (int)ft);
    CHECK(MPI_Op_f2c(fo) == op && MPI_Op_c2f(op) == fo,
          "thread %d: op %d does not come back", t, (int)fo);
    CHECK(MPI_Comm_f2c(fc) == own_comm[t],
          "thread %d: own communicator %d does not come back", t, (int)fc);
    same_number(&r->comm_f, MPI_Comm_c2f(shared_comm), "shared comm", t);
    same_number(&r->world_f, MPI_Comm_c2f(MPI_COMM_WORLD), "world", t);
    same_number(&r->type_f, MPI_Type_c2f(shared_type), "shared type", t);
    same_number(&r->info_f, MPI_Info_c2f(shared_info), "shared info", t);
    CHECK(MPI_Comm_f2c(r->comm_f) == shared_comm &&
              MPI_Type_f2c(r->type_f) == shared_type &&
              MPI_Info_f2c(r->info_f) == shared_info,
          "thread %d: a shared handle does not come back", t);
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Type_free(&type));
    CHECK_MPI(MPI_Op_free(&op));
}

static void expect_info(MPI_Info info, const char *key, const char *want,
                        int t)
{
    char v[MPI_MAX_INFO_VAL];
    int flag = -1, len = -1;
    CHECK_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL - 1, v, &flag));
    CHECK(want ? flag && strcmp(v, want) == 0 : !flag,
          "thread %d: key %s is %s, expected %s", t, key,
          flag ? v : "(unset)", want ? want : "(unset)");
    CHECK_MPI(MPI_Info_get_valuelen(info, key, &len, &flag));
    CHECK(want ? flag && len == (int)strlen(want) : !flag,
          "thread %d: key %s has length %d, expected %d", t, key, len,
          want ? (int)strlen(want) : -1);
}

static void infos(int t, int i)
{
    char key[32], val[32];
    MPI_Info own, dup;
    CHECK_MPI(MPI_Info_create(&own));
    for (int k = 0; k < KEYS; k++) {
        snprintf(key, sizeof key, "t%dk%d", t, k);
        snprintf(val, sizeof val, "v%d.%d.%d", t, i, k);
        CHECK_MPI(MPI_Info_set(shared_info, key, val));
        CHECK_MPI(MPI_Info_set(own, key, val));
        expect_info(shared_info, key, val, t);
    }
    int n = -1;
    CHECK_MPI(MPI_Info_get_nkeys(shared_info, &n));
    CHECK(n >= KEYS && n <= THREADS * KEYS,
          "thread %d: the shared info has %d keys", t, n);
    CHECK_MPI(MPI_Info_get_nkeys(own, &n));
    CHECK(n == KEYS, "thread %d: its info has %d keys", t, n);
    for (int k = 0; k < KEYS; k++) {
        char want[32];
        snprintf(want, sizeof want, "t%dk%d", t, k);
        CHECK_MPI(MPI_Info_get_nthkey(own, k, key));
        CHECK(strcmp(key, want) == 0, "thread %d: key %d is %s, expected %s",
              t, k, key, want);
    }
    CHECK_MPI(MPI_Info_dup(shared_info, &dup));
    for (int k = 0; k < KEYS; k++) {
        snprintf(key, sizeof key, "t%dk%d", t, k);
        snprintf(val, sizeof val, "v%d.%d.%d", t, i, k);
        expect_info(dup, key, val, t);
        if (i % 2)
            CHECK_MPI(MPI_Info_delete(shared_info, key));
        expect_info(shared_info, key, i % 2 ? NULL : val, t);
    }
    CHECK_MPI(MPI_Info_free(&dup));
    CHECK_MPI(MPI_Info_free(&own));
}

/* A name set by some thread: "name-T-I" with T a thread. */
static void expect_some_name(const char *got, int len, int t)
{
    int who = -1, it = -1;
    char again[MPI_MAX_OBJECT_NAME];
    CHECK(sscanf(got, "name-%d-%d", &who, &it) == 2 && who >= 0 &&
              who < THREADS && it >= 0 && it < ITERS,
          "thread %d: shared name \"%s\"", t, got);
    snprintf(again, sizeof again, "name-%d-%d", who, it);
    CHECK(strcmp(got, again) == 0 && len == (int)strlen(got),
          "thread %d: shared name \"%s\" (%d) is torn", t, got, len);
}

static void names(int t, int i)
{
    char name[MPI_MAX_OBJECT_NAME], got[MPI_MAX_OBJECT_NAME];
    int len = -1;
    snprintf(name, sizeof name, "name-%d-%d", t, i);
    CHECK_MPI(MPI_Comm_set_name(shared_comm, name));
    CHECK_MPI(MPI_Comm_get_name(shared_comm, got, &len));
    expect_some_name(got, len, t);
    CHECK_MPI(MPI_Type_set_name(shared_type, name));
    CHECK_MPI(MPI_Type_get_name(shared_type, got, &len));
    expect_some_name(got, len, t);
    CHECK_MPI(MPI_Comm_set_name(own_comm[t], name));
    CHECK_MPI(MPI_Comm_get_name(own_comm[t], got, &len));
    CHECK(strcmp(got, name) == 0 && len == (int)strlen(name),
          "thread %d: own communicator named \"%s\", expected \"%s\"", t, got,
          name);
}

struct block {
    unsigned char *p;
    size_t n;
    unsigned char fill;
};

static void memory(int t, int i, struct block *held)
{
    struct block *b = &held[i % HELD];
    if (b->p) {
        for (size_t k = 0; k < b->n; k++)
            if (b->p[k] != b->fill)
                CHECK(0, "thread %d: byte %zu of a %zu-byte block is %d, "
                      "expected %d", t, k, b->n, b->p[k], b->fill);
        CHECK_MPI(MPI_Free_mem(b->p));
    }
    b->n = i % 16 == 15 ? 100000 + (size_t)i : (size_t)64 << (i % 10);
    b->fill = (unsigned char)(t * 37 + i);
    CHECK_MPI(MPI_Alloc_mem((MPI_Aint)b->n, MPI_INFO_NULL, &b->p));
    memset(b->p, b->fill, b->n);
}

static int f90_int_size(int r)
{
    return r <= 2 ? 1 : r <= 4 ? 2 : r <= 9 ? 4 : 8;
}

static void f90(int t, int i)
{
    struct result *res = &results[t];
    int r = i % RMAX + 1, p = i % PMAX + 1, size, combiner, ni, na, nd;
    MPI_Datatype d;
    CHECK_MPI(MPI_Type_create_f90_integer(r, &d));
    CHECK_MPI(MPI_Type_size(d, &size));
    CHECK(size == f90_int_size(r), "f90 integer(%d): %d bytes", r, size);
    CHECK_MPI(MPI_Type_get_envelope(d, &ni, &na, &nd, &combiner));
    CHECK(combiner == MPI_COMBINER_F90_INTEGER, "f90 integer(%d): combiner "
          "%d", r, combiner);
    CHECK(!res->f90_int[r] || res->f90_int[r] == d,
          "f90 integer(%d): a second handle", r);
    res->f90_int[r] = d;
    CHECK_MPI(MPI_Type_create_f90_real(p, MPI_UNDEFINED, &d));
    CHECK_MPI(MPI_Type_size(d, &size));
    CHECK(size == (p <= 6 ? 4 : 8), "f90 real(%d): %d bytes", p, size);
    CHECK(!res->f90_real[p] || res->f90_real[p] == d,
          "f90 real(%d): a second handle", p);
    res->f90_real[p] = d;
    CHECK_MPI(MPI_Type_create_f90_complex(p, MPI_UNDEFINED, &d));
    CHECK_MPI(MPI_Type_size(d, &size));
    CHECK(size == (p <= 6 ? 8 : 16), "f90 complex(%d): %d bytes", p, size);
    CHECK(!res->f90_cplx[p] || res->f90_cplx[p] == d,
          "f90 complex(%d): a second handle", p);
    res->f90_cplx[p] = d;
}

static void *work(void *arg)
{
    int t = (int)(long)arg;
    struct block held[HELD] = {{0}};
    for (int i = 0; i < ITERS; i++) {
        conversions(t);
        infos(t, i);
        names(t, i);
        memory(t, i, held);
        f90(t, i);
    }
    for (int i = 0; i < HELD; i++)
        CHECK_MPI(MPI_Free_mem(held[i].p));
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE,
          "MPI_Init_thread(MPI_THREAD_MULTIPLE) provided only %d", provided);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &shared_comm));
    for (int t = 0; t < THREADS; t++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &own_comm[t]));
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &shared_type));
    CHECK_MPI(MPI_Info_create(&shared_info));
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        CHECK(pthread_create(&th[t], NULL, work, (void *)t) == 0,
              "pthread_create");
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_join(th[t], NULL) == 0, "pthread_join");
    /* one number and one f90 handle per shared thing, in all threads */
    for (int t = 1; t < THREADS; t++) {
        struct result *a = &results[0], *b = &results[t];
        CHECK(a->comm_f == b->comm_f && a->type_f == b->type_f &&
                  a->info_f == b->info_f && a->world_f == b->world_f,
              "threads 0 and %d numbered a shared handle differently", t);
        for (int r = 1; r <= RMAX; r++)
            CHECK(a->f90_int[r] == b->f90_int[r],
                  "threads 0 and %d got two f90 integer(%d) types", t, r);
        for (int p = 1; p <= PMAX; p++)
            CHECK(a->f90_real[p] == b->f90_real[p] &&
                      a->f90_cplx[p] == b->f90_cplx[p],
                  "threads 0 and %d got two f90 real or complex(%d) types",
                  t, p);
    }
    /* even iterations leave the keys set: the last one (ITERS - 1) is odd */
    int n = -1;
    CHECK_MPI(MPI_Info_get_nkeys(shared_info, &n));
    CHECK(n == 0, "the shared info has %d keys left", n);
    CHECK_MPI(MPI_Info_free(&shared_info));
    CHECK_MPI(MPI_Type_free(&shared_type));
    for (int t = 0; t < THREADS; t++)
        CHECK_MPI(MPI_Comm_free(&own_comm[t]));
    CHECK_MPI(MPI_Comm_free(&shared_comm));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
