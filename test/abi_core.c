/* abi_core: a program of the MPI standard ABI (mpicc_abi, libmpi_abi.so): the fixed values, statuses, point to point, collectives, datatypes, toint/fromint, error classes through handlers. */
/* shmpi-test: np=1,2,3,4 timeout=60 ext abi */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Built against include/abi/mpi.h, so every handle, constant and status
 * here has the standard ABI's value (MPI-5.0 chapter 20), and the checks
 * on them fail if the layer lets one of shmpi's own values through.
 */
#include "check.h"

#include <stddef.h>
#include <stdint.h>

#define HVAL(h) ((uintptr_t)(h))

static void check_values(void)
{
    CHECK(MPI_ABI_VERSION == 1 && MPI_ABI_SUBVERSION == 0, "ABI version macros");
    CHECK(HVAL(MPI_COMM_NULL) == 0x100 && HVAL(MPI_COMM_WORLD) == 0x101 &&
          HVAL(MPI_COMM_SELF) == 0x102, "communicator constants");
    CHECK(HVAL(MPI_INT) == 0x209 && HVAL(MPI_DOUBLE) == 0x214 &&
          HVAL(MPI_BYTE) == 0x247 && HVAL(MPI_DATATYPE_NULL) == 0x200,
          "datatype constants");
    CHECK(HVAL(MPI_SUM) == 0x21 && HVAL(MPI_MAX) == 0x23 &&
          HVAL(MPI_OP_NULL) == 0x20, "op constants");
    CHECK(HVAL(MPI_REQUEST_NULL) == 0x180 && HVAL(MPI_ERRORS_RETURN) == 0x142 &&
          HVAL(MPI_INFO_NULL) == 0x130, "other handle constants");
    CHECK(MPI_ANY_SOURCE == -1 && MPI_ANY_TAG == -2 && MPI_PROC_NULL == -3 &&
          MPI_ROOT == -4 && MPI_UNDEFINED == -32766, "sentinels");
    CHECK(MPI_ERR_RANK == 6 && MPI_ERR_TYPE == 3 && MPI_ERR_ABI == 62 &&
          MPI_ERR_PENDING == 18 && MPI_ERR_LASTCODE == 0x3fff, "error classes");
    CHECK(MPI_THREAD_MULTIPLE == 4096 && MPI_IDENT == 201, "enumerations");
    CHECK(sizeof(MPI_Status) == 8 * sizeof(int) &&
          offsetof(MPI_Status, MPI_SOURCE) == 0 &&
          offsetof(MPI_Status, MPI_TAG) == sizeof(int) &&
          offsetof(MPI_Status, MPI_ERROR) == 2 * sizeof(int), "MPI_Status layout");
    CHECK(sizeof(MPI_Aint) == sizeof(intptr_t) && sizeof(MPI_Count) == 8 &&
          sizeof(MPI_Offset) == 8 && sizeof(MPI_Fint) == sizeof(int),
          "integer types");
}

static void check_abi_functions(void)
{
    int major = -1, minor = -1;
    CHECK_MPI(MPI_Abi_get_version(&major, &minor));
    CHECK(major == 1 && minor == 0, "MPI_Abi_get_version gave %d.%d", major, minor);
    MPI_Info info = MPI_INFO_NULL;
    CHECK_MPI(MPI_Abi_get_info(&info));
    CHECK(info != MPI_INFO_NULL, "MPI_Abi_get_info gave no info");
    static const char *const keys[] = { "mpi_aint_size", "mpi_count_size",
                                        "mpi_offset_size" };
    static const int sizes[] = { (int)sizeof(MPI_Aint), 8, 8 };
    for (int i = 0; i < 3; i++) {
        char v[MPI_MAX_INFO_VAL];
        int len = (int)sizeof v, flag = 0;
        CHECK_MPI(MPI_Info_get_string(info, keys[i], &len, v, &flag));
        CHECK(flag && atoi(v) == sizes[i], "%s is '%s'", keys[i], flag ? v : "");
    }
    CHECK_MPI(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL, "MPI_Info_free left %p", (void *)info);
    CHECK_MPI(MPI_Abi_get_fortran_info(&info));
    CHECK(info == MPI_INFO_NULL, "no Fortran: MPI_INFO_NULL");
}

static void check_p2p(int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int out[3] = { rank, rank * 10, -rank }, in[3] = { 0 };
    MPI_Status st;
    st.MPI_ERROR = 12345;
    CHECK_MPI(MPI_Sendrecv(out, 3, MPI_INT, next, 7, in, 3, MPI_INT,
                           MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    CHECK(in[0] == prev && in[1] == prev * 10, "ring payload");
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 7, "status %d/%d",
          st.MPI_SOURCE, st.MPI_TAG);
    CHECK(st.MPI_ERROR == 12345, "MPI_ERROR written by a single completion");
    int count = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 3, "MPI_Get_count %d", count);

    CHECK_MPI(MPI_Recv(in, 3, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
          "MPI_PROC_NULL status %d/%d", st.MPI_SOURCE, st.MPI_TAG);
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 0, "count from MPI_PROC_NULL %d", count);

    MPI_Request r[2];
    MPI_Status sts[2];
    CHECK_MPI(MPI_Irecv(in, 3, MPI_INT, prev, 9, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Isend(out, 3, MPI_INT, next, 9, MPI_COMM_WORLD, &r[1]));
    CHECK(r[0] != MPI_REQUEST_NULL && r[1] != MPI_REQUEST_NULL, "requests");
    CHECK_MPI(MPI_Waitall(2, r, sts));
    CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL,
          "completed requests are MPI_REQUEST_NULL");
    CHECK(sts[0].MPI_SOURCE == prev && sts[0].MPI_TAG == 9, "Waitall status");
    CHECK_MPI(MPI_Wait(&r[0], &st));   /* on MPI_REQUEST_NULL: empty */
    CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG,
          "empty status %d/%d", st.MPI_SOURCE, st.MPI_TAG);
}

static int user_op_saw_int;

static void sum_ints(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    user_op_saw_int += *dt == MPI_INT;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void check_coll(int rank, int size)
{
    int v = rank + 1, sum = 0;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == size * (size + 1) / 2, "MPI_SUM %d", sum);
    double d = rank, mx = -1;
    CHECK_MPI(MPI_Allreduce(&d, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    CHECK(mx == size - 1, "MPI_MAX %g", mx);
    int b = rank == size - 1 ? 42 : 0;
    CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, size - 1, MPI_COMM_WORLD));
    CHECK(b == 42, "MPI_Bcast %d", b);

    MPI_Op op;
    CHECK_MPI(MPI_Op_create(sum_ints, 1, &op));
    CHECK(HVAL(op) >= 0x1000, "a user op is no predefined handle");
    int vals[2] = { rank, 1 }, res[2] = { 0, 0 };
    CHECK_MPI(MPI_Allreduce(vals, res, 2, MPI_INT, op, MPI_COMM_WORLD));
    CHECK(res[0] == size * (size - 1) / 2 && res[1] == size, "user op result");
    int saw = user_op_saw_int > 0, any = 0;
    CHECK_MPI(MPI_Allreduce(&saw, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    CHECK(size == 1 || any, "the user op ran and was given MPI_INT (0x209)");
    CHECK_MPI(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL, "freed op is MPI_OP_NULL");
}

static void check_datatypes(int rank, int size)
{
    /* a column of a 4x4 matrix */
    MPI_Datatype col;
    CHECK_MPI(MPI_Type_vector(4, 1, 4, MPI_INT, &col));
    CHECK_MPI(MPI_Type_commit(&col));
    int tsize = 0;
    CHECK_MPI(MPI_Type_size(col, &tsize));
    CHECK(tsize == 4 * (int)sizeof(int), "vector size %d", tsize);
    int m[16], c[4] = { 0 };
    for (int i = 0; i < 16; i++)
        m[i] = i;
    CHECK_MPI(MPI_Sendrecv(m + 1, 1, col, 0, 3, c, 4, MPI_INT, 0, 3,
                           MPI_COMM_SELF, MPI_STATUS_IGNORE));
    CHECK(c[0] == 1 && c[1] == 5 && c[2] == 9 && c[3] == 13, "column");

    struct pair { int i; double d; } p = { rank, rank * 0.5 }, q = { -1, -1 };
    int bl[2] = { 1, 1 };
    MPI_Aint disp[2] = { offsetof(struct pair, i), offsetof(struct pair, d) };
    MPI_Datatype types[2] = { MPI_INT, MPI_DOUBLE }, st;
    CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &st));
    CHECK_MPI(MPI_Type_commit(&st));
    MPI_Aint lb = -1, ext = 0;
    CHECK_MPI(MPI_Type_get_extent(st, &lb, &ext));
    CHECK(lb == 0 && ext == (MPI_Aint)sizeof(struct pair), "struct extent");
    int root = size - 1;
    if (rank == root)
        q = p;
    CHECK_MPI(MPI_Bcast(&q, 1, st, root, MPI_COMM_WORLD));
    CHECK(q.i == root && q.d == root * 0.5, "struct broadcast");
    CHECK_MPI(MPI_Type_free(&st));
    CHECK_MPI(MPI_Type_free(&col));
    CHECK(st == MPI_DATATYPE_NULL && col == MPI_DATATYPE_NULL,
          "freed types are MPI_DATATYPE_NULL");
}

/* The v-collectives, scans and the other constructors: counts, displacements
   and roots pass through, MPI_SUM and the datatypes are translated. */
static void check_more(int rank, int size)
{
    int *counts = malloc((size_t)size * sizeof *counts);
    int *displs = malloc((size_t)size * sizeof *displs);
    int *all = malloc((size_t)size * (size + 1) / 2 * sizeof *all);
    int *ones = malloc((size_t)size * sizeof *ones);
    int *seq = malloc((size_t)size * sizeof *seq);
    int *got = malloc((size_t)size * sizeof *got);
    CHECK(counts && displs && all && ones && seq && got, "malloc");
    int mine[64], total = size * (size + 1) / 2;
    for (int r = 0, d = 0; r < size; d += r + 1, r++) {
        counts[r] = r + 1;
        displs[r] = d;
        ones[r] = 1;
        seq[r] = r;
    }
    for (int i = 0; i <= rank; i++)
        mine[i] = rank;
    int root = size - 1;
    CHECK_MPI(MPI_Gatherv(mine, rank + 1, MPI_INT, all, counts, displs,
                          MPI_INT, root, MPI_COMM_WORLD));
    for (int r = 0; rank == root && r < size; r++)
        for (int i = 0; i < r + 1; i++)
            CHECK(all[displs[r] + i] == r, "Gatherv block %d", r);
    for (int i = 0; i < total; i++)
        all[i] = -1;
    CHECK_MPI(MPI_Allgatherv(mine, rank + 1, MPI_INT, all, counts, displs,
                             MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; r++)
        CHECK(all[displs[r] + r] == r, "Allgatherv block %d", r);
    int x = -1;
    CHECK_MPI(MPI_Scatterv(all, counts, displs, MPI_INT, &x, 1, MPI_INT, 0,
                           MPI_COMM_WORLD));
    CHECK(x == rank, "Scatterv %d", x);
    int *sbuf = malloc((size_t)size * sizeof *sbuf);
    CHECK(sbuf != NULL, "malloc");
    for (int r = 0; r < size; r++)
        sbuf[r] = rank * 100 + r;      /* seq[r] == r: one int each */
    CHECK_MPI(MPI_Alltoallv(sbuf, ones, seq, MPI_INT, got, ones, seq, MPI_INT,
                            MPI_COMM_WORLD));
    for (int r = 0; r < size; r++)
        CHECK(got[r] == r * 100 + rank, "Alltoallv from %d: %d", r, got[r]);
    free(sbuf);
    int v = rank + 1, scan = 0, exscan = -7;
    CHECK_MPI(MPI_Scan(&v, &scan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(scan == (rank + 1) * (rank + 2) / 2, "Scan %d", scan);
    CHECK_MPI(MPI_Exscan(&v, &exscan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(rank == 0 || exscan == rank * (rank + 1) / 2, "Exscan %d", exscan);
    int rsb = -1;
    CHECK_MPI(MPI_Reduce_scatter_block(ones, &rsb, 1, MPI_INT, MPI_SUM,
                                       MPI_COMM_WORLD));
    CHECK(rsb == size, "Reduce_scatter_block %d", rsb);
    free(counts); free(displs); free(all); free(ones); free(seq); free(got);

    int bl[2] = { 2, 1 }, dp[2] = { 0, 4 }, sz = 0;
    MPI_Datatype ix, hv, rs, dup;
    CHECK_MPI(MPI_Type_indexed(2, bl, dp, MPI_INT, &ix));
    CHECK_MPI(MPI_Type_size(ix, &sz));
    CHECK(sz == 3 * (int)sizeof(int), "indexed size %d", sz);
    CHECK_MPI(MPI_Type_create_hvector(2, 1, 16, MPI_DOUBLE, &hv));
    MPI_Aint lb = -1, ext = -1;
    CHECK_MPI(MPI_Type_get_true_extent(hv, &lb, &ext));
    CHECK(lb == 0 && ext == 16 + (MPI_Aint)sizeof(double), "hvector true extent");
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 16, &rs));
    CHECK_MPI(MPI_Type_dup(rs, &dup));
    CHECK_MPI(MPI_Type_get_extent(dup, &lb, &ext));
    CHECK(lb == 0 && ext == 16, "resized extent through a dup");
    CHECK_MPI(MPI_Type_free(&ix));
    CHECK_MPI(MPI_Type_free(&hv));
    CHECK_MPI(MPI_Type_free(&rs));
    CHECK_MPI(MPI_Type_free(&dup));
}

static void check_handles(void)
{
    CHECK(MPI_Comm_toint(MPI_COMM_WORLD) == 0x101, "toint of MPI_COMM_WORLD");
    CHECK(MPI_Comm_fromint(0x101) == MPI_COMM_WORLD, "fromint 0x101");
    CHECK(MPI_Type_toint(MPI_INT) == 0x209 && MPI_Op_toint(MPI_SUM) == 0x21,
          "toint of predefined");
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    int i = MPI_Comm_toint(dup);
    CHECK(i >= 0x1000 && MPI_Comm_fromint(i) == dup, "Comm toint/fromint");
    int res = -1;
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, dup, &res));
    CHECK(res == MPI_CONGRUENT, "compare %d", res);
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE, &t));
    i = MPI_Type_toint(t);
    CHECK(i >= 0x1000 && MPI_Type_fromint(i) == t, "Type toint/fromint");
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK(dup == MPI_COMM_NULL, "freed comm is MPI_COMM_NULL");

    MPI_Comm none;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, &none));
    CHECK(none == MPI_COMM_NULL, "split with MPI_UNDEFINED");
}

static MPI_Comm handler_comm;
static int handler_code, handler_calls;

static void handler(MPI_Comm *comm, int *code, ...)
{
    handler_comm = *comm;
    handler_code = *code;
    handler_calls++;
}

static void check_errors(int size)
{
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "get_errhandler gave %p", (void *)eh);
    int x = 0;
    CHECK_CLASS(MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Send(&x, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD),
                MPI_ERR_TYPE);
    /* a predefined ABI datatype shmpi has no object for */
    CHECK_CLASS(MPI_Send(&x, 1, MPI_LOGICAL1, 0, 0, MPI_COMM_WORLD),
                MPI_ERR_TYPE);
    /* -1 is MPI_ANY_SOURCE, but no tag, in the ABI */
    CHECK_CLASS(MPI_Send(&x, 1, MPI_INT, 0, -1, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Comm_size(MPI_COMM_NULL, &x), MPI_ERR_COMM);

    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Errhandler mine;
    CHECK_MPI(MPI_Comm_create_errhandler(handler, &mine));
    CHECK_MPI(MPI_Comm_set_errhandler(dup, mine));
    int rc = MPI_Send(&x, 1, MPI_INT, size + 3, 0, dup);
    int cls = -1;
    CHECK(handler_calls == 1, "the handler ran %d times", handler_calls);
    CHECK(handler_comm == dup, "the handler got the communicator");
    CHECK_MPI(MPI_Error_class(handler_code, &cls));
    CHECK(cls == MPI_ERR_RANK, "the handler's code has class %d", cls);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_RANK, "the call returned class %d", cls);
    CHECK_MPI(MPI_Comm_call_errhandler(dup, MPI_ERR_PENDING));
    CHECK(handler_calls == 2 && handler_code == MPI_ERR_PENDING,
          "MPI_Comm_call_errhandler passed %d", handler_code);
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK_MPI(MPI_Error_string(MPI_ERR_ABI == 62 ? MPI_ERR_TRUNCATE : 0, s, &len));
    CHECK(len > 0, "an error string");
    CHECK_MPI(MPI_Errhandler_free(&mine));
    CHECK(mine == MPI_ERRHANDLER_NULL, "freed errhandler is null");
    CHECK_MPI(MPI_Comm_free(&dup));
}

int main(int argc, char **argv)
{
    int provided = -1, rank, size;
    check_values();
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided));
    CHECK(provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED ||
          provided == MPI_THREAD_SERIALIZED || provided == MPI_THREAD_MULTIPLE,
          "provided %d is an ABI level", provided);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_abi_functions();
    check_p2p(rank, size);
    check_coll(rank, size);
    check_datatypes(rank, size);
    check_more(rank, size);
    check_handles();
    check_errors(size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
