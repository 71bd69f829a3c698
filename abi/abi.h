/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * abi.h - the translation layer between the MPI standard ABI (MPI-5.0
 * chapter 20; include/abi/mpi.h) and shmpi's own mpi.h, which is the one
 * this layer is compiled against.  lib/libmpi_abi.so is the layer linked
 * with the whole library (Makefile).
 *
 * Each ABI function is written here as shmpi_abi_PMPI_<name>, with the
 * weak alias shmpi_abi_MPI_<name>; the link renames them PMPI_<name> and
 * MPI_<name> and hides shmpi's own (abi/README.md).
 *
 * Handles.  A handle the program got from the library is shmpi's own
 * pointer, passed through as it is.  The predefined handles of the ABI
 * are integers below 0x1000, which no object's address is: one compare
 * tells them apart, and a table indexed by the integer gives shmpi's
 * object (shmpi_abi_pre).  Each kind owns a range of those integers, its
 * null handle first (MPI_COMM_NULL 0x100, MPI_DATATYPE_NULL 0x200...); an
 * integer outside the kind's range, or one of it shmpi has no object for
 * (MPI_LOGICAL1...), becomes a zeroed object whose magic matches no kind,
 * which shmpi's checks reject with the class of the kind.  Communicators,
 * datatypes, ops and windows skip the range (ABI_IN_ANY): each shmpi
 * object starts with the magic of its kind (core/objects.h), so another
 * kind's object is rejected all the same.  Back, a hash of shmpi's predefined objects
 * gives their integers (shmpi_abi_out).
 *
 * Integers.  shmpi's own mpi.h gives ranks (MPI_PROC_NULL, MPI_ROOT),
 * tags (MPI_ANY_TAG), error classes, MPI_ERR_LASTCODE, the RMA
 * assertions and MPI_REQUEST_NULL the ABI's values, so they pass through both ways, and a status, of the ABI's
 * layout, is the program's own.  A function whose only work is decoding
 * handles in its registers is then a jump into shmpi's (abi/README.md,
 * "Cost").  The other constants that still differ are translated by
 * the functions that take them.
 */
#ifndef SHMPI_ABI_H
#define SHMPI_ABI_H

#include <limits.h>
#include <stdint.h>

#include "mpi.h"

/* The ABI's handle types, as distinct pointer types to incomplete
   structs: the same representation as the ABI header's. */
typedef struct abi_comm       *abi_Comm;
typedef struct abi_datatype   *abi_Datatype;
typedef struct abi_op         *abi_Op;
typedef struct abi_group      *abi_Group;
typedef struct abi_request    *abi_Request;
typedef struct abi_errhandler *abi_Errhandler;
typedef struct abi_info       *abi_Info;
typedef struct abi_message    *abi_Message;
typedef struct abi_win        *abi_Win;
typedef struct abi_session    *abi_Session;

typedef struct abi_status {
    int MPI_SOURCE, MPI_TAG, MPI_ERROR;
    int internal[5];       /* shmpi's cancelled flag, byte count, padding */
} abi_Status;

typedef void abi_User_function(void *, void *, int *, abi_Datatype *);

/* The ranges of the predefined handles, [first, end): first is the
   kind's null handle. */
#define ABI_OP_FIRST         0x020
#define ABI_OP_END           0x040
#define ABI_COMM_FIRST       0x100
#define ABI_COMM_END         0x108
#define ABI_GROUP_FIRST      0x108
#define ABI_GROUP_END        0x110
#define ABI_WIN_FIRST        0x110
#define ABI_WIN_END          0x118
#define ABI_SESSION_FIRST    0x120
#define ABI_SESSION_END      0x128
#define ABI_MESSAGE_FIRST    0x128
#define ABI_MESSAGE_END      0x130
#define ABI_INFO_FIRST       0x130
#define ABI_INFO_END         0x140
#define ABI_ERRHANDLER_FIRST 0x140
#define ABI_ERRHANDLER_END   0x180
#define ABI_REQUEST_FIRST    0x180
#define ABI_REQUEST_END      0x200
#define ABI_DATATYPE_FIRST   0x200
#define ABI_DATATYPE_END     0x400
#define ABI_PREDEFINED_END   0x1000   /* every predefined handle is below */

/* The ABI's values (include/abi/mpi.h) that shmpi's own mpi.h shares,
   which the layer passes through unchanged. */
_Static_assert(MPI_ANY_SOURCE == -1 && MPI_ANY_TAG == -2 &&
               MPI_PROC_NULL == -3 && MPI_ROOT == -4 &&
               MPI_UNDEFINED == -32766, "ranks and tags");
_Static_assert(MPI_ERR_OTHER == 16 && MPI_ERR_PENDING == 18 &&
               MPI_ERR_IN_STATUS == 19 && MPI_ERR_ACCESS == 20 &&
               MPI_ERR_ERRHANDLER == 61 && MPI_T_ERR_CANNOT_INIT == 1001 &&
               MPI_T_ERR_PVAR_NO_ATOMIC == 1018 &&
               MPI_ERR_LASTCODE == 0x3fff && MPI_MAX_ERROR_STRING == 512,
               "error classes and codes");
_Static_assert(MPI_THREAD_SINGLE == 0 && MPI_THREAD_FUNNELED == 1024 &&
               MPI_THREAD_SERIALIZED == 2048 && MPI_THREAD_MULTIPLE == 4096,
               "thread levels");
_Static_assert(MPI_IDENT == 201 && MPI_CONGRUENT == 202 &&
               MPI_SIMILAR == 203 && MPI_UNEQUAL == 204, "comparisons");
_Static_assert(MPI_MODE_NOCHECK == 1024 && MPI_MODE_NOPRECEDE == 2048 &&
               MPI_MODE_NOPUT == 4096 && MPI_MODE_NOSTORE == 8192 &&
               MPI_MODE_NOSUCCEED == 16384, "RMA assertions");

/* Index: an ABI integer below ABI_PREDEFINED_END; value: shmpi's
   object, NULL for a null handle, shmpi_abi_invalid for none.  Written
   once, by a constructor, before main. */
extern void *shmpi_abi_pre[ABI_PREDEFINED_END];
extern unsigned char shmpi_abi_invalid[];

/* An ABI handle of a kind to shmpi's: passed through, or looked up
   within the kind's range. */
#define ABI_IN(type, h, KIND)                                              \
    ((uintptr_t)(h) >= ABI_PREDEFINED_END ? (type)(void *)(h)              \
     : (type)shmpi_abi_pre[(uintptr_t)(h) - ABI_##KIND##_FIRST <           \
                           ABI_##KIND##_END - ABI_##KIND##_FIRST           \
                           ? (uintptr_t)(h) : 0])

/* The same with one compare, for the kinds of the hot paths, whose
   every object shmpi checks by its magic: a predefined handle of another
   kind is that kind's object, which shmpi rejects with the class of the
   kind it expected (another kind's null handle is NULL, rejected as the
   kind's null).  4 instructions a handle instead of 8 (callgrind,
   2026-11-30, abi/README.md's loop). */
#define ABI_IN_ANY(type, h)                                                \
    ((uintptr_t)(h) < ABI_PREDEFINED_END                                   \
     ? (type)shmpi_abi_pre[(uintptr_t)(h)] : (type)(void *)(h))

static inline MPI_Comm comm_in(abi_Comm h) { return ABI_IN_ANY(MPI_Comm, h); }
static inline MPI_Datatype dt_in(abi_Datatype h) { return ABI_IN_ANY(MPI_Datatype, h); }
static inline MPI_Op op_in(abi_Op h) { return ABI_IN_ANY(MPI_Op, h); }
static inline MPI_Group group_in(abi_Group h) { return ABI_IN(MPI_Group, h, GROUP); }
static inline MPI_Info info_in(abi_Info h) { return ABI_IN(MPI_Info, h, INFO); }
static inline MPI_Errhandler eh_in(abi_Errhandler h) { return ABI_IN(MPI_Errhandler, h, ERRHANDLER); }
/* A request: MPI_REQUEST_NULL is 0x180 in both headers, and shmpi rejects
   any other value below 0x1000 itself (pt2pt/request.h). */
static inline MPI_Request req_in(abi_Request h) { return (MPI_Request)(void *)h; }
static inline MPI_Message msg_in(abi_Message h) { return ABI_IN(MPI_Message, h, MESSAGE); }
static inline MPI_Win win_in(abi_Win h) { return ABI_IN_ANY(MPI_Win, h); }
static inline MPI_Session session_in(abi_Session h) { return ABI_IN(MPI_Session, h, SESSION); }

/* shmpi's handle to the ABI's: NULL to the kind's null handle, a
   predefined object to its integer (a hash of shmpi's predefined
   objects), any other passed through. */
void *shmpi_abi_out(void *h, uintptr_t first, uintptr_t end);
#define ABI_OUT(type, h, KIND) \
    ((type)shmpi_abi_out((void *)(h), ABI_##KIND##_FIRST, ABI_##KIND##_END))

/* Statuses: shmpi's has the ABI's layout (mpi.h) and its values, so a
   call hands the program's status, or array of them, to shmpi as it
   is. */
_Static_assert(sizeof(MPI_Status) == sizeof(abi_Status) &&
               _Alignof(MPI_Status) == _Alignof(abi_Status),
               "shmpi's status has the ABI's size and alignment");
static inline MPI_Status *status_in(abi_Status *a) { return (MPI_Status *)(void *)a; }
static inline const MPI_Status *cstatus_in(const abi_Status *a)
{
    return (const MPI_Status *)(const void *)a;
}

/* Where a call reads or writes requests: the program's handles, of the
   same values in both. */
static inline MPI_Request *reqp_in(abi_Request *r) { return (MPI_Request *)(void *)r; }

/* An array of n of the program's datatypes as shmpi's: in `stack` (room
   for ABI_TYPES_STACK) or in memory of its own; NULL when that cannot be
   had (MPI_ERR_NO_MEM raised on MPI_COMM_WORLD).  types_done gives the
   memory back. */
enum { ABI_TYPES_STACK = 32 };
MPI_Datatype *shmpi_abi_types_in(const abi_Datatype *t, MPI_Count n,
                                 MPI_Datatype *stack);
void shmpi_abi_types_done(MPI_Datatype *t, const MPI_Datatype *stack);

/* A handle shmpi made, given to the program when the call succeeded. */
#define MADE(rc, out, h, type, KIND)                                       \
    do {                                                                   \
        if ((rc) == MPI_SUCCESS)                                           \
            *(out) = ABI_OUT(type, (h), KIND);                             \
    } while (0)

/* The constants of the array constructors and MPI_Type_match_size (an
   ABI value with no meaning becomes one shmpi rejects), and the
   combiners of MPI_Type_get_envelope. */
int shmpi_abi_order_in(int order);
int shmpi_abi_order_out(int order);
int shmpi_abi_distrib_in(int distrib);
int shmpi_abi_distrib_out(int distrib);
int shmpi_abi_darg_in(int darg);
int shmpi_abi_darg_out(int darg);
int shmpi_abi_typeclass_in(int typeclass);
int shmpi_abi_combiner_out(int combiner);


/* The definition of an ABI function and its weak MPI_ alias. */
#define ABI_PRAGMA(x) _Pragma(#x)
#define ABI_FN(ret, name, params)                                      \
    ret shmpi_abi_PMPI_##name params;                                  \
    ret shmpi_abi_MPI_##name params;                                   \
    ABI_PRAGMA(weak shmpi_abi_MPI_##name = shmpi_abi_PMPI_##name)      \
    ret shmpi_abi_PMPI_##name params

#endif
