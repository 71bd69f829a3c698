/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * win_dynamic.c - windows of dynamically attached memory (MPI-3.1
 * 11.2.4): MPI_Win_create_dynamic, MPI_Win_attach,
 * MPI_Win_detach, and how an origin finds the attached memory
 * (shmpi_win_region_find).
 *
 * THE REGION TABLE.  Each member publishes its regions in a memory file
 * of its own (the table segment, one per member and window): a header,
 * then struct region entries (base, size, and how the memory is shared)
 * sorted by base, so that an origin finds the region holding an address
 * by binary search - O(log n), about 17 probes for 100,000 regions.
 * Distributed data structures attach one region per element, so the
 * table is sized for many: its file is made sparse, TABLE_CAP entries
 * long (40 MiB of address space, nothing more), and the owner reserves
 * pages (posix_fallocate) as the table fills, doubling; memory that
 * cannot be had is MPI_ERR_NO_MEM at the attach that needed it.  The
 * reserve never shrinks: the table keeps the size of its largest count.
 * The entries occupy [first, first + count) of it: an attach or detach
 * moves the entries on the shorter side of its place by one (so a list
 * attached in either address order and detached from either end moves
 * none), and when that side has no room left the entries move to the
 * middle of the reserve (doubled first unless a quarter of it is free).
 * Only the owner writes its table; origins map it read-only the first
 * time they target the member.  The file holds no pointer: entries say
 * where the memory is in the owner's address space and in which of its
 * memory files.
 *
 * Attach and detach are local, so the owner changes its table while
 * origins read it.  A sequence lock (struct table_head.gen) keeps them
 * from acting on a half-moved table - change_begin() and table_span()
 * argue the orderings.  That an attach has returned before an origin targets
 * its memory (and that a detach comes after the last access) is the
 * program's duty (11.2.4): the lock only keeps the other entries
 * readable meanwhile.  An origin that finds the table changing spins,
 * and yields the CPU if the owner is descheduled mid-change.
 *
 * Regions of size 0 hold no byte an RMA call could reach: the owner keeps
 * them in a private list (for MPI_Win_detach), not in the table, so that
 * the table's regions never overlap and a lookup needs one entry.
 *
 * REACHING A REGION.  Attach shares the memory as MPI_Win_create does
 * (map.h: MPI_Alloc_mem memory and memory that can be remapped are
 * mapped by peers; the rest is reached with process_vm).  Many small
 * regions share one memory file (a page moved for the first element of
 * a list holds the next ones too; MPI_Alloc_mem carves small blocks
 * from one pool file), so an origin maps each file once, whole, and
 * keeps it in a cache per target keyed by the file's inode number: the
 * owner's descriptor number may be reused for another file after a
 * detach, an inode number is not while anyone maps the file.  The entry
 * says the inode; an origin that opens /proc/<pid>/fd/<fd> and finds
 * another one reads the table again (the region was detached).  Files
 * the owner let go of stay mapped by origins until a miss finds the
 * cache full and the owner's detach count moved: then the cache keeps
 * only the files the table still names.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "core/wait.h"
#include "rma/win_impl.h"

SHMPI_WEAK_ALIAS(Win_create_dynamic)
SHMPI_WEAK_ALIAS(Win_attach)
SHMPI_WEAK_ALIAS(Win_detach)

/* One attached region in the table segment.  Every field is written
   and read with relaxed atomics: origins read entries while the owner
   moves them, and the sequence lock tells them whether what they read
   is whole. */
struct region {
    _Atomic uint64_t base;     /* address in the owner's address space */
    _Atomic uint64_t size;     /* > 0 */
    _Atomic uint64_t fd_offset; /* where base is in the memory file */
    _Atomic uint64_t ino;      /* the memory file's inode number */
    _Atomic int64_t fd;        /* the owner's descriptor of it, or -1:
                                  reached with process_vm */
};

/* The table segment starts with this, on a cache line of its own. */
struct table_head {
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t gen; /* odd: changing */
    _Atomic uint32_t first;    /* the entries are [first, first + count), */
    _Atomic uint32_t count;    /* sorted by base */
    _Atomic uint64_t detaches; /* bumped by each detach */
};
_Static_assert(sizeof(struct table_head) == SHMPI_CACHELINE,
               "the entries start one cache line after the head");

#define TABLE_CAP (1u << 20)   /* entries a table segment can hold */
#define TABLE_FIRST 100        /* entries reserved at creation */

static size_t table_bytes(size_t entries)
{
    return SHMPI_CACHELINE + entries * sizeof(struct region);
}

static struct region *entries(const struct table_head *h)
{
    return (struct region *)((unsigned char *)h + SHMPI_CACHELINE);
}

/* A memory file of a target, mapped here whole. */
struct file_view {
    uint64_t ino;              /* 0: empty cache slot */
    struct shmpi_win_view view;
};

/* This process's view of one target's table and memory. */
struct peer {
    int fd;                    /* the target's descriptor of its table */
    struct shmpi_win_view table_view;
    const struct table_head *head; /* NULL until mapped */
    struct file_view *files;   /* open addressing by ino, nfiles_cap */
    uint32_t nfiles, nfiles_cap;
    uint64_t detaches_seen;    /* the target's count at the last sweep */
    /* the region found last, still there while the table's gen is
       last_gen (no attach or detach since, the sequence lock's word
       having moved on otherwise): a repeat costs one load */
    int has_last;
    uint32_t last_gen;
    uint64_t last_base, last_size;
    unsigned char *last_at;    /* its base as mapped here; NULL:
                                  reached with process_vm */
};

struct shmpi_win_dyn {
    /* this process's own regions */
    struct table_head *head;   /* its table segment, mapped here */
    int fd;                    /* ... and its descriptor; -1: none */
    int borrowed;              /* 1: head and fd are still another
                                  window's (MPI_Win_change_comm before
                                  the carry): not ours to release */
    uint32_t reserved;         /* entries with pages reserved, from 0 */
    struct shmpi_share *shares; /* [shares_cap >= reserved]: how each
                                  entry is shared, at the entry's index */
    uint32_t shares_cap;
    uint64_t *empty;           /* bases of attached regions of size 0 */
    uint32_t nempty, empty_cap;
    struct peer *peers;        /* [comm->size]; of oneself only the
                                  region found last is used */
    /* MPI_THREAD_MULTIPLE: held by attach and detach (this process's
       table and shares have one writer at a time) and by every lookup
       (the peers' caches above are filled on first use); nothing below
       MULTIPLE.  Errors of attach and detach are raised holding it: an
       error handler that itself attached, detached or accessed this
       window would wait for itself. */
    struct shmpi_core_lock lock;
};

/* ------------------------------------------------------------------ */
/* Creation and the end                                                */
/* ------------------------------------------------------------------ */

/* A new table segment: sparse, TABLE_FIRST entries reserved.  0 or an
   errno. */
static int make_table(struct shmpi_win_dyn *d)
{
    int fd = memfd_create("shmpi-regions", MFD_CLOEXEC);
    if (fd < 0)
        return errno;
    int rc = ftruncate(fd, (off_t)table_bytes(TABLE_CAP)) != 0 ? errno : 0;
    if (rc == 0)
        rc = posix_fallocate(fd, 0, (off_t)table_bytes(TABLE_FIRST));
    void *p = MAP_FAILED;
    if (rc == 0 && (p = mmap(NULL, table_bytes(TABLE_CAP),
                             PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) ==
                       MAP_FAILED)
        rc = errno;
    if (rc != 0) {
        close(fd);
        return rc;
    }
    d->head = p;
    d->fd = fd;
    d->reserved = TABLE_FIRST;
    return 0;
}

int shmpi_win_dynamic_begin(MPI_Win w, MPI_Win from,
                            struct shmpi_win_member *mine)
{
    struct shmpi_win_dyn *d = w->dyn = calloc(1, sizeof *d);
    int rc = ENOMEM;
    if (d)
        d->fd = -1;
    if (d && (d->peers = calloc((size_t)w->comm->size, sizeof *d->peers))) {
        if (from && from->dyn) { /* the same table, carried later */
            d->head = from->dyn->head;
            d->fd = from->dyn->fd;
            d->borrowed = 1;
            rc = 0;
        } else {
            rc = make_table(d);
        }
    }
    mine->regions_fd = d ? d->fd : -1;
    if (rc != 0) {
        mine->status = MPI_ERR_NO_MEM;
        snprintf(mine->why, sizeof mine->why,
                 "cannot make the table of attached regions: %s",
                 strerror(rc));
    }
    return rc == 0;
}

void shmpi_win_dynamic_peer(MPI_Win w, int t, int regions_fd)
{
    w->dyn->peers[t].fd = regions_fd;
}

int shmpi_win_dynamic_exposes(MPI_Win w)
{
    const struct shmpi_win_dyn *d = w->dyn;
    return atomic_load_explicit(&d->head->count, memory_order_relaxed) > 0 ||
           d->nempty > 0;
}

/* This process's mappings of its peers' tables and memory. */
static void unview_all(MPI_Win w)
{
    struct shmpi_win_dyn *d = w->dyn;
    for (int t = 0; d->peers && t < w->comm->size; t++) {
        struct peer *p = &d->peers[t];
        for (uint32_t i = 0; i < p->nfiles_cap; i++)
            shmpi_rma_map_unview(&p->files[i].view);
        free(p->files);
        shmpi_rma_map_unview(&p->table_view);
    }
    free(d->peers);
    d->peers = NULL;
}

/* The own regions of `from` and their table become to's (to's table is
   from's already, shmpi_win_dynamic_begin). */
void shmpi_win_dynamic_carry(MPI_Win to, MPI_Win from)
{
    struct shmpi_win_dyn *t = to->dyn, *f = from->dyn;
    t->borrowed = 0;
    t->reserved = f->reserved;
    t->shares = f->shares;
    t->shares_cap = f->shares_cap;
    t->empty = f->empty;
    t->nempty = f->nempty;
    t->empty_cap = f->empty_cap;
    unview_all(from);
    free(f);
    from->dyn = NULL;
}

void shmpi_win_dynamic_free(MPI_Win w)
{
    struct shmpi_win_dyn *d = w->dyn;
    if (!d)
        return;
    if (d->head && !d->borrowed) {
        uint32_t f = atomic_load_explicit(&d->head->first,
                                          memory_order_relaxed);
        uint32_t n = atomic_load_explicit(&d->head->count,
                                          memory_order_relaxed);
        for (uint32_t i = f; i < f + n; i++)
            shmpi_rma_map_release(&d->shares[i]);
        munmap(d->head, table_bytes(TABLE_CAP));
        close(d->fd);
    }
    unview_all(w);
    free(d->shares);
    free(d->empty);
    free(d);
    w->dyn = NULL;
}

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    static const char *fn = "MPI_Win_create_dynamic";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_win_check_comm(comm, fn);
    if (rc == MPI_SUCCESS)
        rc = shmpi_win_check_info(comm, info, fn);
    if (rc == MPI_SUCCESS && !win)
        rc = shmpi_raise(comm, MPI_ERR_ARG, fn, "win is NULL");
    MPI_Win w;
    if (rc == MPI_SUCCESS)
        rc = shmpi_win_begin(comm, MPI_WIN_FLAVOR_DYNAMIC, info, fn, &w);
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_win_member mine = {.disp_unit = 1, .fd = -1};
    shmpi_win_dynamic_begin(w, NULL, &mine);
    rc = shmpi_win_publish(w, &mine, 0, comm, fn);
    if (rc != MPI_SUCCESS) {
        shmpi_win_destroy(w);
        return rc;
    }
    *win = w; /* base MPI_BOTTOM, size 0, disp_unit 1 (11.2.4) */
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* The owner's side                                                    */
/* ------------------------------------------------------------------ */

static void copy_entry(struct region *to, const struct region *from)
{
    static const memory_order r = memory_order_relaxed;
    atomic_store_explicit(&to->base, atomic_load_explicit(&from->base, r), r);
    atomic_store_explicit(&to->size, atomic_load_explicit(&from->size, r), r);
    atomic_store_explicit(&to->fd_offset,
                          atomic_load_explicit(&from->fd_offset, r), r);
    atomic_store_explicit(&to->ino, atomic_load_explicit(&from->ino, r), r);
    atomic_store_explicit(&to->fd, atomic_load_explicit(&from->fd, r), r);
}

/* Entries [from, from + n) to [to, to + n), with their shares. */
static void move_entries(struct shmpi_win_dyn *d, uint32_t to, uint32_t from,
                         uint32_t n)
{
    struct region *e = entries(d->head);
    if (to < from)
        for (uint32_t i = 0; i < n; i++)
            copy_entry(&e[to + i], &e[from + i]);
    else
        for (uint32_t i = n; i-- > 0;)
            copy_entry(&e[to + i], &e[from + i]);
    memmove(&d->shares[to], &d->shares[from], n * sizeof *d->shares);
}

/* A change of the table, under the sequence lock.  The writer's half of
   it (the reader's: read_table):
       store(gen, g + 1, relaxed)     odd: origins will retry
       fence(release)                 an origin that reads any entry,
                                      first or count stored below also
                                      reads gen odd or later
                                      (fence-to-fence with its acquire
                                      fence before its recheck)
       entries, first, count: relaxed
       store(gen, g + 2, release)     an origin that reads g + 2 with
                                      acquire reads all of the above
   Only the owner writes, so gen needs no read-modify-write. */
static uint32_t change_begin(struct table_head *h)
{
    uint32_t g = atomic_load_explicit(&h->gen, memory_order_relaxed);
    atomic_store_explicit(&h->gen, g + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    return g;
}

static void change_end(struct table_head *h, uint32_t g, uint32_t first,
                       uint32_t count)
{
    atomic_store_explicit(&h->first, first, memory_order_relaxed);
    atomic_store_explicit(&h->count, count, memory_order_relaxed);
    atomic_store_explicit(&h->gen, g + 2, memory_order_release);
}

/* value becomes the pos-th entry.  The shorter side moves: the entries
   before it one down, else those after it one up (make_room left room
   on the side that moves). */
static void insert_entry(struct shmpi_win_dyn *d, uint32_t pos,
                         const struct region *value,
                         const struct shmpi_share *share)
{
    struct table_head *h = d->head;
    uint32_t f = atomic_load_explicit(&h->first, memory_order_relaxed);
    uint32_t n = atomic_load_explicit(&h->count, memory_order_relaxed);
    uint32_t g = change_begin(h);
    if (pos < n / 2 && f > 0)
        move_entries(d, f - 1, f, pos), f--;
    else
        move_entries(d, f + pos + 1, f + pos, n - pos);
    copy_entry(&entries(h)[f + pos], value);
    d->shares[f + pos] = *share;
    change_end(h, g, f, n + 1);
}

/* The pos-th entry goes; the shorter side moves (detaching a list from
   its head, or from its tail, moves nothing). */
static void remove_entry(struct shmpi_win_dyn *d, uint32_t pos)
{
    struct table_head *h = d->head;
    uint32_t f = atomic_load_explicit(&h->first, memory_order_relaxed);
    uint32_t n = atomic_load_explicit(&h->count, memory_order_relaxed);
    uint32_t g = change_begin(h);
    if (pos < n / 2)
        move_entries(d, f + 1, f, pos), f++;
    else
        move_entries(d, f + pos, f + pos + 1, n - pos - 1);
    atomic_fetch_add_explicit(&h->detaches, 1, memory_order_relaxed);
    change_end(h, g, f, n - 1);
}

/* The entries to the middle of the reserve: room on both sides. */
static void recentre(struct shmpi_win_dyn *d)
{
    struct table_head *h = d->head;
    uint32_t f = atomic_load_explicit(&h->first, memory_order_relaxed);
    uint32_t n = atomic_load_explicit(&h->count, memory_order_relaxed);
    uint32_t to = (d->reserved - n) / 2, g = change_begin(h);
    move_entries(d, to, f, n);
    change_end(h, g, to, n);
}

/* The owner reads its own table without the lock: nobody else writes. */
static uint64_t own(const _Atomic uint64_t *field)
{
    return atomic_load_explicit(field, memory_order_relaxed);
}

/* The first of n entries whose base is above addr (n if none). */
static uint32_t upper_bound(const struct region *e, uint32_t n,
                            uint64_t addr)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (atomic_load_explicit(&e[mid].base, memory_order_relaxed) <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int check_dynamic(MPI_Win win, const char *fn)
{
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return shmpi_win_raise(win, MPI_ERR_RMA_FLAVOR, fn,
                               "the window was made by %s: memory is "
                               "attached only to windows of "
                               "MPI_Win_create_dynamic",
                               shmpi_win_maker(win));
    return MPI_SUCCESS;
}

/* MPI_ERR_RMA_ATTACH if [base, base + size) overlaps the region at i. */
static int check_apart(MPI_Win win, uint32_t i, uint64_t base,
                       uint64_t size, const char *fn)
{
    const struct region *e = &entries(win->dyn->head)[i];
    uint64_t a = own(&e->base), b = a + own(&e->size);
    if (base >= b || base + size <= a)
        return MPI_SUCCESS;
    return shmpi_win_raise(win, MPI_ERR_RMA_ATTACH, fn,
                           "[%p, %p) overlaps memory already attached to "
                           "this window, [%p, %p) (11.2.4: attached regions "
                           "must not overlap)", (void *)(uintptr_t)base,
                           (void *)(uintptr_t)(base + size),
                           (void *)(uintptr_t)a, (void *)(uintptr_t)b);
}

/* Room for a new pos-th entry on the side insert_entry will move: when
   that side is full, the entries go to the middle of the reserve - which
   first doubles unless a quarter of it is free, so that each move buys
   room for many attaches - and the private shares follow the reserve.
   MPI_SUCCESS or the error raised. */
static int make_room(MPI_Win win, uint32_t pos, const char *fn)
{
    struct shmpi_win_dyn *d = win->dyn;
    uint32_t f = atomic_load_explicit(&d->head->first, memory_order_relaxed);
    uint32_t n = atomic_load_explicit(&d->head->count, memory_order_relaxed);
    if (n == TABLE_CAP)
        return shmpi_win_raise(win, MPI_ERR_RMA_ATTACH, fn,
                               "%u regions are attached already, the most "
                               "one process can attach to one window: "
                               "detach some", TABLE_CAP);
    int room = pos < n / 2 ? f > 0 : f + n < d->reserved;
    if (!room && d->reserved - n < d->reserved / 4 &&
        d->reserved < TABLE_CAP) {
        uint32_t more = d->reserved * 2 < TABLE_CAP ? d->reserved * 2
                                                    : TABLE_CAP;
        int rc = posix_fallocate(d->fd, 0, (off_t)table_bytes(more));
        if (rc != 0)
            return shmpi_win_raise(win, MPI_ERR_NO_MEM, fn,
                                   "no memory to grow the table of attached "
                                   "regions to %u entries (%zu bytes of "
                                   "shared memory): %s", more,
                                   table_bytes(more), strerror(rc));
        d->reserved = more;
    }
    if (d->shares_cap < d->reserved) {
        struct shmpi_share *s =
            realloc(d->shares, d->reserved * sizeof *s);
        if (!s)
            return shmpi_win_raise(win, MPI_ERR_NO_MEM, fn,
                                   "no memory to track %u attached regions",
                                   d->reserved);
        d->shares = s;
        d->shares_cap = d->reserved;
    }
    if (!room)
        recentre(d);
    return MPI_SUCCESS;
}

/* Size 0: into the private list (the top comment says why). */
static int attach_empty(MPI_Win win, void *base, const char *fn)
{
    struct shmpi_win_dyn *d = win->dyn;
    if (d->nempty == d->empty_cap) {
        uint32_t more = d->empty_cap ? d->empty_cap * 2 : 16;
        uint64_t *e = realloc(d->empty, more * sizeof *e);
        if (!e)
            return shmpi_win_raise(win, MPI_ERR_NO_MEM, fn,
                                   "no memory to track %u attached regions "
                                   "of size 0", more);
        d->empty = e;
        d->empty_cap = more;
    }
    d->empty[d->nempty++] = (uintptr_t)base;
    return MPI_SUCCESS;
}

/* The entry for the region [base, base + size) shared as share. */
static struct region entry_of(uint64_t base, uint64_t size,
                              const struct shmpi_share *share)
{
    struct stat st;
    st.st_ino = 0;
    int fd = share->fd;
    if (fd >= 0 && fstat(fd, &st) != 0)
        fd = -1; /* cannot happen to a descriptor we hold; process_vm */
    struct region r;
    atomic_init(&r.base, base);
    atomic_init(&r.size, size);
    atomic_init(&r.fd_offset, share->offset);
    atomic_init(&r.ino, fd >= 0 ? (uint64_t)st.st_ino : 0);
    atomic_init(&r.fd, fd);
    return r;
}

static int attach(MPI_Win win, void *base, MPI_Aint size, const char *fn)
{
    int rc;
    if (size < 0)
        return shmpi_win_raise(win, MPI_ERR_SIZE, fn, "size %ld is negative",
                               (long)size);
    if (size == 0)
        return attach_empty(win, base, fn);
    struct shmpi_win_dyn *d = win->dyn;
    uint64_t at = (uintptr_t)base;
    uint32_t f = atomic_load_explicit(&d->head->first, memory_order_relaxed);
    uint32_t n = atomic_load_explicit(&d->head->count, memory_order_relaxed);
    uint32_t pos = upper_bound(entries(d->head) + f, n, at);
    if ((pos > 0 && (rc = check_apart(win, f + pos - 1, at, (uint64_t)size,
                                      fn))) ||
        (pos < n && (rc = check_apart(win, f + pos, at, (uint64_t)size,
                                      fn))) ||
        (rc = make_room(win, pos, fn)))
        return rc;
    struct shmpi_share share;
    if (shmpi_rma_map_share(base, (size_t)size, &share) != 0)
        return shmpi_win_raise(win, MPI_ERR_RMA_ATTACH, fn,
                               "[%p, %p) is not all memory of this process "
                               "(only memory that can be accessed may be "
                               "attached)", base, (char *)base + size);
    struct region r = entry_of(at, (uint64_t)size, &share);
    insert_entry(d, pos, &r, &share);
    return MPI_SUCCESS;
}

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    static const char *fn = "MPI_Win_attach";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_dynamic(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_core_lock(&win->dyn->lock);
    rc = attach(win, base, size, fn);
    shmpi_core_unlock(&win->dyn->lock);
    return rc;
}

/* Detaches the region of size 0 at base: 1, or 0 if there is none. */
static int detach_empty(struct shmpi_win_dyn *d, uint64_t base)
{
    for (uint32_t i = 0; i < d->nempty; i++)
        if (d->empty[i] == base) {
            d->empty[i] = d->empty[--d->nempty];
            return 1;
        }
    return 0;
}

static int detach(MPI_Win win, const void *base, const char *fn)
{
    struct shmpi_win_dyn *d = win->dyn;
    uint64_t at = (uintptr_t)base;
    uint32_t f = atomic_load_explicit(&d->head->first, memory_order_relaxed);
    uint32_t n = atomic_load_explicit(&d->head->count, memory_order_relaxed);
    uint32_t pos = upper_bound(entries(d->head) + f, n, at);
    if (pos > 0 && own(&entries(d->head)[f + pos - 1].base) == at) {
        struct shmpi_share share = d->shares[f + pos - 1];
        remove_entry(d, pos - 1);
        shmpi_rma_map_release(&share);
        return MPI_SUCCESS;
    }
    if (detach_empty(d, at))
        return MPI_SUCCESS;
    return shmpi_win_raise(win, MPI_ERR_RMA_ATTACH, fn,
                           "no memory attached to this window starts at %p "
                           "(detach takes the base given to "
                           "MPI_Win_attach)", base);
}

int PMPI_Win_detach(MPI_Win win, const void *base)
{
    static const char *fn = "MPI_Win_detach";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_dynamic(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_core_lock(&win->dyn->lock);
    rc = detach(win, base, fn);
    shmpi_core_unlock(&win->dyn->lock);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The origin's side                                                   */
/* ------------------------------------------------------------------ */

/* What a look at a table found: the region with the highest base not
   above the address (below) and the next one (above); has_* say which
   exist.  Plain copies, made under the lock. */
struct probe {
    uint32_t gen;              /* the table's, even */
    int has_below, has_above;
    uint64_t base, size, fd_offset, ino; /* of below */
    int64_t fd;
    uint64_t above_base, above_size;
};

static void read_entry(const struct region *e, struct probe *p)
{
    p->base = atomic_load_explicit(&e->base, memory_order_relaxed);
    p->size = atomic_load_explicit(&e->size, memory_order_relaxed);
    p->fd_offset = atomic_load_explicit(&e->fd_offset, memory_order_relaxed);
    p->ino = atomic_load_explicit(&e->ino, memory_order_relaxed);
    p->fd = atomic_load_explicit(&e->fd, memory_order_relaxed);
}

/* Where the entries of h are, as of generation *g: 1, with *first and
   *count; 0 if a change is under way or began meanwhile.  The first half
   of the reader's side of the sequence lock (the writer's:
   change_begin):
       g = load(gen, acquire)         even: no change under way, and what
                                      every change that ended at g stored
                                      is visible
       first, count: relaxed loads
       fence(acquire)
       load(gen, relaxed) == g        else a change overlapped the loads
                                      (it stored g + 1 before first or
                                      count)
   So first and count are of one state, and [first, first + count) lies
   in pages the owner reserved (which it never gives back): the entries
   read next, even half-moved, are memory of the table. */
static int table_span(const struct table_head *h, uint32_t *g,
                      uint32_t *first, uint32_t *count)
{
    *g = atomic_load_explicit(&h->gen, memory_order_acquire);
    if (*g & 1)
        return 0;
    *first = atomic_load_explicit(&h->first, memory_order_relaxed);
    *count = atomic_load_explicit(&h->count, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    return atomic_load_explicit(&h->gen, memory_order_relaxed) == *g;
}

/* The second half: did the entries read since table_span stay as they
   were at g?  The same fence and recheck: a change that moved any of
   them stored g + 1 first. */
static int table_still(const struct table_head *h, uint32_t g)
{
    atomic_thread_fence(memory_order_acquire);
    return atomic_load_explicit(&h->gen, memory_order_relaxed) == g;
}

/* A consistent probe of table h for addr: a binary search between the
   two halves of the lock, retried until no change overlapped it.  The
   owner may be descheduled between two stores to gen (np > cores):
   after a short spin the reader yields the CPU to it. */
static void read_table(const struct table_head *h, uint64_t addr,
                       struct probe *p)
{
    for (unsigned spins = 0;; spins++) {
        uint32_t g, f, n;
        if (table_span(h, &g, &f, &n)) {
            const struct region *e = entries(h) + f;
            uint32_t pos = upper_bound(e, n, addr);
            p->has_below = pos > 0;
            p->has_above = pos < n;
            if (p->has_below)
                read_entry(&e[pos - 1], p);
            if (p->has_above) {
                p->above_base =
                    atomic_load_explicit(&e[pos].base, memory_order_relaxed);
                p->above_size =
                    atomic_load_explicit(&e[pos].size, memory_order_relaxed);
            }
            p->gen = g;
            if (table_still(h, g))
                return;
        }
        if (spins % 64 == 63)
            sched_yield();
        else
            shmpi_cpu_relax();
    }
}

/* target's table, mapped here on first use; NULL and errno if it
   cannot be. */
static const struct table_head *table_of(MPI_Win w, int target)
{
    struct shmpi_win_dyn *d = w->dyn;
    if (target == w->comm->rank)
        return d->head;
    struct peer *p = &d->peers[target];
    if (p->head)
        return p->head;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)w->targets[target].pid,
             p->fd);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    void *at = mmap(NULL, table_bytes(TABLE_CAP), PROT_READ, MAP_SHARED, fd,
                    0);
    int err = errno;
    close(fd); /* the mapping keeps the file */
    if (at == MAP_FAILED) {
        errno = err;
        return NULL;
    }
    p->table_view = (struct shmpi_win_view){at, table_bytes(TABLE_CAP)};
    return p->head = at;
}

static uint32_t hash_ino(uint64_t ino, uint32_t cap)
{
    return (uint32_t)((ino * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

/* The cache slot of ino in p: its own, or the empty one it would go to. */
static struct file_view *file_slot(const struct peer *p, uint64_t ino)
{
    uint32_t i = hash_ino(ino, p->nfiles_cap);
    while (p->files[i].ino != 0 && p->files[i].ino != ino)
        i = (i + 1) & (p->nfiles_cap - 1);
    return &p->files[i];
}

/* Is ino named by an entry of h?  A whole scan, under the lock; -1 if
   the owner kept changing the table meanwhile. */
static int table_names(const struct table_head *h, uint64_t ino)
{
    for (int tries = 0; tries < 4; tries++) {
        uint32_t g, f, n;
        if (!table_span(h, &g, &f, &n))
            continue;
        const struct region *e = entries(h) + f;
        int found = 0;
        for (uint32_t i = 0; i < n && !found; i++)
            found = atomic_load_explicit(&e[i].ino, memory_order_relaxed) ==
                    ino;
        if (table_still(h, g))
            return found;
    }
    return -1;
}

/* Rehashes p's cache into cap slots, keeping only the files its target's
   table still names when `sweep`.  0, or -1 without memory (the cache
   is then as it was). */
static int rehash(struct peer *p, uint32_t cap, int sweep)
{
    struct file_view *old = p->files, *fresh = calloc(cap, sizeof *fresh);
    uint32_t old_cap = p->nfiles_cap;
    if (!fresh)
        return -1;
    p->files = fresh;
    p->nfiles_cap = cap;
    p->nfiles = 0;
    for (uint32_t i = 0; i < old_cap; i++) {
        if (old[i].ino == 0)
            continue;
        if (sweep && table_names(p->head, old[i].ino) == 0) {
            shmpi_rma_map_unview(&old[i].view);
            continue;
        }
        *file_slot(p, old[i].ino) = old[i];
        p->nfiles++;
    }
    free(old);
    return 0;
}

/* Room in p's cache for one more file: at most half full, after
   dropping the files the owner let go of if it detached anything
   since the last sweep. */
static int cache_room(struct peer *p)
{
    if (p->nfiles_cap == 0)
        return rehash(p, 16, 0);
    if (2 * (p->nfiles + 1) <= p->nfiles_cap)
        return 0;
    uint64_t detaches =
        atomic_load_explicit(&p->head->detaches, memory_order_relaxed);
    if (detaches != p->detaches_seen) {
        p->detaches_seen = detaches;
        if (rehash(p, p->nfiles_cap, 1) != 0)
            return -1;
        if (2 * (p->nfiles + 1) <= p->nfiles_cap)
            return 0;
    }
    return rehash(p, p->nfiles_cap * 2, 0);
}

/* Maps the memory file of the region probed, if the target's descriptor
   still names it: 1 mapped (*at), 0 it names another file now (the
   region was detached: read the table again), -1 it cannot be mapped
   here (process_vm then). */
static int map_file(MPI_Win w, int target, const struct probe *r,
                    unsigned char **at)
{
    struct peer *p = &w->dyn->peers[target];
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)w->targets[target].pid,
             (int)r->fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    int rc = fstat(fd, &st) != 0 ? -1 : (uint64_t)st.st_ino != r->ino ? 0 : 1;
    void *m = MAP_FAILED;
    if (rc == 1 && cache_room(p) == 0)
        m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
                 MAP_SHARED, fd, 0);
    close(fd); /* the mapping keeps the file */
    if (rc != 1)
        return rc;
    if (m == MAP_FAILED)
        return -1;
    struct file_view *slot = file_slot(p, r->ino);
    *slot = (struct file_view){r->ino, {m, (size_t)st.st_size}};
    p->nfiles++;
    *at = m;
    return 1;
}

/* Where the region probed is here (its base): *at, or NULL for
   process_vm.  0, or 1 if the table must be read again (the region was
   detached meanwhile). */
static int place(MPI_Win w, int target, const struct probe *r, int tries,
                 unsigned char **at)
{
    *at = NULL; /* not mappable: process_vm (or the target's mailbox, as
                   connected when the window was made) */
    if (target == w->comm->rank) {
        *at = (unsigned char *)(uintptr_t)r->base;
        return 0;
    }
    if (r->fd < 0)
        return 0;
    struct peer *p = &w->dyn->peers[target];
    struct file_view *slot = p->nfiles_cap ? file_slot(p, r->ino) : NULL;
    unsigned char *file = slot && slot->ino == r->ino ? slot->view.addr
                                                      : NULL;
    int mapped = file ? 1 : map_file(w, target, r, &file);
    if (mapped > 0)
        *at = file + r->fd_offset;
    /* a descriptor that never names the file the table says: reach the
       memory by address */
    return mapped == 0 && tries < 3;
}

static int find_slow(MPI_Win w, int target, const struct table_head *h,
                     uint64_t addr, uint64_t len, unsigned char **local)
{
    struct peer *p = &w->dyn->peers[target];
    struct probe r;
    unsigned char *at;
    int tries = 0;
    do {
        read_table(h, addr, &r);
        if (!r.has_below || addr - r.base > r.size ||
            len > r.size - (addr - r.base))
            return 0;
    } while (place(w, target, &r, tries++, &at));
    p->has_last = 1;
    p->last_gen = r.gen;
    p->last_base = r.base;
    p->last_size = r.size;
    p->last_at = at;
    *local = at ? at + (addr - r.base) : NULL;
    return 1;
}

static int region_find(MPI_Win w, int target, uint64_t addr, uint64_t len,
                       unsigned char **local)
{
    const struct table_head *h = table_of(w, target);
    if (!h)
        return -1;
    /* acquire: pairs with change_end()'s release store of gen, as in
       table_span() */
    const struct peer *p = &w->dyn->peers[target];
    if (p->has_last &&
        atomic_load_explicit(&h->gen, memory_order_acquire) == p->last_gen &&
        addr - p->last_base <= p->last_size &&
        len <= p->last_size - (addr - p->last_base)) {
        *local = p->last_at ? p->last_at + (addr - p->last_base) : NULL;
        return 1;
    }
    return find_slow(w, target, h, addr, len, local);
}

int shmpi_win_region_find(MPI_Win w, int target, uint64_t addr,
                          uint64_t len, unsigned char **local)
{
    if (__builtin_expect(!shmpi_proc.mt, 1))
        return region_find(w, target, addr, len, local);
    shmpi_core_mutex_lock(&w->dyn->lock);
    int found = region_find(w, target, addr, len, local);
    shmpi_core_mutex_unlock(&w->dyn->lock);
    return found;
}

static int region_nearest(MPI_Win w, int target, uint64_t start,
                          uint64_t end, uint64_t *base, uint64_t *size)
{
    const struct table_head *h = table_of(w, target);
    if (!h)
        return 0;
    struct probe r;
    read_table(h, start, &r);
    if (!r.has_below && !r.has_above)
        return 0;
    uint64_t below_gap = r.has_below && start > r.base + r.size
                             ? start - (r.base + r.size) : 0;
    uint64_t above_gap = r.has_above && r.above_base > end
                             ? r.above_base - end : 0;
    if (r.has_above && (!r.has_below || above_gap < below_gap)) {
        *base = r.above_base;
        *size = r.above_size;
    } else {
        *base = r.base;
        *size = r.size;
    }
    return 1;
}

int shmpi_win_region_nearest(MPI_Win w, int target, uint64_t start,
                             uint64_t end, uint64_t *base, uint64_t *size)
{
    shmpi_core_lock(&w->dyn->lock);
    int found = region_nearest(w, target, start, end, base, size);
    shmpi_core_unlock(&w->dyn->lock);
    return found;
}
