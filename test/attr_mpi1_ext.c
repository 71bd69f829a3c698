/* attr_mpi1_ext: shmpi's error classes for the MPI-1 attribute calls, as for their MPI-2 forms: MPI_ERR_KEYVAL for freed, predefined and datatype keys, MPI_ERR_COMM for MPI_Attr_get on MPI_COMM_NULL, MPI_ERR_ARG for a NULL keyval pointer. */
/* shmpi-test: np=1,2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/* The calls under test are deprecated: their warnings are expected. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include "check.h"

int main(int argc, char **argv)
{
    int k, freed, tk, flag;
    void *v;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &k,
                                NULL));
    CHECK_CLASS(MPI_Attr_get(MPI_COMM_NULL, k, &v, &flag), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Attr_get(MPI_COMM_WORLD, k, NULL, &flag), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, NULL,
                                  NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Keyval_free(NULL), MPI_ERR_ARG);
    freed = k;
    CHECK_MPI(MPI_Keyval_free(&k));
    CHECK_CLASS(MPI_Attr_put(MPI_COMM_WORLD, freed, (void *)1),
                MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Attr_get(MPI_COMM_WORLD, freed, &v, &flag),
                MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Attr_delete(MPI_COMM_WORLD, freed), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Keyval_free(&freed), MPI_ERR_KEYVAL);
    /* the predefined keys may be read, never written or freed */
    CHECK_CLASS(MPI_Attr_put(MPI_COMM_WORLD, MPI_TAG_UB, (void *)1),
                MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Attr_delete(MPI_COMM_WORLD, MPI_TAG_UB), MPI_ERR_KEYVAL);
    int pre = MPI_TAG_UB;
    CHECK_CLASS(MPI_Keyval_free(&pre), MPI_ERR_KEYVAL);
    /* a datatype key is no communicator key */
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN,
                                     MPI_TYPE_NULL_DELETE_FN, &tk, NULL));
    CHECK_CLASS(MPI_Attr_put(MPI_COMM_WORLD, tk, (void *)1), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Keyval_free(&tk), MPI_ERR_KEYVAL);
    CHECK_MPI(MPI_Type_free_keyval(&tk));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
