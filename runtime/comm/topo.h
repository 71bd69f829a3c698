/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topo.h - process topologies (MPI-3.1 chapter 7): the Cartesian, graph
 * and distributed graph structure a communicator may carry, and what the
 * neighbor collectives need of it.
 *
 * A topology is local information: each process keeps what the calls on
 * its own handle can ask for.  A Cartesian process keeps the grid and its
 * coordinates; a graph process keeps the whole graph (MPI_Graph_get
 * returns it); a distributed graph process keeps only its own edges.
 * Every kind also keeps the process's neighbor lists in the order the
 * neighbor collectives use (7.6), so those never look at the kind.
 *
 * The object is one allocation: the struct, then every array it points
 * into.  comm->topo owns it; MPI_Comm_dup copies it, freeing the
 * communicator frees it.
 *
 * Ranks are never reordered: the new communicator of a topology
 * constructor has the processes of the old one in the same order, so
 * `reorder` is accepted and ignored, and the mapping calls
 * (MPI_Cart_map, MPI_Graph_map) keep each process's rank.
 */
#ifndef SHMPI_TOPO_H
#define SHMPI_TOPO_H

#include "core/objects.h"


struct shmpi_topo {
    int kind;                  /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    int rank;                  /* this process's, in the communicator */

    /* MPI_CART: the grid, row-major (the last dimension varies fastest) */
    int ndims;
    int *dims, *periods;       /* periods: 0 or 1 */
    int *coords;               /* of this process */

    /* MPI_GRAPH: the whole graph, as MPI_Graph_create was given it */
    int nnodes;
    int *index, *edges;

    /* MPI_DIST_GRAPH: weights of sources[i] and destinations[i] */
    int weighted;              /* 0: created with MPI_UNWEIGHTED */
    int *sourceweights, *destweights;

    /* every kind: whom the neighbor collectives receive block i from and
       send block i to (Cartesian: dimension d's -1 neighbor at 2d, its +1
       neighbor at 2d + 1, MPI_PROC_NULL where there is none; graph: the
       node's edges, both ways) */
    int indegree, outdegree;
    int *sources, *destinations;

    int used;                  /* ints of `ints` handed out so far */
    int ints[];
};

/* topo.c: the constructors.  NULL when out of memory. */
/* The grid dims[ndims] with periods[ndims] (nonzero: periodic), seen
   from the process of rank `rank` in it. */
struct shmpi_topo *shmpi_topo_cart(int ndims, const int *dims,
                                   const int *periods, int rank);
/* The subgrid of t's dimensions d with keep[d] nonzero, through t's
   process (MPI_Cart_sub); shmpi_topo_cart_sub_color numbers the subgrids. */
struct shmpi_topo *shmpi_topo_cart_sub(const struct shmpi_topo *t,
                                       const int *keep);
int shmpi_topo_cart_sub_color(const struct shmpi_topo *t, const int *keep);
/* The graph (nnodes, index, edges), seen from node `rank`. */
struct shmpi_topo *shmpi_topo_graph(int nnodes, const int *index,
                                    const int *edges, int rank);
/* The edges of the process of rank `rank`, with their weights when
   weighted (a side of no edge may give any pointer, NULL included). */
struct shmpi_topo *shmpi_topo_dist_graph(int rank, int weighted,
                                         int indegree,
                                         const int *sources,
                                         const int *sourceweights,
                                         int outdegree,
                                         const int *destinations,
                                         const int *destweights);
struct shmpi_topo *shmpi_topo_copy(const struct shmpi_topo *t);
void shmpi_topo_free(struct shmpi_topo *t);

/* topo.c: the last step of every constructor, which every process of
   comm takes - even one whose arguments were wrong (err: the code it
   already raised), so that the others are not left waiting.  Makes the
   communicator of the processes that give `color` (MPI_UNDEFINED: none,
   *newcomm becomes MPI_COMM_NULL), in their order in comm, and hands it
   t (NULL: out of memory), which it frees on every failure.  Returns
   MPI_SUCCESS or an error raised on comm. */
int shmpi_topo_split(MPI_Comm comm, int color, struct shmpi_topo *t,
                     int err, MPI_Comm *newcomm, const char *fn);

/* topo.c: comm's topology when it is of kind (0: any kind); otherwise
   raises MPI_ERR_COMM or MPI_ERR_TOPOLOGY under fn and returns NULL,
   with the error code in *rc. */
struct shmpi_topo *shmpi_topo_of(MPI_Comm comm, int kind, const char *fn,
                                 int *rc);

/* topo.c: the coordinates of rank in t's grid. */
void shmpi_topo_cart_coords(const struct shmpi_topo *t, int rank, int *coords);
/* topo.c: the ranks `disp` steps down and up dimension dir of t's grid
   from the process of rank `rank`: MPI_PROC_NULL off the edge of a
   non-periodic dimension. */
void shmpi_topo_cart_shift(const struct shmpi_topo *t, int rank, int dir,
                           int disp, int *source, int *dest);

/* topo_check.c: argument checks shared by the constructors and the mapping
   calls; each returns MPI_SUCCESS or the code raised on comm under fn. */
/* ndims >= 0 and dims[i] > 0 (MPI_ERR_DIMS), arrays present
   (MPI_ERR_ARG), and a grid of at most comm's size (MPI_ERR_ARG); the
   number of its nodes in *nnodes. */
int shmpi_topo_check_grid(const char *fn, MPI_Comm comm, int ndims,
                          const int *dims, const int *periods, int *nnodes);
/* 0 <= nnodes <= comm's size, index non-decreasing from >= 0, edges
   naming nodes (MPI_ERR_ARG, MPI_ERR_RANK). */
int shmpi_topo_check_graph(const char *fn, MPI_Comm comm, int nnodes,
                           const int *index, const int *edges);
/* n ranks of comm (MPI_ERR_RANK) in ranks, and their weights unless
   weights is MPI_UNWEIGHTED: present when n > 0 (MPI_ERR_ARG) and not
   negative (MPI_ERR_ARG).  what names the array. */
int shmpi_topo_check_ranks(const char *fn, MPI_Comm comm, int n,
                           const int *ranks, const int *weights,
                           const char *what);
/* A valid intracommunicator (MPI_ERR_COMM): a topology is "an extra,
   optional attribute that one can give to an intracommunicator" (7.2). */
int shmpi_topo_check_comm(const char *fn, MPI_Comm comm);
/* An output pointer for the call (MPI_ERR_ARG). */
int shmpi_topo_check_out(const char *fn, MPI_Comm comm, const void *p,
                         const char *what);
/* A caller's array of `max` entries that must hold `need` (MPI_ERR_ARG:
   too short, or NULL while something is to be stored). */
int shmpi_topo_check_room(const char *fn, MPI_Comm comm, int max, int need,
                          const void *array, const char *what);

#endif
