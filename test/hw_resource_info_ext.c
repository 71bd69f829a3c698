/* hw_resource_info_ext: MPI_Get_hw_resource_info (MPI-4.1) names hardware levels as "hwloc://Type" keys with "true"/"false" values, true exactly where MPI_COMM_TYPE_HW_GUIDED of that key gives this process a communicator (the machine always, one hardware thread only when bound to one CPU); a new object each call; NULL refused. Open MPI 4.1 lacks it. */
/* shmpi-test: np=1,2,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "check.h"

#include <sched.h>

/* Every process calls HW_GUIDED with every key of rank 0's object (the
   split is collective); each checks its own value. */
static void keys_guide_the_split(MPI_Info hw, int rank)
{
    int nkeys;
    CHECK_MPI(MPI_Info_get_nkeys(hw, &nkeys));
    CHECK(nkeys >= 2, "%d keys", nkeys);
    int n0 = nkeys;
    CHECK_MPI(MPI_Bcast(&n0, 1, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK(n0 == nkeys, "rank %d has %d keys, rank 0 %d", rank, nkeys, n0);
    for (int i = 0; i < nkeys; i++) {
        char key[MPI_MAX_INFO_KEY], v[16];
        int len = sizeof v, flag;
        CHECK_MPI(MPI_Info_get_nthkey(hw, i, key));
        CHECK_MPI(MPI_Bcast(key, MPI_MAX_INFO_KEY, MPI_CHAR, 0,
                            MPI_COMM_WORLD));
        CHECK(!strncmp(key, "hwloc://", 8), "key \"%s\" is no URI", key);
        CHECK_MPI(MPI_Info_get_string(hw, key, &len, v, &flag));
        CHECK(flag && (!strcmp(v, "true") || !strcmp(v, "false")),
              "%s = \"%s\"", key, flag ? v : "(not set)");
        MPI_Info info;
        MPI_Comm c;
        CHECK_MPI(MPI_Info_create(&info));
        CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", key));
        CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED,
                                      0, info, &c));
        CHECK((c != MPI_COMM_NULL) == !strcmp(v, "true"),
              "%s is %s, but HW_GUIDED gave %s", key, v,
              c == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator");
        if (c != MPI_COMM_NULL)
            CHECK_MPI(MPI_Comm_free(&c));
        CHECK_MPI(MPI_Info_free(&info));
    }
}

static const char *value(MPI_Info hw, const char *key)
{
    static char v[16];
    int len = sizeof v, flag;
    CHECK_MPI(MPI_Info_get_string(hw, key, &len, v, &flag));
    return flag ? v : NULL;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Info hw, again;
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_MPI(MPI_Get_hw_resource_info(&hw));
    CHECK(hw != MPI_INFO_NULL, "MPI_INFO_NULL");
    keys_guide_the_split(hw, rank);

    const char *m = value(hw, "hwloc://Machine");
    CHECK(m && !strcmp(m, "true"), "hwloc://Machine is %s", m ? m : "unset");
    cpu_set_t set;
    CHECK(sched_getaffinity(0, sizeof set, &set) == 0, "sched_getaffinity");
    const char *pu = value(hw, "hwloc://PU");
    CHECK(pu && !strcmp(pu, CPU_COUNT(&set) == 1 ? "true" : "false"),
          "hwloc://PU is %s with %d CPUs", pu ? pu : "unset",
          CPU_COUNT(&set));

    CHECK_MPI(MPI_Get_hw_resource_info(&again));
    CHECK(again != hw, "the same object twice");
    CHECK_MPI(MPI_Info_free(&again));
    CHECK_MPI(MPI_Info_free(&hw));

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Get_hw_resource_info(NULL), MPI_ERR_ARG);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
