/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * map_vm.c - reaching window memory that cannot be shared: the stack,
 * file mappings (map.h).  Normally with process_vm_readv/writev; where
 * the kernel refuses them (a seccomp filter, Yama's ptrace_scope 2 or 3,
 * a container without CAP_SYS_PTRACE), through a helper thread in the
 * target's process, so that RMA stays one-sided: the target's program
 * does not have to call MPI for the data to move.
 *
 * THE MAILBOX.  A process whose window memory peers may have to reach
 * this way makes one mailbox (a memfd, one per process, whatever the
 * number of windows) and names it when a window is made (struct
 * shmpi_win_member.mbox_fd).  An origin that finds process_vm refused
 * maps the target's mailbox; if any origin of the window was refused,
 * every member with a mailbox starts its helper thread (once per
 * process), which sleeps on the mailbox until a request comes.
 *
 * A REQUEST.  Origins take the mailbox's lock (a futex mutex: several
 * origins may target one process), then per chunk of at most MBOX_DATA
 * bytes and MBOX_IOV pieces of target memory:
 *     origin: fill iov[] (and data[], writing); op, n, origin's rank;
 *             store(state, REQUEST, release); fence;
 *             if (helper_sleeps) futex_wake(state)
 *     helper: load(state, acquire) == REQUEST; memcpy between data[] and
 *             its own memory; result;
 *             store(state, DONE, release); ring the origin's doorbell
 *     origin: waits (core/wait.h: spinning, then asleep on its doorbell,
 *             its progress engine turning) for load(state, acquire) ==
 *             DONE; reads data[] (reading); state = IDLE
 * The helper copies with memcpy: the origin checked the range against
 * the window before it asked (range.c), as it does before process_vm.
 *
 * State: the mailbox and the peers are shmpi_proc.rma->vm (state.h).
 *
 * SEVERAL THREADS (MPI_THREAD_MULTIPLE).  Threads of one origin that
 * reach one target's mailbox take its lock in turn like origins of
 * different processes (it is a futex mutex, whoever waits); the helper
 * rings the origin's doorbell, which wakes whichever of its threads
 * sleeps there (state.c: one at a time does).  The list of peers is
 * read by every access without a lock and grows when a window is made
 * (shmpi_rma_vm_connect, under the rma lock): a node is written whole,
 * then pushed with a release store of the head; a reader's acquire load
 * of the head sees every node as it was pushed.  A node's mbox is set
 * later, once (a window made after process_vm failed), with a release
 * store that the readers load with acquire: the mapping is made before.
 * Nodes are never removed or freed, so a reader never sees one go.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/lock.h"
#include "core/proc.h"
#include "core/wait.h"
#include "rma/map.h"
#include "rma/state.h"
#include "rma/win.h"

#define MBOX_DATA (64 * 1024)
#define MBOX_IOV 256

enum mbox_state { MBOX_IDLE, MBOX_REQUEST, MBOX_DONE };
enum mbox_op { MBOX_WRITE, MBOX_READ };

struct shmpi_vm_mbox {
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t lock; /* 0 free, 1 held,
                                  2 held and somebody sleeps on it */
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t state; /* enum mbox_state */
    _Atomic uint32_t helper_sleeps;
    uint32_t op;               /* enum mbox_op */
    uint32_t n;                /* iov[] entries in use */
    int32_t origin;            /* world rank, to ring when done */
    int32_t result;            /* 0 or an errno */
    struct { uint64_t addr, len; } iov[MBOX_IOV]; /* in the target */
    unsigned char data[MBOX_DATA];
};

/* A peer process reached through process_vm or its mailbox. */
struct shmpi_vm_peer {
    pid_t pid;
    int vm_ok;                 /* process_vm works on it */
    /* mapped here once process_vm failed; set once (release) */
    struct shmpi_vm_mbox *_Atomic mbox;
    struct shmpi_win_view view;
    struct shmpi_vm_peer *next;
};

/* This process's mailbox and peers: shmpi_proc.rma->vm (state.h). */
static struct shmpi_vm_state *vm(void)
{
    return &shmpi_proc.rma->vm;
}

static long futex(_Atomic uint32_t *word, int op, uint32_t val)
{
    return syscall(SYS_futex, (uint32_t *)word, op, val, NULL, NULL, 0);
}

int shmpi_rma_vm_mailbox(void)
{
    shmpi_core_lock(&shmpi_proc.rma->lock);
    if (!vm()->own) {
        void *p;
        if (shmpi_rma_map_segment(sizeof(struct shmpi_vm_mbox), &p,
                                  &vm()->own_fd) == 0)
            vm()->own = p;
    }
    int fd = vm()->own ? vm()->own_fd : -1;
    shmpi_core_unlock(&shmpi_proc.rma->lock);
    return fd;
}

/* ------------------------------------------------------------------ */
/* The helper thread                                                   */
/* ------------------------------------------------------------------ */

static void serve_one(struct shmpi_vm_mbox *m)
{
    unsigned char *data = m->data;
    for (uint32_t i = 0; i < m->n; i++) {
        void *at = (void *)(uintptr_t)m->iov[i].addr;
        size_t len = m->iov[i].len;
        if (m->op == MBOX_WRITE)
            memcpy(at, data, len);
        else
            memcpy(data, at, len);
        data += len;
    }
    m->result = 0;
    int origin = m->origin;
    /* release: data[] and the target memory are written before DONE */
    atomic_store_explicit(&m->state, MBOX_DONE, memory_order_release);
    shmpi_core_doorbell_ring(origin);
}

static void *helper(void *arg)
{
    struct shmpi_vm_mbox *m = arg;
    for (;;) {
        for (int spin = 0; spin < 4096; spin++)
            if (atomic_load_explicit(&m->state, memory_order_acquire) ==
                MBOX_REQUEST)
                break;
        atomic_store_explicit(&m->helper_sleeps, 1, memory_order_relaxed);
        /* the origin stores REQUEST, fences, reads helper_sleeps: one of
           us sees the other's store */
        atomic_thread_fence(memory_order_seq_cst);
        uint32_t s = atomic_load_explicit(&m->state, memory_order_acquire);
        if (s != MBOX_REQUEST)
            futex(&m->state, FUTEX_WAIT, s);
        atomic_store_explicit(&m->helper_sleeps, 0, memory_order_relaxed);
        if (atomic_load_explicit(&m->state, memory_order_acquire) ==
            MBOX_REQUEST)
            serve_one(m);
    }
    return NULL;
}

void shmpi_rma_vm_warn(void)
{
    if (atomic_exchange_explicit(&vm()->warned, 1, memory_order_relaxed))
        return; /* one line, whichever thread comes first */
    fprintf(stderr,
            "shmpi: rank %d: warning: the kernel refuses process_vm_readv/"
            "writev between the ranks (seccomp, Yama ptrace_scope, a "
            "container): window memory that cannot be shared (stack, file "
            "mappings) is reached through a helper thread in its process "
            "instead, at some microseconds a call\n",
            shmpi_proc.rank);
}

static int serve_locked(void)
{
    if (vm()->serving || !vm()->own)
        return 0;
    sigset_t all, old;
    sigfillset(&all); /* the program's signals stay with its threads */
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t t;
    int rc = pthread_create(&t, &attr, helper, vm()->own);
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    vm()->serving = rc == 0;
    return rc;
}

int shmpi_rma_vm_serve(void)
{
    shmpi_core_lock(&shmpi_proc.rma->lock);
    int rc = serve_locked();
    shmpi_core_unlock(&shmpi_proc.rma->lock);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The origin's side                                                   */
/* ------------------------------------------------------------------ */

/* Lock-free (SEVERAL THREADS above): acquire, the nodes as pushed. */
static struct shmpi_vm_peer *peer(pid_t pid)
{
    for (struct shmpi_vm_peer *p =
             atomic_load_explicit(&vm()->peers, memory_order_acquire);
         p; p = p->next)
        if (p->pid == pid)
            return p;
    return NULL;
}

/* The peer's mailbox if it is reached through one, else NULL. */
static struct shmpi_vm_mbox *mbox_of(pid_t pid)
{
    struct shmpi_vm_peer *p = peer(pid);
    return p ? atomic_load_explicit(&p->mbox, memory_order_acquire) : NULL;
}

static int connect_locked(pid_t pid, uint64_t probe, int mbox_fd)
{
    struct shmpi_vm_peer *p = peer(pid);
    if (!p) {
        if (!(p = calloc(1, sizeof *p)))
            return 1; /* process_vm, then: it may work */
        unsigned char byte;
        struct iovec l = {&byte, 1}, r = {(void *)(uintptr_t)probe, 1};
        p->pid = pid;
        p->vm_ok = process_vm_readv(pid, &l, 1, &r, 1, 0) == 1;
        p->next = atomic_load_explicit(&vm()->peers, memory_order_relaxed);
        /* release: the node is whole before a reader can reach it */
        atomic_store_explicit(&vm()->peers, p, memory_order_release);
    }
    if (!p->vm_ok && !atomic_load_explicit(&p->mbox, memory_order_relaxed) &&
        mbox_fd >= 0) {
        unsigned char *at;
        if (shmpi_rma_map_peer(pid, mbox_fd, 0, sizeof(struct shmpi_vm_mbox),
                               &at, &p->view) == 0)
            /* release: mapped before a reader uses it */
            atomic_store_explicit(&p->mbox, (struct shmpi_vm_mbox *)at,
                                  memory_order_release);
    }
    return p->vm_ok;
}

int shmpi_rma_vm_connect(pid_t pid, uint64_t probe, int mbox_fd)
{
    shmpi_core_lock(&shmpi_proc.rma->lock);
    int ok = connect_locked(pid, probe, mbox_fd);
    shmpi_core_unlock(&shmpi_proc.rma->lock);
    return ok;
}

static void mbox_lock(struct shmpi_vm_mbox *m)
{
    uint32_t c = 0;
    if (atomic_compare_exchange_strong_explicit(&m->lock, &c, 1,
                                                memory_order_acquire,
                                                memory_order_relaxed))
        return;
    if (c != 2)
        c = atomic_exchange_explicit(&m->lock, 2, memory_order_acquire);
    while (c != 0) {
        futex(&m->lock, FUTEX_WAIT, 2);
        c = atomic_exchange_explicit(&m->lock, 2, memory_order_acquire);
    }
}

static void mbox_unlock(struct shmpi_vm_mbox *m)
{
    if (atomic_fetch_sub_explicit(&m->lock, 1, memory_order_release) != 1) {
        atomic_store_explicit(&m->lock, 0, memory_order_release);
        futex(&m->lock, FUTEX_WAKE, 1);
    }
}

static int request_done(void *arg)
{
    struct shmpi_vm_mbox *m = arg;
    return atomic_load_explicit(&m->state, memory_order_acquire) ==
           MBOX_DONE;
}

/* No line of its own in the deadlock report: the helper thread of the
   target serves it, and a rank with a thread awake is never deadlocked. */
static const struct shmpi_rma_waitfor request_waitfor = {request_done, NULL};

/* One request: the helper runs it, this process waits. */
static int post(struct shmpi_vm_mbox *m)
{
    m->origin = shmpi_proc.rank;
    atomic_store_explicit(&m->state, MBOX_REQUEST, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst); /* see helper() */
    if (atomic_load_explicit(&m->helper_sleeps, memory_order_relaxed))
        futex(&m->state, FUTEX_WAKE, 1);
    shmpi_rma_wait(&request_waitfor, m, 0);
    atomic_store_explicit(&m->state, MBOX_IDLE, memory_order_relaxed);
    return m->result;
}

/* A cursor over an iovec array. */
struct cursor {
    const struct iovec *iov;
    unsigned long n, i;
    size_t off;                /* into iov[i] */
};

/* Up to `room` bytes of c from where it is: the piece's start, length. */
static size_t take(struct cursor *c, size_t room, unsigned char **at)
{
    while (c->i < c->n && c->off == c->iov[c->i].iov_len) {
        c->i++;
        c->off = 0;
    }
    if (c->i == c->n)
        return 0;
    size_t len = c->iov[c->i].iov_len - c->off;
    if (len > room)
        len = room;
    *at = (unsigned char *)c->iov[c->i].iov_base + c->off;
    c->off += len;
    return len;
}

/* Local bytes <-> data[] of m, `len` of them from cursor l. */
static void copy_local(struct cursor *l, unsigned char *data, size_t len,
                       int to_mbox)
{
    while (len > 0) {
        unsigned char *at;
        size_t k = take(l, len, &at);
        if (to_mbox)
            memcpy(data, at, k);
        else
            memcpy(at, data, k);
        data += k;
        len -= k;
    }
}

static ssize_t through_mbox(struct shmpi_vm_mbox *m, enum mbox_op op,
                            const struct iovec *local, unsigned long nl,
                            const struct iovec *remote, unsigned long nr)
{
    size_t total_local = 0;
    for (unsigned long i = 0; i < nl; i++)
        total_local += local[i].iov_len;
    struct cursor l = {local, nl, 0, 0}, r = {remote, nr, 0, 0};
    ssize_t done = 0;
    int err = 0;
    mbox_lock(m);
    while (!err && (size_t)done < total_local) {
        size_t limit = total_local - (size_t)done, bytes = 0, k;
        if (limit > MBOX_DATA)
            limit = MBOX_DATA;
        uint32_t n = 0;
        unsigned char *at;
        while (n < MBOX_IOV && bytes < limit &&
               (k = take(&r, limit - bytes, &at)) > 0) {
            m->iov[n].addr = (uintptr_t)at;
            m->iov[n++].len = k;
            bytes += k;
        }
        if (n == 0)
            break; /* remote shorter than local: stop, as process_vm */
        m->op = op;
        m->n = n;
        if (op == MBOX_WRITE)
            copy_local(&l, m->data, bytes, 1);
        err = post(m);
        if (!err && op == MBOX_READ)
            copy_local(&l, m->data, bytes, 0);
        done += (ssize_t)bytes;
    }
    mbox_unlock(m);
    if (err) {
        errno = err;
        return -1;
    }
    return done;
}

ssize_t shmpi_win_vm_writev(pid_t pid, const struct iovec *local,
                            unsigned long nlocal, const struct iovec *remote,
                            unsigned long nremote)
{
    struct shmpi_vm_mbox *m = mbox_of(pid);
    if (m)
        return through_mbox(m, MBOX_WRITE, local, nlocal, remote, nremote);
    return process_vm_writev(pid, local, nlocal, remote, nremote, 0);
}

ssize_t shmpi_win_vm_readv(pid_t pid, const struct iovec *local,
                           unsigned long nlocal, const struct iovec *remote,
                           unsigned long nremote)
{
    struct shmpi_vm_mbox *m = mbox_of(pid);
    if (m)
        return through_mbox(m, MBOX_READ, local, nlocal, remote, nremote);
    return process_vm_readv(pid, local, nlocal, remote, nremote, 0);
}
