/* abi_event_threads: mpit_event_threads_ext built against the standard ABI: events raised by four threads at once while a fifth registers callbacks and swaps dropped handlers, seen through the layer's trampolines with the ABI's safety levels, registrations and user data. */
/* shmpi-test: np=2 timeout=120 threads ext abi */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The program is mpit_event_threads_ext's, as it is: its checks name
 * the constants, which are the ABI's here (MPI_T_CB_REQUIRE_THREAD_SAFE
 * 0x0f, not shmpi's 2).
 */
#include "mpit_event_threads_ext.c"
