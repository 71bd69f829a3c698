/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check.h - the argument checks of the collective calls.  Each returns
 * MPI_SUCCESS or the code shmpi_raise returned, raised on comm (which the
 * caller checked first) under the call's name.
 */
#ifndef SHMPI_COLL_CHECK_H
#define SHMPI_COLL_CHECK_H

#include "coll/order_check.h"
#include "coll/vec.h"
#include "mpi.h"

/* A valid communicator (MPI_ERR_COMM, raised on MPI_COMM_WORLD's
   handler when comm is not one). */
int shmpi_coll_check_comm(const char *fn, MPI_Comm comm);
/* A rank of comm (MPI_ERR_ROOT). */
int shmpi_coll_check_root(const char *fn, MPI_Comm comm, int root);
/* A committed datatype (MPI_ERR_TYPE); `what` names the argument. */
int shmpi_coll_check_type(const char *fn, MPI_Comm comm, MPI_Datatype t,
                          const char *what);
/* (buf, count, t) where MPI_IN_PLACE is not allowed: a count >= 0
   (MPI_ERR_COUNT), a committed type, and a buffer that can hold data
   (MPI_ERR_BUFFER: NULL or MPI_IN_PLACE with data to move, unless the
   type's displacements are absolute, as with MPI_BOTTOM). */
int shmpi_coll_check_data(const char *fn, MPI_Comm comm, const void *buf,
                          MPI_Count count, MPI_Datatype t, const char *what);
/* The blocks of a v/w call, one per peer (the remote group's processes
   on an intercommunicator): counts (and displs, unless NULL is allowed:
   need_displs 0) present (MPI_ERR_ARG), every count >= 0, every type
   committed (types[i], or t), every block with data in a real buffer. */
int shmpi_coll_check_blocks(const char *fn, MPI_Comm comm, const void *base,
                            struct shmpi_coll_vec counts,
                            struct shmpi_coll_vec displs, int need_displs,
                            MPI_Aint unit, const MPI_Datatype *types,
                            MPI_Datatype t, const char *what);
/* An op a collective may apply to count elements of t (MPI_ERR_OP;
   MPI_ERR_TYPE when t is MPI_HANDLE_SYNC, which no reduction takes). */
int shmpi_coll_check_op(const char *fn, MPI_Comm comm, MPI_Op op,
                        MPI_Datatype t, MPI_Count count);
/* sendbuf and recvbuf must not be the same memory (MPI_ERR_BUFFER) when
   both hold data: that is what MPI_IN_PLACE is for. */
int shmpi_coll_check_alias(const char *fn, MPI_Comm comm, const void *sbuf,
                           const void *rbuf, int has_data);

/* A blocking collective call whose argument checks raised rc on this
   member refuses the call (an action, not a question): it takes its part
   all the same where comm (if valid) runs collectives in an area
   (coll.h), so that the members still agree on the collectives' numbers
   and the others report the failure instead of a wrong result (counted
   for MPI_Allreduce), and takes its schedule's number on an
   intercommunicator (coll/sched.h).  Returns rc. */
int shmpi_coll_refuse_call(MPI_Comm comm, int rc, int counted);

/* The request argument of a nonblocking collective: somewhere to put
   the handle (MPI_ERR_ARG when NULL, as MPI_Isend says: no request
   handle is invalid yet, the pointer is). */
int shmpi_coll_check_request(const char *fn, MPI_Comm comm,
                             const MPI_Request *request);

/* The info and request arguments of a persistent collective's init
   call (MPI-4.0 6.13): info MPI_INFO_NULL or a valid info object
   (MPI_ERR_INFO), somewhere to put the request (MPI_ERR_ARG). */
int shmpi_coll_check_init(const char *fn, MPI_Comm comm, MPI_Info info,
                          const MPI_Request *request);

#endif
