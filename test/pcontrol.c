/* pcontrol: MPI_Pcontrol returns MPI_SUCCESS for every level, with or without further arguments, and a profiling tool's MPI_Pcontrol (defined here) replaces the library's and reaches it through PMPI_Pcontrol. */
/* shmpi-test: np=1,2 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

/* What a profiling tool does: define MPI_Pcontrol, see every call, and
   hand it on to the MPI library under its PMPI_ name. */
static int seen_calls, seen_level = -1;

int MPI_Pcontrol(const int level, ...)
{
    seen_calls++;
    seen_level = level;
    return PMPI_Pcontrol(level);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    const int levels[] = {1, 0, 2, 1, -5, 1000};
    int n = (int)(sizeof levels / sizeof levels[0]);
    for (int i = 0; i < n; i++) {
        CHECK_MPI(MPI_Pcontrol(levels[i]));
        CHECK(seen_calls == i + 1 && seen_level == levels[i],
              "call %d (level %d) did not reach the tool's MPI_Pcontrol: "
              "%d calls seen, last level %d", i, levels[i], seen_calls,
              seen_level);
    }
    /* level values other than 0, 1, 2 may carry profiler-defined
       arguments; the library takes and ignores them */
    CHECK_MPI(MPI_Pcontrol(3, "phase", 42));
    CHECK_MPI(PMPI_Pcontrol(0));
    CHECK_MPI(PMPI_Pcontrol(7, 1.5, (void *)0));
    CHECK(seen_calls == n + 1, "PMPI_Pcontrol went through the tool: %d "
          "calls seen, expected %d", seen_calls, n + 1);
    /* profiling back on for the rest of the program, as after MPI_Init */
    CHECK_MPI(MPI_Pcontrol(1));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
