/*
 * acclock.c - the accumulate lock of a window member: what makes
 * accumulates to its memory atomic per element (MPI-3.1 11.7.1), taken
 * by origins alone.
 *
 * Two kinds of holders.  An accumulate that works element by element
 * (acc.c: a range, or a type no instruction covers) holds the member's
 * acc_lock word exclusively (lockword.c).  A single-instruction atomic
 * (atomic.c: one aligned element of 1 to 8 bytes) needs only that no
 * exclusive holder works meanwhile: any number of them may run at once,
 * the hardware keeps them atomic among themselves.  Taking the word
 * shared for each one would cost two read-modify-writes on a line every
 * origin of the target writes; instead an atomic announces itself in a
 * word of its own origin's (ctl->atomic_on = 1 + target), which stays in
 * the origin's cache:
 *   atomic:    atomic_on = target + 1 (seq_cst); if (acc_lock is EXCL)
 *              back off: atomic_on = 0, take the word shared the slow
 *              way; else do the instruction; atomic_on = 0 (release)
 *   exclusive: take acc_lock EXCL (seq_cst CAS); wait until no member's
 *              atomic_on is target + 1 (seq_cst loads)
 * In the single total order of the seq_cst operations, either the
 * atomic's load of acc_lock comes first - then its store of atomic_on
 * precedes the exclusive holder's load of it, which waits for the
 * release store of 0 and so finds the instruction's effect visible - or
 * the CAS comes first, and the atomic sees EXCL and backs off.  An
 * atomic_on holder runs one instruction and no MPI progress, so the
 * exclusive holder's wait is short and cannot deadlock; when ranks
 * outnumber CPUs it yields, for the holder may be preempted.
 */
#include "core/wait.h"
#include "rma/sync.h"

static _Atomic uint32_t *atomic_on(MPI_Win win, int member)
{
    return &shmpi_win_ctl_of(win, member)->atomic_on;
}

int shmpi_rma_atomic_enter(MPI_Win win, int target)
{
    _Atomic uint32_t *mine = atomic_on(win, win->comm->rank);
    atomic_store_explicit(mine, (uint32_t)target + 1, memory_order_seq_cst);
    if (!(atomic_load_explicit(&shmpi_win_ctl_of(win, target)->acc_lock,
                               memory_order_seq_cst) &
          SHMPI_WIN_LOCK_EXCL))
        return 1;
    atomic_store_explicit(mine, 0, memory_order_relaxed);
    shmpi_rma_word_lock(win, target, 1, 0); /* waits for the exclusive */
    return 0;
}

void shmpi_rma_atomic_leave(MPI_Win win, int target, int announced)
{
    if (announced)
        atomic_store_explicit(atomic_on(win, win->comm->rank), 0,
                              memory_order_release);
    else
        shmpi_rma_word_unlock(win, target, 1, 0);
}

static void wait_atomics_out(MPI_Win win, int target)
{
    uint32_t code = (uint32_t)target + 1;
    for (int m = 0; m < win->comm->size; m++)
        while (atomic_load_explicit(atomic_on(win, m),
                                    memory_order_seq_cst) == code) {
            shmpi_cpu_relax(); /* leave the holder its line */
            shmpi_poll_idle();
        }
}

void shmpi_rma_acc_lock(MPI_Win win, int target)
{
    shmpi_rma_word_lock(win, target, 1, 1);
    wait_atomics_out(win, target);
}

void shmpi_rma_acc_unlock(MPI_Win win, int target)
{
    shmpi_rma_word_unlock(win, target, 1, 1);
}
