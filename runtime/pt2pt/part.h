/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * part.h - partitioned communication (part.c): what the rest of pt2pt
 * knows of it.
 */
#ifndef SHMPI_PART_H
#define SHMPI_PART_H

#include "core/lock_type.h"
#include "pt2pt/request.h"

struct shmpi_p2p_part;
struct shmpi_p2p_part_pipe;
struct shmpi_p2p_part_key;

/* This rank's matching of partitioned receives (in struct shmpi_pt2pt),
   under `lock`: the receives not yet matched in the order of their init
   calls, the announcements of partitioned sends that arrived and match
   none yet, in arrival order, and per (context, source) how many
   receives of announcements are posted. */
struct shmpi_p2p_part_match {
    struct shmpi_core_lock lock;
    struct shmpi_p2p_part *waiting;
    struct shmpi_p2p_part_pipe *parked;
    struct shmpi_p2p_part_key *keys;
};

/* part.c: the operations of SHMPI_REQ_PART. */
extern const struct shmpi_req_ops shmpi_p2p_part_ops;

/* MPI_Request_free of r (kind SHMPI_REQ_PART): MPI-4.0 4.2.1 makes
   freeing an active partitioned request that has not completed
   erroneous; raised here (MPI_ERR_REQUEST), MPI_SUCCESS if r may go. */
int shmpi_p2p_part_free_check(struct shmpi_request *r, const char *fn);

#endif
