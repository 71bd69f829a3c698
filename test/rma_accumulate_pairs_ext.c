/* rma_accumulate_pairs_ext: MPI_Accumulate, MPI_Get_accumulate and MPI_Fetch_and_op with MPI_MAXLOC, MPI_MINLOC and MPI_REPLACE on the pair types that have padding (MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT), from every rank into every rank, contiguous and strided, on every window flavor, each under fence, lock_all + flush_all and per-target lock/unlock. */
/* shmpi-test: np=1,2,3,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Standard MPI, but Open MPI 4.1 refuses these types in MINLOC/MAXLOC
 * accumulates ("currently unsupported") and crashes on MPI_REPLACE with
 * MPI_DOUBLE_INT, hence ext.  The harness is rma_acc.h.
 */
#include "rma_acc.h"

struct psi { short v; int i; };

static const struct acase cases[] = {
    PAIR_CASE(MPI_MAXLOC, MPI_DOUBLE_INT, struct pdi, K_PAIR_DOUBLE),
    PAIR_CASE(MPI_MINLOC, MPI_DOUBLE_INT, struct pdi, K_PAIR_DOUBLE),
    PAIR_CASE(MPI_MINLOC, MPI_LONG_INT, struct pli, K_PAIR_LONG),
    PAIR_CASE(MPI_MAXLOC, MPI_SHORT_INT, struct psi, K_PAIR_SHORT),
    PAIR_CASE(MPI_REPLACE, MPI_DOUBLE_INT, struct pdi, K_PAIR_DOUBLE),
    PAIR_CASE(MPI_REPLACE, MPI_LONG_INT, struct pli, K_PAIR_LONG),
};

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    run_all_flavors(cases, (int)(sizeof cases / sizeof cases[0]));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
