/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * exchange.c - the round that every gather, scatter, allgather and
 * all-to-all schedule is made of: blocks out to a set of peers, blocks in
 * from a set of peers, and a process's block to itself as a local copy
 * (data.h).  The peers are the ranks of the communicator, or of the
 * remote group of an intercommunicator, where no peer is the process
 * itself.
 */
#include "coll/data.h"

/* Is peer p in the set (a peer, SHMPI_COLL_ALL or SHMPI_COLL_NOBODY)? */
static int in_set(MPI_Comm comm, int set, int p)
{
    if (set == SHMPI_COLL_ALL)
        return comm->is_inter || p != comm->rank;
    return p == set;
}

int shmpi_nbc_add_exchange(struct shmpi_nbc *s, MPI_Comm comm,
                           const struct shmpi_coll_blocks *out, int to,
                           const struct shmpi_coll_blocks *in, int from)
{
    /* peers in turn from this process's rank on, so that the processes
       do not all send to the same peer first */
    int n = shmpi_comm_peer_count(comm), rc = MPI_SUCCESS;
    for (int k = 0; k < n && rc == MPI_SUCCESS; k++) {
        int p = (comm->rank + k) % n;
        struct shmpi_coll_block b;
        if (in_set(comm, to, p)) {
            shmpi_coll_block_at(out, p, &b);
            rc = shmpi_nbc_send(s, b.buf, b.count, b.type, p);
        }
        if (rc == MPI_SUCCESS && in_set(comm, from, p)) {
            shmpi_coll_block_at(in, p, &b);
            rc = shmpi_nbc_recv(s, b.buf, b.count, b.type, p);
        }
    }
    return rc;
}

int shmpi_nbc_add_own(struct shmpi_nbc *s, MPI_Comm comm,
                      const struct shmpi_coll_blocks *out,
                      const struct shmpi_coll_blocks *in)
{
    struct shmpi_coll_block from, to;
    shmpi_coll_block_at(out, comm->rank, &from);
    shmpi_coll_block_at(in, comm->rank, &to);
    return shmpi_nbc_copy(s, from.buf, from.count, from.type, to.buf,
                          to.count, to.type);
}
