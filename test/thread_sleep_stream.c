/* thread_sleep_stream: p2p_sleep_stream under MPI_THREAD_MULTIPLE with 2 threads per rank, each on a communicator of its own: rank 0's thread of one communicator sleeps while the bursts of the other arrive and wake only their own receiver, one burst in flight at a time, so a lost wake-up hangs the job. */
/* shmpi-test: np=3 timeout=240 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#define THREADS 2
#include "p2p_sleep_stream.c"
