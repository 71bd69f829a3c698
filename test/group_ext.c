/* group_ext: shmpi's checks beyond what the standard obliges (ranks named twice, bad triplets, negative counts, NULL outputs, negative split colors on some ranks only) and their error classes; MPI_PROC_NULL through empty groups. */
/* shmpi-test: np=1,2,3,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

int main(int argc, char **argv)
{
    int rank, size, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Group world, g = MPI_GROUP_NULL;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));

    /* ranks out of range, or named twice */
    int outside[2] = {0, size}, twice[2] = {0, 0}, out[2];
    CHECK_CLASS(MPI_Group_excl(world, 2, outside, &g), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Group_translate_ranks(world, 2, outside, world, out),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Group_incl(world, 2, twice, &g), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Group_excl(world, 2, twice, &g), MPI_ERR_RANK);
    int computes_size[1][3] = {{0, size, 1}};
    int overlap[2][3] = {{0, size - 1, 1}, {size - 1, 0, -size}};
    int stride0[1][3] = {{0, 0, 0}};
    int away[1][3] = {{0, size - 1 + 1, -1}}; /* last above first, stride < 0 */
    int away2[1][3] = {{size - 1, -1, 1}};
    CHECK_CLASS(MPI_Group_range_incl(world, 1, computes_size, &g),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Group_range_excl(world, 1, computes_size, &g),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Group_range_incl(world, 2, overlap, &g), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Group_range_excl(world, 2, overlap, &g), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Group_range_incl(world, 1, stride0, &g), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Group_range_incl(world, 1, away, &g), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Group_range_excl(world, 1, away2, &g), MPI_ERR_ARG);
    /* a `last` beyond the group is fine when no computed rank is */
    int far[1][3] = {{0, size + 100, size + 200}};
    CHECK_MPI(MPI_Group_range_incl(world, 1, far, &g));
    CHECK_MPI(MPI_Group_size(g, &n));
    CHECK(n == 1, "range (0, size+100, size+200) has %d members", n);
    CHECK_MPI(MPI_Group_free(&g));

    /* counts and pointers */
    CHECK_CLASS(MPI_Group_incl(world, -1, twice, &g), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Group_excl(world, -1, twice, &g), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Group_range_incl(world, -1, stride0, &g), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Group_translate_ranks(world, -1, twice, world, out),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Group_incl(world, 1, NULL, &g), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Group_incl(world, 0, NULL, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Group_union(world, world, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Group_size(world, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Group_compare(world, world, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Group_free(NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_group(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_free(NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, NULL),
                MPI_ERR_ARG);
    CHECK(g == MPI_GROUP_NULL, "a failed call set its output");

    /* MPI_PROC_NULL translates to MPI_PROC_NULL, empty groups included
       (Open MPI 4.1 answers MPI_UNDEFINED there) */
    int pn = MPI_PROC_NULL, r = 0;
    CHECK_MPI(MPI_Group_translate_ranks(MPI_GROUP_EMPTY, 1, &pn, world, &r));
    CHECK(r == MPI_PROC_NULL, "from the empty group: %d", r);
    CHECK_MPI(MPI_Group_translate_ranks(world, 1, &pn, MPI_GROUP_EMPTY, &r));
    CHECK(r == MPI_PROC_NULL, "into the empty group: %d", r);

    /* MPI_GROUP_EMPTY, as every constructor returns it, can be freed */
    MPI_Group e = MPI_GROUP_EMPTY;
    CHECK_MPI(MPI_Group_free(&e));
    CHECK(e == MPI_GROUP_NULL, "freeing MPI_GROUP_EMPTY: handle not reset");
    CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &n));
    CHECK(n == 0, "MPI_GROUP_EMPTY has %d members after a free", n);

    /* a bad color on some ranks only: they get the error and
       MPI_COMM_NULL, the others a communicator without them */
    MPI_Comm c = MPI_COMM_WORLD;
    int color = rank % 2 ? -7 : 0;
    int rc = MPI_Comm_split(MPI_COMM_WORLD, color, 0, &c);
    if (rank % 2) {
        CHECK_CLASS(rc, MPI_ERR_ARG);
        CHECK(c == MPI_COMM_WORLD, "a failed split set newcomm");
    } else {
        CHECK_MPI(rc);
        CHECK_MPI(MPI_Comm_size(c, &n));
        CHECK(n == (size + 1) / 2, "split without the bad ranks: size %d", n);
        CHECK_MPI(MPI_Barrier(c));
        CHECK_MPI(MPI_Comm_free(&c));
    }
    /* a NULL newcomm everywhere: an error on every rank, nobody hangs */
    CHECK_CLASS(MPI_Comm_dup(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, NULL), MPI_ERR_ARG);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Barrier(c));
    CHECK_MPI(MPI_Comm_free(&c));

    CHECK_MPI(MPI_Group_free(&world));
    if (rank == 0)
        printf("group_ext at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
