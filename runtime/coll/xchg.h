/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xchg.h - the data-movement engine of the collectives that only move
 * data (bcast, gather, scatter, allgather, alltoall and their v/w forms)
 * and the argument tables they share with the fallback (fallback.c).
 */
#ifndef SHMPI_COLL_XCHG_H
#define SHMPI_COLL_XCHG_H

#include "coll/coll.h"
#include "coll/vec.h"

/* (buf, count, type): len = count * type->size packed bytes. */
struct shmpi_coll_block {
    void *buf;
    MPI_Count count;
    MPI_Datatype type;
    uint64_t len;
};

/* The blocks of one side of a collective, as its arguments give them:
   block i is counts[i] (or count) elements of types[i] (or type) at
   base + displs[i] * unit (displs not given: i * count * unit; unit 0:
   every block is at base).  counts and displs in either width (vec.h). */
struct shmpi_coll_blocks {
    unsigned char *base;
    struct shmpi_coll_vec counts;
    MPI_Count count;
    struct shmpi_coll_vec displs;
    MPI_Aint unit;
    const MPI_Datatype *types;
    MPI_Datatype type;
};

void shmpi_coll_block_at(const struct shmpi_coll_blocks *b, int i,
                         struct shmpi_coll_block *out);
/* One block, as a table. */
struct shmpi_coll_blocks shmpi_coll_one_block(const void *buf, MPI_Count count,
                                              MPI_Datatype type);

enum shmpi_xchg_shape {
    SHMPI_XCHG_ONE,   /* a writer publishes one block, for every reader */
    SHMPI_XCHG_EACH,  /* a writer publishes one block per reader */
};

/*
 * What one member does in a data collective.  The collective fills this
 * in; shmpi_coll_xchg (on the area) or shmpi_coll_fb_xchg (messages)
 * runs it.  Every member's description must agree with the others': a
 * member that writes for reader d is one that d reads from.
 */
struct shmpi_coll_xchg {
    enum shmpi_xchg_shape shape;
    int writes;          /* this member publishes data */
    int readers;         /* who reads it: SHMPI_COLL_ALL or a member */
    int sources;         /* whom it reads: SHMPI_COLL_ALL, a member or
                            SHMPI_COLL_NOBODY */
    int agreed;          /* every member knows every length, so all count
                            the same rounds */
    int exact;           /* EACH: all blocks have one length, so it can be
                            checked against what the reader expects */
    struct shmpi_coll_block mine;     /* ONE: the block it writes */
    struct shmpi_coll_blocks out;     /* EACH: block d is for member d */
    struct shmpi_coll_blocks in;      /* block j comes from member j */
    int truncated_by;    /* out: a source (member) that sent more than fits,
                            or -1: a rank, not a flag (member 0 is one) */
};

/* EACH: the bytes of a half given to each member's block in a round
   (0: the half is too small for one byte each). */
uint64_t shmpi_coll_xchg_region(const struct shmpi_coll *c);
/* Can comm's area run a collective of this shape (EACH needs a
   region of at least a byte per member)? */
int shmpi_coll_xchg_fits(const struct shmpi_coll *c,
                         enum shmpi_xchg_shape shape);
/* Run it on the area of comm (a communicator with an area). */
void shmpi_coll_xchg(struct shmpi_coll *c, struct shmpi_coll_xchg *x);
/* Run it on comm, on the area or over messages, for the MPI call fn
   whose root is root (-1: none); returns MPI_SUCCESS or an error
   raised on comm under fn (MPI_ERR_TRUNCATE). */
int shmpi_coll_move(MPI_Comm comm, struct shmpi_coll_xchg *x, int root,
                    const char *fn);

#endif
