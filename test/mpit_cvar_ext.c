/* mpit_cvar_ext: shmpi's control variables are its tunables - SHMPI_EAGER_LIMIT read-only (MPI_T_ERR_CVAR_SET_NEVER) with its value in bytes, SHMPI_SPIN_US and SHMPI_YIELDS scope local, read from the environment before MPI_Init, not writable then (MPI_T_ERR_CVAR_SET_NOT_NOW), written and read back after it, out-of-range values refused; garbage in the environment reads as MPI_T_ERR_INVALID; the enumerations of SHMPI_BIND_TO, SHMPI_COLL_BARRIER and the yes/no tunables; exact error codes for bad indices, items and handles. */
/* shmpi-test: np=1,2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <limits.h>

static int index_of(const char *name)
{
    int i = -1;
    T_RC(MPI_T_cvar_get_index(name, &i), MPI_SUCCESS);
    return i;
}

static MPI_T_cvar_handle handle(const char *name)
{
    MPI_T_cvar_handle h;
    int count = 0;
    T_RC(MPI_T_cvar_handle_alloc(index_of(name), NULL, &h, &count),
         MPI_SUCCESS);
    CHECK(count == 1, "%s: count %d", name, count);
    return h;
}

static unsigned long long read_ull(const char *name)
{
    MPI_T_cvar_handle h = handle(name);
    unsigned long long v = 0;
    T_RC(MPI_T_cvar_read(h, &v), MPI_SUCCESS);
    T_RC(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    return v;
}

static int write_ull(const char *name, unsigned long long v)
{
    MPI_T_cvar_handle h = handle(name);
    int rc = MPI_T_cvar_write(h, &v);
    T_RC(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    return rc;
}

static int read_int(const char *name)
{
    MPI_T_cvar_handle h = handle(name);
    int v = -2;
    T_RC(MPI_T_cvar_read(h, &v), MPI_SUCCESS);
    T_RC(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    return v;
}

static void info(const char *name, MPI_Datatype *dt, MPI_T_enum *e,
                 int *scope)
{
    int bind = -1, verbosity = -1;
    T_RC(MPI_T_cvar_get_info(index_of(name), NULL, NULL, &verbosity, dt, e,
                             NULL, NULL, &bind, scope), MPI_SUCCESS);
    CHECK(bind == MPI_T_BIND_NO_OBJECT && verbosity ==
          MPI_T_VERBOSITY_USER_BASIC, "%s: bind %d verbosity %d", name,
          bind, verbosity);
}

/* Enumeration e has exactly these items, in this order. */
static void items(MPI_T_enum e, int n, const int *values,
                  const char *const *names)
{
    int num = -1, value, len;
    char name[64];
    T_RC(MPI_T_enum_get_info(e, &num, NULL, NULL), MPI_SUCCESS);
    CHECK(num == n, "%d items, expected %d", num, n);
    for (int k = 0; k < n; k++) {
        len = sizeof name;
        T_RC(MPI_T_enum_get_item(e, k, &value, name, &len), MPI_SUCCESS);
        CHECK(value == values[k] && strcmp(name, names[k]) == 0,
              "item %d: %d '%s', expected %d '%s'", k, value, name,
              values[k], names[k]);
    }
    T_RC(MPI_T_enum_get_item(e, n, &value, name, &len),
         MPI_T_ERR_INVALID_ITEM);
    T_RC(MPI_T_enum_get_item(e, -1, &value, name, &len),
         MPI_T_ERR_INVALID_ITEM);
}

static void before_init(void)
{
    setenv("SHMPI_SPIN_US", "7", 1);
    CHECK(read_ull("SHMPI_SPIN_US") == 7, "SHMPI_SPIN_US before MPI_Init");
    T_RC(write_ull("SHMPI_SPIN_US", 5), MPI_T_ERR_CVAR_SET_NOT_NOW);
    setenv("SHMPI_YIELDS", "junk", 1);
    MPI_T_cvar_handle h = handle("SHMPI_YIELDS");
    unsigned long long v;
    T_RC(MPI_T_cvar_read(h, &v), MPI_T_ERR_INVALID);
    setenv("SHMPI_YIELDS", "3", 1);
    T_RC(MPI_T_cvar_read(h, &v), MPI_SUCCESS);
    CHECK(v == 3, "SHMPI_YIELDS before MPI_Init: %llu", v);
    T_RC(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
}

static void wait_policy(void)
{
    MPI_Datatype dt;
    MPI_T_enum e;
    int scope;
    info("SHMPI_SPIN_US", &dt, &e, &scope);
    CHECK(dt == MPI_UNSIGNED_LONG_LONG && e == MPI_T_ENUM_NULL &&
          scope == MPI_T_SCOPE_LOCAL, "SHMPI_SPIN_US: info");
    CHECK(read_ull("SHMPI_SPIN_US") == 7 && read_ull("SHMPI_YIELDS") == 3,
          "the wait policy from the environment");
    T_RC(write_ull("SHMPI_SPIN_US", 0), MPI_SUCCESS);
    CHECK(read_ull("SHMPI_SPIN_US") == 0, "SHMPI_SPIN_US written 0");
    T_RC(write_ull("SHMPI_SPIN_US", 60000001ull), MPI_T_ERR_INVALID);
    CHECK(read_ull("SHMPI_SPIN_US") == 0, "SHMPI_SPIN_US after a refusal");
    T_RC(write_ull("SHMPI_YIELDS", 1000000), MPI_SUCCESS);
    CHECK(read_ull("SHMPI_YIELDS") == 1000000, "SHMPI_YIELDS written");
    T_RC(write_ull("SHMPI_YIELDS", 2), MPI_SUCCESS);
    /* waits still end: a barrier and a message with the new policy */
    int rank, size, token = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (size > 1 && rank == 0)
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, 1, 0, MPI_COMM_WORLD));
    if (size > 1 && rank == 1)
        CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
}

static void read_only(void)
{
    MPI_Datatype dt;
    MPI_T_enum e;
    int scope;
    info("SHMPI_EAGER_LIMIT", &dt, &e, &scope);
    CHECK(dt == MPI_UNSIGNED_LONG_LONG && e == MPI_T_ENUM_NULL &&
          scope == MPI_T_SCOPE_READONLY, "SHMPI_EAGER_LIMIT: info");
    if (!getenv("SHMPI_EAGER_LIMIT"))
        CHECK(read_ull("SHMPI_EAGER_LIMIT") == 16384,
              "SHMPI_EAGER_LIMIT %llu", read_ull("SHMPI_EAGER_LIMIT"));
    T_RC(write_ull("SHMPI_EAGER_LIMIT", 1024), MPI_T_ERR_CVAR_SET_NEVER);
    if (!getenv("SHMPI_RING_KB"))
        CHECK(read_ull("SHMPI_RING_KB") == 128 * 1024, "SHMPI_RING_KB");
    /* a launcher's own: this rank's environment has no SHMPI_NP */
    CHECK(read_ull("SHMPI_NP") == ULLONG_MAX, "SHMPI_NP %llu",
          read_ull("SHMPI_NP"));
    T_RC(write_ull("SHMPI_NP", 2), MPI_T_ERR_CVAR_SET_NEVER);
}

static void enums(void)
{
    MPI_Datatype dt;
    MPI_T_enum e, e2;
    int scope, n;
    info("SHMPI_BIND_TO", &dt, &e, &scope);
    CHECK(dt == MPI_INT && e != MPI_T_ENUM_NULL, "SHMPI_BIND_TO: info");
    items(e, 3, (const int[]){0, 1, -1},
          (const char *const[]){"core", "none", "unset"});
    if (!getenv("SHMPI_BIND_TO"))
        CHECK(read_int("SHMPI_BIND_TO") == -1, "SHMPI_BIND_TO %d",
              read_int("SHMPI_BIND_TO"));
    info("SHMPI_COLL_BARRIER", &dt, &e, &scope);
    CHECK(dt == MPI_INT, "SHMPI_COLL_BARRIER: datatype");
    items(e, 2, (const int[]){0, 1},
          (const char *const[]){"dissemination", "counter"});
    int b = read_int("SHMPI_COLL_BARRIER");
    CHECK(b == 0 || b == 1, "SHMPI_COLL_BARRIER %d", b);
    info("SHMPI_TAG_OUTPUT", &dt, &e, &scope);
    info("SHMPI_REPORT_BINDINGS", &dt, &e2, &scope);
    CHECK(dt == MPI_INT && e == e2, "one yes/no enumeration");
    items(e, 2, (const int[]){0, 1}, (const char *const[]){"no", "yes"});
    T_RC(MPI_T_enum_get_info((MPI_T_enum)&n, &n, NULL, NULL),
         MPI_T_ERR_INVALID_HANDLE);
    /* every enumeration is an MPI_INT, every other one a 64-bit count */
    T_RC(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    for (int i = 0; i < n; i++) {
        T_RC(MPI_T_cvar_get_info(i, NULL, NULL, NULL, &dt, &e, NULL, NULL,
                                 NULL, NULL), MPI_SUCCESS);
        CHECK(e == MPI_T_ENUM_NULL ? dt == MPI_UNSIGNED_LONG_LONG
                                   : dt == MPI_INT, "cvar %d: datatype", i);
    }
}

static void bad_handles(void)
{
    int n, count;
    MPI_T_cvar_handle h, copy;
    T_RC(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    T_RC(MPI_T_cvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                             NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    T_RC(MPI_T_cvar_handle_alloc(-1, NULL, &h, &count),
         MPI_T_ERR_INVALID_INDEX);
    T_RC(MPI_T_cvar_get_index(NULL, &n), MPI_T_ERR_INVALID);
    h = copy = handle("SHMPI_CHUNK");
    unsigned long long v;
    T_RC(MPI_T_cvar_read(h, NULL), MPI_T_ERR_INVALID);
    T_RC(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    T_RC(MPI_T_cvar_read(copy, &v), MPI_T_ERR_INVALID_HANDLE);
    T_RC(MPI_T_cvar_write(copy, &v), MPI_T_ERR_INVALID_HANDLE);
    T_RC(MPI_T_cvar_handle_free(&copy), MPI_T_ERR_INVALID_HANDLE);
    T_RC(MPI_T_cvar_handle_free(&h), MPI_T_ERR_INVALID_HANDLE);
}

int main(int argc, char **argv)
{
    int provided;
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    before_init();
    CHECK_MPI(MPI_Init(&argc, &argv));
    wait_policy();
    read_only();
    enums();
    bad_handles();
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
