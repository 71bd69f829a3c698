/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * toint.c - MPI_<Handle>_toint and _fromint (MPI-5.0 20.3.5): a handle
 * as an int and back.
 *
 * A predefined or null handle is its own integer (below 0x1000, the
 * values of the ABI header, as the standard fixes them).  Any other is
 * 0x1000 plus the number shmpi's MPI_<Handle>_c2f gives it (numbered at
 * the first conversion, O(1) both ways; runtime/core/fint.h).  An int
 * that names no handle gives an invalid handle, which every call rejects.
 *
 * MPI_<Handle>_c2f and _f2c (19.3.4) give the same integers: the ABI's
 * MPI_Fint is an int, and what the standard asks of them - f2c(c2f(h))
 * is h, and the number of a handle is stable - _toint already does.
 * shmpi has no Fortran bindings, so no Fortran program holds other
 * numbers.  MPI_Status_c2f and _f2c copy the ABI's status, which is
 * MPI_F_STATUS_SIZE (8) ints, as it is.
 */
#include <string.h>

#include "abi/abi.h"

#define ABI_TOINT(Kind, type, KIND, c2f, f2c)                              \
    ABI_FN(int, Kind##_toint, (abi_##type h))                              \
    {                                                                      \
        if ((uintptr_t)h < ABI_PREDEFINED_END)                             \
            return (int)(uintptr_t)h;                                      \
        return PMPI_##c2f((MPI_##type)(void *)h) + ABI_PREDEFINED_END;     \
    }                                                                      \
    ABI_FN(abi_##type, Kind##_fromint, (int i))                            \
    {                                                                      \
        if (i < 0)                                                         \
            return (abi_##type)(void *)shmpi_abi_invalid;                  \
        if (i < ABI_PREDEFINED_END)                                        \
            return (abi_##type)(uintptr_t)i;                               \
        return ABI_OUT(abi_##type, PMPI_##f2c(i - ABI_PREDEFINED_END),     \
                       KIND);                                              \
    }                                                                      \
    ABI_FN(MPI_Fint, c2f, (abi_##type h))                                  \
    {                                                                      \
        return shmpi_abi_PMPI_##Kind##_toint(h);                           \
    }                                                                      \
    ABI_FN(abi_##type, f2c, (MPI_Fint i))                                  \
    {                                                                      \
        return shmpi_abi_PMPI_##Kind##_fromint(i);                         \
    }

ABI_TOINT(Comm, Comm, COMM, Comm_c2f, Comm_f2c)
ABI_TOINT(Type, Datatype, DATATYPE, Type_c2f, Type_f2c)
ABI_TOINT(Op, Op, OP, Op_c2f, Op_f2c)
ABI_TOINT(Group, Group, GROUP, Group_c2f, Group_f2c)
ABI_TOINT(Request, Request, REQUEST, Request_c2f, Request_f2c)
ABI_TOINT(Errhandler, Errhandler, ERRHANDLER, Errhandler_c2f, Errhandler_f2c)
ABI_TOINT(Info, Info, INFO, Info_c2f, Info_f2c)
ABI_TOINT(Message, Message, MESSAGE, Message_c2f, Message_f2c)
ABI_TOINT(Win, Win, WIN, Win_c2f, Win_f2c)
ABI_TOINT(Session, Session, SESSION, Session_c2f, Session_f2c)

/* A NULL pointer goes to shmpi's, which reports it. */
ABI_FN(int, Status_c2f, (const abi_Status *c_status, MPI_Fint *f_status))
{
    if (!c_status || !f_status)
        return PMPI_Status_c2f((const MPI_Status *)c_status,
                               f_status);
    memcpy(f_status, c_status, sizeof *c_status);
    return MPI_SUCCESS;
}

ABI_FN(int, Status_f2c, (const MPI_Fint *f_status, abi_Status *c_status))
{
    if (!c_status || !f_status)
        return PMPI_Status_f2c(f_status, (MPI_Status *)c_status);
    memcpy(c_status, f_status, sizeof *c_status);
    return MPI_SUCCESS;
}
