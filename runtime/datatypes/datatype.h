/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * datatype.h - the datatype object and the engine's internal interface.
 *
 * A datatype is a small tree.  Every constructor normalizes what it was
 * given into one shape, a list of blocks (struct shmpi_dt_blocks): block i
 * is blocklen[i] copies of child[i], laid end to end by the child's
 * extent, starting at byte displacement disp[i].  Contiguous, vector,
 * indexed, struct, resized and dup are that shape directly; subarray and
 * darray are built from hidden vector (and struct) nodes given explicit
 * bounds, and keep their own arguments only for MPI_Type_get_contents.
 * A basic type is a leaf.
 *
 * MPI_Type_commit compiles the tree into a flat program (compile.c) of
 * merged (offset, length) runs with a repeat form; pack/unpack, the iovec
 * filler, pt2pt, collectives and RMA all walk that one compiled form.
 * The walks that need the basic types themselves (external32,
 * MPI_Get_elements) follow the tree; predefined reductions run on the
 * packed form, since a type they accept is made of one basic type.
 *
 * Where things are:
 *   type.c                     references, MPI_Type_commit, MPI_Type_free
 *   derived.h, build.c, layout.c   making a derived type: its block list
 *                              normalized, its size and bounds
 *   constructors.c, subarray.c     the constructors
 *   mpi1.c                     the MPI-1 constructors and queries that
 *                              MPI-3.0 removed, under their old names
 *   contents.c, names.c, queries.c, type_attr.c
 *                              what a type tells: envelope and contents,
 *                              name, size and extent, attributes
 *   predefined.c               the named types
 *   compile.c, flat.h, iterate.c, pack.c   the compiled form and its walks
 *   pack_mpi.c                 MPI_Pack, MPI_Unpack, MPI_Pack_size
 *   check.[ch]                 the argument checks of a (buffer, count,
 *                              datatype), for every room that takes one
 *   typemap_walk.[ch], elements.c, external32.c, ext32_convert.[ch]
 *                              walks over basic elements
 *   ops.h, ops.c, reduce_kernels.c, op_mpi.c   reduction operations
 *   core/attr.c                keyvals and attributes
 */
#ifndef SHMPI_DATATYPE_H
#define SHMPI_DATATYPE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "core/objects.h"

/* The normalized type map of a non-leaf type (see the top comment).
   Compact forms keep a vector of a million blocks at a few words:
   `regular` blocks share one blocklen and one child and sit at
   disp0 + i * stride; otherwise the arrays hold one entry per block
   (blocklens/children may be NULL when every block has `blocklen` /
   `child`). */
struct shmpi_dt_blocks {
    MPI_Count n;                  /* number of blocks (may be 0) */
    int regular;
    MPI_Aint disp0, stride;       /* bytes; when regular */
    MPI_Aint *disps;              /* bytes; when !regular */
    MPI_Count blocklen;           /* when blocklens == NULL */
    MPI_Count *blocklens;
    MPI_Datatype child;           /* when children == NULL */
    MPI_Datatype *children;       /* each holds a reference */
};

/* Block i of a map, whichever form it is stored in. */
static inline MPI_Aint shmpi_dt_block_disp(const struct shmpi_dt_blocks *m,
                                           MPI_Count i)
{
    return m->regular ? m->disp0 + (MPI_Aint)i * m->stride : m->disps[i];
}

static inline MPI_Count shmpi_dt_block_len(const struct shmpi_dt_blocks *m,
                                           MPI_Count i)
{
    return !m->regular && m->blocklens ? m->blocklens[i] : m->blocklen;
}

static inline MPI_Datatype
shmpi_dt_block_child(const struct shmpi_dt_blocks *m, MPI_Count i)
{
    return !m->regular && m->children ? m->children[i] : m->child;
}

/* Every block has the same blocklen and child. */
static inline int shmpi_dt_blocks_uniform(const struct shmpi_dt_blocks *m)
{
    return m->regular || (!m->blocklens && !m->children);
}

/* The constructor's own arguments, as MPI_Type_get_contents returns
   them (table 4.1); types[] hold references.  A _c constructor (MPI-4.0)
   keeps its counts and displacements as large counts (ncounts > 0),
   which only MPI_Type_get_envelope_c and _contents_c can return. */
struct shmpi_dt_contents {
    int nints, naddrs, ncounts, ntypes;
    int *ints;
    MPI_Aint *addrs;
    MPI_Count *counts;
    MPI_Datatype *types;
};

struct shmpi_flat;           /* compile.c */
struct shmpi_attr;           /* core/attr.c */

struct shmpi_datatype {
    uint32_t magic;
    _Atomic int refs;         /* handle + parent types + pending
                                 operations (core/ref.h); predefined
                                 types: unused */
    /* Set by MPI_Type_commit, which two threads may call on one type
       at once: not in the bit-field below, whose other bits are read
       meanwhile (a bit-field is one memory location).  The committing
       thread that publishes `flat` writes contig and committed, then
       stores `published` with release; the other committers wait for
       that store (compile.c).  committed and contig stay plain bytes:
       the send and receive checks read committed on every call, and a
       thread uses a type only after its commit. */
    uint8_t committed;        /* predefined types are born committed */
    uint8_t contig;           /* count x type is the one run of
                                 count * size bytes starting at buf */
    _Atomic uint8_t published; /* committed, as a committer on another
                                 thread may read it */
    unsigned predefined : 1;  /* named: never freed, no contents */
    unsigned leaf : 1;        /* a basic type: `map` is unused */
    unsigned lb_marked : 1;   /* lb comes from explicit markers (4.1.6):
                                 MPI_Type_create_resized sets both, the
                                 MPI-1 markers MPI_LB and MPI_UB one each */
    unsigned ub_marked : 1;   /* ub likewise */
    unsigned handle_sync : 1; /* MPI_HANDLE_SYNC, and nothing else: see
                                 SHMPI_HANDLE_SYNC_RULE below */
    int combiner;             /* MPI_COMBINER_* */
    struct shmpi_dt_blocks map;
    struct shmpi_dt_contents *contents;   /* NULL for named types and the
                                             hidden parts of subarray and
                                             darray types */

    MPI_Count size;           /* bytes of data in one element */
    MPI_Aint lb, ub, extent;  /* extent = ub - lb, epsilon included */
    MPI_Aint true_lb, true_ub;
    MPI_Aint align;           /* largest alignment of its basic types */
    MPI_Count nelems;         /* basic elements in one element */
    MPI_Datatype basic;       /* the one predefined type every element
                                 is made of (itself for a named type,
                                 pair types included), or NULL if mixed:
                                 what predefined reductions check */

    struct shmpi_flat *_Atomic flat; /* compiled form: committed types
                                 only; published once (compile.c) */
    int kernel_row;           /* reduce_kernels.c's row of a predefined
                                 type, + 1; 0: none.  Written at MPI_Init
                                 (shmpi_op_kernel_rows), then only read */
    uint16_t op_masks[2];     /* with the row: the predefined ops shmpi
                                 applies to the type, by bit op code, per
                                 enum shmpi_op_use */
    /* predefined types, for rma/atomic.c, indexed by predefined op code
       (enum shmpi_op_code): the instruction chosen for one element, 0
       until chosen; and the ops MPI_Fetch_and_op found valid with this
       type, so that a loop checks the pair once.  Atomics: threads
       (MPI_THREAD_MULTIPLE) fill them in at once, with the same values,
       relaxed */
    _Atomic uint8_t atomic_how[16];
    _Atomic uint16_t fop_checked;
    struct shmpi_attr *attrs;
    char name[MPI_MAX_OBJECT_NAME];
    int fint;                  /* its Fortran integer, or 0 (fint.h) */
};

/* MPI_HANDLE_SYNC (shmpi's extension, shmpi_sync(7)) is a basic type of
   its own, 4 bytes: a sync counter handle means something only to the
   counter table, so it moves as it is through sends, receives, MPI_Pack
   and the collectives that do not compute, and is refused (MPI_ERR_TYPE)
   by whatever would take it apart, combine it or place it in another
   process's memory: the derived type constructors (derived.h), the
   reductions (shmpi_op_check) and RMA (rma/xfer.h).  The refusals say
   "<argument> is " SHMPI_HANDLE_SYNC_RULE. */
#define SHMPI_HANDLE_SYNC_RULE                                              \
    "MPI_HANDLE_SYNC, which carries sync counter handles only through "    \
    "point-to-point and non-reduction collectives (shmpi_sync(7))"

static inline int shmpi_datatype_ok(MPI_Datatype t)
{
    return t != MPI_DATATYPE_NULL && t->magic == SHMPI_MAGIC_DATATYPE;
}

/* One memcpy moves (buf, count, t): no gaps, no padding. */
static inline int shmpi_datatype_contiguous(MPI_Datatype t)
{
    return t->contig;
}

/* Whether (buf, count, t) can be memory at all.  MPI_BOTTOM is NULL, so
   a NULL buffer is valid exactly when the type's displacements are
   absolute addresses (MPI_Get_address); the first page is never mapped,
   so data that would start in it means they are not, or that buf is
   MPI_IN_PLACE (1) where that is not allowed.  Catching it here gives
   MPI_ERR_BUFFER instead of a crash later.  (Open MPI's rule is alike: a
   NULL buffer is an error for a predefined type or when true_lb is 0.)
   Nothing is touched when there is no data. */
static inline int shmpi_buffer_ok(const void *buf, MPI_Count count,
                                  MPI_Datatype t)
{
    return count == 0 || t->size == 0 ||
           (uintptr_t)buf + (uintptr_t)t->true_lb >= 4096;
}

/* type.c: references.  A type is freed when its last reference goes
   (MPI_Type_free drops the handle's); requests in flight and parent
   types retain their types.  No-ops on predefined types. */
void shmpi_dt_retain(MPI_Datatype t);
void shmpi_dt_release(MPI_Datatype t);

/* compile.c: build t->flat from the tree and mark t committed;
   MPI_SUCCESS or an error class (MPI_ERR_NO_MEM).  Called by
   MPI_Type_commit and wherever a committed type is made (dup, f90, the
   predefined types at MPI_Init); several threads may call it on one
   type at once (compile.c says how). */
int shmpi_dt_compile(MPI_Datatype t);
void shmpi_dt_flat_free(struct shmpi_flat *flat);
/* Compile every predefined type, so that every committed type has its
   compiled form, and give the reducible ones their kernel rows
   (ops.h); MPI_Init calls it once. */
int shmpi_dt_compile_predefined(void);

/* predefined.c: MPI_DATATYPE_NULL, then every predefined type in the
   order of mpi.h's SHMPI_DATATYPES list, then MPI_HANDLE_SYNC, MPI_LB
   and MPI_UB: the types MPI_Init compiles, and their Fortran numbers
   (the index, type_f2c.c). */
#define SHMPI_DT_PLUS_ONE(name) +1
enum { SHMPI_DT_NNUMBERED = 4 SHMPI_DATATYPES(SHMPI_DT_PLUS_ONE) };
#undef SHMPI_DT_PLUS_ONE
extern void *const shmpi_dt_numbered[SHMPI_DT_NNUMBERED];

/* pack.c: copy bytes [offset, offset + len) of the packed form of
   (buf, count, t) out of / into a contiguous buffer.  The count is
   implied: offset + len <= count * t->size. */
void shmpi_dt_pack(const void *buf, MPI_Datatype t, uint64_t offset, void *out,
                   uint64_t len);
void shmpi_dt_unpack(void *buf, MPI_Datatype t, uint64_t offset, const void *in,
                     uint64_t len);
/* Copy len packed bytes from (src, st) to (dst, dt) starting at packed
   offset 0 of both, with no staging buffer (self sends, RMA, colls). */
void shmpi_dt_copy_typed(void *dst, MPI_Datatype dt, const void *src,
                         MPI_Datatype st, uint64_t len);
/* iterate.c: fill iov[0..max) with the memory runs of bytes
   [offset, offset + len) of the packed form of (buf, t); returns the
   number filled and sets *covered to the packed bytes they hold (less
   than len when iov filled up). */
int shmpi_dt_fill_iov(const void *buf, MPI_Datatype t, uint64_t offset,
                      uint64_t len, struct iovec *iov, int max,
                      uint64_t *covered);

/* hash.c: a hash of the packed bytes of (buf, count, t), for the check
   mode (core/check.h): equal before and after means unchanged. */
uint64_t shmpi_dt_hash(const void *buf, MPI_Count count, MPI_Datatype t);
/* Its steps, for other hashes of the room (sig.c): one word into h, and
   the final mix. */
uint64_t shmpi_dt_hash_mix(uint64_t h, uint64_t w);
uint64_t shmpi_dt_hash_final(uint64_t h);

/* names.c: the type's name, or "a derived datatype of N bytes" when it
   has none: how the check mode's reports name a type. */
void shmpi_dt_describe(MPI_Datatype dt, char *out, size_t len);

/* elements.c: basic elements in nbytes of packed data, or MPI_UNDEFINED
   when nbytes ends inside a basic element. */
MPI_Count shmpi_dt_elements(MPI_Datatype t, MPI_Count nbytes);
/* Packed bytes of the first `elements` basic elements (the inverse),
   or -1 when that many bytes do not fit in an MPI_Count. */
MPI_Count shmpi_dt_elements_bytes(MPI_Datatype t, MPI_Count elements);

/* Who applies an op: the reductions (MPI_Reduce_local, the
   collectives), or RMA's accumulates, which take a few more pairs
   (reduce_kernels.c says which and why). */
enum shmpi_op_use { SHMPI_OP_FOR_REDUCTION, SHMPI_OP_FOR_ACCUMULATE };

/* ops.c / reduce_kernels.c: inout[i] = in[i] op inout[i] for count
   elements of t, for a reduction.  Returns MPI_SUCCESS, or MPI_ERR_OP
   when op is not defined for t (the caller raises it); with count 0
   only an op that is no op at all is wrong. */
int shmpi_op_reduce(MPI_Op op, const void *in, void *inout, MPI_Count count,
                    MPI_Datatype t);
/* MPI_SUCCESS if op may be applied to t, else MPI_ERR_OP - or
   MPI_ERR_TYPE when t is MPI_HANDLE_SYNC, which no op applies to: every
   reduction and accumulate checks its op here, so this is where they
   all refuse it.  fn, the program's call, is where the check mode
   (core/check.h) reports a pair shmpi takes beyond 5.9.2; NULL for a
   question the library asks itself (rma/atomic.c), never reported. */
int shmpi_op_check(MPI_Op op, MPI_Datatype t, enum shmpi_op_use use,
                   const char *fn);
/* What shmpi_op_check's refusal rc of op means for count elements:
   with count 0 there is no element for the op to be wrong on, so a
   valid op on any type (not MPI_HANDLE_SYNC) is MPI_SUCCESS.  Called
   on the refusal's path only, the checks' good path stays as it was. */
int shmpi_op_refusal(int rc, MPI_Op op, MPI_Count count);

#endif
