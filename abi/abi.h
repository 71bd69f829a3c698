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
 * datatypes and ops skip the range (ABI_IN_ANY): each shmpi object starts
 * with the magic of its kind (core/objects.h), so another kind's object
 * is rejected all the same.  Back, a hash of shmpi's predefined objects
 * gives their integers (shmpi_abi_out).
 *
 * Integers.  Ranks, tags, thread levels and error codes have other
 * values in the ABI: a value on the common path (rank >= -1, tag >= 0,
 * MPI_SUCCESS) passes through with one compare; the other ranks and tags
 * are translated in line, error codes and thread levels by functions out
 * of line.
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

/* The ABI's values of the constants the layer translates. */
#define ABI_ANY_SOURCE (-1)
#define ABI_ANY_TAG    (-2)
#define ABI_PROC_NULL  (-3)
#define ABI_ROOT       (-4)
#define ABI_ERR_OTHER  16
#define ABI_ERR_LASTCODE 0x3fff

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
static inline MPI_Request req_in(abi_Request h) { return ABI_IN(MPI_Request, h, REQUEST); }
static inline MPI_Message msg_in(abi_Message h) { return ABI_IN(MPI_Message, h, MESSAGE); }
static inline MPI_Win win_in(abi_Win h) { return ABI_IN(MPI_Win, h, WIN); }
static inline MPI_Session session_in(abi_Session h) { return ABI_IN(MPI_Session, h, SESSION); }

/* shmpi's handle to the ABI's: NULL to the kind's null handle, a
   predefined object to its integer (a hash of shmpi's predefined
   objects), any other passed through. */
void *shmpi_abi_out(void *h, uintptr_t first, uintptr_t end);
#define ABI_OUT(type, h, KIND) \
    ((type)shmpi_abi_out((void *)(h), ABI_##KIND##_FIRST, ABI_##KIND##_END))
/* A request is never predefined: only its null needs a translation. */
static inline abi_Request req_out(MPI_Request r)
{
    return r ? (abi_Request)(void *)r : (abi_Request)ABI_REQUEST_FIRST;
}

/* Error codes: shmpi's class c is the ABI's class shmpi_abi_class[c]; the
   codes and classes a program adds (above shmpi's MPI_ERR_LASTCODE) are
   put above the ABI's MPI_ERR_LASTCODE. */
int shmpi_abi_err_out_cold(int code);
int shmpi_abi_err_in(int code);
static inline int err_out(int rc)
{
    return rc == MPI_SUCCESS ? rc : shmpi_abi_err_out_cold(rc);
}

/* Ranks and tags: the common values pass with one compare; the others
   are translated in line, with no call, which would make the caller save
   its registers around it (callgrind, 2026-11-30, abi/README.md's loop:
   MPI_Sendrecv's layer 54 instructions so, 60 with calls out of line). */
int shmpi_abi_rank_out_cold(int rank);
_Static_assert(ABI_PROC_NULL + 1 == MPI_PROC_NULL && ABI_ROOT + 1 == MPI_ROOT,
               "rank_in's arithmetic");
static inline int rank_in(int r)
{
    if (__builtin_expect(r >= -1, 1))
        return r;
    return r == ABI_PROC_NULL || r == ABI_ROOT ? r + 1  /* shmpi's -2, -3 */
         : r == ABI_ANY_TAG ? INT_MIN                    /* no rank */
         : r;                                            /* MPI_UNDEFINED... */
}
static inline int tag_in(int t)
{
    if (__builtin_expect(t >= 0, 1))
        return t;
    return t == ABI_ANY_TAG ? MPI_ANY_TAG
         : t == MPI_ANY_TAG ? INT_MIN                    /* -1: no tag */
         : t;
}
static inline int rank_out(int r) { return r >= -1 ? r : shmpi_abi_rank_out_cold(r); }
static inline int tag_out(int t) { return t >= 0 ? t : t == MPI_ANY_TAG ? ABI_ANY_TAG : t; }

/* Statuses: shmpi's has the ABI's layout (mpi.h), so a call hands the
   program's status, or array of them, to shmpi as it is, and afterwards
   changes only the values that differ between the two: a source below
   -1 (MPI_PROC_NULL...) and a negative tag (MPI_ANY_TAG), which only an
   empty status or a receive from MPI_PROC_NULL has, and the error codes
   shmpi writes into MPI_ERROR where a multiple completion returns
   MPI_ERR_IN_STATUS.  Each is a branch not taken on the common path. */
_Static_assert(sizeof(MPI_Status) == sizeof(abi_Status) &&
               _Alignof(MPI_Status) == _Alignof(abi_Status),
               "shmpi's status has the ABI's size and alignment");
void shmpi_abi_status_fix(abi_Status *a);
void shmpi_abi_statuses_fix(abi_Status *a, int n, int rc);
static inline MPI_Status *status_in(abi_Status *a) { return (MPI_Status *)(void *)a; }
static inline const MPI_Status *cstatus_in(const abi_Status *a)
{
    return (const MPI_Status *)(const void *)a;
}
/* After a call that wrote one status (none when the program ignores
   it). */
static inline void status_out(abi_Status *a)
{
    if (a && __builtin_expect(a->MPI_SOURCE < -1 || a->MPI_TAG < 0, 0))
        shmpi_abi_status_fix(a);
}
/* shmpi's values in a status the program's function filled (a
   generalized request's query) */
void shmpi_abi_status_to_shmpi(MPI_Status *s);

/* A request a call started, given to the program when the call
   succeeded. */
static inline int started(int rc, const MPI_Request *r, abi_Request *request)
{
    if (rc == MPI_SUCCESS)
        *request = req_out(*r);
    return err_out(rc);
}

/* An array of n of the program's datatypes as shmpi's: in `stack` (room
   for ABI_TYPES_STACK) or in memory of its own; NULL when that cannot be
   had (MPI_ERR_NO_MEM raised on MPI_COMM_WORLD).  types_done gives the
   memory back. */
enum { ABI_TYPES_STACK = 32 };
MPI_Datatype *shmpi_abi_types_in(const abi_Datatype *t, MPI_Count n,
                                 MPI_Datatype *stack);
void shmpi_abi_types_done(MPI_Datatype *t, const MPI_Datatype *stack);

/* A comparison's result: shmpi's MPI_IDENT .. MPI_UNEQUAL (0 .. 3) are
   the ABI's 201 .. 204. */
static inline int cmp_out(int r) { return 201 + r - MPI_IDENT; }

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

/* Thread levels. */
int shmpi_abi_thread_in(int level);
int shmpi_abi_thread_out(int level);

/* The definition of an ABI function and its weak MPI_ alias. */
#define ABI_PRAGMA(x) _Pragma(#x)
#define ABI_FN(ret, name, params)                                      \
    ret shmpi_abi_PMPI_##name params;                                  \
    ret shmpi_abi_MPI_##name params;                                   \
    ABI_PRAGMA(weak shmpi_abi_MPI_##name = shmpi_abi_PMPI_##name)      \
    ret shmpi_abi_PMPI_##name params

#endif
