/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pmpi.h - the profiling interface (MPI-3.1 14.2).
 *
 * Every function is defined as PMPI_<name>; SHMPI_WEAK_ALIAS makes
 * MPI_<name> a weak alias of it, so a tool that defines its own MPI_<name>
 * wins at link time and reaches ours through PMPI_<name>.  Calls from one
 * part of the library to another use the PMPI_ name, so that a wrapped
 * function is counted once, when the user calls it.
 */
#ifndef SHMPI_PMPI_H
#define SHMPI_PMPI_H

#define SHMPI_PRAGMA(x) _Pragma(#x)
#define SHMPI_WEAK_ALIAS(name) SHMPI_PRAGMA(weak MPI_##name = PMPI_##name)

#endif
