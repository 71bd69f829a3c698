/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * predefined.c - the predefined datatypes of MPI-3.1 (3.2.2, 4.1, 5.9.4,
 * Annex A) and shmpi's MPI_HANDLE_SYNC, each a constant object named by
 * its mpi.h handle.
 *
 * Fortran types have the sizes of gfortran on this platform (INTEGER and
 * REAL 4 bytes, DOUBLE PRECISION 8).  A basic type is a leaf.  The pair
 * types for MINLOC/MAXLOC take the layout of the C struct { value; int; }
 * and are two blocks over their basic types, so the walks over basic
 * elements see a value and an int; for reductions a pair is one unit,
 * hence `basic` is the pair itself.  `flat` stays NULL: the compiled form
 * of a named type is the engine's business (compile.c).
 *
 * MPI_LB and MPI_UB, the MPI-1 bound markers (removed in MPI-3.0, kept
 * as deprecated names: mpi.h), are basic types of no size and no
 * element whose only effect is the marker each carries (layout.c).
 * mpi.h marks their objects deprecated; this file defines and lists
 * them, so it asks for no warnings.
 */
#define SHMPI_NO_DEPRECATION_WARNINGS
#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#include "datatypes/datatype.h"

#define PAIR(T) struct { T v; int i; }
typedef struct { float re, im; } f_complex8;
typedef struct { double re, im; } f_complex16;
typedef struct { long double re, im; } f_complex32;
typedef struct { uint16_t re, im; } f_complex4;

/* Fields every named type shares; lb is 0 and the extent is the size of
   the C object, so ub == extent. */
#define NAMED(NAME, size_, extent_, true_ub_, align_, nelems_)          \
    .magic = SHMPI_MAGIC_DATATYPE, .predefined = 1, .committed = 1,     \
    .combiner = MPI_COMBINER_NAMED, .size = (size_), .lb = 0,           \
    .ub = (extent_), .extent = (extent_), .true_lb = 0,                 \
    .true_ub = (true_ub_), .align = (align_), .nelems = (nelems_),      \
    .basic = &shmpi_dt_##NAME, .contig = ((size_) == (extent_)),        \
    .name = "MPI_" #NAME

#define BASIC(NAME, T)                                                  \
    struct shmpi_datatype shmpi_dt_##NAME = {                           \
        NAMED(NAME, sizeof(T), sizeof(T), sizeof(T), _Alignof(T), 1),  \
        .leaf = 1};

/* Two blocks of one element each: the value's type V at 0 and the int's
   type I at offset `second`; padding makes the extent larger than the
   size unless the two fit snugly (FLOAT_INT, 2INT, ...). */
#define TWO_BLOCKS(NAME, V, I, second, extent_, align_, vsize, isize)   \
    struct shmpi_datatype shmpi_dt_##NAME = {                           \
        NAMED(NAME, (vsize) + (isize), extent_, (second) + (isize),     \
              align_, 2),                                               \
        .map = {.n = 2, .blocklen = 1,                                  \
                .disps = (MPI_Aint[]){0, (second)},                     \
                .children = (MPI_Datatype[]){&shmpi_dt_##V,             \
                                             &shmpi_dt_##I}}};

#define PAIR_TYPE(NAME, V, T)                                           \
    TWO_BLOCKS(NAME, V, INT, offsetof(PAIR(T), i), sizeof(PAIR(T)),     \
               _Alignof(PAIR(T)), sizeof(T), sizeof(int))
#define TWIN(NAME, V, T)                                                \
    TWO_BLOCKS(NAME, V, V, sizeof(T), 2 * sizeof(T), _Alignof(T),       \
               sizeof(T), sizeof(T))

BASIC(CHAR, char)
BASIC(SHORT, short)
BASIC(INT, int)
BASIC(LONG, long)
BASIC(LONG_LONG_INT, long long)
BASIC(SIGNED_CHAR, signed char)
BASIC(UNSIGNED_CHAR, unsigned char)
BASIC(UNSIGNED_SHORT, unsigned short)
BASIC(UNSIGNED, unsigned)
BASIC(UNSIGNED_LONG, unsigned long)
BASIC(UNSIGNED_LONG_LONG, unsigned long long)
BASIC(FLOAT, float)
BASIC(DOUBLE, double)
BASIC(LONG_DOUBLE, long double)
BASIC(WCHAR, wchar_t)
BASIC(C_BOOL, _Bool)
BASIC(INT8_T, int8_t)
BASIC(INT16_T, int16_t)
BASIC(INT32_T, int32_t)
BASIC(INT64_T, int64_t)
BASIC(UINT8_T, uint8_t)
BASIC(UINT16_T, uint16_t)
BASIC(UINT32_T, uint32_t)
BASIC(UINT64_T, uint64_t)
BASIC(AINT, MPI_Aint)
BASIC(COUNT, MPI_Count)
BASIC(OFFSET, MPI_Offset)
BASIC(C_FLOAT_COMPLEX, float _Complex)
BASIC(C_DOUBLE_COMPLEX, double _Complex)
BASIC(C_LONG_DOUBLE_COMPLEX, long double _Complex)
BASIC(BYTE, unsigned char)
BASIC(PACKED, unsigned char)
BASIC(CXX_BOOL, bool)
BASIC(CXX_FLOAT_COMPLEX, float _Complex)
BASIC(CXX_DOUBLE_COMPLEX, double _Complex)
BASIC(CXX_LONG_DOUBLE_COMPLEX, long double _Complex)
BASIC(INTEGER, int32_t)
BASIC(REAL, float)
BASIC(DOUBLE_PRECISION, double)
BASIC(COMPLEX, f_complex8)
BASIC(LOGICAL, int32_t)
BASIC(CHARACTER, char)
BASIC(DOUBLE_COMPLEX, f_complex16)
BASIC(INTEGER1, int8_t)
BASIC(INTEGER2, int16_t)
BASIC(INTEGER4, int32_t)
BASIC(INTEGER8, int64_t)
BASIC(INTEGER16, __int128)
BASIC(REAL2, uint16_t)
BASIC(REAL4, float)
BASIC(REAL8, double)
BASIC(REAL16, long double)
BASIC(COMPLEX4, f_complex4)
BASIC(COMPLEX8, f_complex8)
BASIC(COMPLEX16, f_complex16)
BASIC(COMPLEX32, f_complex32)
PAIR_TYPE(FLOAT_INT, FLOAT, float)
PAIR_TYPE(DOUBLE_INT, DOUBLE, double)
PAIR_TYPE(LONG_INT, LONG, long)
PAIR_TYPE(SHORT_INT, SHORT, short)
PAIR_TYPE(LONG_DOUBLE_INT, LONG_DOUBLE, long double)
TWIN(2INT, INT, int)
TWIN(2REAL, REAL, float)
TWIN(2DOUBLE_PRECISION, DOUBLE_PRECISION, double)
TWIN(2INTEGER, INTEGER, int32_t)

/* shmpi's extension (datatype.h, shmpi_sync(7)): sync counter handles,
   4-byte values of a basic type of their own, so that their type
   signature matches only MPI_HANDLE_SYNC. */
struct shmpi_datatype shmpi_dt_HANDLE_SYNC = {
    NAMED(HANDLE_SYNC, sizeof(MPI_Sync), sizeof(MPI_Sync), sizeof(MPI_Sync),
          _Alignof(MPI_Sync), 1),
    .leaf = 1, .handle_sync = 1};

/* The MPI-1 markers: nothing to move, one bound each. */
struct shmpi_datatype shmpi_dt_LB = {NAMED(LB, 0, 0, 0, 1, 0), .leaf = 1,
                                     .lb_marked = 1};
struct shmpi_datatype shmpi_dt_UB = {NAMED(UB, 0, 0, 0, 1, 0), .leaf = 1,
                                     .ub_marked = 1};

#define SHMPI_DT_ADDRESS(name) &shmpi_dt_##name,
void *const shmpi_dt_numbered[SHMPI_DT_NNUMBERED] = {
    MPI_DATATYPE_NULL, SHMPI_DATATYPES(SHMPI_DT_ADDRESS)
    &shmpi_dt_HANDLE_SYNC,    /* the extension's, not in the list */
    &shmpi_dt_LB, &shmpi_dt_UB};  /* the MPI-1 markers, not either */
#undef SHMPI_DT_ADDRESS
