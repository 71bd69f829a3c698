/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * info.c - info objects (MPI-3.1 9): MPI_Info_create, _set, _get,
 * _get_valuelen, _get_nkeys, _get_nthkey, _delete, _dup and _free; and
 * MPI-4.0's MPI_Info_get_string.
 *
 * An info object is a small array of (key, value) pairs, each string
 * allocated on its own, in the order the keys were first set: that is
 * the numbering MPI_Info_get_nthkey uses, and MPI_Info_dup keeps it.
 * Setting a key again replaces its value where it stands; deleting one
 * closes the gap.
 *
 * Keys and values are taken as the C program gives them.  The standard
 * strips leading and trailing spaces only in Fortran; Open MPI and MPICH
 * keep them in C, so " a" and "a" are two keys here too, and a program
 * that works with shmpi works the same when rebuilt with either.
 * Keys are 1 to shmpi_info_key_max characters, MPI_MAX_INFO_KEY - 1
 * (both implementations reject an empty key); values are 0 to
 * MPI_MAX_INFO_VAL - 1 characters.
 *
 * Errors are raised on MPI_COMM_WORLD: an info object belongs to no
 * communicator (8.3).
 *
 * Threads (MPI_THREAD_MULTIPLE): each object has its lock, taken by
 * every call that reads or changes its entries, so threads may share an
 * info object, reading it and setting keys at once; a value is copied
 * out under the lock.  MPI_Info_dup holds the source's lock while it
 * fills the copy, which no other thread can know yet.  Freeing an
 * object that another thread still uses is the program's error, as for
 * every handle.  Errors are raised with no lock held.
 */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/fint.h"
#include "core/info.h"
#include "core/lock.h"
#include "core/pmpi.h"
#include "core/proc.h"

SHMPI_WEAK_ALIAS(Info_create)
SHMPI_WEAK_ALIAS(Info_set)
SHMPI_WEAK_ALIAS(Info_delete)
SHMPI_WEAK_ALIAS(Info_get)
SHMPI_WEAK_ALIAS(Info_get_valuelen)
SHMPI_WEAK_ALIAS(Info_get_string)
SHMPI_WEAK_ALIAS(Info_get_nkeys)
SHMPI_WEAK_ALIAS(Info_get_nthkey)
SHMPI_WEAK_ALIAS(Info_dup)
SHMPI_WEAK_ALIAS(Info_free)

struct shmpi_info_entry {
    char *key;
    char *value;
};

/* ------------------------------------------------------------------ */
/* The object (info.h)                                                 */
/* ------------------------------------------------------------------ */

struct shmpi_info *shmpi_info_new(void)
{
    struct shmpi_info *info = calloc(1, sizeof *info);
    if (info)
        info->magic = SHMPI_MAGIC_INFO;
    return info;
}

void shmpi_info_destroy(struct shmpi_info *info)
{
    for (int i = 0; i < info->n; i++) {
        free(info->entries[i].key);
        free(info->entries[i].value);
    }
    free(info->entries);
    shmpi_fint_drop(SHMPI_FINT_INFO, &info->fint);
    info->magic = 0;
    free(info);
}

static struct shmpi_info_entry *find(MPI_Info info, const char *key)
{
    for (int i = 0; info && i < info->n; i++)
        if (strcmp(info->entries[i].key, key) == 0)
            return &info->entries[i];
    return NULL;
}

static int grow(struct shmpi_info *info)
{
    int cap = info->cap ? 2 * info->cap : 8;
    struct shmpi_info_entry *e =
        realloc(info->entries, (size_t)cap * sizeof *e);
    if (!e)
        return MPI_ERR_NO_MEM;
    info->entries = e;
    info->cap = cap;
    return MPI_SUCCESS;
}

/* shmpi_info_set with info's lock held (or info private). */
static int set_entry(struct shmpi_info *info, const char *key,
                     const char *value)
{
    char *v = strdup(value);
    if (!v)
        return MPI_ERR_NO_MEM;
    struct shmpi_info_entry *e = find(info, key);
    if (e) {
        free(e->value);
        e->value = v;
        return MPI_SUCCESS;
    }
    char *k = NULL;
    if ((info->n == info->cap && grow(info) != MPI_SUCCESS) ||
        !(k = strdup(key))) {
        free(v);
        return MPI_ERR_NO_MEM;
    }
    info->entries[info->n++] = (struct shmpi_info_entry){k, v};
    return MPI_SUCCESS;
}

int shmpi_info_set(struct shmpi_info *info, const char *key,
                   const char *value)
{
    shmpi_core_lock(&info->lock);
    int rc = set_entry(info, key, value);
    shmpi_core_unlock(&info->lock);
    return rc;
}

const char *shmpi_info_get(MPI_Info info, const char *key)
{
    if (info == MPI_INFO_NULL)
        return NULL;
    shmpi_core_lock(&info->lock);
    struct shmpi_info_entry *e = find(info, key);
    const char *v = e ? e->value : NULL;
    shmpi_core_unlock(&info->lock);
    return v;
}

int shmpi_info_get_bool(MPI_Info info, const char *key, int dflt)
{
    const char *v = shmpi_info_get(info, key);
    if (v && strcmp(v, "true") == 0)
        return 1;
    if (v && strcmp(v, "false") == 0)
        return 0;
    return dflt;
}

/* ------------------------------------------------------------------ */
/* Argument checks                                                     */
/* ------------------------------------------------------------------ */

static int check_info(MPI_Info info, const char *fn)
{
    if (shmpi_info_ok(info))
        return MPI_SUCCESS;
    return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_INFO, fn, "info is %s",
                       info == MPI_INFO_NULL ? "MPI_INFO_NULL"
                                             : "not a valid info object");
}

/* The longest key, MPI_MAX_INFO_KEY - 1 of mpi.h.  Weak: the library of
   the standard ABI (abi/info.c), whose header's MPI_MAX_INFO_KEY is one
   more, defines its own, which its link (Makefile) takes in place of
   this one; not const, so that no call folds this value in. */
__attribute__((weak)) int shmpi_info_key_max = MPI_MAX_INFO_KEY - 1;

/* A key is 1 to shmpi_info_key_max characters, for every call: one
   that could never have been set is an error even where it is only
   looked up (the standard calls a longer key erroneous). */
static int check_info_key(MPI_Info info, const char *key, const char *fn)
{
    int rc = check_info(info, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!key)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, fn,
                           "key is NULL");
    if (!*key)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, fn,
                           "key is the empty string");
    size_t max = (size_t)shmpi_info_key_max;
    if (strnlen(key, max + 1) > max)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, fn,
                           "key \"%.32s...\" is longer than "
                           "MPI_MAX_INFO_KEY - 1 = %zu characters",
                           key, max);
    return MPI_SUCCESS;
}

static int no_mem(const char *fn)
{
    return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                       "no memory for an info object");
}

/* ------------------------------------------------------------------ */
/* Creating, setting, deleting                                         */
/* ------------------------------------------------------------------ */

/* MPI-4.0 11.4.1: the info calls work before MPI_Init and after
   MPI_Finalize, so that a program can build the hints of
   MPI_Session_init; they need nothing of the runtime.  A fork() of a
   rank is still refused. */
#define INFO_ENTRY(fn)                                                    \
    do {                                                                  \
        if (shmpi_proc.forked_from)                                       \
            shmpi_core_not_initialized(fn);                               \
    } while (0)

int PMPI_Info_create(MPI_Info *info)
{
    static const char fn[] = "MPI_Info_create";
    INFO_ENTRY(fn);
    if (!info)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "info is NULL");
    struct shmpi_info *i = shmpi_info_new();
    if (!i)
        return no_mem(fn);
    *info = i;
    return MPI_SUCCESS;
}

int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    static const char fn[] = "MPI_Info_set";
    INFO_ENTRY(fn);
    int rc = check_info_key(info, key, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!value)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE, fn,
                           "the value of \"%s\" is NULL", key);
    if (strnlen(value, MPI_MAX_INFO_VAL) == MPI_MAX_INFO_VAL)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE, fn,
                           "the value of \"%s\" is longer than "
                           "MPI_MAX_INFO_VAL - 1 = %d characters",
                           key, MPI_MAX_INFO_VAL - 1);
    if (shmpi_info_set(info, key, value) != MPI_SUCCESS)
        return no_mem(fn);
    return MPI_SUCCESS;
}

int PMPI_Info_delete(MPI_Info info, const char *key)
{
    static const char fn[] = "MPI_Info_delete";
    INFO_ENTRY(fn);
    int rc = check_info_key(info, key, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_core_lock(&info->lock);
    struct shmpi_info_entry *e = find(info, key);
    if (e) {
        free(e->key);
        free(e->value);
        struct shmpi_info_entry *end = info->entries + info->n;
        memmove(e, e + 1, (size_t)(end - (e + 1)) * sizeof *e);
        info->n--;
    }
    shmpi_core_unlock(&info->lock);
    if (!e)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_INFO_NOKEY, fn,
                           "key \"%s\" is not set", key);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */
/* ------------------------------------------------------------------ */

/* valuelen counts the characters value has room for, its terminating
   NUL not included (9): a longer value is truncated to valuelen
   characters, and *flag is still true. */
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen,
                  char *value, int *flag)
{
    static const char fn[] = "MPI_Info_get";
    INFO_ENTRY(fn);
    int rc = check_info_key(info, key, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (valuelen < 0)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "valuelen %d is negative", valuelen);
    if (!value || !flag)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "%s is NULL",
                           value ? "flag" : "value");
    shmpi_core_lock(&info->lock);
    struct shmpi_info_entry *e = find(info, key);
    *flag = e != NULL;
    if (e) {
        size_t n = strnlen(e->value, (size_t)valuelen);
        memcpy(value, e->value, n);
        value[n] = '\0';
    }
    shmpi_core_unlock(&info->lock);
    return MPI_SUCCESS;
}

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
                           int *flag)
{
    static const char fn[] = "MPI_Info_get_valuelen";
    INFO_ENTRY(fn);
    int rc = check_info_key(info, key, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!valuelen || !flag)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "%s is NULL",
                           valuelen ? "flag" : "valuelen");
    shmpi_core_lock(&info->lock);
    struct shmpi_info_entry *e = find(info, key);
    *flag = e != NULL;
    if (e)
        *valuelen = (int)strlen(e->value);
    shmpi_core_unlock(&info->lock);
    return MPI_SUCCESS;
}

/* MPI-4.0 10.4: *buflen is the size of value,
   NUL included, on entry, and the size the whole value needs on return;
   a value that does not fit is cut to *buflen - 1 characters, still
   NUL-terminated; *buflen 0 leaves value alone (it may be NULL then).
   A key that is not set leaves value and *buflen as they were. */
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen,
                         char *value, int *flag)
{
    static const char fn[] = "MPI_Info_get_string";
    INFO_ENTRY(fn);
    int rc = check_info_key(info, key, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!buflen || !flag)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "%s is NULL",
                           buflen ? "flag" : "buflen");
    if (*buflen < 0)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "*buflen %d is negative", *buflen);
    if (*buflen > 0 && !value)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "value is NULL, and *buflen is %d", *buflen);
    shmpi_core_lock(&info->lock);
    struct shmpi_info_entry *e = find(info, key);
    *flag = e != NULL;
    if (e) {
        size_t len = strlen(e->value);
        if (*buflen > 0) {
            size_t n = len < (size_t)*buflen ? len : (size_t)*buflen - 1;
            memcpy(value, e->value, n);
            value[n] = '\0';
        }
        *buflen = (int)len + 1;
    }
    shmpi_core_unlock(&info->lock);
    return MPI_SUCCESS;
}

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    static const char fn[] = "MPI_Info_get_nkeys";
    INFO_ENTRY(fn);
    int rc = check_info(info, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!nkeys)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "nkeys is NULL");
    shmpi_core_lock(&info->lock);
    *nkeys = info->n;
    shmpi_core_unlock(&info->lock);
    return MPI_SUCCESS;
}

/* key must have room for shmpi_info_key_max + 1 characters, NUL
   included: MPI_MAX_INFO_KEY of the program's header. */
int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    static const char fn[] = "MPI_Info_get_nthkey";
    INFO_ENTRY(fn);
    int rc = check_info(info, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!key)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "key is NULL");
    shmpi_core_lock(&info->lock);
    int nkeys = info->n;
    if (n >= 0 && n < nkeys)
        strcpy(key, info->entries[n].key);
    shmpi_core_unlock(&info->lock);
    if (n < 0 || n >= nkeys)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "n = %d, but the info object has %d key%s", n,
                           nkeys, nkeys == 1 ? "" : "s");
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Duplicating and freeing                                             */
/* ------------------------------------------------------------------ */

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    static const char fn[] = "MPI_Info_dup";
    INFO_ENTRY(fn);
    int rc = check_info(info, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!newinfo)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "newinfo is NULL");
    struct shmpi_info *copy = shmpi_info_new();
    shmpi_core_lock(&info->lock);
    for (int i = 0; copy && i < info->n; i++) {
        if (set_entry(copy, info->entries[i].key, info->entries[i].value) !=
            MPI_SUCCESS) {
            shmpi_info_destroy(copy);
            copy = NULL;
        }
    }
    shmpi_core_unlock(&info->lock);
    if (!copy)
        return no_mem(fn);
    *newinfo = copy;
    return MPI_SUCCESS;
}

int PMPI_Info_free(MPI_Info *info)
{
    static const char fn[] = "MPI_Info_free";
    INFO_ENTRY(fn);
    if (!info)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "info is NULL");
    int rc = check_info(*info, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((*info)->predefined)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_INFO, fn,
                           "MPI_INFO_ENV is predefined and cannot be freed");
    shmpi_info_destroy(*info);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
