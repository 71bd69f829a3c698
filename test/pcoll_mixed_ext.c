/* pcoll_mixed_ext: persistent MPI_Allreduce_init requests of a few bytes (separate buffers, MPI_IN_PLACE, a user-defined non-commutative op on 16 bytes, and one of 32 bytes) started 4000 times with values that change each round, with blocking and nonblocking collectives and a second started persistent Allreduce on the same communicator between MPI_Start and the wait, completed in either order; every result checked exactly; then one freed while it runs.  ext: Open MPI 4.1 has only the MPIX_ names. */
/* shmpi-test: np=1,2,3,4,7 timeout=120 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "pcoll_mixed.h"

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    mixed(MPI_COMM_WORLD, 0, 4000);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
