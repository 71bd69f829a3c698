/*
 * barrier.c - MPI_Barrier.
 *
 * On MPI_COMM_WORLD: a counter and a generation number in the arena.
 * Each rank reads the generation, then adds one to `arrived`.  The rank
 * that brings `arrived` to size resets it, bumps the generation and rings
 * the doorbell of every rank (a no-op for ranks that are not asleep); the
 * others wait for the generation to move, making progress on their
 * point-to-point traffic meanwhile (a rank blocked in a barrier must still
 * serve the sends and receives it started).  Memory ordering:
 *   - fetch_add(arrived) is acq_rel: each rank releases what it wrote
 *     before the barrier, and the last arriver acquires all of it (the
 *     fetch_adds form one release sequence);
 *   - the last arriver's reset of `arrived` is sequenced before its
 *     release store of the new generation; a rank can only arrive at the
 *     next barrier after acquiring that generation, so it never adds to a
 *     counter that has not been reset;
 *   - waiters acquire the generation, so after MPI_Barrier every rank sees
 *     every other rank's pre-barrier stores.
 * `arrived` and `generation` are on separate cache lines: arrivals
 * hammer one while waiters poll the other.
 *
 * On any other communicator of more than one process: a dissemination
 * barrier of zero-byte messages on the communicator's internal context
 * (comm/internal_p2p.c).  In round k = 0, 1, ... each process sends to
 * rank + 2^k and receives from rank - 2^k (mod size); after
 * ceil(log2(size)) rounds every process has heard, directly or through
 * others, from every process that entered the barrier.  Each round has its
 * own tag, and a given source sends to a given process in one round only,
 * so a fast process already in the next barrier cannot be mistaken for a
 * slow one of this barrier (messages of one source do not overtake each
 * other).  The ring that carries a message orders memory (release on
 * send, acquire on receive), so stores before the barrier are visible
 * after it, as with the arena barrier.  Waiting is the pt2pt engine's:
 * it makes progress, then sleeps on the doorbell.
 */
#include "comm/comm.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "core/wait.h"
#include "pt2pt/progress.h"

SHMPI_WEAK_ALIAS(Barrier)

struct barrier_wait {
    struct shmpi_barrier_words *b;
    uint32_t gen;
};

static int generation_moved(void *arg)
{
    struct barrier_wait *w = arg;
    if (atomic_load_explicit(&w->b->generation, memory_order_acquire) !=
        w->gen)
        return 1;
    shmpi_progress();
    return 0;
}

static void barrier_arena(struct shmpi_barrier_words *b, int size)
{
    struct barrier_wait w = {
        b, atomic_load_explicit(&b->generation, memory_order_acquire)};
    uint32_t n = atomic_fetch_add_explicit(&b->arrived, 1,
                                           memory_order_acq_rel) + 1;
    if (n != (uint32_t)size) {
        shmpi_wait_until(generation_moved, &w);
        return;
    }
    atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
    atomic_store_explicit(&b->generation, w.gen + 1, memory_order_release);
    for (int r = 0; r < size; r++)
        if (r != shmpi_proc.rank)
            shmpi_doorbell_ring(r);
}

static int barrier_messages(MPI_Comm comm)
{
    int size = comm->size, rank = comm->rank;
    for (int k = 1, round = 0; k < size; k <<= 1, round++) {
        int rc = shmpi_internal_sendrecv(
            comm, NULL, 0, (rank + k) % size, SHMPI_TAG_BARRIER + round,
            NULL, 0, (rank - k + size) % size, SHMPI_TAG_BARRIER + round,
            "MPI_Barrier");
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int PMPI_Barrier(MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT("MPI_Barrier");
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, "MPI_Barrier",
                           "invalid communicator");
    if (comm->barrier)
        barrier_arena(comm->barrier, comm->size);
    else if (comm->size > 1)
        return barrier_messages(comm);
    return MPI_SUCCESS;
}
