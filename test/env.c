/* env: MPI_Initialized/Finalized around Init and Finalize, versions, processor name, Wtime/Wtick, thread queries, predefined attributes of MPI_COMM_WORLD. */
/* shmpi-test: np=1,3 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <math.h>
#include <time.h>

static int get_attr(int key, const char *name, int must_exist)
{
    int *val = NULL, flag = -1;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &val, &flag));
    CHECK(flag == 0 || flag == 1, "%s: flag %d", name, flag);
    if (must_exist)
        CHECK(flag == 1, "predefined attribute %s is not set on MPI_COMM_WORLD",
              name);
    if (!flag)
        return -12345;
    CHECK(val != NULL, "%s: flag set but the value pointer is NULL", name);
    return *val;
}

int main(int argc, char **argv)
{
    int flag = -1, size, rank;

    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(flag == 0, "MPI_Initialized says %d before MPI_Init", flag);
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK(flag == 0, "MPI_Finalized says %d before MPI_Init", flag);
    /* Get_version works at any time (8.1.1). */
    int version = -1, subversion = -1;
    CHECK_MPI(MPI_Get_version(&version, &subversion));
    CHECK(version == MPI_VERSION && subversion == MPI_SUBVERSION,
          "MPI_Get_version before MPI_Init: %d.%d", version, subversion);

    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(flag == 1, "MPI_Initialized says %d after MPI_Init", flag);
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK(flag == 0, "MPI_Finalized says %d after MPI_Init", flag);
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));

    /* Versions. */
    version = subversion = -1;
    CHECK_MPI(MPI_Get_version(&version, &subversion));
    CHECK(version == MPI_VERSION && subversion == MPI_SUBVERSION,
          "MPI_Get_version %d.%d, mpi.h says %d.%d", version, subversion,
          MPI_VERSION, MPI_SUBVERSION);
    CHECK(version > 3 || (version == 3 && subversion >= 1),
          "MPI_Get_version %d.%d, this suite is written for 3.1", version,
          subversion);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = -1;
    memset(lib, 'X', sizeof lib);
    CHECK_MPI(MPI_Get_library_version(lib, &len));
    /* The standard stores the NUL at version[resultlen]; Open MPI 4.1
       counts it in resultlen.  env_ext.c is exact. */
    CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING &&
              strlen(lib) > 0 &&
              ((int)strlen(lib) == len || (int)strlen(lib) == len - 1),
          "MPI_Get_library_version: resultlen %d, strlen %zu", len,
          strnlen(lib, sizeof lib));

    /* Processor name. */
    char name[MPI_MAX_PROCESSOR_NAME];
    len = -1;
    memset(name, 'X', sizeof name);
    CHECK_MPI(MPI_Get_processor_name(name, &len));
    CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME && name[len] == '\0' &&
              (int)strlen(name) == len,
          "MPI_Get_processor_name: resultlen %d", len);

    /* Clocks. */
    double tick = MPI_Wtick();
    CHECK(tick > 0 && tick <= 0.01, "MPI_Wtick() = %g", tick);
    double t0 = MPI_Wtime(), prev = t0;
    CHECK(isfinite(t0), "MPI_Wtime() = %g", t0);
    for (int i = 0; i < 200000; i++) {
        double t = MPI_Wtime();
        CHECK(t >= prev, "MPI_Wtime went backwards: %.9f after %.9f", t, prev);
        prev = t;
    }
    struct timespec ts = {0, 50 * 1000 * 1000};
    double a = MPI_Wtime();
    nanosleep(&ts, NULL);
    double b = MPI_Wtime();
    CHECK(b - a >= 0.049 && b - a < 30,
          "a 50 ms sleep took %.6f s by MPI_Wtime", b - a);

    /* Threads: MPI_Init is MPI_Init_thread(MPI_THREAD_SINGLE). */
    CHECK(MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED &&
              MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED &&
              MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE,
          "thread levels are not ordered");
    int provided = -1;
    CHECK_MPI(MPI_Query_thread(&provided));
    CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE,
          "MPI_Query_thread: %d", provided);
    flag = -1;
    CHECK_MPI(MPI_Is_thread_main(&flag));
    CHECK(flag == 1, "MPI_Is_thread_main: %d in the thread that called MPI_Init",
          flag);

    /* Predefined attributes (8.1.2). */
    int tag_ub = get_attr(MPI_TAG_UB, "MPI_TAG_UB", 1);
    CHECK(tag_ub >= 32767, "MPI_TAG_UB = %d < 32767", tag_ub);
    int host = get_attr(MPI_HOST, "MPI_HOST", 1);
    CHECK(host == MPI_PROC_NULL || (host >= 0 && host < size), "MPI_HOST = %d",
          host);
    int io = get_attr(MPI_IO, "MPI_IO", 1);
    CHECK(io == MPI_PROC_NULL || io == MPI_ANY_SOURCE || (io >= 0 && io < size),
          "MPI_IO = %d", io);
    int global = get_attr(MPI_WTIME_IS_GLOBAL, "MPI_WTIME_IS_GLOBAL", 0);
    CHECK(global == -12345 || global == 0 || global == 1,
          "MPI_WTIME_IS_GLOBAL = %d", global);
    int universe = get_attr(MPI_UNIVERSE_SIZE, "MPI_UNIVERSE_SIZE", 0);
    /* Open MPI sets it to the number of slots (cores), maybe < size. */
    CHECK(universe == -12345 || universe >= 1, "MPI_UNIVERSE_SIZE = %d",
          universe);
    int appnum = get_attr(MPI_APPNUM, "MPI_APPNUM", 0);
    CHECK(appnum == -12345 || appnum >= 0, "MPI_APPNUM = %d", appnum);
    int last = get_attr(MPI_LASTUSEDCODE, "MPI_LASTUSEDCODE", 1);
    CHECK(last >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE = %d < MPI_ERR_LASTCODE",
          last);

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    flag = -1;
    MPI_Initialized(&flag);
    CHECK(flag == 1, "MPI_Initialized says %d after MPI_Finalize", flag);
    flag = -1;
    MPI_Finalized(&flag);
    CHECK(flag == 1, "MPI_Finalized says %d after MPI_Finalize", flag);
    version = -1;
    MPI_Get_version(&version, &subversion);
    CHECK(version == MPI_VERSION, "MPI_Get_version after MPI_Finalize: %d",
          version);
    return 0;
}
