/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * watch.c - the check mode's watched memory: byte ranges of this
 * process whose every load and store by the program is seen, for the
 * checks the library cannot make from its calls alone (result_check.c:
 * the result buffer of a get read or written before the get completed,
 * MPI-3.1 11.3; local_check.c: a target's own access to window bytes a
 * remote access of the epoch touches, 11.7).
 *
 * PAGED RANGES (local_check.c's windows): no page protected when added;
 * another process (or this one) arms pages of one with a real-time
 * signal whose value names them (ARM_SIG, on_arm), and each fault on an
 * armed page asks the range's owner what the page keeps - PROT_NONE,
 * PROT_READ (stores seen, loads let through), or back to read-write.
 * A range's protections are in an array of its own, which the arm and
 * fault handlers change; the fault and trap handlers block the arm
 * signal, and so does a call that arms in this process, so that the
 * array and the pages agree.
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
#include <string.h>
#include <unistd.h>

#include "core/lock.h"
#include "core/proc.h"
#include "rma/watch.h"

#define SLOTS 64 /* an id fits the arm signal's 6 bits */
#define STEPS 8 /* pages one instruction may reach, nested faults too */
/* The signal another process arms a paged range with: a real-time one
   (queued, one delivery per arm, with a value), away from SIGRTMIN's
   end where programs take theirs. */
#define ARM_SIG() (SIGRTMAX - 2)

enum { FREE, ON, HIT }; /* HIT: reported; off, but its owner holds it */

struct range {
    _Atomic int state;
    uintptr_t lo, hi;
    shmpi_rma_watch_hit hit;
    void *arg;
    /* a paged range's (shmpi_rma_watch_paged): the protection each of
       its pages has, NULL for a plain range, whose pages are all
       PROT_NONE while it is ON */
    _Atomic unsigned char *prot;
    shmpi_rma_watch_page page;
    _Atomic uint32_t *armed;   /* arms done, in the owner's memory that
                                  the armers read (shared) */
    _Atomic int dirty;         /* a page armed since the last disarm */
};

struct watch {
    struct shmpi_core_lock lock;
    uintptr_t page;            /* the page size */
    int arm_sig;               /* ARM_SIG() */
    struct sigaction old_segv, old_trap, old_arm;
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

#define RW (PROT_READ | PROT_WRITE)

/* The protection a range wants for its page p (RW: none). */
static int range_prot(const struct range *r, uintptr_t p)
{
    if (atomic_load_explicit(&r->state, memory_order_relaxed) != ON ||
        !(r->lo < p + w->page && p < r->hi))
        return RW;
    if (!r->prot)
        return PROT_NONE;
    return atomic_load_explicit(&r->prot[(p - page_of(r->lo)) / w->page],
                                memory_order_relaxed);
}

/* The protection the page at p must have: the strictest any range
   wants (PROT_NONE < PROT_READ < RW). */
static int page_prot(uintptr_t p)
{
    int prot = RW;
    for (int i = 0; i < SLOTS && prot != PROT_NONE; i++) {
        int want = range_prot(&w->slot[i], p);
        prot = want < prot ? want : prot;
    }
    return prot;
}

static int watched_page(uintptr_t p)
{
    return page_prot(p) != RW;
}

/* The pages of r as the other ranges want them. */
static void give_back(const struct range *r)
{
    for (uintptr_t p = page_of(r->lo); p < r->hi; p += w->page)
        mprotect((void *)p, w->page, page_prot(p));
}

/* The bytes of the protection array of a paged range [lo, hi). */
static size_t prot_bytes(uintptr_t lo, uintptr_t hi)
{
    return (page_of(hi - 1) - page_of(lo)) / w->page + 1;
}

/* The pages of paged range r, its own protections gone (all RW, or r
   off): back to RW at once, then those the other ranges watch protected
   again - one mprotect for a window that shares no page with another
   range, whatever its size. */
static void restore(const struct range *r)
{
    uintptr_t lo = page_of(r->lo), hi = page_of(r->hi - 1) + w->page;
    mprotect((void *)lo, hi - lo, RW);
    for (int i = 0; i < SLOTS; i++) {
        const struct range *o = &w->slot[i];
        if (o == r ||
            atomic_load_explicit(&o->state, memory_order_relaxed) != ON ||
            !(o->lo < hi && lo < o->hi))
            continue;
        uintptr_t a = page_of(o->lo > lo ? o->lo : lo);
        uintptr_t b = o->hi < hi ? o->hi : hi;
        for (uintptr_t p = a; p < b; p += w->page)
            if (page_prot(p) != RW)
                mprotect((void *)p, w->page, page_prot(p));
    }
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
        if (sig != SIGSEGV)
            raise(sig);
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
        if (range_prot(r, page_of(a)) == RW)
            continue;
        if (r->prot) {
            /* a paged range: its owner says what the page keeps, or
               that nothing in it is watched any more */
            int keep = r->page(r->arg, (void *)a, write);
            if (keep < 0) {
                memset((void *)r->prot, RW, prot_bytes(r->lo, r->hi));
                atomic_store_explicit(&r->dirty, 0, memory_order_relaxed);
                restore(r);
            } else {
                atomic_store_explicit(
                    &r->prot[(page_of(a) - page_of(r->lo)) / w->page],
                    (unsigned char)keep, memory_order_relaxed);
            }
        } else if (r->lo <= a && a < r->hi) {
            atomic_store_explicit(&r->state, HIT, memory_order_relaxed);
            give_back(r);
            r->hit(r->arg, (void *)a, write);
        }
    }
    int prot = page_prot(page_of(a));
    if (prot == RW || (prot == PROT_READ && !write)) {
        /* given back, or watched for stores only: the access runs
           again, unwatched */
        mprotect((void *)page_of(a), w->page, prot);
        return;
    }
    mprotect((void *)page_of(a), w->page, RW);
    step.page[step.n++] = page_of(a);
    uc->uc_mcontext.gregs[REG_EFL] |= TRAP_FLAG;
}

/* Pages [first, first + n) of paged range id at least as strict as
   prot: in the range's process, from its arm signal or its own call. */
static void arm(int id, uint64_t first, uint64_t n, int prot)
{
    struct range *r = &w->slot[id];
    if (atomic_load_explicit(&r->state, memory_order_relaxed) != ON ||
        !r->prot)
        return;
    uintptr_t base = page_of(r->lo);
    uint64_t pages = (page_of(r->hi - 1) - base) / w->page + 1;
    uint64_t end = first + n < pages ? first + n : pages;
    /* runs of pages that end with one protection: one mprotect each (a
       put of gigabytes arms its pages in a few calls) */
    uint64_t run = first;
    int run_prot = -1;
    for (uint64_t i = first; i <= end; i++) {
        int want = -1;
        if (i < end) {
            int cur = atomic_load_explicit(&r->prot[i], memory_order_relaxed);
            if (prot < cur) {
                atomic_store_explicit(&r->prot[i], (unsigned char)prot,
                                      memory_order_relaxed);
                atomic_store_explicit(&r->dirty, 1, memory_order_relaxed);
                want = page_prot(base + i * w->page);
            }
        }
        if (want != run_prot) {
            if (run_prot >= 0)
                mprotect((void *)(base + run * w->page),
                         (i - run) * w->page, run_prot);
            run = i;
            run_prot = want;
        }
    }
}

/* The arm signal's value: the range's slot (6 bits), the protection
   (2), the first page (32) and the number of pages (24). */
static uint64_t arm_code(int id, int prot, uint64_t first, uint64_t n)
{
    if (n > 0xffffff)
        n = 0xffffff;
    return (uint64_t)id | (uint64_t)prot << 6 | first << 8 | n << 40;
}

/* Another process's sigqueue (shmpi_rma_watch_arm): the pages armed,
   then the range's `armed` count raised (release: the armer that
   reads it with acquire knows the pages are protected). */
static void on_arm(int sig, siginfo_t *si, void *ctx)
{
    if (si->si_code != SI_QUEUE) {
        chain(&w->old_arm, sig, si, ctx);
        return;
    }
    uint64_t c = (uint64_t)(uintptr_t)si->si_value.sival_ptr;
    struct range *r = &w->slot[c & 63];
    if (atomic_load_explicit(&r->state, memory_order_relaxed) != ON ||
        !r->prot)
        return; /* removed meanwhile: its count with it */
    arm((int)(c & 63), c >> 8 & 0xffffffff, c >> 40, (int)(c >> 6 & 3));
    atomic_fetch_add_explicit(r->armed, 1, memory_order_release);
}

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
    ucontext_t *uc = ctx;
    if (!step.n) {
        chain(&w->old_trap, sig, si, ctx);
        return;
    }
    for (int i = 0; i < step.n; i++) {
        int prot = page_prot(step.page[i]);
        if (prot != RW)
            mprotect((void *)step.page[i], w->page, prot);
    }
    step.n = 0;
    uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)TRAP_FLAG;
}

/* The fault and trap handlers block the arm signal: an arm between
   their reading of a page's protection and their mprotect would be
   undone. */
static int install(void)
{
    struct sigaction sa = {.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER};
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, w->arm_sig);
    sa.sa_sigaction = on_segv;
    if (sigaction(SIGSEGV, &sa, &w->old_segv) != 0)
        return 0;
    sa.sa_sigaction = on_trap;
    if (sigaction(SIGTRAP, &sa, &w->old_trap) != 0) {
        sigaction(SIGSEGV, &w->old_segv, NULL);
        return 0;
    }
    struct sigaction arm_sa = {.sa_flags = SA_SIGINFO | SA_ONSTACK |
                                           SA_RESTART};
    sigemptyset(&arm_sa.sa_mask);
    arm_sa.sa_sigaction = on_arm;
    if (sigaction(w->arm_sig, &arm_sa, &w->old_arm) == 0)
        return 1;
    sigaction(SIGTRAP, &w->old_trap, NULL);
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
        w->arm_sig = ARM_SIG();
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

/* A free slot holding *model, ON: its id, or -1. */
static int add(const struct range *model)
{
    int id = -1;
    shmpi_core_mutex_lock(&w->lock);
    for (int i = 0; i < SLOTS && id < 0; i++) {
        struct range *r = &w->slot[i];
        if (atomic_load_explicit(&r->state, memory_order_relaxed) != FREE)
            continue;
        r->lo = model->lo;
        r->hi = model->hi;
        r->hit = model->hit;
        r->arg = model->arg;
        r->prot = model->prot;
        r->page = model->page;
        r->armed = model->armed;
        atomic_signal_fence(memory_order_release);
        atomic_store_explicit(&r->state, ON, memory_order_relaxed);
        uintptr_t p = page_of(r->lo);
        if (!r->prot && mprotect((void *)p, page_of(r->hi - 1) + w->page - p,
                                 PROT_NONE))
            atomic_store_explicit(&r->state, FREE, memory_order_relaxed);
        else
            id = i;
    }
    shmpi_core_mutex_unlock(&w->lock);
    return id;
}

int shmpi_rma_watch_add(const void *buf, size_t len, shmpi_rma_watch_hit hit,
                        void *arg)
{
    uintptr_t lo = (uintptr_t)buf, hi = lo + len;
    if (!shmpi_rma_watch_possible() || len == 0 || !ready() ||
        !allowed(lo, hi))
        return -1;
    return add(&(struct range){.lo = lo, .hi = hi, .hit = hit, .arg = arg});
}

int shmpi_rma_watch_paged(const void *buf, size_t len,
                          shmpi_rma_watch_page page, void *arg,
                          _Atomic uint32_t *armed)
{
    uintptr_t lo = (uintptr_t)buf, hi = lo + len;
    if (!shmpi_rma_watch_possible() || len == 0 || !ready() ||
        !allowed(lo, hi))
        return -1;
    size_t n = prot_bytes(lo, hi);
    void *m = mmap(NULL, n, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    memset(m, RW, n);
    int id = add(&(struct range){.lo = lo, .hi = hi, .prot = m,
                                 .page = page, .arg = arg, .armed = armed});
    if (id < 0)
        munmap(m, n);
    return id;
}

/* The pages of [off, off + len) of a range that starts at base: the
   first, from the range's first page, and how many. */
static void pages_of(uintptr_t base, uint64_t off, uint64_t len,
                     uint64_t *first, uint64_t *n)
{
    off += base & (w->page - 1);
    *first = off / w->page;
    *n = (off + len - 1) / w->page - *first + 1;
}

int shmpi_rma_watch_arm(pid_t pid, int id, uintptr_t base, uint64_t off,
                        uint64_t len, int prot)
{
    if (!ready())
        return -1;
    uint64_t first, n;
    pages_of(base, off, len, &first, &n);
    union sigval v = {.sival_ptr = (void *)(uintptr_t)arm_code(
                          id, prot, first, n)};
    return sigqueue(pid, w->arm_sig, v);
}

void shmpi_rma_watch_arm_here(int id, uintptr_t base, uint64_t off,
                              uint64_t len, int prot)
{
    uint64_t first, n;
    pages_of(base, off, len, &first, &n);
    sigset_t arms, old;
    sigemptyset(&arms);
    sigaddset(&arms, w->arm_sig);
    pthread_sigmask(SIG_BLOCK, &arms, &old); /* as the fault handler */
    arm(id, first, n, prot);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void shmpi_rma_watch_disarm(int id)
{
    struct range *r = &w->slot[id];
    if (!atomic_exchange_explicit(&r->dirty, 0, memory_order_relaxed))
        return; /* nothing armed since the last disarm */
    memset((void *)r->prot, RW, prot_bytes(r->lo, r->hi));
    restore(r);
}

void *shmpi_rma_watch_arg(int id)
{
    return w->slot[id].arg;
}

void shmpi_rma_watch_remove(int id)
{
    shmpi_core_mutex_lock(&w->lock);
    struct range *r = &w->slot[id];
    atomic_store_explicit(&r->state, FREE, memory_order_relaxed);
    if (r->prot) {
        if (atomic_load_explicit(&r->dirty, memory_order_relaxed))
            restore(r);
        munmap((void *)r->prot, prot_bytes(r->lo, r->hi));
        r->prot = NULL;
    } else {
        give_back(r);
    }
    shmpi_core_mutex_unlock(&w->lock);
}
