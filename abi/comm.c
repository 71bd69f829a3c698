/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm.c - the ABI's communicator functions and the error handlers of
 * communicators, windows and sessions (abi.h).
 *
 * An error handler of the program's expects the ABI's communicator
 * (window, session) and error code: shmpi is given one trampoline for all of a
 * kind, which asks shmpi for the object's error handler and finds the
 * program's function in `handlers`, keyed by shmpi's object.  A key is never
 * removed: MPI_Errhandler_free leaves the object alive while a
 * communicator still uses it, and an address shmpi reuses for a new
 * handler overwrites its entry at the create.  `handlers` is read and
 * written under eh_lock.
 */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>

#include "abi/abi.h"

ABI_FN(int, Comm_size, (abi_Comm comm, int *size))
{
    return PMPI_Comm_size(comm_in(comm), size);
}

ABI_FN(int, Comm_rank, (abi_Comm comm, int *rank))
{
    return PMPI_Comm_rank(comm_in(comm), rank);
}

ABI_FN(int, Comm_dup, (abi_Comm comm, abi_Comm *newcomm))
{
    MPI_Comm c;
    int rc = PMPI_Comm_dup(comm_in(comm), newcomm ? &c : NULL);
    if (rc == MPI_SUCCESS)
        *newcomm = ABI_OUT(abi_Comm, c, COMM);
    return rc;
}

ABI_FN(int, Comm_split, (abi_Comm comm, int color, int key,
                         abi_Comm *newcomm))
{
    MPI_Comm c;
    int rc = PMPI_Comm_split(comm_in(comm), color, key, newcomm ? &c : NULL);
    if (rc == MPI_SUCCESS)
        *newcomm = ABI_OUT(abi_Comm, c, COMM);
    return rc;
}

ABI_FN(int, Comm_compare, (abi_Comm comm1, abi_Comm comm2, int *result))
{
    return PMPI_Comm_compare(comm_in(comm1), comm_in(comm2), result);
}

ABI_FN(int, Comm_free, (abi_Comm *comm))
{
    MPI_Comm c = comm ? comm_in(*comm) : NULL;
    int rc = PMPI_Comm_free(comm ? &c : NULL);
    if (comm)
        *comm = ABI_OUT(abi_Comm, c, COMM);
    return rc;
}

/* ---- error handlers ---- */
/* The program's function, of its kind's type. */
typedef void abi_errhandler_fn(void);

struct handler {
    MPI_Errhandler eh;
    abi_errhandler_fn *fn;
    struct handler *next;
};
static struct handler *handlers;
static pthread_mutex_t eh_lock = PTHREAD_MUTEX_INITIALIZER;

static abi_errhandler_fn *handler_of(MPI_Errhandler eh)
{
    abi_errhandler_fn *fn = NULL;
    pthread_mutex_lock(&eh_lock);
    for (struct handler *h = handlers; h && !fn; h = h->next)
        if (h->eh == eh)
            fn = h->fn;
    pthread_mutex_unlock(&eh_lock);
    return fn;
}

/* The trampoline of a kind of object: shmpi's type mtype, the ABI's
   atype, handles translated as KIND. */
#define ABI_EH_TRAMPOLINE(Kind, mtype, atype, KIND)                        \
    static void Kind##_trampoline(mtype *obj, int *code, ...)              \
    {                                                                      \
        MPI_Errhandler eh;                                                 \
        if (PMPI_##Kind##_get_errhandler(*obj, &eh) != MPI_SUCCESS)        \
            return;                                                        \
        abi_errhandler_fn *fn = handler_of(eh);                            \
        PMPI_Errhandler_free(&eh);                                         \
        if (!fn)                                                           \
            return;                                                        \
        atype o = ABI_OUT(atype, *obj, KIND);                              \
        int e = *code;                                                     \
        ((void (*)(atype *, int *, ...))fn)(&o, &e);                       \
    }
ABI_EH_TRAMPOLINE(Comm, MPI_Comm, abi_Comm, COMM)
ABI_EH_TRAMPOLINE(Win, MPI_Win, abi_Win, WIN)
ABI_EH_TRAMPOLINE(Session, MPI_Session, abi_Session, SESSION)

static int remember(MPI_Errhandler eh, abi_errhandler_fn *fn)
{
    pthread_mutex_lock(&eh_lock);
    struct handler *h = handlers;
    while (h && h->eh != eh)
        h = h->next;
    if (!h && (h = malloc(sizeof *h)) != NULL) {
        h->eh = eh;
        h->next = handlers;
        handlers = h;
    }
    if (h)
        h->fn = fn;
    pthread_mutex_unlock(&eh_lock);
    return h ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* MPI_Comm_, MPI_Win_ and MPI_Session_create_errhandler. */
#define ABI_CREATE_EH(Kind)                                                \
    ABI_FN(int, Kind##_create_errhandler, (abi_errhandler_fn *fn,          \
                                           abi_Errhandler *errhandler))    \
    {                                                                      \
        if (!fn || !errhandler)     /* shmpi reports these */              \
            return PMPI_##Kind##_create_errhandler(NULL, NULL);            \
        MPI_Errhandler eh;                                                 \
        int rc = PMPI_##Kind##_create_errhandler(Kind##_trampoline, &eh);  \
        if (rc == MPI_SUCCESS &&                                           \
            remember(eh, fn) != MPI_SUCCESS) {                             \
            PMPI_Errhandler_free(&eh);                                     \
            rc = PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);\
        }                                                                  \
        MADE(rc, errhandler, eh, abi_Errhandler, ERRHANDLER);              \
        return rc;                                                         \
    }
ABI_CREATE_EH(Comm)
ABI_CREATE_EH(Win)
ABI_CREATE_EH(Session)

/* MPI_<Kind>_set_errhandler, _get_errhandler and _call_errhandler, on
   an object translated by in. */
#define ABI_EH_ACCESS(Kind, atype, in)                                     \
    ABI_FN(int, Kind##_set_errhandler, (atype obj,                         \
                                        abi_Errhandler errhandler))        \
    {                                                                      \
        return PMPI_##Kind##_set_errhandler(in(obj),                       \
                                            eh_in(errhandler));            \
    }                                                                      \
    ABI_FN(int, Kind##_get_errhandler, (atype obj,                         \
                                        abi_Errhandler *errhandler))       \
    {                                                                      \
        MPI_Errhandler eh;                                                 \
        int rc = PMPI_##Kind##_get_errhandler(in(obj),                     \
                                              errhandler ? &eh : NULL);    \
        MADE(rc, errhandler, eh, abi_Errhandler, ERRHANDLER);              \
        return rc;                                                         \
    }                                                                      \
    ABI_FN(int, Kind##_call_errhandler, (atype obj, int errorcode))        \
    {                                                                      \
        return PMPI_##Kind##_call_errhandler(in(obj), errorcode);          \
    }
ABI_EH_ACCESS(Comm, abi_Comm, comm_in)
ABI_EH_ACCESS(Win, abi_Win, win_in)
ABI_EH_ACCESS(Session, abi_Session, session_in)

ABI_FN(int, Errhandler_free, (abi_Errhandler *errhandler))
{
    MPI_Errhandler eh = errhandler ? eh_in(*errhandler) : NULL;
    int rc = PMPI_Errhandler_free(errhandler ? &eh : NULL);
    if (errhandler)
        *errhandler = ABI_OUT(abi_Errhandler, eh, ERRHANDLER);
    return rc;
}

ABI_FN(int, Error_class, (int errorcode, int *errorclass))
{
    return PMPI_Error_class(errorcode, errorclass);
}

/* ---- the other communicator calls ---- */

/* MPI_Comm_split_type's kinds: the ABI's 221 .. 223; MPI_UNDEFINED is
   the same in both; any other value, MPI_COMM_TYPE_RESOURCE_GUIDED (224)
   among them, becomes one shmpi rejects. */
static int split_type_in(int t)
{
    switch (t) {
    case 221: return MPI_COMM_TYPE_SHARED;
    case 222: return MPI_COMM_TYPE_HW_UNGUIDED;
    case 223: return MPI_COMM_TYPE_HW_GUIDED;
    case MPI_UNDEFINED: return MPI_UNDEFINED;
    default:  return INT_MIN;
    }
}

ABI_FN(int, Comm_split_type, (abi_Comm comm, int split_type, int key,
                              abi_Info info, abi_Comm *newcomm))
{
    MPI_Comm c;
    int rc = PMPI_Comm_split_type(comm_in(comm), split_type_in(split_type),
                                  key, info_in(info), newcomm ? &c : NULL);
    MADE(rc, newcomm, c, abi_Comm, COMM);
    return rc;
}

ABI_FN(int, Comm_dup_with_info, (abi_Comm comm, abi_Info info,
                                 abi_Comm *newcomm))
{
    MPI_Comm c;
    int rc = PMPI_Comm_dup_with_info(comm_in(comm), info_in(info),
                                     newcomm ? &c : NULL);
    MADE(rc, newcomm, c, abi_Comm, COMM);
    return rc;
}

/* MPI_Comm_idup: shmpi stores the new communicator in *newcomm when the
   request completes (6.4.2), after this call has returned, so it is
   given the program's *newcomm to store into.  That needs no
   translation: a communicator the library made is its own pointer in
   both ABIs, and a duplicate is never predefined.  Only when the
   duplicate cannot be opened at the completion (the request's error)
   does shmpi store its own MPI_COMM_NULL, a null pointer, where the
   ABI's is 0x100: the standard does not say what *newcomm holds then;
   any call given it reports MPI_ERR_COMM. */
_Static_assert(sizeof(abi_Comm) == sizeof(MPI_Comm), "the same pointer");

ABI_FN(int, Comm_idup, (abi_Comm comm, abi_Comm *newcomm,
                        abi_Request *request))
{
    return PMPI_Comm_idup(comm_in(comm), (MPI_Comm *)(void *)newcomm,
                          reqp_in(request));
}

ABI_FN(int, Comm_idup_with_info, (abi_Comm comm, abi_Info info,
                                  abi_Comm *newcomm, abi_Request *request))
{
    return PMPI_Comm_idup_with_info(comm_in(comm), info_in(info),
                                    (MPI_Comm *)(void *)newcomm,
                                    reqp_in(request));
}

ABI_FN(int, Comm_set_info, (abi_Comm comm, abi_Info info))
{
    return PMPI_Comm_set_info(comm_in(comm), info_in(info));
}

ABI_FN(int, Comm_get_info, (abi_Comm comm, abi_Info *info_used))
{
    MPI_Info in;
    int rc = PMPI_Comm_get_info(comm_in(comm), info_used ? &in : NULL);
    MADE(rc, info_used, in, abi_Info, INFO);
    return rc;
}

ABI_FN(int, Comm_set_name, (abi_Comm comm, const char *comm_name))
{
    return PMPI_Comm_set_name(comm_in(comm), comm_name);
}

ABI_FN(int, Comm_get_name, (abi_Comm comm, char *comm_name,
                            int *resultlen))
{
    return PMPI_Comm_get_name(comm_in(comm), comm_name, resultlen);
}

ABI_FN(int, Comm_test_inter, (abi_Comm comm, int *flag))
{
    return PMPI_Comm_test_inter(comm_in(comm), flag);
}

ABI_FN(int, Comm_remote_size, (abi_Comm comm, int *size))
{
    return PMPI_Comm_remote_size(comm_in(comm), size);
}

ABI_FN(int, Intercomm_create, (abi_Comm local_comm, int local_leader,
                               abi_Comm peer_comm, int remote_leader,
                               int tag, abi_Comm *newintercomm))
{
    MPI_Comm c;
    int rc = PMPI_Intercomm_create(comm_in(local_comm), local_leader,
                                   comm_in(peer_comm), remote_leader,
                                   tag, newintercomm ? &c : NULL);
    MADE(rc, newintercomm, c, abi_Comm, COMM);
    return rc;
}

ABI_FN(int, Intercomm_merge, (abi_Comm intercomm, int high,
                              abi_Comm *newintracomm))
{
    MPI_Comm c;
    int rc = PMPI_Intercomm_merge(comm_in(intercomm), high,
                                  newintracomm ? &c : NULL);
    MADE(rc, newintracomm, c, abi_Comm, COMM);
    return rc;
}
