/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dims.c - MPI_Dims_create (MPI-3.1 7.5.2): a balanced grid of nnodes
 * processes.
 *
 * The entries the caller set (nonzero) are kept; the free ones (zero)
 * get the factors of what is left, in non-increasing order, "as close to
 * each other as possible".  shmpi reads that as: the largest factor as
 * small as it can be, then the next largest, and so on - an exact search
 * over the divisors, not the greedy assignment of prime factors that some
 * implementations use (for 72 on two dimensions that gives 12 x 6; the
 * search finds 9 x 8).  Both agree on every example of the standard.
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"

SHMPI_WEAK_ALIAS(Dims_create)

/* An int below 2^31 has at most 1600 divisors, and at most 30 factors
   above 1: free dimensions past the 30th are 1 in the best grid. */
#define MAX_DIVISORS 1600
#define MAX_FACTORS 30

/* The divisors of n, ascending; returns how many. */
static int divisors_of(int n, int *divs)
{
    int low = 0, high = 0, upper[MAX_DIVISORS / 2];
    for (int i = 1; (long long)i * i <= n; i++) {
        if (n % i)
            continue;
        divs[low++] = i;
        if (i != n / i)
            upper[high++] = n / i;
    }
    while (high > 0)
        divs[low++] = upper[--high];
    return low;
}

/* d^k >= n?  (Without overflow: stops as soon as it is.) */
static int covers(int d, int k, int n)
{
    long long p = 1;
    for (int i = 0; i < k && p < n; i++)
        p *= d;
    return p >= n;
}

/*
 * f[0..k) := k factors of n, non-increasing, none above max, with the
 * largest as small as possible, then the next...  divs: the divisors of a
 * multiple of n, ascending.  Returns 0 when there are none.  The first
 * factor is at least the k-th root of n, so the search starts there; it
 * backtracks only when what is left has a factor too big for the rest.
 */
static int balance(int n, int k, int max, const int *divs, int ndivs,
                   int *f)
{
    if (k == 1) {
        f[0] = n;
        return n <= max;
    }
    for (int i = 0; i < ndivs && divs[i] <= max; i++) {
        int d = divs[i];
        if (n % d || !covers(d, k, n))
            continue;
        f[0] = d;
        if (balance(n / d, k - 1, d, divs, ndivs, f + 1))
            return 1;
    }
    return 0;
}

static int check(const char *fn, int nnodes, int ndims, const int *dims,
                 int *free_nodes, int *free_dims)
{
    if (nnodes <= 0)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_DIMS, fn,
                           "nnodes is %d: a grid needs a process", nnodes);
    if (ndims < 0)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_DIMS, fn,
                           "ndims is negative (%d)", ndims);
    if (ndims > 0 && !dims)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "dims is NULL");
    int left = nnodes, nfree = 0;
    for (int d = 0; d < ndims; d++) {
        if (dims[d] < 0)
            return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_DIMS, fn,
                               "dims[%d] is negative (%d)", d, dims[d]);
        if (dims[d] == 0)
            nfree++;
        else if (left % dims[d])
            return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_DIMS, fn,
                               "the dimensions given do not divide nnodes "
                               "(%d)", nnodes);
        else
            left /= dims[d];
    }
    if (nfree == 0 && left != 1)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_DIMS, fn,
                           "every dimension is given and their product is "
                           "not nnodes (%d)", nnodes);
    *free_nodes = left;
    *free_dims = nfree;
    return MPI_SUCCESS;
}

int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    static const char *fn = "MPI_Dims_create";
    SHMPI_REQUIRE_INIT(fn);
    int left = 1, nfree = 0;
    int rc = check(fn, nnodes, ndims, dims, &left, &nfree);
    if (rc != MPI_SUCCESS || nfree == 0)
        return rc;
    int divs[MAX_DIVISORS], f[MAX_FACTORS];
    int ndivs = divisors_of(left, divs);
    int k = nfree < MAX_FACTORS ? nfree : MAX_FACTORS;
    /* always found: left, 1, 1, ... is one answer */
    balance(left, k, left, divs, ndivs, f);
    for (int d = 0, next = 0; d < ndims; d++)
        if (dims[d] == 0)
            dims[d] = next < k ? f[next++] : 1;
    return MPI_SUCCESS;
}
