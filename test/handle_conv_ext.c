/* handle_conv_ext: shmpi's Fortran integers: 0 for every null handle, the fixed numbers of the predefined handles, numbers given back when an object dies and handed out again, f2c of a number that names nothing gives an invalid handle that calls reject, c2f of an invalid handle raises; the Fortran status layout (MPI_F_SOURCE ...), the mpi_f08 status conversions, and the errors of the status conversions. */
/* shmpi-test: np=1,2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

static int rank, size;

static void nulls_and_predefined(void)
{
    CHECK(MPI_Comm_c2f(MPI_COMM_NULL) == 0 && MPI_Group_c2f(MPI_GROUP_NULL) == 0 &&
          MPI_Type_c2f(MPI_DATATYPE_NULL) == 0 &&
          MPI_Request_c2f(MPI_REQUEST_NULL) == 0 &&
          MPI_Op_c2f(MPI_OP_NULL) == 0 &&
          MPI_Errhandler_c2f(MPI_ERRHANDLER_NULL) == 0 &&
          MPI_Info_c2f(MPI_INFO_NULL) == 0 && MPI_Win_c2f(MPI_WIN_NULL) == 0 &&
          MPI_Message_c2f(MPI_MESSAGE_NULL) == 0,
          "a null handle is not 0");
    CHECK(MPI_Comm_f2c(0) == MPI_COMM_NULL && MPI_Request_f2c(0) == MPI_REQUEST_NULL &&
          MPI_Info_f2c(0) == MPI_INFO_NULL && MPI_Win_f2c(0) == MPI_WIN_NULL,
          "0 is not the null handle");
    /* the numbers the man pages list */
    CHECK(MPI_Comm_c2f(MPI_COMM_WORLD) == 1 && MPI_Comm_c2f(MPI_COMM_SELF) == 2,
          "MPI_COMM_WORLD %d, MPI_COMM_SELF %d", (int)MPI_Comm_c2f(MPI_COMM_WORLD),
          (int)MPI_Comm_c2f(MPI_COMM_SELF));
    CHECK(MPI_Group_c2f(MPI_GROUP_EMPTY) == 1, "MPI_GROUP_EMPTY");
    CHECK(MPI_Type_c2f(MPI_CHAR) == 1 && MPI_Type_c2f(MPI_SHORT) == 2 &&
          MPI_Type_c2f(MPI_INT) == 3 && MPI_Type_f2c(3) == MPI_INT,
          "MPI_CHAR %d, MPI_INT %d", (int)MPI_Type_c2f(MPI_CHAR),
          (int)MPI_Type_c2f(MPI_INT));
    MPI_Fint h = MPI_Type_c2f(MPI_HANDLE_SYNC);
    CHECK(h == MPI_Type_c2f(MPI_2INTEGER) + 1 && MPI_Type_f2c(h) == MPI_HANDLE_SYNC,
          "MPI_HANDLE_SYNC %d does not follow MPI_2INTEGER", (int)h);
    CHECK(MPI_Op_c2f(MPI_MAX) == 1 && MPI_Op_c2f(MPI_NO_OP) == 14 &&
          MPI_Op_f2c(3) == MPI_SUM, "op numbers");
    CHECK(MPI_Errhandler_c2f(MPI_ERRORS_ARE_FATAL) == 1 &&
          MPI_Errhandler_c2f(MPI_ERRORS_RETURN) == 2, "error handler numbers");
    CHECK(MPI_Info_c2f(MPI_INFO_ENV) == 1, "MPI_INFO_ENV");
    CHECK(MPI_Message_c2f(MPI_MESSAGE_NO_PROC) == 1, "MPI_MESSAGE_NO_PROC");
}

/* A freed object's number names nothing, and goes to the next object
   converted. */
static void numbers_given_back(void)
{
    MPI_Comm a, b;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    MPI_Fint fa = MPI_Comm_c2f(a);
    CHECK(fa > 2, "a dup's number %d is a predefined one", (int)fa);
    CHECK_MPI(MPI_Comm_free(&a));
    MPI_Comm gone = MPI_Comm_f2c(fa);
    CHECK(gone != MPI_COMM_NULL, "the number of a freed communicator gives "
          "the null handle, not an invalid one");
    int n = -1;
    CHECK_CLASS(MPI_Comm_size(gone, &n), MPI_ERR_COMM);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &b));
    CHECK(MPI_Comm_c2f(b) == fa, "the freed number %d was not reused (%d)",
          (int)fa, (int)MPI_Comm_c2f(b));
    CHECK_MPI(MPI_Comm_free(&b));

    /* a request gives its number back when MPI_Wait frees it */
    int x = rank, y;
    MPI_Request r;
    CHECK_MPI(MPI_Irecv(&y, 1, MPI_INT, 0, 1, MPI_COMM_SELF, &r));
    MPI_Fint fr = MPI_Request_c2f(r);
    CHECK_MPI(MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_SELF));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MPI_Request dead = MPI_Request_f2c(fr);
    CHECK(dead != MPI_REQUEST_NULL, "a completed request's number gives "
          "MPI_REQUEST_NULL, which MPI_Wait would accept");
    CHECK_CLASS(MPI_Wait(&dead, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    /* many requests converted one after another: the table stays small
       (the same number every time) */
    for (int i = 0; i < 1000; i++) {
        CHECK_MPI(MPI_Irecv(&y, 1, MPI_INT, 0, 2, MPI_COMM_SELF, &r));
        CHECK(MPI_Request_c2f(r) == fr, "round %d: number %d, not the "
              "given-back %d", i, (int)MPI_Request_c2f(r), (int)fr);
        CHECK_MPI(MPI_Send(&x, 1, MPI_INT, 0, 2, MPI_COMM_SELF));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
}

/* A started MPI_Bsend_init request completes at once and the library
   keeps a copy of it that goes when the message is received: the copy's
   end must not take away the number the program's request had, now
   another's. */
static void buffered_send(void)
{
    static char buf[1024];
    int x = 42, y = 0, z = 0;
    MPI_Request r, q;
    CHECK_MPI(MPI_Buffer_attach(buf, sizeof buf));
    CHECK_MPI(MPI_Bsend_init(&x, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &r));
    MPI_Fint n = MPI_Request_c2f(r);
    for (int i = 0; i < 2; i++) {
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK(MPI_Request_f2c(n) == r, "start %d: the buffered copy took "
              "the persistent request's number along", i);
        CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, 0, 3, MPI_COMM_SELF,
                           MPI_STATUS_IGNORE));
        CHECK(MPI_Request_f2c(n) == r, "start %d: the buffered copy took "
              "the persistent request's number along when it went", i);
    }
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_MPI(MPI_Irecv(&z, 1, MPI_INT, 0, 4, MPI_COMM_SELF, &q));
    CHECK(MPI_Request_c2f(q) == n, "the number was not given back");
    CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, 0, 3, MPI_COMM_SELF,
                       MPI_STATUS_IGNORE));
    CHECK(y == 42, "buffered message: %d", y);
    CHECK(MPI_Request_f2c(n) == q, "the buffered copy took the number of "
          "another request along when it went");
    CHECK_MPI(MPI_Send(&x, 1, MPI_INT, 0, 4, MPI_COMM_SELF));
    CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
    void *b;
    int bsize;
    CHECK_MPI(MPI_Buffer_detach(&b, &bsize));
}

/* MPI_Win_change_comm (shmpi's extension) keeps the handle, so it keeps
   its number, at the members and at the newcomers. */
static void window_joined(void)
{
    MPI_Comm evens;
    MPI_Win w;
    static int mem[2];
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : 0, rank,
                             &evens));
    if (rank % 2 == 0)
        CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL,
                                 evens, &w));
    else
        CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_SELF, &w));
    MPI_Fint n = MPI_Win_c2f(w);
    CHECK_MPI(MPI_Win_change_comm(MPI_COMM_WORLD, 0, w));
    /* f2c first: a number lost and handed out again would look kept */
    CHECK(MPI_Win_f2c(n) == w, "the joined window lost its number %d",
          (int)n);
    CHECK(MPI_Win_c2f(w) == n, "the joined window has a new number %d, "
          "not %d", (int)MPI_Win_c2f(w), (int)n);
    CHECK_MPI(MPI_Win_free(&w));
    if (evens != MPI_COMM_NULL)
        CHECK_MPI(MPI_Comm_free(&evens));
}

/* Numbers that name nothing give invalid handles, rejected with the
   class of a freed handle; c2f of one raises, and gives -1. */
static void invalid_numbers(void)
{
    const MPI_Fint bad[] = {-1, -100000, 1000000, INT32_MAX, INT32_MIN};
    for (int i = 0; i < 5; i++) {
        MPI_Fint f = bad[i];
        int n;
        MPI_Comm c = MPI_Comm_f2c(f);
        MPI_Group g = MPI_Group_f2c(f);
        MPI_Datatype t = MPI_Type_f2c(f);
        MPI_Request r = MPI_Request_f2c(f);
        MPI_Op o = MPI_Op_f2c(f);
        MPI_Info info = MPI_Info_f2c(f);
        MPI_Win w = MPI_Win_f2c(f);
        MPI_Message m = MPI_Message_f2c(f);
        MPI_Errhandler e = MPI_Errhandler_f2c(f);
        CHECK(c != MPI_COMM_NULL && g != MPI_GROUP_NULL &&
              t != MPI_DATATYPE_NULL && r != MPI_REQUEST_NULL &&
              o != MPI_OP_NULL && info != MPI_INFO_NULL && w != MPI_WIN_NULL &&
              m != MPI_MESSAGE_NULL && e != MPI_ERRHANDLER_NULL,
              "f2c(%d) gave a null handle", (int)f);
        CHECK_CLASS(MPI_Comm_size(c, &n), MPI_ERR_COMM);
        CHECK_CLASS(MPI_Group_size(g, &n), MPI_ERR_GROUP);
        CHECK_CLASS(MPI_Type_size(t, &n), MPI_ERR_TYPE);
        CHECK_CLASS(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
        CHECK_CLASS(MPI_Op_commutative(o, &n), MPI_ERR_OP);
        CHECK_CLASS(MPI_Info_get_nkeys(info, &n), MPI_ERR_INFO);
        CHECK_CLASS(MPI_Win_fence(0, w), MPI_ERR_WIN);
        CHECK_CLASS(MPI_Mrecv(&n, 1, MPI_INT, &m, MPI_STATUS_IGNORE),
                    MPI_ERR_REQUEST);
        CHECK_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, e), MPI_ERR_ARG);
        /* and back: raised on MPI_COMM_WORLD (errors return here), -1 */
        CHECK(MPI_Comm_c2f(c) == -1 && MPI_Group_c2f(g) == -1 &&
              MPI_Type_c2f(t) == -1 && MPI_Request_c2f(r) == -1 &&
              MPI_Op_c2f(o) == -1 && MPI_Info_c2f(info) == -1 &&
              MPI_Win_c2f(w) == -1 && MPI_Message_c2f(m) == -1 &&
              MPI_Errhandler_c2f(e) == -1,
              "c2f of an invalid handle is not -1");
    }
}

static void fortran_statuses(void)
{
    MPI_Status st;
    int out[3] = {7, 8, 9}, in[3];
    CHECK_MPI(MPI_Sendrecv(out, 3, MPI_INT, rank, 5, in, 3, MPI_INT, rank, 5,
                           MPI_COMM_WORLD, &st));
    st.MPI_ERROR = MPI_ERR_TRUNCATE;   /* a value the receive left alone */
    MPI_Fint f[MPI_F_STATUS_SIZE], f2[MPI_F_STATUS_SIZE];
    CHECK_MPI(MPI_Status_c2f(&st, f));
    CHECK(f[MPI_F_SOURCE] == rank && f[MPI_F_TAG] == 5 &&
          f[MPI_F_ERROR] == MPI_ERR_TRUNCATE, "MPI_F_SOURCE/TAG/ERROR: "
          "%d/%d/%d", (int)f[MPI_F_SOURCE], (int)f[MPI_F_TAG],
          (int)f[MPI_F_ERROR]);
    MPI_F08_status s08;
    CHECK_MPI(MPI_Status_c2f08(&st, &s08));
    CHECK(s08.MPI_SOURCE == rank && s08.MPI_TAG == 5 &&
          s08.MPI_ERROR == MPI_ERR_TRUNCATE, "MPI_F08_status fields");
    CHECK_MPI(MPI_Status_f082f(&s08, f2));
    CHECK(memcmp(f, f2, sizeof f) == 0, "c2f08 then f082f differs from c2f");
    MPI_F08_status t08;
    CHECK_MPI(MPI_Status_f2f08(f, &t08));
    CHECK(memcmp(&s08, &t08, sizeof s08) == 0, "f2f08 differs from c2f08");
    MPI_Status back;
    CHECK_MPI(MPI_Status_f082c(&t08, &back));
    int count = -1;
    CHECK_MPI(MPI_Get_count(&back, MPI_INT, &count));
    CHECK(back.MPI_SOURCE == rank && back.MPI_TAG == 5 &&
          back.MPI_ERROR == MPI_ERR_TRUNCATE && count == 3,
          "through f08 and back: count %d", count);

    /* errors, on MPI_COMM_WORLD */
    CHECK_CLASS(MPI_Status_c2f(MPI_STATUS_IGNORE, f), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_c2f(&st, MPI_F_STATUS_IGNORE), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_c2f(&st, MPI_F_STATUSES_IGNORE), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_c2f(&st, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &back), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_f2c(MPI_F_STATUSES_IGNORE, &back), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_f2c(f, MPI_STATUS_IGNORE), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_c2f08(&st, MPI_F08_STATUS_IGNORE), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_f082c(MPI_F08_STATUSES_IGNORE, &back),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_f2f08(MPI_F_STATUS_IGNORE, &t08), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_f082f(&s08, MPI_F_STATUSES_IGNORE), MPI_ERR_ARG);
    CHECK(MPI_F_STATUS_IGNORE != MPI_F_STATUSES_IGNORE &&
          MPI_F_STATUS_IGNORE != NULL, "MPI_F_STATUS(ES)_IGNORE");
    /* hidden words no status has */
    memcpy(f2, f, sizeof f);
    f2[3] = 5;
    CHECK_CLASS(MPI_Status_f2c(f2, &back), MPI_ERR_ARG);
    memcpy(f2, f, sizeof f);
    f2[MPI_F_STATUS_SIZE - 1] = -1;
    CHECK_CLASS(MPI_Status_f2c(f2, &back), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    nulls_and_predefined();
    numbers_given_back();
    buffered_send();
    window_joined();
    invalid_numbers();
    fortran_statuses();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
