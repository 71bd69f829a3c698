/*
 * datatype.h - the datatype object.
 *
 * Today only the predefined types exist (predefined.c); the derived
 * datatype engine - constructors, commit-time flattening into (offset,
 * length) segments, pack/unpack - extends this structure.
 */
#ifndef SHMPI_DATATYPE_H
#define SHMPI_DATATYPE_H

#include <stdint.h>

#include "core/objects.h"

/* A run of bytes of one element of the type, made of basic elements of
   `elem` bytes each (for MPI_Get_elements). */
struct shmpi_segment {
    MPI_Aint offset;
    MPI_Aint length;
    MPI_Aint elem;
};

struct shmpi_datatype {
    uint32_t magic;
    int predefined;
    MPI_Count size;            /* bytes of data in one element */
    MPI_Aint extent;           /* span of one element in memory */
    int nsegs;                 /* 1, or 2 for the MINLOC/MAXLOC pairs */
    struct shmpi_segment segs[2];
    char name[MPI_MAX_OBJECT_NAME];
};

static inline int shmpi_datatype_ok(MPI_Datatype t)
{
    return t != MPI_DATATYPE_NULL && t->magic == SHMPI_MAGIC_DATATYPE;
}

/* One memcpy moves (buf, count, t): no gaps, no padding. */
static inline int shmpi_datatype_contiguous(MPI_Datatype t)
{
    return t->nsegs == 1 && t->segs[0].offset == 0 &&
           t->segs[0].length == t->extent;
}

/* pack.c: copy bytes [offset, offset + len) of the packed form of
   (buf, count, type) out of / into a contiguous buffer. */
void shmpi_pack(const void *buf, MPI_Datatype t, uint64_t offset, void *out,
                uint64_t len);
void shmpi_unpack(void *buf, MPI_Datatype t, uint64_t offset, const void *in,
                  uint64_t len);
/* Basic elements in nbytes of packed data, or MPI_UNDEFINED. */
MPI_Count shmpi_elements(MPI_Datatype t, MPI_Count nbytes);
/* Packed bytes of the first `elements` basic elements (the inverse). */
MPI_Count shmpi_elements_bytes(MPI_Datatype t, MPI_Count elements);

#endif
