/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpi.h - shmpi's header for the MPI standard ABI (MPI-5.0 chapter 20,
 * "Application Binary Interface"; the values of Annex A.1).  A program
 * built against it (./mpicc_abi) links lib/libmpi_abi.so, and runs with
 * any library of the standard ABI.
 *
 * The values below are the standard's, checked against the MPI Forum's
 * reference header (mpi-forum/mpi-abi-stubs) and a second independent
 * listing of them; shmpi's own mpi.h keeps its own values, and the layer
 * in abi/ translates between the two (abi/README.md).
 *
 * Only the functions that work through that layer are declared here;
 * abi/README.md lists what the ABI has that this header does not yet.
 */
#ifndef SHMPI_ABI_MPI_H
#define SHMPI_ABI_MPI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the standard shmpi implements (MPI_Get_version says
   the same); the ABI's own version is MPI_ABI_VERSION. */
#define MPI_VERSION        4
#define MPI_SUBVERSION     1
#define MPI_ABI_VERSION    1
#define MPI_ABI_SUBVERSION 0

/* ---- integer types (20.3.2) ---- */
typedef intptr_t MPI_Aint;
typedef int64_t  MPI_Offset;
typedef int64_t  MPI_Count;
typedef int      MPI_Fint;

/* ---- the status: three public fields, five reserved ints ---- */
typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int MPI_internal[5];
} MPI_Status;

#define MPI_F_STATUS_SIZE 8
#define MPI_F_SOURCE      0
#define MPI_F_TAG         1
#define MPI_F_ERROR       2

/* ---- handles: pointers to incomplete structs; the predefined ones are
   small integers (below 0x1000, which no object address is) ---- */
typedef struct MPI_ABI_Op         *MPI_Op;
typedef struct MPI_ABI_Comm       *MPI_Comm;
typedef struct MPI_ABI_Group      *MPI_Group;
typedef struct MPI_ABI_Win        *MPI_Win;
typedef struct MPI_ABI_File       *MPI_File;
typedef struct MPI_ABI_Session    *MPI_Session;
typedef struct MPI_ABI_Message    *MPI_Message;
typedef struct MPI_ABI_Info       *MPI_Info;
typedef struct MPI_ABI_Errhandler *MPI_Errhandler;
typedef struct MPI_ABI_Request    *MPI_Request;
typedef struct MPI_ABI_Datatype   *MPI_Datatype;

#define MPI_OP_NULL          ((MPI_Op)0x020)
#define MPI_SUM              ((MPI_Op)0x021)
#define MPI_MIN              ((MPI_Op)0x022)
#define MPI_MAX              ((MPI_Op)0x023)
#define MPI_PROD             ((MPI_Op)0x024)
#define MPI_BAND             ((MPI_Op)0x028)
#define MPI_BOR              ((MPI_Op)0x029)
#define MPI_BXOR             ((MPI_Op)0x02a)
#define MPI_LAND             ((MPI_Op)0x030)
#define MPI_LOR              ((MPI_Op)0x031)
#define MPI_LXOR             ((MPI_Op)0x032)
#define MPI_MINLOC           ((MPI_Op)0x038)
#define MPI_MAXLOC           ((MPI_Op)0x039)
#define MPI_REPLACE          ((MPI_Op)0x03c)
#define MPI_NO_OP            ((MPI_Op)0x03d)

#define MPI_COMM_NULL        ((MPI_Comm)0x100)
#define MPI_COMM_WORLD       ((MPI_Comm)0x101)
#define MPI_COMM_SELF        ((MPI_Comm)0x102)
#define MPI_GROUP_NULL       ((MPI_Group)0x108)
#define MPI_GROUP_EMPTY      ((MPI_Group)0x109)
#define MPI_WIN_NULL         ((MPI_Win)0x110)
#define MPI_FILE_NULL        ((MPI_File)0x118)
#define MPI_SESSION_NULL     ((MPI_Session)0x120)
#define MPI_MESSAGE_NULL     ((MPI_Message)0x128)
#define MPI_MESSAGE_NO_PROC  ((MPI_Message)0x129)
#define MPI_INFO_NULL        ((MPI_Info)0x130)
#define MPI_INFO_ENV         ((MPI_Info)0x131)
#define MPI_ERRHANDLER_NULL  ((MPI_Errhandler)0x140)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)0x141)
#define MPI_ERRORS_RETURN    ((MPI_Errhandler)0x142)
#define MPI_ERRORS_ABORT     ((MPI_Errhandler)0x143)
#define MPI_REQUEST_NULL     ((MPI_Request)0x180)

#define MPI_DATATYPE_NULL           ((MPI_Datatype)0x200)
#define MPI_AINT                    ((MPI_Datatype)0x201)
#define MPI_COUNT                   ((MPI_Datatype)0x202)
#define MPI_OFFSET                  ((MPI_Datatype)0x203)
#define MPI_PACKED                  ((MPI_Datatype)0x207)
#define MPI_SHORT                   ((MPI_Datatype)0x208)
#define MPI_INT                     ((MPI_Datatype)0x209)
#define MPI_LONG                    ((MPI_Datatype)0x20a)
#define MPI_LONG_LONG               ((MPI_Datatype)0x20b)
#define MPI_LONG_LONG_INT           MPI_LONG_LONG
#define MPI_UNSIGNED_SHORT          ((MPI_Datatype)0x20c)
#define MPI_UNSIGNED                ((MPI_Datatype)0x20d)
#define MPI_UNSIGNED_LONG           ((MPI_Datatype)0x20e)
#define MPI_UNSIGNED_LONG_LONG      ((MPI_Datatype)0x20f)
#define MPI_FLOAT                   ((MPI_Datatype)0x210)
#define MPI_C_FLOAT_COMPLEX         ((MPI_Datatype)0x212)
#define MPI_C_COMPLEX               MPI_C_FLOAT_COMPLEX
#define MPI_CXX_FLOAT_COMPLEX       ((MPI_Datatype)0x213)
#define MPI_DOUBLE                  ((MPI_Datatype)0x214)
#define MPI_C_DOUBLE_COMPLEX        ((MPI_Datatype)0x216)
#define MPI_CXX_DOUBLE_COMPLEX      ((MPI_Datatype)0x217)
#define MPI_LOGICAL                 ((MPI_Datatype)0x218)
#define MPI_INTEGER                 ((MPI_Datatype)0x219)
#define MPI_REAL                    ((MPI_Datatype)0x21a)
#define MPI_COMPLEX                 ((MPI_Datatype)0x21b)
#define MPI_DOUBLE_PRECISION        ((MPI_Datatype)0x21c)
#define MPI_DOUBLE_COMPLEX          ((MPI_Datatype)0x21d)
#define MPI_CHARACTER               ((MPI_Datatype)0x21e)
#define MPI_LONG_DOUBLE             ((MPI_Datatype)0x220)
#define MPI_C_LONG_DOUBLE_COMPLEX   ((MPI_Datatype)0x224)
#define MPI_CXX_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x225)
#define MPI_FLOAT_INT               ((MPI_Datatype)0x228)
#define MPI_DOUBLE_INT              ((MPI_Datatype)0x229)
#define MPI_LONG_INT                ((MPI_Datatype)0x22a)
#define MPI_2INT                    ((MPI_Datatype)0x22b)
#define MPI_SHORT_INT               ((MPI_Datatype)0x22c)
#define MPI_LONG_DOUBLE_INT         ((MPI_Datatype)0x22d)
#define MPI_2REAL                   ((MPI_Datatype)0x230)
#define MPI_2DOUBLE_PRECISION       ((MPI_Datatype)0x231)
#define MPI_2INTEGER                ((MPI_Datatype)0x232)
#define MPI_C_BOOL                  ((MPI_Datatype)0x238)
#define MPI_CXX_BOOL                ((MPI_Datatype)0x239)
#define MPI_WCHAR                   ((MPI_Datatype)0x23c)
#define MPI_INT8_T                  ((MPI_Datatype)0x240)
#define MPI_UINT8_T                 ((MPI_Datatype)0x241)
#define MPI_CHAR                    ((MPI_Datatype)0x243)
#define MPI_SIGNED_CHAR             ((MPI_Datatype)0x244)
#define MPI_UNSIGNED_CHAR           ((MPI_Datatype)0x245)
#define MPI_BYTE                    ((MPI_Datatype)0x247)
#define MPI_INT16_T                 ((MPI_Datatype)0x248)
#define MPI_UINT16_T                ((MPI_Datatype)0x249)
#define MPI_INT32_T                 ((MPI_Datatype)0x250)
#define MPI_UINT32_T                ((MPI_Datatype)0x251)
#define MPI_INT64_T                 ((MPI_Datatype)0x258)
#define MPI_UINT64_T                ((MPI_Datatype)0x259)
#define MPI_LOGICAL1                ((MPI_Datatype)0x2c0)
#define MPI_INTEGER1                ((MPI_Datatype)0x2c1)
#define MPI_LOGICAL2                ((MPI_Datatype)0x2c8)
#define MPI_INTEGER2                ((MPI_Datatype)0x2c9)
#define MPI_REAL2                   ((MPI_Datatype)0x2ca)
#define MPI_LOGICAL4                ((MPI_Datatype)0x2d0)
#define MPI_INTEGER4                ((MPI_Datatype)0x2d1)
#define MPI_REAL4                   ((MPI_Datatype)0x2d2)
#define MPI_COMPLEX4                ((MPI_Datatype)0x2d3)
#define MPI_LOGICAL8                ((MPI_Datatype)0x2d8)
#define MPI_INTEGER8                ((MPI_Datatype)0x2d9)
#define MPI_REAL8                   ((MPI_Datatype)0x2da)
#define MPI_COMPLEX8                ((MPI_Datatype)0x2db)
#define MPI_LOGICAL16               ((MPI_Datatype)0x2e0)
#define MPI_INTEGER16               ((MPI_Datatype)0x2e1)
#define MPI_REAL16                  ((MPI_Datatype)0x2e2)
#define MPI_COMPLEX16               ((MPI_Datatype)0x2e3)
#define MPI_COMPLEX32               ((MPI_Datatype)0x2eb)

/* ---- error classes ---- */
enum {
    MPI_SUCCESS = 0,
    MPI_ERR_BUFFER = 1, MPI_ERR_COUNT = 2, MPI_ERR_TYPE = 3, MPI_ERR_TAG = 4,
    MPI_ERR_COMM = 5, MPI_ERR_RANK = 6, MPI_ERR_REQUEST = 7,
    MPI_ERR_ROOT = 8, MPI_ERR_GROUP = 9, MPI_ERR_OP = 10,
    MPI_ERR_TOPOLOGY = 11, MPI_ERR_DIMS = 12, MPI_ERR_ARG = 13,
    MPI_ERR_UNKNOWN = 14, MPI_ERR_TRUNCATE = 15, MPI_ERR_OTHER = 16,
    MPI_ERR_INTERN = 17, MPI_ERR_PENDING = 18, MPI_ERR_IN_STATUS = 19,
    MPI_ERR_ACCESS = 20, MPI_ERR_AMODE = 21, MPI_ERR_ASSERT = 22,
    MPI_ERR_BAD_FILE = 23, MPI_ERR_BASE = 24, MPI_ERR_CONVERSION = 25,
    MPI_ERR_DISP = 26, MPI_ERR_DUP_DATAREP = 27, MPI_ERR_FILE_EXISTS = 28,
    MPI_ERR_FILE_IN_USE = 29, MPI_ERR_FILE = 30, MPI_ERR_INFO_KEY = 31,
    MPI_ERR_INFO_NOKEY = 32, MPI_ERR_INFO_VALUE = 33, MPI_ERR_INFO = 34,
    MPI_ERR_IO = 35, MPI_ERR_KEYVAL = 36, MPI_ERR_LOCKTYPE = 37,
    MPI_ERR_NAME = 38, MPI_ERR_NO_MEM = 39, MPI_ERR_NOT_SAME = 40,
    MPI_ERR_NO_SPACE = 41, MPI_ERR_NO_SUCH_FILE = 42, MPI_ERR_PORT = 43,
    MPI_ERR_QUOTA = 44, MPI_ERR_READ_ONLY = 45, MPI_ERR_RMA_ATTACH = 46,
    MPI_ERR_RMA_CONFLICT = 47, MPI_ERR_RMA_RANGE = 48,
    MPI_ERR_RMA_SHARED = 49, MPI_ERR_RMA_SYNC = 50, MPI_ERR_SERVICE = 51,
    MPI_ERR_SIZE = 52, MPI_ERR_SPAWN = 53, MPI_ERR_UNSUPPORTED_DATAREP = 54,
    MPI_ERR_UNSUPPORTED_OPERATION = 55, MPI_ERR_WIN = 56,
    MPI_ERR_RMA_FLAVOR = 57, MPI_ERR_PROC_ABORTED = 58,
    MPI_ERR_VALUE_TOO_LARGE = 59, MPI_ERR_SESSION = 60,
    MPI_ERR_ERRHANDLER = 61, MPI_ERR_ABI = 62,
    MPI_T_ERR_CANNOT_INIT = 1001, MPI_T_ERR_NOT_ACCESSIBLE = 1002,
    MPI_T_ERR_NOT_INITIALIZED = 1003, MPI_T_ERR_NOT_SUPPORTED = 1004,
    MPI_T_ERR_MEMORY = 1005, MPI_T_ERR_INVALID = 1006,
    MPI_T_ERR_INVALID_INDEX = 1007, MPI_T_ERR_INVALID_ITEM = 1008,
    MPI_T_ERR_INVALID_SESSION = 1009, MPI_T_ERR_INVALID_HANDLE = 1010,
    MPI_T_ERR_INVALID_NAME = 1011, MPI_T_ERR_OUT_OF_HANDLES = 1012,
    MPI_T_ERR_OUT_OF_SESSIONS = 1013, MPI_T_ERR_CVAR_SET_NOT_NOW = 1014,
    MPI_T_ERR_CVAR_SET_NEVER = 1015, MPI_T_ERR_PVAR_NO_WRITE = 1016,
    MPI_T_ERR_PVAR_NO_STARTSTOP = 1017, MPI_T_ERR_PVAR_NO_ATOMIC = 1018,
    MPI_ERR_LASTCODE = 0x3fff
};

/* ---- buffer addresses, ignored and empty arguments ---- */
#define MPI_BOTTOM           ((void *)0)
#define MPI_IN_PLACE         ((void *)1)
#define MPI_BUFFER_AUTOMATIC ((void *)2)
#define MPI_ARGV_NULL        ((char **)0)
#define MPI_ARGVS_NULL       ((char ***)0)
#define MPI_ERRCODES_IGNORE  ((int *)0)
#define MPI_STATUS_IGNORE    ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE  ((MPI_Status *)0)
#define MPI_UNWEIGHTED       ((int *)10)
#define MPI_WEIGHTS_EMPTY    ((int *)11)

/* ---- string sizes, terminating NUL included ---- */
#define MPI_MAX_DATAREP_STRING          128
#define MPI_MAX_ERROR_STRING            512
#define MPI_MAX_INFO_KEY                256
#define MPI_MAX_INFO_VAL               1024
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_OBJECT_NAME             128
#define MPI_MAX_PORT_NAME              1024
#define MPI_MAX_PROCESSOR_NAME          256
#define MPI_MAX_STRINGTAG_LEN          1024
#define MPI_MAX_PSET_NAME_LEN          1024
#define MPI_BSEND_OVERHEAD              512

enum {
    MPI_MODE_APPEND = 1, MPI_MODE_CREATE = 2, MPI_MODE_DELETE_ON_CLOSE = 4,
    MPI_MODE_EXCL = 8, MPI_MODE_RDONLY = 16, MPI_MODE_RDWR = 32,
    MPI_MODE_SEQUENTIAL = 64, MPI_MODE_UNIQUE_OPEN = 128,
    MPI_MODE_WRONLY = 256,
    MPI_MODE_NOCHECK = 1024, MPI_MODE_NOPRECEDE = 2048,
    MPI_MODE_NOPUT = 4096, MPI_MODE_NOSTORE = 8192,
    MPI_MODE_NOSUCCEED = 16384
};

enum {
    MPI_ANY_SOURCE = -1, MPI_ANY_TAG = -2, MPI_PROC_NULL = -3,
    MPI_ROOT = -4, MPI_UNDEFINED = -32766
};

enum {
    MPI_THREAD_SINGLE = 0, MPI_THREAD_FUNNELED = 1024,
    MPI_THREAD_SERIALIZED = 2048, MPI_THREAD_MULTIPLE = 4096,
    MPI_ORDER_C = 12, MPI_ORDER_FORTRAN = 15,
    MPI_DISTRIBUTE_NONE = 16, MPI_DISTRIBUTE_BLOCK = 17,
    MPI_DISTRIBUTE_CYCLIC = 18, MPI_DISTRIBUTE_DFLT_DARG = 19,
    MPI_COMBINER_NAMED = 101, MPI_COMBINER_DUP = 102,
    MPI_COMBINER_CONTIGUOUS = 103, MPI_COMBINER_VECTOR = 104,
    MPI_COMBINER_HVECTOR = 105, MPI_COMBINER_INDEXED = 106,
    MPI_COMBINER_HINDEXED = 107, MPI_COMBINER_INDEXED_BLOCK = 108,
    MPI_COMBINER_HINDEXED_BLOCK = 109, MPI_COMBINER_STRUCT = 110,
    MPI_COMBINER_SUBARRAY = 111, MPI_COMBINER_DARRAY = 112,
    MPI_COMBINER_F90_INTEGER = 113, MPI_COMBINER_F90_REAL = 114,
    MPI_COMBINER_F90_COMPLEX = 115, MPI_COMBINER_RESIZED = 116,
    MPI_COMBINER_VALUE_INDEX = 117,
    MPI_TYPECLASS_INTEGER = 192, MPI_TYPECLASS_REAL = 193,
    MPI_TYPECLASS_COMPLEX = 194,
    MPI_IDENT = 201, MPI_CONGRUENT = 202, MPI_SIMILAR = 203,
    MPI_UNEQUAL = 204,
    MPI_CART = 211, MPI_GRAPH = 212, MPI_DIST_GRAPH = 213,
    MPI_COMM_TYPE_SHARED = 221, MPI_COMM_TYPE_HW_UNGUIDED = 222,
    MPI_COMM_TYPE_HW_GUIDED = 223, MPI_COMM_TYPE_RESOURCE_GUIDED = 224,
    MPI_LOCK_EXCLUSIVE = 301, MPI_LOCK_SHARED = 302,
    MPI_WIN_FLAVOR_CREATE = 311, MPI_WIN_FLAVOR_ALLOCATE = 312,
    MPI_WIN_FLAVOR_DYNAMIC = 313, MPI_WIN_FLAVOR_SHARED = 314,
    MPI_WIN_UNIFIED = 321, MPI_WIN_SEPARATE = 322,
    MPI_SEEK_SET = 401, MPI_SEEK_CUR = 402, MPI_SEEK_END = 403
};
#define MPI_DISPLACEMENT_CURRENT ((MPI_Offset)-1)

enum {
    MPI_KEYVAL_INVALID = 0,
    MPI_TAG_UB = 501, MPI_IO = 502, MPI_HOST = 503,
    MPI_WTIME_IS_GLOBAL = 504, MPI_UNIVERSE_SIZE = 505, MPI_APPNUM = 506,
    MPI_LASTUSEDCODE = 507,
    MPI_WIN_BASE = 601, MPI_WIN_DISP_UNIT = 602, MPI_WIN_SIZE = 603,
    MPI_WIN_CREATE_FLAVOR = 604, MPI_WIN_MODEL = 605
};

/* ---- callbacks: the user sees ABI handles and codes in them ---- */
typedef void MPI_User_function(void *invec, void *inoutvec, int *len,
                               MPI_Datatype *datatype);
typedef void MPI_User_function_c(void *invec, void *inoutvec,
                                 MPI_Count *len, MPI_Datatype *datatype);
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *error_code,
                                          ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *error_code, ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;
typedef void MPI_Session_errhandler_function(MPI_Session *session,
                                             int *error_code, ...);
typedef MPI_Session_errhandler_function MPI_Session_errhandler_fn;
typedef int MPI_Grequest_query_function(void *extra_state,
                                        MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval,
                                        void *extra_state,
                                        void *attribute_val_in,
                                        void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval,
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
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval,
                                       void *extra_state,
                                       void *attribute_val_in,
                                       void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval,
                                         void *attribute_val,
                                         void *extra_state);
#define MPI_COMM_NULL_COPY_FN   ((MPI_Comm_copy_attr_function *)0x0)
#define MPI_COMM_DUP_FN         ((MPI_Comm_copy_attr_function *)0x1)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function *)0x0)
#define MPI_TYPE_NULL_COPY_FN   ((MPI_Type_copy_attr_function *)0x0)
#define MPI_TYPE_DUP_FN         ((MPI_Type_copy_attr_function *)0x1)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function *)0x0)
#define MPI_WIN_NULL_COPY_FN    ((MPI_Win_copy_attr_function *)0x0)
#define MPI_WIN_DUP_FN          ((MPI_Win_copy_attr_function *)0x1)
#define MPI_WIN_NULL_DELETE_FN  ((MPI_Win_delete_attr_function *)0x0)
/* the MPI-1 forms (deprecated since MPI-2.0) */
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval,
                              void *extra_state, void *attribute_val_in,
                              void *attribute_val_out, int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval,
                                void *attribute_val, void *extra_state);
#define MPI_NULL_COPY_FN        ((MPI_Copy_function *)0x0)
#define MPI_DUP_FN              ((MPI_Copy_function *)0x1)
#define MPI_NULL_DELETE_FN      ((MPI_Delete_function *)0x0)

/* ---- the tool information interface (MPI-4.1 chapter 15) ---- */
typedef struct MPI_T_enum_t               *MPI_T_enum;
typedef struct MPI_T_cvar_handle_t        *MPI_T_cvar_handle;
typedef struct MPI_T_pvar_handle_t        *MPI_T_pvar_handle;
typedef struct MPI_T_pvar_session_t       *MPI_T_pvar_session;
typedef struct MPI_T_event_registration_t *MPI_T_event_registration;
typedef struct MPI_T_event_instance_t     *MPI_T_event_instance;
#define MPI_T_ENUM_NULL         ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL  ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
#define MPI_T_PVAR_HANDLE_NULL  ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_ALL_HANDLES  ((MPI_T_pvar_handle)1)
typedef enum MPI_T_cb_safety {
    MPI_T_CB_REQUIRE_NONE = 0x00, MPI_T_CB_REQUIRE_MPI_RESTRICTED = 0x03,
    MPI_T_CB_REQUIRE_THREAD_SAFE = 0x0F,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE = 0x3F
} MPI_T_cb_safety;
typedef enum MPI_T_source_order {
    MPI_T_SOURCE_ORDERED = 1, MPI_T_SOURCE_UNORDERED = 2
} MPI_T_source_order;
enum {
    MPI_T_VERBOSITY_USER_BASIC = 0x09, MPI_T_VERBOSITY_USER_DETAIL = 0x0a,
    MPI_T_VERBOSITY_USER_ALL = 0x0c, MPI_T_VERBOSITY_TUNER_BASIC = 0x11,
    MPI_T_VERBOSITY_TUNER_DETAIL = 0x12, MPI_T_VERBOSITY_TUNER_ALL = 0x14,
    MPI_T_VERBOSITY_MPIDEV_BASIC = 0x21, MPI_T_VERBOSITY_MPIDEV_DETAIL = 0x22,
    MPI_T_VERBOSITY_MPIDEV_ALL = 0x24
};
enum {
    MPI_T_BIND_NO_OBJECT = 1, MPI_T_BIND_MPI_COMM = 2,
    MPI_T_BIND_MPI_DATATYPE = 3, MPI_T_BIND_MPI_ERRHANDLER = 4,
    MPI_T_BIND_MPI_FILE = 5, MPI_T_BIND_MPI_GROUP = 6, MPI_T_BIND_MPI_OP = 7,
    MPI_T_BIND_MPI_REQUEST = 8, MPI_T_BIND_MPI_WIN = 9,
    MPI_T_BIND_MPI_MESSAGE = 10, MPI_T_BIND_MPI_INFO = 11,
    MPI_T_BIND_MPI_SESSION = 12
};
enum {
    MPI_T_SCOPE_CONSTANT = 1, MPI_T_SCOPE_READONLY = 2, MPI_T_SCOPE_LOCAL = 3,
    MPI_T_SCOPE_GROUP = 4, MPI_T_SCOPE_GROUP_EQ = 5, MPI_T_SCOPE_ALL = 6,
    MPI_T_SCOPE_ALL_EQ = 7
};
enum {
    MPI_T_PVAR_CLASS_STATE = 1, MPI_T_PVAR_CLASS_LEVEL = 2,
    MPI_T_PVAR_CLASS_SIZE = 3, MPI_T_PVAR_CLASS_PERCENTAGE = 4,
    MPI_T_PVAR_CLASS_HIGHWATERMARK = 5, MPI_T_PVAR_CLASS_LOWWATERMARK = 6,
    MPI_T_PVAR_CLASS_COUNTER = 7, MPI_T_PVAR_CLASS_AGGREGATE = 8,
    MPI_T_PVAR_CLASS_TIMER = 9, MPI_T_PVAR_CLASS_GENERIC = 10
};
typedef void MPI_T_event_cb_function(MPI_T_event_instance event_instance,
                                     MPI_T_event_registration event_registration,
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

/* ---- the functions that work through shmpi's layer ---- */
#define SHMPI_ABI_API(ret, name, params) \
    ret MPI_##name params; ret PMPI_##name params

/* the ABI itself (20.4) */
SHMPI_ABI_API(int, Abi_get_version, (int *abi_major, int *abi_minor));
SHMPI_ABI_API(int, Abi_get_info, (MPI_Info *info));
SHMPI_ABI_API(int, Abi_get_fortran_info, (MPI_Info *info));

/* environment */
SHMPI_ABI_API(int, Init, (int *argc, char ***argv));
SHMPI_ABI_API(int, Init_thread, (int *argc, char ***argv, int required,
                                 int *provided));
SHMPI_ABI_API(int, Query_thread, (int *provided));
SHMPI_ABI_API(int, Finalize, (void));
SHMPI_ABI_API(int, Initialized, (int *flag));
SHMPI_ABI_API(int, Finalized, (int *flag));
SHMPI_ABI_API(int, Abort, (MPI_Comm comm, int errorcode));
SHMPI_ABI_API(int, Get_version, (int *version, int *subversion));
SHMPI_ABI_API(int, Get_library_version, (char *version, int *resultlen));
SHMPI_ABI_API(int, Get_processor_name, (char *name, int *resultlen));
SHMPI_ABI_API(double, Wtime, (void));
SHMPI_ABI_API(double, Wtick, (void));
SHMPI_ABI_API(int, Is_thread_main, (int *flag));
SHMPI_ABI_API(int, Pcontrol, (const int level, ...));
SHMPI_ABI_API(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr));
SHMPI_ABI_API(int, Free_mem, (void *base));
SHMPI_ABI_API(int, Get_hw_resource_info, (MPI_Info *hw_info));

/* errors and error handlers */
SHMPI_ABI_API(int, Error_class, (int errorcode, int *errorclass));
SHMPI_ABI_API(int, Error_string, (int errorcode, char *string,
                                  int *resultlen));
SHMPI_ABI_API(int, Comm_set_errhandler, (MPI_Comm comm,
                                         MPI_Errhandler errhandler));
SHMPI_ABI_API(int, Comm_get_errhandler, (MPI_Comm comm,
                                         MPI_Errhandler *errhandler));
SHMPI_ABI_API(int, Comm_create_errhandler,
              (MPI_Comm_errhandler_function *comm_errhandler_fn,
               MPI_Errhandler *errhandler));
SHMPI_ABI_API(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode));
SHMPI_ABI_API(int, Errhandler_free, (MPI_Errhandler *errhandler));
SHMPI_ABI_API(int, Add_error_class, (int *errorclass));
SHMPI_ABI_API(int, Add_error_code, (int errorclass, int *errorcode));
SHMPI_ABI_API(int, Add_error_string, (int errorcode, const char *string));
SHMPI_ABI_API(int, Remove_error_class, (int e));
SHMPI_ABI_API(int, Remove_error_code, (int e));
SHMPI_ABI_API(int, Remove_error_string, (int e));

/* communicators */
SHMPI_ABI_API(int, Comm_size, (MPI_Comm comm, int *size));
SHMPI_ABI_API(int, Comm_rank, (MPI_Comm comm, int *rank));
SHMPI_ABI_API(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm));
SHMPI_ABI_API(int, Comm_split, (MPI_Comm comm, int color, int key,
                                MPI_Comm *newcomm));
SHMPI_ABI_API(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2,
                                  int *result));
SHMPI_ABI_API(int, Comm_free, (MPI_Comm *comm));
SHMPI_ABI_API(int, Comm_split_type, (MPI_Comm comm, int split_type, int key,
                                     MPI_Info info, MPI_Comm *newcomm));
SHMPI_ABI_API(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info,
                                        MPI_Comm *newcomm));
SHMPI_ABI_API(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm,
                               MPI_Request *request));
SHMPI_ABI_API(int, Comm_idup_with_info, (MPI_Comm comm, MPI_Info info,
                                         MPI_Comm *newcomm,
                                         MPI_Request *request));
SHMPI_ABI_API(int, Comm_set_info, (MPI_Comm comm, MPI_Info info));
SHMPI_ABI_API(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used));
SHMPI_ABI_API(int, Comm_set_name, (MPI_Comm comm, const char *comm_name));
SHMPI_ABI_API(int, Comm_get_name, (MPI_Comm comm, char *comm_name,
                                   int *resultlen));
SHMPI_ABI_API(int, Comm_test_inter, (MPI_Comm comm, int *flag));
SHMPI_ABI_API(int, Comm_remote_size, (MPI_Comm comm, int *size));
SHMPI_ABI_API(int, Intercomm_create, (MPI_Comm local_comm, int local_leader,
                                      MPI_Comm peer_comm, int remote_leader,
                                      int tag, MPI_Comm *newintercomm));
SHMPI_ABI_API(int, Intercomm_create_from_groups,
              (MPI_Group local_group, int local_leader, MPI_Group remote_group,
               int remote_leader, const char *stringtag, MPI_Info info,
               MPI_Errhandler errhandler, MPI_Comm *newintercomm));
SHMPI_ABI_API(int, Intercomm_merge, (MPI_Comm intercomm, int high,
                                     MPI_Comm *newintracomm));

/* groups */
SHMPI_ABI_API(int, Group_size, (MPI_Group group, int *size));
SHMPI_ABI_API(int, Group_rank, (MPI_Group group, int *rank));
SHMPI_ABI_API(int, Group_compare, (MPI_Group group1, MPI_Group group2,
                                   int *result));
SHMPI_ABI_API(int, Group_translate_ranks,
              (MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
               int ranks2[]));
SHMPI_ABI_API(int, Group_union, (MPI_Group group1, MPI_Group group2,
                                 MPI_Group *newgroup));
SHMPI_ABI_API(int, Group_intersection, (MPI_Group group1, MPI_Group group2,
                                        MPI_Group *newgroup));
SHMPI_ABI_API(int, Group_difference, (MPI_Group group1, MPI_Group group2,
                                      MPI_Group *newgroup));
SHMPI_ABI_API(int, Group_incl, (MPI_Group group, int n, const int ranks[],
                                MPI_Group *newgroup));
SHMPI_ABI_API(int, Group_excl, (MPI_Group group, int n, const int ranks[],
                                MPI_Group *newgroup));
SHMPI_ABI_API(int, Group_range_incl, (MPI_Group group, int n,
                                      int ranges[][3], MPI_Group *newgroup));
SHMPI_ABI_API(int, Group_range_excl, (MPI_Group group, int n,
                                      int ranges[][3], MPI_Group *newgroup));
SHMPI_ABI_API(int, Group_free, (MPI_Group *group));
SHMPI_ABI_API(int, Comm_group, (MPI_Comm comm, MPI_Group *group));
SHMPI_ABI_API(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group));
SHMPI_ABI_API(int, Comm_create, (MPI_Comm comm, MPI_Group group,
                                 MPI_Comm *newcomm));
SHMPI_ABI_API(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag,
                                       MPI_Comm *newcomm));
SHMPI_ABI_API(int, Comm_create_from_group,
              (MPI_Group group, const char *stringtag, MPI_Info info,
               MPI_Errhandler errhandler, MPI_Comm *newcomm));

/* virtual topologies and neighbor collectives */
SHMPI_ABI_API(int, Cart_create, (MPI_Comm comm, int ndims, const int dims[],
                                 const int periods[], int reorder,
                                 MPI_Comm *newcomm));
SHMPI_ABI_API(int, Cart_sub, (MPI_Comm comm, const int remain_dims[],
                              MPI_Comm *newcomm));
SHMPI_ABI_API(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[],
                              int periods[], int coords[]));
SHMPI_ABI_API(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank));
SHMPI_ABI_API(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims,
                                 int coords[]));
SHMPI_ABI_API(int, Cart_shift, (MPI_Comm comm, int direction, int disp,
                                int *rank_source, int *rank_dest));
SHMPI_ABI_API(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[],
                              const int periods[], int *newrank));
SHMPI_ABI_API(int, Cartdim_get, (MPI_Comm comm, int *ndims));
SHMPI_ABI_API(int, Dims_create, (int nnodes, int ndims, int dims[]));
SHMPI_ABI_API(int, Graph_create, (MPI_Comm comm, int nnodes, const int index[],
                                  const int edges[], int reorder,
                                  MPI_Comm *newcomm));
SHMPI_ABI_API(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges));
SHMPI_ABI_API(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges,
                               int index[], int edges[]));
SHMPI_ABI_API(int, Graph_neighbors_count,
              (MPI_Comm comm, int rank, int *nneighbors));
SHMPI_ABI_API(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors,
                                     int neighbors[]));
SHMPI_ABI_API(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[],
                               const int edges[], int *newrank));
SHMPI_ABI_API(int, Dist_graph_create, (MPI_Comm comm, int n,
                                       const int sources[],
                                       const int degrees[],
                                       const int destinations[],
                                       const int *weights, MPI_Info info,
                                       int reorder, MPI_Comm *newcomm));
SHMPI_ABI_API(int, Dist_graph_create_adjacent,
              (MPI_Comm comm, int indegree, const int sources[],
               const int *sourceweights, int outdegree,
               const int destinations[], const int *destweights,
               MPI_Info info, int reorder, MPI_Comm *newcomm));
SHMPI_ABI_API(int, Dist_graph_neighbors_count,
              (MPI_Comm comm, int *indegree, int *outdegree, int *weighted));
SHMPI_ABI_API(int, Dist_graph_neighbors,
              (MPI_Comm comm, int maxindegree, int sources[],
               int *sourceweights, int maxoutdegree, int destinations[],
               int *destweights));
SHMPI_ABI_API(int, Topo_test, (MPI_Comm comm, int *status));
SHMPI_ABI_API(int, Neighbor_allgather, (const void *sendbuf, int sendcount,
                                        MPI_Datatype sendtype, void *recvbuf,
                                        int recvcount, MPI_Datatype recvtype,
                                        MPI_Comm comm));
SHMPI_ABI_API(int, Neighbor_allgatherv,
              (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
               void *recvbuf, const int recvcounts[], const int displs[],
               MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_ABI_API(int, Neighbor_alltoall, (const void *sendbuf, int sendcount,
                                       MPI_Datatype sendtype, void *recvbuf,
                                       int recvcount, MPI_Datatype recvtype,
                                       MPI_Comm comm));
SHMPI_ABI_API(int, Neighbor_alltoallv, (const void *sendbuf,
                                        const int sendcounts[],
                                        const int sdispls[],
                                        MPI_Datatype sendtype, void *recvbuf,
                                        const int recvcounts[],
                                        const int rdispls[],
                                        MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_ABI_API(int, Neighbor_alltoallw, (const void *sendbuf,
                                        const int sendcounts[],
                                        const MPI_Aint sdispls[],
                                        const MPI_Datatype sendtypes[],
                                        void *recvbuf, const int recvcounts[],
                                        const MPI_Aint rdispls[],
                                        const MPI_Datatype recvtypes[],
                                        MPI_Comm comm));
SHMPI_ABI_API(int, Ineighbor_allgather,
              (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
               void *recvbuf, int recvcount, MPI_Datatype recvtype,
               MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ineighbor_allgatherv,
              (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
               void *recvbuf, const int recvcounts[], const int displs[],
               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ineighbor_alltoall, (const void *sendbuf, int sendcount,
                                        MPI_Datatype sendtype, void *recvbuf,
                                        int recvcount, MPI_Datatype recvtype,
                                        MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ineighbor_alltoallv,
              (const void *sendbuf, const int sendcounts[],
               const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
               const int recvcounts[], const int rdispls[],
               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ineighbor_alltoallw,
              (const void *sendbuf, const int sendcounts[],
               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
               void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
               const MPI_Datatype recvtypes[], MPI_Comm comm,
               MPI_Request *request));
SHMPI_ABI_API(int, Neighbor_allgather_init,
              (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
               void *recvbuf, int recvcount, MPI_Datatype recvtype,
               MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_ABI_API(int, Neighbor_allgatherv_init,
              (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
               void *recvbuf, const int recvcounts[], const int displs[],
               MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
               MPI_Request *request));
SHMPI_ABI_API(int, Neighbor_alltoall_init,
              (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
               void *recvbuf, int recvcount, MPI_Datatype recvtype,
               MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_ABI_API(int, Neighbor_alltoallv_init,
              (const void *sendbuf, const int sendcounts[],
               const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
               const int recvcounts[], const int rdispls[],
               MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
               MPI_Request *request));
SHMPI_ABI_API(int, Neighbor_alltoallw_init,
              (const void *sendbuf, const int sendcounts[],
               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
               void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
               const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
               MPI_Request *request));

/* point to point */
SHMPI_ABI_API(int, Send, (const void *buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm));
SHMPI_ABI_API(int, Ssend, (const void *buf, int count,
                           MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm));
SHMPI_ABI_API(int, Recv, (void *buf, int count, MPI_Datatype datatype,
                          int source, int tag, MPI_Comm comm,
                          MPI_Status *status));
SHMPI_ABI_API(int, Sendrecv, (const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, int dest, int sendtag,
                              void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, int source,
                              int recvtag, MPI_Comm comm,
                              MPI_Status *status));
SHMPI_ABI_API(int, Isend, (const void *buf, int count,
                           MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Irecv, (void *buf, int count, MPI_Datatype datatype,
                           int source, int tag, MPI_Comm comm,
                           MPI_Request *request));
SHMPI_ABI_API(int, Probe, (int source, int tag, MPI_Comm comm,
                           MPI_Status *status));
SHMPI_ABI_API(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag,
                            MPI_Status *status));
SHMPI_ABI_API(int, Wait, (MPI_Request *request, MPI_Status *status));
SHMPI_ABI_API(int, Test, (MPI_Request *request, int *flag,
                          MPI_Status *status));
SHMPI_ABI_API(int, Waitall, (int count, MPI_Request array_of_requests[],
                             MPI_Status array_of_statuses[]));
SHMPI_ABI_API(int, Request_free, (MPI_Request *request));
SHMPI_ABI_API(int, Get_count, (const MPI_Status *status,
                               MPI_Datatype datatype, int *count));
SHMPI_ABI_API(int, Bsend, (const void *buf, int count, MPI_Datatype datatype,
                           int dest, int tag, MPI_Comm comm));
SHMPI_ABI_API(int, Rsend, (const void *buf, int count, MPI_Datatype datatype,
                           int dest, int tag, MPI_Comm comm));
SHMPI_ABI_API(int, Issend, (const void *buf, int count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ibsend, (const void *buf, int count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Irsend, (const void *buf, int count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Send_init, (const void *buf, int count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ssend_init, (const void *buf, int count,
                                MPI_Datatype datatype, int dest, int tag,
                                MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Bsend_init, (const void *buf, int count,
                                MPI_Datatype datatype, int dest, int tag,
                                MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Rsend_init, (const void *buf, int count,
                                MPI_Datatype datatype, int dest, int tag,
                                MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Recv_init, (void *buf, int count, MPI_Datatype datatype,
                               int source, int tag, MPI_Comm comm,
                               MPI_Request *request));
SHMPI_ABI_API(int, Sendrecv_replace, (void *buf, int count,
                                      MPI_Datatype datatype, int dest,
                                      int sendtag, int source, int recvtag,
                                      MPI_Comm comm, MPI_Status *status));
SHMPI_ABI_API(int, Isendrecv, (const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, int dest, int sendtag,
                               void *recvbuf, int recvcount,
                               MPI_Datatype recvtype, int source,
                               int recvtag, MPI_Comm comm,
                               MPI_Request *request));
SHMPI_ABI_API(int, Isendrecv_replace, (void *buf, int count,
                                       MPI_Datatype datatype, int dest,
                                       int sendtag, int source, int recvtag,
                                       MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Buffer_attach, (void *buffer, int size));
SHMPI_ABI_API(int, Buffer_detach, (void *buffer_addr, int *size));
SHMPI_ABI_API(int, Buffer_flush, (void));
SHMPI_ABI_API(int, Buffer_iflush, (MPI_Request *request));
SHMPI_ABI_API(int, Comm_attach_buffer, (MPI_Comm comm, void *buffer,
                                        int size));
SHMPI_ABI_API(int, Comm_detach_buffer, (MPI_Comm comm, void *buffer_addr,
                                        int *size));
SHMPI_ABI_API(int, Comm_flush_buffer, (MPI_Comm comm));
SHMPI_ABI_API(int, Comm_iflush_buffer, (MPI_Comm comm,
                                        MPI_Request *request));
SHMPI_ABI_API(int, Mprobe, (int source, int tag, MPI_Comm comm,
                            MPI_Message *message, MPI_Status *status));
SHMPI_ABI_API(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag,
                             MPI_Message *message, MPI_Status *status));
SHMPI_ABI_API(int, Mrecv, (void *buf, int count, MPI_Datatype datatype,
                           MPI_Message *message, MPI_Status *status));
SHMPI_ABI_API(int, Imrecv, (void *buf, int count, MPI_Datatype datatype,
                            MPI_Message *message, MPI_Request *request));
SHMPI_ABI_API(int, Psend_init, (const void *buf, int partitions,
                                MPI_Count count, MPI_Datatype datatype,
                                int dest, int tag, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request));
SHMPI_ABI_API(int, Precv_init, (void *buf, int partitions, MPI_Count count,
                                MPI_Datatype datatype, int source, int tag,
                                MPI_Comm comm, MPI_Info info,
                                MPI_Request *request));
SHMPI_ABI_API(int, Pready, (int partition, MPI_Request request));
SHMPI_ABI_API(int, Pready_range, (int partition_low, int partition_high,
                                  MPI_Request request));
SHMPI_ABI_API(int, Pready_list, (int length, const int partitions[],
                                 MPI_Request request));
SHMPI_ABI_API(int, Parrived, (MPI_Request request, int partition, int *flag));

/* the large-count (_c) forms of point to point and statuses */
SHMPI_ABI_API(int, Send_c, (const void *buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm));
SHMPI_ABI_API(int, Ssend_c, (const void *buf, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm));
SHMPI_ABI_API(int, Bsend_c, (const void *buf, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm));
SHMPI_ABI_API(int, Rsend_c, (const void *buf, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm));
SHMPI_ABI_API(int, Recv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
                            int source, int tag, MPI_Comm comm,
                            MPI_Status *status));
SHMPI_ABI_API(int, Sendrecv_c, (const void *sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, int dest, int sendtag,
                                void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype recvtype, int source, int recvtag,
                                MPI_Comm comm, MPI_Status *status));
SHMPI_ABI_API(int, Sendrecv_replace_c, (void *buf, MPI_Count count,
                                        MPI_Datatype datatype, int dest,
                                        int sendtag, int source, int recvtag,
                                        MPI_Comm comm, MPI_Status *status));
SHMPI_ABI_API(int, Isend_c, (const void * buf, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Issend_c, (const void * buf, MPI_Count count,
                              MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ibsend_c, (const void * buf, MPI_Count count,
                              MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Irsend_c, (const void * buf, MPI_Count count,
                              MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Irecv_c, (void * buf, MPI_Count count,
                             MPI_Datatype datatype, int source, int tag,
                             MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Send_init_c, (const void * buf, MPI_Count count,
                                 MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ssend_init_c, (const void * buf, MPI_Count count,
                                  MPI_Datatype datatype, int dest, int tag,
                                  MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Bsend_init_c, (const void * buf, MPI_Count count,
                                  MPI_Datatype datatype, int dest, int tag,
                                  MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Rsend_init_c, (const void * buf, MPI_Count count,
                                  MPI_Datatype datatype, int dest, int tag,
                                  MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Recv_init_c, (void * buf, MPI_Count count,
                                 MPI_Datatype datatype, int source, int tag,
                                 MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Isendrecv_c, (const void *sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, int dest, int sendtag,
                                 void *recvbuf, MPI_Count recvcount,
                                 MPI_Datatype recvtype, int source,
                                 int recvtag, MPI_Comm comm,
                                 MPI_Request *request));
SHMPI_ABI_API(int, Isendrecv_replace_c,
              (void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
               int sendtag, int source, int recvtag, MPI_Comm comm,
               MPI_Request *request));
SHMPI_ABI_API(int, Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Message *message, MPI_Status *status));
SHMPI_ABI_API(int, Imrecv_c, (void *buf, MPI_Count count,
                              MPI_Datatype datatype, MPI_Message *message,
                              MPI_Request *request));
SHMPI_ABI_API(int, Get_count_c, (const MPI_Status *status,
                                 MPI_Datatype datatype, MPI_Count *count));
SHMPI_ABI_API(int, Get_elements_c, (const MPI_Status *status,
                                    MPI_Datatype datatype, MPI_Count *count));
SHMPI_ABI_API(int, Status_set_elements_c,
              (MPI_Status *status, MPI_Datatype datatype, MPI_Count count));
SHMPI_ABI_API(int, Buffer_attach_c, (void *buffer, MPI_Count size));
SHMPI_ABI_API(int, Buffer_detach_c, (void *buffer_addr, MPI_Count *size));
SHMPI_ABI_API(int, Comm_attach_buffer_c,
              (MPI_Comm comm, void *buffer, MPI_Count size));
SHMPI_ABI_API(int, Comm_detach_buffer_c,
              (MPI_Comm comm, void *buffer_addr, MPI_Count *size));
SHMPI_ABI_API(int, Session_attach_buffer_c,
              (MPI_Session session, void *buffer, MPI_Count size));
SHMPI_ABI_API(int, Session_detach_buffer_c,
              (MPI_Session session, void *buffer_addr, MPI_Count *size));

/* completion and requests */
SHMPI_ABI_API(int, Waitany, (int count, MPI_Request array_of_requests[],
                             int *index, MPI_Status *status));
SHMPI_ABI_API(int, Testany, (int count, MPI_Request array_of_requests[],
                             int *index, int *flag, MPI_Status *status));
SHMPI_ABI_API(int, Testall, (int count, MPI_Request array_of_requests[],
                             int *flag, MPI_Status array_of_statuses[]));
SHMPI_ABI_API(int, Waitsome, (int incount, MPI_Request array_of_requests[],
                              int *outcount, int array_of_indices[],
                              MPI_Status array_of_statuses[]));
SHMPI_ABI_API(int, Testsome, (int incount, MPI_Request array_of_requests[],
                              int *outcount, int array_of_indices[],
                              MPI_Status array_of_statuses[]));
SHMPI_ABI_API(int, Start, (MPI_Request *request));
SHMPI_ABI_API(int, Startall, (int count, MPI_Request array_of_requests[]));
SHMPI_ABI_API(int, Cancel, (MPI_Request *request));
SHMPI_ABI_API(int, Request_get_status, (MPI_Request request, int *flag,
                                        MPI_Status *status));
SHMPI_ABI_API(int, Request_get_status_any,
              (int count, MPI_Request reqs[], int *index, int *flag,
               MPI_Status *status));
SHMPI_ABI_API(int, Request_get_status_all,
              (int count, MPI_Request reqs[], int *flag, MPI_Status st[]));
SHMPI_ABI_API(int, Request_get_status_some,
              (int count, MPI_Request reqs[], int *outcount, int indices[],
               MPI_Status st[]));
SHMPI_ABI_API(int, Grequest_start,
              (MPI_Grequest_query_function *query_fn,
               MPI_Grequest_free_function *free_fn,
               MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
               MPI_Request *request));
SHMPI_ABI_API(int, Grequest_complete, (MPI_Request request));

/* statuses */
SHMPI_ABI_API(int, Get_elements, (const MPI_Status *status,
                                  MPI_Datatype datatype, int *count));
SHMPI_ABI_API(int, Get_elements_x, (const MPI_Status *status,
                                    MPI_Datatype datatype, MPI_Count *count));
SHMPI_ABI_API(int, Test_cancelled, (const MPI_Status *status, int *flag));
SHMPI_ABI_API(int, Status_set_cancelled, (MPI_Status *status, int flag));
SHMPI_ABI_API(int, Status_set_elements, (MPI_Status *status,
                                         MPI_Datatype datatype, int count));
SHMPI_ABI_API(int, Status_set_elements_x, (MPI_Status *status,
                                           MPI_Datatype datatype,
                                           MPI_Count count));
SHMPI_ABI_API(int, Status_get_source, (MPI_Status *status, int *source));
SHMPI_ABI_API(int, Status_set_source, (MPI_Status *status, int source));
SHMPI_ABI_API(int, Status_get_tag, (MPI_Status *status, int *tag));
SHMPI_ABI_API(int, Status_set_tag, (MPI_Status *status, int tag));
SHMPI_ABI_API(int, Status_get_error, (MPI_Status *status, int *error));
SHMPI_ABI_API(int, Status_set_error, (MPI_Status *status, int error));

/* collectives */
SHMPI_ABI_API(int, Barrier, (MPI_Comm comm));
SHMPI_ABI_API(int, Bcast, (void *buffer, int count, MPI_Datatype datatype,
                           int root, MPI_Comm comm));
SHMPI_ABI_API(int, Reduce, (const void *sendbuf, void *recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, int root,
                            MPI_Comm comm));
SHMPI_ABI_API(int, Allreduce, (const void *sendbuf, void *recvbuf,
                               int count, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm));
SHMPI_ABI_API(int, Gather, (const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm));
SHMPI_ABI_API(int, Scatter, (const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm));
SHMPI_ABI_API(int, Allgather, (const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm));
SHMPI_ABI_API(int, Alltoall, (const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm));
SHMPI_ABI_API(int, Gatherv, (const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, int root, MPI_Comm comm));
SHMPI_ABI_API(int, Scatterv, (const void *sendbuf, const int sendcounts[],
                              const int displs[], MPI_Datatype sendtype,
                              void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, int root,
                              MPI_Comm comm));
SHMPI_ABI_API(int, Allgatherv, (const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                const int recvcounts[], const int displs[],
                                MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_ABI_API(int, Alltoallv, (const void *sendbuf, const int sendcounts[],
                               const int sdispls[], MPI_Datatype sendtype,
                               void *recvbuf, const int recvcounts[],
                               const int rdispls[], MPI_Datatype recvtype,
                               MPI_Comm comm));
SHMPI_ABI_API(int, Reduce_scatter_block, (const void *sendbuf,
                                          void *recvbuf, int recvcount,
                                          MPI_Datatype datatype, MPI_Op op,
                                          MPI_Comm comm));
SHMPI_ABI_API(int, Scan, (const void *sendbuf, void *recvbuf, int count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHMPI_ABI_API(int, Exscan, (const void *sendbuf, void *recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm));
SHMPI_ABI_API(int, Alltoallw, (const void *sendbuf, const int sendcounts[],
                               const int sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf,
                               const int recvcounts[], const int rdispls[],
                               const MPI_Datatype recvtypes[], MPI_Comm comm));
SHMPI_ABI_API(int, Reduce_scatter, (const void *sendbuf, void *recvbuf,
                                    const int recvcounts[],
                                    MPI_Datatype datatype, MPI_Op op,
                                    MPI_Comm comm));

/* nonblocking and persistent collectives */
SHMPI_ABI_API(int, Ibarrier, (MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ibcast, (void *buf, int count, MPI_Datatype datatype,
                            int root, MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ireduce, (const void *sendbuf, void *recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, int root,
                             MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op,
                                MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Igather, (const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Igatherv, (const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Request *request));
SHMPI_ABI_API(int, Iscatter, (const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, int root,
                              MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Iscatterv, (const void *sendbuf, const int sendcounts[],
                               const int displs[], MPI_Datatype sendtype,
                               void *recvbuf, int recvcount,
                               MPI_Datatype recvtype, int root, MPI_Comm comm,
                               MPI_Request *request));
SHMPI_ABI_API(int, Iallgather, (const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Iallgatherv, (const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Request *request));
SHMPI_ABI_API(int, Ialltoall, (const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ialltoallv, (const void *sendbuf, const int sendcounts[],
                                const int sdispls[], MPI_Datatype sendtype,
                                void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ialltoallw, (const void *sendbuf, const int sendcounts[],
                                const int sdispls[],
                                const MPI_Datatype sendtypes[], void *recvbuf,
                                const int recvcounts[], const int rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm,
                                MPI_Request *request));
SHMPI_ABI_API(int, Ireduce_scatter_block,
              (const void *sendbuf, void *recvbuf, int recvcount,
               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Request *request));
SHMPI_ABI_API(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf,
                                     const int recvcounts[],
                                     MPI_Datatype datatype, MPI_Op op,
                                     MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Iscan, (const void *sendbuf, void *recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                           MPI_Request *request));
SHMPI_ABI_API(int, Iexscan, (const void *sendbuf, void *recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             MPI_Request *request));
SHMPI_ABI_API(int, Barrier_init, (MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request));
SHMPI_ABI_API(int, Bcast_init, (void *buf, int count, MPI_Datatype datatype,
                                int root, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request));
SHMPI_ABI_API(int, Reduce_init, (const void *sendbuf, void *recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op, int root,
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request));
SHMPI_ABI_API(int, Allreduce_init, (const void *sendbuf, void *recvbuf,
                                    int count, MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request));
SHMPI_ABI_API(int, Gather_init, (const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype,
                                 int root, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request));
SHMPI_ABI_API(int, Gatherv_init, (const void *sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void *recvbuf,
                                  const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, int root,
                                  MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request));
SHMPI_ABI_API(int, Scatter_init, (const void *sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void *recvbuf,
                                  int recvcount, MPI_Datatype recvtype,
                                  int root, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request));
SHMPI_ABI_API(int, Scatterv_init, (const void *sendbuf, const int sendcounts[],
                                   const int displs[], MPI_Datatype sendtype,
                                   void *recvbuf, int recvcount,
                                   MPI_Datatype recvtype, int root,
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request));
SHMPI_ABI_API(int, Allgather_init, (const void *sendbuf, int sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    int recvcount, MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request));
SHMPI_ABI_API(int, Allgatherv_init, (const void *sendbuf, int sendcount,
                                     MPI_Datatype sendtype, void *recvbuf,
                                     const int recvcounts[],
                                     const int displs[], MPI_Datatype recvtype,
                                     MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request));
SHMPI_ABI_API(int, Alltoall_init, (const void *sendbuf, int sendcount,
                                   MPI_Datatype sendtype, void *recvbuf,
                                   int recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request));
SHMPI_ABI_API(int, Alltoallv_init, (const void *sendbuf,
                                    const int sendcounts[],
                                    const int sdispls[], MPI_Datatype sendtype,
                                    void *recvbuf, const int recvcounts[],
                                    const int rdispls[], MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request));
SHMPI_ABI_API(int, Alltoallw_init, (const void *sendbuf,
                                    const int sendcounts[],
                                    const int sdispls[],
                                    const MPI_Datatype sendtypes[],
                                    void *recvbuf, const int recvcounts[],
                                    const int rdispls[],
                                    const MPI_Datatype recvtypes[],
                                    MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request));
SHMPI_ABI_API(int, Reduce_scatter_block_init,
              (const void *sendbuf, void *recvbuf, int recvcount,
               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
               MPI_Request *request));
SHMPI_ABI_API(int, Reduce_scatter_init,
              (const void *sendbuf, void *recvbuf, const int recvcounts[],
               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
               MPI_Request *request));
SHMPI_ABI_API(int, Scan_init, (const void *sendbuf, void *recvbuf, int count,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Info info, MPI_Request *request));
SHMPI_ABI_API(int, Exscan_init, (const void *sendbuf, void *recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op,
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request));

/* the large-count (_c) forms of the collectives */
SHMPI_ABI_API(int, Bcast_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
                             int root, MPI_Comm comm));
SHMPI_ABI_API(int, Reduce_c, (const void *sendbuf, void *recvbuf,
                              MPI_Count count, MPI_Datatype datatype,
                              MPI_Op op, int root, MPI_Comm comm));
SHMPI_ABI_API(int, Allreduce_c, (const void *sendbuf, void *recvbuf,
                                 MPI_Count count, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm));
SHMPI_ABI_API(int, Scan_c, (const void *sendbuf, void *recvbuf,
                            MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm));
SHMPI_ABI_API(int, Exscan_c, (const void *sendbuf, void *recvbuf,
                              MPI_Count count, MPI_Datatype datatype,
                              MPI_Op op, MPI_Comm comm));
SHMPI_ABI_API(int, Gather_c, (const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              int root, MPI_Comm comm));
SHMPI_ABI_API(int, Scatter_c, (const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype,
                               int root, MPI_Comm comm));
SHMPI_ABI_API(int, Allgather_c, (const void *sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm));
SHMPI_ABI_API(int, Alltoall_c, (const void *sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm));
SHMPI_ABI_API(int, Neighbor_allgather_c,
              (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
               MPI_Comm comm));
SHMPI_ABI_API(int, Neighbor_alltoall_c,
              (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
               MPI_Comm comm));
SHMPI_ABI_API(int, Gatherv_c, (const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[],
                               const MPI_Aint displs[], MPI_Datatype recvtype,
                               int root, MPI_Comm comm));
SHMPI_ABI_API(int, Scatterv_c, (const void *sendbuf,
                                const MPI_Count sendcounts[],
                                const MPI_Aint displs[], MPI_Datatype sendtype,
                                void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype recvtype, int root,
                                MPI_Comm comm));
SHMPI_ABI_API(int, Allgatherv_c, (const void *sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void *recvbuf,
                                  const MPI_Count recvcounts[],
                                  const MPI_Aint displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_ABI_API(int, Neighbor_allgatherv_c,
              (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
               void *recvbuf, const MPI_Count recvcounts[],
               const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_ABI_API(int, Alltoallv_c, (const void *sendbuf,
                                 const MPI_Count sendcounts[],
                                 const MPI_Aint sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf,
                                 const MPI_Count recvcounts[],
                                 const MPI_Aint rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_ABI_API(int, Neighbor_alltoallv_c,
              (const void *sendbuf, const MPI_Count sendcounts[],
               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
               MPI_Datatype recvtype, MPI_Comm comm));
SHMPI_ABI_API(int, Alltoallw_c,
              (const void *sendbuf, const MPI_Count sendcounts[],
               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
               void *recvbuf, const MPI_Count recvcounts[],
               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
               MPI_Comm comm));
SHMPI_ABI_API(int, Neighbor_alltoallw_c,
              (const void *sendbuf, const MPI_Count sendcounts[],
               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
               void *recvbuf, const MPI_Count recvcounts[],
               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
               MPI_Comm comm));
SHMPI_ABI_API(int, Reduce_scatter_block_c,
              (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
SHMPI_ABI_API(int, Reduce_scatter_c, (const void *sendbuf, void *recvbuf,
                                      const MPI_Count recvcounts[],
                                      MPI_Datatype datatype, MPI_Op op,
                                      MPI_Comm comm));
SHMPI_ABI_API(int, Ibcast_c, (void *buf, MPI_Count count,
                              MPI_Datatype datatype, int root, MPI_Comm comm,
                              MPI_Request *request));
SHMPI_ABI_API(int, Ireduce_c, (const void *sendbuf, void *recvbuf,
                               MPI_Count count, MPI_Datatype datatype,
                               MPI_Op op, int root, MPI_Comm comm,
                               MPI_Request *request));
SHMPI_ABI_API(int, Iallreduce_c, (const void *sendbuf, void *recvbuf,
                                  MPI_Count count, MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm,
                                  MPI_Request *request));
SHMPI_ABI_API(int, Iscan_c, (const void *sendbuf, void *recvbuf,
                             MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Iexscan_c, (const void *sendbuf, void *recvbuf,
                               MPI_Count count, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm,
                               MPI_Request *request));
SHMPI_ABI_API(int, Igather_c, (const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype,
                               int root, MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Iscatter_c, (const void *sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype,
                                int root, MPI_Comm comm,
                                MPI_Request *request));
SHMPI_ABI_API(int, Iallgather_c, (const void *sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ialltoall_c, (const void *sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, void *recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ineighbor_allgather_c,
              (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
               MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ineighbor_alltoall_c,
              (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
               MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Igatherv_c, (const void *sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype,
                                int root, MPI_Comm comm,
                                MPI_Request *request));
SHMPI_ABI_API(int, Iscatterv_c, (const void *sendbuf,
                                 const MPI_Count sendcounts[],
                                 const MPI_Aint displs[],
                                 MPI_Datatype sendtype, void *recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype,
                                 int root, MPI_Comm comm,
                                 MPI_Request *request));
SHMPI_ABI_API(int, Iallgatherv_c, (const void *sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Count recvcounts[],
                                   const MPI_Aint displs[],
                                   MPI_Datatype recvtype, MPI_Comm comm,
                                   MPI_Request *request));
SHMPI_ABI_API(int, Ineighbor_allgatherv_c,
              (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
               void *recvbuf, const MPI_Count recvcounts[],
               const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
               MPI_Request *request));
SHMPI_ABI_API(int, Ialltoallv_c, (const void *sendbuf,
                                  const MPI_Count sendcounts[],
                                  const MPI_Aint sdispls[],
                                  MPI_Datatype sendtype, void *recvbuf,
                                  const MPI_Count recvcounts[],
                                  const MPI_Aint rdispls[],
                                  MPI_Datatype recvtype, MPI_Comm comm,
                                  MPI_Request *request));
SHMPI_ABI_API(int, Ineighbor_alltoallv_c,
              (const void *sendbuf, const MPI_Count sendcounts[],
               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ialltoallw_c,
              (const void *sendbuf, const MPI_Count sendcounts[],
               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
               void *recvbuf, const MPI_Count recvcounts[],
               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
               MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ineighbor_alltoallw_c,
              (const void *sendbuf, const MPI_Count sendcounts[],
               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
               void *recvbuf, const MPI_Count recvcounts[],
               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
               MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Ireduce_scatter_block_c,
              (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Request *request));
SHMPI_ABI_API(int, Ireduce_scatter_c, (const void *sendbuf, void *recvbuf,
                                       const MPI_Count recvcounts[],
                                       MPI_Datatype datatype, MPI_Op op,
                                       MPI_Comm comm, MPI_Request *request));
SHMPI_ABI_API(int, Bcast_init_c, (void *buf, MPI_Count count,
                                  MPI_Datatype datatype, int root,
                                  MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request));
SHMPI_ABI_API(int, Reduce_init_c, (const void *sendbuf, void *recvbuf,
                                   MPI_Count count, MPI_Datatype datatype,
                                   MPI_Op op, int root, MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request));
SHMPI_ABI_API(int, Allreduce_init_c, (const void *sendbuf, void *recvbuf,
                                      MPI_Count count, MPI_Datatype datatype,
                                      MPI_Op op, MPI_Comm comm, MPI_Info info,
                                      MPI_Request *request));
SHMPI_ABI_API(int, Scan_init_c, (const void *sendbuf, void *recvbuf,
                                 MPI_Count count, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request));
SHMPI_ABI_API(int, Exscan_init_c, (const void *sendbuf, void *recvbuf,
                                   MPI_Count count, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request));
SHMPI_ABI_API(int, Gather_init_c, (const void *sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype,
                                   int root, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request));
SHMPI_ABI_API(int, Scatter_init_c, (const void *sendbuf, MPI_Count sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    MPI_Count recvcount, MPI_Datatype recvtype,
                                    int root, MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request));
SHMPI_ABI_API(int, Allgather_init_c, (const void *sendbuf, MPI_Count sendcount,
                                      MPI_Datatype sendtype, void *recvbuf,
                                      MPI_Count recvcount,
                                      MPI_Datatype recvtype, MPI_Comm comm,
                                      MPI_Info info, MPI_Request *request));
SHMPI_ABI_API(int, Alltoall_init_c, (const void *sendbuf, MPI_Count sendcount,
                                     MPI_Datatype sendtype, void *recvbuf,
                                     MPI_Count recvcount,
                                     MPI_Datatype recvtype, MPI_Comm comm,
                                     MPI_Info info, MPI_Request *request));
SHMPI_ABI_API(int, Neighbor_allgather_init_c,
              (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
               MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_ABI_API(int, Neighbor_alltoall_init_c,
              (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
               MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_ABI_API(int, Gatherv_init_c, (const void *sendbuf, MPI_Count sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[],
                                    const MPI_Aint displs[],
                                    MPI_Datatype recvtype, int root,
                                    MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request));
SHMPI_ABI_API(int, Scatterv_init_c, (const void *sendbuf,
                                     const MPI_Count sendcounts[],
                                     const MPI_Aint displs[],
                                     MPI_Datatype sendtype, void *recvbuf,
                                     MPI_Count recvcount,
                                     MPI_Datatype recvtype, int root,
                                     MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request));
SHMPI_ABI_API(int, Allgatherv_init_c, (const void *sendbuf,
                                       MPI_Count sendcount,
                                       MPI_Datatype sendtype, void *recvbuf,
                                       const MPI_Count recvcounts[],
                                       const MPI_Aint displs[],
                                       MPI_Datatype recvtype, MPI_Comm comm,
                                       MPI_Info info, MPI_Request *request));
SHMPI_ABI_API(int, Neighbor_allgatherv_init_c,
              (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
               void *recvbuf, const MPI_Count recvcounts[],
               const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
               MPI_Info info, MPI_Request *request));
SHMPI_ABI_API(int, Alltoallv_init_c, (const void *sendbuf,
                                      const MPI_Count sendcounts[],
                                      const MPI_Aint sdispls[],
                                      MPI_Datatype sendtype, void *recvbuf,
                                      const MPI_Count recvcounts[],
                                      const MPI_Aint rdispls[],
                                      MPI_Datatype recvtype, MPI_Comm comm,
                                      MPI_Info info, MPI_Request *request));
SHMPI_ABI_API(int, Neighbor_alltoallv_init_c,
              (const void *sendbuf, const MPI_Count sendcounts[],
               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
               MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
               MPI_Request *request));
SHMPI_ABI_API(int, Alltoallw_init_c,
              (const void *sendbuf, const MPI_Count sendcounts[],
               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
               void *recvbuf, const MPI_Count recvcounts[],
               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
               MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_ABI_API(int, Neighbor_alltoallw_init_c,
              (const void *sendbuf, const MPI_Count sendcounts[],
               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
               void *recvbuf, const MPI_Count recvcounts[],
               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
               MPI_Comm comm, MPI_Info info, MPI_Request *request));
SHMPI_ABI_API(int, Reduce_scatter_block_init_c,
              (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
               MPI_Request *request));
SHMPI_ABI_API(int, Reduce_scatter_init_c,
              (const void *sendbuf, void *recvbuf,
               const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Info info, MPI_Request *request));

/* datatypes and operations */
SHMPI_ABI_API(int, Type_contiguous, (int count, MPI_Datatype oldtype,
                                     MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_vector, (int count, int blocklength, int stride,
                                 MPI_Datatype oldtype,
                                 MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_struct,
              (int count, const int array_of_blocklengths[],
               const MPI_Aint array_of_displacements[],
               const MPI_Datatype array_of_types[], MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_indexed, (int count, const int array_of_blocklengths[],
                                  const int array_of_displacements[],
                                  MPI_Datatype oldtype,
                                  MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_hvector, (int count, int blocklength,
                                         MPI_Aint stride,
                                         MPI_Datatype oldtype,
                                         MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb,
                                         MPI_Aint extent,
                                         MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_get_true_extent, (MPI_Datatype datatype,
                                          MPI_Aint *true_lb,
                                          MPI_Aint *true_extent));
SHMPI_ABI_API(int, Type_commit, (MPI_Datatype *datatype));
SHMPI_ABI_API(int, Type_free, (MPI_Datatype *datatype));
SHMPI_ABI_API(int, Type_size, (MPI_Datatype datatype, int *size));
SHMPI_ABI_API(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb,
                                     MPI_Aint *extent));
SHMPI_ABI_API(int, Type_create_hindexed,
              (int count, const int blocklengths[],
               const MPI_Aint displacements[], MPI_Datatype oldtype,
               MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_indexed_block,
              (int count, int blocklength, const int displacements[],
               MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_hindexed_block,
              (int count, int blocklength, const MPI_Aint displacements[],
               MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_subarray,
              (int ndims, const int sizes[], const int subsizes[],
               const int starts[], int order, MPI_Datatype oldtype,
               MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_darray, (int size, int rank, int ndims,
                                        const int gsizes[],
                                        const int distribs[],
                                        const int dargs[], const int psizes[],
                                        int order, MPI_Datatype oldtype,
                                        MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_f90_integer, (int r, MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_f90_real,
              (int p, int r, MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_f90_complex,
              (int p, int r, MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_match_size, (int typeclass, int size,
                                     MPI_Datatype *datatype));
SHMPI_ABI_API(int, Type_get_value_index,
              (MPI_Datatype value_type, MPI_Datatype index_type,
               MPI_Datatype *pair_type));
SHMPI_ABI_API(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size));
SHMPI_ABI_API(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb,
                                       MPI_Count *extent));
SHMPI_ABI_API(int, Type_get_true_extent_x,
              (MPI_Datatype datatype, MPI_Count *true_lb,
               MPI_Count *true_extent));
SHMPI_ABI_API(int, Type_set_name, (MPI_Datatype datatype,
                                   const char *type_name));
SHMPI_ABI_API(int, Type_get_name, (MPI_Datatype datatype, char *type_name,
                                   int *resultlen));
SHMPI_ABI_API(int, Type_get_envelope, (MPI_Datatype datatype,
                                       int *num_integers, int *num_addresses,
                                       int *num_datatypes, int *combiner));
SHMPI_ABI_API(int, Type_get_contents, (MPI_Datatype datatype, int max_integers,
                                       int max_addresses, int max_datatypes,
                                       int integers[], MPI_Aint addresses[],
                                       MPI_Datatype datatypes[]));
SHMPI_ABI_API(int, Get_address, (const void *location, MPI_Aint *address));
SHMPI_ABI_API(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp));
SHMPI_ABI_API(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2));
SHMPI_ABI_API(int, Pack, (const void *inbuf, int incount,
                          MPI_Datatype datatype, void *outbuf, int outsize,
                          int *position, MPI_Comm comm));
SHMPI_ABI_API(int, Unpack, (const void *inbuf, int insize, int *position,
                            void *outbuf, int outcount, MPI_Datatype datatype,
                            MPI_Comm comm));
SHMPI_ABI_API(int, Pack_size, (int incount, MPI_Datatype datatype,
                               MPI_Comm comm, int *size));
SHMPI_ABI_API(int, Pack_external, (const char datarep[], const void *inbuf,
                                   int incount, MPI_Datatype datatype,
                                   void *outbuf, MPI_Aint outsize,
                                   MPI_Aint *position));
SHMPI_ABI_API(int, Unpack_external, (const char datarep[], const void *inbuf,
                                     MPI_Aint insize, MPI_Aint *position,
                                     void *outbuf, int outcount,
                                     MPI_Datatype datatype));
SHMPI_ABI_API(int, Pack_external_size, (const char datarep[], int incount,
                                        MPI_Datatype datatype,
                                        MPI_Aint *size));
SHMPI_ABI_API(int, Type_contiguous_c, (MPI_Count count, MPI_Datatype oldtype,
                                       MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_vector_c, (MPI_Count count, MPI_Count blocklength,
                                   MPI_Count stride, MPI_Datatype oldtype,
                                   MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_hvector_c,
              (MPI_Count count, MPI_Count blocklength, MPI_Count stride,
               MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_resized_c,
              (MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
               MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_size_c, (MPI_Datatype datatype, MPI_Count *size));
SHMPI_ABI_API(int, Type_get_extent_c, (MPI_Datatype datatype, MPI_Count *lb,
                                       MPI_Count *extent));
SHMPI_ABI_API(int, Type_get_true_extent_c,
              (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent));
SHMPI_ABI_API(int, Type_indexed_c,
              (MPI_Count count, const MPI_Count array_of_blocklengths[],
               const MPI_Count array_of_displacements[],
               MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_hindexed_c,
              (MPI_Count count, const MPI_Count array_of_blocklengths[],
               const MPI_Count array_of_displacements[],
               MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_indexed_block_c,
              (MPI_Count count, MPI_Count blocklength,
               const MPI_Count array_of_displacements[],
               MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_hindexed_block_c,
              (MPI_Count count, MPI_Count blocklength,
               const MPI_Count array_of_displacements[],
               MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_struct_c,
              (MPI_Count count, const MPI_Count array_of_blocklengths[],
               const MPI_Count array_of_displacements[],
               const MPI_Datatype array_of_types[], MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_subarray_c,
              (int ndims, const MPI_Count array_of_sizes[],
               const MPI_Count array_of_subsizes[],
               const MPI_Count array_of_starts[], int order,
               MPI_Datatype oldtype, MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_create_darray_c,
              (int size, int rank, int ndims,
               const MPI_Count array_of_gsizes[],
               const int array_of_distribs[], const int array_of_dargs[],
               const int array_of_psizes[], int order, MPI_Datatype oldtype,
               MPI_Datatype *newtype));
SHMPI_ABI_API(int, Type_get_envelope_c,
              (MPI_Datatype datatype, MPI_Count *num_integers,
               MPI_Count *num_addresses, MPI_Count *num_large_counts,
               MPI_Count *num_datatypes, int *combiner));
SHMPI_ABI_API(int, Type_get_contents_c,
              (MPI_Datatype datatype, MPI_Count max_integers,
               MPI_Count max_addresses, MPI_Count max_large_counts,
               MPI_Count max_datatypes, int array_of_integers[],
               MPI_Aint array_of_addresses[],
               MPI_Count array_of_large_counts[],
               MPI_Datatype array_of_datatypes[]));
SHMPI_ABI_API(int, Pack_c, (const void *inbuf, MPI_Count incount,
                            MPI_Datatype datatype, void *outbuf,
                            MPI_Count outsize, MPI_Count *position,
                            MPI_Comm comm));
SHMPI_ABI_API(int, Unpack_c, (const void *inbuf, MPI_Count insize,
                              MPI_Count *position, void *outbuf,
                              MPI_Count outcount, MPI_Datatype datatype,
                              MPI_Comm comm));
SHMPI_ABI_API(int, Pack_size_c, (MPI_Count incount, MPI_Datatype datatype,
                                 MPI_Comm comm, MPI_Count *size));
SHMPI_ABI_API(int, Pack_external_c, (const char datarep[], const void *inbuf,
                                     MPI_Count incount, MPI_Datatype datatype,
                                     void *outbuf, MPI_Count outsize,
                                     MPI_Count *position));
SHMPI_ABI_API(int, Unpack_external_c, (const char datarep[], const void *inbuf,
                                       MPI_Count insize, MPI_Count *position,
                                       void *outbuf, MPI_Count outcount,
                                       MPI_Datatype datatype));
SHMPI_ABI_API(int, Pack_external_size_c,
              (const char datarep[], MPI_Count incount, MPI_Datatype datatype,
               MPI_Count *size));
SHMPI_ABI_API(int, Reduce_local_c, (const void *inbuf, void *inoutbuf,
                                    MPI_Count count, MPI_Datatype datatype,
                                    MPI_Op op));
SHMPI_ABI_API(int, Op_create, (MPI_User_function *user_fn, int commute,
                               MPI_Op *op));
SHMPI_ABI_API(int, Op_create_c, (MPI_User_function_c *user_fn, int commute,
                                 MPI_Op *op));
SHMPI_ABI_API(int, Op_free, (MPI_Op *op));
SHMPI_ABI_API(int, Op_commutative, (MPI_Op op, int *commute));
SHMPI_ABI_API(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count,
                                  MPI_Datatype datatype, MPI_Op op));

/* attributes and keyvals */
SHMPI_ABI_API(int, Comm_create_keyval,
              (MPI_Comm_copy_attr_function *comm_copy_attr_fn,
               MPI_Comm_delete_attr_function *comm_delete_attr_fn,
               int *comm_keyval, void *extra_state));
SHMPI_ABI_API(int, Comm_free_keyval, (int *comm_keyval));
SHMPI_ABI_API(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval,
                                   void *attribute_val));
SHMPI_ABI_API(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval,
                                   void *attribute_val, int *flag));
SHMPI_ABI_API(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval));
/* the MPI-1 forms (deprecated since MPI-2.0) */
SHMPI_ABI_API(int, Keyval_create, (MPI_Copy_function *copy_fn,
                                   MPI_Delete_function *delete_fn,
                                   int *keyval, void *extra_state));
SHMPI_ABI_API(int, Keyval_free, (int *keyval));
SHMPI_ABI_API(int, Attr_put, (MPI_Comm comm, int keyval,
                              void *attribute_val));
SHMPI_ABI_API(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val,
                              int *flag));
SHMPI_ABI_API(int, Attr_delete, (MPI_Comm comm, int keyval));
SHMPI_ABI_API(int, Type_create_keyval,
              (MPI_Type_copy_attr_function *type_copy_attr_fn,
               MPI_Type_delete_attr_function *type_delete_attr_fn,
               int *type_keyval, void *extra_state));
SHMPI_ABI_API(int, Type_free_keyval, (int *type_keyval));
SHMPI_ABI_API(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval,
                                   void *attribute_val));
SHMPI_ABI_API(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval,
                                   void *attribute_val, int *flag));
SHMPI_ABI_API(int, Type_delete_attr, (MPI_Datatype datatype,
                                      int type_keyval));

/* one-sided communication */
SHMPI_ABI_API(int, Win_create, (void *base, MPI_Aint size, int disp_unit,
                                MPI_Info info, MPI_Comm comm, MPI_Win *win));
SHMPI_ABI_API(int, Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info,
                                  MPI_Comm comm, void *baseptr, MPI_Win *win));
SHMPI_ABI_API(int, Win_allocate_shared,
              (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
               void *baseptr, MPI_Win *win));
SHMPI_ABI_API(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm,
                                        MPI_Win *win));
SHMPI_ABI_API(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size,
                                      int *disp_unit, void *baseptr));
SHMPI_ABI_API(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size));
SHMPI_ABI_API(int, Win_detach, (MPI_Win win, const void *base));
SHMPI_ABI_API(int, Win_free, (MPI_Win *win));
SHMPI_ABI_API(int, Win_get_group, (MPI_Win win, MPI_Group *group));
SHMPI_ABI_API(int, Win_set_name, (MPI_Win win, const char *win_name));
SHMPI_ABI_API(int, Win_get_name, (MPI_Win win, char *win_name,
                                  int *resultlen));
SHMPI_ABI_API(int, Win_set_info, (MPI_Win win, MPI_Info info));
SHMPI_ABI_API(int, Win_get_info, (MPI_Win win, MPI_Info *info_used));
SHMPI_ABI_API(int, Win_create_errhandler,
              (MPI_Win_errhandler_function *win_errhandler_fn,
               MPI_Errhandler *errhandler));
SHMPI_ABI_API(int, Win_set_errhandler, (MPI_Win win,
                                        MPI_Errhandler errhandler));
SHMPI_ABI_API(int, Win_get_errhandler, (MPI_Win win,
                                        MPI_Errhandler *errhandler));
SHMPI_ABI_API(int, Win_call_errhandler, (MPI_Win win, int errorcode));
SHMPI_ABI_API(int, Win_fence, (int assert, MPI_Win win));
SHMPI_ABI_API(int, Win_lock, (int lock_type, int rank, int assert,
                              MPI_Win win));
SHMPI_ABI_API(int, Win_lock_all, (int assert, MPI_Win win));
SHMPI_ABI_API(int, Win_unlock, (int rank, MPI_Win win));
SHMPI_ABI_API(int, Win_flush, (int rank, MPI_Win win));
SHMPI_ABI_API(int, Win_flush_local, (int rank, MPI_Win win));
SHMPI_ABI_API(int, Win_unlock_all, (MPI_Win win));
SHMPI_ABI_API(int, Win_flush_all, (MPI_Win win));
SHMPI_ABI_API(int, Win_flush_local_all, (MPI_Win win));
SHMPI_ABI_API(int, Win_sync, (MPI_Win win));
SHMPI_ABI_API(int, Win_complete, (MPI_Win win));
SHMPI_ABI_API(int, Win_wait, (MPI_Win win));
SHMPI_ABI_API(int, Win_post, (MPI_Group group, int assert, MPI_Win win));
SHMPI_ABI_API(int, Win_start, (MPI_Group group, int assert, MPI_Win win));
SHMPI_ABI_API(int, Win_test, (MPI_Win win, int *flag));
SHMPI_ABI_API(int, Put, (const void * origin, int origin_count,
                         MPI_Datatype origin_dt, int target_rank,
                         MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_dt, MPI_Win win));
SHMPI_ABI_API(int, Rput, (const void * origin, int origin_count,
                          MPI_Datatype origin_dt, int target_rank,
                          MPI_Aint target_disp, int target_count,
                          MPI_Datatype target_dt, MPI_Win win,
                          MPI_Request *request));
SHMPI_ABI_API(int, Get, (void * origin, int origin_count,
                         MPI_Datatype origin_dt, int target_rank,
                         MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_dt, MPI_Win win));
SHMPI_ABI_API(int, Rget, (void * origin, int origin_count,
                          MPI_Datatype origin_dt, int target_rank,
                          MPI_Aint target_disp, int target_count,
                          MPI_Datatype target_dt, MPI_Win win,
                          MPI_Request *request));
SHMPI_ABI_API(int, Accumulate, (const void *origin, int origin_count,
                                MPI_Datatype origin_dt, int target_rank,
                                MPI_Aint target_disp, int target_count,
                                MPI_Datatype target_dt, MPI_Op op,
                                MPI_Win win));
SHMPI_ABI_API(int, Raccumulate, (const void *origin, int origin_count,
                                 MPI_Datatype origin_dt, int target_rank,
                                 MPI_Aint target_disp, int target_count,
                                 MPI_Datatype target_dt, MPI_Op op,
                                 MPI_Win win, MPI_Request *request));
SHMPI_ABI_API(int, Get_accumulate, (const void *origin, int origin_count,
                                    MPI_Datatype origin_dt, void *result,
                                    int result_count, MPI_Datatype result_dt,
                                    int target_rank, MPI_Aint target_disp,
                                    int target_count, MPI_Datatype target_dt,
                                    MPI_Op op, MPI_Win win));
SHMPI_ABI_API(int, Rget_accumulate, (const void *origin, int origin_count,
                                     MPI_Datatype origin_dt, void *result,
                                     int result_count, MPI_Datatype result_dt,
                                     int target_rank, MPI_Aint target_disp,
                                     int target_count, MPI_Datatype target_dt,
                                     MPI_Op op, MPI_Win win,
                                     MPI_Request *request));
SHMPI_ABI_API(int, Fetch_and_op, (const void *origin, void *result,
                                  MPI_Datatype datatype, int target_rank,
                                  MPI_Aint target_disp, MPI_Op op,
                                  MPI_Win win));
SHMPI_ABI_API(int, Compare_and_swap, (const void *origin, const void *compare,
                                      void *result, MPI_Datatype datatype,
                                      int target_rank, MPI_Aint target_disp,
                                      MPI_Win win));
SHMPI_ABI_API(int, Win_create_c, (void *base, MPI_Aint size,
                                  MPI_Aint disp_unit, MPI_Info info,
                                  MPI_Comm comm, MPI_Win *win));
SHMPI_ABI_API(int, Win_allocate_c, (MPI_Aint size, MPI_Aint disp_unit,
                                    MPI_Info info, MPI_Comm comm,
                                    void *baseptr, MPI_Win *win));
SHMPI_ABI_API(int, Win_allocate_shared_c,
              (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
               void *baseptr, MPI_Win *win));
SHMPI_ABI_API(int, Win_shared_query_c, (MPI_Win win, int rank, MPI_Aint *size,
                                        MPI_Aint *disp_unit, void *baseptr));
SHMPI_ABI_API(int, Put_c, (const void * origin, MPI_Count origin_count,
                           MPI_Datatype origin_dt, int target_rank,
                           MPI_Aint target_disp, MPI_Count target_count,
                           MPI_Datatype target_dt, MPI_Win win));
SHMPI_ABI_API(int, Rput_c, (const void * origin, MPI_Count origin_count,
                            MPI_Datatype origin_dt, int target_rank,
                            MPI_Aint target_disp, MPI_Count target_count,
                            MPI_Datatype target_dt, MPI_Win win,
                            MPI_Request *request));
SHMPI_ABI_API(int, Get_c, (void * origin, MPI_Count origin_count,
                           MPI_Datatype origin_dt, int target_rank,
                           MPI_Aint target_disp, MPI_Count target_count,
                           MPI_Datatype target_dt, MPI_Win win));
SHMPI_ABI_API(int, Rget_c, (void * origin, MPI_Count origin_count,
                            MPI_Datatype origin_dt, int target_rank,
                            MPI_Aint target_disp, MPI_Count target_count,
                            MPI_Datatype target_dt, MPI_Win win,
                            MPI_Request *request));
SHMPI_ABI_API(int, Accumulate_c, (const void *origin, MPI_Count origin_count,
                                  MPI_Datatype origin_dt, int target_rank,
                                  MPI_Aint target_disp, MPI_Count target_count,
                                  MPI_Datatype target_dt, MPI_Op op,
                                  MPI_Win win));
SHMPI_ABI_API(int, Raccumulate_c, (const void *origin, MPI_Count origin_count,
                                   MPI_Datatype origin_dt, int target_rank,
                                   MPI_Aint target_disp,
                                   MPI_Count target_count,
                                   MPI_Datatype target_dt, MPI_Op op,
                                   MPI_Win win, MPI_Request *request));
SHMPI_ABI_API(int, Get_accumulate_c, (const void *origin,
                                      MPI_Count origin_count,
                                      MPI_Datatype origin_dt, void *result,
                                      MPI_Count result_count,
                                      MPI_Datatype result_dt, int target_rank,
                                      MPI_Aint target_disp,
                                      MPI_Count target_count,
                                      MPI_Datatype target_dt, MPI_Op op,
                                      MPI_Win win));
SHMPI_ABI_API(int, Rget_accumulate_c, (const void *origin,
                                       MPI_Count origin_count,
                                       MPI_Datatype origin_dt, void *result,
                                       MPI_Count result_count,
                                       MPI_Datatype result_dt, int target_rank,
                                       MPI_Aint target_disp,
                                       MPI_Count target_count,
                                       MPI_Datatype target_dt, MPI_Op op,
                                       MPI_Win win, MPI_Request *request));
SHMPI_ABI_API(int, Win_create_keyval,
              (MPI_Win_copy_attr_function *win_copy_attr_fn,
               MPI_Win_delete_attr_function *win_delete_attr_fn,
               int *win_keyval, void *extra_state));
SHMPI_ABI_API(int, Win_free_keyval, (int *win_keyval));
SHMPI_ABI_API(int, Win_set_attr, (MPI_Win win, int win_keyval,
                                  void *attribute_val));
SHMPI_ABI_API(int, Win_get_attr, (MPI_Win win, int win_keyval,
                                  void *attribute_val, int *flag));
SHMPI_ABI_API(int, Win_delete_attr, (MPI_Win win, int win_keyval));

/* sessions */
SHMPI_ABI_API(int, Session_init, (MPI_Info info, MPI_Errhandler errhandler,
                                  MPI_Session *session));
SHMPI_ABI_API(int, Session_finalize, (MPI_Session *session));
SHMPI_ABI_API(int, Session_get_num_psets,
              (MPI_Session session, MPI_Info info, int *npset_names));
SHMPI_ABI_API(int, Session_get_nth_pset,
              (MPI_Session session, MPI_Info info, int n, int *pset_len,
               char *pset_name));
SHMPI_ABI_API(int, Session_get_info, (MPI_Session session,
                                      MPI_Info *info_used));
SHMPI_ABI_API(int, Session_get_pset_info,
              (MPI_Session session, const char *pset_name, MPI_Info *info));
SHMPI_ABI_API(int, Group_from_session_pset,
              (MPI_Session session, const char *pset_name,
               MPI_Group *newgroup));
SHMPI_ABI_API(int, Session_create_errhandler,
              (MPI_Session_errhandler_function *session_errhandler_fn,
               MPI_Errhandler *errhandler));
SHMPI_ABI_API(int, Session_set_errhandler,
              (MPI_Session session, MPI_Errhandler errhandler));
SHMPI_ABI_API(int, Session_get_errhandler,
              (MPI_Session session, MPI_Errhandler *errhandler));
SHMPI_ABI_API(int, Session_call_errhandler,
              (MPI_Session session, int errorcode));
SHMPI_ABI_API(int, Session_attach_buffer,
              (MPI_Session session, void *buffer, int size));
SHMPI_ABI_API(int, Session_detach_buffer,
              (MPI_Session session, void *buffer_addr, int *size));
SHMPI_ABI_API(int, Session_flush_buffer, (MPI_Session session));
SHMPI_ABI_API(int, Session_iflush_buffer,
              (MPI_Session session, MPI_Request *request));

/* info */
SHMPI_ABI_API(int, Info_create, (MPI_Info *info));
SHMPI_ABI_API(int, Info_set, (MPI_Info info, const char *key,
                              const char *value));
SHMPI_ABI_API(int, Info_get_string, (MPI_Info info, const char *key,
                                     int *buflen, char *value, int *flag));
SHMPI_ABI_API(int, Info_free, (MPI_Info *info));
SHMPI_ABI_API(int, Info_create_env, (int argc, char *argv[], MPI_Info *info));
SHMPI_ABI_API(int, Info_dup, (MPI_Info info, MPI_Info *newinfo));
SHMPI_ABI_API(int, Info_delete, (MPI_Info info, const char *key));
SHMPI_ABI_API(int, Info_get_nkeys, (MPI_Info info, int *nkeys));
SHMPI_ABI_API(int, Info_get_nthkey, (MPI_Info info, int n, char *key));
SHMPI_ABI_API(int, Info_get, (MPI_Info info, const char *key, int valuelen,
                              char *value, int *flag));   /* deprecated */
SHMPI_ABI_API(int, Info_get_valuelen, (MPI_Info info, const char *key,
                                       int *valuelen, int *flag));

/* the tool information interface */
SHMPI_ABI_API(int, T_init_thread, (int required, int *provided));
SHMPI_ABI_API(int, T_finalize, (void));
SHMPI_ABI_API(int, T_enum_get_info, (MPI_T_enum enumtype, int *num,
                                     char *name, int *name_len));
SHMPI_ABI_API(int, T_enum_get_item, (MPI_T_enum enumtype, int index,
                                     int *value, char *name, int *name_len));
SHMPI_ABI_API(int, T_cvar_get_num, (int *num_cvar));
SHMPI_ABI_API(int, T_cvar_get_info, (int cvar_index, char *name,
                                     int *name_len, int *verbosity,
                                     MPI_Datatype *datatype,
                                     MPI_T_enum *enumtype, char *desc,
                                     int *desc_len, int *bind, int *scope));
SHMPI_ABI_API(int, T_cvar_get_index, (const char *name, int *cvar_index));
SHMPI_ABI_API(int, T_cvar_handle_alloc, (int cvar_index, void *obj_handle,
                                         MPI_T_cvar_handle *handle,
                                         int *count));
SHMPI_ABI_API(int, T_cvar_handle_free, (MPI_T_cvar_handle *handle));
SHMPI_ABI_API(int, T_cvar_read, (MPI_T_cvar_handle handle, void *buf));
SHMPI_ABI_API(int, T_cvar_write, (MPI_T_cvar_handle handle,
                                  const void *buf));
SHMPI_ABI_API(int, T_pvar_get_num, (int *num_pvar));
SHMPI_ABI_API(int, T_pvar_get_info, (int pvar_index, char *name,
                                     int *name_len, int *verbosity,
                                     int *var_class, MPI_Datatype *datatype,
                                     MPI_T_enum *enumtype, char *desc,
                                     int *desc_len, int *bind, int *readonly,
                                     int *continuous, int *atomic));
SHMPI_ABI_API(int, T_pvar_get_index, (const char *name, int var_class,
                                      int *pvar_index));
SHMPI_ABI_API(int, T_pvar_session_create, (MPI_T_pvar_session *session));
SHMPI_ABI_API(int, T_pvar_session_free, (MPI_T_pvar_session *session));
SHMPI_ABI_API(int, T_pvar_handle_alloc, (MPI_T_pvar_session session,
                                         int pvar_index, void *obj_handle,
                                         MPI_T_pvar_handle *handle,
                                         int *count));
SHMPI_ABI_API(int, T_pvar_handle_free, (MPI_T_pvar_session session,
                                        MPI_T_pvar_handle *handle));
SHMPI_ABI_API(int, T_pvar_start, (MPI_T_pvar_session session,
                                  MPI_T_pvar_handle handle));
SHMPI_ABI_API(int, T_pvar_stop, (MPI_T_pvar_session session,
                                 MPI_T_pvar_handle handle));
SHMPI_ABI_API(int, T_pvar_read, (MPI_T_pvar_session session,
                                 MPI_T_pvar_handle handle, void *buf));
SHMPI_ABI_API(int, T_pvar_write, (MPI_T_pvar_session session,
                                  MPI_T_pvar_handle handle,
                                  const void *buf));
SHMPI_ABI_API(int, T_pvar_reset, (MPI_T_pvar_session session,
                                  MPI_T_pvar_handle handle));
SHMPI_ABI_API(int, T_pvar_readreset, (MPI_T_pvar_session session,
                                      MPI_T_pvar_handle handle, void *buf));
SHMPI_ABI_API(int, T_category_get_num, (int *num_cat));
SHMPI_ABI_API(int, T_category_get_info, (int cat_index, char *name,
                                         int *name_len, char *desc,
                                         int *desc_len, int *num_cvars,
                                         int *num_pvars,
                                         int *num_categories));
SHMPI_ABI_API(int, T_category_get_index, (const char *name, int *cat_index));
SHMPI_ABI_API(int, T_category_get_cvars, (int cat_index, int len,
                                          int indices[]));
SHMPI_ABI_API(int, T_category_get_pvars, (int cat_index, int len,
                                          int indices[]));
SHMPI_ABI_API(int, T_category_get_categories, (int cat_index, int len,
                                               int indices[]));
SHMPI_ABI_API(int, T_category_get_num_events, (int cat_index,
                                               int *num_events));
SHMPI_ABI_API(int, T_category_get_events, (int cat_index, int len,
                                           int indices[]));
SHMPI_ABI_API(int, T_category_changed, (int *stamp));
/* events and their sources (MPI-4.1 15.3.8) */
SHMPI_ABI_API(int, T_event_get_num, (int *num_events));
SHMPI_ABI_API(int, T_event_get_info, (int event_index, char *name,
                                      int *name_len, int *verbosity,
                                      MPI_Datatype array_of_datatypes[],
                                      MPI_Aint array_of_displacements[],
                                      int *num_elements,
                                      MPI_T_enum *enumtype, MPI_Info *info,
                                      char *desc, int *desc_len, int *bind));
SHMPI_ABI_API(int, T_event_get_index, (const char *name, int *event_index));
SHMPI_ABI_API(int, T_event_handle_alloc,
              (int event_index, void *obj_handle, MPI_Info info,
               MPI_T_event_registration *event_registration));
SHMPI_ABI_API(int, T_event_handle_set_info,
              (MPI_T_event_registration event_registration, MPI_Info info));
SHMPI_ABI_API(int, T_event_handle_get_info,
              (MPI_T_event_registration event_registration,
               MPI_Info *info_used));
SHMPI_ABI_API(int, T_event_register_callback,
              (MPI_T_event_registration event_registration,
               MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
               MPI_T_event_cb_function *event_cb_function));
SHMPI_ABI_API(int, T_event_callback_set_info,
              (MPI_T_event_registration event_registration,
               MPI_T_cb_safety cb_safety, MPI_Info info));
SHMPI_ABI_API(int, T_event_callback_get_info,
              (MPI_T_event_registration event_registration,
               MPI_T_cb_safety cb_safety, MPI_Info *info_used));
SHMPI_ABI_API(int, T_event_handle_free,
              (MPI_T_event_registration event_registration, void *user_data,
               MPI_T_event_free_cb_function *free_cb_function));
SHMPI_ABI_API(int, T_event_set_dropped_handler,
              (MPI_T_event_registration event_registration,
               MPI_T_event_dropped_cb_function *dropped_cb_function));
SHMPI_ABI_API(int, T_event_read, (MPI_T_event_instance event_instance,
                                  int element_index, void *buffer));
SHMPI_ABI_API(int, T_event_copy, (MPI_T_event_instance event_instance,
                                  void *buffer));
SHMPI_ABI_API(int, T_event_get_timestamp,
              (MPI_T_event_instance event_instance,
               MPI_Count *event_timestamp));
SHMPI_ABI_API(int, T_event_get_source, (MPI_T_event_instance event_instance,
                                        int *source_index));
SHMPI_ABI_API(int, T_source_get_num, (int *num_sources));
SHMPI_ABI_API(int, T_source_get_info, (int source_index, char *name,
                                       int *name_len, char *desc,
                                       int *desc_len,
                                       MPI_T_source_order *ordering,
                                       MPI_Count *ticks_per_second,
                                       MPI_Count *max_ticks, MPI_Info *info));
SHMPI_ABI_API(int, T_source_get_timestamp, (int source_index,
                                            MPI_Count *timestamp));

/* handles as integers (20.3.5) */
SHMPI_ABI_API(int, Comm_toint, (MPI_Comm comm));
SHMPI_ABI_API(MPI_Comm, Comm_fromint, (int comm));
SHMPI_ABI_API(int, Type_toint, (MPI_Datatype datatype));
SHMPI_ABI_API(MPI_Datatype, Type_fromint, (int datatype));
SHMPI_ABI_API(int, Op_toint, (MPI_Op op));
SHMPI_ABI_API(MPI_Op, Op_fromint, (int op));
SHMPI_ABI_API(int, Group_toint, (MPI_Group group));
SHMPI_ABI_API(MPI_Group, Group_fromint, (int group));
SHMPI_ABI_API(int, Request_toint, (MPI_Request request));
SHMPI_ABI_API(MPI_Request, Request_fromint, (int request));
SHMPI_ABI_API(int, Errhandler_toint, (MPI_Errhandler errhandler));
SHMPI_ABI_API(MPI_Errhandler, Errhandler_fromint, (int errhandler));
SHMPI_ABI_API(int, Info_toint, (MPI_Info info));
SHMPI_ABI_API(MPI_Info, Info_fromint, (int info));
SHMPI_ABI_API(int, Message_toint, (MPI_Message message));
SHMPI_ABI_API(MPI_Message, Message_fromint, (int message));
SHMPI_ABI_API(int, Win_toint, (MPI_Win win));
SHMPI_ABI_API(MPI_Win, Win_fromint, (int win));
SHMPI_ABI_API(int, Session_toint, (MPI_Session session));
SHMPI_ABI_API(MPI_Session, Session_fromint, (int session));

/* handles and statuses for Fortran (19.3.4): the integers of _toint */
SHMPI_ABI_API(MPI_Fint, Comm_c2f, (MPI_Comm comm));
SHMPI_ABI_API(MPI_Comm, Comm_f2c, (MPI_Fint comm));
SHMPI_ABI_API(MPI_Fint, Type_c2f, (MPI_Datatype datatype));
SHMPI_ABI_API(MPI_Datatype, Type_f2c, (MPI_Fint datatype));
SHMPI_ABI_API(MPI_Fint, Op_c2f, (MPI_Op op));
SHMPI_ABI_API(MPI_Op, Op_f2c, (MPI_Fint op));
SHMPI_ABI_API(MPI_Fint, Group_c2f, (MPI_Group group));
SHMPI_ABI_API(MPI_Group, Group_f2c, (MPI_Fint group));
SHMPI_ABI_API(MPI_Fint, Request_c2f, (MPI_Request request));
SHMPI_ABI_API(MPI_Request, Request_f2c, (MPI_Fint request));
SHMPI_ABI_API(MPI_Fint, Errhandler_c2f, (MPI_Errhandler errhandler));
SHMPI_ABI_API(MPI_Errhandler, Errhandler_f2c, (MPI_Fint errhandler));
SHMPI_ABI_API(MPI_Fint, Info_c2f, (MPI_Info info));
SHMPI_ABI_API(MPI_Info, Info_f2c, (MPI_Fint info));
SHMPI_ABI_API(MPI_Fint, Message_c2f, (MPI_Message message));
SHMPI_ABI_API(MPI_Message, Message_f2c, (MPI_Fint message));
SHMPI_ABI_API(MPI_Fint, Win_c2f, (MPI_Win win));
SHMPI_ABI_API(MPI_Win, Win_f2c, (MPI_Fint win));
SHMPI_ABI_API(MPI_Fint, Session_c2f, (MPI_Session session));
SHMPI_ABI_API(MPI_Session, Session_f2c, (MPI_Fint session));
SHMPI_ABI_API(int, Status_c2f, (const MPI_Status *c_status,
                                MPI_Fint *f_status));
SHMPI_ABI_API(int, Status_f2c, (const MPI_Fint *f_status,
                                MPI_Status *c_status));

#undef SHMPI_ABI_API

#ifdef __cplusplus
}
#endif

#endif /* SHMPI_ABI_MPI_H */
