/* comm_name_info: MPI_Comm_set/get_name (predefined names, dup and split not copying a name, truncation, per-process names), MPI_Comm_set/get_info, MPI_Comm_dup_with_info, and their errors. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int rank, size;

static void check_name(MPI_Comm comm, const char *want)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_MPI(MPI_Comm_get_name(comm, name, &len));
    CHECK(strcmp(name, want) == 0 && len == (int)strlen(want),
          "name \"%s\" (length %d), expected \"%s\"", name, len, want);
}

/* A ring exchange on comm: it works and carries only its own messages. */
static void check_usable(MPI_Comm comm)
{
    int n, r, right, left, out, in = -1;
    CHECK_MPI(MPI_Comm_size(comm, &n));
    CHECK_MPI(MPI_Comm_rank(comm, &r));
    right = (r + 1) % n;
    left = (r + n - 1) % n;
    out = 100 + r;
    CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, right, 5, &in, 1, MPI_INT,
                           MPI_ANY_SOURCE, MPI_ANY_TAG, comm,
                           MPI_STATUS_IGNORE));
    CHECK(in == 100 + left, "ring: got %d, expected %d", in, 100 + left);
}

static void names(void)
{
    check_name(MPI_COMM_WORLD, "MPI_COMM_WORLD");
    check_name(MPI_COMM_SELF, "MPI_COMM_SELF");

    MPI_Comm dup, dup2, split;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    check_name(dup, ""); /* not MPI_COMM_WORLD's */
    CHECK_MPI(MPI_Comm_set_name(dup, "solver"));
    check_name(dup, "solver");
    CHECK_MPI(MPI_Comm_dup(dup, &dup2));
    check_name(dup2, ""); /* MPI_Comm_dup does not copy the name */
    CHECK_MPI(MPI_Comm_split(dup, rank % 2, 0, &split));
    check_name(split, "");

    /* names are local: each process may choose its own */
    char mine[32];
    snprintf(mine, sizeof mine, "rank %d's", rank);
    CHECK_MPI(MPI_Comm_set_name(dup2, mine));
    check_name(dup2, mine);
    CHECK_MPI(MPI_Comm_set_name(dup2, ""));
    check_name(dup2, "");
    check_name(dup, "solver");

    /* a longer name is cut to MPI_MAX_OBJECT_NAME - 1 characters */
    char long_name[MPI_MAX_OBJECT_NAME + 50];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    CHECK_MPI(MPI_Comm_set_name(dup, long_name));
    long_name[MPI_MAX_OBJECT_NAME - 1] = '\0';
    check_name(dup, long_name);

    /* the predefined communicators can be renamed */
    CHECK_MPI(MPI_Comm_set_name(MPI_COMM_SELF, "me"));
    check_name(MPI_COMM_SELF, "me");
    CHECK_MPI(MPI_Comm_set_name(MPI_COMM_SELF, "MPI_COMM_SELF"));

    CHECK_MPI(MPI_Comm_free(&split));
    CHECK_MPI(MPI_Comm_free(&dup2));
    CHECK_MPI(MPI_Comm_free(&dup));
}

static void info(void)
{
    MPI_Info hints, used;
    MPI_Comm dup, dup2;
    int n = -1, result;
    CHECK_MPI(MPI_Info_create(&hints));
    CHECK_MPI(MPI_Info_set(hints, "mpi_assert_no_any_tag", "true"));
    CHECK_MPI(MPI_Info_set(hints, "some_unknown_hint", "42"));

    /* any hints are accepted; get_info gives a new object to free */
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_set_info(dup, hints));
    CHECK_MPI(MPI_Comm_get_info(dup, &used));
    CHECK(used != MPI_INFO_NULL && used != hints,
          "MPI_Comm_get_info did not return a new info object");
    CHECK_MPI(MPI_Info_get_nkeys(used, &n));
    CHECK(n >= 0, "get_info: %d keys", n);
    CHECK_MPI(MPI_Info_free(&used));

    /* dup_with_info: a congruent, separate communicator, no name */
    CHECK_MPI(MPI_Comm_set_name(dup, "named"));
    CHECK_MPI(MPI_Comm_dup_with_info(dup, hints, &dup2));
    CHECK_MPI(MPI_Info_free(&hints)); /* the new communicator needs it no more */
    CHECK_MPI(MPI_Comm_compare(dup, dup2, &result));
    CHECK(result == MPI_CONGRUENT, "compare(comm, dup_with_info) = %d",
          result);
    check_name(dup2, "");
    check_usable(dup2);
    CHECK_MPI(MPI_Comm_get_info(dup2, &used));
    CHECK_MPI(MPI_Info_free(&used));
    CHECK_MPI(MPI_Comm_free(&dup2));

    /* MPI_INFO_NULL: no hints */
    CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_SELF, MPI_INFO_NULL, &dup2));
    CHECK_MPI(MPI_Comm_size(dup2, &n));
    CHECK(n == 1, "dup_with_info of self: size %d", n);
    check_usable(dup2);
    CHECK_MPI(MPI_Comm_free(&dup2));
    CHECK_MPI(MPI_Comm_free(&dup));
}

static void errors(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Info used, hints;
    MPI_Comm c;
    CHECK_MPI(MPI_Info_create(&hints));
    CHECK_CLASS(MPI_Comm_set_name(MPI_COMM_NULL, "x"), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_get_name(MPI_COMM_NULL, name, &len), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_set_name(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_get_name(MPI_COMM_WORLD, NULL, &len), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_get_name(MPI_COMM_WORLD, name, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_set_info(MPI_COMM_NULL, hints), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_set_info(MPI_COMM_WORLD, MPI_INFO_NULL),
                MPI_ERR_INFO);
    CHECK_CLASS(MPI_Comm_get_info(MPI_COMM_NULL, &used), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_dup_with_info(MPI_COMM_NULL, hints, &c),
                MPI_ERR_COMM);
    check_name(MPI_COMM_WORLD, "MPI_COMM_WORLD"); /* unchanged by it all */
    CHECK_MPI(MPI_Info_free(&hints));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    names();
    info();
    errors();
    if (rank == 0)
        printf("comm_name_info at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
