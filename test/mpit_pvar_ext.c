/* mpit_pvar_ext: shmpi's performance variables - the arena's size and fixed part (0 before MPI_Init), MPI_Alloc_mem's mapped bytes following an allocation and its free, the collective areas in use growing with a communicator, the flow-control state going to yes with a message held over a bound of 0 and back with its receive, and the counter shmpi_comm_contexts counting communicators made only while started, with stop, reset, write and an atomic readreset; exact error codes for what a variable does not allow and for bad sessions and handles. */
/* shmpi-test: np=1,2,3 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static MPI_T_pvar_session s;

static MPI_T_pvar_handle handle(const char *name, int var_class)
{
    int i = -1, count = 0, cls, readonly, continuous, atomic, bind;
    MPI_Datatype dt;
    T_RC(MPI_T_pvar_get_index(name, var_class, &i), MPI_SUCCESS);
    T_RC(MPI_T_pvar_get_info(i, NULL, NULL, NULL, &cls, &dt, NULL, NULL,
                             NULL, &bind, &readonly, &continuous, &atomic),
         MPI_SUCCESS);
    CHECK(cls == var_class && bind == MPI_T_BIND_NO_OBJECT &&
          dt == (cls == MPI_T_PVAR_CLASS_STATE ? MPI_INT
                                               : MPI_UNSIGNED_LONG_LONG),
          "%s: info", name);
    MPI_T_pvar_handle h;
    T_RC(MPI_T_pvar_handle_alloc(s, i, NULL, &h, &count), MPI_SUCCESS);
    CHECK(count == 1, "%s: count %d", name, count);
    return h;
}

static unsigned long long get(MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    T_RC(MPI_T_pvar_read(s, h, &v), MPI_SUCCESS);
    return v;
}

/* A communicator made and freed: one context, job-wide, taken by rank
   0 between two barriers - after every rank's MPI_T calls before, and
   before every rank's after. */
static void new_comm(void)
{
    MPI_Comm c;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static void before_init(void)
{
    T_RC(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    MPI_T_pvar_handle h = handle("shmpi_arena_bytes", MPI_T_PVAR_CLASS_SIZE);
    CHECK(get(h) == 0, "arena bytes before MPI_Init: %llu", get(h));
    T_RC(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
}

static void arena(void)
{
    MPI_T_pvar_handle h = handle("shmpi_arena_bytes", MPI_T_PVAR_CLASS_SIZE),
                      r = handle("shmpi_arena_fixed_bytes",
                                 MPI_T_PVAR_CLASS_SIZE);
    unsigned long long bytes = get(h), reserved = get(r);
    CHECK(bytes > 0 && reserved > 0 && reserved <= bytes,
          "arena %llu bytes, %llu reserved", bytes, reserved);
    T_RC(MPI_T_pvar_start(s, h), MPI_T_ERR_PVAR_NO_STARTSTOP);
    T_RC(MPI_T_pvar_stop(s, h), MPI_T_ERR_PVAR_NO_STARTSTOP);
    T_RC(MPI_T_pvar_reset(s, h), MPI_T_ERR_PVAR_NO_WRITE);
    T_RC(MPI_T_pvar_write(s, h, &bytes), MPI_T_ERR_PVAR_NO_WRITE);
    T_RC(MPI_T_pvar_readreset(s, h, &bytes), MPI_T_ERR_PVAR_NO_WRITE);
}

static void alloc_mem(void)
{
    MPI_T_pvar_handle h = handle("shmpi_alloc_mem_bytes",
                                 MPI_T_PVAR_CLASS_LEVEL);
    unsigned long long before = get(h), size = 4 << 20;
    void *p;
    CHECK_MPI(MPI_Alloc_mem((MPI_Aint)size, MPI_INFO_NULL, &p));
    CHECK(get(h) >= before + size, "after MPI_Alloc_mem: %llu, before %llu",
          get(h), before);
    CHECK_MPI(MPI_Free_mem(p));
    CHECK(get(h) == before, "after MPI_Free_mem: %llu, before %llu", get(h),
          before);
}

static void coll_areas(int size)
{
    MPI_T_pvar_handle h = handle("shmpi_coll_areas_used",
                                 MPI_T_PVAR_CLASS_LEVEL);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    unsigned long long before = get(h);
    CHECK(size == 1 || before >= 1, "world holds no area: %llu", before);
    MPI_Comm c;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every rank has read */
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Barrier(c)); /* its area is in use */
    CHECK(size == 1 || get(h) == before + 1, "areas %llu after a dup, %llu "
          "before", get(h), before);
    CHECK_MPI(MPI_Comm_free(&c));
}

/* With SHMPI_UNEXPECTED_MB=0 (main), one message held before its
   receive puts rank 1 over its bound, and the receive takes it back. */
static void unexpected_over(int rank, int size)
{
    MPI_T_pvar_handle h = handle("shmpi_unexpected_over",
                                 MPI_T_PVAR_CLASS_STATE);
    int over = -1, flag = 0, v = rank;
    MPI_T_enum e;
    int i, num = 0, value, len = 8;
    char name[8];
    T_RC(MPI_T_pvar_get_index("shmpi_unexpected_over",
                              MPI_T_PVAR_CLASS_STATE, &i), MPI_SUCCESS);
    T_RC(MPI_T_pvar_get_info(i, NULL, NULL, NULL, NULL, NULL, &e, NULL,
                             NULL, NULL, NULL, NULL, NULL), MPI_SUCCESS);
    T_RC(MPI_T_enum_get_info(e, &num, NULL, NULL), MPI_SUCCESS);
    T_RC(MPI_T_enum_get_item(e, 1, &value, name, &len), MPI_SUCCESS);
    CHECK(num == 2 && value == 1 && strcmp(name, "yes") == 0,
          "the state's enumeration: %d items, item 1 %d '%s'", num, value,
          name);
    T_RC(MPI_T_pvar_read(s, h, &over), MPI_SUCCESS);
    CHECK(over == 0, "over its bound with nothing held: %d", over);
    if (size == 1)
        return;
    if (rank == 0)
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank != 1)
        return;
    while (!flag) /* progress takes the message in, unexpected */
        CHECK_MPI(MPI_Iprobe(0, 5, MPI_COMM_WORLD, &flag,
                             MPI_STATUS_IGNORE));
    T_RC(MPI_T_pvar_read(s, h, &over), MPI_SUCCESS);
    CHECK(over == 1, "one message held, bound 0: over is %d", over);
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    T_RC(MPI_T_pvar_read(s, h, &over), MPI_SUCCESS);
    CHECK(over == 0, "after its receive: over is %d", over);
}

static void contexts(void)
{
    MPI_T_pvar_handle h = handle("shmpi_comm_contexts",
                                 MPI_T_PVAR_CLASS_COUNTER);
    unsigned long long v = 7;
    CHECK(get(h) == 0, "a new counter reads %llu", get(h));
    new_comm();
    CHECK(get(h) == 0, "a stopped counter counted: %llu", get(h));
    T_RC(MPI_T_pvar_start(s, h), MPI_SUCCESS);
    for (int i = 0; i < 3; i++)
        new_comm();
    CHECK(get(h) == 3, "3 communicators counted as %llu", get(h));
    T_RC(MPI_T_pvar_stop(s, h), MPI_SUCCESS);
    new_comm();
    CHECK(get(h) == 3, "counted while stopped: %llu", get(h));
    T_RC(MPI_T_pvar_reset(s, h), MPI_SUCCESS);
    CHECK(get(h) == 0, "after reset: %llu", get(h));
    T_RC(MPI_T_pvar_write(s, h, &v), MPI_SUCCESS);
    CHECK(get(h) == 7, "after writing 7: %llu", get(h));
    T_RC(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    new_comm();
    T_RC(MPI_T_pvar_readreset(s, h, &v), MPI_SUCCESS);
    CHECK(v == 8, "readreset gave %llu", v);
    CHECK(get(h) == 0, "after readreset: %llu", get(h));
    new_comm();
    CHECK(get(h) == 1, "counting on after readreset: %llu", get(h));
    T_RC(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    T_RC(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    CHECK(get(h) == 0, "after resetting all: %llu", get(h));
}

static void bad(void)
{
    int n, i, count;
    unsigned long long v;
    MPI_T_pvar_session other, gone;
    MPI_T_pvar_handle h;
    T_RC(MPI_T_pvar_get_num(&n), MPI_SUCCESS);
    T_RC(MPI_T_pvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                             NULL, NULL, NULL, NULL, NULL),
         MPI_T_ERR_INVALID_INDEX);
    T_RC(MPI_T_pvar_get_index("shmpi_arena_bytes", MPI_T_PVAR_CLASS_LEVEL,
                              &i), MPI_T_ERR_INVALID_NAME);
    T_RC(MPI_T_pvar_handle_alloc(s, n, NULL, &h, &count),
         MPI_T_ERR_INVALID_INDEX);
    T_RC(MPI_T_pvar_session_create(&other), MPI_SUCCESS);
    T_RC(MPI_T_pvar_session_create(&gone), MPI_SUCCESS);
    MPI_T_pvar_session copy = gone;
    T_RC(MPI_T_pvar_session_free(&gone), MPI_SUCCESS);
    T_RC(MPI_T_pvar_session_free(&copy), MPI_T_ERR_INVALID_SESSION);
    T_RC(MPI_T_pvar_handle_alloc(copy, 0, NULL, &h, &count),
         MPI_T_ERR_INVALID_SESSION);
    h = handle("shmpi_arena_bytes", MPI_T_PVAR_CLASS_SIZE);
    T_RC(MPI_T_pvar_read(other, h, &v), MPI_T_ERR_INVALID_HANDLE);
    T_RC(MPI_T_pvar_handle_free(other, &h), MPI_T_ERR_INVALID_HANDLE);
    T_RC(MPI_T_pvar_read(s, MPI_T_PVAR_ALL_HANDLES, &v),
         MPI_T_ERR_INVALID_HANDLE);
    T_RC(MPI_T_pvar_read(s, h, NULL), MPI_T_ERR_INVALID);
    MPI_T_pvar_handle hc = h;
    T_RC(MPI_T_pvar_handle_free(s, &h), MPI_SUCCESS);
    T_RC(MPI_T_pvar_read(s, hc, &v), MPI_T_ERR_INVALID_HANDLE);
    /* a session's free frees its handles */
    T_RC(MPI_T_pvar_handle_alloc(other, 0, NULL, &h, &count), MPI_SUCCESS);
    T_RC(MPI_T_pvar_session_free(&other), MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    int provided, size, rank;
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    before_init();
    setenv("SHMPI_UNEXPECTED_MB", "0", 1); /* each rank's own */
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    T_RC(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    arena();
    alloc_mem();
    coll_areas(size);
    unexpected_over(rank, size);
    contexts();
    bad();
    T_RC(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
