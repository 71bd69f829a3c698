/* mpit_cvar: every control variable of the tool interface has a name that MPI_T_cvar_get_index finds again, a description, a verbosity, a binding, a scope and a datatype (an enumeration's items each with a name); the strings follow 14.3.3 (length asked with 0, truncation); each unbound read-only one is read, and writing it back is refused with MPI_T_ERR_CVAR_SET_NEVER; bad indices, names and handles are refused with their codes. */
/* shmpi-test: np=1,2 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

/* An out-of-range index: MPI_T_ERR_INVALID_INDEX (14.3.9), or
   MPI_T_ERR_INVALID from Open MPI 4.1 (mpit_cvar_ext checks shmpi's). */
#define T_BAD_INDEX(call)                                                  \
    do {                                                                   \
        int t_rc_ = (call);                                                \
        CHECK(t_rc_ == MPI_T_ERR_INVALID_INDEX ||                          \
                  t_rc_ == MPI_T_ERR_INVALID,                              \
              "%s returned %d, expected MPI_T_ERR_INVALID_INDEX", #call,   \
              t_rc_);                                                      \
    } while (0)

/* The size of one element of datatype dt (Open MPI also uses
   MPI_C_BOOL, beyond the list of 14.3.5); 0 if it has none. */
static size_t elem_size(MPI_Datatype dt)
{
    int size = 0;
    if (dt == MPI_DATATYPE_NULL || MPI_Type_size(dt, &size) != MPI_SUCCESS)
        return 0;
    return (size_t)size;
}

/* 14.3.3: with length 0 nothing is written and the length needed
   comes back; with a short buffer the string is cut, NUL-terminated. */
static void strings(int i, const char *name)
{
    int len = 0;
    char small[4] = "xyz";
    T_RC(MPI_T_cvar_get_info(i, small, &len, NULL, NULL, NULL, NULL, NULL,
                             NULL, NULL), MPI_SUCCESS);
    CHECK(len == (int)strlen(name) + 1, "cvar %d: length %d for '%s'", i,
          len, name);
    CHECK(strcmp(small, "xyz") == 0, "cvar %d: written with length 0", i);
    len = 3;
    T_RC(MPI_T_cvar_get_info(i, small, &len, NULL, NULL, NULL, NULL, NULL,
                             NULL, NULL), MPI_SUCCESS);
    CHECK(strlen(small) <= 2 && strncmp(small, name, strlen(small)) == 0,
          "cvar %d: '%s' cut to '%s'", i, name, small);
}

static void check_enum(int i, MPI_T_enum e)
{
    int num = -1, len = 64, value;
    char name[64];
    T_RC(MPI_T_enum_get_info(e, &num, name, &len), MPI_SUCCESS);
    CHECK(num > 0 && len > 1, "cvar %d: enumeration with %d items", i, num);
    for (int k = 0; k < num; k++) {
        len = 64;
        T_RC(MPI_T_enum_get_item(e, k, &value, name, &len), MPI_SUCCESS);
        CHECK(len > 1 && (int)strlen(name) == len - 1,
              "cvar %d: item %d named '%s' (%d)", i, k, name, len);
    }
    /* 14.3.9: MPI_T_ERR_INVALID_ITEM; Open MPI 4.1 says
       MPI_T_ERR_INVALID_INDEX (mpit_cvar_ext checks shmpi's) */
    len = 64;
    int rc = MPI_T_enum_get_item(e, num, &value, name, &len);
    CHECK(rc == MPI_T_ERR_INVALID_ITEM || rc == MPI_T_ERR_INVALID_INDEX,
          "cvar %d: item %d of %d gave %d", i, num, num, rc);
}

/* Reads cvar i (unbound, read-only): writing it back is refused. */
static void read_only(int i, const char *name, MPI_Datatype dt)
{
    MPI_T_cvar_handle h;
    int count = -1;
    T_RC(MPI_T_cvar_handle_alloc(i, NULL, &h, &count), MPI_SUCCESS);
    CHECK(count >= 1 && count <= 4096, "%s: count %d", name, count);
    size_t bytes = elem_size(dt) * (size_t)count;
    CHECK(bytes > 0, "%s: a datatype without a size", name);
    char *buf = calloc(1, bytes);
    CHECK(buf, "out of memory");
    int rc = MPI_T_cvar_read(h, buf);
    /* a variable no longer valid (Open MPI 4.1 has some) */
    CHECK(rc == MPI_SUCCESS || rc == MPI_T_ERR_INVALID_INDEX,
          "%s: MPI_T_cvar_read returned %d", name, rc);
    if (rc == MPI_SUCCESS)
        T_RC(MPI_T_cvar_write(h, buf), MPI_T_ERR_CVAR_SET_NEVER);
    T_RC(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    CHECK(h == MPI_T_CVAR_HANDLE_NULL, "%s: handle not NULL after free",
          name);
    free(buf);
}

static void one(int i)
{
    char name[256], desc[1024];
    int name_len = sizeof name, desc_len = sizeof desc, verbosity = -1,
        bind = -1, scope = -1, index = -1;
    MPI_Datatype dt = MPI_DATATYPE_NULL;
    MPI_T_enum e = MPI_T_ENUM_NULL;
    int rc = MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &dt, &e,
                                 desc, &desc_len, &bind, &scope);
    if (rc == MPI_T_ERR_INVALID_INDEX)
        return; /* a variable no longer valid: 14.3.6 allows it */
    T_RC(rc, MPI_SUCCESS);
    CHECK(name_len == (int)strlen(name) + 1 && name_len > 1,
          "cvar %d: name '%s', length %d", i, name, name_len);
    /* Open MPI 4.1 says 0 for an empty description, not 1 */
    CHECK(desc_len == (int)strlen(desc) + 1 || (desc_len == 0 && !*desc),
          "cvar %d: desc length %d", i, desc_len);
    CHECK((verbosity == MPI_T_VERBOSITY_USER_BASIC ||
               verbosity == MPI_T_VERBOSITY_USER_DETAIL ||
               verbosity == MPI_T_VERBOSITY_USER_ALL ||
               verbosity == MPI_T_VERBOSITY_TUNER_BASIC ||
               verbosity == MPI_T_VERBOSITY_TUNER_DETAIL ||
               verbosity == MPI_T_VERBOSITY_TUNER_ALL ||
               verbosity == MPI_T_VERBOSITY_MPIDEV_BASIC ||
               verbosity == MPI_T_VERBOSITY_MPIDEV_DETAIL ||
               verbosity == MPI_T_VERBOSITY_MPIDEV_ALL),
          "%s: verbosity %d", name, verbosity);
    CHECK(scope == MPI_T_SCOPE_CONSTANT || scope == MPI_T_SCOPE_READONLY ||
              scope == MPI_T_SCOPE_LOCAL || scope == MPI_T_SCOPE_GROUP ||
              scope == MPI_T_SCOPE_GROUP_EQ || scope == MPI_T_SCOPE_ALL ||
              scope == MPI_T_SCOPE_ALL_EQ,
          "%s: scope %d", name, scope);
    CHECK(elem_size(dt) > 0, "%s: a datatype without a size", name);
    /* 14.3.5 wants an enumeration to be an MPI_INT; Open MPI 4.1 has
       MPI_C_BOOL ones, so mpit_cvar_ext checks that of shmpi */
    if (e != MPI_T_ENUM_NULL)
        check_enum(i, e);
    strings(i, name);
    T_RC(MPI_T_cvar_get_index(name, &index), MPI_SUCCESS);
    CHECK(index == i, "%s: MPI_T_cvar_get_index gave %d, not %d", name,
          index, i);
    /* Open MPI 4.1 crashes in MPI_T_cvar_read of some writable ones
       (opal_common_ucx_verbose): the read-only ones are read here, and
       mpit_cvar_ext reads all of shmpi's */
    if (bind == MPI_T_BIND_NO_OBJECT &&
        (scope == MPI_T_SCOPE_CONSTANT || scope == MPI_T_SCOPE_READONLY))
        read_only(i, name, dt);
}

int main(int argc, char **argv)
{
    int provided, n = -1, index;
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    CHECK_MPI(MPI_Init(&argc, &argv));
    T_RC(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    CHECK(n >= 0, "%d control variables", n);
    for (int i = 0; i < n; i++)
        one(i);
    char name[8], desc[8];
    int len = sizeof name, dlen = sizeof desc, verb, bind, scope;
    MPI_Datatype dt;
    MPI_T_enum e;
    T_BAD_INDEX(MPI_T_cvar_get_info(n, name, &len, &verb, &dt, &e, desc,
                                    &dlen, &bind, &scope));
    T_BAD_INDEX(MPI_T_cvar_get_info(-1, name, &len, &verb, &dt, &e, desc,
                                    &dlen, &bind, &scope));
    T_RC(MPI_T_cvar_get_index("no such variable, surely", &index),
         MPI_T_ERR_INVALID_NAME);
    MPI_T_cvar_handle h;
    int count;
    T_BAD_INDEX(MPI_T_cvar_handle_alloc(n, NULL, &h, &count));
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
