/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * types.c - the ABI's datatype constructors and reduction operations
 * (abi.h).
 *
 * A user operation's function is called by shmpi with shmpi's datatype;
 * the program's function expects the ABI's (MPI_INT is 0x209 to it).
 * MPI_User_function carries no pointer of the program's, so each
 * operation gets one of OP_SLOTS trampolines, which knows its slot and
 * calls the program's function with the datatype translated (a slot has
 * two: one for MPI_Op_create's MPI_User_function, one for the
 * MPI_User_function_c of MPI_Op_create_c, whose length is an MPI_Count).
 * A slot is taken by MPI_Op_create or MPI_Op_create_c and free again
 * once shmpi has dropped the operation, after MPI_Op_free and the
 * operations in flight (slot_free), under op_lock; the function pointer
 * is written before PMPI_Op_create(_c) publishes the operation, and an
 * operation is only ever applied in the process that created it, by a
 * call ordered after the create.
 */
#include <pthread.h>
#include <stdlib.h>

#include "abi/abi.h"

/* A datatype a constructor made, given to the program when it
   succeeded. */
static inline int made(int rc, const MPI_Datatype *t, abi_Datatype *newtype)
{
    if (rc == MPI_SUCCESS)
        *newtype = ABI_OUT(abi_Datatype, *t, DATATYPE);
    return rc;
}

/* The constructors of a count and a type, and their large-count (_c)
   forms: C the type of the counts, A of the byte strides and bounds. */
#define ABI_CONTIGUOUS(name, C)                                            \
    ABI_FN(int, name, (C count, abi_Datatype oldtype,                      \
                       abi_Datatype *newtype))                             \
    {                                                                      \
        MPI_Datatype t;                                                    \
        return made(PMPI_##name(count, dt_in(oldtype),                     \
                                newtype ? &t : NULL), &t, newtype);        \
    }
ABI_CONTIGUOUS(Type_contiguous, int)
ABI_CONTIGUOUS(Type_contiguous_c, MPI_Count)

/* Type_vector (stride in elements, A = C) and Type_create_hvector. */
#define ABI_VECTOR(name, C, A)                                             \
    ABI_FN(int, name, (C count, C blocklength, A stride,                   \
                       abi_Datatype oldtype, abi_Datatype *newtype))       \
    {                                                                      \
        MPI_Datatype t;                                                    \
        return made(PMPI_##name(count, blocklength, stride,                \
                                dt_in(oldtype), newtype ? &t : NULL),      \
                    &t, newtype);                                          \
    }
ABI_VECTOR(Type_vector, int, int)
ABI_VECTOR(Type_vector_c, MPI_Count, MPI_Count)
ABI_VECTOR(Type_create_hvector, int, MPI_Aint)
ABI_VECTOR(Type_create_hvector_c, MPI_Count, MPI_Count)

#define ABI_RESIZED(name, A)                                               \
    ABI_FN(int, name, (abi_Datatype oldtype, A lb, A extent,               \
                       abi_Datatype *newtype))                             \
    {                                                                      \
        MPI_Datatype t;                                                    \
        return made(PMPI_##name(dt_in(oldtype), lb, extent,                \
                                newtype ? &t : NULL), &t, newtype);        \
    }
ABI_RESIZED(Type_create_resized, MPI_Aint)
ABI_RESIZED(Type_create_resized_c, MPI_Count)

ABI_FN(int, Type_dup, (abi_Datatype oldtype, abi_Datatype *newtype))
{
    MPI_Datatype t;
    return made(PMPI_Type_dup(dt_in(oldtype), newtype ? &t : NULL), &t,
                newtype);
}

/* The constructors of blocks at displacements, and their _c forms: C
   the type of the counts, D of the displacements, BL the declaration
   of the block lengths (an array, or one for every block). */
#define ABI_INDEXED(name, C, BL, D)                                        \
    ABI_FN(int, name, (C count, BL, const D displacements[],               \
                       abi_Datatype oldtype, abi_Datatype *newtype))       \
    {                                                                      \
        MPI_Datatype t;                                                    \
        return made(PMPI_##name(count, blocklengths, displacements,        \
                                dt_in(oldtype), newtype ? &t : NULL),      \
                    &t, newtype);                                          \
    }
ABI_INDEXED(Type_indexed, int, const int blocklengths[], int)
ABI_INDEXED(Type_indexed_c, MPI_Count, const MPI_Count blocklengths[],
            MPI_Count)
ABI_INDEXED(Type_create_hindexed, int, const int blocklengths[], MPI_Aint)
ABI_INDEXED(Type_create_hindexed_c, MPI_Count, const MPI_Count blocklengths[],
            MPI_Count)
ABI_INDEXED(Type_create_indexed_block, int, int blocklengths, int)
ABI_INDEXED(Type_create_indexed_block_c, MPI_Count, MPI_Count blocklengths,
            MPI_Count)
ABI_INDEXED(Type_create_hindexed_block, int, int blocklengths, MPI_Aint)
ABI_INDEXED(Type_create_hindexed_block_c, MPI_Count, MPI_Count blocklengths,
            MPI_Count)

/* The array of datatypes converted for the call only. */
#define ABI_STRUCT(name, C, D)                                             \
    ABI_FN(int, name, (C count, const C blocklengths[],                    \
                       const D displacements[], const abi_Datatype types[],\
                       abi_Datatype *newtype))                             \
    {                                                                      \
        MPI_Datatype stack[ABI_TYPES_STACK], *t = NULL;                    \
        if (count > 0 && types &&                                          \
            !(t = shmpi_abi_types_in(types, count, stack)))                \
            return MPI_ERR_NO_MEM;                                         \
        MPI_Datatype nt;                                                   \
        int rc = PMPI_##name(count, blocklengths, displacements, t,        \
                             newtype ? &nt : NULL);                        \
        if (t)                                                             \
            shmpi_abi_types_done(t, stack);                                \
        return made(rc, &nt, newtype);                                     \
    }
ABI_STRUCT(Type_create_struct, int, MPI_Aint)
ABI_STRUCT(Type_create_struct_c, MPI_Count, MPI_Count)

/* The order translated; C the type of the sizes and starts. */
#define ABI_SUBARRAY(name, C)                                              \
    ABI_FN(int, name, (int ndims, const C sizes[], const C subsizes[],     \
                       const C starts[], int order, abi_Datatype oldtype,  \
                       abi_Datatype *newtype))                             \
    {                                                                      \
        MPI_Datatype t;                                                    \
        return made(PMPI_##name(ndims, sizes, subsizes, starts,            \
                                shmpi_abi_order_in(order), dt_in(oldtype), \
                                newtype ? &t : NULL),                      \
                    &t, newtype);                                          \
    }
ABI_SUBARRAY(Type_create_subarray, int)
ABI_SUBARRAY(Type_create_subarray_c, MPI_Count)

/* Up to this many dimensions of a darray are translated on the stack,
   more in memory of their own. */
enum { DARRAY_STACK = 16 };

/* The distributions and their arguments translated into d (2 * ndims),
   on the stack or from malloc; NULL when there are none to translate
   (shmpi reports what is wrong with them), MPI_ERR_NO_MEM raised when
   the memory cannot be had. */
static int darray_in(int ndims, const int distribs[], const int dargs[],
                     int *stack, int **d)
{
    *d = NULL;
    if (ndims <= 0 || !distribs || !dargs)
        return MPI_SUCCESS;
    *d = ndims <= DARRAY_STACK ? stack
       : malloc(2 * (size_t)ndims * sizeof **d);
    if (!*d) {      /* the handler returns MPI_SUCCESS when it returns */
        PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < ndims; i++) {
        (*d)[i] = shmpi_abi_distrib_in(distribs[i]);
        (*d)[ndims + i] = shmpi_abi_darg_in(dargs[i]);
    }
    return MPI_SUCCESS;
}

/* G the type of the global sizes. */
#define ABI_DARRAY(name, G)                                                \
    ABI_FN(int, name, (int size, int rank, int ndims, const G gsizes[],    \
                       const int distribs[], const int dargs[],            \
                       const int psizes[], int order,                      \
                       abi_Datatype oldtype, abi_Datatype *newtype))       \
    {                                                                      \
        int stack[2 * DARRAY_STACK], *d;                                   \
        int rc = darray_in(ndims, distribs, dargs, stack, &d);             \
        if (rc != MPI_SUCCESS)                                             \
            return rc;                                                     \
        MPI_Datatype t;                                                    \
        rc = PMPI_##name(size, rank, ndims, gsizes, d ? d : distribs,      \
                         d ? d + ndims : dargs, psizes,                    \
                         shmpi_abi_order_in(order), dt_in(oldtype),        \
                         newtype ? &t : NULL);                             \
        if (d != stack)                                                    \
            free(d);                                                       \
        return made(rc, &t, newtype);                                      \
    }
ABI_DARRAY(Type_create_darray, int)
ABI_DARRAY(Type_create_darray_c, MPI_Count)

/* The Fortran 90 parameterized types and MPI_Type_match_size: a
   predefined type of shmpi's, given as the ABI's integer where it has
   one. */
ABI_FN(int, Type_create_f90_integer, (int r, abi_Datatype *newtype))
{
    MPI_Datatype t;
    return made(PMPI_Type_create_f90_integer(r, newtype ? &t : NULL), &t,
                newtype);
}

ABI_FN(int, Type_create_f90_real, (int p, int r, abi_Datatype *newtype))
{
    MPI_Datatype t;
    return made(PMPI_Type_create_f90_real(p, r, newtype ? &t : NULL), &t,
                newtype);
}

ABI_FN(int, Type_create_f90_complex, (int p, int r, abi_Datatype *newtype))
{
    MPI_Datatype t;
    return made(PMPI_Type_create_f90_complex(p, r, newtype ? &t : NULL), &t,
                newtype);
}

ABI_FN(int, Type_match_size, (int typeclass, int size, abi_Datatype *dt))
{
    MPI_Datatype t;
    return made(PMPI_Type_match_size(shmpi_abi_typeclass_in(typeclass), size,
                                     dt ? &t : NULL), &t, dt);
}

ABI_FN(int, Type_get_value_index, (abi_Datatype value_type,
                                   abi_Datatype index_type,
                                   abi_Datatype *pair_type))
{
    MPI_Datatype t;
    return made(PMPI_Type_get_value_index(dt_in(value_type),
                                          dt_in(index_type),
                                          pair_type ? &t : NULL),
                &t, pair_type);
}

/* The functions that take a datatype by address and may change it. */
#define ABI_TYPE_INOUT(name)                                               \
    ABI_FN(int, name, (abi_Datatype *dt))                                  \
    {                                                                      \
        MPI_Datatype t = dt ? dt_in(*dt) : NULL;                           \
        int rc = PMPI_##name(dt ? &t : NULL);                              \
        if (dt)                                                            \
            *dt = ABI_OUT(abi_Datatype, t, DATATYPE);                      \
        return rc;                                                         \
    }
ABI_TYPE_INOUT(Type_commit)
ABI_TYPE_INOUT(Type_free)

ABI_FN(int, Type_set_name, (abi_Datatype dt, const char *type_name))
{
    return PMPI_Type_set_name(dt_in(dt), type_name);
}

ABI_FN(int, Type_get_name, (abi_Datatype dt, char *type_name,
                            int *resultlen))
{
    return PMPI_Type_get_name(dt_in(dt), type_name, resultlen);
}

ABI_FN(int, Get_address, (const void *location, MPI_Aint *address))
{
    return PMPI_Get_address(location, address);
}

ABI_FN(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp))
{
    return PMPI_Aint_add(base, disp);
}

ABI_FN(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2))
{
    return PMPI_Aint_diff(addr1, addr2);
}

/* A datatype's size, and its (true) lower bound and extent, each in
   its forms of another type T: int or MPI_Aint, _x and _c MPI_Count. */
#define ABI_TYPE_SIZE(name, T)                                             \
    ABI_FN(int, name, (abi_Datatype dt, T *size))                          \
    {                                                                      \
        return PMPI_##name(dt_in(dt), size);                               \
    }
ABI_TYPE_SIZE(Type_size, int)
ABI_TYPE_SIZE(Type_size_x, MPI_Count)
ABI_TYPE_SIZE(Type_size_c, MPI_Count)

#define ABI_TYPE_EXTENT(name, T)                                           \
    ABI_FN(int, name, (abi_Datatype dt, T *lb, T *extent))                 \
    {                                                                      \
        return PMPI_##name(dt_in(dt), lb, extent);                         \
    }
ABI_TYPE_EXTENT(Type_get_extent, MPI_Aint)
ABI_TYPE_EXTENT(Type_get_extent_x, MPI_Count)
ABI_TYPE_EXTENT(Type_get_extent_c, MPI_Count)
ABI_TYPE_EXTENT(Type_get_true_extent, MPI_Aint)
ABI_TYPE_EXTENT(Type_get_true_extent_x, MPI_Count)
ABI_TYPE_EXTENT(Type_get_true_extent_c, MPI_Count)

/* ---- user operations ---- */
/* MPI_Op_create_c's function (MPI-4.0 6.9.5), with the ABI's datatype. */
typedef void abi_User_function_c(void *, void *, MPI_Count *, abi_Datatype *);

enum { OP_SLOTS = 16 };
/* A slot's function is the program's MPI_User_function or its
   MPI_User_function_c, the other NULL; both NULL: the slot is free. */
static abi_User_function *op_fn[OP_SLOTS];
static abi_User_function_c *op_fn_c[OP_SLOTS];
static MPI_Op op_of[OP_SLOTS];
static MPI_Fint op_fint[OP_SLOTS];          /* shmpi's number of op_of */
static char op_freed[OP_SLOTS];             /* MPI_Op_free was called */
static pthread_mutex_t op_lock = PTHREAD_MUTEX_INITIALIZER;

static int slot_used(int i) { return op_fn[i] || op_fn_c[i]; }

static void call_user(int slot, void *in, void *inout, int *len,
                      MPI_Datatype *dt)
{
    abi_Datatype a = ABI_OUT(abi_Datatype, *dt, DATATYPE);
    op_fn[slot](in, inout, len, &a);
}

static void call_user_c(int slot, void *in, void *inout, MPI_Count *len,
                        MPI_Datatype *dt)
{
    abi_Datatype a = ABI_OUT(abi_Datatype, *dt, DATATYPE);
    op_fn_c[slot](in, inout, len, &a);
}

/* Slot i's trampolines, for MPI_Op_create and MPI_Op_create_c. */
#define TRAMPOLINE(i)                                                      \
    static void trampoline##i(void *in, void *inout, int *len,             \
                              MPI_Datatype *dt)                            \
    {                                                                      \
        call_user(i, in, inout, len, dt);                                  \
    }                                                                      \
    static void trampoline_c##i(void *in, void *inout, MPI_Count *len,     \
                                MPI_Datatype *dt)                          \
    {                                                                      \
        call_user_c(i, in, inout, len, dt);                                \
    }
TRAMPOLINE(0) TRAMPOLINE(1) TRAMPOLINE(2) TRAMPOLINE(3)
TRAMPOLINE(4) TRAMPOLINE(5) TRAMPOLINE(6) TRAMPOLINE(7)
TRAMPOLINE(8) TRAMPOLINE(9) TRAMPOLINE(10) TRAMPOLINE(11)
TRAMPOLINE(12) TRAMPOLINE(13) TRAMPOLINE(14) TRAMPOLINE(15)
static MPI_User_function *const trampolines[OP_SLOTS] = {
    trampoline0, trampoline1, trampoline2, trampoline3,
    trampoline4, trampoline5, trampoline6, trampoline7,
    trampoline8, trampoline9, trampoline10, trampoline11,
    trampoline12, trampoline13, trampoline14, trampoline15,
};
static MPI_User_function_c *const trampolines_c[OP_SLOTS] = {
    trampoline_c0, trampoline_c1, trampoline_c2, trampoline_c3,
    trampoline_c4, trampoline_c5, trampoline_c6, trampoline_c7,
    trampoline_c8, trampoline_c9, trampoline_c10, trampoline_c11,
    trampoline_c12, trampoline_c13, trampoline_c14, trampoline_c15,
};

/* Whether slot i can take a new operation (under op_lock).  A freed
   operation stays alive in shmpi while operations in flight use it
   (5.9.5: they complete as if it had not been freed), and so calls its
   trampoline: its slot is free again only once shmpi dropped it, which
   MPI_Op_f2c tells, as it gives an invalid op for a number shmpi no
   longer holds.  Should shmpi have given the same number and address
   to another operation since, that one's slot is live and the old one
   is gone. */
static int slot_free(int i)
{
    if (!slot_used(i))
        return 1;
    if (!op_freed[i])
        return 0;
    if (PMPI_Op_f2c(op_fint[i]) != op_of[i])
        return 1;                               /* dropped */
    for (int j = 0; j < OP_SLOTS; j++)
        if (j != i && slot_used(j) && !op_freed[j] && op_of[j] == op_of[i])
            return 1;
    return 0;
}

/* A new operation of the program's function fn or fn_c (the other
   NULL), both arguments checked, in a free slot. */
static int op_take(abi_User_function *fn, abi_User_function_c *fn_c,
                   int commute, abi_Op *op)
{
    pthread_mutex_lock(&op_lock);
    int slot = 0;
    while (slot < OP_SLOTS && !slot_free(slot))
        slot++;
    int rc;
    if (slot == OP_SLOTS) {
        /* the handler returns MPI_SUCCESS when it returns */
        PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
        rc = MPI_ERR_NO_MEM;
    } else {
        op_fn[slot] = fn;
        op_fn_c[slot] = fn_c;
        op_freed[slot] = 0;
        rc = fn ? PMPI_Op_create(trampolines[slot], commute, &op_of[slot])
                : PMPI_Op_create_c(trampolines_c[slot], commute,
                                   &op_of[slot]);
        if (rc == MPI_SUCCESS) {
            op_fint[slot] = PMPI_Op_c2f(op_of[slot]);
            *op = ABI_OUT(abi_Op, op_of[slot], OP);
        } else {
            op_fn[slot] = NULL;
            op_fn_c[slot] = NULL;
        }
    }
    pthread_mutex_unlock(&op_lock);
    return rc;
}

ABI_FN(int, Op_create, (abi_User_function *fn, int commute, abi_Op *op))
{
    if (!fn || !op)     /* shmpi reports these */
        return PMPI_Op_create(NULL, commute, NULL);
    return op_take(fn, NULL, commute, op);
}

ABI_FN(int, Op_create_c, (abi_User_function_c *fn, int commute, abi_Op *op))
{
    if (!fn || !op)     /* shmpi reports these */
        return PMPI_Op_create_c(NULL, commute, NULL);
    return op_take(NULL, fn, commute, op);
}

/* The slot keeps its function for the operations in flight (slot_free). */
ABI_FN(int, Op_free, (abi_Op *op))
{
    MPI_Op o = op ? op_in(*op) : NULL;
    MPI_Op was = o;
    int rc = PMPI_Op_free(op ? &o : NULL);
    if (rc == MPI_SUCCESS) {
        pthread_mutex_lock(&op_lock);
        for (int i = 0; i < OP_SLOTS; i++)
            if (slot_used(i) && !op_freed[i] && op_of[i] == was)
                op_freed[i] = 1;
        pthread_mutex_unlock(&op_lock);
    }
    if (op)
        *op = ABI_OUT(abi_Op, o, OP);
    return rc;
}

ABI_FN(int, Op_commutative, (abi_Op op, int *commute))
{
    return PMPI_Op_commutative(op_in(op), commute);
}

#define ABI_REDUCE_LOCAL(name, C)                                          \
    ABI_FN(int, name, (const void *inbuf, void *inoutbuf, C count,         \
                       abi_Datatype dt, abi_Op op))                        \
    {                                                                      \
        return PMPI_##name(inbuf, inoutbuf, count, dt_in(dt),              \
                           op_in(op));                                     \
    }
ABI_REDUCE_LOCAL(Reduce_local, int)
ABI_REDUCE_LOCAL(Reduce_local_c, MPI_Count)
