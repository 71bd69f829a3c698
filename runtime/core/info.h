/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * info.h - info objects inside the library (MPI-3.1 9): how a room that
 * takes hints (windows, communicators, memory) reads them, and how it
 * builds the info object its get_info call hands back.
 *
 * Functions taking an MPI_Info accept MPI_INFO_NULL as "no hints"; the
 * caller has checked that info is MPI_INFO_NULL or shmpi_info_ok().
 * Keys and values given to shmpi_info_set are the caller's own strings,
 * within MPI_MAX_INFO_KEY - 1 and MPI_MAX_INFO_VAL - 1 characters.
 */
#ifndef SHMPI_INFO_H
#define SHMPI_INFO_H

#include "core/objects.h"

/* A new empty info object, or NULL if out of memory. */
struct shmpi_info *shmpi_info_new(void);

/* Frees an info object made by shmpi_info_new (never MPI_INFO_ENV). */
void shmpi_info_destroy(struct shmpi_info *info);

/* Sets key to value, replacing an earlier value in place (the key keeps
   its position); takes info's lock.  MPI_SUCCESS, or MPI_ERR_NO_MEM (not
   raised; info is unchanged). */
int shmpi_info_set(struct shmpi_info *info, const char *key,
                   const char *value);

/* The value of key, or NULL if it is not set (or info is MPI_INFO_NULL).
   Valid until the key is set again or deleted: a room reads the hints
   of an info object the program passed to the call running, which the
   program may not change from another thread meanwhile. */
const char *shmpi_info_get(MPI_Info info, const char *key);

/* A boolean hint: 1 for "true", 0 for "false" (the spellings 9 requires
   every implementation to understand); dflt when the key is not set or
   holds anything else, since an unrecognized value is ignored like an
   unrecognized key. */
int shmpi_info_get_bool(MPI_Info info, const char *key, int dflt);

/* info_env.c: fills MPI_INFO_ENV (MPI_Init; requested is the thread level
   the program asked for).  MPI_SUCCESS or MPI_ERR_NO_MEM. */
int shmpi_info_env_init(int requested);

#endif
