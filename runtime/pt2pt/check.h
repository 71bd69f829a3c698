/*
 * check.h - the argument checks shared by every point-to-point call.
 * Each returns MPI_SUCCESS or the code shmpi_raise returned.
 */
#ifndef SHMPI_CHECK_H
#define SHMPI_CHECK_H

#include "mpi.h"

/* comm, count >= 0, a valid and committed datatype. */
int shmpi_check_count_type(const char *fn, MPI_Comm comm, int count,
                           MPI_Datatype datatype);
/* ... and a buffer that may hold count x datatype. */
int shmpi_check_buffer(const char *fn, MPI_Comm comm, const void *buf,
                       int count, MPI_Datatype datatype);
int shmpi_check_send(const char *fn, const void *buf, int count,
                     MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int shmpi_check_recv(const char *fn, const void *buf, int count,
                     MPI_Datatype datatype, int source, int tag,
                     MPI_Comm comm);

#endif
