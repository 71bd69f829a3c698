/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trace.h - mpirun --trace FILE and --profile: the ranks run with
 * lib/libshmpi_trace.so preloaded (tools/trace), which leaves per-rank
 * files in a private directory (trace_file.h); after the job mpirun
 * merges them into FILE (Chrome trace-event JSON) and prints the profile
 * table, and removes the directory whatever became of the job.
 */
#ifndef SHMPI_LN_TRACE_H
#define SHMPI_LN_TRACE_H

struct shmpi_ln_trace {
    const char *tool;      /* prefix of our messages */
    const char *out;       /* --trace FILE, or NULL */
    void *file;            /* FILE, opened before the job (a FILE *) */
    int profile;           /* --profile */
    char *dir;             /* the private directory, or NULL */
    char *preload;         /* "LD_PRELOAD=..." for the ranks */
    char *dir_var;         /* "SHMPI_TRACE_DIR=..." for the ranks */
};

/* Checks that program (as given, looked up in PATH) can be wrapped - a
   program linked with libmpi.a cannot - finds the wrappers' library and
   makes the directory.  Returns 0, or the status to exit with after one
   line on stderr. */
int shmpi_ln_trace_begin(struct shmpi_ln_trace *t, const char *program);

/* After the job (np ranks; 0: as many as left files) that ended with
   status: writes t->out, prints the profile on stderr - unless no rank
   started (status 126, 127: the program could not be run) - removes
   the directory, frees t. */
void shmpi_ln_trace_end(struct shmpi_ln_trace *t, int np, int status);

#endif
