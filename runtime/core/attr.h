/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * attr.h - keyvals and the attributes cached on objects (MPI-3.1 6.7,
 * 4.1.10), one module for communicators, datatypes and windows.
 *
 * A keyval is an int naming a (kind, copy callback, delete callback,
 * extra_state) record.  It is reference counted: the program's handle
 * counts one and every attribute stored under it counts one, so
 * MPI_*_free_keyval while attributes still use the keyval only makes the
 * number unusable for new calls; the callbacks keep working for the
 * attributes that remain.
 *
 * An object's attributes are a list in the order their keys were first
 * set on it.  Copying (at a dup) walks that order, oldest first;
 * deleting everything (at a free) walks it backwards, newest first: the
 * order MPI_Finalize must use on MPI_COMM_SELF (MPI-3.1 8.7.1), and as
 * good as any for the frees whose order the standard leaves open.
 *
 * The calling MPI function checks the keyval with shmpi_attr_keyval_check
 * before it hands it to shmpi_attr_set/get/delete.  Callback results are
 * passed back as they are: the caller raises them.
 *
 * Threads: the functions below may be called by several threads at once
 * (MPI_THREAD_MULTIPLE); they take the attr lock themselves, never
 * across a callback (attr.c says how).  The lists are passed by address
 * so that the head, too, is read under the lock.
 */
#ifndef SHMPI_ATTR_H
#define SHMPI_ATTR_H

#include "mpi.h"

enum shmpi_attr_kind { SHMPI_ATTR_COMM, SHMPI_ATTR_TYPE, SHMPI_ATTR_WIN };

union shmpi_attr_copy_fn {
    MPI_Comm_copy_attr_function *comm;
    MPI_Type_copy_attr_function *type;
    MPI_Win_copy_attr_function *win;
};

union shmpi_attr_delete_fn {
    MPI_Comm_delete_attr_function *comm;
    MPI_Type_delete_attr_function *type;
    MPI_Win_delete_attr_function *win;
};

/* Keyvals the program creates start here; the numbers below are left to
   the predefined attribute keys (MPI_TAG_UB, ..., MPI_WIN_MODEL). */
#define SHMPI_FIRST_USER_KEYVAL 64

/* A NULL callback behaves as the null copy / delete function.
   MPI_SUCCESS or MPI_ERR_NO_MEM. */
int shmpi_attr_keyval_create(enum shmpi_attr_kind kind,
                             union shmpi_attr_copy_fn copy,
                             union shmpi_attr_delete_fn del, void *extra_state,
                             int *keyval);
/* MPI_SUCCESS if keyval names a live keyval of this kind, else
   MPI_ERR_KEYVAL. */
int shmpi_attr_keyval_check(int keyval, enum shmpi_attr_kind kind);
/* Drops the program's handle and sets *keyval to MPI_KEYVAL_INVALID;
   MPI_ERR_KEYVAL if it was not a live keyval of this kind. */
int shmpi_attr_keyval_free(int *keyval, enum shmpi_attr_kind kind);

struct shmpi_attr;

/* `object` is the handle the callbacks receive (an MPI_Comm,
   MPI_Datatype or MPI_Win, matching the keyval's kind). */

/* Stores value under keyval; an existing value is first passed to the
   delete callback, and stays if that fails (its code is returned). */
int shmpi_attr_set(struct shmpi_attr **list, void *object, int keyval,
                   void *value);
/* 1 and *value if keyval is set on the object, else 0. */
int shmpi_attr_get(struct shmpi_attr *const *list, int keyval, void **value);
/* Runs the delete callback and removes the attribute (which stays if the
   callback fails).  A key that is not set is not an error. */
int shmpi_attr_delete(struct shmpi_attr **list, void *object, int keyval);
/* For a dup: each attribute of `from` (oldest first) goes through its
   copy callback with old_object, and is appended to *to when the
   callback sets its flag.  Stops at the first failing callback and
   returns its code (MPI_ERR_NO_MEM without memory for the walk); *to
   then holds what was copied so far, for the caller's delete_all.  *to
   is the new object's, which no other thread knows yet. */
int shmpi_attr_copy_all(struct shmpi_attr *const *from, void *old_object,
                        struct shmpi_attr **to);
/* Deletes every attribute (newest first), all of them even if some
   delete callbacks fail; returns the first failure, else MPI_SUCCESS. */
int shmpi_attr_delete_all(struct shmpi_attr **list, void *object);

#endif
