/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * launch.h - start N ranks and supervise them until the job ends.
 *
 * Used by mpirun (runtime/launcher/mpirun.c) and by a program that starts
 * its own ranks (SHMPI_NP, runtime/init/init.c).  The job's ranks find
 * their place through the environment variables below.
 * runtime/launcher/README.md describes the design, the tunables and the
 * exit statuses in full.
 */
#ifndef SHMPI_LAUNCH_H
#define SHMPI_LAUNCH_H

/* The variables the launcher sets for every rank (SHMPI_ENV_RANK,
   SHMPI_ENV_SIZE, SHMPI_ENV_ARENA_FD) and the one the rank's own program
   sets at its start (SHMPI_ENV_RANK_PID, init/init.c: the first process
   in the rank's tree linked with shmpi; inherited by every program and
   child it starts, which are not the rank; removed from the environment
   the launcher gives the ranks) are declared with the tunables the
   launcher reads (MPIEXEC_TIMEOUT, SHMPI_KILL_GRACE_MS, and those that
   shape the arena). */
#include "core/tunables.h"

enum shmpi_bind { SHMPI_BIND_AUTO, SHMPI_BIND_CORE, SHMPI_BIND_NONE };

struct shmpi_launch_opts {
    int np;                  /* number of ranks; 0 = one per usable core */
    char **argv;             /* program (looked up in PATH) and arguments */
    enum shmpi_bind bind;    /* AUTO: core when np <= cores, else none */
    int report_bindings;     /* print one line per rank with its CPUs */
    int tag_output;          /* prefix every output line with [rank] */
    double timeout_s;        /* kill the job after this long; 0 = take
                                MPIEXEC_TIMEOUT if set, else never */
    char **exports;          /* "NAME=VALUE" set in every rank (the last
                                of one NAME wins; entries without '=' are
                                ignored); NULL-ended; may be NULL.  The
                                tunables are read from these first */
    const char *tool;        /* prefix of our messages, e.g. "mpirun";
                                NULL = "mpirun" */
};

/* Exit statuses besides a rank's own (README.md has the whole table). */
#define SHMPI_EXIT_LAUNCH_ERROR 1    /* could not set the job up */
#define SHMPI_EXIT_USAGE        2    /* bad option or environment value */
#define SHMPI_EXIT_CHECK        123  /* the job succeeded but the check
                                        mode reported problems (policy.c) */
#define SHMPI_EXIT_TIMEOUT      124  /* --timeout expired (as timeout(1)) */
#define SHMPI_EXIT_DEADLOCK     125  /* every rank blocked in MPI (deadlock.c) */
#define SHMPI_EXIT_NOEXEC       126  /* program found but not executable */
#define SHMPI_EXIT_NOTFOUND     127  /* program not found */

/*
 * Runs the whole job; returns the status the launcher should exit with.
 * Blocks SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE in the calling
 * thread while it runs (restoring the mask on return) and expects no
 * other thread to reap its children.
 */
int shmpi_ln_launch(const struct shmpi_launch_opts *opts);

#endif
