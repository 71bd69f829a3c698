/* rma_accumulate: MPI_Accumulate with every predefined op (MAX ... MINLOC, MPI_REPLACE) on several types each, from every rank into every rank, as one element and as several, into contiguous and strided (derived) target types; MPI_Get_accumulate (MPI_NO_OP included) and MPI_Fetch_and_op return the old values; on every window flavor (allocate, create over malloc, MPI_Alloc_mem and stack memory, allocate_shared, dynamic), each under fence, lock_all + flush_all and per-target lock/unlock (shared for accumulates, exclusive for fetches). */
/* shmpi-test: np=1,2,3,4,8 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The harness is rma_acc.h.  The pair types with padding (MPI_DOUBLE_INT,
 * MPI_LONG_INT) are in rma_accumulate_pairs_ext: Open MPI 4.1 refuses
 * them in MINLOC/MAXLOC accumulates and crashes on MPI_REPLACE.
 */
#include "rma_acc.h"

static const struct acase cases[] = {
    INT_CASE(MPI_SUM, MPI_INT, int, K_INT),
    INT_CASE(MPI_SUM, MPI_UNSIGNED, unsigned, K_UINT),
    INT_CASE(MPI_SUM, MPI_LONG_LONG, long long, K_INT),
    INT_CASE(MPI_SUM, MPI_INT8_T, int8_t, K_INT),
    INT_CASE(MPI_SUM, MPI_UINT16_T, uint16_t, K_UINT),
    INT_CASE(MPI_SUM, MPI_FLOAT, float, K_FLOAT),
    INT_CASE(MPI_SUM, MPI_DOUBLE, double, K_DOUBLE),
    INT_CASE(MPI_PROD, MPI_INT, int, K_INT),
    INT_CASE(MPI_PROD, MPI_INT8_T, int8_t, K_INT),
    INT_CASE(MPI_PROD, MPI_DOUBLE, double, K_DOUBLE),
    INT_CASE(MPI_MAX, MPI_INT, int, K_INT),
    INT_CASE(MPI_MAX, MPI_UNSIGNED_LONG, unsigned long, K_UINT),
    INT_CASE(MPI_MAX, MPI_SHORT, short, K_INT),
    INT_CASE(MPI_MAX, MPI_DOUBLE, double, K_DOUBLE),
    INT_CASE(MPI_MIN, MPI_INT, int, K_INT),
    INT_CASE(MPI_MIN, MPI_UINT8_T, uint8_t, K_UINT),
    INT_CASE(MPI_MIN, MPI_FLOAT, float, K_FLOAT),
    INT_CASE(MPI_LAND, MPI_INT, int, K_BOOL),
    INT_CASE(MPI_LAND, MPI_C_BOOL, bool, K_BOOL),
    INT_CASE(MPI_LOR, MPI_INT, int, K_BOOL),
    INT_CASE(MPI_LOR, MPI_C_BOOL, bool, K_BOOL),
    INT_CASE(MPI_LXOR, MPI_INT, int, K_BOOL),
    INT_CASE(MPI_LXOR, MPI_C_BOOL, bool, K_BOOL),
    INT_CASE(MPI_BAND, MPI_INT, int, K_UINT),
    INT_CASE(MPI_BAND, MPI_UINT8_T, uint8_t, K_UINT),
    INT_CASE(MPI_BOR, MPI_UNSIGNED_LONG, unsigned long, K_UINT),
    INT_CASE(MPI_BOR, MPI_BYTE, unsigned char, K_UINT),
    INT_CASE(MPI_BXOR, MPI_INT, int, K_UINT),
    INT_CASE(MPI_BXOR, MPI_UINT16_T, uint16_t, K_UINT),
    PAIR_CASE(MPI_MAXLOC, MPI_2INT, struct pii, K_PAIR_INT),
    PAIR_CASE(MPI_MINLOC, MPI_FLOAT_INT, struct pfi, K_PAIR_FLOAT),
    PAIR_CASE(MPI_MINLOC, MPI_2INT, struct pii, K_PAIR_INT),
    INT_CASE(MPI_REPLACE, MPI_INT, int, K_INT),
    INT_CASE(MPI_REPLACE, MPI_DOUBLE, double, K_DOUBLE),
};


int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    run_all_flavors(cases, (int)(sizeof cases / sizeof cases[0]));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
