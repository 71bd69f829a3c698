/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * attr.c - keyvals and attribute lists (see attr.h).
 *
 * Keyval numbers are never reused: a number the program freed stays
 * invalid, so a stale copy of it is caught as MPI_ERR_KEYVAL instead of
 * silently naming somebody else's keyval.  The table costs one pointer
 * per keyval ever created.
 *
 * State: the keyval table is shmpi_proc.keyvals (core/proc.h); the
 * attribute lists hang off the objects they are cached on.
 */
#include <stdlib.h>

#include "core/attr.h"
#include "core/proc.h"

struct shmpi_keyval {
    enum shmpi_attr_kind kind;
    int refs;                 /* program's handle + attributes using it */
    int freed;                /* the program freed its handle */
    int id;
    union shmpi_attr_copy_fn copy;
    union shmpi_attr_delete_fn del;
    void *extra_state;
};

struct shmpi_attr {
    struct shmpi_attr *next;
    struct shmpi_keyval *kv;  /* holds a reference */
    void *value;
};

static struct shmpi_keyval *lookup(int keyval)
{
    const struct shmpi_keyval_table *keyvals = &shmpi_proc.keyvals;
    long i = (long)keyval - SHMPI_FIRST_USER_KEYVAL;
    return i >= 0 && i < keyvals->used ? keyvals->slot[i] : NULL;
}

static void keyval_release(struct shmpi_keyval *kv)
{
    struct shmpi_keyval_table *keyvals = &shmpi_proc.keyvals;
    if (--kv->refs > 0)
        return;
    keyvals->slot[kv->id - SHMPI_FIRST_USER_KEYVAL] = NULL;
    free(kv);
}

int shmpi_attr_keyval_create(enum shmpi_attr_kind kind,
                             union shmpi_attr_copy_fn copy,
                             union shmpi_attr_delete_fn del, void *extra_state,
                             int *keyval)
{
    struct shmpi_keyval_table *keyvals = &shmpi_proc.keyvals;
    if (keyvals->used == keyvals->cap) {
        int cap = keyvals->cap ? 2 * keyvals->cap : 16;
        void *slot = realloc(keyvals->slot, cap * sizeof *keyvals->slot);
        if (!slot)
            return MPI_ERR_NO_MEM;
        keyvals->slot = slot;
        keyvals->cap = cap;
    }
    struct shmpi_keyval *kv = malloc(sizeof *kv);
    if (!kv)
        return MPI_ERR_NO_MEM;
    *kv = (struct shmpi_keyval){
        .kind = kind, .refs = 1, .id = SHMPI_FIRST_USER_KEYVAL + keyvals->used,
        .copy = copy, .del = del, .extra_state = extra_state};
    keyvals->slot[keyvals->used++] = kv;
    *keyval = kv->id;
    return MPI_SUCCESS;
}

int shmpi_attr_keyval_check(int keyval, enum shmpi_attr_kind kind)
{
    const struct shmpi_keyval *kv = lookup(keyval);
    return kv && !kv->freed && kv->kind == kind ? MPI_SUCCESS
                                                : MPI_ERR_KEYVAL;
}

int shmpi_attr_keyval_free(int *keyval, enum shmpi_attr_kind kind)
{
    if (shmpi_attr_keyval_check(*keyval, kind) != MPI_SUCCESS)
        return MPI_ERR_KEYVAL;
    struct shmpi_keyval *kv = lookup(*keyval);
    kv->freed = 1;
    keyval_release(kv);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

/* The callbacks, called through the member of the keyval's kind. */
static int call_copy(const struct shmpi_keyval *kv, void *object, void *in,
                     void **out, int *flag)
{
    *flag = 0;
    switch (kv->kind) {
    case SHMPI_ATTR_COMM:
        return kv->copy.comm ? kv->copy.comm(object, kv->id, kv->extra_state,
                                             in, out, flag)
                             : MPI_SUCCESS;
    case SHMPI_ATTR_TYPE:
        return kv->copy.type ? kv->copy.type(object, kv->id, kv->extra_state,
                                             in, out, flag)
                             : MPI_SUCCESS;
    case SHMPI_ATTR_WIN:
        return kv->copy.win ? kv->copy.win(object, kv->id, kv->extra_state,
                                           in, out, flag)
                            : MPI_SUCCESS;
    }
    return MPI_ERR_INTERN;
}

static int call_delete(const struct shmpi_keyval *kv, void *object,
                       void *value)
{
    switch (kv->kind) {
    case SHMPI_ATTR_COMM:
        return kv->del.comm ? kv->del.comm(object, kv->id, value,
                                           kv->extra_state)
                            : MPI_SUCCESS;
    case SHMPI_ATTR_TYPE:
        return kv->del.type ? kv->del.type(object, kv->id, value,
                                           kv->extra_state)
                            : MPI_SUCCESS;
    case SHMPI_ATTR_WIN:
        return kv->del.win ? kv->del.win(object, kv->id, value,
                                         kv->extra_state)
                           : MPI_SUCCESS;
    }
    return MPI_ERR_INTERN;
}

/* The link that points at keyval's attribute, or at the list's end. */
static struct shmpi_attr **find(struct shmpi_attr **list, int keyval)
{
    while (*list && (*list)->kv->id != keyval)
        list = &(*list)->next;
    return list;
}

static int append(struct shmpi_attr **list, struct shmpi_keyval *kv,
                  void *value)
{
    struct shmpi_attr *a = malloc(sizeof *a);
    if (!a)
        return MPI_ERR_NO_MEM;
    *a = (struct shmpi_attr){.kv = kv, .value = value};
    kv->refs++;
    *find(list, kv->id) = a;
    return MPI_SUCCESS;
}

/* Unlinks and frees *link's attribute (its value already deleted). */
static void drop(struct shmpi_attr **link)
{
    struct shmpi_attr *a = *link;
    *link = a->next;
    keyval_release(a->kv);
    free(a);
}

int shmpi_attr_set(struct shmpi_attr **list, void *object, int keyval,
                   void *value)
{
    struct shmpi_attr **link = find(list, keyval);
    if (*link) {
        int rc = call_delete((*link)->kv, object, (*link)->value);
        if (rc != MPI_SUCCESS)
            return rc;
        link = find(list, keyval);  /* the callback may have changed it */
    }
    if (*link) {
        (*link)->value = value;
        return MPI_SUCCESS;
    }
    struct shmpi_keyval *kv = lookup(keyval);
    return kv ? append(list, kv, value) : MPI_ERR_KEYVAL;
}

int shmpi_attr_get(const struct shmpi_attr *list, int keyval, void **value)
{
    for (; list; list = list->next)
        if (list->kv->id == keyval) {
            *value = list->value;
            return 1;
        }
    return 0;
}

int shmpi_attr_delete(struct shmpi_attr **list, void *object, int keyval)
{
    struct shmpi_attr **link = find(list, keyval);
    if (!*link)
        return MPI_SUCCESS;
    int rc = call_delete((*link)->kv, object, (*link)->value);
    if (rc == MPI_SUCCESS && *(link = find(list, keyval)))
        drop(link);
    return rc;
}

int shmpi_attr_copy_all(const struct shmpi_attr *from, void *old_object,
                        struct shmpi_attr **to)
{
    for (; from; from = from->next) {
        void *value = NULL;
        int flag;
        int rc = call_copy(from->kv, old_object, from->value, &value, &flag);
        if (rc == MPI_SUCCESS && flag)
            rc = append(to, from->kv, value);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int shmpi_attr_delete_all(struct shmpi_attr **list, void *object)
{
    int first = MPI_SUCCESS;
    /* Detached first: a callback that queries the object finds no
       attributes rather than one half deleted.  Reversed, so that the
       newest goes first. */
    struct shmpi_attr *rest = NULL;
    for (struct shmpi_attr *a = *list, *next; a; a = next) {
        next = a->next;
        a->next = rest;
        rest = a;
    }
    *list = NULL;
    while (rest) {
        int rc = call_delete(rest->kv, object, rest->value);
        if (first == MPI_SUCCESS)
            first = rc;
        drop(&rest);
    }
    return first;
}
