/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pack.c - MPI_Pack / MPI_Unpack throughput of derived datatypes, next to
 * memcpy and a hand-written C loop moving the same bytes.
 *
 * Standard MPI only, one process (np = 1), so the one source builds with
 * shmpi's ./mpicc, mpicc.openmpi and mpicc.mpich; perf/pack.sh builds it
 * three ways (with -O3, so that the hand loops are vectorized where the
 * compiler can) and runs it pinned to one core.
 *
 *   pack [-o OPS] [-t TYPES] [-s SIZES] [-T MS] [-b BATCHES]
 *
 * TYPES (comma list, default all), each built for a packed size of about
 * SIZE bytes (comma list with K/M suffixes, default 64K,8M):
 *   contig     MPI_Type_contiguous(n, MPI_DOUBLE)
 *   vec8       MPI_Type_vector(n, 1, 2, MPI_DOUBLE): 8 B blocks, stride 16 B
 *   vec256     MPI_Type_vector(n, 32, 64, MPI_DOUBLE): 256 B blocks every 512 B
 *   vec4k      MPI_Type_vector(n, 512, 1024, MPI_DOUBLE): 4 KiB blocks every 8 KiB
 *   indexed    MPI_Type_indexed: blocks of 1..64 doubles with gaps of 1..64
 *              doubles, both pseudo-random (fixed seed)
 *   idxblock   MPI_Type_create_indexed_block: blocks of 3 doubles (24 B, an
 *              x/y/z triple) with pseudo-random gaps of 1..16 doubles
 *   struct     { double; int; char[3]; } as MPI_Type_create_struct, resized
 *              to sizeof the C struct (16 B, 15 B of data), count n
 *   subarray   MPI_Type_create_subarray: the interior (m^3) of a cube of
 *              (m+2)^3 doubles, m chosen so that m^3 * 8 is about SIZE
 * Every type but struct is passed with count 1.
 *
 * OPS (comma list, default all):
 *   pack     MPI_Pack of the whole type into a contiguous buffer
 *   unpack   MPI_Unpack of that buffer back into the typed layout
 *   memcpy   memcpy of the packed size, one contiguous buffer to another:
 *            the machine's limit for moving these bytes
 *   gather   the hand-written C loop doing what pack does, written for that
 *            one layout (the "ideal" for it)
 *   scatter  the same for unpack
 * pack.sh runs pack,unpack with each MPI and memcpy,gather,scatter once
 * (they do not depend on the MPI) per round.
 *
 * Before anything is timed, each type is checked once: MPI_Pack's output
 * must equal the hand gather's byte for byte (and MPI_Type_size * count
 * and the final position must be the layout's own byte count, within
 * MPI_Pack_size), and MPI_Unpack into a buffer must leave it
 * equal to the hand scatter's (gaps untouched).  A mismatch prints what
 * differs and exits with status 3, so a wrong engine never prints a speed.
 *
 * Timing: MPI_Wtime around repetitions of one operation on the same
 * buffers.  A calibration, which also warms the caches, doubles the
 * repetitions until one batch takes a tenth of the target (-T, default
 * 60 ms per type, size and op); then BATCHES (-b, default 5) batches of
 * target/BATCHES each.  Reported: the median batch, with the slowest and
 * fastest, in GB/s (10^9 bytes per second) of packed data.
 *
 * Output (stdout), whitespace separated:
 *   # comment lines (one is "# cpus_allowed LIST", the CPUs this process
 *     may run on, for the script to check the pinning)
 *   OP TYPE SIZE PACKED REPS BATCHES MEDIAN MIN MAX GB/s
 * SIZE is the size asked for, PACKED the bytes the type actually holds.
 */
#define _POSIX_C_SOURCE 200809L /* bench.h */
#include <mpi.h>

#include "bench.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZES 16
#define MAX_BATCHES 101

/* Keep the compiler from dropping copies whose results nobody reads. */
#define CLOBBER(p) __asm__ volatile("" : : "r"(p) : "memory")

struct rec {          /* the struct type's C struct */
    double d;
    int i;
    char c[3];
};

/* One type built for one size, with what the hand loops need to know. */
struct layout {
    const char *name;
    MPI_Datatype type;
    int count;             /* the count passed to MPI_Pack/Unpack */
    size_t packed;         /* bytes of data, as the layout defines them */
    size_t span;           /* bytes of the typed buffer */
    long n;                /* blocks, elements or rows */
    long blk, stride;      /* vectors: bytes per block, bytes between */
    long edge, m;          /* subarray: cube edge and interior edge */
    long *off, *len;       /* indexed: byte offset and length per block */
    void (*move)(const struct layout *, char *typed, char *packed, int unpack);
};

static double target_s = 0.06;
static int nbatches = 5;

static void die(const char *msg)
{
    fprintf(stderr, "pack: %s\n", msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

static void check_mpi(int rc, const char *what)
{
    if (rc != MPI_SUCCESS)
        die(what);
}

static void *alloc_touched(size_t bytes, int fill)
{
    void *p = bench_alloc_touched(bytes, fill);
    if (!p)
        die("out of memory");
    return p;
}

/* xorshift64: the irregular layouts are the same in every build and run. */
static uint64_t rng = 0x9e3779b97f4a7c15u;

static long rand_between(long lo, long hi)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (long)(rng % (uint64_t)(hi - lo + 1));
}

/* ------------------------------------------------- the hand-written loops */

static inline void copy_dir(char *typed, char *packed, size_t n, int unpack)
{
    if (unpack)
        memcpy(typed, packed, n);
    else
        memcpy(packed, typed, n);
}

static void move_contig(const struct layout *l, char *typed, char *packed,
                        int unpack)
{
    copy_dir(typed, packed, l->packed, unpack);
}

static void move_vec8(const struct layout *l, char *typed, char *packed,
                      int unpack)
{
    double *t = (double *)typed, *p = (double *)packed;
    if (unpack)
        for (long i = 0; i < l->n; i++)
            t[2 * i] = p[i];
    else
        for (long i = 0; i < l->n; i++)
            p[i] = t[2 * i];
}

static void move_vector(const struct layout *l, char *typed, char *packed,
                        int unpack)
{
    for (long i = 0; i < l->n; i++)
        copy_dir(typed + i * l->stride, packed + i * l->blk, (size_t)l->blk,
                 unpack);
}

static void move_indexed(const struct layout *l, char *typed, char *packed,
                         int unpack)
{
    for (long i = 0; i < l->n; i++) {
        copy_dir(typed + l->off[i], packed, (size_t)l->len[i], unpack);
        packed += l->len[i];
    }
}

/* indexed_block: every block is 3 doubles, so a human writes the three
   assignments rather than a memcpy of variable length. */
static void move_triples(const struct layout *l, char *typed, char *packed,
                         int unpack)
{
    double *p = (double *)packed;
    if (unpack)
        for (long i = 0; i < l->n; i++, p += 3) {
            double *t = (double *)(typed + l->off[i]);
            t[0] = p[0], t[1] = p[1], t[2] = p[2];
        }
    else
        for (long i = 0; i < l->n; i++, p += 3) {
            const double *t = (const double *)(typed + l->off[i]);
            p[0] = t[0], p[1] = t[1], p[2] = t[2];
        }
}

static void move_struct(const struct layout *l, char *typed, char *packed,
                        int unpack)
{
    /* constant sizes: the compiler turns each copy into a few moves */
    for (long k = 0; k < l->n; k++) {
        char *e = typed + k * (long)sizeof(struct rec);
        copy_dir(e + offsetof(struct rec, d), packed, 8, unpack);
        copy_dir(e + offsetof(struct rec, i), packed + 8, 4, unpack);
        copy_dir(e + offsetof(struct rec, c), packed + 12, 3, unpack);
        packed += 15;
    }
}

static void move_subarray(const struct layout *l, char *typed, char *packed,
                          int unpack)
{
    long e = l->edge, row = l->m * 8;
    for (long z = 1; z <= l->m; z++)
        for (long y = 1; y <= l->m; y++) {
            copy_dir(typed + ((z * e + y) * e + 1) * 8, packed, (size_t)row,
                     unpack);
            packed += row;
        }
}

/* ------------------------------------------------------- building types */

static void build_vector(struct layout *l, size_t size, int blk_doubles)
{
    l->blk = blk_doubles * 8;
    l->stride = 2 * l->blk;
    l->n = (long)(size / (size_t)l->blk);
    if (l->n < 1)
        l->n = 1;
    check_mpi(MPI_Type_vector((int)l->n, blk_doubles, 2 * blk_doubles,
                              MPI_DOUBLE, &l->type), "MPI_Type_vector");
    l->span = (size_t)((l->n - 1) * l->stride + l->blk);
    l->packed = (size_t)(l->n * l->blk);
    l->move = blk_doubles == 1 ? move_vec8 : move_vector;
}

/* Blocks of blk_lo..blk_hi doubles with gaps of gap_lo..gap_hi doubles
   until about `size` bytes; indexed_block when blk_lo == blk_hi. */
static void build_indexed(struct layout *l, size_t size, long blk_lo,
                          long blk_hi, long gap_lo, long gap_hi)
{
    long cap = (long)(size / 8 / (size_t)blk_lo) + 1, pos = 0, total = 0;
    int *blens = malloc((size_t)cap * sizeof *blens);
    int *disps = malloc((size_t)cap * sizeof *disps);
    l->off = malloc((size_t)cap * sizeof *l->off);
    l->len = malloc((size_t)cap * sizeof *l->len);
    if (!blens || !disps || !l->off || !l->len)
        die("out of memory");
    l->n = 0;
    while (total * 8 < (long)size || l->n == 0) {
        long b = rand_between(blk_lo, blk_hi);
        if (blk_lo != blk_hi && (total + b) * 8 > (long)size)
            b = (long)size / 8 - total;   /* indexed: land on the size */
        if (l->n > 0)
            pos += rand_between(gap_lo, gap_hi);
        if (pos > 0x7fffffffL - b)
            die("type too large for int displacements");
        blens[l->n] = (int)b;
        disps[l->n] = (int)pos;
        l->off[l->n] = pos * 8;
        l->len[l->n] = b * 8;
        l->n++;
        pos += b;
        total += b;
    }
    if (blk_lo == blk_hi)
        check_mpi(MPI_Type_create_indexed_block((int)l->n, (int)blk_lo, disps,
                                                MPI_DOUBLE, &l->type),
                  "MPI_Type_create_indexed_block");
    else
        check_mpi(MPI_Type_indexed((int)l->n, blens, disps, MPI_DOUBLE,
                                   &l->type), "MPI_Type_indexed");
    l->span = (size_t)pos * 8;
    l->packed = (size_t)total * 8;
    l->move = move_indexed;
    free(blens);
    free(disps);
}

static void build_struct(struct layout *l, size_t size)
{
    int blens[3] = {1, 1, 3};
    MPI_Aint disps[3] = {offsetof(struct rec, d), offsetof(struct rec, i),
                         offsetof(struct rec, c)};
    MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR}, raw;
    check_mpi(MPI_Type_create_struct(3, blens, disps, types, &raw),
              "MPI_Type_create_struct");
    check_mpi(MPI_Type_create_resized(raw, 0, sizeof(struct rec), &l->type),
              "MPI_Type_create_resized");
    MPI_Type_free(&raw);
    l->n = (long)(size / 15);
    if (l->n < 1)
        l->n = 1;
    l->count = (int)l->n;
    l->span = (size_t)l->n * sizeof(struct rec);
    l->packed = (size_t)l->n * 15;
    l->move = move_struct;
}

static void build_subarray(struct layout *l, size_t size)
{
    long want = (long)(size / 8);
    l->m = 1;   /* the integer cube root of want, to the nearest */
    while ((l->m + 1) * (l->m + 1) * (l->m + 1) <= want)
        l->m++;
    if (want - l->m * l->m * l->m > (l->m + 1) * (l->m + 1) * (l->m + 1) - want)
        l->m++;
    l->edge = l->m + 2;
    int sizes[3] = {(int)l->edge, (int)l->edge, (int)l->edge};
    int sub[3] = {(int)l->m, (int)l->m, (int)l->m}, starts[3] = {1, 1, 1};
    check_mpi(MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C,
                                       MPI_DOUBLE, &l->type),
              "MPI_Type_create_subarray");
    l->n = l->m * l->m;
    l->span = (size_t)(l->edge * l->edge * l->edge) * 8;
    l->packed = (size_t)(l->m * l->m * l->m) * 8;
    l->move = move_subarray;
}

static const char *const type_names[] = {"contig", "vec8", "vec256", "vec4k",
    "indexed", "idxblock", "struct", "subarray"};
#define NTYPES (sizeof type_names / sizeof type_names[0])

static void build(struct layout *l, const char *name, size_t size)
{
    memset(l, 0, sizeof *l);
    l->name = name;
    l->count = 1;
    rng = 0x9e3779b97f4a7c15u;
    if (!strcmp(name, "contig")) {
        l->n = (long)(size / 8) ? (long)(size / 8) : 1;
        check_mpi(MPI_Type_contiguous((int)l->n, MPI_DOUBLE, &l->type),
                  "MPI_Type_contiguous");
        l->span = l->packed = (size_t)l->n * 8;
        l->move = move_contig;
    } else if (!strcmp(name, "vec8"))
        build_vector(l, size, 1);
    else if (!strcmp(name, "vec256"))
        build_vector(l, size, 32);
    else if (!strcmp(name, "vec4k"))
        build_vector(l, size, 512);
    else if (!strcmp(name, "indexed"))
        build_indexed(l, size, 1, 64, 1, 64);
    else if (!strcmp(name, "idxblock")) {
        build_indexed(l, size, 3, 3, 1, 16);
        l->move = move_triples;
    }
    else if (!strcmp(name, "struct"))
        build_struct(l, size);
    else if (!strcmp(name, "subarray"))
        build_subarray(l, size);
    else
        die("unknown type (see -t in the top comment)");
    check_mpi(MPI_Type_commit(&l->type), "MPI_Type_commit");
}

static void release(struct layout *l)
{
    MPI_Type_free(&l->type);
    free(l->off);
    free(l->len);
}

/* -------------------------------------------------------- correctness */

static void fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)((i * 131 + (i >> 8) * 7 + seed) % 251 + 1);
}

static int report_diff(const struct layout *l, const char *what,
                       const unsigned char *got, const unsigned char *want,
                       size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "pack: %s %zu B: %s differs from the hand loop "
                    "at byte %zu (got 0x%02x, want 0x%02x)\n", l->name,
                    l->packed, what, i, got[i], want[i]);
            return 1;
        }
    return 0;
}

/* MPI_Pack against the hand gather, MPI_Unpack against the hand scatter. */
static int verify(const struct layout *l)
{
    unsigned char *typed = alloc_touched(l->span, 0);
    unsigned char *a = alloc_touched(l->span, 0xee), *b = alloc_touched(l->span, 0xee);
    unsigned char *pk = alloc_touched(l->packed + 64, 0), *ref = alloc_touched(l->packed + 64, 0);
    int pos = 0, bad = 0, psize, tsize;
    fill_pattern(typed, l->span, 17);
    check_mpi(MPI_Type_size(l->type, &tsize), "MPI_Type_size");
    if ((size_t)tsize * (size_t)l->count != l->packed) {
        fprintf(stderr, "pack: %s: MPI_Type_size %d x count %d != %zu\n",
                l->name, tsize, l->count, l->packed);
        bad = 1;
    }
    check_mpi(MPI_Pack_size(l->count, l->type, MPI_COMM_WORLD, &psize), "MPI_Pack_size");
    if ((size_t)psize < l->packed) {
        fprintf(stderr, "pack: %s: MPI_Pack_size %d < %zu\n", l->name, psize, l->packed);
        bad = 1;
    }
    check_mpi(MPI_Pack(typed, l->count, l->type, pk, (int)l->packed + 64, &pos,
                       MPI_COMM_WORLD), "MPI_Pack");
    l->move(l, (char *)typed, (char *)ref, 0);
    if ((size_t)pos != l->packed) {
        fprintf(stderr, "pack: %s: MPI_Pack moved position to %d, not %zu\n",
                l->name, pos, l->packed);
        bad = 1;
    }
    bad |= report_diff(l, "MPI_Pack output", pk, ref, l->packed + 64);

    fill_pattern(ref, l->packed, 99);
    pos = 0;
    check_mpi(MPI_Unpack(ref, (int)l->packed, &pos, a, l->count, l->type,
                         MPI_COMM_WORLD), "MPI_Unpack");
    l->move(l, (char *)b, (char *)ref, 1);
    if ((size_t)pos != l->packed) {
        fprintf(stderr, "pack: %s: MPI_Unpack moved position to %d, not %zu\n",
                l->name, pos, l->packed);
        bad = 1;
    }
    bad |= report_diff(l, "MPI_Unpack result", a, b, l->span);
    free(typed), free(a), free(b), free(pk), free(ref);
    return bad;
}

/* ------------------------------------------------------------- timing */

enum op { OP_PACK, OP_UNPACK, OP_MEMCPY, OP_GATHER, OP_SCATTER, NOPS };
static const char *const op_names[NOPS] = {"pack", "unpack", "memcpy", "gather",
                                           "scatter"};

struct bufs {
    char *typed, *packed, *copy;
};

static double run_op(enum op op, const struct layout *l, const struct bufs *b,
                     long reps)
{
    int pos, cap = (int)l->packed;
    double t0 = MPI_Wtime();
    for (long r = 0; r < reps; r++) {
        pos = 0;
        switch (op) {
        case OP_PACK:
            MPI_Pack(b->typed, l->count, l->type, b->packed, cap, &pos, MPI_COMM_WORLD);
            break;
        case OP_UNPACK:
            MPI_Unpack(b->packed, cap, &pos, b->typed, l->count, l->type, MPI_COMM_WORLD);
            break;
        case OP_MEMCPY:
            memcpy(b->copy, b->packed, l->packed);
            break;
        case OP_GATHER:
        case OP_SCATTER:
            l->move(l, b->typed, b->packed, op == OP_SCATTER);
            break;
        default:
            break;
        }
        CLOBBER(b->packed);
        CLOBBER(b->typed);
        CLOBBER(b->copy);
    }
    return MPI_Wtime() - t0;
}

static void measure(enum op op, const struct layout *l, const struct bufs *b,
                    size_t size)
{
    long reps = 1;
    double t, gbs[MAX_BATCHES];
    while ((t = run_op(op, l, b, reps)) < target_s / 10 && reps < (1L << 40))
        reps *= 2;
    reps = (long)((double)reps * (target_s / nbatches) / t);
    if (reps < 1)
        reps = 1;
    for (int i = 0; i < nbatches; i++)
        gbs[i] = (double)l->packed * (double)reps / run_op(op, l, b, reps) / 1e9;
    double med = bench_median(gbs, nbatches);
    printf("%s %s %zu %zu %ld %d %.4g %.4g %.4g GB/s\n", op_names[op], l->name,
           size, l->packed, reps, nbatches, med, gbs[0], gbs[nbatches - 1]);
    fflush(stdout);
}

/* ------------------------------------------------------------- driver */

static int in_list(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == 0))
            return 1;
    return 0;
}

static void print_cpus_allowed(void)
{
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "Cpus_allowed_list:", 18)) {
            char *v = line + 18 + strspn(line + 18, " \t");
            printf("# cpus_allowed %s", v);
        }
    if (f)
        fclose(f);
}

static void check_type_names(const char *list)
{
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s", list);
    for (char *tok = strtok(tmp, ","); tok; tok = strtok(NULL, ",")) {
        size_t t = 0;
        while (t < NTYPES && strcmp(tok, type_names[t]))
            t++;
        if (t == NTYPES)
            die("unknown type in -t (see the top comment of perf/pack.c)");
    }
}

static void run_type(const char *name, size_t size, const char *ops)
{
    struct layout l;
    build(&l, name, size);
    if (verify(&l)) {
        MPI_Abort(MPI_COMM_WORLD, 3);
        exit(3);
    }
    struct bufs b = {alloc_touched(l.span, 1), alloc_touched(l.packed, 2),
                     alloc_touched(l.packed, 3)};
    for (int op = 0; op < NOPS; op++)
        if (in_list(ops, op_names[op]))
            measure((enum op)op, &l, &b, size);
    free(b.typed), free(b.packed), free(b.copy);
    release(&l);
}

int main(int argc, char **argv)
{
    const char *ops = "pack,unpack,memcpy,gather,scatter", *types = NULL;
    const char *sizes_arg = "64K,8M";
    int np;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np != 1)
        die("run with one process (np = 1)");
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *o = argv[i], *v = argv[i + 1];
        if (!strcmp(o, "-o"))
            ops = v;
        else if (!strcmp(o, "-t"))
            types = v;
        else if (!strcmp(o, "-s"))
            sizes_arg = v;
        else if (!strcmp(o, "-T"))
            target_s = atof(v) / 1000;
        else if (!strcmp(o, "-b"))
            nbatches = atoi(v);
        else
            die("usage: pack [-o OPS] [-t TYPES] [-s SIZES] [-T MS] [-b BATCHES]");
    }
    if (argc % 2 == 0 || target_s <= 0 || nbatches < 1 || nbatches > MAX_BATCHES)
        die("usage: pack [-o OPS] [-t TYPES] [-s SIZES] [-T MS] [-b 1..101]");
    if (types)
        check_type_names(types);
    long sizes[MAX_SIZES];
    int nsizes = bench_sizes(sizes_arg, sizes, MAX_SIZES), ok = nsizes > 0;
    for (int s = 0; ok && s < nsizes; s++)
        ok = sizes[s] >= 64 && sizes[s] <= (1L << 30);
    if (!ok)
        die("bad -s list (sizes like 64K,8M; 64 B to 1 GiB)");
    print_cpus_allowed();
    printf("# target %.0f ms per cell in %d batches\n", target_s * 1000, nbatches);
    for (int s = 0; s < nsizes; s++)
        for (size_t t = 0; t < NTYPES; t++)
            if (!types || in_list(types, type_names[t]))
                run_type(type_names[t], (size_t)sizes[s], ops);
    MPI_Finalize();
    return 0;
}
