/* abi_types: the remaining datatype calls through the standard ABI: hindexed, indexed_block, subarray and darray constructors, envelopes and contents with the ABI's combiners, pack and unpack (external32 too), Type_match_size, the Fortran 90 types, names and sizes, and the large-count (_c) forms of the simple ones. */
/* shmpi-test: np=1 timeout=60 ext abi */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Built against include/abi/mpi.h: MPI_COMBINER_VECTOR is 104,
 * MPI_ORDER_C 12, MPI_DISTRIBUTE_BLOCK 17, MPI_TYPECLASS_REAL 193,
 * MPI_DOUBLE 0x214; shmpi's own values (4, 0, 0, 1) fail the checks.
 */
#include "check.h"

#include <stdint.h>

#define HVAL(h) ((uintptr_t)(h))

static void check_envelope(MPI_Datatype t, int combiner, int ni, int na,
                           int nd, const char *what)
{
    int i = -1, a = -1, d = -1, c = -1;
    CHECK_MPI(MPI_Type_get_envelope(t, &i, &a, &d, &c));
    CHECK(c == combiner && i == ni && a == na && d == nd,
          "%s: envelope %d/%d/%d combiner %d", what, i, a, d, c);
}

static void check_constructors(void)
{
    int bl[2] = { 1, 2 }, di[3] = { 0, 3, 6 }, sz = -1;
    MPI_Aint ad[2] = { 0, 16 };
    MPI_Datatype hi, ib, hib, t;
    CHECK_MPI(MPI_Type_create_hindexed(2, bl, ad, MPI_INT, &hi));
    CHECK_MPI(MPI_Type_size(hi, &sz));
    CHECK(sz == 3 * (int)sizeof(int), "hindexed size %d", sz);
    check_envelope(hi, MPI_COMBINER_HINDEXED, 3, 2, 1, "hindexed");
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, di, MPI_DOUBLE, &ib));
    check_envelope(ib, MPI_COMBINER_INDEXED_BLOCK, 5, 0, 1, "indexed_block");
    CHECK_MPI(MPI_Type_create_hindexed_block(2, 1, ad, MPI_SHORT, &hib));
    check_envelope(hib, MPI_COMBINER_HINDEXED_BLOCK, 2, 2, 1, "hindexed_block");
    MPI_Count big = -1, lb = -1, ext = -1;
    CHECK_MPI(MPI_Type_size_x(ib, &big));
    CHECK(big == 6 * (MPI_Count)sizeof(double), "size_x %lld", (long long)big);
    CHECK_MPI(MPI_Type_get_extent_x(hi, &lb, &ext));
    CHECK(lb == 0 && ext == 16 + 2 * (MPI_Count)sizeof(int), "extent_x");
    CHECK_MPI(MPI_Type_get_true_extent_x(hib, &lb, &ext));
    CHECK(lb == 0 && ext == 16 + (MPI_Count)sizeof(short), "true_extent_x");

    /* contents: the datatype comes back as the ABI's MPI_DOUBLE */
    int ints[8];
    MPI_Aint addrs[4];
    MPI_Datatype types[2] = { MPI_DATATYPE_NULL, MPI_DATATYPE_NULL };
    CHECK_MPI(MPI_Type_get_contents(ib, 8, 4, 2, ints, addrs, types));
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[4] == 6 && types[0] == MPI_DOUBLE,
          "indexed_block contents, type %#lx", (unsigned long)HVAL(types[0]));
    check_envelope(MPI_INT, MPI_COMBINER_NAMED, 0, 0, 0, "MPI_INT");
    CHECK_MPI(MPI_Type_vector(2, 1, 3, hi, &t));
    check_envelope(t, MPI_COMBINER_VECTOR, 3, 0, 1, "vector");
    CHECK_MPI(MPI_Type_get_contents(t, 8, 4, 2, ints, addrs, types));
    CHECK(types[0] != MPI_DATATYPE_NULL && HVAL(types[0]) >= 0x1000,
          "a derived type's contents give a handle of the library");
    check_envelope(types[0], MPI_COMBINER_HINDEXED, 3, 2, 1, "contents' type");
    CHECK_MPI(MPI_Type_free(&types[0]));
    MPI_Datatype r, d;
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 8, &r));
    check_envelope(r, MPI_COMBINER_RESIZED, 0, 2, 1, "resized");
    CHECK_MPI(MPI_Type_dup(r, &d));
    check_envelope(d, MPI_COMBINER_DUP, 0, 0, 1, "dup");
    MPI_Datatype *all[] = { &hi, &ib, &hib, &t, &r, &d };
    for (int k = 0; k < 6; k++)
        CHECK_MPI(MPI_Type_free(all[k]));
}

static void check_arrays(void)
{
    /* the 2x2 middle of a 4x4 array of ints, C order */
    int sizes[2] = { 4, 4 }, subs[2] = { 2, 2 }, starts[2] = { 1, 1 };
    MPI_Datatype sub;
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C,
                                       MPI_INT, &sub));
    CHECK_MPI(MPI_Type_commit(&sub));
    int m[16], packed[4], pos = 0, psz = -1;
    for (int i = 0; i < 16; i++)
        m[i] = i;
    CHECK_MPI(MPI_Pack_size(1, sub, MPI_COMM_WORLD, &psz));
    CHECK(psz >= 4 * (int)sizeof(int), "Pack_size %d", psz);
    CHECK_MPI(MPI_Pack(m, 1, sub, packed, (int)sizeof packed, &pos,
                       MPI_COMM_WORLD));
    CHECK(pos == 16 && packed[0] == 5 && packed[1] == 6 && packed[2] == 9 &&
          packed[3] == 10, "subarray packed %d %d %d %d", packed[0],
          packed[1], packed[2], packed[3]);
    int back[16] = { 0 };
    pos = 0;
    CHECK_MPI(MPI_Unpack(packed, (int)sizeof packed, &pos, back, 1, sub,
                         MPI_COMM_WORLD));
    CHECK(back[5] == 5 && back[10] == 10 && back[0] == 0, "unpacked");
    int ints[16];
    MPI_Aint addrs[1];
    MPI_Datatype types[1];
    check_envelope(sub, MPI_COMBINER_SUBARRAY, 8, 0, 1, "subarray");
    CHECK_MPI(MPI_Type_get_contents(sub, 16, 1, 1, ints, addrs, types));
    CHECK(ints[7] == MPI_ORDER_C && types[0] == MPI_INT,
          "subarray contents order %d", ints[7]);
    MPI_Status st;
    int elems = -1;
    CHECK_MPI(MPI_Sendrecv(m, 1, sub, 0, 0, back, 4, MPI_INT, 0, 0,
                           MPI_COMM_SELF, &st));
    CHECK_MPI(MPI_Get_elements(&st, sub, &elems));
    CHECK(elems == 4 && back[3] == 10, "Get_elements %d", elems);
    CHECK_MPI(MPI_Type_free(&sub));
    CHECK_CLASS(MPI_Type_create_subarray(2, sizes, subs, starts, 0, MPI_INT,
                                         &sub), MPI_ERR_ARG);

    /* a darray of one process: all of it, block-distributed */
    int gs[2] = { 4, 6 }, dist[2] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC };
    int dargs[2] = { MPI_DISTRIBUTE_DFLT_DARG, 2 }, ps[2] = { 1, 1 };
    MPI_Datatype da;
    CHECK_MPI(MPI_Type_create_darray(1, 0, 2, gs, dist, dargs, ps,
                                     MPI_ORDER_FORTRAN, MPI_FLOAT, &da));
    int dsz = -1;
    CHECK_MPI(MPI_Type_size(da, &dsz));
    CHECK(dsz == 24 * (int)sizeof(float), "darray size %d", dsz);
    check_envelope(da, MPI_COMBINER_DARRAY, 4 * 2 + 4, 0, 1, "darray");
    CHECK_MPI(MPI_Type_get_contents(da, 16, 1, 1, ints, addrs, types));
    CHECK(ints[5] == MPI_DISTRIBUTE_BLOCK && ints[6] == MPI_DISTRIBUTE_CYCLIC &&
          ints[7] == MPI_DISTRIBUTE_DFLT_DARG && ints[8] == 2 &&
          ints[11] == MPI_ORDER_FORTRAN && types[0] == MPI_FLOAT,
          "darray contents %d %d %d %d %d", ints[5], ints[6], ints[7], ints[8],
          ints[11]);
    CHECK_MPI(MPI_Type_free(&da));
}

static void check_pack_external(void)
{
    int v[2] = { 0x01020304, -2 };
    unsigned char buf[8];
    MPI_Aint pos = 0, need = -1;
    CHECK_MPI(MPI_Pack_external_size("external32", 2, MPI_INT, &need));
    CHECK(need == 8, "external32 size %ld", (long)need);
    CHECK_MPI(MPI_Pack_external("external32", v, 2, MPI_INT, buf, 8, &pos));
    CHECK(pos == 8 && buf[0] == 1 && buf[3] == 4 && buf[4] == 0xff,
          "external32 is big-endian");
    int w[2] = { 0, 0 };
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 8, &pos, w, 2, MPI_INT));
    CHECK(w[0] == v[0] && w[1] == -2, "Unpack_external");
}

static void check_named(void)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t));
    int sz = -1;
    CHECK_MPI(MPI_Type_size(t, &sz));
    CHECK(sz == 8 && HVAL(t) < 0x1000, "match_size REAL 8: %#lx size %d",
          (unsigned long)HVAL(t), sz);
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &t));
    CHECK_MPI(MPI_Type_size(t, &sz));
    CHECK(sz == 4, "match_size INTEGER 4");
    CHECK_CLASS(MPI_Type_match_size(2, 4, &t), MPI_ERR_ARG);
    CHECK_MPI(MPI_Type_create_f90_integer(9, &t));
    CHECK_MPI(MPI_Type_size(t, &sz));
    CHECK(sz >= 4, "f90 integer size %d", sz);
    int i, a, d, c;
    CHECK_MPI(MPI_Type_get_envelope(t, &i, &a, &d, &c));
    CHECK(c == MPI_COMBINER_F90_INTEGER || c == MPI_COMBINER_NAMED,
          "f90 integer combiner %d", c);
    CHECK_MPI(MPI_Type_create_f90_real(6, 30, &t));
    CHECK_MPI(MPI_Type_get_envelope(t, &i, &a, &d, &c));
    CHECK(c == MPI_COMBINER_F90_REAL || c == MPI_COMBINER_NAMED,
          "f90 real combiner %d", c);
    CHECK_MPI(MPI_Type_create_f90_complex(15, 300, &t));
    CHECK_MPI(MPI_Type_size(t, &sz));
    CHECK(sz == 16, "f90 complex size %d", sz);
    CHECK_MPI(MPI_Type_get_value_index(MPI_INT, MPI_INT, &t));
    CHECK(t == MPI_2INT, "value_index(int, int) %#lx", (unsigned long)HVAL(t));
    CHECK_MPI(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &t));
    CHECK(t == MPI_DOUBLE_INT, "value_index(double, int)");

    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    CHECK_MPI(MPI_Type_get_name(MPI_DOUBLE, name, &len));
    CHECK(strcmp(name, "MPI_DOUBLE") == 0, "name '%s'", name);
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_MPI(MPI_Type_set_name(t, "pair"));
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK(len == 4 && strcmp(name, "pair") == 0, "set name '%s'", name);
    CHECK_MPI(MPI_Type_free(&t));
    int arr[4];
    MPI_Aint a0, a2;
    CHECK_MPI(MPI_Get_address(&arr[0], &a0));
    CHECK_MPI(MPI_Get_address(&arr[2], &a2));
    CHECK(MPI_Aint_diff(a2, a0) == 2 * (MPI_Aint)sizeof(int) &&
          MPI_Aint_add(a0, 8) == a2, "addresses");
}

static void check_large_count(void)
{
    MPI_Datatype v, r;
    CHECK_MPI(MPI_Type_vector_c((MPI_Count)3, (MPI_Count)1, (MPI_Count)2,
                                MPI_INT, &v));
    CHECK_MPI(MPI_Type_create_resized_c(v, (MPI_Count)0, (MPI_Count)24, &r));
    CHECK_MPI(MPI_Type_commit(&r));
    MPI_Count sz = -1, lb = -1, ext = -1;
    CHECK_MPI(MPI_Type_size_c(r, &sz));
    CHECK_MPI(MPI_Type_get_extent_c(r, &lb, &ext));
    CHECK(sz == 12 && lb == 0 && ext == 24, "vector_c/resized_c %lld %lld",
          (long long)sz, (long long)ext);
    CHECK_MPI(MPI_Type_get_true_extent_c(v, &lb, &ext));
    CHECK(ext == 5 * (MPI_Count)sizeof(int), "true extent_c %lld", (long long)ext);
    int src[6] = { 0, 1, 2, 3, 4, 5 }, dst[3] = { 0 };
    char buf[64];
    MPI_Count pos = 0, need = -1;
    CHECK_MPI(MPI_Pack_size_c((MPI_Count)1, r, MPI_COMM_WORLD, &need));
    CHECK_MPI(MPI_Pack_c(src, (MPI_Count)1, r, buf, (MPI_Count)sizeof buf, &pos,
                         MPI_COMM_WORLD));
    CHECK(pos == 12 && need >= 12, "Pack_c %lld", (long long)pos);
    MPI_Datatype c3;
    CHECK_MPI(MPI_Type_contiguous_c((MPI_Count)3, MPI_INT, &c3));
    CHECK_MPI(MPI_Type_commit(&c3));
    pos = 0;
    CHECK_MPI(MPI_Unpack_c(buf, (MPI_Count)sizeof buf, &pos, dst, (MPI_Count)1,
                           c3, MPI_COMM_WORLD));
    CHECK(dst[0] == 0 && dst[1] == 2 && dst[2] == 4, "Unpack_c %d %d %d",
          dst[0], dst[1], dst[2]);
    MPI_Count xpos = 0, xneed = -1;
    CHECK_MPI(MPI_Pack_external_size_c("external32", (MPI_Count)1, c3, &xneed));
    CHECK_MPI(MPI_Pack_external_c("external32", dst, (MPI_Count)1, c3, buf,
                                  (MPI_Count)sizeof buf, &xpos));
    CHECK(xneed == 12 && xpos == 12 && buf[11] == 4, "Pack_external_c");
    xpos = 0;
    CHECK_MPI(MPI_Unpack_external_c("external32", buf, (MPI_Count)12, &xpos,
                                    src, (MPI_Count)1, c3));
    CHECK(src[2] == 4 && src[1] == 2, "Unpack_external_c");
    CHECK_MPI(MPI_Type_free(&c3));
    CHECK_MPI(MPI_Type_free(&r));
    CHECK_MPI(MPI_Type_free(&v));
    MPI_Datatype h;
    CHECK_MPI(MPI_Type_create_hvector_c((MPI_Count)2, (MPI_Count)1,
                                        (MPI_Count)16, MPI_DOUBLE, &h));
    CHECK_MPI(MPI_Type_size_c(h, &sz));
    CHECK(sz == 16, "hvector_c %lld", (long long)sz);
    CHECK_MPI(MPI_Type_free(&h));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    check_constructors();
    check_arrays();
    check_pack_external();
    check_named();
    check_large_count();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
