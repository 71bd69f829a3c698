/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * errcodes.c - the error classes, codes and strings a program adds and
 * takes back (abi.h): shmpi's added values are above its
 * MPI_ERR_LASTCODE, the ABI's above 0x3fff, and err_out/shmpi_abi_err_in
 * shift them each way.
 *
 * Strings: the ABI's MPI_MAX_ERROR_STRING is 512, shmpi's 256, so a
 * program may add a string of up to 511 characters where shmpi keeps
 * 255.  shmpi is given the first 255 (which its checks and its default
 * error handler's line use), and the layer keeps the whole string of
 * such a code on the list `longs` (under long_lock), which
 * MPI_Error_string answers from; a shorter string for the code, or its
 * removal, drops it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "abi/abi.h"

#define ABI_MAX_ERROR_STRING 512

struct long_string {
    int code;                   /* shmpi's */
    char *s;
    struct long_string *next;
};
static struct long_string *longs;
static pthread_mutex_t long_lock = PTHREAD_MUTEX_INITIALIZER;

/* The entry of code, s (NULL: none) in its place. */
static void long_set(int code, char *s)
{
    pthread_mutex_lock(&long_lock);
    struct long_string **p = &longs;
    while (*p && (*p)->code != code)
        p = &(*p)->next;
    if (*p && s) {
        free((*p)->s);
        (*p)->s = s;
        s = NULL;
    } else if (*p) {
        struct long_string *gone = *p;
        *p = gone->next;
        free(gone->s);
        free(gone);
    } else if (s) {
        struct long_string *n = malloc(sizeof *n);
        if (n) {
            *n = (struct long_string){ code, s, longs };
            longs = n;
            s = NULL;
        }
    }
    pthread_mutex_unlock(&long_lock);
    free(s);                    /* not kept: no memory for the entry */
}

/* Copies code's long string into out; 0 when it has none. */
static int long_get(int code, char *out, int *len)
{
    int found = 0;
    pthread_mutex_lock(&long_lock);
    for (struct long_string *l = longs; l && !found; l = l->next)
        if (l->code == code) {
            size_t n = strlen(l->s);
            memcpy(out, l->s, n + 1);
            *len = (int)n;
            found = 1;
        }
    pthread_mutex_unlock(&long_lock);
    return found;
}

ABI_FN(int, Add_error_class, (int *errorclass))
{
    int c = 0;
    int rc = PMPI_Add_error_class(errorclass ? &c : NULL);
    if (rc == MPI_SUCCESS)
        *errorclass = err_out(c);
    return err_out(rc);
}

ABI_FN(int, Add_error_code, (int errorclass, int *errorcode))
{
    int c = 0;
    int rc = PMPI_Add_error_code(shmpi_abi_err_in(errorclass),
                                 errorcode ? &c : NULL);
    if (rc == MPI_SUCCESS)
        *errorcode = err_out(c);
    return err_out(rc);
}

ABI_FN(int, Add_error_string, (int errorcode, const char *string))
{
    int c = shmpi_abi_err_in(errorcode);
    size_t n = string ? strnlen(string, ABI_MAX_ERROR_STRING) : 0;
    if (n < MPI_MAX_ERROR_STRING || n >= ABI_MAX_ERROR_STRING) {
        int rc = PMPI_Add_error_string(c, string); /* reports the bad */
        if (rc == MPI_SUCCESS)
            long_set(c, NULL);
        return err_out(rc);
    }
    char head[MPI_MAX_ERROR_STRING];
    memcpy(head, string, sizeof head - 1);
    head[sizeof head - 1] = '\0';
    int rc = PMPI_Add_error_string(c, head);
    if (rc != MPI_SUCCESS)
        return err_out(rc);
    char *whole = strdup(string);
    if (!whole)
        return err_out(PMPI_Comm_call_errhandler(MPI_COMM_WORLD,
                                                 MPI_ERR_NO_MEM));
    long_set(c, whole);
    return MPI_SUCCESS;
}

ABI_FN(int, Error_string, (int errorcode, char *string, int *resultlen))
{
    int c = shmpi_abi_err_in(errorcode);
    int rc = PMPI_Error_string(c, string, resultlen);
    if (rc == MPI_SUCCESS && c > MPI_ERR_LASTCODE)
        long_get(c, string, resultlen);
    return err_out(rc);
}

/* MPI_Remove_error_class, _code, _string: the long string goes too. */
#define ABI_REMOVE(name)                                                   \
    ABI_FN(int, name, (int e))                                             \
    {                                                                      \
        int c = shmpi_abi_err_in(e);                                       \
        int rc = PMPI_##name(c);                                           \
        if (rc == MPI_SUCCESS)                                             \
            long_set(c, NULL);                                             \
        return err_out(rc);                                                \
    }
ABI_REMOVE(Remove_error_class)
ABI_REMOVE(Remove_error_code)
ABI_REMOVE(Remove_error_string)
