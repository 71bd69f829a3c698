/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tool.h - what the ABI's variables (tool.c) and events (tool_event.c)
 * of the tool information interface share (abi.h).
 */
#ifndef SHMPI_ABI_TOOL_H
#define SHMPI_ABI_TOOL_H

#include "abi/abi.h"

/* The program's bound object (a pointer to its handle), as shmpi's in
   *u; other bindings, and none, as they are. */
union shmpi_abi_bound {
    MPI_Comm comm;
    MPI_Datatype dt;
    MPI_Errhandler eh;
    MPI_Group group;
    MPI_Op op;
    MPI_Request req;
    MPI_Win win;
    MPI_Message msg;
    MPI_Info info;
};
void *shmpi_abi_bound_in(int bind, void *obj, union shmpi_abi_bound *u);

/* A verbosity shmpi gave, as the ABI's (0x09 .. 0x24). */
void shmpi_abi_verbosity_out(int *v);

/* Bindings, scopes, classes, source orders: the ABI's are shmpi's
   plus 1. */
static inline void plus_one(int *v)
{
    if (v)
        ++*v;
}

/* PMPI_T_init_thread and PMPI_T_finalize, counted: the last
   MPI_T_finalize drops every registration of shmpi's, and the layer's
   records of them go with them (tool_event.c). */
int shmpi_abi_t_init(int required, int *provided);
int shmpi_abi_t_finalize(void);

#endif
