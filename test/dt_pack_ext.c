/* dt_pack_ext: shmpi's own answers where the standard leaves room - MPI_Pack_size is exact (no header) and MPI_UNDEFINED past INT_MAX, and the argument errors other MPIs let through (negative or uncommitted MPI_Pack_size, bad positions, NULL buffers). */
/* shmpi-test: np=1 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <limits.h>

int main(int argc, char **argv)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    int size, pos, v[4] = {0};
    char buf[64];
    MPI_Datatype big, loose, vec;
    CHECK_MPI(MPI_Init(&argc, &argv));

    CHECK_MPI(MPI_Type_vector(7, 3, 5, MPI_DOUBLE, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    CHECK_MPI(MPI_Pack_size(9, vec, comm, &size));
    CHECK(size == 9 * 7 * 3 * 8, "MPI_Pack_size: %d, not exact", size);
    CHECK_MPI(MPI_Pack_size(3, MPI_DOUBLE_INT, comm, &size));
    CHECK(size == 3 * 12, "MPI_Pack_size(MPI_DOUBLE_INT): %d", size);
    CHECK_MPI(MPI_Type_contiguous(1 << 20, MPI_DOUBLE, &big));
    CHECK_MPI(MPI_Type_commit(&big));
    CHECK_MPI(MPI_Pack_size(1 << 10, big, comm, &size));
    CHECK(size == MPI_UNDEFINED, "8 GiB gave MPI_Pack_size %d", size);

    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &loose));
    CHECK_CLASS(MPI_Pack_size(-1, MPI_INT, comm, &size), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Pack_size(1, loose, comm, &size), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Pack_size(1, MPI_INT, comm, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pack(v, 1, MPI_INT, buf, 64, NULL, comm), MPI_ERR_ARG);
    pos = 65;
    CHECK_CLASS(MPI_Pack(v, 0, MPI_INT, buf, 64, &pos, comm), MPI_ERR_ARG);
    pos = -1;
    CHECK_CLASS(MPI_Unpack(buf, 64, &pos, v, 1, MPI_INT, comm), MPI_ERR_ARG);
    pos = 0;
    CHECK_CLASS(MPI_Pack(v, 1, MPI_INT, buf, -4, &pos, comm), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pack(v, 1, MPI_INT, NULL, 64, &pos, comm),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Pack(NULL, 1, MPI_INT, buf, 64, &pos, comm),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Unpack(NULL, 64, &pos, v, 1, MPI_INT, comm),
                MPI_ERR_BUFFER);
    CHECK(pos == 0, "position moved to %d", pos);
    /* zero bytes need no buffers */
    CHECK_MPI(MPI_Pack(NULL, 0, MPI_INT, NULL, 0, &pos, comm));
    CHECK_MPI(MPI_Unpack(NULL, 0, &pos, NULL, 0, MPI_INT, comm));
    CHECK(pos == 0, "empty pack moved position to %d", pos);

    CHECK_MPI(MPI_Type_free(&loose));
    CHECK_MPI(MPI_Type_free(&big));
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
