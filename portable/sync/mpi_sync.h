/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpi_sync.h - shmpi's RMA synchronization counters (shmpi_sync(7), the
 * proposal "Flexible RMA Synchronization for MPI-3") for any MPI-3 library,
 * built on standard passive-target RMA by mpi_sync.c beside this file.
 *
 * Include it after <mpi.h> (or force it in with `mpicc -include
 * mpi_sync.h`, so that a program builds unchanged) in every file that
 * uses the counters, makes or frees a window whose counters are used, or
 * starts, completes or frees one of their requests, and link mpi_sync.c
 * into the program.  Under shmpi, whose mpi.h defines SHMPI_SYNC_COUNTERS,
 * the header adds nothing and mpi_sync.c compiles to nothing: shmpi has
 * the real thing.
 *
 * Standard MPI-3 has no restartable request that a library can complete
 * at will (a generalized request, MPI_Grequest_start, is completed once
 * and never started again), so the persistent requests of
 * MPI_Win_sync_object_init and MPI_Win_sync_ops_init are the library's
 * own, named by a real MPI_Request handle (a persistent receive from
 * MPI_PROC_NULL) that the library recognises: below, MPI_Start,
 * MPI_Startall, the wait, test and free calls, MPI_Cancel and
 * MPI_Request_get_status become (macros) the psync_ versions, which
 * serve sync requests themselves and pass every other request to the
 * MPI.  The window constructors and MPI_Win_free become psync_ versions
 * too: each window gets a hidden window of counters, made and freed with
 * it (collectively, as the counters' allocation is a local call).  So do
 * the RMA calls (put, get, the accumulates, their request forms) and the
 * calls that open and close access epochs (fence, start, complete, lock,
 * unlock, lock_all, unlock_all), so that the sync_ops epoch has shmpi's
 * rules (shmpi_sync(7), THE SYNC_OPS ACCESS EPOCH): a call inside it
 * must be covered by a started request to its target, no other access
 * epoch opens inside it nor it inside one, and an RMA call outside every
 * epoch is refused - each with MPI_ERR_RMA_SYNC through the window's
 * error handler.  MPI_Error_class too: Open MPI 4.1 does not know the
 * class of a class that MPI_Add_error_class made.  And the other calls on
 * a window (flush, sync, post, wait, test, get_group, get_attr,
 * set_errhandler, attach, detach, shared_query), since MPI_Win_change_comm
 * gives the program's window handle a new MPI window behind it.
 *
 * Threads: the library's tables (windows, requests, counters held) and
 * each window's epoch state are under one mutex of its own (mpi_sync.c,
 * "Threads"), so that under MPI_THREAD_MULTIPLE, when the MPI provides
 * it, any thread may call the functions above at any time, as under
 * shmpi: several threads may signal one counter, wait on requests and
 * put into a sync_ops epoch at once.  Link with -pthread.
 *
 * What differs from shmpi is in shmpi_sync(7), "BUILDING WITH ANOTHER
 * MPI": MPI_ERR_WIN_COUNTER and MPI_HANDLE_SYNC are values known at run
 * time (not constants; MPI_HANDLE_SYNC is taken by constructors,
 * reductions and RMA like any int), after MPI_Win_change_comm a window
 * of the shared flavor is a created one to its newcomers (they reach the
 * members' memory by RMA only), the sync_ops epoch is a lock_all epoch
 * that the library opens.
 */
#ifndef MPI_SYNC_PORTABLE_H
#define MPI_SYNC_PORTABLE_H

#include <mpi.h>

#ifndef SHMPI_SYNC_COUNTERS
/* The counters exist (as under shmpi, so that a program's #ifdef
   SHMPI_SYNC_COUNTERS picks them), and come from mpi_sync.c. */
#define SHMPI_SYNC_COUNTERS 1
#define MPI_SYNC_PORTABLE 1

typedef int MPI_Sync;          /* designates one counter, job-wide */
#define MPI_SYNC_NULL            0
#define MPI_MODE_WIN_PUT         1   /* sync_mode bits of */
#define MPI_MODE_WIN_GET         2   /* MPI_Win_sync_ops_init */
#define MPI_MODE_WIN_ACCUMULATE  4

/* An error class added by MPI_Add_error_class at the first use, and a
   committed duplicate of MPI_INT named "MPI_HANDLE_SYNC", made at the
   first use (both after MPI_Init). */
int psync_err_win_counter(void);
MPI_Datatype psync_handle_type(void);
#define MPI_ERR_WIN_COUNTER      (psync_err_win_counter())
#define MPI_HANDLE_SYNC          (psync_handle_type())

int MPI_Win_alloc_sync_objects(int n_sync, MPI_Sync *sync_counters,
                               MPI_Win win, MPI_Info info);
int MPI_Win_free_sync_objects(int n_sync, MPI_Sync *sync_counters,
                              MPI_Win win);
int MPI_Win_sync_ops_init(int target_rank, int sync_mode,
                          MPI_Sync sync_counter, MPI_Win win, MPI_Info info,
                          MPI_Request *req);
int MPI_Win_sync_object_init(MPI_Sync sync_counter, int count, MPI_Win win,
                             MPI_Info info, MPI_Request *req);
MPI_Sync MPI_Sync_counter_f2c(MPI_Fint sync_counter);
MPI_Fint MPI_Sync_counter_c2f(MPI_Sync sync_counter);

int psync_Win_create(void *base, MPI_Aint size, int disp_unit,
                     MPI_Info info, MPI_Comm comm, MPI_Win *win);
int psync_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                       MPI_Comm comm, void *baseptr, MPI_Win *win);
int psync_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
                              MPI_Comm comm, void *baseptr, MPI_Win *win);
int psync_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
int psync_Win_free(MPI_Win *win);
int psync_Start(MPI_Request *req);
int psync_Startall(int n, MPI_Request *reqs);
int psync_Wait(MPI_Request *req, MPI_Status *status);
int psync_Test(MPI_Request *req, int *flag, MPI_Status *status);
int psync_Waitall(int n, MPI_Request *reqs, MPI_Status *statuses);
int psync_Testall(int n, MPI_Request *reqs, int *flag,
                  MPI_Status *statuses);
int psync_Waitany(int n, MPI_Request *reqs, int *index, MPI_Status *status);
int psync_Testany(int n, MPI_Request *reqs, int *index, int *flag,
                  MPI_Status *status);
int psync_Waitsome(int n, MPI_Request *reqs, int *outcount, int *indices,
                   MPI_Status *statuses);
int psync_Testsome(int n, MPI_Request *reqs, int *outcount, int *indices,
                   MPI_Status *statuses);
int psync_Request_free(MPI_Request *req);
int psync_Cancel(MPI_Request *req);
int psync_Request_get_status(MPI_Request req, int *flag, MPI_Status *status);

int psync_Put(const void *, int, MPI_Datatype, int, MPI_Aint, int,
              MPI_Datatype, MPI_Win);
int psync_Rput(const void *, int, MPI_Datatype, int, MPI_Aint, int,
               MPI_Datatype, MPI_Win, MPI_Request *);
int psync_Get(void *, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype,
              MPI_Win);
int psync_Rget(void *, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype,
               MPI_Win, MPI_Request *);
int psync_Accumulate(const void *, int, MPI_Datatype, int, MPI_Aint, int,
                     MPI_Datatype, MPI_Op, MPI_Win);
int psync_Raccumulate(const void *, int, MPI_Datatype, int, MPI_Aint, int,
                      MPI_Datatype, MPI_Op, MPI_Win, MPI_Request *);
int psync_Get_accumulate(const void *, int, MPI_Datatype, void *, int,
                         MPI_Datatype, int, MPI_Aint, int, MPI_Datatype,
                         MPI_Op, MPI_Win);
int psync_Rget_accumulate(const void *, int, MPI_Datatype, void *, int,
                          MPI_Datatype, int, MPI_Aint, int, MPI_Datatype,
                          MPI_Op, MPI_Win, MPI_Request *);
int psync_Fetch_and_op(const void *, void *, MPI_Datatype, int, MPI_Aint,
                       MPI_Op, MPI_Win);
int psync_Compare_and_swap(const void *, const void *, void *, MPI_Datatype,
                           int, MPI_Aint, MPI_Win);
int psync_Win_fence(int assert, MPI_Win win);
int psync_Win_start(MPI_Group group, int assert, MPI_Win win);
int psync_Win_complete(MPI_Win win);
int psync_Win_lock(int lock_type, int rank, int assert, MPI_Win win);
int psync_Win_unlock(int rank, MPI_Win win);
int psync_Win_lock_all(int assert, MPI_Win win);
int psync_Win_unlock_all(MPI_Win win);
int psync_Error_class(int errorcode, int *errorclass);
int psync_Win_flush(int rank, MPI_Win win);
int psync_Win_flush_all(MPI_Win win);
int psync_Win_flush_local(int rank, MPI_Win win);
int psync_Win_flush_local_all(MPI_Win win);
int psync_Win_sync(MPI_Win win);
int psync_Win_post(MPI_Group group, int assert, MPI_Win win);
int psync_Win_wait(MPI_Win win);
int psync_Win_test(MPI_Win win, int *flag);
int psync_Win_get_group(MPI_Win win, MPI_Group *group);
int psync_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler);
int psync_Win_get_attr(MPI_Win win, int keyval, void *val, int *flag);
int psync_Win_attach(MPI_Win win, void *base, MPI_Aint size);
int psync_Win_detach(MPI_Win win, const void *base);
int psync_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
                           int *disp_unit, void *baseptr);
int MPI_Win_change_comm(MPI_Comm new_comm, int peer_rank, MPI_Win win);

#define MPI_Win_flush            psync_Win_flush
#define MPI_Win_flush_all        psync_Win_flush_all
#define MPI_Win_flush_local      psync_Win_flush_local
#define MPI_Win_flush_local_all  psync_Win_flush_local_all
#define MPI_Win_sync             psync_Win_sync
#define MPI_Win_post             psync_Win_post
#define MPI_Win_wait             psync_Win_wait
#define MPI_Win_test             psync_Win_test
#define MPI_Win_get_group        psync_Win_get_group
#define MPI_Win_set_errhandler   psync_Win_set_errhandler
#define MPI_Win_get_attr         psync_Win_get_attr
#define MPI_Win_attach           psync_Win_attach
#define MPI_Win_detach           psync_Win_detach
#define MPI_Win_shared_query     psync_Win_shared_query

#define MPI_Put                  psync_Put
#define MPI_Rput                 psync_Rput
#define MPI_Get                  psync_Get
#define MPI_Rget                 psync_Rget
#define MPI_Accumulate           psync_Accumulate
#define MPI_Raccumulate          psync_Raccumulate
#define MPI_Get_accumulate       psync_Get_accumulate
#define MPI_Rget_accumulate      psync_Rget_accumulate
#define MPI_Fetch_and_op         psync_Fetch_and_op
#define MPI_Compare_and_swap     psync_Compare_and_swap
#define MPI_Win_fence            psync_Win_fence
#define MPI_Win_start            psync_Win_start
#define MPI_Win_complete         psync_Win_complete
#define MPI_Win_lock             psync_Win_lock
#define MPI_Win_unlock           psync_Win_unlock
#define MPI_Win_lock_all         psync_Win_lock_all
#define MPI_Win_unlock_all       psync_Win_unlock_all
#define MPI_Error_class          psync_Error_class
#define MPI_Win_create           psync_Win_create
#define MPI_Win_allocate         psync_Win_allocate
#define MPI_Win_allocate_shared  psync_Win_allocate_shared
#define MPI_Win_create_dynamic   psync_Win_create_dynamic
#define MPI_Win_free             psync_Win_free
#define MPI_Start                psync_Start
#define MPI_Startall             psync_Startall
#define MPI_Wait                 psync_Wait
#define MPI_Test                 psync_Test
#define MPI_Waitall              psync_Waitall
#define MPI_Testall              psync_Testall
#define MPI_Waitany              psync_Waitany
#define MPI_Testany              psync_Testany
#define MPI_Waitsome             psync_Waitsome
#define MPI_Testsome             psync_Testsome
#define MPI_Request_free         psync_Request_free
#define MPI_Cancel               psync_Cancel
#define MPI_Request_get_status   psync_Request_get_status

#endif /* !SHMPI_SYNC_COUNTERS */
#endif
