/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * map.c - making memory reachable across processes (map.h says what).
 *
 * EXTENTS.  The memfd-backed ranges this process made for windows are
 * kept in one list: memory made by shmpi_rma_map_alloc, and pages moved by
 * shmpi_rma_map_share.  Each counts the shares that use it, so that a second
 * window over the same memory (or MPI_Win_attach of part of a window's
 * memory) finds the memfd already there, and the pages go back to how
 * they were only when nothing uses them any more.
 *
 * REMAPPING.  Pages of private anonymous memory or of static data are
 * moved onto a memfd like this:
 *     node = malloc(...)                  (before: malloc may write the
 *                                          very pages being moved)
 *     memfd_create
 *     pwrite(memfd, pages)                (the contents, copied by the
 *                                          kernel: no sanitizer looks at
 *                                          the allocator's red zones;
 *                                          it allocates each page of the
 *                                          memfd as it fills it)
 *     mremap(pages, MREMAP_DONTUNMAP)     (anonymous pages only: set
 *                                          aside, "kept", their range
 *                                          left mapped and empty)
 *     mmap(pages, MAP_SHARED|MAP_FIXED, memfd)
 *     madvise(kept, MADV_FREE)            (the kernel may take kept
 *                                          pages back if it needs memory)
 * Nothing in this process writes to the pages between the copy and the
 * mmap, so nothing is lost - but another thread of the program that
 * touches them during the call may lose its write or read zeros
 * (shmpi(7), RMA).  Going back is the same in reverse: the contents are
 * read into the kept pages (those the kernel did not take back are
 * written in place, no fault, no zeroing), else into fresh private ones,
 * which mremap moves over the shared ones in one step.
 *
 * Why keep the private pages.  What a window over malloc'd memory costs
 * here is the kernel allocating, zeroing and freeing its pages one by
 * one, more than copying them: on this VM, loaded, 256 MiB of pages took
 * 1-3 s to fault in and zero (2026-11-28, a memset of fresh memory).
 * Before, moving reserved the memfd's pages with fallocate (zeroed, then
 * overwritten by the pwrite) and freed the private ones; going back
 * faulted in and zeroed fresh private pages and freed the memfd's:
 * two allocations and two frees of the whole window besides the program's
 * own.  Now one of each: freeing a 256 MiB MPI_Win_create window took
 * 0.21 s instead of 0.49 on the loaded machine, making it 0.47 s instead
 * of 0.56; 0.23 s instead of 0.33 to free when quiet (2026-11-28,
 * medians of 3 rounds alternating the library before and after, of
 * `./mpirun -np 2 --bind-to core perf/bin/put_bibw-shmpi -w create -s
 * fence -m 4M`).  Static
 * data is never set aside: pages of the program's image may hold its
 * GOT, which the very next call through the PLT would read from the
 * emptied range.  Where mremap cannot set pages aside (MREMAP_DONTUNMAP
 * is Linux 5.7; a range over two mappings) the mmap frees them.
 *
 * WHICH PAGES MAY MOVE.  /proc/self/maps says what each mapping is:
 *   - "rw-p" with no file, "[heap]" or "[anon:...]": private anonymous
 *     memory (malloc, anonymous mmap, the tail of .bss) - yes, unless it
 *     is a stack: "[stack]", a named thread stack ("[anon: glibc:
 *     pthread stack: ...]"), or the mapping that holds a local variable
 *     of this function (the calling thread's); a stack's pages are
 *     written by the very calls that would move them;
 *   - "rw-p" of a file, inside a writable PT_LOAD segment of a loaded
 *     object (dl_iterate_phdr): the program's or a library's .data/.bss
 *     - yes; contents are all that a private mapping of the image keeps;
 *   - anything else (other private file mappings, whose pages not yet
 *     written still follow the file; shared mappings, which another
 *     process may hold too; read-only or guard pages) - no.
 * Every page of the range must qualify; a range partly on pages already
 * moved for another window cannot move either (peers of that window map
 * the first memfd).
 *
 * State: this process's extents are shmpi_proc.rma->extents (state.h),
 * changed and searched under the rma lock (MPI_THREAD_MULTIPLE: threads
 * making, attaching or freeing windows at once).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rma/map.h"
#include "core/memseg.h"
#include "core/proc.h"
#include "rma/state.h"

struct shmpi_extent {
    unsigned char *start;      /* page-aligned */
    size_t len;                /* whole pages */
    int fd;                    /* the memfd holding them, from offset 0 */
    unsigned char *kept;       /* remapped: the private pages set
                                  aside for going back; NULL: freed */
    int refs;                  /* shares using it */
    int remapped;              /* 1: pages moved by shmpi_rma_map_share,
                                  restored at the end; 0: made by
                                  shmpi_rma_map_alloc, unmapped at the end */
    struct shmpi_extent *next;
};

/* This process's extents: shmpi_proc.rma->extents (state.h). */

static size_t page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

int shmpi_rma_map_segment(size_t bytes, void **base, int *fd)
{
    return shmpi_core_memfd_map(bytes, "shmpi-win", base, fd);
}

int shmpi_rma_map_alloc(size_t bytes, void **base, struct shmpi_share *share)
{
    size_t pg = page_size(), len = (bytes + pg - 1) / pg * pg;
    struct shmpi_extent *e = malloc(sizeof *e);
    if (!e)
        return ENOMEM;
    int fd, rc = shmpi_rma_map_segment(len, base, &fd);
    if (rc != 0) {
        free(e);
        return rc;
    }
    shmpi_core_lock(&shmpi_proc.rma->lock);
    *e = (struct shmpi_extent){*base, len, fd, NULL, 1, 0,
                               shmpi_proc.rma->extents};
    shmpi_proc.rma->extents = e;
    shmpi_core_unlock(&shmpi_proc.rma->lock);
    *share = (struct shmpi_share){fd, 0, e};
    return 0;
}

/* ------------------------------------------------------------------ */
/* Which pages may move                                                */
/* ------------------------------------------------------------------ */

struct image_probe {
    uintptr_t lo, hi;          /* pages to find */
    int found;
};

/* Is [lo, hi) inside the pages of a writable PT_LOAD of this object? */
static int in_writable_segment(struct dl_phdr_info *info, size_t size,
                               void *arg)
{
    struct image_probe *q = arg;
    uintptr_t pg = page_size();
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
            continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr;
        uintptr_t b = a + ph->p_memsz;
        a &= ~(pg - 1);
        b = (b + pg - 1) & ~(pg - 1);
        if (q->lo >= a && q->hi <= b)
            return q->found = 1;
    }
    return 0;
}

/* One line of /proc/self/maps: may pages [lo, hi) of it move? */
static int movable(uintptr_t lo, uintptr_t hi, const char *perms,
                   unsigned long inode, const char *path, uintptr_t sp)
{
    if (strncmp(perms, "rw-p", 4) != 0)
        return 0;
    if (inode == 0) {
        int named = !strncmp(path, "[anon:", 6) && !strstr(path, "stack");
        int anonymous = !*path || !strcmp(path, "[heap]") || named;
        return anonymous && !(sp >= lo && sp < hi);
    }
    struct image_probe q = {lo, hi, 0};
    dl_iterate_phdr(in_writable_segment, &q);
    return q.found;
}

/* PAGES_ANONYMOUS: movable, and none of them a file's (static data) */
enum pages_kind { PAGES_UNMAPPED, PAGES_MOVABLE, PAGES_ANONYMOUS,
                  PAGES_FIXED };

/* What the pages [lo, hi) are, by /proc/self/maps. */
static enum pages_kind classify(uintptr_t lo, uintptr_t hi)
{
    int here; /* a local: its address is on this thread's stack */
    uintptr_t sp = (uintptr_t)&here;
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return PAGES_FIXED;
    enum pages_kind kind = PAGES_ANONYMOUS;
    uintptr_t covered = lo;
    char line[PATH_MAX + 128];
    while (covered < hi && fgets(line, sizeof line, f)) {
        uintptr_t a, b;
        char perms[5], path[PATH_MAX] = "";
        unsigned long inode;
        if (sscanf(line, "%lx-%lx %4s %*s %*s %lu %4095[^\n]", &a, &b,
                   perms, &inode, path) < 4 || b <= covered)
            continue;
        if (a > covered) {
            kind = PAGES_UNMAPPED;
            break;
        }
        uintptr_t from = covered, to = b < hi ? b : hi;
        if (!movable(from, to, perms, inode, path, sp))
            kind = PAGES_FIXED;
        else if (inode != 0 && kind == PAGES_ANONYMOUS)
            kind = PAGES_MOVABLE;
        covered = b;
    }
    fclose(f);
    return covered < hi ? PAGES_UNMAPPED : kind;
}

/* ------------------------------------------------------------------ */
/* Moving pages onto a memfd and back                                  */
/* ------------------------------------------------------------------ */

/* pwrite/pread through the raw system call: the kernel copies, so no
   interceptor checks the range (which holds other objects too). */
static int copy_pages(long sysno, int fd, unsigned char *p, size_t len)
{
    size_t done = 0;
    while (done < len) {
        long n = syscall(sysno, fd, p + done, len - done, (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        done += (size_t)n;
    }
    return 0;
}

/* The private pages [start, start + len) set aside, their range left
   mapped and empty; where they went, or NULL if mremap cannot. */
static unsigned char *keep_pages(unsigned char *start, size_t len)
{
    void *kept = mremap(start, len, len, MREMAP_MAYMOVE | MREMAP_DONTUNMAP,
                        NULL);
    return kept == MAP_FAILED ? NULL : kept;
}

/* Pages at kept moved back to [start, start + len), over whatever is
   mapped there; 0 or errno. */
static int put_back(unsigned char *kept, unsigned char *start, size_t len)
{
    return mremap(kept, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, start) ==
                   MAP_FAILED ? errno : 0;
}

/* The pages of e (start, len filled in) onto a new memfd; 0 or errno.
   keep: set the private pages aside for going back (anonymous pages
   only, see the top).  e itself may lie on the pages: it is written
   before the copy and after the mmap only (locals in between). */
static int move_pages(struct shmpi_extent *e, int keep)
{
    unsigned char *start = e->start, *kept = NULL;
    size_t len = e->len;
    /* no fallocate: the pwrite allocates the pages it fills */
    int fd = e->fd = memfd_create("shmpi-win", MFD_CLOEXEC);
    if (fd < 0)
        return errno;
    int rc = copy_pages(SYS_pwrite64, fd, start, len);
    /* from here to the mmap nothing may write to the pages */
    if (rc == 0 && keep)
        kept = keep_pages(start, len);
    if (rc == 0 && mmap(start, len, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
        rc = errno;
        /* the contents back: moved, else (no memory for that) copied */
        if (kept && put_back(kept, start, len) != 0) {
            copy_pages(SYS_pread64, fd, start, len);
            munmap(kept, len);
        }
    }
    if (rc != 0) {
        close(fd);
        return rc;
    }
    if (kept) /* the kernel may take them back meanwhile if it needs */
        madvise(kept, len, MADV_FREE);
    e->kept = kept;
    return 0;
}

/* Private pages again, contents kept: the kept ones, else fresh ones.
   If that fails (no memory), the memfd pages stay: still this
   process's memory, with the same data. */
static void restore_pages(struct shmpi_extent *e)
{
    void *to = e->kept ? e->kept
                       : mmap(NULL, e->len, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (to == MAP_FAILED)
        return;
    if (copy_pages(SYS_pread64, e->fd, to, e->len) != 0 ||
        put_back(to, e->start, e->len) != 0)
        munmap(to, e->len);
}

/* The extent holding all of [lo, hi); NULL if none.  *partly says
   whether some extent holds part of it. */
static struct shmpi_extent *extent_holding(uintptr_t lo, uintptr_t hi,
                                           int *partly)
{
    *partly = 0;
    for (struct shmpi_extent *e = shmpi_proc.rma->extents; e; e = e->next) {
        uintptr_t a = (uintptr_t)e->start, b = a + e->len;
        if (lo >= a && hi <= b)
            return e;
        if (lo < b && hi > a)
            *partly = 1;
    }
    return NULL;
}

static void share_extent(struct shmpi_extent *e, uintptr_t at,
                         struct shmpi_share *share)
{
    e->refs++;
    *share = (struct shmpi_share){e->fd, at - (uintptr_t)e->start, e};
}

static int share_locked(void *base, size_t bytes, struct shmpi_share *share)
{
    uintptr_t pg = page_size(), at = (uintptr_t)base;
    uintptr_t lo = at & ~(pg - 1), hi = (at + bytes + pg - 1) & ~(pg - 1);
    *share = (struct shmpi_share){-1, 0, NULL};
    int fd;
    uint64_t offset;
    if (shmpi_core_memseg_find(base, bytes, &fd, &offset)) {
        *share = (struct shmpi_share){fd, offset, NULL};
        return 0;
    }
    int partly;
    struct shmpi_extent *e = extent_holding(at, at + bytes, &partly);
    if (e) {
        share_extent(e, at, share);
        return 0;
    }
    enum pages_kind kind = classify(lo, hi);
    if (kind == PAGES_UNMAPPED)
        return EFAULT;
    extent_holding(lo, hi, &partly); /* some page already moved? */
    if (kind == PAGES_FIXED || partly)
        return 0;
    e = malloc(sizeof *e); /* before the move: see the top comment */
    if (!e)
        return 0;
    *e = (struct shmpi_extent){(unsigned char *)lo, hi - lo, -1, NULL, 0,
                               1, NULL};
    if (move_pages(e, kind == PAGES_ANONYMOUS) != 0) {
        free(e);
        return 0;
    }
    e->next = shmpi_proc.rma->extents;
    shmpi_proc.rma->extents = e;
    share_extent(e, at, share);
    return 0;
}

int shmpi_rma_map_share(void *base, size_t bytes, struct shmpi_share *share)
{
    shmpi_core_lock(&shmpi_proc.rma->lock);
    int rc = share_locked(base, bytes, share);
    shmpi_core_unlock(&shmpi_proc.rma->lock);
    return rc;
}

static void release_locked(struct shmpi_extent *e)
{
    if (--e->refs > 0)
        return;
    struct shmpi_extent **pp = &shmpi_proc.rma->extents;
    while (*pp != e)
        pp = &(*pp)->next;
    *pp = e->next;
    if (e->remapped)
        restore_pages(e);
    else
        munmap(e->start, e->len);
    close(e->fd);
    free(e);
}

void shmpi_rma_map_release(struct shmpi_share *share)
{
    struct shmpi_extent *e = share->extent;
    share->extent = NULL;
    if (!e)
        return;
    shmpi_core_lock(&shmpi_proc.rma->lock);
    release_locked(e);
    shmpi_core_unlock(&shmpi_proc.rma->lock);
}

/* ------------------------------------------------------------------ */
/* Peers' memory                                                       */
/* ------------------------------------------------------------------ */

int shmpi_rma_map_peer(pid_t pid, int fd, uint64_t offset, size_t bytes,
                       unsigned char **at, struct shmpi_win_view *view)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)pid, fd);
    int pfd = open(path, O_RDWR | O_CLOEXEC);
    if (pfd < 0)
        return errno;
    uint64_t pg = page_size(), skip = offset % pg;
    size_t len = (size_t)((skip + bytes + pg - 1) / pg * pg);
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, pfd,
                   (off_t)(offset - skip));
    int rc = p == MAP_FAILED ? errno : 0;
    close(pfd); /* the mapping keeps the memfd */
    if (rc != 0)
        return rc;
    *view = (struct shmpi_win_view){p, len};
    *at = (unsigned char *)p + skip;
    return 0;
}

void shmpi_rma_map_unview(struct shmpi_win_view *view)
{
    if (view->addr)
        munmap(view->addr, view->len);
    view->addr = NULL;
}

/* ------------------------------------------------------------------ */
/* Cross-memory attach                                                 */
/* ------------------------------------------------------------------ */

/*
 * Under Yama's ptrace_scope 1, process_vm_readv/writev of another process
 * (a PTRACE_MODE_ATTACH check; opening /proc/pid/fd/N is only READ, which
 * Yama leaves alone) is allowed to its ancestors and to the tracer it
 * names with PR_SET_PTRACER - and to that tracer's descendants.  The ranks
 * are siblings, or the children of wrapper scripts, never each other's
 * ancestors; their one common ancestor is the launcher (mpirun, or the
 * program of the in-library launch).  Naming it lets in exactly the job:
 * the launcher and the processes it started, and theirs.  The parent
 * (getppid) would be wrong twice: under a wrapper it is the wrapper, whose
 * descendants the other ranks are not, and in a singleton it is the
 * user's shell (every program started from it could then read this
 * process's memory), or init once orphaned.  A singleton has no peers and
 * names nobody.  The relation ends when the launcher exits.
 */
void shmpi_rma_map_allow_peers(pid_t launcher)
{
    if (launcher > 0) /* EINVAL without Yama: nothing to allow then */
        prctl(PR_SET_PTRACER, (unsigned long)launcher, 0, 0, 0);
}
