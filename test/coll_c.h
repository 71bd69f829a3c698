/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * coll_c.h - what the tests of the MPI-4.0 large-count collectives
 * (coll_c_ext, nbc_c_ext, pcoll_c_ext) share: every collective run once
 * by its MPI-3.1 form and once by its _c form, from the same send data
 * into two receive buffers that start equal, and the two compared
 * element by element.  The MPI-3.1 forms' results are checked exactly
 * by their own tests (coll_*, nbc_*, pcoll_intra_ext); here the _c form
 * must give the same.  The v/w calls have a count per peer and gaps
 * between the blocks, so a _c form that read its MPI_Count or MPI_Aint
 * arrays as int arrays (or the int form's as wide ones) lands its data
 * elsewhere and shows.
 *
 * A program defines how a call runs before it includes this file:
 *   GO_CALL(blocking, nonblocking, persistent, args)
 * with the three names (MPI-3.1 spelling, or the _c one) and the
 * parenthesized arguments of the blocking form.  It then calls
 * run_all(comm) between MPI_Init and MPI_Finalize - or cc_setup(comm),
 * its own CC_RUN calls, and cc_free().
 */
#ifndef COLL_C_H
#define COLL_C_H

#include "check.h"

#include <string.h>

#define CC_B 3      /* elements per block */
#define CC_GAP (-7) /* what a receive buffer holds where nothing lands */

#define CC_UNPAREN(...) __VA_ARGS__

static int cc_rank, cc_size, cc_n;
static int *cc_sbuf, *cc_out[2];
/* the arrays of the v/w calls, as int (MPI-3.1) and as MPI_Count or
   MPI_Aint (_c) */
static int *cc_vcnt, *cc_vdsp, *cc_acnt, *cc_adsp, *cc_acnt2, *cc_adsp2,
    *cc_bdsp, *cc_bdsp2;
static MPI_Count *cc_vcnt_c, *cc_acnt_c, *cc_acnt2_c;
static MPI_Aint *cc_vdsp_c, *cc_adsp_c, *cc_adsp2_c, *cc_bdsp_c,
    *cc_bdsp2_c;
static MPI_Datatype *cc_types;

/* Elements process a sends to b in the all-to-all v/w calls. */
static int cc_c2(int a, int b)
{
    return (a + b) % 3 + 1;
}

static void *cc_alloc(size_t n, size_t each)
{
    void *p = calloc(n, each);
    CHECK(p, "out of memory");
    return p;
}

static void cc_setup(MPI_Comm comm)
{
    CHECK_MPI(MPI_Comm_rank(comm, &cc_rank));
    CHECK_MPI(MPI_Comm_size(comm, &cc_size));
    int n = cc_size, peers = n;
    int inter = 0;
    CHECK_MPI(MPI_Comm_test_inter(comm, &inter));
    if (inter)
        CHECK_MPI(MPI_Comm_remote_size(comm, &peers));
    if (peers > n)
        n = peers;
    if (n < 2) /* a periodic ring of one has two neighbors (itself) */
        n = 2;
    cc_n = 4 * n * (n + 1) + 8;
    cc_sbuf = cc_alloc((size_t)cc_n, sizeof(int));
    cc_out[0] = cc_alloc((size_t)cc_n, sizeof(int));
    cc_out[1] = cc_alloc((size_t)cc_n, sizeof(int));
    for (int k = 0; k < cc_n; k++)
        cc_sbuf[k] = 1000 * cc_rank + k + 1;
#define CC_ARR(v) v = cc_alloc((size_t)n, sizeof *v)
    CC_ARR(cc_vcnt); CC_ARR(cc_vdsp); CC_ARR(cc_acnt);
    CC_ARR(cc_adsp); CC_ARR(cc_acnt2); CC_ARR(cc_adsp2);
    CC_ARR(cc_bdsp); CC_ARR(cc_bdsp2);
    CC_ARR(cc_vcnt_c); CC_ARR(cc_acnt_c); CC_ARR(cc_acnt2_c);
    CC_ARR(cc_vdsp_c); CC_ARR(cc_adsp_c); CC_ARR(cc_adsp2_c);
    CC_ARR(cc_bdsp_c); CC_ARR(cc_bdsp2_c); CC_ARR(cc_types);
#undef CC_ARR
    for (int i = 0; i < n; i++) {
        cc_vcnt[i] = i + 1;              /* v forms: i+1 from/to peer i */
        cc_vdsp[i] = i * (n + 1);        /* with gaps between blocks */
        cc_acnt[i] = cc_c2(cc_rank, i);  /* alltoallv: this rank to i */
        cc_adsp[i] = 4 * i;
        cc_acnt2[i] = cc_c2(i, cc_rank); /* alltoallv: i to this rank */
        cc_adsp2[i] = 4 * (n - 1 - i);   /* received in reverse order */
        cc_bdsp[i] = cc_adsp[i] * (int)sizeof(int);
        cc_bdsp2[i] = cc_adsp2[i] * (int)sizeof(int);
        cc_types[i] = MPI_INT;
        cc_vcnt_c[i] = cc_vcnt[i];
        cc_vdsp_c[i] = cc_vdsp[i];
        cc_acnt_c[i] = cc_acnt[i];
        cc_adsp_c[i] = cc_adsp[i];
        cc_acnt2_c[i] = cc_acnt2[i];
        cc_adsp2_c[i] = cc_adsp2[i];
        cc_bdsp_c[i] = cc_bdsp[i];
        cc_bdsp2_c[i] = cc_bdsp2[i];
    }
}

static void cc_free(void)
{
    void *all[] = {cc_sbuf, cc_out[0], cc_out[1], cc_vcnt, cc_vdsp,
                   cc_acnt, cc_adsp, cc_acnt2, cc_adsp2, cc_bdsp, cc_bdsp2,
                   cc_vcnt_c, cc_acnt_c, cc_acnt2_c, cc_vdsp_c, cc_adsp_c,
                   cc_adsp2_c, cc_bdsp_c, cc_bdsp2_c, cc_types};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]);
}

/* Both forms of one collective: `pre` (a statement on rbuf) runs before
   each; the names inside args - rbuf, vcnt, vdsp, acnt, adsp, acnt2,
   adsp2, wdsp, wdsp2 (Alltoallw's byte displacements) - are the int arrays for the MPI-3.1 form and the
   wide ones for the _c form. */
#define CC_RUN(name, blk, nb, pers, pre, args)                             \
    do {                                                                   \
        for (int k = 0; k < cc_n; k++)                                     \
            cc_out[0][k] = cc_out[1][k] = CC_GAP;                          \
        {                                                                  \
            int *rbuf = cc_out[0];                                         \
            const int *vcnt = cc_vcnt, *vdsp = cc_vdsp, *acnt = cc_acnt,   \
                      *adsp = cc_adsp, *acnt2 = cc_acnt2,                  \
                      *adsp2 = cc_adsp2;                                   \
            const int *wdsp = cc_bdsp, *wdsp2 = cc_bdsp2;                  \
            (void)vcnt; (void)vdsp; (void)acnt; (void)adsp; (void)acnt2;   \
            (void)adsp2; (void)wdsp; (void)wdsp2;                          \
            pre;                                                           \
            GO_CALL(blk, nb, pers, args);                                  \
        }                                                                  \
        {                                                                  \
            int *rbuf = cc_out[1];                                         \
            const MPI_Count *vcnt = cc_vcnt_c, *acnt = cc_acnt_c,          \
                            *acnt2 = cc_acnt2_c;                           \
            const MPI_Aint *vdsp = cc_vdsp_c, *adsp = cc_adsp_c,           \
                           *adsp2 = cc_adsp2_c, *wdsp = cc_bdsp_c,         \
                           *wdsp2 = cc_bdsp2_c;                            \
            (void)vcnt; (void)vdsp; (void)acnt; (void)adsp; (void)acnt2;   \
            (void)adsp2; (void)wdsp; (void)wdsp2;                          \
            pre;                                                           \
            GO_CALL(blk##_c, nb##_c, pers##_c, args);                      \
        }                                                                  \
        cc_compare(name);                                                  \
    } while (0)

static void cc_compare(const char *name)
{
    for (int k = 0; k < cc_n; k++)
        CHECK(cc_out[1][k] == cc_out[0][k],
              "%s: the _c form left %d at element %d, the MPI-3.1 form %d",
              name, cc_out[1][k], k, cc_out[0][k]);
}

/* The sixteen data and reduction collectives, both forms each, on comm
   (an intracommunicator). */
static inline void run_all(MPI_Comm comm)
{
    cc_setup(comm);
    int root = cc_size - 1, me = cc_rank, B = CC_B;
    const int *s = cc_sbuf;
    size_t whole = (size_t)cc_n * sizeof(int);
    CC_RUN("Bcast", Bcast, Ibcast, Bcast_init,
           if (me == root) memcpy(rbuf, s, whole),
           (rbuf, 2 * B, MPI_INT, root, comm));
    CC_RUN("Gather", Gather, Igather, Gather_init, (void)0,
           (s, B, MPI_INT, rbuf, B, MPI_INT, 0, comm));
    CC_RUN("Gatherv", Gatherv, Igatherv, Gatherv_init, (void)0,
           (s, me + 1, MPI_INT, rbuf, vcnt, vdsp, MPI_INT, root, comm));
    CC_RUN("Scatter", Scatter, Iscatter, Scatter_init, (void)0,
           (s, B, MPI_INT, rbuf, B, MPI_INT, 0, comm));
    CC_RUN("Scatterv", Scatterv, Iscatterv, Scatterv_init, (void)0,
           (s, vcnt, vdsp, MPI_INT, rbuf, me + 1, MPI_INT, root, comm));
    CC_RUN("Allgather", Allgather, Iallgather, Allgather_init, (void)0,
           (s, B, MPI_INT, rbuf, B, MPI_INT, comm));
    CC_RUN("Allgatherv", Allgatherv, Iallgatherv, Allgatherv_init,
           (void)0, (s, me + 1, MPI_INT, rbuf, vcnt, vdsp, MPI_INT, comm));
    CC_RUN("Alltoall", Alltoall, Ialltoall, Alltoall_init, (void)0,
           (s, B, MPI_INT, rbuf, B, MPI_INT, comm));
    CC_RUN("Alltoallv", Alltoallv, Ialltoallv, Alltoallv_init, (void)0,
           (s, acnt, adsp, MPI_INT, rbuf, acnt2, adsp2, MPI_INT, comm));
    CC_RUN("Alltoallw", Alltoallw, Ialltoallw, Alltoallw_init, (void)0,
           (s, acnt, wdsp, cc_types, rbuf, acnt2, wdsp2, cc_types, comm));
    CC_RUN("Reduce", Reduce, Ireduce, Reduce_init, (void)0,
           (s, rbuf, 2 * B, MPI_INT, MPI_SUM, root, comm));
    CC_RUN("Allreduce", Allreduce, Iallreduce, Allreduce_init, (void)0,
           (s, rbuf, 2 * B, MPI_INT, MPI_MAX, comm));
    CC_RUN("Allreduce in place", Allreduce, Iallreduce, Allreduce_init,
           memcpy(rbuf, s, whole),
           (MPI_IN_PLACE, rbuf, 2 * B, MPI_INT, MPI_SUM, comm));
    CC_RUN("Reduce_scatter_block", Reduce_scatter_block,
           Ireduce_scatter_block, Reduce_scatter_block_init, (void)0,
           (s, rbuf, B, MPI_INT, MPI_SUM, comm));
    CC_RUN("Reduce_scatter", Reduce_scatter, Ireduce_scatter,
           Reduce_scatter_init, (void)0,
           (s, rbuf, vcnt, MPI_INT, MPI_SUM, comm));
    CC_RUN("Scan", Scan, Iscan, Scan_init, (void)0,
           (s, rbuf, B, MPI_INT, MPI_SUM, comm));
    CC_RUN("Exscan", Exscan, Iexscan, Exscan_init, (void)0,
           (s, rbuf, B, MPI_INT, MPI_PROD, comm));
    cc_free();
}

#endif
