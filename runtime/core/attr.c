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
 *
 * Threads (MPI_THREAD_MULTIPLE): one lock, shmpi_proc.keyvals.lock (the
 * attr lock), guards the table, every keyval's count and every
 * attribute list of every object.  Attribute calls are rare and short,
 * so one lock for the family costs nothing a per-object lock would
 * save.  A copy or delete callback is never called with it held: a
 * callback may call MPI_Comm_get_attr, MPI_Comm_set_attr, even
 * MPI_Comm_free_keyval on the object or keyval it was called for, which
 * would take the lock again and deadlock.  So each path takes what the
 * callback needs (the keyval, with a reference that keeps it alive, and
 * the value) under the lock, leaves it, calls, and takes the lock again
 * to apply the result to whatever the list has become meanwhile (found
 * again by key: the callback, or another thread, may have changed it).
 */
#include <stdlib.h>

#include "core/attr.h"
#include "core/lock.h"
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
    struct shmpi_keyval *kv = malloc(sizeof *kv);
    if (!kv)
        return MPI_ERR_NO_MEM;
    *kv = (struct shmpi_keyval){.kind = kind, .refs = 1, .copy = copy,
                                .del = del, .extra_state = extra_state};
    shmpi_core_lock(&keyvals->lock);
    if (keyvals->used == keyvals->cap) {
        int cap = keyvals->cap ? 2 * keyvals->cap : 16;
        void *slot = realloc(keyvals->slot, cap * sizeof *keyvals->slot);
        if (!slot) {
            shmpi_core_unlock(&keyvals->lock);
            free(kv);
            return MPI_ERR_NO_MEM;
        }
        keyvals->slot = slot;
        keyvals->cap = cap;
    }
    kv->id = SHMPI_FIRST_USER_KEYVAL + keyvals->used;
    keyvals->slot[keyvals->used++] = kv;
    *keyval = kv->id;
    shmpi_core_unlock(&keyvals->lock);
    return MPI_SUCCESS;
}

/* With the attr lock held. */
static int keyval_live(int keyval, enum shmpi_attr_kind kind)
{
    const struct shmpi_keyval *kv = lookup(keyval);
    return kv && !kv->freed && kv->kind == kind;
}

int shmpi_attr_keyval_check(int keyval, enum shmpi_attr_kind kind)
{
    struct shmpi_core_lock *lock = &shmpi_proc.keyvals.lock;
    shmpi_core_lock(lock);
    int live = keyval_live(keyval, kind);
    shmpi_core_unlock(lock);
    return live ? MPI_SUCCESS : MPI_ERR_KEYVAL;
}

int shmpi_attr_keyval_free(int *keyval, enum shmpi_attr_kind kind)
{
    struct shmpi_core_lock *lock = &shmpi_proc.keyvals.lock;
    shmpi_core_lock(lock);
    int live = keyval_live(*keyval, kind);
    if (live) {
        struct shmpi_keyval *kv = lookup(*keyval);
        kv->freed = 1;
        keyval_release(kv);
    }
    shmpi_core_unlock(lock);
    if (!live)
        return MPI_ERR_KEYVAL;
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
    struct shmpi_core_lock *lock = &shmpi_proc.keyvals.lock;
    shmpi_core_lock(lock);
    struct shmpi_attr **link = find(list, keyval);
    if (*link) {
        struct shmpi_keyval *kv = (*link)->kv;
        void *old = (*link)->value;
        kv->refs++;  /* alive through the callback, lock left */
        shmpi_core_unlock(lock);
        int rc = call_delete(kv, object, old);
        shmpi_core_lock(lock);
        keyval_release(kv);
        if (rc != MPI_SUCCESS) {
            shmpi_core_unlock(lock);
            return rc;
        }
        link = find(list, keyval);  /* the callback may have changed it */
    }
    int rc = MPI_SUCCESS;
    if (*link) {
        (*link)->value = value;
    } else {
        struct shmpi_keyval *kv = lookup(keyval);
        rc = kv ? append(list, kv, value) : MPI_ERR_KEYVAL;
    }
    shmpi_core_unlock(lock);
    return rc;
}

int shmpi_attr_get(struct shmpi_attr *const *list, int keyval, void **value)
{
    struct shmpi_core_lock *lock = &shmpi_proc.keyvals.lock;
    int found = 0;
    shmpi_core_lock(lock);
    for (const struct shmpi_attr *a = *list; a && !found; a = a->next)
        if (a->kv->id == keyval) {
            *value = a->value;
            found = 1;
        }
    shmpi_core_unlock(lock);
    return found;
}

int shmpi_attr_delete(struct shmpi_attr **list, void *object, int keyval)
{
    struct shmpi_core_lock *lock = &shmpi_proc.keyvals.lock;
    shmpi_core_lock(lock);
    struct shmpi_attr **link = find(list, keyval);
    if (!*link) {
        shmpi_core_unlock(lock);
        return MPI_SUCCESS;
    }
    struct shmpi_keyval *kv = (*link)->kv;
    void *value = (*link)->value;
    kv->refs++;  /* alive through the callback, lock left */
    shmpi_core_unlock(lock);
    int rc = call_delete(kv, object, value);
    shmpi_core_lock(lock);
    /* the value deleted, unless the callback or another thread has set
       a new one meanwhile: that one stays */
    if (rc == MPI_SUCCESS && *(link = find(list, keyval)) &&
        (*link)->value == value)
        drop(link);
    keyval_release(kv);
    shmpi_core_unlock(lock);
    return rc;
}

/* An attribute as a callback needs it, taken under the lock. */
struct attr_copy {
    struct shmpi_keyval *kv;  /* holds a reference */
    void *value;
};

/* *from's attributes, oldest first, each keyval retained; *n of them.
   NULL (and *n = -1) without memory. */
static struct attr_copy *snapshot(struct shmpi_attr *const *from, int *n)
{
    struct shmpi_core_lock *lock = &shmpi_proc.keyvals.lock;
    shmpi_core_lock(lock);
    int count = 0;
    for (const struct shmpi_attr *a = *from; a; a = a->next)
        count++;
    struct attr_copy *snap = malloc((size_t)(count ? count : 1) * sizeof *snap);
    *n = snap ? count : -1;
    int i = 0;
    for (const struct shmpi_attr *a = *from; snap && a; a = a->next) {
        a->kv->refs++;
        snap[i++] = (struct attr_copy){a->kv, a->value};
    }
    shmpi_core_unlock(lock);
    return snap;
}

int shmpi_attr_copy_all(struct shmpi_attr *const *from, void *old_object,
                        struct shmpi_attr **to)
{
    int n;
    struct attr_copy *snap = snapshot(from, &n);
    if (!snap)
        return MPI_ERR_NO_MEM;
    struct shmpi_core_lock *lock = &shmpi_proc.keyvals.lock;
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        void *value = NULL;
        int flag;
        rc = call_copy(snap[i].kv, old_object, snap[i].value, &value, &flag);
        if (rc == MPI_SUCCESS && flag) {
            shmpi_core_lock(lock);
            rc = append(to, snap[i].kv, value);
            shmpi_core_unlock(lock);
        }
    }
    shmpi_core_lock(lock);
    for (int i = 0; i < n; i++)
        keyval_release(snap[i].kv);
    shmpi_core_unlock(lock);
    free(snap);
    return rc;
}

int shmpi_attr_delete_all(struct shmpi_attr **list, void *object)
{
    struct shmpi_core_lock *lock = &shmpi_proc.keyvals.lock;
    int first = MPI_SUCCESS;
    /* Detached first: a callback that queries the object finds no
       attributes rather than one half deleted.  Reversed, so that the
       newest goes first.  The detached nodes are this call's alone, but
       their keyvals' counts are shared: dropped under the lock. */
    shmpi_core_lock(lock);
    struct shmpi_attr *rest = NULL;
    for (struct shmpi_attr *a = *list, *next; a; a = next) {
        next = a->next;
        a->next = rest;
        rest = a;
    }
    *list = NULL;
    shmpi_core_unlock(lock);
    while (rest) {
        int rc = call_delete(rest->kv, object, rest->value);
        if (first == MPI_SUCCESS)
            first = rc;
        shmpi_core_lock(lock);
        drop(&rest);
        shmpi_core_unlock(lock);
    }
    return first;
}
