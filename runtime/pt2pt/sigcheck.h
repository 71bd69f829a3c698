/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sigcheck.h - the check mode's test of MPI-3.1 3.3.1: the type
 * signature a receive gives the bytes of its message must be the one
 * the send gave them (MPI_BYTE and MPI_PACKED match anything, 3.3.1;
 * a receive longer than its message compares the prefix the message
 * fills).  On one machine MPI_INT received as MPI_FLOAT moves the same
 * bytes and "works"; between machines of different representations it
 * does not, and the standard leaves it erroneous everywhere.
 *
 * How the signature travels, in check mode only: the send computes it
 * (datatypes/sig.h) as it starts (start.c; MPI_Bsend's from the
 * program's arguments, before its copy, bsend.c) and keeps it in
 * r->sig until its envelope is written; the envelope (EAGER or RTS,
 * never SHORT) then has SHMPI_MSG_SIGNED in its flags and this record
 * after its data (proto.h), which a message kept before its receive
 * keeps too (u->sig).  The receive that matches it compares, and
 * reports on the receiving rank: progress.c (a posted receive meets an
 * arriving message), recv.c (a receive takes a kept one, MPI_Mrecv's
 * included; a send to oneself).  Without the mode no send has r->sig
 * and no record the flag: the costs are the mode's test in
 * shmpi_p2p_start_send, a branch on r->sig when an envelope is written,
 * one on the flags word of a full header (read anyway) and one on
 * u->sig when a kept message is received - none of them on the fast
 * way of MPI_Send and MPI_Recv (fastpath.c), and 8 bytes more in a
 * request.  2026-11-30, 8-byte MPI_Send/MPI_Recv ping-pong at np = 2,
 * 2000 rounds after 600 that turn the pair hot, the mode off (/tmp
 * program; mpirun -np 2 valgrind -q --tool=callgrind
 * --collect-atstart=no --toggle-collect=<the rounds' function>,
 * inclusive): MPI_Send 207.2 instructions per call without the check
 * and with it; fastpath.o and nonblocking.o compile to the same code;
 * MPI_Recv's count varies with its polls of the ring (459 to 605 per
 * call in both).  Off the fast way, by the code: start_send 3
 * instructions more, post_envelope 2, handle_envelope 2,
 * recv_unexpected 2, and a blocking call's request on its stack one
 * word more to zero.
 *
 * Not signed: the library's own messages (their context is not the
 * communicator's own), untyped sends (MPI_BYTE, MPI_PACKED), empty
 * ones.
 */
#ifndef SHMPI_P2P_SIGCHECK_H
#define SHMPI_P2P_SIGCHECK_H

#include <stdint.h>

struct shmpi_request;

/* What a signed envelope carries after its data: 128 bytes. */
struct shmpi_p2p_sig {
    uint64_t hash;             /* shmpi_dt_sig of the whole message */
    int64_t count;             /* the send's count */
    char call[32];             /* the sending call ("MPI_Isend") */
    char type[80];             /* its datatype (shmpi_dt_describe) */
};

/* Check mode: send r, started by fn, whose data (buf, count, datatype)
   are those of `args` (r itself, or the program's request a buffered
   send's copy was made of): its signature into r->sig, unless r has
   one or is not to be signed (above). */
void shmpi_p2p_sig_sign(struct shmpi_request *r,
                        const struct shmpi_request *args, const char *fn)
    __attribute__((cold));
/* Send r's envelope was written (its sig with it), or r will never
   write one (cancelled, failed): its sig let go. */
void shmpi_p2p_sig_drop(struct shmpi_request *r) __attribute__((cold));
/* Receive r matched a message of nbytes from world rank source, whose
   send signed it sig: report a mismatch. */
void shmpi_p2p_sig_check(const struct shmpi_request *r, int source,
                         int tag, uint64_t nbytes,
                         const struct shmpi_p2p_sig *sig)
    __attribute__((cold));
/* A copy of sig in memory of its own, for a message kept before its
   receive (NULL when out of memory: unchecked). */
struct shmpi_p2p_sig *shmpi_p2p_sig_keep(const void *sig)
    __attribute__((cold));

#endif
