/* comm_create_ext: shmpi's own checks for MPI_Comm_create, MPI_Comm_create_group and MPI_Comm_split_type: a process with a bad argument still takes part (the others get their communicator), groups that are no subset or disagree, MPI_GROUP_NULL; and create_group calls with different tags taken in different orders. */
/* shmpi-test: np=1,3,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int rank, size;
static MPI_Group world_group;

static MPI_Group group_of(int n, const int *members)
{
    MPI_Group g;
    CHECK_MPI(MPI_Group_incl(world_group, n, members, &g));
    return g;
}

static int comm_size(MPI_Comm c)
{
    int n = -1;
    CHECK_MPI(MPI_Comm_size(c, &n));
    return n;
}

/* One ring message in c, checked: the communicator really connects its
   members. */
static void ring(MPI_Comm c)
{
    int n = comm_size(c), me, got = -1;
    CHECK_MPI(MPI_Comm_rank(c, &me));
    CHECK_MPI(MPI_Sendrecv(&me, 1, MPI_INT, (me + 1) % n, 0, &got, 1,
                           MPI_INT, (me + n - 1) % n, 0, c,
                           MPI_STATUS_IGNORE));
    CHECK(got == (me + n - 1) % n, "ring: got %d", got);
}

/* Rank 0 passes a bad argument; the others still get the communicator
   of the rest. */
static void one_bad_process(void)
{
    int *rest = malloc(sizeof(int) * size);
    CHECK(rest, "out of memory");
    for (int i = 1; i < size; i++)
        rest[i - 1] = i;
    MPI_Group g = group_of(size - 1, rest);
    MPI_Comm c = MPI_COMM_NULL;
    if (rank == 0) {
        CHECK_CLASS(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c),
                    MPI_ERR_GROUP);
        CHECK_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, 77, 0, MPI_INFO_NULL,
                                        &c), MPI_ERR_ARG);
        CHECK_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED,
                                        0, (MPI_Info)MPI_COMM_WORLD, &c),
                    MPI_ERR_INFO);
        CHECK_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED,
                                        0, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
        CHECK(c == MPI_COMM_NULL, "a failed call set newcomm");
    } else {
        for (int i = 0; i < 4; i++) {
            if (i == 0)
                CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, g, &c));
            else
                CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD,
                                              MPI_COMM_TYPE_SHARED, 0,
                                              MPI_INFO_NULL, &c));
            CHECK(comm_size(c) == size - 1, "call %d: size %d", i,
                  comm_size(c));
            ring(c);
            CHECK_MPI(MPI_Comm_free(&c));
        }
    }
    CHECK_MPI(MPI_Group_free(&g));
    free(rest);
}

static void bad_groups(void)
{
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_CLASS(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_NULL, 0, &c),
                MPI_ERR_GROUP);
    CHECK_CLASS(MPI_Comm_create_group(MPI_COMM_WORLD, world_group, -5, &c),
                MPI_ERR_TAG);
    if (size > 1) {
        /* the world's group is no subset of MPI_COMM_SELF */
        CHECK_CLASS(MPI_Comm_create(MPI_COMM_SELF, world_group, &c),
                    MPI_ERR_GROUP);
        CHECK_CLASS(MPI_Comm_create_group(MPI_COMM_SELF, world_group, 0, &c),
                    MPI_ERR_GROUP);
    }
    CHECK(c == MPI_COMM_NULL, "a failed call set newcomm");
    if (size >= 3) {
        /* an erroneous program: rank 0 passes {0, 1}, the others
           {0, 1, 2}; rank 0 finds out */
        int members[3] = {0, 1, 2};
        MPI_Group g = group_of(rank == 0 ? 2 : 3, members);
        if (rank == 0)
            CHECK_CLASS(MPI_Comm_create(MPI_COMM_WORLD, g, &c),
                        MPI_ERR_GROUP);
        else
            CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, g, &c));
        if (c != MPI_COMM_NULL)
            CHECK_MPI(MPI_Comm_free(&c));
        CHECK_MPI(MPI_Group_free(&g));
    }
}

/* Two create_group calls with one leader, different tags: rank 1 takes
   them in the other order, and each message still goes to its call. */
static void tags_keep_calls_apart(void)
{
    if (size < 3 || rank > 2)
        return;
    int g1m[3] = {0, 1, 2}, g2m[2] = {0, 1};
    MPI_Group g1 = group_of(3, g1m), g2 = group_of(2, g2m);
    MPI_Comm c1 = MPI_COMM_NULL, c2 = MPI_COMM_NULL;
    if (rank == 1) {
        CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g2, 20, &c2));
        CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g1, 10, &c1));
    } else {
        CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g1, 10, &c1));
        if (rank == 0)
            CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g2, 20, &c2));
    }
    CHECK(comm_size(c1) == 3, "c1 has %d members", comm_size(c1));
    ring(c1);
    if (c2 != MPI_COMM_NULL) {
        CHECK(comm_size(c2) == 2, "c2 has %d members", comm_size(c2));
        ring(c2);
        CHECK_MPI(MPI_Comm_free(&c2));
    }
    CHECK_MPI(MPI_Comm_free(&c1));
    CHECK_MPI(MPI_Group_free(&g1));
    CHECK_MPI(MPI_Group_free(&g2));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    one_bad_process();
    bad_groups();
    tags_keep_calls_apart();
    CHECK_MPI(MPI_Group_free(&world_group));
    if (rank == 0)
        printf("comm_create_ext at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
