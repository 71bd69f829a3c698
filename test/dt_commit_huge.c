/* dt_commit_huge: committing vector, hvector (negative stride), indexed_block, hindexed_block, contiguous and struct types of 2^30 to 2^41 blocks, nested too, with no buffer and under an address-space limit far below one word per block, then their size, extent and true extent; and MPI_Pack/MPI_Unpack of a million-block vector and a nested strided type under the same limit, every byte checked. */
/* shmpi-test: np=1 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A committed type whose compiled form had an entry per block would need
 * gigabytes here (2^30 blocks at even 8 bytes each is 8 GiB), and a commit
 * or query that walked the blocks would take hours on the 2^41 of the
 * vector of vectors, far beyond the timeout: RLIMIT_AS is set to what the
 * process uses plus LIMIT_HEADROOM, and a probe checks that it bites.  The expected bounds are worked out
 * by hand from the type maps (MPI-3.1 4.1).
 */
#include "dt_check.h"

#include <sys/mman.h>
#include <sys/resource.h>

#define LIMIT_HEADROOM (256L << 20)

/* The address space in use now, from /proc/self/statm (pages). */
static long vm_bytes(void)
{
    long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    CHECK(f, "/proc/self/statm: %s", strerror(errno));
    CHECK(fscanf(f, "%ld", &pages) == 1, "/proc/self/statm unreadable");
    fclose(f);
    return pages * sysconf(_SC_PAGESIZE);
}

static void limit_memory(void)
{
    rlim_t cap = (rlim_t)(vm_bytes() + LIMIT_HEADROOM);
    struct rlimit rl;
    CHECK(getrlimit(RLIMIT_AS, &rl) == 0, "getrlimit: %s", strerror(errno));
    CHECK(rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= cap,
          "RLIMIT_AS is already below what this test needs");
    rl.rlim_cur = cap;
    CHECK(setrlimit(RLIMIT_AS, &rl) == 0, "setrlimit: %s", strerror(errno));
    /* the limit bites: 1 GiB more cannot be had (mmap, not malloc,
       which a sanitizer would turn into an abort) */
    int fd = open("/dev/zero", O_RDWR);
    CHECK(fd >= 0, "/dev/zero: %s", strerror(errno));
    void *p = mmap(NULL, 1L << 30, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
                   0);
    close(fd);
    CHECK(p == MAP_FAILED, "1 GiB mapped under a limit of %ld MiB more",
          LIMIT_HEADROOM >> 20);
}

/* Commits t, checks it against want through the _x queries (the sizes
   exceed an int; MPI_Type_size then says MPI_UNDEFINED) and frees it. */
static void expect_huge(MPI_Datatype t, const char *what, struct bounds want)
{
    MPI_Count size, lb, extent, tlb, textent;
    MPI_Aint alb, aextent;
    int isize;
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Type_size_x(t, &size));
    CHECK_MPI(MPI_Type_size(t, &isize));
    CHECK_MPI(MPI_Type_get_extent_x(t, &lb, &extent));
    CHECK_MPI(MPI_Type_get_extent(t, &alb, &aextent));
    CHECK_MPI(MPI_Type_get_true_extent_x(t, &tlb, &textent));
    CHECK(size == want.size, "%s: size %lld, expected %lld", what, size,
          want.size);
    CHECK(isize == MPI_UNDEFINED, "%s: MPI_Type_size gave %d for %lld "
          "bytes", what, isize, size);
    CHECK(lb == want.lb && extent == want.extent && alb == want.lb &&
          aextent == want.extent, "%s: lb %lld extent %lld, expected %ld "
          "%ld", what, lb, extent, (long)want.lb, (long)want.extent);
    CHECK(tlb == want.true_lb && textent == want.true_extent, "%s: true "
          "lb %lld true extent %lld, expected %ld %ld", what, tlb, textent,
          (long)want.true_lb, (long)want.true_extent);
    CHECK_MPI(MPI_Type_free(&t));
}

#define G30 (1L << 30)

static void check_vectors(void)
{
    MPI_Datatype t, inner;
    /* 2^30 ints, every other one */
    CHECK_MPI(MPI_Type_vector(1 << 30, 1, 2, MPI_INT, &t));
    long e = ((G30 - 1) * 2 + 1) * 4;
    expect_huge(t, "vector", (struct bounds){4 * G30, 0, e, 0, e});

    /* 2^30 blocks of 3 chars, each 16 bytes below the last */
    CHECK_MPI(MPI_Type_create_hvector(1 << 30, 3, -16, MPI_CHAR, &t));
    long lo = -(G30 - 1) * 16;
    e = (G30 - 1) * 16 + 3;
    expect_huge(t, "hvector, negative stride", (struct bounds){3 * G30, lo,
                e, lo, e});

    /* 2^20 x 2 blocks of a vector of 2^20 doubles: 2^41 blocks */
    CHECK_MPI(MPI_Type_vector(1 << 20, 1, 3, MPI_DOUBLE, &inner));
    long ie = ((1L << 20) - 1) * 3 * 8 + 8;
    CHECK_MPI(MPI_Type_vector(1 << 20, 2, 5, inner, &t));
    CHECK_MPI(MPI_Type_free(&inner));
    e = (((1L << 20) - 1) * 5 + 2) * ie;
    expect_huge(t, "vector of vectors", (struct bounds){8L << 41, 0, e, 0,
                e});
}

static void check_blocks(void)
{
    MPI_Datatype t, pair, wide;
    /* 3 blocks of 2^28 copies of {int, gap, int} (extent 12): 1.5 x 2^30
       runs; the last block ends at element 2^31 */
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &pair));
    int displs[3] = {0, 3 << 28, 7 << 28};
    CHECK_MPI(MPI_Type_create_indexed_block(3, 1 << 28, displs, pair, &t));
    CHECK_MPI(MPI_Type_free(&pair));
    long e = 12 * (2 * G30);
    expect_huge(t, "indexed_block of vectors", (struct bounds){3 * 8 *
                (G30 / 4), 0, e, 0, e});

    /* 2 blocks, in decreasing order, of 2^30 ints 8 bytes apart (an int
       resized to 8 bytes: its copies never merge into one run) */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 8, &wide));
    MPI_Aint hd[2] = {1L << 34, 0};
    CHECK_MPI(MPI_Type_create_hindexed_block(2, 1 << 30, hd, wide, &t));
    long ub = (1L << 34) + 8 * G30, tub = (1L << 34) + 8 * (G30 - 1) + 4;
    expect_huge(t, "hindexed_block of gapped ints", (struct bounds){8 * G30,
                0, ub, 0, tub});

    /* 2^30 of them back to back; and 2^60 bytes, one run */
    CHECK_MPI(MPI_Type_contiguous(1 << 30, wide, &t));
    expect_huge(t, "contiguous of gapped ints", (struct bounds){4 * G30, 0,
                8 * G30, 0, 8 * G30 - 4});
    CHECK_MPI(MPI_Type_free(&wide));
    MPI_Datatype gig;
    CHECK_MPI(MPI_Type_contiguous(1 << 30, MPI_BYTE, &gig));
    CHECK_MPI(MPI_Type_contiguous(1 << 30, gig, &t));
    CHECK_MPI(MPI_Type_free(&gig));
    expect_huge(t, "contiguous of contiguous", (struct bounds){G30 * G30,
                0, G30 * G30, 0, G30 * G30});
}

/* A struct of a 2^30-block vector at 0 and a 2^30-block hvector at
   2^36, which reaches down to 2^36 - (2^30 - 1) * 16. */
static void check_struct(void)
{
    MPI_Datatype v, h, t;
    CHECK_MPI(MPI_Type_vector(1 << 30, 1, 2, MPI_INT, &v));
    CHECK_MPI(MPI_Type_create_hvector(1 << 30, 3, -16, MPI_CHAR, &h));
    int len[2] = {1, 1};
    MPI_Aint disp[2] = {0, 1L << 36};
    MPI_Datatype types[2] = {v, h};
    CHECK_MPI(MPI_Type_create_struct(2, len, disp, types, &t));
    CHECK_MPI(MPI_Type_free(&v));
    CHECK_MPI(MPI_Type_free(&h));
    /* the extent rounds up to the alignment of int (4.1.6) */
    long ub = (1L << 36) + 3, e = (ub + 3) / 4 * 4;
    expect_huge(t, "struct of vector and hvector", (struct bounds){7 * G30,
                0, e, 0, ub});
}

/* MPI_Pack of count x t from src into a buffer of `packed` ints must
   give src[off[k]] in order; MPI_Unpack of it into a buffer of `span`
   ints holding -1 must put them back there and leave every other int
   alone. */
static void pack_round_trip(MPI_Datatype t, int count, const int *src,
                            int span, const long *off, long packed,
                            const char *what)
{
    int *buf = malloc((size_t)packed * sizeof *buf);
    int *dst = malloc((size_t)span * sizeof *dst);
    char *covered = calloc((size_t)span, 1);
    CHECK(buf && dst && covered, "malloc");
    int pos = 0, bytes = (int)(packed * sizeof *buf);
    CHECK_MPI(MPI_Pack(src, count, t, buf, bytes, &pos, MPI_COMM_WORLD));
    CHECK(pos == bytes, "%s: MPI_Pack ended at %d of %d", what, pos, bytes);
    for (long k = 0; k < packed; k++) {
        CHECK(buf[k] == src[off[k]], "%s: packed int %ld is %d, expected "
              "%d", what, k, buf[k], src[off[k]]);
        covered[off[k]] = 1;
    }
    for (int i = 0; i < span; i++)
        dst[i] = -1;
    pos = 0;
    CHECK_MPI(MPI_Unpack(buf, bytes, &pos, dst, count, t, MPI_COMM_WORLD));
    CHECK(pos == bytes, "%s: MPI_Unpack ended at %d of %d", what, pos,
          bytes);
    for (int i = 0; i < span; i++)
        CHECK(dst[i] == (covered[i] ? src[i] : -1), "%s: unpacked int %d "
              "is %d", what, i, dst[i]);
    free(buf);
    free(dst);
    free(covered);
}

/* 2^20 ints, every third one; then 3 copies (by the extent) of 200
   blocks, 997 ints apart, of a resized indexed type {2 ints, gap, 1
   int} of extent 5 ints, taken 3 at a time. */
static void check_pack(void)
{
    enum { VN = 1 << 20, SPAN = 3 * VN };
    int *src = malloc(SPAN * sizeof *src);
    long *off = malloc(VN * sizeof *off);
    CHECK(src && off, "malloc");
    for (int i = 0; i < SPAN; i++)
        src[i] = i * 7 + 1;
    MPI_Datatype v, idx, unit, rows;
    CHECK_MPI(MPI_Type_vector(VN, 1, 3, MPI_INT, &v));
    CHECK_MPI(MPI_Type_commit(&v));
    for (long k = 0; k < VN; k++)
        off[k] = 3 * k;
    pack_round_trip(v, 1, src, SPAN, off, VN, "vector of 2^20 ints");
    CHECK_MPI(MPI_Type_free(&v));

    int bl[2] = {2, 1}, bd[2] = {0, 3};
    CHECK_MPI(MPI_Type_indexed(2, bl, bd, MPI_INT, &idx));
    CHECK_MPI(MPI_Type_create_resized(idx, 0, 5 * sizeof(int), &unit));
    CHECK_MPI(MPI_Type_create_hvector(200, 3, 997 * sizeof(int), unit,
                                      &rows));
    CHECK_MPI(MPI_Type_commit(&rows));
    MPI_Aint lb, extent;
    long n = 0, step = 199 * 997 + 3 * 5; /* the extent, in ints */
    CHECK_MPI(MPI_Type_get_extent(rows, &lb, &extent));
    CHECK(lb == 0 && extent == step * (MPI_Aint)sizeof(int), "nested type: "
          "lb %ld extent %ld", (long)lb, (long)extent);
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 200; r++)
            for (int u = 0; u < 3; u++)
                for (int j = 0; j < 3; j++)
                    off[n++] = c * step + r * 997 + u * 5 + (j < 2 ? j : 3);
    pack_round_trip(rows, 3, src, (int)(3 * step), off, n,
                    "hvector of resized indexed, count 3");
    CHECK_MPI(MPI_Type_free(&rows));
    CHECK_MPI(MPI_Type_free(&unit));
    CHECK_MPI(MPI_Type_free(&idx));
    free(src);
    free(off);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    limit_memory();
    check_vectors();
    check_blocks();
    check_struct();
    check_pack();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
