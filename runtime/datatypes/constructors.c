/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * constructors.c - the derived datatype constructors of MPI-3.1 4.1.2,
 * 4.1.7 and 4.1.10: contiguous, vector, hvector, indexed, hindexed,
 * indexed_block, hindexed_block, struct, resized and dup.
 *
 * Each one checks its arguments and turns them into the block list of
 * datatype.h, which build.c normalizes and measures: contiguous, vector
 * and hvector are one regular list of a few words, whatever their
 * counts; the indexed family and struct give one entry per block; resized
 * and dup are one block of their old type.  The arguments themselves are
 * kept as given, for MPI_Type_get_contents.  The MPI-1 hvector,
 * hindexed and struct (mpi1.c) are the same constructors under their old
 * names (shmpi_dt_hvector ...: derived.h).
 *
 * The large-count forms of MPI-4.0 (MPI_Type_contiguous_c ...) are the
 * same constructors: only the types of their arguments differ, and they
 * keep those arguments as large counts (struct shmpi_dt_contents), as
 * MPI-4.0's table of MPI_Type_get_contents says: every count,
 * blocklength, stride and displacement, byte ones included.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/check.h"
#include "core/error.h"
#include "core/live.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "datatypes/derived.h"

SHMPI_WEAK_ALIAS(Type_contiguous)
SHMPI_WEAK_ALIAS(Type_contiguous_c)
SHMPI_WEAK_ALIAS(Type_vector)
SHMPI_WEAK_ALIAS(Type_vector_c)
SHMPI_WEAK_ALIAS(Type_create_hvector)
SHMPI_WEAK_ALIAS(Type_create_hvector_c)
SHMPI_WEAK_ALIAS(Type_indexed)
SHMPI_WEAK_ALIAS(Type_indexed_c)
SHMPI_WEAK_ALIAS(Type_create_hindexed)
SHMPI_WEAK_ALIAS(Type_create_hindexed_c)
SHMPI_WEAK_ALIAS(Type_create_indexed_block)
SHMPI_WEAK_ALIAS(Type_create_indexed_block_c)
SHMPI_WEAK_ALIAS(Type_create_hindexed_block)
SHMPI_WEAK_ALIAS(Type_create_hindexed_block_c)
SHMPI_WEAK_ALIAS(Type_create_struct)
SHMPI_WEAK_ALIAS(Type_create_struct_c)
SHMPI_WEAK_ALIAS(Type_create_resized)
SHMPI_WEAK_ALIAS(Type_create_resized_c)
SHMPI_WEAK_ALIAS(Type_dup)

/* ---------------------------------------------------- argument checks */

static int check_count(const char *fn, MPI_Count count)
{
    if (count < 0)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_COUNT, fn,
                           "count is %lld", (long long)count);
    return MPI_SUCCESS;
}

static int check_blocklength(const char *fn, const char *what, MPI_Count len)
{
    if (len < 0)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn, "%s is %lld",
                           what, (long long)len);
    return MPI_SUCCESS;
}

static int check_newtype(const char *fn, const MPI_Datatype *newtype)
{
    if (!newtype)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "newtype is NULL");
    return MPI_SUCCESS;
}

/* oldtype and newtype, the arguments every constructor but struct has */
static int check_types(const char *fn, MPI_Datatype oldtype,
                       const MPI_Datatype *newtype)
{
    int rc = shmpi_dt_check_oldtype(oldtype, fn, "oldtype");
    return rc != MPI_SUCCESS ? rc : check_newtype(fn, newtype);
}

/* ------------------------------------------- contiguous, vector, hvector */

/* Argument i of a constructor that has only counts: an int, or a
   large count when the _c form made t. */
static void keep_count(MPI_Datatype t, int i, MPI_Count v)
{
    if (t->contents->ncounts)
        t->contents->counts[i] = v;
    else
        t->contents->ints[i] = (int)v;
}

static int contiguous(const char *fn, MPI_Count count, MPI_Datatype oldtype,
                      MPI_Datatype *newtype, int large)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    if ((rc = check_count(fn, count)) != MPI_SUCCESS ||
        (rc = check_types(fn, oldtype, newtype)) != MPI_SUCCESS)
        return rc;
    MPI_Datatype t;
    rc = shmpi_dt_make(fn, MPI_COMBINER_CONTIGUOUS,
                       shmpi_dt_regular(1, count, 0, 0, oldtype), !large, 0,
                       large, 1, &oldtype, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    keep_count(t, 0, count);
    *newtype = t;
    return MPI_SUCCESS;
}

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype,
                         MPI_Datatype *newtype)
{
    return contiguous("MPI_Type_contiguous", count, oldtype, newtype, 0);
}

int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype,
                           MPI_Datatype *newtype)
{
    return contiguous("MPI_Type_contiguous_c", count, oldtype, newtype, 1);
}

/* vector (stride in extents of oldtype) and hvector (in bytes). */
static int make_vector(const char *fn, int combiner, MPI_Count count,
                       MPI_Count blocklength, MPI_Aint stride,
                       MPI_Datatype oldtype, MPI_Datatype *newtype, int large)
{
    int vector = combiner == MPI_COMBINER_VECTOR;
    int rc;
    if ((rc = check_count(fn, count)) != MPI_SUCCESS ||
        (rc = check_blocklength(fn, "blocklength", blocklength)) !=
            MPI_SUCCESS ||
        (rc = check_types(fn, oldtype, newtype)) != MPI_SUCCESS)
        return rc;
    MPI_Aint bytes = stride;
    if (vector && __builtin_mul_overflow(stride, oldtype->extent, &bytes))
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "stride %lld times the extent of oldtype "
                           "overflows MPI_Aint", (long long)stride);
    MPI_Datatype t;
    rc = shmpi_dt_make(fn, combiner,
                       shmpi_dt_regular(count, blocklength, 0, bytes,
                                        oldtype),
                       large ? 0 : vector ? 3 : 2, !large && !vector,
                       large ? 3 : 0, 1, &oldtype, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    keep_count(t, 0, count);
    keep_count(t, 1, blocklength);
    if (vector || large)
        keep_count(t, 2, stride);
    else
        t->contents->addrs[0] = stride;
    *newtype = t;
    return MPI_SUCCESS;
}

int PMPI_Type_vector(int count, int blocklength, int stride,
                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_vector";
    SHMPI_REQUIRE_INIT(fn);
    return make_vector(fn, MPI_COMBINER_VECTOR, count, blocklength, stride,
                       oldtype, newtype, 0);
}

int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength,
                       MPI_Count stride, MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_vector_c";
    SHMPI_REQUIRE_INIT(fn);
    return make_vector(fn, MPI_COMBINER_VECTOR, count, blocklength, stride,
                       oldtype, newtype, 1);
}

int shmpi_dt_hvector(const char *fn, int count, int blocklength,
                     MPI_Aint stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
    return make_vector(fn, MPI_COMBINER_HVECTOR, count, blocklength, stride,
                       oldtype, newtype, 0);
}

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
                             MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_hvector";
    SHMPI_REQUIRE_INIT(fn);
    return shmpi_dt_hvector(fn, count, blocklength, stride, oldtype,
                            newtype);
}

int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength,
                               MPI_Count stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_hvector_c";
    SHMPI_REQUIRE_INIT(fn);
    return make_vector(fn, MPI_COMBINER_HVECTOR, count, blocklength, stride,
                       oldtype, newtype, 1);
}

/* --------------------------------------------- indexed family, struct */

/* The arrays a constructor with one entry per block takes. */
enum block_arrays {
    LENS = 1,                    /* array_of_blocklengths */
    DISPS = 2,                   /* array_of_displacements, in extents */
    HDISPS = 4,                  /* array_of_displacements, in bytes */
    TYPES = 8,                   /* array_of_types (struct) */
};

/* Their arguments; an array not in `arrays` is unused.  The _c forms'
   (large) give theirs as MPI_Count arrays, byte displacements too. */
struct block_args {
    int combiner;
    unsigned arrays;             /* enum block_arrays */
    int large;                   /* lens, disps: clens, cdisps */
    MPI_Count count;
    const int *blocklens;
    const MPI_Count *clens;
    MPI_Count blocklen;          /* without LENS: every block's length */
    const int *disps;
    const MPI_Aint *hdisps;
    const MPI_Count *cdisps;
    const MPI_Datatype *types;
    MPI_Datatype oldtype;        /* without TYPES: every block's type */
};

/* Table 4.1: count, then the block lengths (or the one blocklength),
   then the displacements in extents, all ints; byte displacements are
   the addresses.  A _c form's are all large counts, displacements of
   either kind included. */
static int contents_ints(const struct block_args *a)
{
    return (int)(1 + (a->arrays & LENS ? a->count : 1) +
                 (a->arrays & (a->large ? DISPS | HDISPS : DISPS)
                      ? a->count
                      : 0));
}

static MPI_Count len_at(const struct block_args *a, MPI_Count i)
{
    return a->large ? a->clens[i] : a->blocklens[i];
}

/* Displacement i as given: in extents (DISPS) or bytes (HDISPS). */
static MPI_Aint disp_at(const struct block_args *a, MPI_Count i)
{
    if (a->large)
        return a->cdisps[i];
    return a->arrays & DISPS ? a->disps[i] : a->hdisps[i];
}

static const void *lens_array(const struct block_args *a)
{
    return a->large ? (const void *)a->clens : (const void *)a->blocklens;
}

static const void *disps_array(const struct block_args *a)
{
    if (a->large)
        return a->cdisps;
    return a->arrays & DISPS ? (const void *)a->disps
                             : (const void *)a->hdisps;
}

static int check_array(const char *fn, MPI_Count count, const void *array,
                       const char *what)
{
    if (count > 0 && !array)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn, "%s is NULL",
                           what);
    return MPI_SUCCESS;
}

static int check_arrays(const char *fn, const struct block_args *a)
{
    int rc = MPI_SUCCESS;
    if (a->arrays & LENS)
        rc = check_array(fn, a->count, lens_array(a),
                         "array_of_blocklengths");
    if (rc == MPI_SUCCESS)
        rc = check_array(fn, a->count, disps_array(a),
                         "array_of_displacements");
    if (rc == MPI_SUCCESS && a->arrays & TYPES)
        rc = check_array(fn, a->count, a->types, "array_of_types");
    return rc;
}

/* MPI_Type_get_envelope counts in ints: the constructor's int arguments
   must fit in one.  A _c form's large counts are kept as many (their
   arrays alone would be over 16 GiB beyond that). */
static int check_blocks_fit(const char *fn, const struct block_args *a)
{
    int per_block = !!(a->arrays & LENS) +
                    !!(a->arrays & (a->large ? DISPS | HDISPS : DISPS));
    int fixed = a->arrays & LENS ? 1 : 2;
    if (per_block > 0 && a->count > (INT_MAX - fixed) / per_block)
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_COUNT, fn,
                           "count %lld: too many blocks to describe in "
                           "MPI_Type_get_contents", (long long)a->count);
    return MPI_SUCCESS;
}

static int check_block_entries(const char *fn, const struct block_args *a)
{
    for (MPI_Count i = 0; i < a->count; i++) {
        int rc;
        char what[48];
        if (a->arrays & LENS && len_at(a, i) < 0) {
            snprintf(what, sizeof what, "array_of_blocklengths[%lld]",
                     (long long)i);
            return check_blocklength(fn, what, len_at(a, i));
        }
        if (a->arrays & TYPES) {
            snprintf(what, sizeof what, "array_of_types[%lld]",
                     (long long)i);
            if ((rc = shmpi_dt_check_oldtype(a->types[i], fn, what)) !=
                MPI_SUCCESS)
                return rc;
        }
        MPI_Aint bytes;
        if (a->arrays & DISPS &&
            __builtin_mul_overflow(disp_at(a, i), a->oldtype->extent,
                                   &bytes))
            return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                               "array_of_displacements[%lld] (%lld) times "
                               "the extent of oldtype overflows MPI_Aint",
                               (long long)i, (long long)disp_at(a, i));
    }
    return MPI_SUCCESS;
}

/* Every argument, in the order: arrays present, count, blocklength,
   oldtype, the entries, newtype. */
static int check_blocks(const char *fn, const struct block_args *a,
                        const MPI_Datatype *newtype)
{
    int rc;
    if ((rc = check_arrays(fn, a)) != MPI_SUCCESS ||
        (rc = check_blocks_fit(fn, a)) != MPI_SUCCESS ||
        (rc = check_count(fn, a->count)) != MPI_SUCCESS ||
        (rc = check_blocklength(fn, "blocklength", a->blocklen)) !=
            MPI_SUCCESS)
        return rc;
    if (!(a->arrays & TYPES) &&
        (rc = shmpi_dt_check_oldtype(a->oldtype, fn, "oldtype")) !=
            MPI_SUCCESS)
        return rc;
    if ((rc = check_block_entries(fn, a)) != MPI_SUCCESS)
        return rc;
    return check_newtype(fn, newtype);
}

static void *alloc_array(MPI_Count n, size_t size, int *failed)
{
    void *p = n > 0 ? malloc((size_t)n * size) : NULL;
    *failed |= n > 0 && !p;
    return p;
}

static struct shmpi_dt_blocks block_map(const struct block_args *a,
                                        int *failed)
{
    struct shmpi_dt_blocks m = {.n = a->count, .blocklen = a->blocklen,
                                .child = a->oldtype};
    m.disps = alloc_array(a->count, sizeof *m.disps, failed);
    if (a->arrays & LENS)
        m.blocklens = alloc_array(a->count, sizeof *m.blocklens, failed);
    if (a->arrays & TYPES)
        m.children = alloc_array(a->count, sizeof *m.children, failed);
    if (*failed)
        return m;
    for (MPI_Count i = 0; i < a->count; i++) {
        m.disps[i] = a->arrays & DISPS ? disp_at(a, i) * a->oldtype->extent
                                       : disp_at(a, i);
        if (m.blocklens)
            m.blocklens[i] = len_at(a, i);
        if (m.children)
            m.children[i] = a->types[i];
    }
    return m;
}

static void copy_ints(int *to, const int *from, int n)
{
    if (n > 0)
        memcpy(to, from, (size_t)n * sizeof *to);
}

/* A _c form's arguments as given, laid out as contents_ints() says. */
static void block_counts(struct shmpi_dt_contents *c,
                         const struct block_args *a)
{
    MPI_Count *out = c->counts;
    size_t n = (size_t)a->count * sizeof *out;
    *out++ = a->count;
    if (a->arrays & LENS) {
        if (n)
            memcpy(out, a->clens, n);
        out += a->count;
    } else {
        *out++ = a->blocklen;
    }
    if (n)
        memcpy(out, a->cdisps, n);
}

/* The arguments as given, laid out as contents_ints() says. */
static void block_contents(struct shmpi_dt_contents *c,
                           const struct block_args *a)
{
    if (a->large) {
        block_counts(c, a);
        return;
    }
    int *ints = c->ints;
    *ints++ = (int)a->count;
    if (a->arrays & LENS) {
        copy_ints(ints, a->blocklens, (int)a->count);
        ints += a->count;
    } else {
        *ints++ = (int)a->blocklen;
    }
    if (a->arrays & DISPS)
        copy_ints(ints, a->disps, (int)a->count);
    if (a->arrays & HDISPS && a->count > 0)
        memcpy(c->addrs, a->hdisps, (size_t)a->count * sizeof *c->addrs);
}

/* The whole constructor once the arguments are gathered. */
static int make_blocks(const char *fn, const struct block_args *a,
                       MPI_Datatype *newtype)
{
    int rc = check_blocks(fn, a, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    int failed = 0;
    struct shmpi_dt_blocks m = block_map(a, &failed);
    if (failed) {
        free(m.disps);
        free(m.blocklens);
        free(m.children);
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_NO_MEM, fn,
                           "out of memory for %lld blocks",
                           (long long)a->count);
    }
    int is_struct = a->arrays & TYPES;
    int nargs = contents_ints(a);
    MPI_Datatype t;
    rc = shmpi_dt_make(fn, a->combiner, m, a->large ? 0 : nargs,
                       !a->large && a->arrays & HDISPS ? (int)a->count : 0,
                       a->large ? nargs : 0, is_struct ? (int)a->count : 1,
                       is_struct ? a->types : &a->oldtype, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    block_contents(t->contents, a);
    *newtype = t;
    return MPI_SUCCESS;
}

int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_indexed";
    SHMPI_REQUIRE_INIT(fn);
    struct block_args a = {.combiner = MPI_COMBINER_INDEXED,
                           .arrays = LENS | DISPS, .count = count,
                           .blocklens = array_of_blocklengths,
                           .disps = array_of_displacements,
                           .oldtype = oldtype};
    return make_blocks(fn, &a, newtype);
}

int PMPI_Type_indexed_c(MPI_Count count,
                        const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[],
                        MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_indexed_c";
    SHMPI_REQUIRE_INIT(fn);
    struct block_args a = {.combiner = MPI_COMBINER_INDEXED,
                           .arrays = LENS | DISPS, .large = 1, .count = count,
                           .clens = array_of_blocklengths,
                           .cdisps = array_of_displacements,
                           .oldtype = oldtype};
    return make_blocks(fn, &a, newtype);
}

int shmpi_dt_hindexed(const char *fn, int count, const int blocklengths[],
                      const MPI_Aint displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    struct block_args a = {.combiner = MPI_COMBINER_HINDEXED,
                           .arrays = LENS | HDISPS, .count = count,
                           .blocklens = blocklengths,
                           .hdisps = displacements, .oldtype = oldtype};
    return make_blocks(fn, &a, newtype);
}

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[],
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_hindexed";
    SHMPI_REQUIRE_INIT(fn);
    return shmpi_dt_hindexed(fn, count, array_of_blocklengths,
                             array_of_displacements, oldtype, newtype);
}

int PMPI_Type_create_hindexed_c(MPI_Count count,
                                const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[],
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_hindexed_c";
    SHMPI_REQUIRE_INIT(fn);
    struct block_args a = {.combiner = MPI_COMBINER_HINDEXED,
                           .arrays = LENS | HDISPS, .large = 1,
                           .count = count, .clens = array_of_blocklengths,
                           .cdisps = array_of_displacements,
                           .oldtype = oldtype};
    return make_blocks(fn, &a, newtype);
}

int PMPI_Type_create_indexed_block(int count, int blocklength,
                                   const int array_of_displacements[],
                                   MPI_Datatype oldtype,
                                   MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_indexed_block";
    SHMPI_REQUIRE_INIT(fn);
    struct block_args a = {.combiner = MPI_COMBINER_INDEXED_BLOCK,
                           .arrays = DISPS, .count = count,
                           .blocklen = blocklength,
                           .disps = array_of_displacements,
                           .oldtype = oldtype};
    return make_blocks(fn, &a, newtype);
}

int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype,
                                     MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_indexed_block_c";
    SHMPI_REQUIRE_INIT(fn);
    struct block_args a = {.combiner = MPI_COMBINER_INDEXED_BLOCK,
                           .arrays = DISPS, .large = 1, .count = count,
                           .blocklen = blocklength,
                           .cdisps = array_of_displacements,
                           .oldtype = oldtype};
    return make_blocks(fn, &a, newtype);
}

int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[],
                                      MPI_Datatype oldtype,
                                      MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_hindexed_block_c";
    SHMPI_REQUIRE_INIT(fn);
    struct block_args a = {.combiner = MPI_COMBINER_HINDEXED_BLOCK,
                           .arrays = HDISPS, .large = 1, .count = count,
                           .blocklen = blocklength,
                           .cdisps = array_of_displacements,
                           .oldtype = oldtype};
    return make_blocks(fn, &a, newtype);
}

int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype,
                                    MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_hindexed_block";
    SHMPI_REQUIRE_INIT(fn);
    struct block_args a = {.combiner = MPI_COMBINER_HINDEXED_BLOCK,
                           .arrays = HDISPS, .count = count,
                           .blocklen = blocklength,
                           .hdisps = array_of_displacements,
                           .oldtype = oldtype};
    return make_blocks(fn, &a, newtype);
}

int shmpi_dt_struct(const char *fn, int count, const int blocklengths[],
                    const MPI_Aint displacements[],
                    const MPI_Datatype types[], MPI_Datatype *newtype)
{
    struct block_args a = {.combiner = MPI_COMBINER_STRUCT,
                           .arrays = LENS | HDISPS | TYPES, .count = count,
                           .blocklens = blocklengths,
                           .hdisps = displacements, .types = types};
    return make_blocks(fn, &a, newtype);
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[],
                            MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_struct";
    SHMPI_REQUIRE_INIT(fn);
    return shmpi_dt_struct(fn, count, array_of_blocklengths,
                           array_of_displacements, array_of_types, newtype);
}

int PMPI_Type_create_struct_c(MPI_Count count,
                              const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[],
                              const MPI_Datatype array_of_types[],
                              MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_struct_c";
    SHMPI_REQUIRE_INIT(fn);
    struct block_args a = {.combiner = MPI_COMBINER_STRUCT,
                           .arrays = LENS | HDISPS | TYPES, .large = 1,
                           .count = count, .clens = array_of_blocklengths,
                           .cdisps = array_of_displacements,
                           .types = array_of_types};
    return make_blocks(fn, &a, newtype);
}

/* ------------------------------------------------------- resized, dup */

static int resized(const char *fn, MPI_Datatype oldtype, MPI_Aint lb,
                   MPI_Aint extent, MPI_Datatype *newtype, int large)
{
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_types(fn, oldtype, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Aint ub;
    if (__builtin_add_overflow(lb, extent, &ub))
        return shmpi_raise(MPI_COMM_NULL, MPI_ERR_ARG, fn,
                           "lb + extent overflows MPI_Aint");
    MPI_Datatype t;
    rc = shmpi_dt_make(fn, MPI_COMBINER_RESIZED,
                       shmpi_dt_regular(1, 1, 0, 0, oldtype), 0,
                       large ? 0 : 2, large ? 2 : 0, 1, &oldtype, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_dt_set_bounds(t, lb, extent);     /* cannot overflow: checked */
    if (large) {
        t->contents->counts[0] = lb;
        t->contents->counts[1] = extent;
    } else {
        t->contents->addrs[0] = lb;
        t->contents->addrs[1] = extent;
    }
    *newtype = t;
    return MPI_SUCCESS;
}

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb,
                             MPI_Aint extent, MPI_Datatype *newtype)
{
    return resized("MPI_Type_create_resized", oldtype, lb, extent, newtype,
                   0);
}

int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb,
                               MPI_Count extent, MPI_Datatype *newtype)
{
    return resized("MPI_Type_create_resized_c", oldtype, lb, extent, newtype,
                   1);
}

/* 4.1.10: the copy has the attributes the copy callbacks keep, and the
   committed state of the original. */
static int dup_state(const char *fn, MPI_Datatype oldtype, MPI_Datatype t)
{
    int rc = shmpi_attr_copy_all(&oldtype->attrs, oldtype, &t->attrs);
    if (rc == MPI_ERR_NO_MEM)
        return shmpi_raise(MPI_COMM_NULL, rc, fn,
                           "out of memory copying the attributes");
    if (rc != MPI_SUCCESS)
        return shmpi_raise(MPI_COMM_NULL, rc, fn,
                           "an attribute copy callback returned %d", rc);
    /* predefined types are born committed (published: at MPI_Init);
       acquire: another thread may be committing oldtype (compile.c) */
    if (oldtype->predefined ||
        atomic_load_explicit(&oldtype->published, memory_order_acquire)) {
        if ((rc = shmpi_dt_compile(t)) != MPI_SUCCESS)
            return shmpi_raise(MPI_COMM_NULL, rc, fn,
                               "cannot compile the new datatype");
    }
    return MPI_SUCCESS;
}

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_dup";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_types(fn, oldtype, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Datatype t;
    rc = shmpi_dt_make(fn, MPI_COMBINER_DUP,
                       shmpi_dt_regular(1, 1, 0, 0, oldtype), 0, 0, 0, 1,
                       &oldtype, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = dup_state(fn, oldtype, t)) != MPI_SUCCESS) {
        if (__builtin_expect(shmpi_core_checking(), 0)) /* never handed */
            shmpi_core_live_freed(SHMPI_LIVE_TYPE, t);
        shmpi_dt_release(t);  /* deletes the attributes copied */
        return rc;
    }
    *newtype = t;
    return MPI_SUCCESS;
}
