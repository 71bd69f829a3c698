/* p2p_part_dtype_ext: partitioned communication with derived datatypes of different shapes at the two ends: the sender's element is a vector of 2 blocks of 2 ints with stride 3 (6 partitions of 2), the receiver's 4 ints with a 1-int gap after them (4 partitions of 3), the same type signature; the holes are left untouched and the data lands in order, round after round. */
/* shmpi-test: np=2,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define INTS 48                /* ints moved per round */
#define ROUNDS 50

static int rank;

static void sender(int to)
{
    static int out[12 * 6];    /* 12 elements of extent 5 ints (+ slack) */
    MPI_Datatype vec;
    MPI_Request r;
    CHECK_MPI(MPI_Type_vector(2, 2, 3, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    CHECK_MPI(MPI_Psend_init(out, 6, 2, vec, to, 0, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Type_free(&vec)); /* the request keeps it */
    for (int round = 0; round < ROUNDS; round++) {
        CHECK_MPI(MPI_Start(&r));
        int k = 0;
        for (int e = 0; e < 12; e++) /* element e starts at 5 * e ints */
            for (int b = 0; b < 2; b++)
                for (int i = 0; i < 2; i++)
                    out[5 * e + 3 * b + i] = round * 1000 + k++;
        for (int p = 5; p >= 0; p--)
            CHECK_MPI(MPI_Pready(p, r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    CHECK_MPI(MPI_Request_free(&r));
}

static void receiver(int from)
{
    static int in[12 * 5];
    MPI_Datatype four, gap;
    MPI_Request r;
    CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &four));
    CHECK_MPI(MPI_Type_create_resized(four, 0, 5 * sizeof(int), &gap));
    CHECK_MPI(MPI_Type_commit(&gap));
    CHECK_MPI(MPI_Precv_init(in, 4, 3, gap, from, 0, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &r));
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < 12 * 5; i++)
            in[i] = -1;
        CHECK_MPI(MPI_Start(&r));
        MPI_Status st;
        CHECK_MPI(MPI_Wait(&r, &st));
        int k = 0;
        for (int e = 0; e < 12; e++) {
            for (int i = 0; i < 4; i++, k++)
                CHECK(in[5 * e + i] == round * 1000 + k,
                      "round %d: int %d of element %d is %d", round, i, e,
                      in[5 * e + i]);
            CHECK(in[5 * e + 4] == -1, "round %d: the gap after element %d "
                  "was written", round, e);
        }
        int count;
        CHECK_MPI(MPI_Get_count(&st, gap, &count));
        CHECK(count == 12, "round %d: count %d of the gap type", round,
              count);
    }
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_MPI(MPI_Type_free(&gap));
    CHECK_MPI(MPI_Type_free(&four));
}

int main(int argc, char **argv)
{
    int size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size % 2 == 0 && INTS == 12 * 4, "needs an even number of ranks");
    if (rank % 2 == 0)
        sender(rank + 1);
    else
        receiver(rank - 1);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
