/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xfer.c - moving typed data between this process and a target range
 * (win.h, THE DATA PATH).
 *
 * A direct target is memory mapped here: shmpi_dt_copy_typed walks both
 * flattened datatypes and copies each byte once.  Any other target is
 * reached with process_vm_writev/readv (or, where the kernel refuses
 * those, the target's helper thread: map_vm.c, same interface), whose
 * two iovec arrays are the runs of the two datatypes: filled a batch at
 * a time, the longer list cut back to the bytes the shorter one covers,
 * so each call moves the same packed bytes on both sides.  The call's
 * fixed cost (a system call that looks up the target's pages) is paid
 * once per batch, not per run.
 */
#include <errno.h>
#include <string.h>
#include <sys/uio.h>

#include "rma/xfer.h"

/* Runs per side and call; the kernel takes up to IOV_MAX (1024). */
enum { VM_BATCH = 256 };

enum vm_dir { VM_READ, VM_WRITE };

/* len packed bytes between (lbuf, lt) from packed offset loff here and
   (raddr, rt) from roff in process pid. */
static int vm_move(pid_t pid, enum vm_dir dir, void *lbuf, MPI_Datatype lt,
                   uint64_t loff, uint64_t raddr, MPI_Datatype rt,
                   uint64_t roff, uint64_t len)
{
    struct iovec liov[VM_BATCH], riov[VM_BATCH];
    void *rbuf = (void *)(uintptr_t)raddr; /* only walked, never touched */
    for (uint64_t done = 0; done < len;) {
        uint64_t lcov, rcov;
        int nl = shmpi_dt_fill_iov(lbuf, lt, loff + done, len - done, liov,
                                   VM_BATCH, &lcov);
        int nr = shmpi_dt_fill_iov(rbuf, rt, roff + done, lcov, riov, VM_BATCH,
                                   &rcov);
        if (rcov < lcov) /* the remote side filled up first */
            nl = shmpi_dt_fill_iov(lbuf, lt, loff + done, rcov, liov, VM_BATCH,
                                   &lcov);
        ssize_t n = dir == VM_WRITE
                        ? shmpi_win_vm_writev(pid, liov, (unsigned long)nl,
                                              riov, (unsigned long)nr)
                        : shmpi_win_vm_readv(pid, liov, (unsigned long)nl,
                                             riov, (unsigned long)nr);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        if ((uint64_t)n != rcov) /* a page of the target went away */
            return EFAULT;
        done += rcov;
    }
    return 0;
}

static int vm_failed(MPI_Win win, int err, enum vm_dir dir,
                     const struct shmpi_rma_loc *loc, const char *fn)
{
    return shmpi_win_raise(win, MPI_ERR_OTHER, fn,
                           "%s the target's memory at %#llx failed: %s",
                           dir == VM_WRITE ? "writing (process_vm_writev) to"
                                           : "reading (process_vm_readv) from",
                           (unsigned long long)loc->addr, strerror(err));
}

int shmpi_rma_write(MPI_Win win, const struct shmpi_rma_loc *loc,
                    MPI_Datatype tt, const void *buf, MPI_Datatype bt,
                    uint64_t len, const char *fn)
{
    if (loc->direct) {
        shmpi_dt_copy_typed((void *)(uintptr_t)loc->addr, tt, buf, bt, len);
        return MPI_SUCCESS;
    }
    int err = vm_move(loc->pid, VM_WRITE, (void *)buf, bt, 0, loc->addr, tt,
                      0, len);
    return err ? vm_failed(win, err, VM_WRITE, loc, fn) : MPI_SUCCESS;
}

int shmpi_rma_read(MPI_Win win, const struct shmpi_rma_loc *loc,
                   MPI_Datatype tt, void *buf, MPI_Datatype bt, uint64_t len,
                   const char *fn)
{
    if (loc->direct) {
        shmpi_dt_copy_typed(buf, bt, (void *)(uintptr_t)loc->addr, tt, len);
        return MPI_SUCCESS;
    }
    int err = vm_move(loc->pid, VM_READ, buf, bt, 0, loc->addr, tt, 0, len);
    return err ? vm_failed(win, err, VM_READ, loc, fn) : MPI_SUCCESS;
}

int shmpi_rma_pack(MPI_Win win, const struct shmpi_rma_loc *loc,
                   MPI_Datatype tt, uint64_t off, void *out, uint64_t len,
                   const char *fn)
{
    if (loc->direct) {
        shmpi_dt_pack((void *)(uintptr_t)loc->addr, tt, off, out, len);
        return MPI_SUCCESS;
    }
    int err = vm_move(loc->pid, VM_READ, out, MPI_BYTE, 0, loc->addr, tt, off,
                      len);
    return err ? vm_failed(win, err, VM_READ, loc, fn) : MPI_SUCCESS;
}

int shmpi_rma_unpack(MPI_Win win, const struct shmpi_rma_loc *loc,
                     MPI_Datatype tt, uint64_t off, const void *in,
                     uint64_t len, const char *fn)
{
    if (loc->direct) {
        shmpi_dt_unpack((void *)(uintptr_t)loc->addr, tt, off, in, len);
        return MPI_SUCCESS;
    }
    int err = vm_move(loc->pid, VM_WRITE, (void *)in, MPI_BYTE, 0, loc->addr,
                      tt, off, len);
    return err ? vm_failed(win, err, VM_WRITE, loc, fn) : MPI_SUCCESS;
}
