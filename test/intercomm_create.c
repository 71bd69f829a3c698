/* intercomm_create: MPI_Intercomm_create over several splits of MPI_COMM_WORLD (even/odd, a prefix against the rest with the last ranks leading over a reversed peer communicator that only the leaders pass, three groups paired in turn with different tags), both groups checked (MPI_Comm_test_inter, size, rank, remote size, MPI_Comm_group, MPI_Comm_remote_group), a message each way, MPI_Comm_compare, create and free in a loop. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "intercomm.h"

static int rank, size;

/* The world ranks w of [0, size) with pick(w) true, in order. */
static int members(int (*pick)(int, int), int arg, int *out)
{
    int n = 0;
    for (int w = 0; w < size; w++)
        if (pick(w, arg))
            out[n++] = w;
    return n;
}

static int mod_is(int w, int arg) { return w % (arg >> 8) == (arg & 255); }
static int below(int w, int k) { return w < k; }
static int not_below(int w, int k) { return w >= k; }

static void check_compare(MPI_Comm inter, MPI_Comm local)
{
    int r = -1;
    CHECK_MPI(MPI_Comm_compare(inter, inter, &r));
    CHECK(r == MPI_IDENT, "compare(inter, inter) = %d", r);
    CHECK_MPI(MPI_Comm_compare(inter, local, &r));
    CHECK(r == MPI_UNEQUAL, "compare(inter, local) = %d", r);
}

static int even[64], odd[64], ne, no;

/* Even against odd ranks, over MPI_COMM_WORLD. */
static void parity(void)
{
    MPI_Comm local, inter;
    parity_intercomm(MPI_COMM_WORLD, 5, &local, &inter);
    const int *mine = rank % 2 ? odd : even, *theirs = rank % 2 ? even : odd;
    int n = rank % 2 ? no : ne, rn = rank % 2 ? ne : no;
    check_inter_groups(inter, n, mine, rn, theirs, "parity");
    check_traffic(inter, theirs, "parity");
    check_compare(inter, local);
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK(inter == MPI_COMM_NULL, "MPI_Comm_free left the handle");
    CHECK_MPI(MPI_Comm_free(&local));
}

/*
 * World ranks below k against the others; each group is led by its last
 * rank, and the leaders find each other in a peer communicator whose
 * ranks run backwards.
 */
static void prefix(void)
{
    int k = size / 3 + 1, low[64], high[64];
    int nl = members(below, k, low), nh = members(not_below, k, high);
    int in_low = rank < k;
    MPI_Comm peer, local, inter;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &peer));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, in_low, rank, &local));
    int n = in_low ? nl : nh, rn = in_low ? nh : nl;
    const int *theirs = in_low ? high : low;
    int remote_leader = size - 1 - theirs[rn - 1]; /* its rank in peer */
    /* peer_comm and remote_leader matter at the leader only */
    int leads = rank == (in_low ? low[n - 1] : high[n - 1]);
    CHECK_MPI(MPI_Intercomm_create(local, n - 1,
                                   leads ? peer : MPI_COMM_NULL,
                                   leads ? remote_leader : -1, 77, &inter));
    check_inter_groups(inter, n, in_low ? low : high, rn, theirs, "prefix");
    check_traffic(inter, theirs, "prefix");
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));
    CHECK_MPI(MPI_Comm_free(&peer));
}

/* Three groups (world rank mod 3), each paired with the two others in
   turn: 0-1 (tag 10), 1-2 (tag 11), 0-2 (tag 12). */
static void triangle(void)
{
    static const int pairs[3][2] = {{0, 1}, {1, 2}, {0, 2}};
    int g = rank % 3, group[3][64], n[3];
    for (int i = 0; i < 3; i++)
        n[i] = members(mod_is, 3 << 8 | i, group[i]);
    MPI_Comm local;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, g, rank, &local));
    for (int p = 0; p < 3; p++) {
        int a = pairs[p][0], b = pairs[p][1];
        if (g != a && g != b)
            continue;
        int other = g == a ? b : a;
        MPI_Comm inter;
        CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD,
                                       group[other][0], 10 + p, &inter));
        check_inter_groups(inter, n[g], group[g], n[other], group[other],
                           "triangle");
        check_traffic(inter, group[other], "triangle");
        CHECK_MPI(MPI_Comm_free(&inter));
    }
    CHECK_MPI(MPI_Comm_free(&local));
}

/* Made and freed many times: nothing runs out. */
static void churn(void)
{
    MPI_Comm local;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local));
    for (int i = 0; i < 300; i++) {
        MPI_Comm inter;
        CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD,
                                       rank % 2 ? 0 : 1, i, &inter));
        if (i % 50 == 0)
            check_traffic(inter, rank % 2 ? even : odd, "churn");
        CHECK_MPI(MPI_Comm_free(&inter));
    }
    CHECK_MPI(MPI_Comm_free(&local));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(size <= 64, "the test is written for at most 64 ranks");
    ne = members(mod_is, 2 << 8 | 0, even);
    no = members(mod_is, 2 << 8 | 1, odd);
    if (size >= 2) {
        parity();
        prefix();
        churn();
    }
    if (size >= 3)
        triangle();
    if (rank == 0)
        printf("intercomm_create at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
