/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check.h - the argument checks of a (buffer, count, datatype) triple on
 * a communicator, shared by every call that takes one: point-to-point
 * (pt2pt/check.h builds its checks on these), MPI_Pack and MPI_Unpack,
 * MPI_Reduce_local.  They live with the datatype object, the lowest room
 * that knows what a committed datatype and a valid buffer are.  Each
 * returns MPI_SUCCESS or the code shmpi_raise returned.
 */
#ifndef SHMPI_DATATYPES_CHECK_H
#define SHMPI_DATATYPES_CHECK_H

#include "mpi.h"

/* comm, count >= 0, a valid and committed datatype. */
int shmpi_dt_check_count_type(const char *fn, MPI_Comm comm, MPI_Count count,
                              MPI_Datatype datatype);
/* ... count x the datatype's size fits in an MPI_Count, and a buffer
   that may hold count x datatype. */
int shmpi_dt_check_buffer(const char *fn, MPI_Comm comm, const void *buf,
                          MPI_Count count, MPI_Datatype datatype);

#endif
