/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpi.h - the public interface of shmpi, an MPI for one machine.
 *
 * This header is the whole public API: types, handles, constants and the
 * prototypes of the functions that work today.  A function that is not
 * implemented yet is not declared (README lists what is there), so a
 * program that compiles against this header only uses what really works.
 *
 * Handles are pointers to incomplete structs (like Open MPI and the MPI-5
 * ABI), not integers (like MPICH).  Why: the compiler then rejects passing
 * an MPI_Datatype where an MPI_Comm is expected - learners make exactly
 * that mistake - and a handle leads straight to its object, with no table
 * look-up on the hot path.  Null handles are null pointers.  Predefined
 * handles are addresses of objects inside the library: link-time
 * constants, usable in initializers as the standard requires (2.5.4),
 * but not in switch labels.
 *
 * Every MPI_X function is also PMPI_X (the MPI_ name is a weak alias), so
 * profiling tools can wrap it.
 */
#ifndef SHMPI_MPI_H
#define SHMPI_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION    4
#define MPI_SUBVERSION 1

#define SHMPI_VERSION_STRING "1.0.0"

/* ------------------------------------------------------------------ */
/* Scalar types                                                        */
/* ------------------------------------------------------------------ */
typedef intptr_t  MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int       MPI_Fint;

/* ------------------------------------------------------------------ */
/* Handles: pointers to objects whose layout is private to the library */
/* ------------------------------------------------------------------ */
typedef struct shmpi_comm       *MPI_Comm;
typedef struct shmpi_group      *MPI_Group;
typedef struct shmpi_datatype   *MPI_Datatype;
typedef struct shmpi_request    *MPI_Request;
typedef struct shmpi_op         *MPI_Op;
typedef struct shmpi_errhandler *MPI_Errhandler;
typedef struct shmpi_info       *MPI_Info;
typedef struct shmpi_win        *MPI_Win;
typedef struct shmpi_file       *MPI_File;
typedef struct shmpi_message    *MPI_Message;

#define MPI_COMM_NULL       ((MPI_Comm)0)
#define MPI_GROUP_NULL      ((MPI_Group)0)
#define MPI_DATATYPE_NULL   ((MPI_Datatype)0)
/* The standard ABI's value (include/abi/mpi.h), so that completions
   write it for programs of both headers; no object lives at it. */
#define MPI_REQUEST_NULL    ((MPI_Request)0x180)
#define MPI_OP_NULL         ((MPI_Op)0)
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_INFO_NULL       ((MPI_Info)0)
#define MPI_WIN_NULL        ((MPI_Win)0)
#define MPI_FILE_NULL       ((MPI_File)0)
#define MPI_MESSAGE_NULL    ((MPI_Message)0)

/* The predefined objects themselves live in the library. */
extern struct shmpi_comm shmpi_comm_world, shmpi_comm_self;
extern struct shmpi_group shmpi_group_empty;
extern struct shmpi_errhandler shmpi_errors_are_fatal, shmpi_errors_return;
extern struct shmpi_info shmpi_info_env;
extern struct shmpi_message shmpi_message_no_proc;

#define MPI_COMM_WORLD       (&shmpi_comm_world)
#define MPI_COMM_SELF        (&shmpi_comm_self)
#define MPI_GROUP_EMPTY      (&shmpi_group_empty)
#define MPI_ERRORS_ARE_FATAL (&shmpi_errors_are_fatal)
#define MPI_ERRORS_RETURN    (&shmpi_errors_return)
#define MPI_INFO_ENV         (&shmpi_info_env)
#define MPI_MESSAGE_NO_PROC  (&shmpi_message_no_proc)
/* --- MPI-4.0 9.3: like MPI_Abort on the communicator, window or file
   the error came from (in shmpi, as MPI_Abort, the whole job) --- */
extern struct shmpi_errhandler shmpi_errors_abort;
#define MPI_ERRORS_ABORT     (&shmpi_errors_abort)
/* --- end of MPI_ERRORS_ABORT --- */

/* ------------------------------------------------------------------ */
/* Status                                                              */
/* ------------------------------------------------------------------ */
/* The layout of the MPI standard ABI's status (MPI-5.0 20.3.1): 32
   bytes, 4-aligned, MPI_SOURCE, MPI_TAG and MPI_ERROR first and five
   ints of the implementation's after them, so that lib/libmpi_abi.so
   hands the program's statuses, and arrays of them, to shmpi as they are
   (abi/README.md).  Packed to 4: the byte count is an MPI_Count at an
   offset of 16, whose alignment of 8 would make the struct 8-aligned. */
#pragma pack(push, 4)
typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    /* private: set by receives, read by MPI_Get_count/_elements and
       MPI_Test_cancelled, and the sender's rank in MPI_COMM_WORLD, set
       by a receive request's match for the tracer's arrows (tools/trace/
       p2p.c); do not touch */
    int       shmpi_cancelled;
    MPI_Count shmpi_nbytes;
    int       shmpi_wsource;
    int       shmpi_unused;     /* the ABI's size */
} MPI_Status;
#pragma pack(pop)

#define MPI_STATUS_IGNORE   ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)

/* --- A status in Fortran (MPI-3.1 17.2.5; the names of MPI-4.0 19.3.5):
   MPI_F_STATUS_SIZE integers, MPI_SOURCE, MPI_TAG and MPI_ERROR at the
   indices below; MPI_F08_status, mpi_f08's TYPE(MPI_Status), the same
   integers under names.  MPI_Status_c2f and the others convert. --- */
#define MPI_F_STATUS_SIZE 6
#define MPI_F_SOURCE      0
#define MPI_F_TAG         1
#define MPI_F_ERROR       2
typedef struct MPI_F08_status {
    MPI_Fint MPI_SOURCE;
    MPI_Fint MPI_TAG;
    MPI_Fint MPI_ERROR;
    MPI_Fint shmpi_hidden[3];  /* private: cancelled flag, byte count */
} MPI_F08_status;
extern MPI_Fint shmpi_f_status_ignore[], shmpi_f_statuses_ignore[];
extern MPI_F08_status shmpi_f08_status_ignore, shmpi_f08_statuses_ignore;
#define MPI_F_STATUS_IGNORE     (&shmpi_f_status_ignore[0])
#define MPI_F_STATUSES_IGNORE   (&shmpi_f_statuses_ignore[0])
#define MPI_F08_STATUS_IGNORE   (&shmpi_f08_status_ignore)
#define MPI_F08_STATUSES_IGNORE (&shmpi_f08_statuses_ignore)
/* --- end of the Fortran status --- */

/* ------------------------------------------------------------------ */
/* Error classes (MPI-4.1 9.4, table 9.1), with the values of the MPI
   standard ABI (MPI-5.0 chapter 20, include/abi/mpi.h) so that codes
   pass between the two unchanged (abi/README.md).                   */
/* ------------------------------------------------------------------ */
#define MPI_SUCCESS                    0
#define MPI_ERR_BUFFER                 1
#define MPI_ERR_COUNT                  2
#define MPI_ERR_TYPE                   3
#define MPI_ERR_TAG                    4
#define MPI_ERR_COMM                   5
#define MPI_ERR_RANK                   6
#define MPI_ERR_REQUEST                7
#define MPI_ERR_ROOT                   8
#define MPI_ERR_GROUP                  9
#define MPI_ERR_OP                     10
#define MPI_ERR_TOPOLOGY               11
#define MPI_ERR_DIMS                   12
#define MPI_ERR_ARG                    13
#define MPI_ERR_UNKNOWN                14
#define MPI_ERR_TRUNCATE               15
#define MPI_ERR_OTHER                  16
#define MPI_ERR_INTERN                 17
#define MPI_ERR_PENDING                18
#define MPI_ERR_IN_STATUS              19
#define MPI_ERR_ACCESS                 20
#define MPI_ERR_AMODE                  21
#define MPI_ERR_ASSERT                 22
#define MPI_ERR_BAD_FILE               23
#define MPI_ERR_BASE                   24
#define MPI_ERR_CONVERSION             25
#define MPI_ERR_DISP                   26
#define MPI_ERR_DUP_DATAREP            27
#define MPI_ERR_FILE_EXISTS            28
#define MPI_ERR_FILE_IN_USE            29
#define MPI_ERR_FILE                   30
#define MPI_ERR_INFO_KEY               31
#define MPI_ERR_INFO_NOKEY             32
#define MPI_ERR_INFO_VALUE             33
#define MPI_ERR_INFO                   34
#define MPI_ERR_IO                     35
#define MPI_ERR_KEYVAL                 36
#define MPI_ERR_LOCKTYPE               37
#define MPI_ERR_NAME                   38
#define MPI_ERR_NO_MEM                 39
#define MPI_ERR_NOT_SAME               40
#define MPI_ERR_NO_SPACE               41
#define MPI_ERR_NO_SUCH_FILE           42
#define MPI_ERR_PORT                   43
#define MPI_ERR_QUOTA                  44
#define MPI_ERR_READ_ONLY              45
#define MPI_ERR_RMA_ATTACH             46
#define MPI_ERR_RMA_CONFLICT           47
#define MPI_ERR_RMA_RANGE              48
#define MPI_ERR_RMA_SHARED             49
#define MPI_ERR_RMA_SYNC               50
#define MPI_ERR_SERVICE                51
#define MPI_ERR_SIZE                   52
#define MPI_ERR_SPAWN                  53
#define MPI_ERR_UNSUPPORTED_DATAREP    54
#define MPI_ERR_UNSUPPORTED_OPERATION  55
#define MPI_ERR_WIN                    56
#define MPI_ERR_RMA_FLAVOR             57
#define MPI_ERR_PROC_ABORTED           58
#define MPI_ERR_VALUE_TOO_LARGE        59
#define MPI_ERR_SESSION                60
#define MPI_ERR_ERRHANDLER             61
#define MPI_ERR_WIN_COUNTER            1100  /* shmpi extension: sync
                                               counters, below; above
                                               the MPI_T_ERR_* classes */
#define MPI_ERR_LASTCODE               0x3fff /* added classes and codes
                                               start above */

/* ------------------------------------------------------------------ */
/* Assorted constants                                                  */
/* ------------------------------------------------------------------ */
/* The standard ABI's values (include/abi/mpi.h): the ABI's library
   passes ranks and tags through unchanged. */
#define MPI_ANY_SOURCE      (-1)
#define MPI_ANY_TAG         (-2)
#define MPI_PROC_NULL       (-3)
#define MPI_ROOT            (-4)
#define MPI_UNDEFINED       (-32766)
#define MPI_KEYVAL_INVALID  (-1)
#define MPI_BSEND_OVERHEAD  128
#define MPI_LOCK_EXCLUSIVE  1
#define MPI_LOCK_SHARED     2

#define MPI_BOTTOM          ((void *)0)
#define MPI_IN_PLACE        ((void *)1)
/* MPI-4.1 3.6: attached as a buffer, the library allocates as needed */
#define MPI_BUFFER_AUTOMATIC ((void *)2)
#define MPI_UNWEIGHTED      ((int *)2)
#define MPI_WEIGHTS_EMPTY   ((int *)3)
#define MPI_ERRCODES_IGNORE ((int *)0)
#define MPI_ARGV_NULL       ((char **)0)
#define MPI_ARGVS_NULL      ((char ***)0)

/* Maximum string sizes, terminating NUL included. */
#define MPI_MAX_PROCESSOR_NAME          256
#define MPI_MAX_ERROR_STRING            512
#define MPI_MAX_DATAREP_STRING          128
#define MPI_MAX_INFO_KEY                255
#define MPI_MAX_INFO_VAL                1024
#define MPI_MAX_OBJECT_NAME             128
#define MPI_MAX_PORT_NAME               1024
#define MPI_MAX_LIBRARY_VERSION_STRING  256

/* Thread support levels (12.4.3); ordered SINGLE < ... < MULTIPLE.  The
   standard ABI's values. */
#define MPI_THREAD_SINGLE      0
#define MPI_THREAD_FUNNELED    1024
#define MPI_THREAD_SERIALIZED  2048
#define MPI_THREAD_MULTIPLE    4096

/* Results of the compare functions. */
#define MPI_IDENT      201     /* the standard ABI's values */
#define MPI_CONGRUENT  202
#define MPI_SIMILAR    203
#define MPI_UNEQUAL    204

/* Topologies. */
#define MPI_GRAPH       1
#define MPI_CART        2
#define MPI_DIST_GRAPH  3

/* Communicator split types. */
#define MPI_COMM_TYPE_SHARED 1
/* --- MPI-4.0's hardware split types (7.4.2; info key
   "mpi_hw_resource_type") --- */
#define MPI_COMM_TYPE_HW_GUIDED   2
#define MPI_COMM_TYPE_HW_UNGUIDED 3
/* --- end of the hardware split types --- */

/* Datatype decoding combiners (4.1.13, table 4.1). */
#define MPI_COMBINER_NAMED            1
#define MPI_COMBINER_DUP              2
#define MPI_COMBINER_CONTIGUOUS       3
#define MPI_COMBINER_VECTOR           4
#define MPI_COMBINER_HVECTOR          5
#define MPI_COMBINER_INDEXED          6
#define MPI_COMBINER_HINDEXED         7
#define MPI_COMBINER_INDEXED_BLOCK    8
#define MPI_COMBINER_HINDEXED_BLOCK   9
#define MPI_COMBINER_STRUCT           10
#define MPI_COMBINER_SUBARRAY         11
#define MPI_COMBINER_DARRAY           12
#define MPI_COMBINER_F90_REAL         13
#define MPI_COMBINER_F90_COMPLEX      14
#define MPI_COMBINER_F90_INTEGER      15
#define MPI_COMBINER_RESIZED          16

/* Subarray and darray constructors. */
#define MPI_ORDER_C               0
#define MPI_ORDER_FORTRAN         1
#define MPI_DISTRIBUTE_BLOCK      0
#define MPI_DISTRIBUTE_CYCLIC     1
#define MPI_DISTRIBUTE_NONE       2
#define MPI_DISTRIBUTE_DFLT_DARG  (-49767)

/* MPI_Type_match_size type classes. */
#define MPI_TYPECLASS_REAL     1
#define MPI_TYPECLASS_INTEGER  2
#define MPI_TYPECLASS_COMPLEX  3

/* RMA assertions (11.5.5); bits, OR them together.  The standard ABI's
   values (include/abi/mpi.h). */
#define MPI_MODE_NOCHECK    1024
#define MPI_MODE_NOPRECEDE  2048
#define MPI_MODE_NOPUT      4096
#define MPI_MODE_NOSTORE    8192
#define MPI_MODE_NOSUCCEED  16384

/* File access modes (13.2.1); bits, OR them together. */
#define MPI_MODE_CREATE           1
#define MPI_MODE_RDONLY           2
#define MPI_MODE_WRONLY           4
#define MPI_MODE_RDWR             8
#define MPI_MODE_DELETE_ON_CLOSE  16
#define MPI_MODE_UNIQUE_OPEN      32
#define MPI_MODE_EXCL             64
#define MPI_MODE_APPEND           128
#define MPI_MODE_SEQUENTIAL       256

/* File positioning. */
#define MPI_SEEK_SET              600
#define MPI_SEEK_CUR              602
#define MPI_SEEK_END              604
#define MPI_DISPLACEMENT_CURRENT  (-54278278)

/* Window flavors and memory models. */
#define MPI_WIN_FLAVOR_CREATE    1
#define MPI_WIN_FLAVOR_ALLOCATE  2
#define MPI_WIN_FLAVOR_DYNAMIC   3
#define MPI_WIN_FLAVOR_SHARED    4
#define MPI_WIN_SEPARATE         1
#define MPI_WIN_UNIFIED          2

/* Predefined attribute keys. */
#define MPI_TAG_UB             1
#define MPI_HOST               2
#define MPI_IO                 3
#define MPI_WTIME_IS_GLOBAL    4
#define MPI_UNIVERSE_SIZE      5
#define MPI_LASTUSEDCODE       6
#define MPI_APPNUM             7
#define MPI_WIN_BASE           8
#define MPI_WIN_SIZE           9
#define MPI_WIN_DISP_UNIT      10
#define MPI_WIN_CREATE_FLAVOR  11
#define MPI_WIN_MODEL          12

/* ------------------------------------------------------------------ */
/* Predefined datatypes                                                */
/* ------------------------------------------------------------------ */
#define SHMPI_DATATYPES(X) \
    X(CHAR) X(SHORT) X(INT) X(LONG) X(LONG_LONG_INT) X(SIGNED_CHAR) \
    X(UNSIGNED_CHAR) X(UNSIGNED_SHORT) X(UNSIGNED) X(UNSIGNED_LONG) \
    X(UNSIGNED_LONG_LONG) X(FLOAT) X(DOUBLE) X(LONG_DOUBLE) X(WCHAR) \
    X(C_BOOL) X(INT8_T) X(INT16_T) X(INT32_T) X(INT64_T) X(UINT8_T) \
    X(UINT16_T) X(UINT32_T) X(UINT64_T) X(AINT) X(COUNT) X(OFFSET) \
    X(C_FLOAT_COMPLEX) X(C_DOUBLE_COMPLEX) X(C_LONG_DOUBLE_COMPLEX) \
    X(BYTE) X(PACKED) \
    X(CXX_BOOL) X(CXX_FLOAT_COMPLEX) X(CXX_DOUBLE_COMPLEX) \
    X(CXX_LONG_DOUBLE_COMPLEX) \
    X(INTEGER) X(REAL) X(DOUBLE_PRECISION) X(COMPLEX) X(LOGICAL) \
    X(CHARACTER) X(DOUBLE_COMPLEX) X(INTEGER1) X(INTEGER2) X(INTEGER4) \
    X(INTEGER8) X(INTEGER16) X(REAL2) X(REAL4) X(REAL8) X(REAL16) \
    X(COMPLEX4) X(COMPLEX8) X(COMPLEX16) X(COMPLEX32) \
    X(FLOAT_INT) X(DOUBLE_INT) X(LONG_INT) X(2INT) X(SHORT_INT) \
    X(LONG_DOUBLE_INT) X(2REAL) X(2DOUBLE_PRECISION) X(2INTEGER)

#define SHMPI_DECLARE_DATATYPE(name) extern struct shmpi_datatype shmpi_dt_##name;
SHMPI_DATATYPES(SHMPI_DECLARE_DATATYPE)
#undef SHMPI_DECLARE_DATATYPE

#define MPI_CHAR                     (&shmpi_dt_CHAR)
#define MPI_SHORT                    (&shmpi_dt_SHORT)
#define MPI_INT                      (&shmpi_dt_INT)
#define MPI_LONG                     (&shmpi_dt_LONG)
#define MPI_LONG_LONG_INT            (&shmpi_dt_LONG_LONG_INT)
#define MPI_LONG_LONG                MPI_LONG_LONG_INT
#define MPI_SIGNED_CHAR              (&shmpi_dt_SIGNED_CHAR)
#define MPI_UNSIGNED_CHAR            (&shmpi_dt_UNSIGNED_CHAR)
#define MPI_UNSIGNED_SHORT           (&shmpi_dt_UNSIGNED_SHORT)
#define MPI_UNSIGNED                 (&shmpi_dt_UNSIGNED)
#define MPI_UNSIGNED_LONG            (&shmpi_dt_UNSIGNED_LONG)
#define MPI_UNSIGNED_LONG_LONG       (&shmpi_dt_UNSIGNED_LONG_LONG)
#define MPI_FLOAT                    (&shmpi_dt_FLOAT)
#define MPI_DOUBLE                   (&shmpi_dt_DOUBLE)
#define MPI_LONG_DOUBLE              (&shmpi_dt_LONG_DOUBLE)
#define MPI_WCHAR                    (&shmpi_dt_WCHAR)
#define MPI_C_BOOL                   (&shmpi_dt_C_BOOL)
#define MPI_INT8_T                   (&shmpi_dt_INT8_T)
#define MPI_INT16_T                  (&shmpi_dt_INT16_T)
#define MPI_INT32_T                  (&shmpi_dt_INT32_T)
#define MPI_INT64_T                  (&shmpi_dt_INT64_T)
#define MPI_UINT8_T                  (&shmpi_dt_UINT8_T)
#define MPI_UINT16_T                 (&shmpi_dt_UINT16_T)
#define MPI_UINT32_T                 (&shmpi_dt_UINT32_T)
#define MPI_UINT64_T                 (&shmpi_dt_UINT64_T)
#define MPI_AINT                     (&shmpi_dt_AINT)
#define MPI_COUNT                    (&shmpi_dt_COUNT)
#define MPI_OFFSET                   (&shmpi_dt_OFFSET)
#define MPI_C_COMPLEX                MPI_C_FLOAT_COMPLEX
#define MPI_C_FLOAT_COMPLEX          (&shmpi_dt_C_FLOAT_COMPLEX)
#define MPI_C_DOUBLE_COMPLEX         (&shmpi_dt_C_DOUBLE_COMPLEX)
#define MPI_C_LONG_DOUBLE_COMPLEX    (&shmpi_dt_C_LONG_DOUBLE_COMPLEX)
#define MPI_BYTE                     (&shmpi_dt_BYTE)
#define MPI_PACKED                   (&shmpi_dt_PACKED)
#define MPI_CXX_BOOL                 (&shmpi_dt_CXX_BOOL)
#define MPI_CXX_FLOAT_COMPLEX        (&shmpi_dt_CXX_FLOAT_COMPLEX)
#define MPI_CXX_DOUBLE_COMPLEX       (&shmpi_dt_CXX_DOUBLE_COMPLEX)
#define MPI_CXX_LONG_DOUBLE_COMPLEX  (&shmpi_dt_CXX_LONG_DOUBLE_COMPLEX)
#define MPI_INTEGER                  (&shmpi_dt_INTEGER)
#define MPI_REAL                     (&shmpi_dt_REAL)
#define MPI_DOUBLE_PRECISION         (&shmpi_dt_DOUBLE_PRECISION)
#define MPI_COMPLEX                  (&shmpi_dt_COMPLEX)
#define MPI_LOGICAL                  (&shmpi_dt_LOGICAL)
#define MPI_CHARACTER                (&shmpi_dt_CHARACTER)
#define MPI_DOUBLE_COMPLEX           (&shmpi_dt_DOUBLE_COMPLEX)
#define MPI_INTEGER1                 (&shmpi_dt_INTEGER1)
#define MPI_INTEGER2                 (&shmpi_dt_INTEGER2)
#define MPI_INTEGER4                 (&shmpi_dt_INTEGER4)
#define MPI_INTEGER8                 (&shmpi_dt_INTEGER8)
#define MPI_INTEGER16                (&shmpi_dt_INTEGER16)
#define MPI_REAL2                    (&shmpi_dt_REAL2)
#define MPI_REAL4                    (&shmpi_dt_REAL4)
#define MPI_REAL8                    (&shmpi_dt_REAL8)
#define MPI_REAL16                   (&shmpi_dt_REAL16)
#define MPI_COMPLEX4                 (&shmpi_dt_COMPLEX4)
#define MPI_COMPLEX8                 (&shmpi_dt_COMPLEX8)
#define MPI_COMPLEX16                (&shmpi_dt_COMPLEX16)
#define MPI_COMPLEX32                (&shmpi_dt_COMPLEX32)
/* Pair types for MPI_MINLOC and MPI_MAXLOC (5.9.4). */
#define MPI_FLOAT_INT                (&shmpi_dt_FLOAT_INT)
#define MPI_DOUBLE_INT               (&shmpi_dt_DOUBLE_INT)
#define MPI_LONG_INT                 (&shmpi_dt_LONG_INT)
#define MPI_2INT                     (&shmpi_dt_2INT)
#define MPI_SHORT_INT                (&shmpi_dt_SHORT_INT)
#define MPI_LONG_DOUBLE_INT          (&shmpi_dt_LONG_DOUBLE_INT)
#define MPI_2REAL                    (&shmpi_dt_2REAL)
#define MPI_2DOUBLE_PRECISION        (&shmpi_dt_2DOUBLE_PRECISION)
#define MPI_2INTEGER                 (&shmpi_dt_2INTEGER)

/* ------------------------------------------------------------------ */
/* Predefined reduction operations                                     */
/* ------------------------------------------------------------------ */
extern struct shmpi_op shmpi_op_max, shmpi_op_min, shmpi_op_sum,
    shmpi_op_prod, shmpi_op_land, shmpi_op_band, shmpi_op_lor, shmpi_op_bor,
    shmpi_op_lxor, shmpi_op_bxor, shmpi_op_maxloc, shmpi_op_minloc,
    shmpi_op_replace, shmpi_op_no_op;

#define MPI_MAX     (&shmpi_op_max)
#define MPI_MIN     (&shmpi_op_min)
#define MPI_SUM     (&shmpi_op_sum)
#define MPI_PROD    (&shmpi_op_prod)
#define MPI_LAND    (&shmpi_op_land)
#define MPI_BAND    (&shmpi_op_band)
#define MPI_LOR     (&shmpi_op_lor)
#define MPI_BOR     (&shmpi_op_bor)
#define MPI_LXOR    (&shmpi_op_lxor)
#define MPI_BXOR    (&shmpi_op_bxor)
#define MPI_MAXLOC  (&shmpi_op_maxloc)
#define MPI_MINLOC  (&shmpi_op_minloc)
#define MPI_REPLACE (&shmpi_op_replace)
#define MPI_NO_OP   (&shmpi_op_no_op)

/* ------------------------------------------------------------------ */
/* Callback function types                                             */
/* ------------------------------------------------------------------ */
typedef void MPI_Comm_errhandler_function(MPI_Comm *, int *, ...);
typedef void MPI_Win_errhandler_function(MPI_Win *, int *, ...);
typedef void MPI_File_errhandler_function(MPI_File *, int *, ...);
typedef void MPI_User_function(void *invec, void *inoutvec, int *len,
                               MPI_Datatype *datatype);
/* MPI_Op_create_c's function (MPI-4.0 6.9.5): len is an MPI_Count */
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len,
                                 MPI_Datatype *datatype);
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval,
                                        void *extra_state,
                                        void *attribute_val_in,
                                        void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval,
                                          void *attribute_val,
                                          void *extra_state);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval,
                                       void *extra_state,
                                       void *attribute_val_in,
                                       void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval,
                                         void *attribute_val,
                                         void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype,
                                        int type_keyval, void *extra_state,
                                        void *attribute_val_in,
                                        void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype,
                                          int type_keyval,
                                          void *attribute_val,
                                          void *extra_state);
typedef int MPI_Grequest_query_function(void *extra_state,
                                        MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);
typedef int MPI_Datarep_extent_function(MPI_Datatype datatype,
                                        MPI_Aint *extent,
                                        void *extra_state);
typedef int MPI_Datarep_conversion_function(void *userbuf,
                                            MPI_Datatype datatype,
                                            int count, void *filebuf,
                                            MPI_Offset position,
                                            void *extra_state);

/* Predefined attribute copy/delete callbacks for datatypes (4.1.10). */
int MPI_TYPE_NULL_COPY_FN(MPI_Datatype, int, void *, void *, void *, int *);
int MPI_TYPE_DUP_FN(MPI_Datatype, int, void *, void *, void *, int *);
int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype, int, void *, void *);

/* Predefined attribute copy/delete callbacks for communicators (6.7.2). */
int MPI_COMM_NULL_COPY_FN(MPI_Comm, int, void *, void *, void *, int *);
int MPI_COMM_DUP_FN(MPI_Comm, int, void *, void *, void *, int *);
int MPI_COMM_NULL_DELETE_FN(MPI_Comm, int, void *, void *);

/* Predefined attribute copy/delete callbacks for windows (6.7.3). */
int MPI_WIN_NULL_COPY_FN(MPI_Win, int, void *, void *, void *, int *);
int MPI_WIN_DUP_FN(MPI_Win, int, void *, void *, void *, int *);
int MPI_WIN_NULL_DELETE_FN(MPI_Win, int, void *, void *);

/* ------------------------------------------------------------------ */
/* Functions                                                           */
/* Each line declares MPI_<name> and its profiling twin PMPI_<name>.   */
/* ------------------------------------------------------------------ */
#define SHMPI_API(ret, name, params) ret MPI_##name params; ret PMPI_##name params

/* Initialization, environment and finalization (8.1, 8.6, 8.7) */
SHMPI_API(int, Init, (int *argc, char ***argv));
SHMPI_API(int, Init_thread, (int *argc, char ***argv, int required,
                             int *provided));
SHMPI_API(int, Query_thread, (int *provided));
SHMPI_API(int, Is_thread_main, (int *flag));
SHMPI_API(int, Finalize, (void));
SHMPI_API(int, Initialized, (int *flag));
SHMPI_API(int, Finalized, (int *flag));
SHMPI_API(int, Abort, (MPI_Comm comm, int errorcode));
SHMPI_API(int, Get_processor_name, (char *name, int *resultlen));
SHMPI_API(int, Get_version, (int *version, int *subversion));
SHMPI_API(int, Get_library_version, (char *version, int *resultlen));
SHMPI_API(double, Wtime, (void));
SHMPI_API(double, Wtick, (void));

/* Profiling (14.2.4): no profiler in the library, so this does nothing;
   a tool's MPI_Pcontrol replaces it */
SHMPI_API(int, Pcontrol, (const int level, ...));

/* Memory allocation (8.2) */
SHMPI_API(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr));
SHMPI_API(int, Free_mem, (void *base));

/* Errors and error handlers (8.3 - 8.5) */
SHMPI_API(int, Error_string, (int errorcode, char *string, int *resultlen));
SHMPI_API(int, Error_class, (int errorcode, int *errorclass));
SHMPI_API(int, Add_error_class, (int *errorclass));
SHMPI_API(int, Add_error_code, (int errorclass, int *errorcode));
SHMPI_API(int, Add_error_string, (int errorcode, const char *string));
SHMPI_API(int, Comm_create_errhandler,
          (MPI_Comm_errhandler_function *comm_errhandler_fn,
           MPI_Errhandler *errhandler));
SHMPI_API(int, Comm_set_errhandler, (MPI_Comm comm,
                                     MPI_Errhandler errhandler));
SHMPI_API(int, Comm_get_errhandler, (MPI_Comm comm,
                                     MPI_Errhandler *errhandler));
SHMPI_API(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode));
SHMPI_API(int, Errhandler_free, (MPI_Errhandler *errhandler));

/* Communicators, groups and attributes (6.3, 6.4, 6.7, 6.8) */
SHMPI_API(int, Comm_size, (MPI_Comm comm, int *size));
SHMPI_API(int, Comm_rank, (MPI_Comm comm, int *rank));
SHMPI_API(int, Comm_create_keyval,
          (MPI_Comm_copy_attr_function *comm_copy_attr_fn,
           MPI_Comm_delete_attr_function *comm_delete_attr_fn,
           int *comm_keyval, void *extra_state));
SHMPI_API(int, Comm_free_keyval, (int *comm_keyval));
SHMPI_API(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval,
                               void *attribute_val));
SHMPI_API(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval,
                               void *attribute_val, int *flag));
SHMPI_API(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval));

/* --- The MPI-1 attribute interface (deprecated since MPI-2.0; MPI-3.1
   15.1): the calls above under their old names, on communicators only.
   A program that uses one gets a compiler warning naming its
   replacement; defining SHMPI_NO_DEPRECATION_WARNINGS before including
   mpi.h silences them.  The two typedefs carry no warning, else every
   declaration below would warn in programs that never use them. --- */
#if (defined(__GNUC__) || defined(__clang__)) && \
    !defined(SHMPI_NO_DEPRECATION_WARNINGS)
#define SHMPI_DEPRECATED(use) \
    __attribute__((deprecated("deprecated since MPI-2.0: use " use)))
#else
#define SHMPI_DEPRECATED(use)
#endif
#define SHMPI_API_DEPRECATED(ret, name, params, use) \
    ret MPI_##name params SHMPI_DEPRECATED(use);      \
    ret PMPI_##name params SHMPI_DEPRECATED(use)
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval,
                              void *extra_state, void *attribute_val_in,
                              void *attribute_val_out, int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval,
                                void *attribute_val, void *extra_state);
int MPI_NULL_COPY_FN(MPI_Comm, int, void *, void *, void *, int *)
    SHMPI_DEPRECATED("MPI_COMM_NULL_COPY_FN");
int MPI_DUP_FN(MPI_Comm, int, void *, void *, void *, int *)
    SHMPI_DEPRECATED("MPI_COMM_DUP_FN");
int MPI_NULL_DELETE_FN(MPI_Comm, int, void *, void *)
    SHMPI_DEPRECATED("MPI_COMM_NULL_DELETE_FN");
SHMPI_API_DEPRECATED(int, Keyval_create,
                     (MPI_Copy_function *copy_fn,
                      MPI_Delete_function *delete_fn, int *keyval,
                      void *extra_state), "MPI_Comm_create_keyval");
SHMPI_API_DEPRECATED(int, Keyval_free, (int *keyval),
                     "MPI_Comm_free_keyval");
SHMPI_API_DEPRECATED(int, Attr_put, (MPI_Comm comm, int keyval,
                                     void *attribute_val),
                     "MPI_Comm_set_attr");
SHMPI_API_DEPRECATED(int, Attr_get, (MPI_Comm comm, int keyval,
                                     void *attribute_val, int *flag),
                     "MPI_Comm_get_attr");
SHMPI_API_DEPRECATED(int, Attr_delete, (MPI_Comm comm, int keyval),
                     "MPI_Comm_delete_attr");
/* --- end of the MPI-1 attribute interface --- */

/* --- The MPI-1 names removed in MPI-3.0 (MPI-3.1 16.2 lists them; they
   work as MPI-2.2 defined them: man pages, shmpi(7) WHAT IS IMPLEMENTED),
   and the error-handler typedefs deprecated since MPI-2.2 (MPI-3.1
   15.1).  Each use warns naming its replacement, unless the program
   defines SHMPI_NO_DEPRECATION_WARNINGS, as above.  MPI_LB and MPI_UB
   are the bound markers of MPI-2.2 4.1.6.  The _INTEGER combiners are
   those of the Fortran calls, which shmpi has not: no type returns
   them, a decoder written for them still builds.  MPI_Handler_function
   is MPI_Comm_errhandler_function under its old name; the calls are
   declared with the new one, so that only a program's own use warns. */
#if (defined(__GNUC__) || defined(__clang__)) && \
    !defined(SHMPI_NO_DEPRECATION_WARNINGS)
#define SHMPI_OUTDATED(message) __attribute__((deprecated(message)))
#else
#define SHMPI_OUTDATED(message)
#endif
#define SHMPI_REMOVED_IN_30(old, use) \
    SHMPI_OUTDATED(old " was removed in MPI-3.0: use " use)
#define SHMPI_API_REMOVED(ret, name, params, use)                    \
    ret MPI_##name params SHMPI_REMOVED_IN_30("MPI_" #name, use);     \
    ret PMPI_##name params SHMPI_REMOVED_IN_30("PMPI_" #name, use)
typedef MPI_Comm_errhandler_function MPI_Handler_function
    SHMPI_REMOVED_IN_30("MPI_Handler_function",
                        "MPI_Comm_errhandler_function");
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn
    SHMPI_OUTDATED("deprecated since MPI-2.2: use "
                   "MPI_Comm_errhandler_function");
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn
    SHMPI_OUTDATED("deprecated since MPI-2.2: use "
                   "MPI_Win_errhandler_function");
typedef MPI_File_errhandler_function MPI_File_errhandler_fn
    SHMPI_OUTDATED("deprecated since MPI-2.2: use "
                   "MPI_File_errhandler_function");
extern struct shmpi_datatype shmpi_dt_LB
    SHMPI_REMOVED_IN_30("MPI_LB", "MPI_Type_create_resized");
extern struct shmpi_datatype shmpi_dt_UB
    SHMPI_REMOVED_IN_30("MPI_UB", "MPI_Type_create_resized");
#define MPI_LB (&shmpi_dt_LB)
#define MPI_UB (&shmpi_dt_UB)
enum {
    MPI_COMBINER_HVECTOR_INTEGER SHMPI_REMOVED_IN_30(
        "MPI_COMBINER_HVECTOR_INTEGER", "MPI_COMBINER_HVECTOR") = 17,
    MPI_COMBINER_HINDEXED_INTEGER SHMPI_REMOVED_IN_30(
        "MPI_COMBINER_HINDEXED_INTEGER", "MPI_COMBINER_HINDEXED") = 18,
    MPI_COMBINER_STRUCT_INTEGER SHMPI_REMOVED_IN_30(
        "MPI_COMBINER_STRUCT_INTEGER", "MPI_COMBINER_STRUCT") = 19
};
SHMPI_API_REMOVED(int, Address, (void *location, MPI_Aint *address),
                  "MPI_Get_address");
SHMPI_API_REMOVED(int, Type_extent, (MPI_Datatype datatype,
                                     MPI_Aint *extent),
                  "MPI_Type_get_extent");
SHMPI_API_REMOVED(int, Type_lb, (MPI_Datatype datatype,
                                 MPI_Aint *displacement),
                  "MPI_Type_get_extent");
SHMPI_API_REMOVED(int, Type_ub, (MPI_Datatype datatype,
                                 MPI_Aint *displacement),
                  "MPI_Type_get_extent");
SHMPI_API_REMOVED(int, Type_hvector, (int count, int blocklength,
                                      MPI_Aint stride, MPI_Datatype oldtype,
                                      MPI_Datatype *newtype),
                  "MPI_Type_create_hvector");
SHMPI_API_REMOVED(int, Type_hindexed,
                  (int count, int array_of_blocklengths[],
                   MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                   MPI_Datatype *newtype),
                  "MPI_Type_create_hindexed");
SHMPI_API_REMOVED(int, Type_struct,
                  (int count, int array_of_blocklengths[],
                   MPI_Aint array_of_displacements[],
                   MPI_Datatype array_of_types[], MPI_Datatype *newtype),
                  "MPI_Type_create_struct");
SHMPI_API_REMOVED(int, Errhandler_create,
                  (MPI_Comm_errhandler_function *function,
                   MPI_Errhandler *errhandler),
                  "MPI_Comm_create_errhandler");
SHMPI_API_REMOVED(int, Errhandler_set, (MPI_Comm comm,
                                        MPI_Errhandler errhandler),
                  "MPI_Comm_set_errhandler");
SHMPI_API_REMOVED(int, Errhandler_get, (MPI_Comm comm,
                                        MPI_Errhandler *errhandler),
                  "MPI_Comm_get_errhandler");
/* --- end of the MPI-1 names removed in MPI-3.0 --- */
SHMPI_API(int, Barrier, (MPI_Comm comm));
SHMPI_API(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result));
SHMPI_API(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm));
SHMPI_API(int, Comm_split, (MPI_Comm comm, int color, int key,
                            MPI_Comm *newcomm));
SHMPI_API(int, Comm_split_type, (MPI_Comm comm, int split_type, int key,
                                 MPI_Info info, MPI_Comm *newcomm));
SHMPI_API(int, Comm_create, (MPI_Comm comm, MPI_Group group,
                             MPI_Comm *newcomm));
SHMPI_API(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag,
                                   MPI_Comm *newcomm));
SHMPI_API(int, Comm_free, (MPI_Comm *comm));
SHMPI_API(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info,
                                    MPI_Comm *newcomm));
SHMPI_API(int, Comm_set_info, (MPI_Comm comm, MPI_Info info));
SHMPI_API(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used));
SHMPI_API(int, Comm_set_name, (MPI_Comm comm, const char *comm_name));
SHMPI_API(int, Comm_get_name, (MPI_Comm comm, char *comm_name,
                               int *resultlen));
SHMPI_API(int, Comm_group, (MPI_Comm comm, MPI_Group *group));
SHMPI_API(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm,
                           MPI_Request *request));
SHMPI_API(int, Comm_test_inter, (MPI_Comm comm, int *flag));
SHMPI_API(int, Comm_remote_size, (MPI_Comm comm, int *size));
SHMPI_API(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group));
SHMPI_API(int, Intercomm_create, (MPI_Comm local_comm, int local_leader,
                                  MPI_Comm peer_comm, int remote_leader,
                                  int tag, MPI_Comm *newintercomm));
SHMPI_API(int, Intercomm_merge, (MPI_Comm intercomm, int high,
                                 MPI_Comm *newintracomm));
SHMPI_API(int, Group_size, (MPI_Group group, int *size));
SHMPI_API(int, Group_rank, (MPI_Group group, int *rank));
SHMPI_API(int, Group_translate_ranks, (MPI_Group group1, int n,
                                       const int ranks1[], MPI_Group group2,
                                       int ranks2[]));
SHMPI_API(int, Group_compare, (MPI_Group group1, MPI_Group group2,
                               int *result));
SHMPI_API(int, Group_union, (MPI_Group group1, MPI_Group group2,
                             MPI_Group *newgroup));
SHMPI_API(int, Group_intersection, (MPI_Group group1, MPI_Group group2,
                                    MPI_Group *newgroup));
SHMPI_API(int, Group_difference, (MPI_Group group1, MPI_Group group2,
                                  MPI_Group *newgroup));
SHMPI_API(int, Group_incl, (MPI_Group group, int n, const int ranks[],
                            MPI_Group *newgroup));
SHMPI_API(int, Group_excl, (MPI_Group group, int n, const int ranks[],
                            MPI_Group *newgroup));
SHMPI_API(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3],
                                  MPI_Group *newgroup));
SHMPI_API(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3],
                                  MPI_Group *newgroup));
SHMPI_API(int, Group_free, (MPI_Group *group));

/* Point-to-point communication (chapter 3) */
SHMPI_API(int, Send, (const void *buf, int count, MPI_Datatype datatype,
                      int dest, int tag, MPI_Comm comm));
SHMPI_API(int, Ssend, (const void *buf, int count, MPI_Datatype datatype,
                       int dest, int tag, MPI_Comm comm));
SHMPI_API(int, Rsend, (const void *buf, int count, MPI_Datatype datatype,
                       int dest, int tag, MPI_Comm comm));
SHMPI_API(int, Recv, (void *buf, int count, MPI_Datatype datatype,
                      int source, int tag, MPI_Comm comm,
                      MPI_Status *status));
SHMPI_API(int, Sendrecv, (const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, int dest, int sendtag,
                          void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, int source, int recvtag,
                          MPI_Comm comm, MPI_Status *status));
SHMPI_API(int, Sendrecv_replace, (void *buf, int count,
                                  MPI_Datatype datatype, int dest,
                                  int sendtag, int source, int recvtag,
                                  MPI_Comm comm, MPI_Status *status));
SHMPI_API(int, Isend, (const void *buf, int count, MPI_Datatype datatype,
                       int dest, int tag, MPI_Comm comm,
                       MPI_Request *request));
SHMPI_API(int, Issend, (const void *buf, int count, MPI_Datatype datatype,
                        int dest, int tag, MPI_Comm comm,
                        MPI_Request *request));
SHMPI_API(int, Irsend, (const void *buf, int count, MPI_Datatype datatype,
                        int dest, int tag, MPI_Comm comm,
                        MPI_Request *request));
SHMPI_API(int, Irecv, (void *buf, int count, MPI_Datatype datatype,
                       int source, int tag, MPI_Comm comm,
                       MPI_Request *request));
SHMPI_API(int, Wait, (MPI_Request *request, MPI_Status *status));
SHMPI_API(int, Test, (MPI_Request *request, int *flag, MPI_Status *status));
SHMPI_API(int, Waitany, (int count, MPI_Request array_of_requests[],
                         int *index, MPI_Status *status));
SHMPI_API(int, Testany, (int count, MPI_Request array_of_requests[],
                         int *index, int *flag, MPI_Status *status));
SHMPI_API(int, Waitall, (int count, MPI_Request array_of_requests[],
                         MPI_Status array_of_statuses[]));
SHMPI_API(int, Testall, (int count, MPI_Request array_of_requests[],
                         int *flag, MPI_Status array_of_statuses[]));
SHMPI_API(int, Waitsome, (int incount, MPI_Request array_of_requests[],
                          int *outcount, int array_of_indices[],
                          MPI_Status array_of_statuses[]));
SHMPI_API(int, Testsome, (int incount, MPI_Request array_of_requests[],
                          int *outcount, int array_of_indices[],
                          MPI_Status array_of_statuses[]));
SHMPI_API(int, Request_free, (MPI_Request *request));
SHMPI_API(int, Request_get_status, (MPI_Request request, int *flag,
                                    MPI_Status *status));
SHMPI_API(int, Probe, (int source, int tag, MPI_Comm comm,
                       MPI_Status *status));
SHMPI_API(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag,
                        MPI_Status *status));
SHMPI_API(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype,
                           int *count));
SHMPI_API(int, Get_elements, (const MPI_Status *status,
                              MPI_Datatype datatype, int *count));
SHMPI_API(int, Get_elements_x, (const MPI_Status *status,
                                MPI_Datatype datatype, MPI_Count *count));
SHMPI_API(int, Bsend, (const void *buf, int count, MPI_Datatype datatype,
                       int dest, int tag, MPI_Comm comm));
SHMPI_API(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype,
                        int dest, int tag, MPI_Comm comm,
                        MPI_Request *request));
SHMPI_API(int, Buffer_attach, (void *buffer, int size));
SHMPI_API(int, Buffer_detach, (void *buffer_addr, int *size));
SHMPI_API(int, Send_init, (const void *buf, int count, MPI_Datatype datatype,
                           int dest, int tag, MPI_Comm comm,
                           MPI_Request *request));
SHMPI_API(int, Bsend_init, (const void *buf, int count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Ssend_init, (const void *buf, int count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Rsend_init, (const void *buf, int count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Recv_init, (void *buf, int count, MPI_Datatype datatype,
                           int source, int tag, MPI_Comm comm,
                           MPI_Request *request));
SHMPI_API(int, Start, (MPI_Request *request));
SHMPI_API(int, Startall, (int count, MPI_Request array_of_requests[]));
SHMPI_API(int, Cancel, (MPI_Request *request));
SHMPI_API(int, Test_cancelled, (const MPI_Status *status, int *flag));
SHMPI_API(int, Mprobe, (int source, int tag, MPI_Comm comm,
                        MPI_Message *message, MPI_Status *status));
SHMPI_API(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag,
                         MPI_Message *message, MPI_Status *status));
SHMPI_API(int, Mrecv, (void *buf, int count, MPI_Datatype datatype,
                       MPI_Message *message, MPI_Status *status));
SHMPI_API(int, Imrecv, (void *buf, int count, MPI_Datatype datatype,
                        MPI_Message *message, MPI_Request *request));

/* Derived datatypes (4.1) */
SHMPI_API(int, Type_contiguous, (int count, MPI_Datatype oldtype,
                                 MPI_Datatype *newtype));
SHMPI_API(int, Type_vector, (int count, int blocklength, int stride,
                             MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_API(int, Type_create_hvector, (int count, int blocklength,
                                     MPI_Aint stride, MPI_Datatype oldtype,
                                     MPI_Datatype *newtype));
SHMPI_API(int, Type_indexed, (int count, const int array_of_blocklengths[],
                              const int array_of_displacements[],
                              MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_API(int, Type_create_hindexed,
          (int count, const int array_of_blocklengths[],
           const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
           MPI_Datatype *newtype));
SHMPI_API(int, Type_create_indexed_block,
          (int count, int blocklength, const int array_of_displacements[],
           MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_API(int, Type_create_hindexed_block,
          (int count, int blocklength,
           const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
           MPI_Datatype *newtype));
SHMPI_API(int, Type_create_struct,
          (int count, const int array_of_blocklengths[],
           const MPI_Aint array_of_displacements[],
           const MPI_Datatype array_of_types[], MPI_Datatype *newtype));
SHMPI_API(int, Type_create_subarray,
          (int ndims, const int array_of_sizes[],
           const int array_of_subsizes[], const int array_of_starts[],
           int order, MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_API(int, Type_create_darray,
          (int size, int rank, int ndims, const int array_of_gsizes[],
           const int array_of_distribs[], const int array_of_dargs[],
           const int array_of_psizes[], int order, MPI_Datatype oldtype,
           MPI_Datatype *newtype));
SHMPI_API(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb,
                                     MPI_Aint extent,
                                     MPI_Datatype *newtype));
SHMPI_API(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_API(int, Type_commit, (MPI_Datatype *datatype));
SHMPI_API(int, Type_free, (MPI_Datatype *datatype));
SHMPI_API(int, Type_size, (MPI_Datatype datatype, int *size));
SHMPI_API(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size));
SHMPI_API(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb,
                                 MPI_Aint *extent));
SHMPI_API(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb,
                                   MPI_Count *extent));
SHMPI_API(int, Type_get_true_extent, (MPI_Datatype datatype,
                                      MPI_Aint *true_lb,
                                      MPI_Aint *true_extent));
SHMPI_API(int, Type_get_true_extent_x, (MPI_Datatype datatype,
                                        MPI_Count *true_lb,
                                        MPI_Count *true_extent));
SHMPI_API(int, Type_get_envelope, (MPI_Datatype datatype, int *num_integers,
                                   int *num_addresses, int *num_datatypes,
                                   int *combiner));
SHMPI_API(int, Type_get_contents, (MPI_Datatype datatype, int max_integers,
                                   int max_addresses, int max_datatypes,
                                   int array_of_integers[],
                                   MPI_Aint array_of_addresses[],
                                   MPI_Datatype array_of_datatypes[]));
SHMPI_API(int, Type_set_name, (MPI_Datatype datatype, const char *type_name));
SHMPI_API(int, Type_get_name, (MPI_Datatype datatype, char *type_name,
                               int *resultlen));
SHMPI_API(int, Type_match_size, (int typeclass, int size,
                                 MPI_Datatype *datatype));
/* --- Fortran 90 parameterized types (17.1.9.1): the predefined type
   of SELECTED_INT_KIND(r) / SELECTED_REAL_KIND(p, r), gfortran's kinds;
   combiners MPI_COMBINER_F90_* --- */
SHMPI_API(int, Type_create_f90_integer, (int r, MPI_Datatype *newtype));
SHMPI_API(int, Type_create_f90_real, (int p, int r, MPI_Datatype *newtype));
SHMPI_API(int, Type_create_f90_complex, (int p, int r,
                                         MPI_Datatype *newtype));
/* --- end of the Fortran 90 types --- */
SHMPI_API(int, Type_create_keyval,
          (MPI_Type_copy_attr_function *type_copy_attr_fn,
           MPI_Type_delete_attr_function *type_delete_attr_fn,
           int *type_keyval, void *extra_state));
SHMPI_API(int, Type_free_keyval, (int *type_keyval));
SHMPI_API(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval,
                               void *attribute_val));
SHMPI_API(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval,
                               void *attribute_val, int *flag));
SHMPI_API(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval));
SHMPI_API(int, Get_address, (const void *location, MPI_Aint *address));
SHMPI_API(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp));
SHMPI_API(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2));

/* Pack and unpack (4.2, 4.3) */
SHMPI_API(int, Pack, (const void *inbuf, int incount, MPI_Datatype datatype,
                      void *outbuf, int outsize, int *position,
                      MPI_Comm comm));
SHMPI_API(int, Unpack, (const void *inbuf, int insize, int *position,
                        void *outbuf, int outcount, MPI_Datatype datatype,
                        MPI_Comm comm));
SHMPI_API(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm,
                           int *size));
SHMPI_API(int, Pack_external, (const char datarep[], const void *inbuf,
                               int incount, MPI_Datatype datatype,
                               void *outbuf, MPI_Aint outsize,
                               MPI_Aint *position));
SHMPI_API(int, Unpack_external, (const char datarep[], const void *inbuf,
                                 MPI_Aint insize, MPI_Aint *position,
                                 void *outbuf, int outcount,
                                 MPI_Datatype datatype));
SHMPI_API(int, Pack_external_size, (const char datarep[], int incount,
                                    MPI_Datatype datatype, MPI_Aint *size));

/* Reduction operations (5.9.5 - 5.9.7) */
SHMPI_API(int, Op_create, (MPI_User_function *user_fn, int commute,
                           MPI_Op *op));
SHMPI_API(int, Op_free, (MPI_Op *op));
SHMPI_API(int, Op_commutative, (MPI_Op op, int *commute));
SHMPI_API(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count,
                              MPI_Datatype datatype, MPI_Op op));

/* Info objects (9) */
SHMPI_API(int, Info_create, (MPI_Info *info));
SHMPI_API(int, Info_set, (MPI_Info info, const char *key, const char *value));
SHMPI_API(int, Info_delete, (MPI_Info info, const char *key));
SHMPI_API(int, Info_get, (MPI_Info info, const char *key, int valuelen,
                          char *value, int *flag));
SHMPI_API(int, Info_get_valuelen, (MPI_Info info, const char *key,
                                   int *valuelen, int *flag));
SHMPI_API(int, Info_get_nkeys, (MPI_Info info, int *nkeys));
SHMPI_API(int, Info_get_nthkey, (MPI_Info info, int n, char *key));
SHMPI_API(int, Info_dup, (MPI_Info info, MPI_Info *newinfo));
SHMPI_API(int, Info_free, (MPI_Info *info));

/* --- Handle conversions between C and Fortran (17.2.4, 17.2.5; the
   mpi_f08 status forms are MPI-4.0's).  A Fortran handle is an MPI_Fint:
   0 for the null handle, small fixed numbers for the predefined handles,
   numbers given out at the first c2f for the others; see MPI_Comm_c2f(3).
   No MPI_File conversions: shmpi has no MPI-IO. --- */
SHMPI_API(MPI_Fint, Comm_c2f, (MPI_Comm comm));
SHMPI_API(MPI_Comm, Comm_f2c, (MPI_Fint comm));
SHMPI_API(MPI_Fint, Group_c2f, (MPI_Group group));
SHMPI_API(MPI_Group, Group_f2c, (MPI_Fint group));
SHMPI_API(MPI_Fint, Type_c2f, (MPI_Datatype datatype));
SHMPI_API(MPI_Datatype, Type_f2c, (MPI_Fint datatype));
SHMPI_API(MPI_Fint, Request_c2f, (MPI_Request request));
SHMPI_API(MPI_Request, Request_f2c, (MPI_Fint request));
SHMPI_API(MPI_Fint, Op_c2f, (MPI_Op op));
SHMPI_API(MPI_Op, Op_f2c, (MPI_Fint op));
SHMPI_API(MPI_Fint, Errhandler_c2f, (MPI_Errhandler errhandler));
SHMPI_API(MPI_Errhandler, Errhandler_f2c, (MPI_Fint errhandler));
SHMPI_API(MPI_Fint, Info_c2f, (MPI_Info info));
SHMPI_API(MPI_Info, Info_f2c, (MPI_Fint info));
SHMPI_API(MPI_Fint, Win_c2f, (MPI_Win win));
SHMPI_API(MPI_Win, Win_f2c, (MPI_Fint win));
SHMPI_API(MPI_Fint, Message_c2f, (MPI_Message message));
SHMPI_API(MPI_Message, Message_f2c, (MPI_Fint message));
SHMPI_API(int, Status_c2f, (const MPI_Status *c_status, MPI_Fint *f_status));
SHMPI_API(int, Status_f2c, (const MPI_Fint *f_status, MPI_Status *c_status));
SHMPI_API(int, Status_c2f08, (const MPI_Status *c_status,
                              MPI_F08_status *f08_status));
SHMPI_API(int, Status_f082c, (const MPI_F08_status *f08_status,
                              MPI_Status *c_status));
SHMPI_API(int, Status_f2f08, (const MPI_Fint *f_status,
                              MPI_F08_status *f08_status));
SHMPI_API(int, Status_f082f, (const MPI_F08_status *f08_status,
                              MPI_Fint *f_status));
/* --- end of the handle conversions --- */

/* --- MPI-4.0 and MPI-4.1 functions beside point-to-point --- */
/* The public fields of a status through calls (MPI-4.1 3.2.5) */
SHMPI_API(int, Status_get_source, (MPI_Status *status, int *source));
SHMPI_API(int, Status_set_source, (MPI_Status *status, int source));
SHMPI_API(int, Status_get_tag, (MPI_Status *status, int *tag));
SHMPI_API(int, Status_set_tag, (MPI_Status *status, int tag));
SHMPI_API(int, Status_get_error, (MPI_Status *status, int *error));
SHMPI_API(int, Status_set_error, (MPI_Status *status, int error));
/* Info objects (MPI-4.0 10.4 and 11.2.1) */
SHMPI_API(int, Info_get_string, (MPI_Info info, const char *key,
                                 int *buflen, char *value, int *flag));
SHMPI_API(int, Info_create_env, (int argc, char *argv[], MPI_Info *info));
/* Taking back added error classes, codes and strings (MPI-4.1 9.5) */
SHMPI_API(int, Remove_error_class, (int errorclass));
SHMPI_API(int, Remove_error_code, (int errorcode));
SHMPI_API(int, Remove_error_string, (int errorcode));
/* The pair type of MPI_MINLOC/MPI_MAXLOC for a value and an index type */
SHMPI_API(int, Type_get_value_index, (MPI_Datatype value_type,
                                      MPI_Datatype index_type,
                                      MPI_Datatype *pair_type));
/* The hardware levels MPI_COMM_TYPE_HW_GUIDED knows (MPI-4.1) */
SHMPI_API(int, Get_hw_resource_info, (MPI_Info *hw_info));
/* --- end of the MPI-4.0 and MPI-4.1 functions --- */

/* --- MPI-4.0 and MPI-4.1 point-to-point --- */
/* A send and a receive under one request (MPI-4.0 3.10) */
SHMPI_API(int, Isendrecv, (const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, int dest, int sendtag,
                           void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, int source, int recvtag,
                           MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Isendrecv_replace, (void *buf, int count,
                                   MPI_Datatype datatype, int dest,
                                   int sendtag, int source, int recvtag,
                                   MPI_Comm comm, MPI_Request *request));
/* Looking at completed requests without handing them out (MPI-4.1 3.7.3) */
SHMPI_API(int, Request_get_status_any, (int count,
                                        MPI_Request array_of_requests[],
                                        int *index, int *flag,
                                        MPI_Status *status));
SHMPI_API(int, Request_get_status_all, (int count,
                                        MPI_Request array_of_requests[],
                                        int *flag,
                                        MPI_Status array_of_statuses[]));
SHMPI_API(int, Request_get_status_some, (int incount,
                                         MPI_Request array_of_requests[],
                                         int *outcount,
                                         int array_of_indices[],
                                         MPI_Status array_of_statuses[]));
/* Buffers for buffered sends of one communicator, flushing (MPI-4.1 3.6) */
SHMPI_API(int, Comm_attach_buffer, (MPI_Comm comm, void *buffer, int size));
SHMPI_API(int, Comm_detach_buffer, (MPI_Comm comm, void *buffer_addr,
                                    int *size));
SHMPI_API(int, Comm_flush_buffer, (MPI_Comm comm));
SHMPI_API(int, Comm_iflush_buffer, (MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Buffer_flush, (void));
SHMPI_API(int, Buffer_iflush, (MPI_Request *request));
/* Partitioned communication (MPI-4.0 4) */
SHMPI_API(int, Psend_init, (const void *buf, int partitions, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Info info,
                            MPI_Request *request));
SHMPI_API(int, Precv_init, (void *buf, int partitions, MPI_Count count,
                            MPI_Datatype datatype, int source, int tag,
                            MPI_Comm comm, MPI_Info info,
                            MPI_Request *request));
SHMPI_API(int, Pready, (int partition, MPI_Request request));
SHMPI_API(int, Pready_range, (int partition_low, int partition_high,
                              MPI_Request request));
SHMPI_API(int, Pready_list, (int length, const int array_of_partitions[],
                             MPI_Request request));
SHMPI_API(int, Parrived, (MPI_Request request, int partition, int *flag));
/* --- end of the MPI-4.0 and MPI-4.1 point-to-point --- */

/* --- MPI-4.0 large-count forms (_c) of point-to-point, datatypes, pack,
   status and reductions (MPI-4.0 2.5.8, 19.2): counts are MPI_Count,
   displacements MPI_Aint (MPI_Count where they may be either) --- */
SHMPI_API(int, Send_c, (const void *buf, MPI_Count count,
                        MPI_Datatype datatype, int dest, int tag,
                        MPI_Comm comm));
SHMPI_API(int, Bsend_c, (const void *buf, MPI_Count count,
                         MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm));
SHMPI_API(int, Ssend_c, (const void *buf, MPI_Count count,
                         MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm));
SHMPI_API(int, Rsend_c, (const void *buf, MPI_Count count,
                         MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm));
SHMPI_API(int, Recv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
                        int source, int tag, MPI_Comm comm,
                        MPI_Status *status));
SHMPI_API(int, Sendrecv_c, (const void *sendbuf, MPI_Count sendcount,
                            MPI_Datatype sendtype, int dest, int sendtag,
                            void *recvbuf, MPI_Count recvcount,
                            MPI_Datatype recvtype, int source, int recvtag,
                            MPI_Comm comm, MPI_Status *status));
SHMPI_API(int, Sendrecv_replace_c, (void *buf, MPI_Count count,
                                    MPI_Datatype datatype, int dest,
                                    int sendtag, int source, int recvtag,
                                    MPI_Comm comm, MPI_Status *status));
SHMPI_API(int, Isend_c, (const void *buf, MPI_Count count,
                         MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Ibsend_c, (const void *buf, MPI_Count count,
                          MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Issend_c, (const void *buf, MPI_Count count,
                          MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Irsend_c, (const void *buf, MPI_Count count,
                          MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Irecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
                         int source, int tag, MPI_Comm comm,
                         MPI_Request *request));
SHMPI_API(int, Isendrecv_c, (const void *sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, int dest, int sendtag,
                             void *recvbuf, MPI_Count recvcount,
                             MPI_Datatype recvtype, int source, int recvtag,
                             MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Isendrecv_replace_c, (void *buf, MPI_Count count,
                                     MPI_Datatype datatype, int dest,
                                     int sendtag, int source, int recvtag,
                                     MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Message *message, MPI_Status *status));
SHMPI_API(int, Imrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Message *message, MPI_Request *request));
SHMPI_API(int, Send_init_c, (const void *buf, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Bsend_init_c, (const void *buf, MPI_Count count,
                              MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Ssend_init_c, (const void *buf, MPI_Count count,
                              MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Rsend_init_c, (const void *buf, MPI_Count count,
                              MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Recv_init_c, (void *buf, MPI_Count count,
                             MPI_Datatype datatype, int source, int tag,
                             MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Buffer_attach_c, (void *buffer, MPI_Count size));
SHMPI_API(int, Buffer_detach_c, (void *buffer_addr, MPI_Count *size));
SHMPI_API(int, Comm_attach_buffer_c, (MPI_Comm comm, void *buffer,
                                      MPI_Count size));
SHMPI_API(int, Comm_detach_buffer_c, (MPI_Comm comm, void *buffer_addr,
                                      MPI_Count *size));
SHMPI_API(int, Get_count_c, (const MPI_Status *status, MPI_Datatype datatype,
                             MPI_Count *count));
SHMPI_API(int, Get_elements_c, (const MPI_Status *status,
                                MPI_Datatype datatype, MPI_Count *count));
SHMPI_API(int, Status_set_elements_c, (MPI_Status *status,
                                       MPI_Datatype datatype,
                                       MPI_Count count));
SHMPI_API(int, Pack_c, (const void *inbuf, MPI_Count incount,
                        MPI_Datatype datatype, void *outbuf,
                        MPI_Count outsize, MPI_Count *position,
                        MPI_Comm comm));
SHMPI_API(int, Unpack_c, (const void *inbuf, MPI_Count insize,
                          MPI_Count *position, void *outbuf,
                          MPI_Count outcount, MPI_Datatype datatype,
                          MPI_Comm comm));
SHMPI_API(int, Pack_size_c, (MPI_Count incount, MPI_Datatype datatype,
                             MPI_Comm comm, MPI_Count *size));
SHMPI_API(int, Pack_external_c, (const char datarep[], const void *inbuf,
                                 MPI_Count incount, MPI_Datatype datatype,
                                 void *outbuf, MPI_Count outsize,
                                 MPI_Count *position));
SHMPI_API(int, Unpack_external_c, (const char datarep[], const void *inbuf,
                                   MPI_Count insize, MPI_Count *position,
                                   void *outbuf, MPI_Count outcount,
                                   MPI_Datatype datatype));
SHMPI_API(int, Pack_external_size_c, (const char datarep[],
                                      MPI_Count incount,
                                      MPI_Datatype datatype,
                                      MPI_Count *size));
SHMPI_API(int, Type_contiguous_c, (MPI_Count count, MPI_Datatype oldtype,
                                   MPI_Datatype *newtype));
SHMPI_API(int, Type_vector_c, (MPI_Count count, MPI_Count blocklength,
                               MPI_Count stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype));
SHMPI_API(int, Type_create_hvector_c, (MPI_Count count,
                                       MPI_Count blocklength,
                                       MPI_Count stride,
                                       MPI_Datatype oldtype,
                                       MPI_Datatype *newtype));
SHMPI_API(int, Type_indexed_c, (MPI_Count count,
                                const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[],
                                MPI_Datatype oldtype,
                                MPI_Datatype *newtype));
SHMPI_API(int, Type_create_hindexed_c,
          (MPI_Count count, const MPI_Count array_of_blocklengths[],
           const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
           MPI_Datatype *newtype));
SHMPI_API(int, Type_create_indexed_block_c,
          (MPI_Count count, MPI_Count blocklength,
           const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
           MPI_Datatype *newtype));
SHMPI_API(int, Type_create_hindexed_block_c,
          (MPI_Count count, MPI_Count blocklength,
           const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
           MPI_Datatype *newtype));
SHMPI_API(int, Type_create_struct_c,
          (MPI_Count count, const MPI_Count array_of_blocklengths[],
           const MPI_Count array_of_displacements[],
           const MPI_Datatype array_of_types[], MPI_Datatype *newtype));
SHMPI_API(int, Type_create_subarray_c,
          (int ndims, const MPI_Count array_of_sizes[],
           const MPI_Count array_of_subsizes[],
           const MPI_Count array_of_starts[], int order,
           MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_API(int, Type_create_darray_c,
          (int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
           const int array_of_distribs[], const int array_of_dargs[],
           const int array_of_psizes[], int order, MPI_Datatype oldtype,
           MPI_Datatype *newtype));
SHMPI_API(int, Type_create_resized_c, (MPI_Datatype oldtype, MPI_Count lb,
                                       MPI_Count extent,
                                       MPI_Datatype *newtype));
SHMPI_API(int, Type_size_c, (MPI_Datatype datatype, MPI_Count *size));
SHMPI_API(int, Type_get_extent_c, (MPI_Datatype datatype, MPI_Count *lb,
                                   MPI_Count *extent));
SHMPI_API(int, Type_get_true_extent_c, (MPI_Datatype datatype,
                                        MPI_Count *true_lb,
                                        MPI_Count *true_extent));
SHMPI_API(int, Type_get_envelope_c, (MPI_Datatype datatype,
                                     MPI_Count *num_integers,
                                     MPI_Count *num_addresses,
                                     MPI_Count *num_large_counts,
                                     MPI_Count *num_datatypes,
                                     int *combiner));
SHMPI_API(int, Type_get_contents_c,
          (MPI_Datatype datatype, MPI_Count max_integers,
           MPI_Count max_addresses, MPI_Count max_large_counts,
           MPI_Count max_datatypes, int array_of_integers[],
           MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
           MPI_Datatype array_of_datatypes[]));
SHMPI_API(int, Op_create_c, (MPI_User_function_c *user_fn, int commute,
                             MPI_Op *op));
SHMPI_API(int, Reduce_local_c, (const void *inbuf, void *inoutbuf,
                                MPI_Count count, MPI_Datatype datatype,
                                MPI_Op op));
/* --- end of the large-count forms --- */

/* Collective operations (5) */
SHMPI_API(int, Bcast, (void *buffer, int count, MPI_Datatype datatype,
                       int root, MPI_Comm comm));
SHMPI_API(int, Gather, (const void *sendbuf, int sendcount,
                        MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm));
SHMPI_API(int, Gatherv, (const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[],
                         MPI_Datatype recvtype, int root, MPI_Comm comm));
SHMPI_API(int, Scatter, (const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm));
SHMPI_API(int, Scatterv, (const void *sendbuf, const int sendcounts[],
                          const int displs[], MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype,
                          int root, MPI_Comm comm));
SHMPI_API(int, Allgather, (const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm));
SHMPI_API(int, Allgatherv, (const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_API(int, Alltoall, (const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_API(int, Alltoallv, (const void *sendbuf, const int sendcounts[],
                           const int sdispls[], MPI_Datatype sendtype,
                           void *recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm));
SHMPI_API(int, Alltoallw, (const void *sendbuf, const int sendcounts[],
                           const int sdispls[],
                           const MPI_Datatype sendtypes[], void *recvbuf,
                           const int recvcounts[], const int rdispls[],
                           const MPI_Datatype recvtypes[], MPI_Comm comm));
SHMPI_API(int, Reduce, (const void *sendbuf, void *recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op, int root,
                        MPI_Comm comm));
SHMPI_API(int, Allreduce, (const void *sendbuf, void *recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHMPI_API(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf,
                                      int recvcount, MPI_Datatype datatype,
                                      MPI_Op op, MPI_Comm comm));
SHMPI_API(int, Reduce_scatter, (const void *sendbuf, void *recvbuf,
                                const int recvcounts[],
                                MPI_Datatype datatype, MPI_Op op,
                                MPI_Comm comm));
SHMPI_API(int, Scan, (const void *sendbuf, void *recvbuf, int count,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHMPI_API(int, Exscan, (const void *sendbuf, void *recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));

/* Nonblocking data-movement collectives (5.12.1 - 5.12.6) */
SHMPI_API(int, Ibarrier, (MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype,
                        int root, MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Igather, (const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Request *request));
SHMPI_API(int, Igatherv, (const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, void *recvbuf,
                          const int recvcounts[], const int displs[],
                          MPI_Datatype recvtype, int root, MPI_Comm comm,
                          MPI_Request *request));
SHMPI_API(int, Iscatter, (const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm,
                          MPI_Request *request));
SHMPI_API(int, Iscatterv, (const void *sendbuf, const int sendcounts[],
                           const int displs[], MPI_Datatype sendtype,
                           void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm,
                           MPI_Request *request));
SHMPI_API(int, Iallgather, (const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Iallgatherv, (const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request));
SHMPI_API(int, Ialltoall, (const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Ialltoallv, (const void *sendbuf, const int sendcounts[],
                            const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Ialltoallw, (const void *sendbuf, const int sendcounts[],
                            const int sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf,
                            const int recvcounts[], const int rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request *request));

/* Nonblocking reductions (5.12.7 - 5.12.9) */
SHMPI_API(int, Ireduce, (const void *sendbuf, void *recvbuf, int count,
                         MPI_Datatype datatype, MPI_Op op, int root,
                         MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                            MPI_Request *request));
SHMPI_API(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf,
                                       int recvcount, MPI_Datatype datatype,
                                       MPI_Op op, MPI_Comm comm,
                                       MPI_Request *request));
SHMPI_API(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf,
                                 const int recvcounts[],
                                 MPI_Datatype datatype, MPI_Op op,
                                 MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Iscan, (const void *sendbuf, void *recvbuf, int count,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       MPI_Request *request));
SHMPI_API(int, Iexscan, (const void *sendbuf, void *recvbuf, int count,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                         MPI_Request *request));

/* Persistent collectives (MPI-4.0 6.13): an inactive persistent request,
   started by MPI_Start/MPI_Startall */
SHMPI_API(int, Barrier_init, (MPI_Comm comm, MPI_Info info,
                              MPI_Request *request));
SHMPI_API(int, Bcast_init, (void *buffer, int count, MPI_Datatype datatype,
                            int root, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request));
SHMPI_API(int, Gather_init, (const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm, MPI_Info info,
                             MPI_Request *request));
SHMPI_API(int, Gatherv_init, (const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Info info, MPI_Request *request));
SHMPI_API(int, Scatter_init, (const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, int root,
                              MPI_Comm comm, MPI_Info info,
                              MPI_Request *request));
SHMPI_API(int, Scatterv_init, (const void *sendbuf, const int sendcounts[],
                               const int displs[], MPI_Datatype sendtype,
                               void *recvbuf, int recvcount,
                               MPI_Datatype recvtype, int root, MPI_Comm comm,
                               MPI_Info info, MPI_Request *request));
SHMPI_API(int, Allgather_init, (const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info,
                                MPI_Request *request));
SHMPI_API(int, Allgatherv_init, (const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request));
SHMPI_API(int, Alltoall_init, (const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Info info,
                               MPI_Request *request));
SHMPI_API(int, Alltoallv_init, (const void *sendbuf, const int sendcounts[],
                                const int sdispls[], MPI_Datatype sendtype,
                                void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info,
                                MPI_Request *request));
SHMPI_API(int, Alltoallw_init, (const void *sendbuf, const int sendcounts[],
                                const int sdispls[],
                                const MPI_Datatype sendtypes[], void *recvbuf,
                                const int recvcounts[], const int rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm,
                                MPI_Info info, MPI_Request *request));
SHMPI_API(int, Reduce_init, (const void *sendbuf, void *recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, int root,
                             MPI_Comm comm, MPI_Info info,
                             MPI_Request *request));
SHMPI_API(int, Allreduce_init, (const void *sendbuf, void *recvbuf,
                                int count, MPI_Datatype datatype, MPI_Op op,
                                MPI_Comm comm, MPI_Info info,
                                MPI_Request *request));
SHMPI_API(int, Reduce_scatter_init, (const void *sendbuf, void *recvbuf,
                                     const int recvcounts[],
                                     MPI_Datatype datatype, MPI_Op op,
                                     MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request));
SHMPI_API(int, Reduce_scatter_block_init, (const void *sendbuf,
                                           void *recvbuf, int recvcount,
                                           MPI_Datatype datatype, MPI_Op op,
                                           MPI_Comm comm, MPI_Info info,
                                           MPI_Request *request));
SHMPI_API(int, Scan_init, (const void *sendbuf, void *recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                           MPI_Info info, MPI_Request *request));
SHMPI_API(int, Exscan_init, (const void *sendbuf, void *recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             MPI_Info info, MPI_Request *request));

/* Process topologies (7).  The weight arrays are declared as pointers,
   not arrays: GCC warns about MPI_UNWEIGHTED passed for an array. */
SHMPI_API(int, Dims_create, (int nnodes, int ndims, int dims[]));
SHMPI_API(int, Cart_create, (MPI_Comm comm_old, int ndims, const int dims[],
                             const int periods[], int reorder,
                             MPI_Comm *comm_cart));
SHMPI_API(int, Cart_sub, (MPI_Comm comm, const int remain_dims[],
                          MPI_Comm *newcomm));
SHMPI_API(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[],
                          const int periods[], int *newrank));
SHMPI_API(int, Cartdim_get, (MPI_Comm comm, int *ndims));
SHMPI_API(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[],
                          int periods[], int coords[]));
SHMPI_API(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank));
SHMPI_API(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims,
                             int coords[]));
SHMPI_API(int, Cart_shift, (MPI_Comm comm, int direction, int disp,
                            int *rank_source, int *rank_dest));
SHMPI_API(int, Graph_create, (MPI_Comm comm_old, int nnodes,
                              const int index[], const int edges[],
                              int reorder, MPI_Comm *comm_graph));
SHMPI_API(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[],
                           const int edges[], int *newrank));
SHMPI_API(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges));
SHMPI_API(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges,
                           int index[], int edges[]));
SHMPI_API(int, Graph_neighbors_count, (MPI_Comm comm, int rank,
                                       int *nneighbors));
SHMPI_API(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors,
                                 int neighbors[]));
SHMPI_API(int, Dist_graph_create_adjacent,
          (MPI_Comm comm_old, int indegree, const int sources[],
           const int *sourceweights, int outdegree,
           const int destinations[], const int *destweights, MPI_Info info,
           int reorder, MPI_Comm *comm_dist_graph));
SHMPI_API(int, Dist_graph_create, (MPI_Comm comm_old, int n,
                                   const int sources[], const int degrees[],
                                   const int destinations[],
                                   const int *weights, MPI_Info info,
                                   int reorder, MPI_Comm *comm_dist_graph));
SHMPI_API(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree,
                                            int *outdegree, int *weighted));
SHMPI_API(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree,
                                      int sources[], int *sourceweights,
                                      int maxoutdegree, int destinations[],
                                      int *destweights));
SHMPI_API(int, Topo_test, (MPI_Comm comm, int *status));
SHMPI_API(int, Neighbor_allgather, (const void *sendbuf, int sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    int recvcount, MPI_Datatype recvtype,
                                    MPI_Comm comm));
SHMPI_API(int, Neighbor_allgatherv, (const void *sendbuf, int sendcount,
                                     MPI_Datatype sendtype, void *recvbuf,
                                     const int recvcounts[],
                                     const int displs[],
                                     MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_API(int, Neighbor_alltoall, (const void *sendbuf, int sendcount,
                                   MPI_Datatype sendtype, void *recvbuf,
                                   int recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm));
SHMPI_API(int, Neighbor_alltoallv, (const void *sendbuf,
                                    const int sendcounts[],
                                    const int sdispls[],
                                    MPI_Datatype sendtype, void *recvbuf,
                                    const int recvcounts[],
                                    const int rdispls[],
                                    MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_API(int, Neighbor_alltoallw, (const void *sendbuf,
                                    const int sendcounts[],
                                    const MPI_Aint sdispls[],
                                    const MPI_Datatype sendtypes[],
                                    void *recvbuf, const int recvcounts[],
                                    const MPI_Aint rdispls[],
                                    const MPI_Datatype recvtypes[],
                                    MPI_Comm comm));
SHMPI_API(int, Ineighbor_allgather, (const void *sendbuf, int sendcount,
                                     MPI_Datatype sendtype, void *recvbuf,
                                     int recvcount, MPI_Datatype recvtype,
                                     MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Ineighbor_allgatherv, (const void *sendbuf, int sendcount,
                                      MPI_Datatype sendtype, void *recvbuf,
                                      const int recvcounts[],
                                      const int displs[],
                                      MPI_Datatype recvtype, MPI_Comm comm,
                                      MPI_Request *request));
SHMPI_API(int, Ineighbor_alltoall, (const void *sendbuf, int sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    int recvcount, MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Ineighbor_alltoallv, (const void *sendbuf,
                                     const int sendcounts[],
                                     const int sdispls[],
                                     MPI_Datatype sendtype, void *recvbuf,
                                     const int recvcounts[],
                                     const int rdispls[],
                                     MPI_Datatype recvtype, MPI_Comm comm,
                                     MPI_Request *request));
SHMPI_API(int, Ineighbor_alltoallw, (const void *sendbuf,
                                     const int sendcounts[],
                                     const MPI_Aint sdispls[],
                                     const MPI_Datatype sendtypes[],
                                     void *recvbuf, const int recvcounts[],
                                     const MPI_Aint rdispls[],
                                     const MPI_Datatype recvtypes[],
                                     MPI_Comm comm, MPI_Request *request));

/* Persistent neighborhood collectives (MPI-4.0 8.8) */
SHMPI_API(int, Neighbor_allgather_init, (const void *sendbuf, int sendcount,
                                         MPI_Datatype sendtype,
                                         void *recvbuf, int recvcount,
                                         MPI_Datatype recvtype,
                                         MPI_Comm comm, MPI_Info info,
                                         MPI_Request *request));
SHMPI_API(int, Neighbor_allgatherv_init, (const void *sendbuf,
                                          int sendcount,
                                          MPI_Datatype sendtype,
                                          void *recvbuf,
                                          const int recvcounts[],
                                          const int displs[],
                                          MPI_Datatype recvtype,
                                          MPI_Comm comm, MPI_Info info,
                                          MPI_Request *request));
SHMPI_API(int, Neighbor_alltoall_init, (const void *sendbuf, int sendcount,
                                        MPI_Datatype sendtype, void *recvbuf,
                                        int recvcount, MPI_Datatype recvtype,
                                        MPI_Comm comm, MPI_Info info,
                                        MPI_Request *request));
SHMPI_API(int, Neighbor_alltoallv_init, (const void *sendbuf,
                                         const int sendcounts[],
                                         const int sdispls[],
                                         MPI_Datatype sendtype,
                                         void *recvbuf,
                                         const int recvcounts[],
                                         const int rdispls[],
                                         MPI_Datatype recvtype,
                                         MPI_Comm comm, MPI_Info info,
                                         MPI_Request *request));
SHMPI_API(int, Neighbor_alltoallw_init, (const void *sendbuf,
                                         const int sendcounts[],
                                         const MPI_Aint sdispls[],
                                         const MPI_Datatype sendtypes[],
                                         void *recvbuf,
                                         const int recvcounts[],
                                         const MPI_Aint rdispls[],
                                         const MPI_Datatype recvtypes[],
                                         MPI_Comm comm, MPI_Info info,
                                         MPI_Request *request));

/* The large-count forms of the collectives above (MPI-4.0, the _c
   functions): counts MPI_Count, displacements MPI_Aint */
SHMPI_API(int, Bcast_c,
          (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
           MPI_Comm comm));
SHMPI_API(int, Gather_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
           MPI_Comm comm));
SHMPI_API(int, Gatherv_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, int root,
           MPI_Comm comm));
SHMPI_API(int, Scatter_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
           MPI_Comm comm));
SHMPI_API(int, Scatterv_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
           MPI_Count recvcount, MPI_Datatype recvtype, int root,
           MPI_Comm comm));
SHMPI_API(int, Allgather_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
           MPI_Comm comm));
SHMPI_API(int, Allgatherv_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_API(int, Alltoall_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
           MPI_Comm comm));
SHMPI_API(int, Alltoallv_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
           const MPI_Count recvcounts[], const MPI_Aint rdispls[],
           MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_API(int, Alltoallw_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm));
SHMPI_API(int, Reduce_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count,
           MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm));
SHMPI_API(int, Allreduce_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count,
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHMPI_API(int, Reduce_scatter_block_c,
          (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHMPI_API(int, Reduce_scatter_c,
          (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHMPI_API(int, Scan_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count,
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHMPI_API(int, Exscan_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count,
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHMPI_API(int, Ibcast_c,
          (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
           MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Igather_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
           MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Igatherv_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, int root,
           MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Iscatter_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
           MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Iscatterv_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
           MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
           MPI_Request *request));
SHMPI_API(int, Iallgather_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
           MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Iallgatherv_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
           MPI_Request *request));
SHMPI_API(int, Ialltoall_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
           MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Ialltoallv_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
           const MPI_Count recvcounts[], const MPI_Aint rdispls[],
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Ialltoallw_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Ireduce_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count,
           MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
           MPI_Request *request));
SHMPI_API(int, Iallreduce_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count,
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Request *request));
SHMPI_API(int, Ireduce_scatter_block_c,
          (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Request *request));
SHMPI_API(int, Ireduce_scatter_c,
          (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Request *request));
SHMPI_API(int, Iscan_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count,
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Request *request));
SHMPI_API(int, Iexscan_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count,
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
           MPI_Request *request));
SHMPI_API(int, Bcast_init_c,
          (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
           MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_API(int, Gather_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
           MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_API(int, Gatherv_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, int root,
           MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_API(int, Scatter_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
           MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_API(int, Scatterv_init_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
           MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
           MPI_Info info, MPI_Request *request));
SHMPI_API(int, Allgather_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
           MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_API(int, Allgatherv_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
           MPI_Info info, MPI_Request *request));
SHMPI_API(int, Alltoall_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
           MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_API(int, Alltoallv_init_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
           const MPI_Count recvcounts[], const MPI_Aint rdispls[],
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
           MPI_Request *request));
SHMPI_API(int, Alltoallw_init_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_API(int, Reduce_init_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count,
           MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
           MPI_Info info, MPI_Request *request));
SHMPI_API(int, Allreduce_init_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count,
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
           MPI_Request *request));
SHMPI_API(int, Reduce_scatter_block_init_c,
          (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
           MPI_Request *request));
SHMPI_API(int, Reduce_scatter_init_c,
          (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
           MPI_Request *request));
SHMPI_API(int, Scan_init_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count,
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
           MPI_Request *request));
SHMPI_API(int, Exscan_init_c,
          (const void *sendbuf, void *recvbuf, MPI_Count count,
           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
           MPI_Request *request));
SHMPI_API(int, Neighbor_allgather_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
           MPI_Comm comm));
SHMPI_API(int, Neighbor_allgatherv_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_API(int, Neighbor_alltoall_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
           MPI_Comm comm));
SHMPI_API(int, Neighbor_alltoallv_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
           const MPI_Count recvcounts[], const MPI_Aint rdispls[],
           MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_API(int, Neighbor_alltoallw_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm));
SHMPI_API(int, Ineighbor_allgather_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
           MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Ineighbor_allgatherv_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
           MPI_Request *request));
SHMPI_API(int, Ineighbor_alltoall_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
           MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Ineighbor_alltoallv_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
           const MPI_Count recvcounts[], const MPI_Aint rdispls[],
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Ineighbor_alltoallw_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm, MPI_Request *request));
SHMPI_API(int, Neighbor_allgather_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
           MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_API(int, Neighbor_allgatherv_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
           MPI_Info info, MPI_Request *request));
SHMPI_API(int, Neighbor_alltoall_init_c,
          (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
           MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_API(int, Neighbor_alltoallv_init_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
           const MPI_Count recvcounts[], const MPI_Aint rdispls[],
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
           MPI_Request *request));
SHMPI_API(int, Neighbor_alltoallw_init_c,
          (const void *sendbuf, const MPI_Count sendcounts[],
           const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
           void *recvbuf, const MPI_Count recvcounts[],
           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
           MPI_Comm comm, MPI_Info info, MPI_Request *request));

/* One-sided communication: windows (11.2), their hints, error handlers */
SHMPI_API(int, Win_create, (void *base, MPI_Aint size, int disp_unit,
                            MPI_Info info, MPI_Comm comm, MPI_Win *win));
SHMPI_API(int, Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info,
                              MPI_Comm comm, void *baseptr, MPI_Win *win));
SHMPI_API(int, Win_allocate_shared, (MPI_Aint size, int disp_unit,
                                     MPI_Info info, MPI_Comm comm,
                                     void *baseptr, MPI_Win *win));
SHMPI_API(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size,
                                  int *disp_unit, void *baseptr));
SHMPI_API(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm,
                                    MPI_Win *win));
SHMPI_API(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size));
SHMPI_API(int, Win_detach, (MPI_Win win, const void *base));
SHMPI_API(int, Win_free, (MPI_Win *win));
SHMPI_API(int, Win_get_group, (MPI_Win win, MPI_Group *group));
SHMPI_API(int, Win_set_name, (MPI_Win win, const char *win_name));
SHMPI_API(int, Win_get_name, (MPI_Win win, char *win_name, int *resultlen));
SHMPI_API(int, Win_create_keyval,
          (MPI_Win_copy_attr_function *win_copy_attr_fn,
           MPI_Win_delete_attr_function *win_delete_attr_fn,
           int *win_keyval, void *extra_state));
SHMPI_API(int, Win_free_keyval, (int *win_keyval));
SHMPI_API(int, Win_set_attr, (MPI_Win win, int win_keyval,
                              void *attribute_val));
SHMPI_API(int, Win_get_attr, (MPI_Win win, int win_keyval,
                              void *attribute_val, int *flag));
SHMPI_API(int, Win_delete_attr, (MPI_Win win, int win_keyval));
SHMPI_API(int, Win_set_info, (MPI_Win win, MPI_Info info));
SHMPI_API(int, Win_get_info, (MPI_Win win, MPI_Info *info_used));
SHMPI_API(int, Win_create_errhandler,
          (MPI_Win_errhandler_function *win_errhandler_fn,
           MPI_Errhandler *errhandler));
SHMPI_API(int, Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler));
SHMPI_API(int, Win_get_errhandler, (MPI_Win win,
                                    MPI_Errhandler *errhandler));
SHMPI_API(int, Win_call_errhandler, (MPI_Win win, int errorcode));

/* One-sided communication (11.3): put, get, accumulate and their
   request forms; the data moves before the call returns */
SHMPI_API(int, Put, (const void *origin_addr, int origin_count,
                     MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Win win));
SHMPI_API(int, Get, (void *origin_addr, int origin_count,
                     MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Win win));
SHMPI_API(int, Accumulate, (const void *origin_addr, int origin_count,
                            MPI_Datatype origin_datatype, int target_rank,
                            MPI_Aint target_disp, int target_count,
                            MPI_Datatype target_datatype, MPI_Op op,
                            MPI_Win win));
SHMPI_API(int, Get_accumulate, (const void *origin_addr, int origin_count,
                                MPI_Datatype origin_datatype,
                                void *result_addr, int result_count,
                                MPI_Datatype result_datatype,
                                int target_rank, MPI_Aint target_disp,
                                int target_count,
                                MPI_Datatype target_datatype, MPI_Op op,
                                MPI_Win win));
SHMPI_API(int, Fetch_and_op, (const void *origin_addr, void *result_addr,
                              MPI_Datatype datatype, int target_rank,
                              MPI_Aint target_disp, MPI_Op op, MPI_Win win));
SHMPI_API(int, Compare_and_swap, (const void *origin_addr,
                                  const void *compare_addr,
                                  void *result_addr, MPI_Datatype datatype,
                                  int target_rank, MPI_Aint target_disp,
                                  MPI_Win win));
SHMPI_API(int, Rput, (const void *origin_addr, int origin_count,
                      MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, int target_count,
                      MPI_Datatype target_datatype, MPI_Win win,
                      MPI_Request *request));
SHMPI_API(int, Rget, (void *origin_addr, int origin_count,
                      MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, int target_count,
                      MPI_Datatype target_datatype, MPI_Win win,
                      MPI_Request *request));
SHMPI_API(int, Raccumulate, (const void *origin_addr, int origin_count,
                             MPI_Datatype origin_datatype, int target_rank,
                             MPI_Aint target_disp, int target_count,
                             MPI_Datatype target_datatype, MPI_Op op,
                             MPI_Win win, MPI_Request *request));
SHMPI_API(int, Rget_accumulate, (const void *origin_addr, int origin_count,
                                 MPI_Datatype origin_datatype,
                                 void *result_addr, int result_count,
                                 MPI_Datatype result_datatype,
                                 int target_rank, MPI_Aint target_disp,
                                 int target_count,
                                 MPI_Datatype target_datatype, MPI_Op op,
                                 MPI_Win win, MPI_Request *request));

/* The large-count forms of the one-sided calls (MPI-4.0, the _c
   functions): counts MPI_Count, disp_unit MPI_Aint */
SHMPI_API(int, Win_create_c,
          (void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
           MPI_Comm comm, MPI_Win *win));
SHMPI_API(int, Win_allocate_c,
          (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
           void *baseptr, MPI_Win *win));
SHMPI_API(int, Win_allocate_shared_c,
          (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
           void *baseptr, MPI_Win *win));
SHMPI_API(int, Win_shared_query_c,
          (MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
           void *baseptr));
SHMPI_API(int, Put_c,
          (const void *origin_addr, MPI_Count origin_count,
           MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win));
SHMPI_API(int, Get_c,
          (void *origin_addr, MPI_Count origin_count,
           MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win));
SHMPI_API(int, Accumulate_c,
          (const void *origin_addr, MPI_Count origin_count,
           MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
           MPI_Win win));
SHMPI_API(int, Get_accumulate_c,
          (const void *origin_addr, MPI_Count origin_count,
           MPI_Datatype origin_datatype, void *result_addr,
           MPI_Count result_count, MPI_Datatype result_datatype,
           int target_rank, MPI_Aint target_disp, MPI_Count target_count,
           MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
SHMPI_API(int, Rput_c,
          (const void *origin_addr, MPI_Count origin_count,
           MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
           MPI_Request *request));
SHMPI_API(int, Rget_c,
          (void *origin_addr, MPI_Count origin_count,
           MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
           MPI_Request *request));
SHMPI_API(int, Raccumulate_c,
          (const void *origin_addr, MPI_Count origin_count,
           MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
           MPI_Win win, MPI_Request *request));
SHMPI_API(int, Rget_accumulate_c,
          (const void *origin_addr, MPI_Count origin_count,
           MPI_Datatype origin_datatype, void *result_addr,
           MPI_Count result_count, MPI_Datatype result_datatype,
           int target_rank, MPI_Aint target_disp, MPI_Count target_count,
           MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
           MPI_Request *request));

/* One-sided communication: synchronization (11.5) - fence, general
   active target (post/start/complete/wait/test), passive target (locks,
   flushes, sync) */
SHMPI_API(int, Win_fence, (int assert, MPI_Win win));
SHMPI_API(int, Win_post, (MPI_Group group, int assert, MPI_Win win));
SHMPI_API(int, Win_start, (MPI_Group group, int assert, MPI_Win win));
SHMPI_API(int, Win_complete, (MPI_Win win));
SHMPI_API(int, Win_wait, (MPI_Win win));
SHMPI_API(int, Win_test, (MPI_Win win, int *flag));
SHMPI_API(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win));
SHMPI_API(int, Win_unlock, (int rank, MPI_Win win));
SHMPI_API(int, Win_lock_all, (int assert, MPI_Win win));
SHMPI_API(int, Win_unlock_all, (MPI_Win win));
SHMPI_API(int, Win_flush, (int rank, MPI_Win win));
SHMPI_API(int, Win_flush_all, (MPI_Win win));
SHMPI_API(int, Win_flush_local, (int rank, MPI_Win win));
SHMPI_API(int, Win_flush_local_all, (MPI_Win win));
SHMPI_API(int, Win_sync, (MPI_Win win));

/* ------------------------------------------------------------------ */
/* RMA synchronization counters: a shmpi extension, not MPI-3.1.  The  */
/* proposal "Flexible RMA Synchronization for MPI-3" (H. Ritzdorf,     */
/* 2008) with its own names; shmpi_sync(7) tells the rules.  Code that */
/* must also build with other MPIs tests #ifdef SHMPI_SYNC_COUNTERS.   */
/* ------------------------------------------------------------------ */
#define SHMPI_SYNC_COUNTERS 1
typedef int MPI_Sync;          /* designates one counter, job-wide */
#define MPI_SYNC_NULL            0
#define MPI_MODE_WIN_PUT         1   /* sync_mode bits of */
#define MPI_MODE_WIN_GET         2   /* MPI_Win_sync_ops_init */
#define MPI_MODE_WIN_ACCUMULATE  4
extern struct shmpi_datatype shmpi_dt_HANDLE_SYNC;
#define MPI_HANDLE_SYNC          (&shmpi_dt_HANDLE_SYNC)

SHMPI_API(int, Win_alloc_sync_objects, (int n_sync, MPI_Sync *sync_counters,
                                        MPI_Win win, MPI_Info info));
SHMPI_API(int, Win_free_sync_objects, (int n_sync, MPI_Sync *sync_counters,
                                       MPI_Win win));
SHMPI_API(int, Win_sync_ops_init, (int target_rank, int sync_mode,
                                   MPI_Sync sync_counter, MPI_Win win,
                                   MPI_Info info, MPI_Request *req));
SHMPI_API(int, Win_sync_object_init, (MPI_Sync sync_counter, int count,
                                      MPI_Win win, MPI_Info info,
                                      MPI_Request *req));
SHMPI_API(int, Win_change_comm, (MPI_Comm new_comm, int peer_rank,
                                 MPI_Win win));
SHMPI_API(MPI_Sync, Sync_counter_f2c, (MPI_Fint sync_counter));
SHMPI_API(MPI_Fint, Sync_counter_c2f, (MPI_Sync sync_counter));

/* Generalized requests (12.2, 12.3) */
SHMPI_API(int, Grequest_start, (MPI_Grequest_query_function *query_fn,
                                MPI_Grequest_free_function *free_fn,
                                MPI_Grequest_cancel_function *cancel_fn,
                                void *extra_state, MPI_Request *request));
SHMPI_API(int, Grequest_complete, (MPI_Request request));
SHMPI_API(int, Status_set_elements, (MPI_Status *status,
                                     MPI_Datatype datatype, int count));
SHMPI_API(int, Status_set_elements_x, (MPI_Status *status,
                                       MPI_Datatype datatype,
                                       MPI_Count count));
SHMPI_API(int, Status_set_cancelled, (MPI_Status *status, int flag));

/* ------------------------------------------------------------------ */
/* The MPI tool information interface (MPI-3.1 chapter 14):           */
/* runtime/tool/, shmpi(7) TOOL INFORMATION INTERFACE.  Usable before */
/* MPI_Init and after MPI_Finalize.                                   */
/* ------------------------------------------------------------------ */
/* Its return codes (14.3.9), error classes like the others, below
   MPI_ERR_LASTCODE: MPI_Error_string names them. */
#define MPI_T_ERR_MEMORY               1005
#define MPI_T_ERR_NOT_INITIALIZED      1003
#define MPI_T_ERR_CANNOT_INIT          1001
#define MPI_T_ERR_INVALID_INDEX        1007
#define MPI_T_ERR_INVALID_ITEM         1008
#define MPI_T_ERR_INVALID_HANDLE       1010
#define MPI_T_ERR_OUT_OF_HANDLES       1012
#define MPI_T_ERR_OUT_OF_SESSIONS      1013
#define MPI_T_ERR_INVALID_SESSION      1009
#define MPI_T_ERR_CVAR_SET_NOT_NOW     1014
#define MPI_T_ERR_CVAR_SET_NEVER       1015
#define MPI_T_ERR_PVAR_NO_STARTSTOP    1017
#define MPI_T_ERR_PVAR_NO_WRITE        1016
#define MPI_T_ERR_PVAR_NO_ATOMIC       1018
#define MPI_T_ERR_INVALID_NAME         1011
#define MPI_T_ERR_INVALID              1006

typedef struct shmpi_tool_enum    *MPI_T_enum;
typedef struct shmpi_tool_cvar    *MPI_T_cvar_handle;
typedef struct shmpi_tool_pvar    *MPI_T_pvar_handle;
typedef struct shmpi_tool_session *MPI_T_pvar_session;
#define MPI_T_ENUM_NULL          ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL   ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL   ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_ALL_HANDLES   ((MPI_T_pvar_handle)1)
#define MPI_T_PVAR_SESSION_NULL  ((MPI_T_pvar_session)0)

#define MPI_T_VERBOSITY_USER_BASIC     1   /* 14.3.1 */
#define MPI_T_VERBOSITY_USER_DETAIL    2
#define MPI_T_VERBOSITY_USER_ALL       3
#define MPI_T_VERBOSITY_TUNER_BASIC    4
#define MPI_T_VERBOSITY_TUNER_DETAIL   5
#define MPI_T_VERBOSITY_TUNER_ALL      6
#define MPI_T_VERBOSITY_MPIDEV_BASIC   7
#define MPI_T_VERBOSITY_MPIDEV_DETAIL  8
#define MPI_T_VERBOSITY_MPIDEV_ALL     9

#define MPI_T_BIND_NO_OBJECT       0      /* 14.3.2 */
#define MPI_T_BIND_MPI_COMM        1
#define MPI_T_BIND_MPI_DATATYPE    2
#define MPI_T_BIND_MPI_ERRHANDLER  3
#define MPI_T_BIND_MPI_FILE        4
#define MPI_T_BIND_MPI_GROUP       5
#define MPI_T_BIND_MPI_OP          6
#define MPI_T_BIND_MPI_REQUEST     7
#define MPI_T_BIND_MPI_WIN         8
#define MPI_T_BIND_MPI_MESSAGE     9
#define MPI_T_BIND_MPI_INFO        10

#define MPI_T_SCOPE_CONSTANT  0           /* 14.3.6 */
#define MPI_T_SCOPE_READONLY  1
#define MPI_T_SCOPE_LOCAL     2
#define MPI_T_SCOPE_GROUP     3
#define MPI_T_SCOPE_GROUP_EQ  4
#define MPI_T_SCOPE_ALL       5
#define MPI_T_SCOPE_ALL_EQ    6

#define MPI_T_PVAR_CLASS_STATE          0 /* 14.3.7 */
#define MPI_T_PVAR_CLASS_LEVEL          1
#define MPI_T_PVAR_CLASS_SIZE           2
#define MPI_T_PVAR_CLASS_PERCENTAGE     3
#define MPI_T_PVAR_CLASS_HIGHWATERMARK  4
#define MPI_T_PVAR_CLASS_LOWWATERMARK   5
#define MPI_T_PVAR_CLASS_COUNTER        6
#define MPI_T_PVAR_CLASS_AGGREGATE      7
#define MPI_T_PVAR_CLASS_TIMER          8
#define MPI_T_PVAR_CLASS_GENERIC        9

SHMPI_API(int, T_init_thread, (int required, int *provided));
SHMPI_API(int, T_finalize, (void));
SHMPI_API(int, T_enum_get_info, (MPI_T_enum enumtype, int *num, char *name,
                                 int *name_len));
SHMPI_API(int, T_enum_get_item, (MPI_T_enum enumtype, int index, int *value,
                                 char *name, int *name_len));
SHMPI_API(int, T_cvar_get_num, (int *num_cvar));
SHMPI_API(int, T_cvar_get_info, (int cvar_index, char *name, int *name_len,
                                 int *verbosity, MPI_Datatype *datatype,
                                 MPI_T_enum *enumtype, char *desc,
                                 int *desc_len, int *bind, int *scope));
SHMPI_API(int, T_cvar_get_index, (const char *name, int *cvar_index));
SHMPI_API(int, T_cvar_handle_alloc, (int cvar_index, void *obj_handle,
                                     MPI_T_cvar_handle *handle, int *count));
SHMPI_API(int, T_cvar_handle_free, (MPI_T_cvar_handle *handle));
SHMPI_API(int, T_cvar_read, (MPI_T_cvar_handle handle, void *buf));
SHMPI_API(int, T_cvar_write, (MPI_T_cvar_handle handle, const void *buf));
SHMPI_API(int, T_pvar_get_num, (int *num_pvar));
SHMPI_API(int, T_pvar_get_info, (int pvar_index, char *name, int *name_len,
                                 int *verbosity, int *var_class,
                                 MPI_Datatype *datatype, MPI_T_enum *enumtype,
                                 char *desc, int *desc_len, int *bind,
                                 int *readonly, int *continuous,
                                 int *atomic));
SHMPI_API(int, T_pvar_get_index, (const char *name, int var_class,
                                  int *pvar_index));
SHMPI_API(int, T_pvar_session_create, (MPI_T_pvar_session *session));
SHMPI_API(int, T_pvar_session_free, (MPI_T_pvar_session *session));
SHMPI_API(int, T_pvar_handle_alloc, (MPI_T_pvar_session session,
                                     int pvar_index, void *obj_handle,
                                     MPI_T_pvar_handle *handle, int *count));
SHMPI_API(int, T_pvar_handle_free, (MPI_T_pvar_session session,
                                    MPI_T_pvar_handle *handle));
SHMPI_API(int, T_pvar_start, (MPI_T_pvar_session session,
                              MPI_T_pvar_handle handle));
SHMPI_API(int, T_pvar_stop, (MPI_T_pvar_session session,
                             MPI_T_pvar_handle handle));
SHMPI_API(int, T_pvar_read, (MPI_T_pvar_session session,
                             MPI_T_pvar_handle handle, void *buf));
SHMPI_API(int, T_pvar_write, (MPI_T_pvar_session session,
                              MPI_T_pvar_handle handle, const void *buf));
SHMPI_API(int, T_pvar_reset, (MPI_T_pvar_session session,
                              MPI_T_pvar_handle handle));
SHMPI_API(int, T_pvar_readreset, (MPI_T_pvar_session session,
                                  MPI_T_pvar_handle handle, void *buf));
SHMPI_API(int, T_category_get_num, (int *num_cat));
SHMPI_API(int, T_category_get_info, (int cat_index, char *name,
                                     int *name_len, char *desc, int *desc_len,
                                     int *num_cvars, int *num_pvars,
                                     int *num_categories));
SHMPI_API(int, T_category_get_index, (const char *name, int *cat_index));
SHMPI_API(int, T_category_get_cvars, (int cat_index, int len,
                                      int indices[]));
SHMPI_API(int, T_category_get_pvars, (int cat_index, int len,
                                      int indices[]));
SHMPI_API(int, T_category_get_categories, (int cat_index, int len,
                                           int indices[]));
SHMPI_API(int, T_category_changed, (int *stamp));
/* Events (MPI-4.0 15.3.8): runtime/tool/event.c, shmpi(7) TOOL
   INFORMATION INTERFACE.  An instance is valid only during the callback
   it is handed to. */
typedef struct shmpi_tool_event_reg *MPI_T_event_registration;
typedef struct shmpi_tool_event_inst *MPI_T_event_instance;
typedef enum MPI_T_cb_safety {
    MPI_T_CB_REQUIRE_NONE = 0,
    MPI_T_CB_REQUIRE_MPI_RESTRICTED,
    MPI_T_CB_REQUIRE_THREAD_SAFE,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;
typedef enum MPI_T_source_order {
    MPI_T_SOURCE_ORDERED = 0,
    MPI_T_SOURCE_UNORDERED
} MPI_T_source_order;
typedef void MPI_T_event_cb_function(MPI_T_event_instance event_instance,
                                     MPI_T_event_registration
                                         event_registration,
                                     MPI_T_cb_safety cb_safety,
                                     void *user_data);
typedef void MPI_T_event_free_cb_function(MPI_T_event_registration
                                              event_registration,
                                          MPI_T_cb_safety cb_safety,
                                          void *user_data);
typedef void MPI_T_event_dropped_cb_function(MPI_Count count,
                                             MPI_T_event_registration
                                                 event_registration,
                                             int source_index,
                                             MPI_T_cb_safety cb_safety,
                                             void *user_data);
SHMPI_API(int, T_event_get_num, (int *num_events));
SHMPI_API(int, T_event_get_info, (int event_index, char *name,
                                  int *name_len, int *verbosity,
                                  MPI_Datatype array_of_datatypes[],
                                  MPI_Aint array_of_displacements[],
                                  int *num_elements, MPI_T_enum *enumtype,
                                  MPI_Info *info, char *desc, int *desc_len,
                                  int *bind));
SHMPI_API(int, T_event_get_index, (const char *name, int *event_index));
SHMPI_API(int, T_event_handle_alloc, (int event_index, void *obj_handle,
                                      MPI_Info info,
                                      MPI_T_event_registration
                                          *event_registration));
SHMPI_API(int, T_event_handle_set_info,
          (MPI_T_event_registration event_registration, MPI_Info info));
SHMPI_API(int, T_event_handle_get_info,
          (MPI_T_event_registration event_registration,
           MPI_Info *info_used));
SHMPI_API(int, T_event_register_callback,
          (MPI_T_event_registration event_registration,
           MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
           MPI_T_event_cb_function *event_cb_function));
SHMPI_API(int, T_event_callback_set_info,
          (MPI_T_event_registration event_registration,
           MPI_T_cb_safety cb_safety, MPI_Info info));
SHMPI_API(int, T_event_callback_get_info,
          (MPI_T_event_registration event_registration,
           MPI_T_cb_safety cb_safety, MPI_Info *info_used));
SHMPI_API(int, T_event_handle_free,
          (MPI_T_event_registration event_registration, void *user_data,
           MPI_T_event_free_cb_function *free_cb_function));
SHMPI_API(int, T_event_set_dropped_handler,
          (MPI_T_event_registration event_registration,
           MPI_T_event_dropped_cb_function *dropped_cb_function));
SHMPI_API(int, T_event_read, (MPI_T_event_instance event_instance,
                              int element_index, void *buffer));
SHMPI_API(int, T_event_copy, (MPI_T_event_instance event_instance,
                              void *buffer));
SHMPI_API(int, T_event_get_timestamp, (MPI_T_event_instance event_instance,
                                       MPI_Count *event_timestamp));
SHMPI_API(int, T_event_get_source, (MPI_T_event_instance event_instance,
                                    int *source_index));
SHMPI_API(int, T_source_get_num, (int *num_sources));
SHMPI_API(int, T_source_get_info, (int source_index, char *name,
                                   int *name_len, char *desc, int *desc_len,
                                   MPI_T_source_order *ordering,
                                   MPI_Count *ticks_per_second,
                                   MPI_Count *max_ticks, MPI_Info *info));
SHMPI_API(int, T_source_get_timestamp, (int source_index,
                                        MPI_Count *timestamp));
SHMPI_API(int, T_category_get_num_events, (int cat_index, int *num_events));
SHMPI_API(int, T_category_get_events, (int cat_index, int len,
                                       int indices[]));
/* --- end of the tool information interface --- */

/* --- the Sessions Model (MPI-4.0 11.3) and MPI_Comm_idup_with_info ---
   A session is a handle of its own (man MPI_Session_init); the process
   sets it offers are "mpi://WORLD" and "mpi://SELF". */
typedef struct shmpi_session *MPI_Session;
#define MPI_SESSION_NULL ((MPI_Session)0)
#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256
typedef void MPI_Session_errhandler_function(MPI_Session *, int *, ...);
SHMPI_API(int, Session_init, (MPI_Info info, MPI_Errhandler errhandler,
                              MPI_Session *session));
SHMPI_API(int, Session_finalize, (MPI_Session *session));
SHMPI_API(int, Session_get_num_psets, (MPI_Session session, MPI_Info info,
                                       int *npset_names));
SHMPI_API(int, Session_get_nth_pset, (MPI_Session session, MPI_Info info,
                                      int n, int *pset_len, char *pset_name));
SHMPI_API(int, Session_get_info, (MPI_Session session, MPI_Info *info_used));
SHMPI_API(int, Session_get_pset_info, (MPI_Session session,
                                       const char *pset_name,
                                       MPI_Info *info));
SHMPI_API(int, Session_create_errhandler,
          (MPI_Session_errhandler_function *session_errhandler_fn,
           MPI_Errhandler *errhandler));
SHMPI_API(int, Session_set_errhandler, (MPI_Session session,
                                        MPI_Errhandler errhandler));
SHMPI_API(int, Session_get_errhandler, (MPI_Session session,
                                        MPI_Errhandler *errhandler));
SHMPI_API(int, Session_call_errhandler, (MPI_Session session,
                                         int errorcode));
SHMPI_API(int, Group_from_session_pset, (MPI_Session session,
                                         const char *pset_name,
                                         MPI_Group *newgroup));
SHMPI_API(int, Comm_create_from_group, (MPI_Group group,
                                        const char *stringtag, MPI_Info info,
                                        MPI_Errhandler errhandler,
                                        MPI_Comm *newcomm));
SHMPI_API(int, Intercomm_create_from_groups,
          (MPI_Group local_group, int local_leader, MPI_Group remote_group,
           int remote_leader, const char *stringtag, MPI_Info info,
           MPI_Errhandler errhandler, MPI_Comm *newintercomm));
/* Buffers for buffered sends of a session (MPI-4.1 3.6) */
SHMPI_API(int, Session_attach_buffer, (MPI_Session session, void *buffer,
                                       int size));
SHMPI_API(int, Session_detach_buffer, (MPI_Session session,
                                       void *buffer_addr, int *size));
SHMPI_API(int, Session_attach_buffer_c, (MPI_Session session, void *buffer,
                                         MPI_Count size));
SHMPI_API(int, Session_detach_buffer_c, (MPI_Session session,
                                         void *buffer_addr, MPI_Count *size));
SHMPI_API(int, Session_flush_buffer, (MPI_Session session));
SHMPI_API(int, Session_iflush_buffer, (MPI_Session session,
                                       MPI_Request *request));
SHMPI_API(MPI_Fint, Session_c2f, (MPI_Session session));
SHMPI_API(MPI_Session, Session_f2c, (MPI_Fint session));
SHMPI_API(int, Comm_idup_with_info, (MPI_Comm comm, MPI_Info info,
                                     MPI_Comm *newcomm,
                                     MPI_Request *request));
/* --- end of the Sessions Model --- */

#ifdef __cplusplus
}
#endif
#endif /* SHMPI_MPI_H */
