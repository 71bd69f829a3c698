/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * error.h - how an MPI call reports a bad argument or a failure.
 *
 * Every public function checks its arguments and, on a problem, returns
 *     shmpi_raise(comm, MPI_ERR_xxx, "MPI_Foo", "what was wrong", ...);
 * which invokes the error handler of comm (MPI_COMM_WORLD's when the call
 * has no communicator, or the one given is invalid) and returns the code
 * for the function to return.  Under MPI_ERRORS_ARE_FATAL it prints one
 * line - rank, function, what was wrong, error class - and ends the job.
 */
#ifndef SHMPI_ERROR_H
#define SHMPI_ERROR_H

#include "mpi.h"

int shmpi_raise(MPI_Comm comm, int code, const char *fn, const char *fmt,
                ...) __attribute__((format(printf, 4, 5)));
/* The same through a session's handler (MPI-4.0 11.3: errors of the
   session calls go there; MPI_COMM_WORLD's if session is invalid), and
   through a handler given to a call that makes its object
   (MPI_Comm_create_from_group: the function of a communicator handler
   gets MPI_COMM_NULL; MPI_COMM_WORLD's when errhandler is no handler
   that such a call takes). */
int shmpi_raise_session(MPI_Session session, int code, const char *fn,
                        const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int shmpi_raise_handler(MPI_Errhandler errhandler, int code, const char *fn,
                        const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Print "rank R: fn: what (CLASS)" and end the job; used by the fatal
   handler and for calls made outside MPI_Init..MPI_Finalize. */
_Noreturn void shmpi_core_fatal(int code, const char *fn, const char *what);

/* Called first by every path that ends the process with a line of its
   own (shmpi_core_fatal, MPI_Abort, shmpi_core_not_the_rank): the first
   thread returns, any other one blocks until the first ends the process,
   so that two threads failing at once print one line and the process
   ends with the first one's status; core/error.c. */
void shmpi_core_die_once(void) __attribute__((cold));

/* "MPI_ERR_RANK" for a class or code; "MPI_ERR_UNKNOWN" if unknown. */
const char *shmpi_core_error_class_name(int code);

/* The highest error code or class in use (attribute MPI_LASTUSEDCODE). */
int shmpi_core_last_used_code(void);

/* Entry check of every function that needs MPI to be initialized. */
#define SHMPI_REQUIRE_INIT(fn)                                            \
    do {                                                                  \
        if (!atomic_load_explicit(&shmpi_proc.initialized,                \
                                  memory_order_acquire) ||                \
            atomic_load_explicit(&shmpi_proc.finalized,                   \
                                 memory_order_relaxed))                   \
            shmpi_core_not_initialized(fn);                                    \
    } while (0)

/* Says why MPI cannot be used here (before MPI_Init, after MPI_Finalize,
   in a fork() of a rank) and ends this process; core/proc.c. */
_Noreturn void shmpi_core_not_initialized(const char *fn) __attribute__((cold));

/* This process took itself for rank `rank`, which is process owner_pid:
   one line, and the end of this process, with nothing shared touched
   (the rank and the job go on); core/proc.c. */
_Noreturn void shmpi_core_not_the_rank(const char *fn, int rank,
                                       int owner_pid,
                                       const char *why) __attribute__((cold));

#endif
