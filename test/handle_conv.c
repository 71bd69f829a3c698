/* handle_conv: MPI_XXX_c2f/f2c round-trip every kind of handle (communicator, group, datatype, request, op, error handler, info, window, message), predefined, null and the program's, the numbers are stable and tell handles apart, converted handles work in calls; MPI_Status_c2f/f2c keep source, tag, error, count, elements and the cancelled flag. */
/* shmpi-test: np=1,2,4 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int rank, size;

/* f2c(c2f(h)) == h, and c2f gives the same number each time. */
#define ROUND_TRIP(Kind, h, what)                                          \
    do {                                                                   \
        MPI_Fint f_ = MPI_##Kind##_c2f(h);                                 \
        CHECK(MPI_##Kind##_c2f(h) == f_, "%s: MPI_" #Kind "_c2f is not "   \
              "stable", what);                                             \
        CHECK(MPI_##Kind##_f2c(f_) == (h), "%s: MPI_" #Kind "_f2c(%d) is " \
              "not the handle converted", what, (int)f_);                  \
    } while (0)

/* The numbers of n distinct handles are distinct. */
static void all_distinct(const MPI_Fint *f, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            CHECK(f[i] != f[j], "%s: handles %d and %d have the same "
                  "Fortran integer %d", what, i, j, (int)f[i]);
}

static void comms_and_groups(void)
{
    MPI_Comm dup, split;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, 0, &split));
    MPI_Comm cs[] = {MPI_COMM_WORLD, MPI_COMM_SELF, dup, split,
                     MPI_COMM_NULL};
    MPI_Fint f[5];
    for (int i = 0; i < 5; i++) {
        ROUND_TRIP(Comm, cs[i], "communicator");
        f[i] = MPI_Comm_c2f(cs[i]);
    }
    all_distinct(f, 5, "communicators");
    /* the converted handle is the communicator */
    MPI_Comm back = MPI_Comm_f2c(MPI_Comm_c2f(dup));
    int sum = 0, one = 1;
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, back));
    CHECK(sum == size, "allreduce on the converted communicator: %d", sum);

    MPI_Group g, sg;
    CHECK_MPI(MPI_Comm_group(dup, &g));
    CHECK_MPI(MPI_Comm_group(split, &sg));
    MPI_Group gs[] = {MPI_GROUP_EMPTY, g, sg, MPI_GROUP_NULL};
    MPI_Fint fg[4];
    for (int i = 0; i < 4; i++) {
        ROUND_TRIP(Group, gs[i], "group");
        fg[i] = MPI_Group_c2f(gs[i]);
    }
    all_distinct(fg, 4, "groups");
    int gsize = -1;
    CHECK_MPI(MPI_Group_size(MPI_Group_f2c(MPI_Group_c2f(g)), &gsize));
    CHECK(gsize == size, "size of the converted group: %d", gsize);
    CHECK_MPI(MPI_Group_free(&sg));
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Comm_free(&split));
    CHECK_MPI(MPI_Comm_free(&dup));
}

/* The element of largest absolute value. */
static void max_abs(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const int *a = in;
    int *b = inout;
    (void)dt;
    for (int i = 0; i < *len; i++)
        if (abs(a[i]) > abs(b[i]))
            b[i] = a[i];
}

static void datatypes_and_ops(void)
{
    MPI_Datatype vec, dup;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    CHECK_MPI(MPI_Type_dup(MPI_DOUBLE, &dup));
    MPI_Datatype ts[] = {MPI_CHAR, MPI_INT, MPI_DOUBLE, MPI_LONG_DOUBLE,
                         MPI_UINT64_T, MPI_C_DOUBLE_COMPLEX, MPI_BYTE,
                         MPI_PACKED, MPI_2INT, MPI_DOUBLE_INT, MPI_INTEGER,
                         MPI_REAL8, MPI_AINT, MPI_COUNT, MPI_OFFSET,
                         MPI_CXX_BOOL, vec, dup, MPI_DATATYPE_NULL};
    enum { NT = sizeof ts / sizeof ts[0] };
    MPI_Fint f[NT];
    for (int i = 0; i < NT; i++) {
        ROUND_TRIP(Type, ts[i], "datatype");
        f[i] = MPI_Type_c2f(ts[i]);
    }
    all_distinct(f, NT, "datatypes");
    int sz = -1;
    CHECK_MPI(MPI_Type_size(MPI_Type_f2c(MPI_Type_c2f(vec)), &sz));
    CHECK(sz == 3 * (int)sizeof(int), "size of the converted vector: %d",
          sz);

    MPI_Op user;
    CHECK_MPI(MPI_Op_create(max_abs, 1, &user));
    MPI_Op os[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND,
                   MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC,
                   MPI_MINLOC, MPI_REPLACE, MPI_NO_OP, user, MPI_OP_NULL};
    enum { NO = sizeof os / sizeof os[0] };
    MPI_Fint fo[NO];
    for (int i = 0; i < NO; i++) {
        ROUND_TRIP(Op, os[i], "op");
        fo[i] = MPI_Op_c2f(os[i]);
    }
    all_distinct(fo, NO, "ops");
    /* a reduction with the converted user op and datatype */
    int in = rank % 2 ? -(rank + 1) : rank + 1, out = 0;
    CHECK_MPI(MPI_Allreduce(&in, &out, 1, MPI_Type_f2c(MPI_Type_c2f(MPI_INT)),
                            MPI_Op_f2c(MPI_Op_c2f(user)), MPI_COMM_WORLD));
    CHECK(abs(out) == size, "allreduce with the converted op: %d, expected "
          "+-%d", out, size);
    CHECK_MPI(MPI_Op_free(&user));
    CHECK_MPI(MPI_Type_free(&dup));
    CHECK_MPI(MPI_Type_free(&vec));
}

static void on_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

static void errhandlers_and_infos(void)
{
    MPI_Errhandler mine;
    CHECK_MPI(MPI_Comm_create_errhandler(on_error, &mine));
    MPI_Errhandler es[] = {MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, mine,
                           MPI_ERRHANDLER_NULL};
    MPI_Fint f[4];
    for (int i = 0; i < 4; i++) {
        ROUND_TRIP(Errhandler, es[i], "error handler");
        f[i] = MPI_Errhandler_c2f(es[i]);
    }
    all_distinct(f, 4, "error handlers");
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Comm_set_errhandler(c, MPI_Errhandler_f2c(f[2])));
    MPI_Errhandler got;
    CHECK_MPI(MPI_Comm_get_errhandler(c, &got));
    CHECK(got == mine, "the converted error handler is not the one set");
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Errhandler_free(&mine));

    MPI_Info a, b;
    CHECK_MPI(MPI_Info_create(&a));
    CHECK_MPI(MPI_Info_create(&b));
    CHECK_MPI(MPI_Info_set(a, "key", "value"));
    MPI_Info is[] = {MPI_INFO_ENV, a, b, MPI_INFO_NULL};
    MPI_Fint fi[4];
    for (int i = 0; i < 4; i++) {
        ROUND_TRIP(Info, is[i], "info");
        fi[i] = MPI_Info_c2f(is[i]);
    }
    all_distinct(fi, 4, "infos");
    int n = -1;
    CHECK_MPI(MPI_Info_get_nkeys(MPI_Info_f2c(fi[1]), &n));
    CHECK(n == 1, "keys of the converted info: %d", n);
    CHECK_MPI(MPI_Info_free(&a));
    CHECK_MPI(MPI_Info_free(&b));
}

/* A pending receive, a persistent send and the null request; the
   converted handle completes the request. */
static void requests(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int got = -1, sent = rank;
    MPI_Request recv, send;
    CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &recv));
    CHECK_MPI(MPI_Send_init(&sent, 1, MPI_INT, right, 7, MPI_COMM_WORLD,
                            &send));
    ROUND_TRIP(Request, recv, "receive request");
    ROUND_TRIP(Request, send, "persistent request");
    ROUND_TRIP(Request, MPI_REQUEST_NULL, "MPI_REQUEST_NULL");
    MPI_Fint f[] = {MPI_Request_c2f(recv), MPI_Request_c2f(send),
                    MPI_Request_c2f(MPI_REQUEST_NULL)};
    all_distinct(f, 3, "requests");
    MPI_Fint fsend = f[1];
    for (int round = 0; round < 3; round++) {
        MPI_Request r = MPI_Request_f2c(fsend);
        CHECK_MPI(MPI_Start(&r));
        if (round > 0)
            CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, left, 7, MPI_COMM_WORLD,
                                &recv));
        MPI_Request rr = MPI_Request_f2c(MPI_Request_c2f(recv));
        MPI_Status st;
        CHECK_MPI(MPI_Wait(&rr, &st));
        CHECK(rr == MPI_REQUEST_NULL && got == left && st.MPI_SOURCE == left,
              "round %d: the converted receive got %d from %d", round, got,
              st.MPI_SOURCE);
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK(r == send, "a persistent request changed handle");
        CHECK(MPI_Request_c2f(send) == fsend, "round %d: the persistent "
              "request's number changed", round);
    }
    CHECK_MPI(MPI_Request_free(&send));
}

static void messages(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int got = -1;
    MPI_Message m, none;
    MPI_Status st;
    MPI_Request sent;
    CHECK_MPI(MPI_Isend(&rank, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &sent));
    CHECK_MPI(MPI_Mprobe(left, 9, MPI_COMM_WORLD, &m, &st));
    CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &none, &st));
    CHECK(none == MPI_MESSAGE_NO_PROC, "MPI_Mprobe of MPI_PROC_NULL");
    ROUND_TRIP(Message, m, "message");
    ROUND_TRIP(Message, MPI_MESSAGE_NO_PROC, "MPI_MESSAGE_NO_PROC");
    ROUND_TRIP(Message, MPI_MESSAGE_NULL, "MPI_MESSAGE_NULL");
    MPI_Fint f[] = {MPI_Message_c2f(m), MPI_Message_c2f(MPI_MESSAGE_NO_PROC),
                    MPI_Message_c2f(MPI_MESSAGE_NULL)};
    all_distinct(f, 3, "messages");
    MPI_Message back = MPI_Message_f2c(f[0]);
    CHECK_MPI(MPI_Mrecv(&got, 1, MPI_INT, &back, &st));
    CHECK(back == MPI_MESSAGE_NULL && got == left,
          "MPI_Mrecv of the converted message got %d", got);
    CHECK_MPI(MPI_Mrecv(&got, 0, MPI_INT, &none, &st));
    CHECK_MPI(MPI_Wait(&sent, MPI_STATUS_IGNORE));
}

static void windows(void)
{
    int mem[4] = {0};
    MPI_Win w, w2;
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &w));
    CHECK_MPI(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w2));
    ROUND_TRIP(Win, w, "window");
    ROUND_TRIP(Win, w2, "second window");
    ROUND_TRIP(Win, MPI_WIN_NULL, "MPI_WIN_NULL");
    MPI_Fint f[] = {MPI_Win_c2f(w), MPI_Win_c2f(w2),
                    MPI_Win_c2f(MPI_WIN_NULL)};
    all_distinct(f, 3, "windows");
    MPI_Win back = MPI_Win_f2c(f[0]);
    int right = (rank + 1) % size;
    CHECK_MPI(MPI_Win_fence(0, back));
    CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, right, 2, 1, MPI_INT, back));
    CHECK_MPI(MPI_Win_fence(0, back));
    CHECK(mem[2] == (rank + size - 1) % size, "put through the converted "
          "window: %d", mem[2]);
    CHECK_MPI(MPI_Win_free(&w2));
    CHECK_MPI(MPI_Win_free(&back));
}

static void same_status(const MPI_Status *a, const MPI_Status *b,
                        MPI_Datatype t, const char *what)
{
    int ca = -1, cb = -2, xa = -1, xb = -2;
    MPI_Count ea = -1, eb = -2;
    CHECK(a->MPI_SOURCE == b->MPI_SOURCE && a->MPI_TAG == b->MPI_TAG &&
          a->MPI_ERROR == b->MPI_ERROR, "%s: source/tag/error %d/%d/%d, "
          "was %d/%d/%d", what, b->MPI_SOURCE, b->MPI_TAG, b->MPI_ERROR,
          a->MPI_SOURCE, a->MPI_TAG, a->MPI_ERROR);
    CHECK_MPI(MPI_Get_count(a, t, &ca));
    CHECK_MPI(MPI_Get_count(b, t, &cb));
    CHECK(ca == cb, "%s: count %d, was %d", what, cb, ca);
    CHECK_MPI(MPI_Get_elements_x(a, t, &ea));
    CHECK_MPI(MPI_Get_elements_x(b, t, &eb));
    CHECK(ea == eb, "%s: elements %lld, was %lld", what, (long long)eb,
          (long long)ea);
    CHECK_MPI(MPI_Test_cancelled(a, &xa));
    CHECK_MPI(MPI_Test_cancelled(b, &xb));
    CHECK(xa == xb, "%s: cancelled %d, was %d", what, xb, xa);
}

/* A status through the Fortran form and back (the array is larger than
   any MPI's MPI_STATUS_SIZE). */
static void round_trip_status(const MPI_Status *s, MPI_Datatype t,
                              const char *what)
{
    MPI_Fint f[64];
    MPI_Status back;
    CHECK_MPI(MPI_Status_c2f(s, f));
    CHECK_MPI(MPI_Status_f2c(f, &back));
    same_status(s, &back, t, what);
}

static void statuses(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[5] = {1, 2, 3, 4, 5}, in[5];
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(out, 5, MPI_INT, right, 3, in, 5, MPI_INT, left,
                           3, MPI_COMM_WORLD, &st));
    round_trip_status(&st, MPI_INT, "a received status");
    CHECK_MPI(MPI_Sendrecv(out, 0, MPI_INT, right, 4, in, 5, MPI_INT, left,
                           4, MPI_COMM_WORLD, &st));
    round_trip_status(&st, MPI_INT, "an empty message's status");
    /* cancelled */
    MPI_Request r;
    CHECK_MPI(MPI_Irecv(in, 5, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD,
                        &r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_MPI(MPI_Wait(&r, &st));
    int cancelled = 0;
    CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
    CHECK(cancelled, "the receive was not cancelled");
    round_trip_status(&st, MPI_INT, "a cancelled receive's status");
    /* counts beyond 32 bits, and MPI_UNDEFINED counts */
    MPI_Status big = st;
    CHECK_MPI(MPI_Status_set_cancelled(&big, 0));
    CHECK_MPI(MPI_Status_set_elements_x(&big, MPI_DOUBLE,
                                        (MPI_Count)3 << 30));
    round_trip_status(&big, MPI_DOUBLE, "a status of 3 Gi doubles");
    round_trip_status(&big, MPI_INT, "the same, counted in ints");
    CHECK_MPI(MPI_Status_set_elements(&big, MPI_BYTE, 7));
    round_trip_status(&big, MPI_INT, "7 bytes counted in ints");
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    comms_and_groups();
    datatypes_and_ops();
    errhandlers_and_infos();
    requests();
    messages();
    windows();
    statuses();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
