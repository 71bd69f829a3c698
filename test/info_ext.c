/* info_ext: shmpi's own choices for info objects - MPI_INFO_ENV's values (command line, requested thread level, host, wdir), freeing it, empty values, valuelen 0, error classes Open MPI spells differently, the empty info of MPI_Comm_get_info. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <sys/utsname.h>

static char value[MPI_MAX_INFO_VAL + 1];

static const char *env(const char *key)
{
    int flag = -1;
    CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, key, MPI_MAX_INFO_VAL, value, &flag));
    return flag ? value : NULL;
}

static void check_env(const char *key, const char *want)
{
    const char *v = env(key);
    CHECK(v && strcmp(v, want) == 0, "MPI_INFO_ENV \"%s\" is \"%s\", "
          "expected \"%s\"", key, v ? v : "(not set)", want);
}

static void info_env(const char *argv0, int size)
{
    char buf[4096];
    check_env("command", argv0);
    check_env("argv", "one two words");
    snprintf(buf, sizeof buf, "%d", size);
    check_env("maxprocs", buf);
    check_env("soft", buf);
    int len;
    CHECK_MPI(MPI_Get_processor_name(buf, &len));
    check_env("host", buf);
    struct utsname u;
    CHECK(uname(&u) == 0, "uname");
    check_env("arch", u.machine);
    CHECK(getcwd(buf, sizeof buf), "getcwd");
    check_env("wdir", buf);
    /* the level asked for, not the one provided (SERIALIZED) */
    check_env("thread_level", "MPI_THREAD_MULTIPLE");
    CHECK(env("file") == NULL, "MPI_INFO_ENV has a \"file\"");
    int n;
    CHECK_MPI(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
    CHECK(n == 8, "MPI_INFO_ENV has %d keys, expected 8", n);

    /* the program may change it, but not free it */
    CHECK_MPI(MPI_Info_set(MPI_INFO_ENV, "mine", "1"));
    check_env("mine", "1");
    CHECK_MPI(MPI_Info_delete(MPI_INFO_ENV, "mine"));
    MPI_Info e = MPI_INFO_ENV;
    CHECK_CLASS(MPI_Info_free(&e), MPI_ERR_INFO);
    CHECK(e == MPI_INFO_ENV, "a failed MPI_Info_free changed the handle");
    CHECK_MPI(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
    CHECK(n == 8, "MPI_INFO_ENV has %d keys after the failed free", n);
}

static void edges(void)
{
    MPI_Info info;
    int flag = 0, len = -1, n;
    char key[MPI_MAX_INFO_KEY];
    CHECK_MPI(MPI_Info_create(&info));
    /* an empty value is a value (Open MPI refuses it, MPICH keeps it) */
    CHECK_MPI(MPI_Info_set(info, "empty", ""));
    CHECK_MPI(MPI_Info_get_valuelen(info, "empty", &len, &flag));
    CHECK(flag == 1 && len == 0, "empty value: flag %d len %d", flag, len);
    /* valuelen 0 keeps room for the NUL only */
    CHECK_MPI(MPI_Info_set(info, "k", "abc"));
    memset(value, '#', 8);
    flag = 0;
    CHECK_MPI(MPI_Info_get(info, "k", 0, value, &flag));
    CHECK(flag == 1 && value[0] == '\0' && value[1] == '#',
          "valuelen 0: flag %d, value \"%.8s\"", flag, value);

    CHECK_CLASS(MPI_Info_get_nthkey(info, 2, key), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_get_nthkey(info, 0, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_get(info, "k", 3, NULL, &flag), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_get(info, "k", 3, value, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_get_valuelen(info, "k", NULL, &flag), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_get_valuelen(info, "k", &len, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_get_nkeys(info, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_dup(info, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_create(NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_free(NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_delete(info, NULL), MPI_ERR_INFO_KEY);
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    CHECK(n == 2, "%d keys after the errors", n);
    CHECK_MPI(MPI_Info_free(&info));
}

/* shmpi uses no communicator hint: get_info is empty whatever was set. */
static void comm_info(void)
{
    MPI_Info hints, used;
    MPI_Comm dup;
    int n = -1;
    CHECK_MPI(MPI_Info_create(&hints));
    CHECK_MPI(MPI_Info_set(hints, "mpi_assert_no_any_tag", "true"));
    CHECK_MPI(MPI_Comm_set_info(MPI_COMM_WORLD, hints));
    CHECK_MPI(MPI_Comm_get_info(MPI_COMM_WORLD, &used));
    CHECK_MPI(MPI_Info_get_nkeys(used, &n));
    CHECK(n == 0, "MPI_Comm_get_info has %d keys", n);
    CHECK_MPI(MPI_Info_free(&used));
    CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, hints, &dup));
    CHECK_MPI(MPI_Comm_get_info(dup, &used));
    CHECK_MPI(MPI_Info_get_nkeys(used, &n));
    CHECK(n == 0, "MPI_Comm_get_info of a dup_with_info has %d keys", n);
    CHECK_MPI(MPI_Info_free(&used));
    CHECK_CLASS(MPI_Comm_get_info(dup, NULL), MPI_ERR_ARG);
    /* a NULL newcomm is reported after the collective exchange */
    CHECK_CLASS(MPI_Comm_dup_with_info(MPI_COMM_WORLD, hints, NULL),
                MPI_ERR_ARG);
    CHECK_MPI(MPI_Barrier(dup));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Info_free(&hints));
}

int main(int argc, char **argv)
{
    /* run again with known arguments, as the same process: MPI_INFO_ENV
       must show them */
    if (argc == 1) {
        char *args[] = {argv[0], "one", "two words", NULL};
        execv("/proc/self/exe", args);
        CHECK(0, "execv: %s", strerror(errno));
    }
    int rank, size, provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    info_env(argv[0], size);
    edges();
    comm_info();
    if (rank == 0)
        printf("info_ext at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
