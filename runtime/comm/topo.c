/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topo.c - the topology object (topo.h): constructors, copy and free,
 * the Cartesian shift every Cartesian call is written on, and the one
 * way a topology gets its communicator.
 *
 * The communicator comes from a split of the old one (comm/comm.h,
 * shmpi_comm_split, errors reported under the topology call's name) with
 * the process's rank as the key: members keep their order (no
 * reordering), and MPI_Cart_sub's subgrids are the colors of one split.
 * A split, not a dup, even when every process is a member: a new
 * topology starts without the old communicator's attributes.
 */
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "core/error.h"
#include "comm/topo.h"

static struct shmpi_topo *topo_alloc(int kind, int rank, size_t nints)
{
    struct shmpi_topo *t = malloc(sizeof *t + nints * sizeof(int));
    if (t)
        *t = (struct shmpi_topo){.kind = kind, .rank = rank};
    return t;
}

/* The next n ints of t's trailing array, holding a copy of src (when
   not NULL). */
static int *take(struct shmpi_topo *t, int n, const int *src)
{
    int *p = t->ints + t->used;
    t->used += n;
    if (src && n > 0)
        memcpy(p, src, (size_t)n * sizeof *p);
    return p;
}

void shmpi_topo_free(struct shmpi_topo *t)
{
    if (!t)
        return;
    free(t);
}

/* ------------------------------------------------------------------ */
/* Cartesian                                                           */
/* ------------------------------------------------------------------ */

/* Ranks between two neighbors along dimension dir: the product of the
   later dimensions (row-major order: the last varies fastest). */
static int stride_of(const struct shmpi_topo *t, int dir)
{
    int stride = 1;
    for (int i = dir + 1; i < t->ndims; i++)
        stride *= t->dims[i];
    return stride;
}

/* Coordinate c moved by disp along a dimension of n: wrapped when the
   dimension is periodic, -1 off its edge otherwise.  In long long: disp
   may be anything an int holds. */
static int moved(int c, long long disp, int n, int periodic)
{
    long long to = c + disp;
    if (periodic)
        return (int)(((to % n) + n) % n);
    return to < 0 || to >= n ? -1 : (int)to;
}

void shmpi_topo_cart_shift(const struct shmpi_topo *t, int rank, int dir,
                           int disp, int *source, int *dest)
{
    int n = t->dims[dir], periodic = t->periods[dir];
    int stride = stride_of(t, dir);
    int c = rank / stride % n;
    int down = moved(c, -(long long)disp, n, periodic);
    int up = moved(c, disp, n, periodic);
    *source = down < 0 ? MPI_PROC_NULL : rank + (down - c) * stride;
    *dest = up < 0 ? MPI_PROC_NULL : rank + (up - c) * stride;
}

void shmpi_topo_cart_coords(const struct shmpi_topo *t, int rank, int *coords)
{
    for (int d = t->ndims - 1; d >= 0; d--) {
        coords[d] = rank % t->dims[d];
        rank /= t->dims[d];
    }
}

/* A grid of ndims dimensions for the process of rank `rank`, its dims
   and periods for the caller to fill in before cart_finish. */
static struct shmpi_topo *cart_alloc(int ndims, int rank)
{
    struct shmpi_topo *t = topo_alloc(MPI_CART, rank, 5 * (size_t)ndims);
    if (!t)
        return NULL;
    t->ndims = ndims;
    t->dims = take(t, ndims, NULL);
    t->periods = take(t, ndims, NULL);
    t->coords = take(t, ndims, NULL);
    t->sources = t->destinations = take(t, 2 * ndims, NULL);
    t->indegree = t->outdegree = 2 * ndims;
    return t;
}

static struct shmpi_topo *cart_finish(struct shmpi_topo *t)
{
    shmpi_topo_cart_coords(t, t->rank, t->coords);
    /* the neighbor at -1 is where a shift by +1 comes from */
    for (int d = 0; d < t->ndims; d++)
        shmpi_topo_cart_shift(t, t->rank, d, 1, &t->sources[2 * d],
                              &t->sources[2 * d + 1]);
    return t;
}

struct shmpi_topo *shmpi_topo_cart(int ndims, const int *dims,
                                   const int *periods, int rank)
{
    struct shmpi_topo *t = cart_alloc(ndims, rank);
    if (!t)
        return NULL;
    for (int d = 0; d < ndims; d++) {
        t->dims[d] = dims[d];
        t->periods[d] = periods[d] != 0;
    }
    return cart_finish(t);
}

/* Where the coordinates of the dimensions keep[d] selects (or, with
   which 0, those it drops) put this process in the grid of those
   dimensions alone: its rank there. */
static int rank_among(const struct shmpi_topo *t, const int *keep,
                      int which)
{
    int rank = 0;
    for (int d = 0; d < t->ndims; d++)
        if ((keep[d] != 0) == which)
            rank = rank * t->dims[d] + t->coords[d];
    return rank;
}

int shmpi_topo_cart_sub_color(const struct shmpi_topo *t, const int *keep)
{
    return rank_among(t, keep, 0);
}

struct shmpi_topo *shmpi_topo_cart_sub(const struct shmpi_topo *t,
                                       const int *keep)
{
    int n = 0;
    for (int d = 0; d < t->ndims; d++)
        n += keep[d] != 0;
    struct shmpi_topo *s = cart_alloc(n, rank_among(t, keep, 1));
    if (!s)
        return NULL;
    for (int d = 0, i = 0; d < t->ndims; d++) {
        if (!keep[d])
            continue;
        s->dims[i] = t->dims[d];
        s->periods[i++] = t->periods[d];
    }
    return cart_finish(s);
}

/* ------------------------------------------------------------------ */
/* Graphs                                                              */
/* ------------------------------------------------------------------ */

struct shmpi_topo *shmpi_topo_graph(int nnodes, const int *index,
                                    const int *edges, int rank)
{
    int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
    struct shmpi_topo *t =
        topo_alloc(MPI_GRAPH, rank, (size_t)nnodes + (size_t)nedges);
    if (!t)
        return NULL;
    t->nnodes = nnodes;
    t->index = take(t, nnodes, index);
    t->edges = take(t, nedges, edges);
    int first = rank > 0 ? index[rank - 1] : 0;
    t->sources = t->destinations = t->edges + first;
    t->indegree = t->outdegree = index[rank] - first;
    return t;
}

struct shmpi_topo *shmpi_topo_dist_graph(int rank, int weighted,
                                         int indegree, const int *sources,
                                         const int *sourceweights,
                                         int outdegree,
                                         const int *destinations,
                                         const int *destweights)
{
    size_t n = ((size_t)indegree + (size_t)outdegree) * (weighted ? 2 : 1);
    struct shmpi_topo *t = topo_alloc(MPI_DIST_GRAPH, rank, n);
    if (!t)
        return NULL;
    t->weighted = weighted;
    t->indegree = indegree;
    t->outdegree = outdegree;
    t->sources = take(t, indegree, sources);
    t->destinations = take(t, outdegree, destinations);
    if (weighted) {
        t->sourceweights = take(t, indegree, sourceweights);
        t->destweights = take(t, outdegree, destweights);
    }
    return t;
}

struct shmpi_topo *shmpi_topo_copy(const struct shmpi_topo *t)
{
    switch (t->kind) {
    case MPI_CART:
        return shmpi_topo_cart(t->ndims, t->dims, t->periods, t->rank);
    case MPI_GRAPH:
        return shmpi_topo_graph(t->nnodes, t->index, t->edges, t->rank);
    default:
        return shmpi_topo_dist_graph(t->rank, t->weighted, t->indegree,
                                     t->sources, t->sourceweights,
                                     t->outdegree, t->destinations,
                                     t->destweights);
    }
}

/* ------------------------------------------------------------------ */
/* The communicator                                                    */
/* ------------------------------------------------------------------ */

int shmpi_topo_split(MPI_Comm comm, int color, struct shmpi_topo *t,
                     int err, MPI_Comm *newcomm, const char *fn)
{
    MPI_Comm c = MPI_COMM_NULL;
    int rc = shmpi_comm_split(comm, color, comm->rank, &c, fn);
    if (rc == MPI_SUCCESS)
        rc = err;
    if (rc == MPI_SUCCESS && c != MPI_COMM_NULL && !t)
        rc = shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                         "no memory for the topology of %d processes",
                         c->size);
    if (rc != MPI_SUCCESS) {
        shmpi_topo_free(t);
        if (c != MPI_COMM_NULL)
            PMPI_Comm_free(&c);
        return rc;
    }
    if (c != MPI_COMM_NULL)
        c->topo = t;
    else
        shmpi_topo_free(t);
    *newcomm = c;
    return MPI_SUCCESS;
}

static const char *kind_name(int kind)
{
    return kind == MPI_CART    ? "Cartesian"
           : kind == MPI_GRAPH ? "a graph"
                               : "a distributed graph";
}

struct shmpi_topo *shmpi_topo_of(MPI_Comm comm, int kind, const char *fn,
                                 int *rc)
{
    if (!shmpi_comm_ok(comm)) {
        *rc = shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
        return NULL;
    }
    struct shmpi_topo *t = comm->topo;
    if (!t)
        *rc = shmpi_raise(comm, MPI_ERR_TOPOLOGY, fn,
                          "the communicator has no process topology");
    else if (kind && t->kind != kind)
        *rc = shmpi_raise(comm, MPI_ERR_TOPOLOGY, fn,
                          "the communicator's topology is %s, not %s",
                          kind_name(t->kind), kind_name(kind));
    else
        return t;
    return NULL;
}
