/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * flat.h - the compiled form of a datatype and the walks over it; private
 * to compile.c (which builds it), iterate.c (which walks it) and pack.c
 * (whose kernels move the bytes).  compile.c's top comment describes the
 * program, its layout and its invariants.
 */
#ifndef SHMPI_FLAT_H
#define SHMPI_FLAT_H

#include <stdint.h>
#include <sys/uio.h>

#include "datatypes/datatype.h"

enum shmpi_node_kind { SHMPI_NODE_RUNS = 1, SHMPI_NODE_LOOPS = 2 };

/* The count of a node that repeats for as long as the walk asks: the
   outermost repeat of the top node, by the type's extent. */
#define SHMPI_ENDLESS UINT64_MAX

struct shmpi_flat_node {
    uint32_t kind;             /* enum shmpi_node_kind */
    uint32_t unused;
    uint64_t n;                /* runs (RUNS) or entries (LOOPS); >= 1 */
    uint64_t size;             /* packed bytes: of one iteration (RUNS),
                                  of the whole node (LOOPS) */
};

/* count iterations, iteration i at origin + i * stride, each made of the
   n runs [disp[j], disp[j] + len[j]) in that order. */
struct shmpi_flat_runs {
    struct shmpi_flat_node h;
    uint64_t count;
    int64_t stride;
    uint64_t uniform;          /* the length of every run, or 0 when they
                                  differ; then len[n] and prefix[n]
                                  (packed offset of run j within the
                                  iteration) follow disp[n] */
    int64_t disp[];
};

static inline const uint64_t *shmpi_runs_len(const struct shmpi_flat_runs *r)
{
    return (const uint64_t *)(r->disp + r->h.n);
}

static inline const uint64_t *
shmpi_runs_prefix(const struct shmpi_flat_runs *r)
{
    return shmpi_runs_len(r) + r->h.n;
}

/* Entry k: count bodies, body i at origin + disp + i * stride. */
struct shmpi_flat_entry {
    int64_t disp;
    uint64_t count;
    int64_t stride;
    uint64_t body;             /* offset of the body node in the program */
    uint64_t unit;             /* packed bytes of one body */
    uint64_t prefix;           /* packed bytes of entries 0..k-1 */
};

/* The n entries one after the other. */
struct shmpi_flat_loops {
    struct shmpi_flat_node h;
    struct shmpi_flat_entry e[];
};

struct shmpi_flat {
    uint64_t bytes;            /* of the program, this header included */
    uint64_t top;              /* offset of the node walked for count x
                                  type, 0 when the type has no data */
    int64_t solid_disp;        /* when solid: */
    int solid;                 /* count x type is one run of count * size
                                  bytes at buf + solid_disp */
};

/* A committed type's compiled form.  Relaxed: the commit that published
   it (compile.c) happens before this use - this thread committed the
   type, or the program ordered the commit before it. */
static inline const struct shmpi_flat *shmpi_dt_flat_of(MPI_Datatype t)
{
    return atomic_load_explicit(&t->flat, memory_order_relaxed);
}

static inline const struct shmpi_flat_node *
shmpi_flat_node_at(const struct shmpi_flat *f, uint64_t at)
{
    return (const struct shmpi_flat_node *)((const unsigned char *)f + at);
}

/* What a walk does with each memory run it meets, in packed order. */
enum shmpi_walk_op {
    SHMPI_WALK_PACK,           /* copy it to `packed`, advance */
    SHMPI_WALK_UNPACK,         /* copy `packed` into it, advance */
    SHMPI_WALK_IOV,            /* append it to iov (merging neighbours) */
};

struct shmpi_dt_walk {
    enum shmpi_walk_op op;
    unsigned char *packed;
    struct iovec *iov;
    int iov_used, iov_max;
};

/* iterate.c: the runs of packed bytes [offset, offset + len) of
   (buf, count, f); returns the bytes walked, less than len only when
   the iovec array filled up. */
uint64_t shmpi_dt_walk(const struct shmpi_flat *f, unsigned char *buf,
                       uint64_t offset, uint64_t len, struct shmpi_dt_walk *w);

/* pack.c: the kernels of the walk - runs [first, end) of r in each of
   `iters` iterations from origin, out of / into the packed bytes; return
   the packed pointer past them. */
unsigned char *shmpi_dt_runs_pack(const struct shmpi_flat_runs *r,
                                  uint64_t first, uint64_t end,
                                  const unsigned char *origin, uint64_t iters,
                                  unsigned char *out);
const unsigned char *shmpi_dt_runs_unpack(const struct shmpi_flat_runs *r,
                                          uint64_t first, uint64_t end,
                                          unsigned char *origin, uint64_t iters,
                                          const unsigned char *in);

#endif
