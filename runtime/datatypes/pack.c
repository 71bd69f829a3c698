/*
 * pack.c - moving the bytes of (buf, count, type) to and from their packed
 * form, from any byte offset of that form.
 *
 * Every type is, per element, a short list of segments (datatype.h): a
 * contiguous type is one memcpy; the MINLOC/MAXLOC pairs skip their
 * padding.  Starting at any offset is what lets a large message move in
 * chunks.  The derived-datatype engine replaces the segment list with its
 * compiled form and keeps these entry points.
 */
#include <string.h>

#include "datatypes/datatype.h"

/* Walk [offset, offset + len) of the packed form; to_packed says which
   way the bytes go. */
static void walk(unsigned char *typed, MPI_Datatype t, uint64_t offset,
                 unsigned char *packed, uint64_t len, int to_packed)
{
    uint64_t elem = offset / (uint64_t)t->size;
    uint64_t within = offset % (uint64_t)t->size;
    while (len > 0) {
        unsigned char *base = typed + elem * (uint64_t)t->extent;
        for (int i = 0; i < t->nsegs && len > 0; i++) {
            uint64_t seg = (uint64_t)t->segs[i].length;
            if (within >= seg) {
                within -= seg;
                continue;
            }
            uint64_t n = seg - within < len ? seg - within : len;
            unsigned char *p = base + t->segs[i].offset + within;
            memcpy(to_packed ? packed : p, to_packed ? p : packed, n);
            packed += n;
            len -= n;
            within = 0;
        }
        elem++;
    }
}

void shmpi_pack(const void *buf, MPI_Datatype t, uint64_t offset, void *out,
                uint64_t len)
{
    if (shmpi_datatype_contiguous(t))
        memcpy(out, (const unsigned char *)buf + offset, len);
    else
        walk((unsigned char *)buf, t, offset, out, len, 1);
}

void shmpi_unpack(void *buf, MPI_Datatype t, uint64_t offset, const void *in,
                  uint64_t len)
{
    if (shmpi_datatype_contiguous(t))
        memcpy((unsigned char *)buf + offset, in, len);
    else
        walk(buf, t, offset, (unsigned char *)in, len, 0);
}

static MPI_Count elements_per_type(MPI_Datatype t)
{
    MPI_Count n = 0;
    for (int i = 0; i < t->nsegs; i++)
        n += t->segs[i].length / t->segs[i].elem;
    return n;
}

MPI_Count shmpi_elements_bytes(MPI_Datatype t, MPI_Count elements)
{
    MPI_Count per_type = elements_per_type(t);
    if (per_type == 0)
        return 0;
    MPI_Count bytes = elements / per_type * t->size;
    MPI_Count rest = elements % per_type;
    for (int i = 0; i < t->nsegs && rest > 0; i++) {
        MPI_Count in_seg = t->segs[i].length / t->segs[i].elem;
        MPI_Count take = rest < in_seg ? rest : in_seg;
        bytes += take * t->segs[i].elem;
        rest -= take;
    }
    return bytes;
}

MPI_Count shmpi_elements(MPI_Datatype t, MPI_Count nbytes)
{
    if (t->size == 0)
        return 0;
    MPI_Count n = nbytes / t->size * elements_per_type(t);
    MPI_Count rest = nbytes % t->size;
    for (int i = 0; i < t->nsegs && rest > 0; i++) {
        MPI_Count take = rest < t->segs[i].length ? rest : t->segs[i].length;
        if (take % t->segs[i].elem)
            return MPI_UNDEFINED;
        n += take / t->segs[i].elem;
        rest -= take;
    }
    return n;
}
