/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dist_graph.c - distributed graph topologies (MPI-3.1 7.5.4, 7.5.5):
 * MPI_Dist_graph_create_adjacent, MPI_Dist_graph_create,
 * MPI_Dist_graph_neighbors_count, MPI_Dist_graph_neighbors.
 *
 * Each process keeps only its own edges: whom it receives from (sources)
 * and sends to (destinations), with their weights unless the graph was
 * made with MPI_UNWEIGHTED.  Every process of the old communicator is in
 * the new one, with its rank.
 *
 * MPI_Dist_graph_create_adjacent is given exactly that, in the order the
 * neighbor collectives use.  MPI_Dist_graph_create is given edges that
 * any process may name, so the processes exchange them: each edge s -> d
 * goes to s (an outgoing edge) and to d (an incoming one), over the old
 * communicator's internal context, pairwise (in step k a process sends to
 * rank + k and receives from rank - k, first the number of edges, then
 * the edges).  A process lists its edges in the order of the processes
 * that named them, then in the order each named them: the same list each
 * time it is asked, which is all the standard requires.
 *
 * A process whose arguments are wrong raises the error, yet names no edge
 * and still takes part in the exchange and in making the communicator
 * (then frees its part), so that under an error handler that returns the
 * others are not left waiting.
 */
#include <limits.h>
#include <stdlib.h>

#include "comm/comm.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "comm/topo.h"
#include "pt2pt/internal.h"

SHMPI_WEAK_ALIAS(Dist_graph_create_adjacent)
SHMPI_WEAK_ALIAS(Dist_graph_create)
SHMPI_WEAK_ALIAS(Dist_graph_neighbors_count)
SHMPI_WEAK_ALIAS(Dist_graph_neighbors)

static int check_info(const char *fn, MPI_Comm comm, MPI_Info info)
{
    if (info != MPI_INFO_NULL && !shmpi_info_ok(info))
        return shmpi_raise(comm, MPI_ERR_INFO, fn,
                           "info is not a valid info object");
    return MPI_SUCCESS;
}

static int check_degree(const char *fn, MPI_Comm comm, int n,
                        const char *what)
{
    if (n < 0)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "%s is negative (%d)",
                           what, n);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* MPI_Dist_graph_create_adjacent                                      */
/* ------------------------------------------------------------------ */

static int check_adjacent(const char *fn, MPI_Comm comm, int indegree,
                          const int *sources, const int *sourceweights,
                          int outdegree, const int *destinations,
                          const int *destweights, MPI_Info info,
                          MPI_Comm *newcomm)
{
    int rc;
    if ((rc = check_degree(fn, comm, indegree, "indegree")) ||
        (rc = check_degree(fn, comm, outdegree, "outdegree")) ||
        (rc = shmpi_topo_check_ranks(fn, comm, indegree, sources,
                                     sourceweights, "sources")) ||
        (rc = shmpi_topo_check_ranks(fn, comm, outdegree, destinations,
                                     destweights, "destinations")) ||
        (rc = check_info(fn, comm, info)))
        return rc;
    return shmpi_topo_check_out(fn, comm, newcomm, "comm_dist_graph");
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree,
                                    const int sources[],
                                    const int *sourceweights,
                                    int outdegree, const int destinations[],
                                    const int *destweights, MPI_Info info,
                                    int reorder, MPI_Comm *comm_dist_graph)
{
    static const char *fn = "MPI_Dist_graph_create_adjacent";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_topo_check_comm(fn, comm_old);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = check_adjacent(fn, comm_old, indegree, sources, sourceweights,
                        outdegree, destinations, destweights, info,
                        comm_dist_graph);
    struct shmpi_topo *t = NULL;
    if (rc == MPI_SUCCESS) {
        /* the standard wants both or neither; either is enough here.
           Only MPI_UNWEIGHTED says so: an empty side may pass NULL or
           MPI_WEIGHTS_EMPTY for a weighted graph (7.5.4). */
        int weighted = sourceweights != MPI_UNWEIGHTED &&
                       destweights != MPI_UNWEIGHTED;
        t = shmpi_topo_dist_graph(comm_old->rank, weighted, indegree,
                                  sources, sourceweights, outdegree,
                                  destinations, destweights);
    }
    return shmpi_topo_split(comm_old, 0, t, rc, comm_dist_graph, fn);
}

/* ------------------------------------------------------------------ */
/* MPI_Dist_graph_create                                               */
/* ------------------------------------------------------------------ */

/* An edge as the process it joins learns of it. */
struct edge {
    int incoming;              /* 1: from peer to this process; 0: to peer */
    int peer;
    int weight;
};

static int check_edges(const char *fn, MPI_Comm comm, int n,
                       const int *sources, const int *degrees,
                       const int *destinations, const int *weights,
                       MPI_Info info, MPI_Comm *newcomm)
{
    int rc;
    if ((rc = check_degree(fn, comm, n, "n")) ||
        (rc = shmpi_topo_check_ranks(fn, comm, n, sources, MPI_UNWEIGHTED,
                                     "sources")))
        return rc;
    if (n > 0 && !degrees)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "degrees is NULL");
    long long nedges = 0;
    for (int i = 0; i < n; i++) {
        if ((rc = check_degree(fn, comm, degrees[i], "a degree")))
            return rc;
        nedges += degrees[i];
    }
    /* each edge travels twice, and a message's size is an int */
    if (nedges > INT_MAX / (2 * (int)sizeof(struct edge)))
        return shmpi_raise(comm, MPI_ERR_ARG, fn,
                           "%lld edges are more than one call can name",
                           nedges);
    if ((rc = shmpi_topo_check_ranks(fn, comm, (int)nedges, destinations,
                                     weights, "destinations")) ||
        (rc = check_info(fn, comm, info)))
        return rc;
    return shmpi_topo_check_out(fn, comm, newcomm, "comm_dist_graph");
}

/*
 * The edges this process names, sorted by the process they go to: those
 * for process p are out[start[p] .. start[p + 1]).  Each edge goes to
 * both its ends.  NULL if out of memory.
 */
static struct edge *sort_edges(MPI_Comm comm, int n, const int *sources,
                               const int *degrees, const int *destinations,
                               const int *weights, int *start)
{
    int nedges = 0;
    for (int p = 0; p <= comm->size; p++)
        start[p] = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, nedges++) {
            start[sources[i] + 1]++;
            start[destinations[nedges] + 1]++;
        }
    for (int p = 0; p < comm->size; p++)
        start[p + 1] += start[p];
    /* + 1: no edge is not out of memory */
    struct edge *out = malloc((size_t)(2 * nedges + 1) * sizeof *out);
    if (!out)
        return NULL;
    /* fill with start[p] as p's cursor, which ends at start[p + 1]... */
    for (int i = 0, k = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, k++) {
            int s = sources[i], d = destinations[k];
            int w = weights == MPI_UNWEIGHTED ? 1 : weights[k];
            out[start[s]++] = (struct edge){0, d, w};
            out[start[d]++] = (struct edge){1, s, w};
        }
    /* ...so shift the cursors back by one process */
    for (int p = comm->size; p > 0; p--)
        start[p] = start[p - 1];
    start[0] = 0;
    return out;
}

/* Pairwise, each process's share of out to it; what came from process
   p is (*in)[got[p] .. got[p + 1]).  Returns MPI_SUCCESS or an error
   raised on comm. */
static int exchange(MPI_Comm comm, const struct edge *out, const int *start,
                    struct edge **in, int *got, const char *fn)
{
    int size = comm->size, rank = comm->rank, rc = MPI_SUCCESS;
    got[0] = 0;
    for (int k = 0; k < size && rc == MPI_SUCCESS; k++) {
        int to = (rank + k) % size, from = (rank - k + size) % size;
        int n = start[to + 1] - start[to];
        rc = shmpi_p2p_internal_sendrecv(comm, &n, sizeof n, to,
                                         SHMPI_TAG_TOPO_EDGES, &got[from + 1],
                                         sizeof(int), from,
                                         SHMPI_TAG_TOPO_EDGES, fn);
    }
    if (rc != MPI_SUCCESS)
        return rc;
    for (int p = 0; p < size; p++)
        got[p + 1] += got[p];
    if (!(*in = malloc((size_t)got[size] * sizeof **in + 1)))
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory for %d edges", got[size]);
    int unit = (int)sizeof **in;
    for (int k = 0; k < size && rc == MPI_SUCCESS; k++) {
        int to = (rank + k) % size, from = (rank - k + size) % size;
        rc = shmpi_p2p_internal_sendrecv(
            comm, out + start[to], (start[to + 1] - start[to]) * unit, to,
            SHMPI_TAG_TOPO_EDGES, *in + got[from],
            (got[from + 1] - got[from]) * unit, from, SHMPI_TAG_TOPO_EDGES,
            fn);
    }
    return rc;
}

/* The topology of the n edges in `in`. */
static struct shmpi_topo *from_edges(int rank, const struct edge *in, int n,
                                     int weighted)
{
    int *lists = malloc(2 * ((size_t)n + 1) * sizeof *lists);
    if (!lists)
        return NULL;
    int indegree = 0, outdegree = 0;
    for (int i = 0; i < n; i++)
        indegree += in[i].incoming;
    outdegree = n - indegree;
    int *sources = lists, *destinations = lists + indegree;
    int *sw = lists + n, *dw = sw + indegree;
    for (int i = 0, a = 0, b = 0; i < n; i++) {
        if (in[i].incoming) {
            sources[a] = in[i].peer;
            sw[a++] = in[i].weight;
        } else {
            destinations[b] = in[i].peer;
            dw[b++] = in[i].weight;
        }
    }
    struct shmpi_topo *t = shmpi_topo_dist_graph(
        rank, weighted, indegree, sources, sw, outdegree, destinations, dw);
    free(lists);
    return t;
}

int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[],
                           const int degrees[], const int destinations[],
                           const int *weights, MPI_Info info, int reorder,
                           MPI_Comm *comm_dist_graph)
{
    static const char *fn = "MPI_Dist_graph_create";
    SHMPI_REQUIRE_INIT(fn);
    int rc = shmpi_topo_check_comm(fn, comm_old);
    if (rc != MPI_SUCCESS)
        return rc;
    int err = check_edges(fn, comm_old, n, sources, degrees, destinations,
                          weights, info, comm_dist_graph);
    if (err != MPI_SUCCESS)
        n = 0; /* name no edge, but take part */
    int *start = malloc(2 * ((size_t)comm_old->size + 1) * sizeof *start);
    struct edge *out = NULL, *in = NULL;
    if (!start || !(out = sort_edges(comm_old, n, sources, degrees,
                                     destinations, weights, start))) {
        free(start);
        return shmpi_raise(comm_old, MPI_ERR_NO_MEM, fn,
                           "no memory for the edges of the graph");
    }
    int *got = start + comm_old->size + 1;
    rc = exchange(comm_old, out, start, &in, got, fn);
    struct shmpi_topo *t = NULL;
    if (rc == MPI_SUCCESS && err == MPI_SUCCESS)
        t = from_edges(comm_old->rank, in, got[comm_old->size],
                       weights != MPI_UNWEIGHTED);
    free(in);
    free(out);
    free(start);
    if (rc != MPI_SUCCESS)
        return rc;
    return shmpi_topo_split(comm_old, 0, t, err, comm_dist_graph, fn);
}

/* ------------------------------------------------------------------ */
/* Queries                                                             */
/* ------------------------------------------------------------------ */

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree,
                                    int *outdegree, int *weighted)
{
    static const char *fn = "MPI_Dist_graph_neighbors_count";
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    struct shmpi_topo *t = shmpi_topo_of(comm, MPI_DIST_GRAPH, fn, &rc);
    if (!t || (rc = shmpi_topo_check_out(fn, comm, indegree, "indegree")) ||
        (rc = shmpi_topo_check_out(fn, comm, outdegree, "outdegree")) ||
        (rc = shmpi_topo_check_out(fn, comm, weighted, "weighted")))
        return rc;
    *indegree = t->indegree;
    *outdegree = t->outdegree;
    *weighted = t->weighted;
    return MPI_SUCCESS;
}

/* The caller's arrays for n ranks of the graph (max entries) and their
   weights (when the graph has some and the caller wants them). */
static int wants_weights(const int *weights, const int *from_weights, int n)
{
    return from_weights && weights != MPI_UNWEIGHTED && n > 0;
}

static int check_list(const char *fn, MPI_Comm comm, int max,
                      const int *ranks, const int *weights, int n,
                      const int *from_weights, const char *what)
{
    int rc = shmpi_topo_check_room(fn, comm, max, n, ranks, what);
    if (rc == MPI_SUCCESS && wants_weights(weights, from_weights, n) &&
        (!weights || weights == MPI_WEIGHTS_EMPTY))
        rc = shmpi_raise(comm, MPI_ERR_ARG, fn,
                         "the weights array of %s is %s", what,
                         weights ? "MPI_WEIGHTS_EMPTY" : "NULL");
    return rc;
}

static void copy_list(int *ranks, int *weights, int n, const int *from,
                      const int *from_weights)
{
    int with_weights = wants_weights(weights, from_weights, n);
    for (int i = 0; i < n; i++) {
        ranks[i] = from[i];
        if (with_weights)
            weights[i] = from_weights[i];
    }
}

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
                              int *sourceweights, int maxoutdegree,
                              int destinations[], int *destweights)
{
    static const char *fn = "MPI_Dist_graph_neighbors";
    SHMPI_REQUIRE_INIT(fn);
    int rc;
    struct shmpi_topo *t = shmpi_topo_of(comm, MPI_DIST_GRAPH, fn, &rc);
    if (!t ||
        (rc = check_list(fn, comm, maxindegree, sources, sourceweights,
                         t->indegree, t->sourceweights, "sources")) ||
        (rc = check_list(fn, comm, maxoutdegree, destinations, destweights,
                         t->outdegree, t->destweights, "destinations")))
        return rc;
    copy_list(sources, sourceweights, t->indegree, t->sources,
              t->sourceweights);
    copy_list(destinations, destweights, t->outdegree, t->destinations,
              t->destweights);
    return MPI_SUCCESS;
}
