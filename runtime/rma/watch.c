/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * watch.c - the check mode's watched memory: byte ranges of this
 * process whose every load and store by the program is seen, for the
 * checks the library cannot make from its calls alone (result_check.c:
 * the result buffer of a get read or written before the get completed,
 * MPI-3.1 11.3).
 *
 * THE METHOD.  The pages of a watched range are made PROT_NONE in this
 * process's own mapping (mprotect: other processes' mappings of shared
 * memory are untouched).  An access to them faults; the SIGSEGV handler
 * (SA_SIGINFO: si_addr is the byte the access reached first) hands an
 * address inside a watched range to the range's owner, which reports and
 * drops the range, and lets every access proceed by single-stepping it:
 * the faulting page is made readable and writable again, the trap flag
 * EFLAGS.TF set in the interrupted context, and the SIGTRAP that follows
 * the one instruction protects the page again.  So an access to other
 * bytes of a watched page is never reported, and costs two signals.
 * Chosen over unprotecting a page for the rest of an epoch and comparing
 * at its end: that would miss the access itself (si_addr is known only
 * at the first fault of a page) and report nothing a program can act on
 * before its end.
 *
 * A fault outside every watched page goes to the handler that was there
 * before (the program's own, or the default action: the rank dies of
 * SIGSEGV and the launcher says so, as without the mode); so does a
 * SIGTRAP this file did not ask for.
 *
 * x86-64 only (the trap flag); elsewhere nothing is watched.  Not in a
 * process that asked for MPI_THREAD_MULTIPLE (another thread's system
 * call on a watched page would fail with EFAULT instead of faulting),
 * and not on the calling thread's stack (the signal frame goes there):
 * the callers are told (shmpi_rma_watch_possible, shmpi_rma_watch_add)
 * and the man page says so.  Under AddressSanitizer, whose SIGSEGV
 * handler is in place before MPI_Init, the faults this file does not
 * own go to it, and it reports them as without the mode
 * (test/check-rma-result.sh, SANITIZE=1, 2026-11-30).  A system call
 * handed other bytes of a watched page (read(2) into a buffer beside a
 * pending get's) fails with EFAULT: the watch of a range lasts from its
 * call to the one that completes it.
 *
 * THE TABLE.  SLOTS ranges in pages of their own (mmap), which no
 * watch can cover: the handler reads them, and a range is refused that
 * shares a page with the pointer to them or with the thread's step
 * record (TLS) - a fault in the handler on a page it must read would
 * never end.  Changed by the calling thread under `w->lock` (MPI calls
 * of one thread at a time: below MPI_THREAD_MULTIPLE) and read by the
 * handler of the same thread, which can interrupt a change: a slot's
 * fields are written before its state (a relaxed atomic, in signal-fence
 * order: the handler runs on the thread it interrupts).  The owner's
 * callback may touch other watched pages (the report's formatting reads
 * shmpi_proc, which a static program's result buffer may sit beside):
 * both handlers are SA_NODEFER, so such a fault is single-stepped too,
 * its trap taken inside the outer handler.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "core/lock.h"
#include "core/proc.h"
#include "rma/watch.h"

#define SLOTS 64
#define STEPS 8 /* pages one instruction may reach, nested faults too */

enum { FREE, ON, HIT }; /* HIT: reported; off, but its owner holds it */

struct range {
    _Atomic int state;
    uintptr_t lo, hi;
    shmpi_rma_watch_hit hit;
    void *arg;
};

struct watch {
    struct shmpi_core_lock lock;
    uintptr_t page;            /* the page size */
    struct sigaction old_segv, old_trap;
    struct range slot[SLOTS];
};

static struct watch *w;        /* made at the first watch, never freed */

/* The pages this thread's current instruction was let through, and
   whether its accesses are the library's own (shmpi_rma_watch_quiet). */
static _Thread_local struct {
    int n;
    int quiet;
    uintptr_t page[STEPS];
} step;

static uintptr_t page_of(uintptr_t a)
{
    return a & ~(w->page - 1);
}

/* Is some byte of the page at p watched? */
static int watched_page(uintptr_t p)
{
    for (int i = 0; i < SLOTS; i++) {
        struct range *r = &w->slot[i];
        if (atomic_load_explicit(&r->state, memory_order_relaxed) == ON &&
            r->lo < p + w->page && p < r->hi)
            return 1;
    }
    return 0;
}

/* The pages of r no other range watches, readable and writable again. */
static void give_back(const struct range *r)
{
    for (uintptr_t p = page_of(r->lo); p < r->hi; p += w->page)
        if (!watched_page(p))
            mprotect((void *)p, w->page, PROT_READ | PROT_WRITE);
}

static void chain(const struct sigaction *old, int sig, siginfo_t *si,
                  void *ctx)
{
    if (old->sa_flags & SA_SIGINFO) {
        old->sa_sigaction(sig, si, ctx);
    } else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
    } else {
        /* the default action: back in place, the access faults again
           (or the trap is raised again) and the process ends as it
           would have without the mode */
        sigaction(sig, old, NULL);
        if (sig == SIGTRAP)
            raise(SIGTRAP);
    }
}

#if defined(__x86_64__)
#define CAN_WATCH 1
#define TRAP_FLAG 0x100

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
    uintptr_t a = (uintptr_t)si->si_addr;
    ucontext_t *uc = ctx;
    if (si->si_code != SEGV_ACCERR || step.n == STEPS ||
        !watched_page(page_of(a))) {
        chain(&w->old_segv, sig, si, ctx);
        return;
    }
    int write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
    for (int i = 0; i < SLOTS && !step.quiet; i++) {
        struct range *r = &w->slot[i];
        if (atomic_load_explicit(&r->state, memory_order_relaxed) == ON &&
            r->lo <= a && a < r->hi) {
            atomic_store_explicit(&r->state, HIT, memory_order_relaxed);
            give_back(r);
            r->hit(r->arg, (void *)a, write);
        }
    }
    if (!watched_page(page_of(a)))
        return; /* given back: the access runs again, unwatched */
    mprotect((void *)page_of(a), w->page, PROT_READ | PROT_WRITE);
    step.page[step.n++] = page_of(a);
    uc->uc_mcontext.gregs[REG_EFL] |= TRAP_FLAG;
}

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
    ucontext_t *uc = ctx;
    if (!step.n) {
        chain(&w->old_trap, sig, si, ctx);
        return;
    }
    for (int i = 0; i < step.n; i++)
        if (watched_page(step.page[i]))
            mprotect((void *)step.page[i], w->page, PROT_NONE);
    step.n = 0;
    uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)TRAP_FLAG;
}

static int install(void)
{
    struct sigaction sa = {.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER};
    sigemptyset(&sa.sa_mask);
    sa.sa_sigaction = on_segv;
    if (sigaction(SIGSEGV, &sa, &w->old_segv) != 0)
        return 0;
    sa.sa_sigaction = on_trap;
    if (sigaction(SIGTRAP, &sa, &w->old_trap) == 0)
        return 1;
    sigaction(SIGSEGV, &w->old_segv, NULL);
    return 0;
}
#else
#define CAN_WATCH 0
static int install(void)
{
    return 0;
}
#endif

int shmpi_rma_watch_possible(void)
{
    return CAN_WATCH && !shmpi_proc.mt;
}

/* The table, and the handlers in place; once, by the first watch (below
   MPI_THREAD_MULTIPLE: one thread in MPI at a time). */
static int ready(void)
{
    static int tried;
    if (!tried) {
        tried = 1;
        void *m = mmap(NULL, sizeof *w, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return 0;
        w = m;
        w->page = (uintptr_t)sysconf(_SC_PAGESIZE);
        if (!install()) {
            munmap(m, sizeof *w);
            w = NULL;
        }
    }
    return w != NULL;
}

/* May [lo, hi) be watched?  Not on the calling thread's stack (the
   signal frame goes there), nor beside what the handlers read. */
static int allowed(uintptr_t lo, uintptr_t hi)
{
    static _Thread_local uintptr_t base, top;
    if (!top) {
        pthread_attr_t at;
        void *addr;
        size_t size;
        if (pthread_getattr_np(pthread_self(), &at) != 0)
            return 0;
        pthread_attr_getstack(&at, &addr, &size);
        pthread_attr_destroy(&at);
        base = (uintptr_t)addr;
        top = base + size;
    }
    uintptr_t plo = page_of(lo), phi = page_of(hi - 1) + w->page;
    uintptr_t mine[] = {(uintptr_t)&w, (uintptr_t)&step, (uintptr_t)&step + sizeof step - 1};
    for (size_t i = 0; i < sizeof mine / sizeof *mine; i++)
        if (plo <= mine[i] && mine[i] < phi)
            return 0;
    return !(lo < top && base < hi);
}

void shmpi_rma_watch_quiet(int on)
{
    step.quiet = on;
}

int shmpi_rma_watch_add(const void *buf, size_t len, shmpi_rma_watch_hit hit,
                        void *arg)
{
    uintptr_t lo = (uintptr_t)buf, hi = lo + len;
    if (!shmpi_rma_watch_possible() || len == 0 || !ready() ||
        !allowed(lo, hi))
        return -1;
    int id = -1;
    shmpi_core_mutex_lock(&w->lock);
    for (int i = 0; i < SLOTS && id < 0; i++) {
        struct range *r = &w->slot[i];
        if (atomic_load_explicit(&r->state, memory_order_relaxed) != FREE)
            continue;
        *r = (struct range){FREE, lo, hi, hit, arg};
        atomic_signal_fence(memory_order_release);
        atomic_store_explicit(&r->state, ON, memory_order_relaxed);
        uintptr_t p = page_of(lo);
        if (mprotect((void *)p, page_of(hi - 1) + w->page - p, PROT_NONE))
            atomic_store_explicit(&r->state, FREE, memory_order_relaxed);
        else
            id = i;
    }
    shmpi_core_mutex_unlock(&w->lock);
    return id;
}

void shmpi_rma_watch_remove(int id)
{
    shmpi_core_mutex_lock(&w->lock);
    struct range *r = &w->slot[id];
    atomic_store_explicit(&r->state, FREE, memory_order_relaxed);
    give_back(r);
    shmpi_core_mutex_unlock(&w->lock);
}
