/* dt_c_forms_ext: each large-count (_c) datatype, pack and reduction call of MPI-4.0 with ordinary counts makes what its int form makes (same size, extents and packed bytes), keeps its arguments as large counts for MPI_Type_get_envelope_c/_contents_c (which the int forms refuse with MPI_ERR_TYPE), and refuses negative counts. */
/* shmpi-test: np=1 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext: Open MPI 4.1 has no _c forms.
 */
#include "check.h"

#include <string.h>

#define NB 64                     /* ints in the test arrays */

static int src[4 * NB];

/* t (int form) and tc (_c form) are the same layout: size, extents and
   the packed bytes of 2 of each agree; then both are freed. */
static void same(MPI_Datatype t, MPI_Datatype tc, const char *what)
{
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Type_commit(&tc));
    int size;
    MPI_Count csize, lb, ext, clb, cext, tlb, text, ctlb, ctext;
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK_MPI(MPI_Type_size_c(tc, &csize));
    CHECK_MPI(MPI_Type_get_extent_x(t, &lb, &ext));
    CHECK_MPI(MPI_Type_get_extent_c(tc, &clb, &cext));
    CHECK_MPI(MPI_Type_get_true_extent_x(t, &tlb, &text));
    CHECK_MPI(MPI_Type_get_true_extent_c(tc, &ctlb, &ctext));
    CHECK(size == csize && lb == clb && ext == cext && tlb == ctlb &&
              text == ctext,
          "%s: size %d/%lld, extent %lld,%lld/%lld,%lld", what, size,
          (long long)csize, (long long)lb, (long long)ext, (long long)clb,
          (long long)cext);
    static char p1[8 * sizeof src], p2[8 * sizeof src];
    int pos = 0;
    MPI_Count cpos = 0, psize;
    CHECK_MPI(MPI_Pack(src, 2, t, p1, sizeof p1, &pos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack_c(src, 2, tc, p2, sizeof p2, &cpos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack_size_c(2, tc, MPI_COMM_WORLD, &psize));
    CHECK(pos == cpos && cpos == psize && memcmp(p1, p2, (size_t)pos) == 0,
          "%s: packed %d / %lld bytes (MPI_Pack_size_c %lld), or not the "
          "same", what, pos, (long long)cpos, (long long)psize);
    /* back through MPI_Unpack_c: the same bytes again */
    static int back[4 * NB];
    memset(back, 0, sizeof back);
    cpos = 0;
    CHECK_MPI(MPI_Unpack_c(p2, psize, &cpos, back, 2, tc, MPI_COMM_WORLD));
    pos = 0;
    CHECK_MPI(MPI_Pack(back, 2, t, p1, sizeof p1, &pos, MPI_COMM_WORLD));
    CHECK(cpos == psize && memcmp(p1, p2, (size_t)pos) == 0,
          "%s: MPI_Unpack_c did not give the data back", what);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&tc));
}

/* tc's envelope_c: combiner and the numbers of each kind; its large
   counts are want[0..nc); the int forms refuse it. */
static void decoded(MPI_Datatype tc, int combiner, MPI_Count ni,
                    MPI_Count nc, const MPI_Count *want, const char *what)
{
    MPI_Count i, a, c, d;
    int comb;
    CHECK_MPI(MPI_Type_get_envelope_c(tc, &i, &a, &c, &d, &comb));
    CHECK(comb == combiner && i == ni && a == 0 && c == nc,
          "%s: envelope_c says combiner %d, %lld ints, %lld addresses, "
          "%lld large counts", what, comb, (long long)i, (long long)a,
          (long long)c);
    int ints[16];
    MPI_Aint addrs[1];
    MPI_Count counts[4 * NB];
    MPI_Datatype types[NB];
    CHECK_MPI(MPI_Type_get_contents_c(tc, i, a, c, d, ints, addrs, counts,
                                      types));
    for (MPI_Count k = 0; k < nc; k++)
        CHECK(counts[k] == want[k], "%s: large count %lld is %lld, not %lld",
              what, (long long)k, (long long)counts[k], (long long)want[k]);
    for (MPI_Count k = 0; k < d; k++)
        if (types[k] != MPI_INT && types[k] != MPI_DOUBLE)
            CHECK_MPI(MPI_Type_free(&types[k]));
    int ii, ia, id;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Type_get_envelope(tc, &ii, &ia, &id, &comb),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_get_contents(tc, 16, 1, NB, ints, addrs, types),
                MPI_ERR_TYPE);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD,
                                      MPI_ERRORS_ARE_FATAL));
}

static void constructors(void)
{
    MPI_Datatype t, tc;
    /* contiguous */
    CHECK_MPI(MPI_Type_contiguous(5, MPI_INT, &t));
    CHECK_MPI(MPI_Type_contiguous_c(5, MPI_INT, &tc));
    decoded(tc, MPI_COMBINER_CONTIGUOUS, 0, 1, (MPI_Count[]){5},
            "contiguous");
    same(t, tc, "MPI_Type_contiguous_c");
    /* vector, hvector */
    CHECK_MPI(MPI_Type_vector(4, 2, 3, MPI_INT, &t));
    CHECK_MPI(MPI_Type_vector_c(4, 2, 3, MPI_INT, &tc));
    decoded(tc, MPI_COMBINER_VECTOR, 0, 3, (MPI_Count[]){4, 2, 3}, "vector");
    same(t, tc, "MPI_Type_vector_c");
    CHECK_MPI(MPI_Type_create_hvector(4, 2, 20, MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_hvector_c(4, 2, 20, MPI_INT, &tc));
    decoded(tc, MPI_COMBINER_HVECTOR, 0, 3, (MPI_Count[]){4, 2, 20},
            "hvector");
    same(t, tc, "MPI_Type_create_hvector_c");
    /* the indexed family and struct */
    int il[3] = {2, 1, 3}, id[3] = {0, 5, 9};
    MPI_Aint ah[3] = {0, 20, 36};
    MPI_Count cl[3] = {2, 1, 3}, cd[3] = {0, 5, 9}, ch[3] = {0, 20, 36};
    CHECK_MPI(MPI_Type_indexed(3, il, id, MPI_INT, &t));
    CHECK_MPI(MPI_Type_indexed_c(3, cl, cd, MPI_INT, &tc));
    decoded(tc, MPI_COMBINER_INDEXED, 0, 7,
            (MPI_Count[]){3, 2, 1, 3, 0, 5, 9}, "indexed");
    same(t, tc, "MPI_Type_indexed_c");
    CHECK_MPI(MPI_Type_create_hindexed(3, il, ah, MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_hindexed_c(3, cl, ch, MPI_INT, &tc));
    decoded(tc, MPI_COMBINER_HINDEXED, 0, 7,
            (MPI_Count[]){3, 2, 1, 3, 0, 20, 36}, "hindexed");
    same(t, tc, "MPI_Type_create_hindexed_c");
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, id, MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_indexed_block_c(3, 2, cd, MPI_INT, &tc));
    decoded(tc, MPI_COMBINER_INDEXED_BLOCK, 0, 5,
            (MPI_Count[]){3, 2, 0, 5, 9}, "indexed_block");
    same(t, tc, "MPI_Type_create_indexed_block_c");
    CHECK_MPI(MPI_Type_create_hindexed_block(3, 2, ah, MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_hindexed_block_c(3, 2, ch, MPI_INT, &tc));
    decoded(tc, MPI_COMBINER_HINDEXED_BLOCK, 0, 5,
            (MPI_Count[]){3, 2, 0, 20, 36}, "hindexed_block");
    same(t, tc, "MPI_Type_create_hindexed_block_c");
    MPI_Datatype st[3] = {MPI_INT, MPI_DOUBLE, MPI_INT};
    MPI_Aint sd[3] = {0, 8, 40};
    MPI_Count scd[3] = {0, 8, 40};
    CHECK_MPI(MPI_Type_create_struct(3, il, sd, st, &t));
    CHECK_MPI(MPI_Type_create_struct_c(3, cl, scd, st, &tc));
    decoded(tc, MPI_COMBINER_STRUCT, 0, 7,
            (MPI_Count[]){3, 2, 1, 3, 0, 8, 40}, "struct");
    same(t, tc, "MPI_Type_create_struct_c");
    /* resized */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 12, &t));
    CHECK_MPI(MPI_Type_create_resized_c(MPI_INT, -4, 12, &tc));
    decoded(tc, MPI_COMBINER_RESIZED, 0, 2, (MPI_Count[]){-4, 12},
            "resized");
    same(t, tc, "MPI_Type_create_resized_c");
    /* subarray (ndims, order: ints) and darray (gsizes: large counts) */
    int sz[2] = {8, 8}, sub[2] = {3, 4}, start[2] = {2, 1};
    MPI_Count csz[2] = {8, 8}, csub[2] = {3, 4}, cstart[2] = {2, 1};
    CHECK_MPI(MPI_Type_create_subarray(2, sz, sub, start, MPI_ORDER_C,
                                       MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_subarray_c(2, csz, csub, cstart, MPI_ORDER_C,
                                         MPI_INT, &tc));
    decoded(tc, MPI_COMBINER_SUBARRAY, 2, 6,
            (MPI_Count[]){8, 8, 3, 4, 2, 1}, "subarray");
    same(t, tc, "MPI_Type_create_subarray_c");
    int gs[2] = {8, 6}, dist[2] = {MPI_DISTRIBUTE_BLOCK,
                                   MPI_DISTRIBUTE_CYCLIC};
    int darg[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {2, 2};
    MPI_Count cgs[2] = {8, 6};
    CHECK_MPI(MPI_Type_create_darray(4, 3, 2, gs, dist, darg, ps,
                                     MPI_ORDER_FORTRAN, MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_darray_c(4, 3, 2, cgs, dist, darg, ps,
                                       MPI_ORDER_FORTRAN, MPI_INT, &tc));
    decoded(tc, MPI_COMBINER_DARRAY, 3 * 2 + 4, 2, (MPI_Count[]){8, 6},
            "darray");
    same(t, tc, "MPI_Type_create_darray_c");
    /* a type of the int form: the _c decoders give its ints, no counts */
    CHECK_MPI(MPI_Type_vector(4, 2, 3, MPI_INT, &t));
    MPI_Count ni, na, nc, nd;
    int comb, ints[3];
    CHECK_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &comb));
    CHECK(ni == 3 && na == 0 && nc == 0 && nd == 1,
          "an int vector's envelope_c: %lld %lld %lld %lld", (long long)ni,
          (long long)na, (long long)nc, (long long)nd);
    MPI_Datatype old;
    CHECK_MPI(MPI_Type_get_contents_c(t, 3, 0, 0, 1, ints, NULL, NULL, &old));
    CHECK(ints[0] == 4 && ints[1] == 2 && ints[2] == 3,
          "an int vector's contents_c: %d %d %d", ints[0], ints[1], ints[2]);
    CHECK_MPI(MPI_Type_free(&t));
}

static void external32(void)
{
    int in[NB], out[NB];
    for (int i = 0; i < NB; i++)
        in[i] = i * 7 - 100;
    char a[4 * NB], b[4 * NB];
    MPI_Aint pos = 0, size;
    MPI_Count cpos = 0, csize;
    CHECK_MPI(MPI_Pack_external_size("external32", NB, MPI_INT, &size));
    CHECK_MPI(MPI_Pack_external_size_c("external32", NB, MPI_INT, &csize));
    CHECK_MPI(MPI_Pack_external("external32", in, NB, MPI_INT, a, sizeof a,
                                &pos));
    CHECK_MPI(MPI_Pack_external_c("external32", in, NB, MPI_INT, b, sizeof b,
                                  &cpos));
    CHECK(size == csize && pos == cpos && cpos == csize &&
              memcmp(a, b, (size_t)pos) == 0,
          "external32: sizes %ld/%lld, positions %ld/%lld, or bytes differ",
          (long)size, (long long)csize, (long)pos, (long long)cpos);
    cpos = 0;
    CHECK_MPI(MPI_Unpack_external_c("external32", b, csize, &cpos, out, NB,
                                    MPI_INT));
    CHECK(cpos == csize && memcmp(in, out, sizeof in) == 0,
          "MPI_Unpack_external_c did not give the data back");
}

static MPI_Count seen_len;

static void sum_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    (void)dt;
    seen_len = *len;
    for (MPI_Count i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void reductions(void)
{
    int a[NB], b[NB];
    for (int i = 0; i < NB; i++)
        a[i] = i, b[i] = 1000 * i;
    MPI_Op op;
    CHECK_MPI(MPI_Op_create_c(sum_c, 1, &op));
    CHECK_MPI(MPI_Reduce_local_c(a, b, NB, MPI_INT, op));
    for (int i = 0; i < NB; i++)
        CHECK(b[i] == 1001 * i, "user op: b[%d] = %d", i, b[i]);
    CHECK(seen_len == NB, "user op saw len %lld", (long long)seen_len);
    /* the op of MPI_Op_create_c serves the int forms too */
    CHECK_MPI(MPI_Reduce_local(a, b, NB, MPI_INT, op));
    CHECK(b[5] == 1001 * 5 + 5, "user op through MPI_Reduce_local: %d",
          b[5]);
    int commute = 0;
    CHECK_MPI(MPI_Op_commutative(op, &commute));
    CHECK(commute == 1, "MPI_Op_commutative says %d", commute);
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Reduce_local_c(a, b, NB, MPI_INT, MPI_SUM));
    CHECK(b[5] == 1001 * 5 + 10, "MPI_SUM through MPI_Reduce_local_c: %d",
          b[5]);
}

static void bad_arguments(void)
{
    MPI_Datatype t;
    MPI_Count pos = 0, z[1] = {-1}, one[1] = {1};
    char buf[16];
    MPI_Op op;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Type_contiguous_c(-1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Type_vector_c(-((MPI_Count)1 << 40), 1, 1, MPI_INT, &t),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Type_create_hvector_c(1, -1, 1, MPI_INT, &t),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_indexed_c(1, z, one, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_struct_c(-1, one, one,
                                         (MPI_Datatype[]){MPI_INT}, &t),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Type_create_subarray_c(1, one, z, one, MPI_ORDER_C,
                                           MPI_INT, &t),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pack_c(buf, -1, MPI_INT, buf, 16, &pos, MPI_COMM_WORLD),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Unpack_c(buf, -1, &pos, buf, 1, MPI_INT, MPI_COMM_WORLD),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pack_size_c(-1, MPI_INT, MPI_COMM_WORLD, &pos),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Pack_external_size_c("external32", -1, MPI_INT, &pos),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Reduce_local_c(buf, buf + 8, -1, MPI_INT, MPI_SUM),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Reduce_local_c(buf, buf + 8, (MPI_Count)1 << 62, MPI_INT,
                                   MPI_SUM),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Pack_c(buf, (MPI_Count)1 << 62, MPI_INT, buf, 16, &pos,
                           MPI_COMM_WORLD),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Op_create_c(NULL, 1, &op), MPI_ERR_ARG);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD,
                                      MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (int i = 0; i < 4 * NB; i++)
        src[i] = i + 1;
    constructors();
    external32();
    reductions();
    bad_arguments();
    MPI_Finalize();
    return 0;
}
