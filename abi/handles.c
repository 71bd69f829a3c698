/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * handles.c - the tables of the translation layer (abi.h): predefined
 * handles and arrays of datatypes.  The ABI's values are those of
 * include/abi/mpi.h.
 */
#include <limits.h>
#include <stdlib.h>

#include "abi/abi.h"

_Alignas(64) unsigned char shmpi_abi_invalid[512];
void *shmpi_abi_pre[ABI_PREDEFINED_END];

/* The ABI's predefined datatypes shmpi has, with their integers. */
#define ABI_DATATYPES(X)                                                  \
    X(AINT, 0x201) X(COUNT, 0x202) X(OFFSET, 0x203) X(PACKED, 0x207)      \
    X(SHORT, 0x208) X(INT, 0x209) X(LONG, 0x20a) X(LONG_LONG_INT, 0x20b)  \
    X(UNSIGNED_SHORT, 0x20c) X(UNSIGNED, 0x20d) X(UNSIGNED_LONG, 0x20e)   \
    X(UNSIGNED_LONG_LONG, 0x20f) X(FLOAT, 0x210)                          \
    X(C_FLOAT_COMPLEX, 0x212) X(CXX_FLOAT_COMPLEX, 0x213)                 \
    X(DOUBLE, 0x214) X(C_DOUBLE_COMPLEX, 0x216)                           \
    X(CXX_DOUBLE_COMPLEX, 0x217) X(LOGICAL, 0x218) X(INTEGER, 0x219)      \
    X(REAL, 0x21a) X(COMPLEX, 0x21b) X(DOUBLE_PRECISION, 0x21c)           \
    X(DOUBLE_COMPLEX, 0x21d) X(CHARACTER, 0x21e) X(LONG_DOUBLE, 0x220)    \
    X(C_LONG_DOUBLE_COMPLEX, 0x224) X(CXX_LONG_DOUBLE_COMPLEX, 0x225)     \
    X(FLOAT_INT, 0x228) X(DOUBLE_INT, 0x229) X(LONG_INT, 0x22a)           \
    X(2INT, 0x22b) X(SHORT_INT, 0x22c) X(LONG_DOUBLE_INT, 0x22d)          \
    X(2REAL, 0x230) X(2DOUBLE_PRECISION, 0x231) X(2INTEGER, 0x232)        \
    X(C_BOOL, 0x238) X(CXX_BOOL, 0x239) X(WCHAR, 0x23c)                   \
    X(INT8_T, 0x240) X(UINT8_T, 0x241) X(CHAR, 0x243)                     \
    X(SIGNED_CHAR, 0x244) X(UNSIGNED_CHAR, 0x245) X(BYTE, 0x247)          \
    X(INT16_T, 0x248) X(UINT16_T, 0x249) X(INT32_T, 0x250)                \
    X(UINT32_T, 0x251) X(INT64_T, 0x258) X(UINT64_T, 0x259)               \
    X(INTEGER1, 0x2c1) X(INTEGER2, 0x2c9) X(REAL2, 0x2ca)                 \
    X(INTEGER4, 0x2d1) X(REAL4, 0x2d2) X(COMPLEX4, 0x2d3)                 \
    X(INTEGER8, 0x2d9) X(REAL8, 0x2da) X(COMPLEX8, 0x2db)                 \
    X(INTEGER16, 0x2e1) X(REAL16, 0x2e2) X(COMPLEX16, 0x2e3)              \
    X(COMPLEX32, 0x2eb)

/* Every other predefined handle, shmpi's object and the ABI's integer. */
#define ABI_OTHERS(X)                                                     \
    X(MPI_SUM, 0x021) X(MPI_MIN, 0x022) X(MPI_MAX, 0x023)                 \
    X(MPI_PROD, 0x024) X(MPI_BAND, 0x028) X(MPI_BOR, 0x029)               \
    X(MPI_BXOR, 0x02a) X(MPI_LAND, 0x030) X(MPI_LOR, 0x031)               \
    X(MPI_LXOR, 0x032) X(MPI_MINLOC, 0x038) X(MPI_MAXLOC, 0x039)          \
    X(MPI_REPLACE, 0x03c) X(MPI_NO_OP, 0x03d)                             \
    X(MPI_COMM_WORLD, 0x101) X(MPI_COMM_SELF, 0x102)                      \
    X(MPI_GROUP_EMPTY, 0x109) X(MPI_INFO_ENV, 0x131)                      \
    X(MPI_ERRORS_ARE_FATAL, 0x141) X(MPI_ERRORS_RETURN, 0x142)            \
    X(MPI_ERRORS_ABORT, 0x143) X(MPI_MESSAGE_NO_PROC, 0x129)

/* The null handles, each its kind's first integer. */
static const uintptr_t nulls[] = {
    ABI_OP_FIRST, ABI_COMM_FIRST, ABI_GROUP_FIRST, ABI_WIN_FIRST,
    ABI_SESSION_FIRST, ABI_MESSAGE_FIRST,
    ABI_INFO_FIRST,
    ABI_ERRHANDLER_FIRST, ABI_REQUEST_FIRST, ABI_DATATYPE_FIRST,
};

/* shmpi's predefined objects by address, each with the ABI's integer:
   open addressing, linear probing; more slots than twice the objects. */
enum { OUT_SLOTS = 256 };
static struct out_slot {
    const void *obj;
    uintptr_t abi;
} out_slots[OUT_SLOTS];

static unsigned out_hash(const void *obj)
{
    return (unsigned)(((uintptr_t)obj >> 4) * 0x9e3779b97f4a7c15u >> 56);
}

/* The first integer of an object stays its own (MPI_C_COMPLEX and
   MPI_C_FLOAT_COMPLEX, which shmpi may make one object). */
static void out_insert(const void *obj, uintptr_t abi)
{
    unsigned i = out_hash(obj);
    while (out_slots[i].obj && out_slots[i].obj != obj)
        i = (i + 1) % OUT_SLOTS;
    if (!out_slots[i].obj)
        out_slots[i] = (struct out_slot){ obj, abi };
}

__attribute__((constructor)) static void fill_predefined(void)
{
    for (uintptr_t i = 0; i < ABI_PREDEFINED_END; i++)
        shmpi_abi_pre[i] = shmpi_abi_invalid;
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
        shmpi_abi_pre[nulls[i]] = NULL;
#define ABI_SET_DT(name, v) shmpi_abi_pre[v] = MPI_##name;
    ABI_DATATYPES(ABI_SET_DT)
#define ABI_SET(obj, v) shmpi_abi_pre[v] = obj;
    ABI_OTHERS(ABI_SET)
    for (uintptr_t i = 0; i < ABI_PREDEFINED_END; i++)
        if (shmpi_abi_pre[i] && shmpi_abi_pre[i] != shmpi_abi_invalid)
            out_insert(shmpi_abi_pre[i], i);
}

void *shmpi_abi_out(void *h, uintptr_t first, uintptr_t end)
{
    if (h == NULL)
        return (void *)first;
    for (unsigned i = out_hash(h); out_slots[i].obj; i = (i + 1) % OUT_SLOTS)
        if (out_slots[i].obj == h)
            return out_slots[i].abi >= first && out_slots[i].abi < end
                 ? (void *)out_slots[i].abi : h;
    return h;
}

MPI_Datatype *shmpi_abi_types_in(const abi_Datatype *t, MPI_Count n,
                                 MPI_Datatype *stack)
{
    MPI_Datatype *d = stack;
    if (n > ABI_TYPES_STACK &&
        ((uint64_t)n > SIZE_MAX / sizeof *d ||
         !(d = malloc((size_t)n * sizeof *d)))) {
        PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
        return NULL;
    }
    for (MPI_Count i = 0; i < n; i++)
        d[i] = dt_in(t[i]);
    return d;
}

void shmpi_abi_types_done(MPI_Datatype *t, const MPI_Datatype *stack)
{
    if (t != stack)
        free(t);
}
