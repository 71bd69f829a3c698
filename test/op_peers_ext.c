/* op_peers_ext: the op/type pairs outside MPI-3.1 5.9.2's groups that Open MPI and MPICH both accept, in every reduction, blocking and nonblocking (MPI_Reduce_local, MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter_block, MPI_Reduce_scatter, MPI_Scan, MPI_Exscan and the I- forms): every elementwise op on MPI_CHAR (signed char) and MPI_CHARACTER (compared unsigned), MPI_LAND/LOR/LXOR on MPI_AINT, MPI_OFFSET and MPI_COUNT; results checked element by element. */
/* shmpi-test: np=1,2,4 timeout=60 ext */
/* shmpi-test-nocheck: it uses, on purpose, op/type pairs outside MPI-3.1 5.9.2's groups (count 0 included), which the check mode reports as not portable. */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ext: the pairs are outside the standard's groups.  Open MPI 4.1 and
 * MPICH 4.0 both pass this test but for MPI_MAX and MPI_MIN on
 * MPI_CHARACTER, which MPICH compares signed.
 */
#include "op_groups.h"

#include <stdint.h>

#define N 64 /* elements per buffer, at most */

static const int elementwise[] = {SUM, PROD, MAX, MIN, LAND, LOR, LXOR,
                                  BAND, BOR, BXOR};
static const int logicals[] = {LAND, LOR, LXOR};

struct ty {
    MPI_Datatype t;
    const char *name;
    int size, is_signed;
    const int *ops;
    int nops;
};

static const struct ty types[] = {
    {MPI_CHAR, "MPI_CHAR", 1, 1, elementwise, 10},
    {MPI_CHARACTER, "MPI_CHARACTER", 1, 0, elementwise, 10},
    {MPI_AINT, "MPI_AINT", sizeof(MPI_Aint), 1, logicals, 3},
    {MPI_OFFSET, "MPI_OFFSET", sizeof(MPI_Offset), 1, logicals, 3},
    {MPI_COUNT, "MPI_COUNT", sizeof(MPI_Count), 1, logicals, 3},
};
#define NTYPES (int)(sizeof types / sizeof types[0])

static int rank, size;

static int64_t get(const struct ty *ty, const unsigned char *buf, int i)
{
    int64_t v = 0;
    if (ty->size == 1)
        v = ty->is_signed ? (int64_t)(signed char)buf[i] : buf[i];
    else
        memcpy(&v, buf + (size_t)i * 8, 8);
    return v;
}

static void put(const struct ty *ty, unsigned char *buf, int i, int64_t v)
{
    if (ty->size == 1)
        buf[i] = (unsigned char)v;
    else
        memcpy(buf + (size_t)i * 8, &v, 8);
}

/* Rank r's element i for op: negatives where a signed comparison
   shows, for MPI_CHARACTER bytes above 127 against smaller ones under
   MPI_MAX and MPI_MIN, zeros for the logical ops; no sum or product
   leaves the type's range over four ranks (the standard leaves overflow
   undefined, and Open MPI saturates some). */
static int64_t value(const struct ty *ty, int op, int r, int i)
{
    if (op == LAND || op == LOR || op == LXOR)
        return (i + r) % 3 == 0 ? 0 : i % 2 ? 5 : -7;
    if (op == PROD)
        return ty->is_signed ? (i + r) % 5 - 2 : (i + r) % 3;
    int64_t v = (i * 5 + r * 3) % 9 - 4;
    if (ty->is_signed)
        return v;
    return v + 4 + ((op == MAX || op == MIN) && (i + r) % 2 ? 190 : 0);
}

/* The reduction of ranks lo..hi's element i. */
static int64_t fold(const struct ty *ty, int op, int lo, int hi, int i)
{
    int64_t r = op_wrap(value(ty, op, lo, i), ty->size, ty->is_signed);
    for (int k = lo + 1; k <= hi; k++)
        r = op_ref_int(op, op_wrap(value(ty, op, k, i), ty->size,
                                   ty->is_signed),
                       r, ty->size, ty->is_signed);
    return r;
}

static unsigned char sbuf[N * 8], rbuf[N * 8];

static void fill(const struct ty *ty, int op, int n)
{
    for (int i = 0; i < n; i++)
        put(ty, sbuf, i, value(ty, op, rank, i));
    memset(rbuf, 0x5a, sizeof rbuf);
}

/* rbuf[0, n) against the fold of ranks lo..hi at elements from + i. */
static void expect(const struct ty *ty, int op, const char *call, int n,
                   int lo, int hi, int from)
{
    for (int i = 0; i < n; i++) {
        int64_t got = get(ty, rbuf, i), want = fold(ty, op, lo, hi, from + i);
        CHECK(got == want, "%s %s on %s: element %d is %lld, expected %lld",
              call, op_names[op], ty->name, from + i, (long long)got,
              (long long)want);
    }
}

static void wait(MPI_Request *req)
{
    CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
}

static void check_local(const struct ty *ty, int op)
{
    fill(ty, op, N);
    for (int i = 0; i < N; i++) {
        put(ty, sbuf, i, value(ty, op, 1, i));
        put(ty, rbuf, i, value(ty, op, 0, i));
    }
    CHECK_MPI(MPI_Reduce_local(sbuf, rbuf, N, ty->t, op_handle(op)));
    expect(ty, op, "MPI_Reduce_local", N, 0, 1, 0);
}

static void check_rooted(const struct ty *ty, int which, int blocking)
{
    MPI_Op op = op_handle(which);
    MPI_Request req;
    int root = size - 1;
    const char *call = blocking ? "MPI_Reduce" : "MPI_Ireduce";
    fill(ty, which, N);
    if (blocking)
        CHECK_MPI(MPI_Reduce(sbuf, rbuf, N, ty->t, op, root,
                             MPI_COMM_WORLD));
    else {
        CHECK_MPI(MPI_Ireduce(sbuf, rbuf, N, ty->t, op, root,
                              MPI_COMM_WORLD, &req));
        wait(&req);
    }
    if (rank == root)
        expect(ty, which, call, N, 0, size - 1, 0);
    call = blocking ? "MPI_Allreduce" : "MPI_Iallreduce";
    fill(ty, which, N);
    if (blocking)
        CHECK_MPI(MPI_Allreduce(sbuf, rbuf, N, ty->t, op, MPI_COMM_WORLD));
    else {
        CHECK_MPI(MPI_Iallreduce(sbuf, rbuf, N, ty->t, op, MPI_COMM_WORLD,
                                 &req));
        wait(&req);
    }
    expect(ty, which, call, N, 0, size - 1, 0);
}

static void check_scatter(const struct ty *ty, int which, int blocking)
{
    MPI_Op op = op_handle(which);
    MPI_Request req;
    enum { BLOCK = 3 };
    int counts[N], start = 0, total = 0;
    fill(ty, which, BLOCK * size);
    if (blocking)
        CHECK_MPI(MPI_Reduce_scatter_block(sbuf, rbuf, BLOCK, ty->t, op,
                                           MPI_COMM_WORLD));
    else {
        CHECK_MPI(MPI_Ireduce_scatter_block(sbuf, rbuf, BLOCK, ty->t, op,
                                            MPI_COMM_WORLD, &req));
        wait(&req);
    }
    expect(ty, which, blocking ? "MPI_Reduce_scatter_block"
                           : "MPI_Ireduce_scatter_block",
           BLOCK, 0, size - 1, rank * BLOCK);
    for (int r = 0; r < size; r++) { /* rank 0 gets nothing */
        counts[r] = r % 3;
        start += r < rank ? counts[r] : 0;
        total += counts[r];
    }
    fill(ty, which, total);
    if (blocking)
        CHECK_MPI(MPI_Reduce_scatter(sbuf, rbuf, counts, ty->t, op,
                                     MPI_COMM_WORLD));
    else {
        CHECK_MPI(MPI_Ireduce_scatter(sbuf, rbuf, counts, ty->t, op,
                                      MPI_COMM_WORLD, &req));
        wait(&req);
    }
    expect(ty, which, blocking ? "MPI_Reduce_scatter" : "MPI_Ireduce_scatter",
           counts[rank], 0, size - 1, start);
}

static void check_scans(const struct ty *ty, int which, int blocking)
{
    MPI_Op op = op_handle(which);
    MPI_Request req;
    fill(ty, which, N);
    if (blocking)
        CHECK_MPI(MPI_Scan(sbuf, rbuf, N, ty->t, op, MPI_COMM_WORLD));
    else {
        CHECK_MPI(MPI_Iscan(sbuf, rbuf, N, ty->t, op, MPI_COMM_WORLD, &req));
        wait(&req);
    }
    expect(ty, which, blocking ? "MPI_Scan" : "MPI_Iscan", N, 0, rank, 0);
    fill(ty, which, N);
    if (blocking)
        CHECK_MPI(MPI_Exscan(sbuf, rbuf, N, ty->t, op, MPI_COMM_WORLD));
    else {
        CHECK_MPI(MPI_Iexscan(sbuf, rbuf, N, ty->t, op, MPI_COMM_WORLD,
                              &req));
        wait(&req);
    }
    if (rank > 0) /* rank 0's recvbuf is undefined after an exscan */
        expect(ty, which, blocking ? "MPI_Exscan" : "MPI_Iexscan", N, 0,
               rank - 1, 0);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    for (int t = 0; t < NTYPES; t++)
        for (int o = 0; o < types[t].nops; o++) {
            int op = types[t].ops[o];
            check_local(&types[t], op);
            for (int blocking = 0; blocking < 2; blocking++) {
                check_rooted(&types[t], op, blocking);
                check_scatter(&types[t], op, blocking);
                check_scans(&types[t], op, blocking);
            }
        }
    CHECK_MPI(MPI_Finalize());
    return 0;
}
