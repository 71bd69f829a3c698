/*
 * predefined.c - the predefined datatypes of MPI-3.1 (3.2.2, 4.1, 5.9.4,
 * Annex A), each a constant object named by its mpi.h handle.
 *
 * Fortran types have the sizes of gfortran on this platform (INTEGER and
 * REAL 4 bytes, DOUBLE PRECISION 8).  The pair types for MINLOC/MAXLOC
 * take the size and extent of the C struct { value; int; }.
 */
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

#define TYPE(NAME, size_, extent_, nsegs_, ...)                            \
    struct shmpi_datatype shmpi_dt_##NAME = {                              \
        .magic = SHMPI_MAGIC_DATATYPE, .predefined = 1, .size = (size_),  \
        .extent = (extent_), .nsegs = (nsegs_), .segs = {__VA_ARGS__},    \
        .name = "MPI_" #NAME};
#define BASIC(NAME, T) \
    TYPE(NAME, sizeof(T), sizeof(T), 1, {0, sizeof(T), sizeof(T)})
/* a pair has less data than its extent: value + int, padded */
#define PAIR_TYPE(NAME, T)                                                  \
    TYPE(NAME, sizeof(T) + sizeof(int), sizeof(PAIR(T)), 2,                 \
         {0, sizeof(T), sizeof(T)},                                         \
         {offsetof(PAIR(T), i), sizeof(int), sizeof(int)})
#define TWIN(NAME, T) \
    TYPE(NAME, 2 * sizeof(T), 2 * sizeof(T), 1, {0, 2 * sizeof(T), sizeof(T)})

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
PAIR_TYPE(FLOAT_INT, float)
PAIR_TYPE(DOUBLE_INT, double)
PAIR_TYPE(LONG_INT, long)
PAIR_TYPE(SHORT_INT, short)
PAIR_TYPE(LONG_DOUBLE_INT, long double)
TWIN(2INT, int)
TWIN(2REAL, float)
TWIN(2DOUBLE_PRECISION, double)
TWIN(2INTEGER, int32_t)
