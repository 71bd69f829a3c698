/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * session.c - the ABI's sessions (abi.h, MPI-4.0 11.3): MPI_SESSION_NULL
 * is 0x120; a session shmpi made passes as it is.  Their error handlers
 * are comm.c's, the attach and detach of their buffers p2p.c's; the groups of their process sets go to
 * MPI_Comm_create_from_group (group.c).
 */
#include "abi/abi.h"

static inline abi_Session session_out(MPI_Session s)
{
    return s ? (abi_Session)(void *)s : (abi_Session)ABI_SESSION_FIRST;
}

ABI_FN(int, Session_init, (abi_Info info, abi_Errhandler errhandler,
                           abi_Session *session))
{
    MPI_Session s;
    int rc = PMPI_Session_init(info_in(info), eh_in(errhandler),
                               session ? &s : NULL);
    if (rc == MPI_SUCCESS)
        *session = session_out(s);
    return rc;
}

ABI_FN(int, Session_finalize, (abi_Session *session))
{
    MPI_Session s = session ? session_in(*session) : NULL;
    int rc = PMPI_Session_finalize(session ? &s : NULL);
    if (session)
        *session = session_out(s);
    return rc;
}

ABI_FN(int, Session_get_num_psets, (abi_Session session, abi_Info info,
                                    int *npset_names))
{
    return PMPI_Session_get_num_psets(session_in(session),
                                      info_in(info), npset_names);
}

ABI_FN(int, Session_get_nth_pset, (abi_Session session, abi_Info info,
                                   int n, int *pset_len, char *pset_name))
{
    return PMPI_Session_get_nth_pset(session_in(session),
                                     info_in(info), n, pset_len,
                                     pset_name);
}

ABI_FN(int, Session_get_info, (abi_Session session, abi_Info *info_used))
{
    MPI_Info in;
    int rc = PMPI_Session_get_info(session_in(session),
                                   info_used ? &in : NULL);
    MADE(rc, info_used, in, abi_Info, INFO);
    return rc;
}

ABI_FN(int, Session_get_pset_info, (abi_Session session,
                                    const char *pset_name, abi_Info *info))
{
    MPI_Info in;
    int rc = PMPI_Session_get_pset_info(session_in(session), pset_name,
                                        info ? &in : NULL);
    MADE(rc, info, in, abi_Info, INFO);
    return rc;
}

ABI_FN(int, Group_from_session_pset, (abi_Session session,
                                      const char *pset_name,
                                      abi_Group *newgroup))
{
    MPI_Group g;
    int rc = PMPI_Group_from_session_pset(session_in(session), pset_name,
                                          newgroup ? &g : NULL);
    MADE(rc, newgroup, g, abi_Group, GROUP);
    return rc;
}

ABI_FN(int, Session_flush_buffer, (abi_Session session))
{
    return PMPI_Session_flush_buffer(session_in(session));
}

ABI_FN(int, Session_iflush_buffer, (abi_Session session,
                                    abi_Request *request))
{
    return PMPI_Session_iflush_buffer(session_in(session), reqp_in(request));
}
