/*
 * win_dynamic.c - windows of dynamically attached memory (MPI-3.1
 * 11.2.4, seed 003): MPI_Win_create_dynamic, MPI_Win_attach,
 * MPI_Win_detach, and how an origin finds the attached memory
 * (shmpi_win_region_find).
 *
 * THE REGION TABLE.  Each member publishes its regions in its block of
 * the control segment (shmpi_win_regions): SHMPI_WIN_MAX_REGIONS slots
 * of (base, size, fd, fd_offset, used).  Attach and detach are local, and
 * only the owner writes its table, under a sequence lock on its
 * regions_gen word:
 *     owner:  gen = g + 1 (odd: changing); fence(release);
 *             write the slot; store(gen, g + 2, release)
 *     origin: g1 = load(gen, acquire) (even, else retry); read the slots;
 *             fence(acquire); retry unless load(gen) == g1
 * so an origin never acts on a half-written slot.  That an attach has
 * returned before an origin targets its memory is the program's duty
 * (11.2.4); the lock only keeps the other slots readable meanwhile.
 *
 * REACHING A REGION.  Attach shares the memory as MPI_Win_create does
 * (map.h: MPI_Alloc_mem memory and memory that can be remapped are
 * mapped by peers; the rest is reached with process_vm).  An origin
 * maps a region the first time it targets it and keeps the mapping in
 * its cache, one entry per (target, slot), valid while the slot holds
 * the same attach: `used` is the attach's serial number, which the owner
 * never reuses, so a detach and a new attach in the same slot - even
 * of the same memory - is seen as a new region.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "rma/win_impl.h"

SHMPI_WEAK_ALIAS(Win_create_dynamic)
SHMPI_WEAK_ALIAS(Win_attach)
SHMPI_WEAK_ALIAS(Win_detach)

/* An origin's mapping of one slot of one target. */
struct region_view {
    uint32_t serial;           /* the attach it is for; 0: none */
    unsigned char *at;         /* where the region's base is mapped here;
                                  NULL: reached with process_vm */
    struct shmpi_win_view view;
};

struct shmpi_win_dyn {
    struct shmpi_share shares[SHMPI_WIN_MAX_REGIONS]; /* own regions */
    uint32_t serial;           /* of this process's last attach */
    struct region_view *views; /* [size][SHMPI_WIN_MAX_REGIONS] */
};

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
    if (!shmpi_win_dynamic_begin(w)) {
        mine.status = MPI_ERR_NO_MEM;
        snprintf(mine.why, sizeof mine.why,
                 "no memory for the region tables");
    }
    rc = shmpi_win_publish(w, &mine, 0, comm, fn);
    if (rc != MPI_SUCCESS) {
        shmpi_win_destroy(w);
        return rc;
    }
    *win = w; /* base MPI_BOTTOM, size 0, disp_unit 1 (11.2.4) */
    return MPI_SUCCESS;
}

int shmpi_win_dynamic_begin(MPI_Win w)
{
    w->dyn = calloc(1, sizeof *w->dyn);
    if (w->dyn)
        w->dyn->views = calloc((size_t)w->comm->size * SHMPI_WIN_MAX_REGIONS,
                               sizeof *w->dyn->views);
    return w->dyn && w->dyn->views;
}

/* This process's mappings of its peers' regions. */
static void unview_all(MPI_Win w)
{
    struct shmpi_win_dyn *d = w->dyn;
    for (int i = 0; d->views && i < w->comm->size * SHMPI_WIN_MAX_REGIONS;
         i++)
        shmpi_map_unview(&d->views[i].view);
    free(d->views);
}

void shmpi_win_dynamic_carry(MPI_Win to, MPI_Win from)
{
    memcpy(to->dyn->shares, from->dyn->shares, sizeof to->dyn->shares);
    to->dyn->serial = from->dyn->serial;
    memcpy(shmpi_win_regions(to, to->comm->rank),
           shmpi_win_regions(from, from->comm->rank),
           SHMPI_WIN_MAX_REGIONS * sizeof(struct shmpi_win_region));
    unview_all(from);
    free(from->dyn);
    from->dyn = NULL;
}

void shmpi_win_dynamic_free(MPI_Win w)
{
    struct shmpi_win_dyn *d = w->dyn;
    if (!d)
        return;
    struct shmpi_win_region *mine =
        w->ctl ? shmpi_win_regions(w, w->comm->rank) : NULL;
    for (int i = 0; mine && i < SHMPI_WIN_MAX_REGIONS; i++)
        if (mine[i].used)
            shmpi_map_release(&d->shares[i]);
    unview_all(w);
    free(d);
    w->dyn = NULL;
}

/* ------------------------------------------------------------------ */
/* The owner's side                                                    */
/* ------------------------------------------------------------------ */

/* Runs change(slot) on this process's table under the sequence lock. */
static void publish_slot(MPI_Win w, struct shmpi_win_region *slot,
                         const struct shmpi_win_region *value)
{
    _Atomic uint32_t *gen = &shmpi_win_ctl_of(w, w->comm->rank)->regions_gen;
    uint32_t g = atomic_load_explicit(gen, memory_order_relaxed);
    atomic_store_explicit(gen, g + 1, memory_order_relaxed);
    /* the odd value is seen before any byte of the slot changes */
    atomic_thread_fence(memory_order_release);
    *slot = *value;
    /* release: the slot is complete before the even value shows */
    atomic_store_explicit(gen, g + 2, memory_order_release);
}

static int check_dynamic(MPI_Win win, const char *fn)
{
    if (!shmpi_win_ok(win))
        return shmpi_win_raise_bad(win, fn);
    if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return shmpi_raise_win(win, MPI_ERR_RMA_FLAVOR, fn,
                               "the window was made by %s: memory is "
                               "attached only to windows of "
                               "MPI_Win_create_dynamic",
                               shmpi_win_maker(win));
    return MPI_SUCCESS;
}

/* The slot for [base, base + size): a free one, or -1 and the error
   raised (an attached region overlaps it, or all slots are used). */
static int free_slot(MPI_Win win, const struct shmpi_win_region *tab,
                     uintptr_t base, uintptr_t size, const char *fn)
{
    int slot = -1;
    for (int i = 0; i < SHMPI_WIN_MAX_REGIONS; i++) {
        if (!tab[i].used) {
            if (slot < 0)
                slot = i;
            continue;
        }
        uintptr_t a = (uintptr_t)tab[i].base, b = a + tab[i].size;
        if (size > 0 && base < b && base + size > a) {
            shmpi_raise_win(win, MPI_ERR_RMA_ATTACH, fn,
                            "[%p, %p) overlaps memory already attached "
                            "to this window, [%p, %p) (11.2.4: attached "
                            "regions must not overlap)",
                            (void *)base, (void *)(base + size), (void *)a,
                            (void *)b);
            return -1;
        }
    }
    if (slot < 0)
        shmpi_raise_win(win, MPI_ERR_RMA_ATTACH, fn,
                        "%d regions are attached already, the most one "
                        "process can attach to one window: detach some",
                        SHMPI_WIN_MAX_REGIONS);
    return slot;
}

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    static const char *fn = "MPI_Win_attach";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_dynamic(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (size < 0)
        return shmpi_raise_win(win, MPI_ERR_SIZE, fn, "size %ld is negative",
                               (long)size);
    struct shmpi_win_region *tab = shmpi_win_regions(win, win->comm->rank);
    int slot = free_slot(win, tab, (uintptr_t)base, (uintptr_t)size, fn);
    if (slot < 0)
        return MPI_ERR_RMA_ATTACH;
    struct shmpi_share *share = &win->dyn->shares[slot];
    *share = (struct shmpi_share){-1, 0, NULL};
    if (size > 0 && shmpi_map_share(base, (size_t)size, share) != 0)
        return shmpi_raise_win(win, MPI_ERR_RMA_ATTACH, fn,
                               "[%p, %p) is not all memory of this process "
                               "(only memory that can be accessed may be "
                               "attached)", base, (char *)base + size);
    struct shmpi_win_region r = {(uintptr_t)base, (uint64_t)size, share->fd,
                                 ++win->dyn->serial, share->offset};
    if (r.used == 0) /* the serial wrapped: 0 means a free slot */
        r.used = ++win->dyn->serial;
    publish_slot(win, &tab[slot], &r);
    return MPI_SUCCESS;
}

int PMPI_Win_detach(MPI_Win win, const void *base)
{
    static const char *fn = "MPI_Win_detach";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_dynamic(win, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_win_region *tab = shmpi_win_regions(win, win->comm->rank);
    for (int i = 0; i < SHMPI_WIN_MAX_REGIONS; i++)
        if (tab[i].used && tab[i].base == (uintptr_t)base) {
            publish_slot(win, &tab[i], &(struct shmpi_win_region){0});
            shmpi_map_release(&win->dyn->shares[i]);
            return MPI_SUCCESS;
        }
    return shmpi_raise_win(win, MPI_ERR_RMA_ATTACH, fn,
                           "no memory attached to this window starts at %p "
                           "(detach takes the base given to "
                           "MPI_Win_attach)", base);
}

/* ------------------------------------------------------------------ */
/* The origin's side                                                   */
/* ------------------------------------------------------------------ */

/* A consistent copy of the slot of target's table that holds
   [addr, addr + len); its index, or -1. */
static int read_slot(MPI_Win w, int target, uint64_t addr, uint64_t len,
                     struct shmpi_win_region *out)
{
    const struct shmpi_win_region *tab = shmpi_win_regions(w, target);
    _Atomic uint32_t *gen = &shmpi_win_ctl_of(w, target)->regions_gen;
    for (;;) {
        uint32_t g = atomic_load_explicit(gen, memory_order_acquire);
        if (g & 1)
            continue; /* the owner is between two stores: a few ns */
        int found = -1;
        for (int i = 0; i < SHMPI_WIN_MAX_REGIONS && found < 0; i++) {
            struct shmpi_win_region r = tab[i];
            if (r.used && addr >= r.base && len <= r.size &&
                addr - r.base <= r.size - len) {
                *out = r;
                found = i;
            }
        }
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(gen, memory_order_relaxed) == g)
            return found;
    }
}

/* Maps region r of target (slot `slot`) into v. */
static void map_region(MPI_Win w, int target, const struct shmpi_win_region *r,
                       struct region_view *v)
{
    shmpi_map_unview(&v->view);
    v->serial = r->used;
    v->at = NULL;
    /* not mappable: process_vm or the target's mailbox, as connected
       when the window was made */
    if (r->fd < 0 || shmpi_map_peer(w->targets[target].pid, r->fd,
                                    r->fd_offset, r->size, &v->at,
                                    &v->view) != 0)
        v->at = NULL;
}

int shmpi_win_region_find(MPI_Win w, int target, uint64_t addr,
                          uint64_t len, unsigned char **local)
{
    struct shmpi_win_region r, again;
    int slot;
    while ((slot = read_slot(w, target, addr, len, &r)) >= 0) {
        if (target == w->comm->rank) {
            *local = (unsigned char *)(uintptr_t)addr;
            return 1;
        }
        struct region_view *v =
            &w->dyn->views[target * SHMPI_WIN_MAX_REGIONS + slot];
        if (v->serial == r.used)
            break;
        map_region(w, target, &r, v);
        /* the owner may have detached meanwhile, and its fd number gone
           to other memory: keep the mapping only if the slot still
           holds the attach it was made for */
        if (read_slot(w, target, addr, len, &again) == slot &&
            again.used == r.used)
            break;
        v->serial = 0;
    }
    if (slot < 0)
        return 0;
    const struct region_view *v =
        &w->dyn->views[target * SHMPI_WIN_MAX_REGIONS + slot];
    *local = v->at ? v->at + (addr - r.base) : NULL;
    return 1;
}
