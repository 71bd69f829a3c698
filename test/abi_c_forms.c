/* abi_c_forms: the large-count (_c) forms of MPI_(Neighbor_)Alltoallw (blocking, nonblocking, persistent), MPI_Op_create_c, the indexed, struct, subarray and darray constructors, MPI_Type_get_envelope_c/_contents_c, and MPI_Get_hw_resource_info through the standard ABI, payloads checked.  ext: Open MPI 4.1 has none of them. */
/* shmpi-test: np=1,2,3 timeout=60 ext abi */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Built against include/abi/mpi.h: MPI_INT is 0x209, MPI_DOUBLE 0x214,
 * MPI_COMBINER_INDEXED 106, MPI_ORDER_C 12, MPI_DISTRIBUTE_BLOCK 17,
 * MPI_DISTRIBUTE_DFLT_DARG 19; shmpi's own values fail the checks, and a
 * count or displacement read at the wrong width lands the data elsewhere.
 */
#include "check.h"

#include <stdint.h>
#include <string.h>

static int rank, size;

/* eh on MPI_COMM_WORLD and MPI_COMM_SELF: the errors the calls below
   check are returned, the others end the test. */
static void handlers(MPI_Errhandler eh)
{
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
}

/* Complete r, a nonblocking collective's or a started persistent one's. */
static void complete(MPI_Request *r, int persistent)
{
    CHECK(*r != MPI_REQUEST_NULL && (uintptr_t)*r >= 0x1000, "a request");
    CHECK_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
    CHECK((*r == MPI_REQUEST_NULL) == !persistent,
          "after the wait the request is %s", persistent ? "kept" : "null");
    if (persistent)
        CHECK_MPI(MPI_Request_free(r));
}

/* Rank r sends peer p r + p + 1 ints, r * 1000 + p * 100 + k, as MPI_INT
   to even peers and as a derived type of one int to odd ones, each block
   one int apart from the next, in one of the three forms. */
static void check_alltoallw_c(void)
{
    MPI_Count *scnt = malloc((size_t)size * sizeof *scnt);
    MPI_Count *rcnt = malloc((size_t)size * sizeof *rcnt);
    MPI_Aint *sdsp = malloc((size_t)size * sizeof *sdsp);
    MPI_Aint *rdsp = malloc((size_t)size * sizeof *rdsp);
    MPI_Datatype *types = malloc((size_t)size * sizeof *types);
    int total = 0;
    for (int p = 0; p < size; p++)
        total += rank + p + 2;
    int *out = malloc((size_t)total * sizeof *out);
    int *in = malloc((size_t)total * sizeof *in);
    CHECK(scnt && rcnt && sdsp && rdsp && types && out && in, "malloc");
    MPI_Datatype one;
    CHECK_MPI(MPI_Type_contiguous_c((MPI_Count)1, MPI_INT, &one));
    CHECK_MPI(MPI_Type_commit(&one));
    for (int form = 0; form < 3; form++) {
        int at = 0;
        for (int p = 0; p < size; p++) {
            scnt[p] = rcnt[p] = rank + p + 1;
            sdsp[p] = rdsp[p] = (MPI_Aint)at * (MPI_Aint)sizeof(int);
            types[p] = p % 2 ? one : MPI_INT;
            for (int k = 0; k <= rank + p; k++)
                out[at + k] = rank * 1000 + p * 100 + k + form;
            at += rank + p + 2;
        }
        for (int i = 0; i < total; i++)
            in[i] = -1;
        MPI_Request r;
        if (form == 0) {
            CHECK_MPI(MPI_Alltoallw_c(out, scnt, sdsp, types, in, rcnt, rdsp,
                                      types, MPI_COMM_WORLD));
        } else if (form == 1) {
            CHECK_MPI(MPI_Ialltoallw_c(out, scnt, sdsp, types, in, rcnt, rdsp,
                                       types, MPI_COMM_WORLD, &r));
            complete(&r, 0);
        } else {
            CHECK_MPI(MPI_Alltoallw_init_c(out, scnt, sdsp, types, in, rcnt,
                                           rdsp, types, MPI_COMM_WORLD,
                                           MPI_INFO_NULL, &r));
            for (int p = 0; p < size; p++)
                types[p] = MPI_DATATYPE_NULL;  /* read at the init only */
            CHECK_MPI(MPI_Start(&r));
            complete(&r, 1);
        }
        at = 0;
        for (int p = 0; p < size; p++) {
            for (int k = 0; k <= rank + p; k++)
                CHECK(in[at + k] == p * 1000 + rank * 100 + k + form,
                      "Alltoallw_c form %d from %d [%d]: %d", form, p, k,
                      in[at + k]);
            CHECK(in[at + rank + p + 1] == -1, "Alltoallw_c form %d: the "
                  "gap after %d's block written", form, p);
            at += rank + p + 2;
        }
    }
    CHECK_MPI(MPI_Type_free(&one));
    handlers(MPI_ERRORS_RETURN);
    CHECK_CLASS(MPI_Alltoallw_c(out, scnt, sdsp, types, in, rcnt, rdsp, types,
                                MPI_COMM_NULL), MPI_ERR_COMM);
    handlers(MPI_ERRORS_ARE_FATAL);
    free(scnt); free(rcnt); free(sdsp); free(rdsp); free(types);
    free(out); free(in);
}

/* On a line (a cart of one dimension, not periodic): to the left
   neighbor rank * 10 + 1, to the right rank * 10 + 2, received one int
   apart; the ends keep -1 from MPI_PROC_NULL. */
static void check_neighbor_alltoallw_c(void)
{
    int dims[1] = { size }, periods[1] = { 0 }, left, right;
    MPI_Comm line;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line));
    CHECK_MPI(MPI_Cart_shift(line, 0, 1, &left, &right));
    MPI_Count cnt[2] = { 1, 1 };
    MPI_Aint dsp[2] = { 0, 2 * sizeof(int) };
    MPI_Datatype types[2] = { MPI_INT, MPI_INT };
    for (int form = 0; form < 3; form++) {
        int out[3] = { rank * 10 + 1 + form, -7, rank * 10 + 2 + form };
        int in[3] = { -1, -1, -1 };
        MPI_Request r;
        if (form == 0) {
            CHECK_MPI(MPI_Neighbor_alltoallw_c(out, cnt, dsp, types, in, cnt,
                                               dsp, types, line));
        } else if (form == 1) {
            CHECK_MPI(MPI_Ineighbor_alltoallw_c(out, cnt, dsp, types, in, cnt,
                                                dsp, types, line, &r));
            complete(&r, 0);
        } else {
            CHECK_MPI(MPI_Neighbor_alltoallw_init_c(out, cnt, dsp, types, in,
                                                    cnt, dsp, types, line,
                                                    MPI_INFO_NULL, &r));
            CHECK_MPI(MPI_Start(&r));
            complete(&r, 1);
        }
        CHECK(in[0] == (left == MPI_PROC_NULL ? -1 : left * 10 + 2 + form),
              "Neighbor_alltoallw_c form %d from the left: %d", form, in[0]);
        CHECK(in[2] == (right == MPI_PROC_NULL ? -1 : right * 10 + 1 + form),
              "Neighbor_alltoallw_c form %d from the right: %d", form, in[2]);
        CHECK(in[1] == -1, "Neighbor_alltoallw_c form %d: the gap", form);
    }
    CHECK_MPI(MPI_Comm_free(&line));
    int v = 0;
    handlers(MPI_ERRORS_RETURN);
    CHECK_CLASS(MPI_Neighbor_alltoallw_c(&v, cnt, dsp, types, &v, cnt, dsp,
                                         types, MPI_COMM_WORLD),
                MPI_ERR_TOPOLOGY);
    handlers(MPI_ERRORS_ARE_FATAL);
}

/* MPI_Op_create_c's function: the sum, and whether it saw the ABI's
   MPI_INT, and lengths that are MPI_Counts. */
static int saw_other_type;
static MPI_Count calls, elements;

static void sum_c(void *invec, void *inoutvec, MPI_Count *len,
                  MPI_Datatype *datatype)
{
    if (*datatype != MPI_INT)
        saw_other_type = 1;
    calls++;
    elements += *len;
    const int *a = invec;
    int *b = inoutvec;
    for (MPI_Count i = 0; i < *len; i++)
        b[i] += a[i];
}

/* MPI_Op_create's, beside it: the product. */
static void prod(void *invec, void *inoutvec, int *len,
                 MPI_Datatype *datatype)
{
    if (*datatype != MPI_INT)
        saw_other_type = 1;
    const int *a = invec;
    int *b = inoutvec;
    for (int i = 0; i < *len; i++)
        b[i] *= a[i];
}

static void check_op_create_c(void)
{
    MPI_Op sum, mul;
    CHECK_MPI(MPI_Op_create_c(sum_c, 1, &sum));
    CHECK((uintptr_t)sum >= 0x1000, "Op_create_c made a handle %p",
          (void *)sum);
    CHECK_MPI(MPI_Op_create(prod, 1, &mul));
    int v[3] = { rank + 1, 2, -rank }, s[3], m[3];
    CHECK_MPI(MPI_Allreduce(v, s, 3, MPI_INT, sum, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce_c(v, m, (MPI_Count)2, MPI_INT, mul,
                              MPI_COMM_WORLD));
    int fact = 1;
    for (int i = 1; i <= size; i++)
        fact *= i;
    CHECK(s[0] == size * (size + 1) / 2 && s[1] == 2 * size &&
          s[2] == -size * (size - 1) / 2,
          "Allreduce with Op_create_c's sum: %d %d %d", s[0], s[1], s[2]);
    CHECK(m[0] == fact && m[1] == 1 << size,
          "Allreduce with Op_create's product beside it: %d %d", m[0], m[1]);
    int io[3] = { 10, 20, 30 };
    calls = elements = 0;
    CHECK_MPI(MPI_Reduce_local_c(v, io, (MPI_Count)3, MPI_INT, sum));
    CHECK(io[0] == 10 + rank + 1 && io[1] == 22 && io[2] == 30 - rank,
          "Reduce_local_c: %d %d %d", io[0], io[1], io[2]);
    CHECK(calls >= 1 && elements == 3, "the _c function was called %lld "
          "times for %lld elements", (long long)calls, (long long)elements);
    CHECK(!saw_other_type, "a user function was given another datatype "
          "than the ABI's MPI_INT");
    CHECK_MPI(MPI_Op_free(&sum));
    CHECK(sum == MPI_OP_NULL, "Op_free gives MPI_OP_NULL");
    CHECK_MPI(MPI_Op_free(&mul));
    /* more than the layer's 16 slots, one after another */
    for (int i = 0; i < 40; i++) {
        MPI_Op o;
        CHECK_MPI(MPI_Op_create_c(sum_c, i % 2, &o));
        int c = -1;
        CHECK_MPI(MPI_Op_commutative(o, &c));
        CHECK(c == i % 2, "op %d commutative %d", i, c);
        io[0] = 1;
        CHECK_MPI(MPI_Reduce_local(v, io, 1, MPI_INT, o));
        CHECK(io[0] == rank + 2, "op %d: %d", i, io[0]);
        CHECK_MPI(MPI_Op_free(&o));
    }
    handlers(MPI_ERRORS_RETURN);
    CHECK_CLASS(MPI_Op_create_c(NULL, 1, &sum), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Op_create_c(sum_c, 1, NULL), MPI_ERR_ARG);
    handlers(MPI_ERRORS_ARE_FATAL);
}

/* t committed and packed from b[i] = i gives the n ints want. */
static void check_packs(MPI_Datatype t, const int *want, int n,
                        const char *what)
{
    int b[40], got[40];
    for (int i = 0; i < 40; i++)
        b[i] = i;
    CHECK_MPI(MPI_Type_commit(&t));
    MPI_Count sz = -1, pos = 0;
    CHECK_MPI(MPI_Type_size_c(t, &sz));
    CHECK(sz == (MPI_Count)(n * sizeof(int)), "%s: size %lld", what,
          (long long)sz);
    CHECK_MPI(MPI_Pack_c(b, (MPI_Count)1, t, got, (MPI_Count)sizeof got,
                         &pos, MPI_COMM_SELF));
    CHECK(pos == sz, "%s: packed %lld bytes", what, (long long)pos);
    for (int i = 0; i < n; i++)
        CHECK(got[i] == want[i], "%s: element %d is %d, not %d", what, i,
              got[i], want[i]);
}

/* t's envelope_c: the ABI's combiner and the numbers. */
static void check_envelope_c(MPI_Datatype t, int combiner, MPI_Count ni,
                             MPI_Count nc, MPI_Count nd, const char *what)
{
    MPI_Count i = -1, a = -1, c = -1, d = -1;
    int comb = -1;
    CHECK_MPI(MPI_Type_get_envelope_c(t, &i, &a, &c, &d, &comb));
    CHECK(comb == combiner && i == ni && a == 0 && c == nc && d == nd,
          "%s: envelope_c %lld/%lld/%lld/%lld combiner %d", what,
          (long long)i, (long long)a, (long long)c, (long long)d, comb);
}

/* The contents_c of t: integers, large counts and datatypes as
   expected (the datatypes predefined, which are not freed). */
static void check_contents_c(MPI_Datatype t, const int *ints, int ni,
                             const MPI_Count *counts, int nc,
                             const MPI_Datatype *types, int nd,
                             const char *what)
{
    int gi[16];
    MPI_Aint ga[1];
    MPI_Count gc[16];
    MPI_Datatype gd[4];
    CHECK_MPI(MPI_Type_get_contents_c(t, (MPI_Count)ni, 0, (MPI_Count)nc,
                                      (MPI_Count)nd, gi, ga, gc, gd));
    for (int i = 0; i < ni; i++)
        CHECK(gi[i] == ints[i], "%s: integer %d is %d, not %d", what, i,
              gi[i], ints[i]);
    for (int i = 0; i < nc; i++)
        CHECK(gc[i] == counts[i], "%s: large count %d is %lld, not %lld",
              what, i, (long long)gc[i], (long long)counts[i]);
    for (int i = 0; i < nd; i++)
        CHECK(gd[i] == types[i], "%s: datatype %d is %#lx, not %#lx", what,
              i, (unsigned long)(uintptr_t)gd[i],
              (unsigned long)(uintptr_t)types[i]);
}

static void check_indexed_c(void)
{
    MPI_Datatype t;
    MPI_Datatype ints[1] = { MPI_INT };
    MPI_Count bl[2] = { 2, 1 }, di[2] = { 0, 4 };
    CHECK_MPI(MPI_Type_indexed_c((MPI_Count)2, bl, di, MPI_INT, &t));
    check_packs(t, (const int[]){ 0, 1, 4 }, 3, "indexed_c");
    check_envelope_c(t, MPI_COMBINER_INDEXED, 0, 5, 1, "indexed_c");
    check_contents_c(t, NULL, 0, (const MPI_Count[]){ 2, 2, 1, 0, 4 }, 5,
                     ints, 1, "indexed_c");
    CHECK_MPI(MPI_Type_free(&t));

    MPI_Count hbl[2] = { 1, 2 }, hdi[2] = { 4, 12 };
    CHECK_MPI(MPI_Type_create_hindexed_c((MPI_Count)2, hbl, hdi, MPI_INT, &t));
    check_packs(t, (const int[]){ 1, 3, 4 }, 3, "hindexed_c");
    check_envelope_c(t, MPI_COMBINER_HINDEXED, 0, 5, 1, "hindexed_c");
    check_contents_c(t, NULL, 0, (const MPI_Count[]){ 2, 1, 2, 4, 12 }, 5,
                     ints, 1, "hindexed_c");
    CHECK_MPI(MPI_Type_free(&t));

    MPI_Count ib[3] = { 5, 0, 2 };
    CHECK_MPI(MPI_Type_create_indexed_block_c((MPI_Count)3, (MPI_Count)1, ib,
                                              MPI_INT, &t));
    check_packs(t, (const int[]){ 5, 0, 2 }, 3, "indexed_block_c");
    check_envelope_c(t, MPI_COMBINER_INDEXED_BLOCK, 0, 5, 1,
                     "indexed_block_c");
    check_contents_c(t, NULL, 0, (const MPI_Count[]){ 3, 1, 5, 0, 2 }, 5,
                     ints, 1, "indexed_block_c");
    CHECK_MPI(MPI_Type_free(&t));

    MPI_Count hb[2] = { 8, 24 };
    CHECK_MPI(MPI_Type_create_hindexed_block_c((MPI_Count)2, (MPI_Count)2, hb,
                                               MPI_INT, &t));
    check_packs(t, (const int[]){ 2, 3, 6, 7 }, 4, "hindexed_block_c");
    check_envelope_c(t, MPI_COMBINER_HINDEXED_BLOCK, 0, 4, 1,
                     "hindexed_block_c");
    check_contents_c(t, NULL, 0, (const MPI_Count[]){ 2, 2, 8, 24 }, 4,
                     ints, 1, "hindexed_block_c");
    CHECK_MPI(MPI_Type_free(&t));
}

/* An int and a double of a struct; the datatypes come back as the ABI's
   integers. */
static void check_struct_c(void)
{
    struct item { int i; double d; } x = { 7, 2.5 }, y = { 0, 0 };
    MPI_Count bl[2] = { 1, 1 };
    MPI_Count di[2] = { 0, (MPI_Count)((char *)&x.d - (char *)&x) };
    MPI_Datatype ty[2] = { MPI_INT, MPI_DOUBLE }, t;
    CHECK_MPI(MPI_Type_create_struct_c((MPI_Count)2, bl, di, ty, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    MPI_Count sz = -1;
    CHECK_MPI(MPI_Type_size_c(t, &sz));
    CHECK(sz == (MPI_Count)(sizeof(int) + sizeof(double)), "struct_c size %lld",
          (long long)sz);
    CHECK_MPI(MPI_Sendrecv(&x, 1, t, 0, 5, &y, 1, t, 0, 5, MPI_COMM_SELF,
                           MPI_STATUS_IGNORE));
    CHECK(y.i == 7 && y.d == 2.5, "struct_c carried %d %g", y.i, y.d);
    check_envelope_c(t, MPI_COMBINER_STRUCT, 0, 5, 2, "struct_c");
    check_contents_c(t, NULL, 0, (const MPI_Count[]){ 2, 1, 1, 0, di[1] }, 5,
                     ty, 2, "struct_c");
    CHECK_MPI(MPI_Type_free(&t));
}

/* A 4 x 5 array of ints in C order, its 2 x 3 block at (1, 1): by the
   int form and the _c one; the order (and the darray's distributions)
   come back as the ABI's constants from both. */
static void check_arrays_c(void)
{
    int sizes[2] = { 4, 5 }, subsizes[2] = { 2, 3 }, starts[2] = { 1, 1 };
    MPI_Count csizes[2] = { 4, 5 }, csub[2] = { 2, 3 }, cstarts[2] = { 1, 1 };
    MPI_Datatype ints[1] = { MPI_INT }, t;
    const int block[6] = { 6, 7, 8, 11, 12, 13 };
    CHECK_MPI(MPI_Type_create_subarray_c(2, csizes, csub, cstarts, MPI_ORDER_C,
                                         MPI_INT, &t));
    check_packs(t, block, 6, "subarray_c");
    check_envelope_c(t, MPI_COMBINER_SUBARRAY, 2, 6, 1, "subarray_c");
    check_contents_c(t, (const int[]){ 2, MPI_ORDER_C }, 2,
                     (const MPI_Count[]){ 4, 5, 2, 3, 1, 1 }, 6, ints, 1,
                     "subarray_c");
    MPI_Datatype dummy[1];
    int gi[2];
    MPI_Aint ga[1];
    handlers(MPI_ERRORS_RETURN);
    CHECK_CLASS(MPI_Type_get_contents(t, 2, 0, 1, gi, ga, dummy), MPI_ERR_TYPE);
    handlers(MPI_ERRORS_ARE_FATAL);
    CHECK_MPI(MPI_Type_free(&t));
    /* the int form's, decoded by the _c form: no large counts */
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts,
                                       MPI_ORDER_FORTRAN, MPI_INT, &t));
    check_envelope_c(t, MPI_COMBINER_SUBARRAY, 8, 0, 1, "subarray");
    check_contents_c(t, (const int[]){ 2, 4, 5, 2, 3, 1, 1,
                                       MPI_ORDER_FORTRAN }, 8,
                     NULL, 0, ints, 1, "subarray");
    CHECK_MPI(MPI_Type_free(&t));

    /* 8 ints in blocks over 2 processes: process 0 has the first 4 */
    MPI_Count gsizes[1] = { 8 };
    int distribs[1] = { MPI_DISTRIBUTE_BLOCK };
    int dargs[1] = { MPI_DISTRIBUTE_DFLT_DARG }, psizes[1] = { 2 };
    CHECK_MPI(MPI_Type_create_darray_c(2, 0, 1, gsizes, distribs, dargs,
                                       psizes, MPI_ORDER_C, MPI_INT, &t));
    check_packs(t, (const int[]){ 0, 1, 2, 3 }, 4, "darray_c");
    MPI_Count lb = -1, ext = -1;
    CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &ext));
    CHECK(lb == 0 && ext == 8 * (MPI_Count)sizeof(int),
          "darray_c extent %lld %lld", (long long)lb, (long long)ext);
    check_envelope_c(t, MPI_COMBINER_DARRAY, 7, 1, 1, "darray_c");
    check_contents_c(t, (const int[]){ 2, 0, 1, MPI_DISTRIBUTE_BLOCK,
                                       MPI_DISTRIBUTE_DFLT_DARG, 2,
                                       MPI_ORDER_C }, 7,
                     (const MPI_Count[]){ 8 }, 1, ints, 1, "darray_c");
    CHECK_MPI(MPI_Type_free(&t));
    /* process 1 of 2, cyclic by 3: elements 3, 4, 5 */
    int g8[1] = { 8 };
    distribs[0] = MPI_DISTRIBUTE_CYCLIC;
    dargs[0] = 3;
    CHECK_MPI(MPI_Type_create_darray(2, 1, 1, g8, distribs, dargs, psizes,
                                     MPI_ORDER_FORTRAN, MPI_INT, &t));
    check_packs(t, (const int[]){ 3, 4, 5 }, 3, "darray");
    check_envelope_c(t, MPI_COMBINER_DARRAY, 8, 0, 1, "darray");
    check_contents_c(t, (const int[]){ 2, 1, 1, 8, MPI_DISTRIBUTE_CYCLIC, 3,
                                       2, MPI_ORDER_FORTRAN }, 8,
                     NULL, 0, ints, 1, "darray");
    CHECK_MPI(MPI_Type_free(&t));
}

/* A new info each call, its keys' values "true" or "false", one true at
   least (the machine's); NULL refused. */
static void check_hw_resource_info(void)
{
    MPI_Info a, b;
    CHECK_MPI(MPI_Get_hw_resource_info(&a));
    CHECK_MPI(MPI_Get_hw_resource_info(&b));
    CHECK(a != MPI_INFO_NULL && (uintptr_t)a >= 0x1000 && a != b,
          "Get_hw_resource_info: %p, then %p", (void *)a, (void *)b);
    int n = -1, trues = 0;
    CHECK_MPI(MPI_Info_get_nkeys(a, &n));
    CHECK(n >= 1, "Get_hw_resource_info: %d keys", n);
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY], val[16];
        int len = sizeof val, flag = 0;
        CHECK_MPI(MPI_Info_get_nthkey(a, i, key));
        CHECK_MPI(MPI_Info_get_string(a, key, &len, val, &flag));
        CHECK(flag && (!strcmp(val, "true") || !strcmp(val, "false")),
              "Get_hw_resource_info: %s is \"%s\"", key, val);
        trues += !strcmp(val, "true");
    }
    CHECK(trues >= 1, "Get_hw_resource_info: no level true");
    CHECK_MPI(MPI_Info_free(&a));
    CHECK_MPI(MPI_Info_free(&b));
    handlers(MPI_ERRORS_RETURN);
    CHECK_CLASS(MPI_Get_hw_resource_info(NULL), MPI_ERR_ARG);
    handlers(MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_alltoallw_c();
    check_neighbor_alltoallw_c();
    check_op_create_c();
    check_indexed_c();
    check_struct_c();
    check_arrays_c();
    check_hw_resource_info();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
