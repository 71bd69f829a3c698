/* intercomm_dup_split: MPI_Comm_dup and MPI_Comm_dup_with_info of an intercommunicator (same groups, MPI_CONGRUENT, attributes copied by their callbacks, names, isolation from the original), MPI_Comm_split of one (colors on both sides, on one side only, MPI_UNDEFINED, keys reversing the order) and MPI_Comm_create of one (half of each group, an empty group on one side): the results are intercommunicators with the expected groups, or MPI_COMM_NULL. */
/* shmpi-test: np=2,3,4,7,16 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "intercomm.h"

static int rank, size, side; /* side: 0 even, 1 odd */

/* ------------------------------------------------------------------ */
/* attributes                                                          */

static int copies, deletes;

static int copy_plus_one(MPI_Comm old, int key, void *extra, void *in,
                         void *out, int *flag)
{
    (void)old, (void)key, (void)extra;
    copies++;
    *(void **)out = (void *)((char *)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)val, (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

static void *attr(MPI_Comm c, int key)
{
    void *v = NULL;
    int flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(c, key, &v, &flag));
    return flag ? v : NULL;
}

static char cell[4];

static void dups(MPI_Comm inter, const int *mine, int n, const int *theirs,
                 int rn)
{
    int kept, dropped, r = -1;
    CHECK_MPI(MPI_Comm_create_keyval(copy_plus_one, count_delete, &kept,
                                     NULL));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete,
                                     &dropped, NULL));
    CHECK_MPI(MPI_Comm_set_attr(inter, kept, &cell[0]));
    CHECK_MPI(MPI_Comm_set_attr(inter, dropped, &cell[0]));
    CHECK_MPI(MPI_Comm_set_name(inter, "even/odd"));

    MPI_Comm dup, dup2;
    CHECK_MPI(MPI_Comm_dup(inter, &dup));
    CHECK_MPI(MPI_Comm_dup_with_info(dup, MPI_INFO_NULL, &dup2));
    CHECK(copies == 2, "%d copy callbacks, expected 2", copies);
    CHECK(attr(dup, kept) == &cell[1] && attr(dup2, kept) == &cell[2] &&
              attr(inter, kept) == &cell[0],
          "the copied attribute is wrong");
    CHECK(!attr(dup, dropped) && !attr(dup2, dropped) &&
              attr(inter, dropped) == &cell[0],
          "MPI_COMM_NULL_COPY_FN's attribute was copied");
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_MPI(MPI_Comm_get_name(inter, name, &len));
    CHECK(!strcmp(name, "even/odd"), "name %s", name);
    CHECK_MPI(MPI_Comm_set_name(dup, "dup"));
    CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
    CHECK(!strcmp(name, "dup"), "name of the dup: %s", name);

    check_inter_groups(dup, n, mine, rn, theirs, "dup");
    check_inter_groups(dup2, n, mine, rn, theirs, "dup_with_info");
    CHECK_MPI(MPI_Comm_compare(inter, dup, &r));
    CHECK(r == MPI_CONGRUENT, "compare(inter, dup) = %d", r);
    CHECK_MPI(MPI_Comm_compare(dup, dup2, &r));
    CHECK(r == MPI_CONGRUENT, "compare(dup, dup2) = %d", r);

    /* the same message on all three, taken last-made first */
    int me, v[3], got = -1;
    MPI_Request s[3];
    MPI_Status st;
    MPI_Comm cs[3] = {inter, dup, dup2};
    CHECK_MPI(MPI_Comm_rank(inter, &me));
    for (int i = 0; i < 3; i++) {
        v[i] = 100 * i + rank;
        CHECK_MPI(MPI_Isend(&v[i], 1, MPI_INT, me % rn, 0, cs[i], &s[i]));
    }
    for (int i = 2; i >= 0; i--)
        for (int q = me; q < rn; q += n) {
            CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                               cs[i], &st));
            CHECK(got == 100 * i + theirs[st.MPI_SOURCE],
                  "communicator %d: got %d from remote rank %d", i, got,
                  st.MPI_SOURCE);
        }
    CHECK_MPI(MPI_Waitall(3, s, MPI_STATUSES_IGNORE));

    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Comm_free(&dup2));
    CHECK(deletes == 2, "%d delete callbacks after two frees", deletes);
    CHECK_MPI(MPI_Comm_delete_attr(inter, kept));
    CHECK_MPI(MPI_Comm_delete_attr(inter, dropped));
    CHECK_MPI(MPI_Comm_free_keyval(&kept));
    CHECK_MPI(MPI_Comm_free_keyval(&dropped));
}

/* ------------------------------------------------------------------ */
/* split and create                                                    */

/* Of the world ranks with color c on side s, ordered by key (key[w]),
   ties by world rank: their list; returns how many. */
static int part(const int *color, const int *key, int c, int s, int *out)
{
    int n = 0;
    for (int w = s; w < size; w += 2)
        if (color[w] == c && c != MPI_UNDEFINED) {
            int i = n++;
            while (i > 0 && key[out[i - 1]] > key[w]) {
                out[i] = out[i - 1];
                i--;
            }
            out[i] = w;
        }
    return n;
}

/* newcomm is what a split with these colors and keys gives this
   process. */
static void check_split(MPI_Comm newcomm, const int *color, const int *key,
                        const char *what)
{
    int mine[64], theirs[64];
    int n = part(color, key, color[rank], side, mine);
    int rn = part(color, key, color[rank], 1 - side, theirs);
    if (n == 0 || rn == 0) {
        CHECK(newcomm == MPI_COMM_NULL, "%s: expected MPI_COMM_NULL", what);
        return;
    }
    CHECK(newcomm != MPI_COMM_NULL, "%s: MPI_COMM_NULL", what);
    check_inter_groups(newcomm, n, mine, rn, theirs, what);
    check_traffic(newcomm, theirs, what);
}

static void splits(MPI_Comm inter)
{
    int color[64], key[64];
    MPI_Comm c;
    /* pairs (2k, 2k + 1) share color k % 3, world rank 0 gives none, the
       last rank of an odd size has no partner; keys reverse the order */
    for (int w = 0; w < size; w++) {
        color[w] = w == 0 ? MPI_UNDEFINED : w / 2 % 3;
        key[w] = -w;
    }
    CHECK_MPI(MPI_Comm_split(inter, color[rank], key[rank], &c));
    check_split(c, color, key, "split by pairs");
    MPI_Comm d = MPI_COMM_NULL;
    if (c != MPI_COMM_NULL) { /* a split of the split */
        CHECK_MPI(MPI_Comm_dup(c, &d));
        CHECK_MPI(MPI_Comm_free(&c));
    }
    /* one color each side: no communicator at all */
    for (int w = 0; w < size; w++) {
        color[w] = w % 2 ? 5 : 6;
        key[w] = 0;
    }
    CHECK_MPI(MPI_Comm_split(inter, color[rank], key[rank], &c));
    CHECK(c == MPI_COMM_NULL, "colors on one side only made a communicator");
    /* one color, keys in order: the same groups */
    for (int w = 0; w < size; w++) {
        color[w] = 1;
        key[w] = w;
    }
    CHECK_MPI(MPI_Comm_split(inter, 1, rank, &c));
    check_split(c, color, key, "split in one");
    int r = -1;
    CHECK_MPI(MPI_Comm_compare(inter, c, &r));
    CHECK(r == MPI_CONGRUENT, "compare(inter, split in one) = %d", r);
    CHECK_MPI(MPI_Comm_free(&c));
    if (d != MPI_COMM_NULL)
        CHECK_MPI(MPI_Comm_free(&d));
}

static void creates(MPI_Comm inter)
{
    MPI_Group g, half;
    int n, me, color[64], key[64];
    CHECK_MPI(MPI_Comm_size(inter, &n));
    CHECK_MPI(MPI_Comm_rank(inter, &me));
    CHECK_MPI(MPI_Comm_group(inter, &g));
    /* the first half of each group (by local rank) */
    int k = (n + 1) / 2, ranks[64];
    for (int i = 0; i < k; i++)
        ranks[i] = i;
    CHECK_MPI(MPI_Group_incl(g, k, ranks, &half));
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_create(inter, half, &c));
    for (int w = 0; w < size; w++) {
        int local_rank = w / 2, side_size = (size - w % 2 + 1) / 2;
        color[w] = local_rank < (side_size + 1) / 2 ? 0 : MPI_UNDEFINED;
        key[w] = w;
    }
    check_split(c, color, key, "create of halves");
    if (c != MPI_COMM_NULL)
        CHECK_MPI(MPI_Comm_free(&c));
    /* the odd side gives the empty group: nobody gets a communicator */
    CHECK_MPI(MPI_Comm_create(inter, side ? MPI_GROUP_EMPTY : g, &c));
    CHECK(c == MPI_COMM_NULL, "an empty side made a communicator");
    CHECK_MPI(MPI_Group_free(&half));
    CHECK_MPI(MPI_Group_free(&g));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(size >= 2 && size <= 64, "run with 2 to 64 ranks");
    side = rank % 2;
    int even[64], odd[64], ne = 0, no = 0;
    for (int w = 0; w < size; w++) {
        if (w % 2)
            odd[no++] = w;
        else
            even[ne++] = w;
    }
    MPI_Comm local, inter;
    parity_intercomm(MPI_COMM_WORLD, 3, &local, &inter);
    dups(inter, side ? odd : even, side ? no : ne, side ? even : odd,
         side ? ne : no);
    splits(inter);
    creates(inter);
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));
    if (rank == 0)
        printf("intercomm_dup_split at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
