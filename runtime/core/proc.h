/*
 * proc.h - the state of this rank: one explicit structure, not scattered
 * globals, so that per-thread or per-session state can later be split off
 * without hunting for it.
 */
#ifndef SHMPI_PROC_H
#define SHMPI_PROC_H

#include <pthread.h>

#include "core/fint.h"
#include "core/tunables.h"
#include "mpi.h"
#include "shm_arena/arena.h"

struct shmpi_nbc;

struct shmpi_proc {
    int rank;                  /* in MPI_COMM_WORLD */
    int size;
    int initialized;           /* MPI_Init returned */
    int finalized;             /* MPI_Finalize returned */
    int thread_level;          /* what MPI_Init_thread provided */
    pthread_t main_thread;     /* the thread that called MPI_Init */
    int oversubscribed;        /* more ranks than CPUs: spin less */
    int singleton;             /* no launcher: we made our own arena */
    int forked_from;           /* a fork() of rank pid forked_from, which
                                  is not a rank (init/init.c); 0 */
    int arena_fd;
    struct shmpi_arena_header *arena;
    struct shmpi_rank_slot *slot;  /* this rank's slot in the arena */
    struct shmpi_pt2pt *pt2pt;     /* queues, matching (pt2pt/pt2pt.h) */
    struct shmpi_nbc *nbc_active;  /* schedules running (coll/sched.h) */
    uint64_t progress_events;      /* things progress moved, ever; waiters
                                      keep spinning while it grows */
    struct shmpi_fint_table fint[SHMPI_FINT_KINDS]; /* Fortran integers
                                      of handles (core/fint.h) */
    struct shmpi_tun_set tun;      /* the tunables in effect (read at
                                      MPI_Init; core/tunables.h) */
    MPI_Datatype *f90_types;       /* MPI_Type_create_f90_* made so far */
    int nf90_types;                /* (datatypes/f90.c) */
};

extern struct shmpi_proc shmpi_proc;

#endif
