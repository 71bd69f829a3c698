/* thread_errors_remove_ext: under MPI_THREAD_MULTIPLE four threads at once add error classes, codes and strings, read them back, and take them back with MPI_Remove_error_string, _code and _class (MPI-4.1): each thread's own codes say what it set until it removes them, then are no codes; no number is ever given twice. */
/* shmpi-test: np=1,2 timeout=120 threads ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* Asks for MULTIPLE, needs SERIALIZED at least: shmpi guards the added
   codes (core/error.c) once MULTIPLE is asked for (thread_errh.c). */
#define THREADS 4
#define ROUNDS 300
#define CODES 3                /* per class and round */

/* Every number a thread was given, to check none is given twice. */
static int given[THREADS][ROUNDS * (CODES + 1)];

static int is_code(int code)
{
    int cls;
    return MPI_Error_class(code, &cls) == MPI_SUCCESS;
}

static void round_of(int id, int r)
{
    char want[64], s[MPI_MAX_ERROR_STRING];
    int cls, code[CODES], len, c;
    CHECK_MPI(MPI_Add_error_class(&cls));
    given[id][r * (CODES + 1)] = cls;
    for (int k = 0; k < CODES; k++) {
        CHECK_MPI(MPI_Add_error_code(cls, &code[k]));
        given[id][r * (CODES + 1) + 1 + k] = code[k];
        snprintf(want, sizeof want, "thread %d round %d code %d", id, r, k);
        CHECK_MPI(MPI_Add_error_string(code[k], want));
    }
    for (int k = 0; k < CODES; k++) {
        snprintf(want, sizeof want, "thread %d round %d code %d", id, r, k);
        CHECK_MPI(MPI_Error_string(code[k], s, &len));
        CHECK(!strcmp(s, want), "\"%s\", expected \"%s\"", s, want);
        CHECK_MPI(MPI_Error_class(code[k], &c));
        CHECK(c == cls, "class %d, expected %d", c, cls);
        CHECK_CLASS(MPI_Remove_error_class(cls), MPI_ERR_ARG); /* has codes */
        CHECK_MPI(MPI_Remove_error_string(code[k]));
        CHECK_MPI(MPI_Remove_error_code(code[k]));
        CHECK(!is_code(code[k]), "removed code %d still a code", code[k]);
    }
    CHECK_MPI(MPI_Remove_error_class(cls));
    CHECK(!is_code(cls), "removed class %d still a class", cls);
}

static void *work(void *arg)
{
    int id = (int)(long)arg;
    for (int r = 0; r < ROUNDS; r++)
        round_of(id, r);
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int provided;
    pthread_t th[THREADS];
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided >= MPI_THREAD_SERIALIZED,
          "MPI_Init_thread(MPI_THREAD_MULTIPLE) provided only %d", provided);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    for (long t = 0; t < THREADS; t++)
        CHECK(pthread_create(&th[t], NULL, work, (void *)t) == 0,
              "pthread_create");
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_join(th[t], NULL) == 0, "pthread_join");
    int n = THREADS * ROUNDS * (CODES + 1);
    int *all = &given[0][0];
    qsort(all, (size_t)n, sizeof *all, cmp);
    for (int i = 1; i < n; i++)
        CHECK(all[i] != all[i - 1], "number %d given twice", all[i]);
    CHECK(all[0] > MPI_ERR_LASTCODE, "number %d given", all[0]);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
