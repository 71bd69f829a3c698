/* intercomm_merge: MPI_Intercomm_merge with high false/true on either side (the false group first, each group in its own order) and equal on both (some order both groups agree on), over even/odd and over uneven groups led by their last ranks; collectives and messages on the result. */
/* shmpi-test: np=2,3,4,7,16 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "intercomm.h"

static int rank, size;

/* The world ranks of merged's members, in its order, as every process
   sees them: the same list everywhere. */
static void members_of(MPI_Comm merged, int *world)
{
    int msize = -1;
    CHECK_MPI(MPI_Comm_size(merged, &msize));
    CHECK(msize == size, "merged size %d, expected %d", msize, size);
    CHECK_MPI(MPI_Allgather(&rank, 1, MPI_INT, world, 1, MPI_INT, merged));
    int first[64];
    memcpy(first, world, sizeof first);
    CHECK_MPI(MPI_Bcast(first, size, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK(!memcmp(first, world, (size_t)size * sizeof *world),
          "the processes disagree on the order of the merged group");
}

/* world lists group a (world ranks a[0..na)) then group b. */
static int is_concat(const int *world, const int *a, int na, const int *b,
                     int nb)
{
    return !memcmp(world, a, (size_t)na * sizeof *a) &&
           !memcmp(world + na, b, (size_t)nb * sizeof *b);
}

/* Messages around a ring and an allreduce on the merged communicator. */
static void use(MPI_Comm merged)
{
    int r, right, left, got = -1, sum = -1;
    CHECK_MPI(MPI_Comm_rank(merged, &r));
    right = (r + 1) % size;
    left = (r + size - 1) % size;
    CHECK_MPI(MPI_Sendrecv(&r, 1, MPI_INT, right, 3, &got, 1, MPI_INT,
                           MPI_ANY_SOURCE, MPI_ANY_TAG, merged,
                           MPI_STATUS_IGNORE));
    CHECK(got == left, "merged ring: got %d, expected %d", got, left);
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, merged));
    CHECK(sum == size * (size - 1) / 2, "merged allreduce: %d", sum);
    CHECK_MPI(MPI_Barrier(merged));
}

/* Groups a (this process's side if mine_is_a) and b of inter: every
   combination of the high flags. */
static void merges(MPI_Comm inter, int in_a, const int *a, int na,
                   const int *b, int nb, const char *what)
{
    for (int ha = 0; ha < 2; ha++)
        for (int hb = 0; hb < 2; hb++) {
            MPI_Comm merged;
            int world[64];
            CHECK_MPI(MPI_Intercomm_merge(inter, in_a ? ha : hb, &merged));
            members_of(merged, world);
            int a_first = is_concat(world, a, na, b, nb);
            int b_first = is_concat(world, b, nb, a, na);
            if (ha != hb)
                CHECK(ha ? b_first : a_first,
                      "%s: high %d/%d: the group with high false is not "
                      "first", what, ha, hb);
            else
                CHECK(a_first || b_first,
                      "%s: high %d/%d: the groups are interleaved or "
                      "reordered", what, ha, hb);
            int flag = 1;
            CHECK_MPI(MPI_Comm_test_inter(merged, &flag));
            CHECK(!flag, "%s: the merged communicator is an "
                         "intercommunicator", what);
            use(merged);
            CHECK_MPI(MPI_Comm_free(&merged));
        }
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(size >= 2 && size <= 64, "run with 2 to 64 ranks");

    int even[64], odd[64], ne = 0, no = 0;
    for (int w = 0; w < size; w++) {
        if (w % 2)
            odd[no++] = w;
        else
            even[ne++] = w;
    }
    MPI_Comm local, inter;
    parity_intercomm(MPI_COMM_WORLD, 0, &local, &inter);
    merges(inter, rank % 2 == 0, even, ne, odd, no, "even/odd");
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));

    /* the last rank alone against the others, each led by its last rank,
       its members in reverse order of world rank */
    int alone = rank == size - 1, rest[64], last = size - 1;
    for (int i = 0; i < size - 1; i++)
        rest[i] = size - 2 - i;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, alone, -rank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, alone ? 0 : size - 2,
                                   MPI_COMM_WORLD, alone ? 0 : size - 1, 8,
                                   &inter));
    merges(inter, alone, &last, 1, rest, size - 1, "one/rest");
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));

    if (rank == 0)
        printf("intercomm_merge at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
