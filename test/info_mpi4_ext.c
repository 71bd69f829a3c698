/* info_mpi4_ext: MPI_Info_get_string's buflen in/out protocol (whole, cut, zero, absent key) and its argument checks, and MPI_Info_create_env (MPI_INFO_ENV's keys and values as MPI_Init set them, a new object each time); Open MPI 4.1 lacks both. */
/* shmpi-test: np=1,2,4 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static void get_string(void)
{
    MPI_Info info;
    char buf[16];
    int len, flag;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "k", "hello"));
    CHECK_MPI(MPI_Info_set(info, "empty", ""));

    len = sizeof buf; /* room enough */
    CHECK_MPI(MPI_Info_get_string(info, "k", &len, buf, &flag));
    CHECK(flag && len == 6 && !strcmp(buf, "hello"),
          "whole: flag %d len %d \"%s\"", flag, len, buf);

    len = 6; /* exactly enough, the NUL included */
    memset(buf, 'x', sizeof buf);
    CHECK_MPI(MPI_Info_get_string(info, "k", &len, buf, &flag));
    CHECK(flag && len == 6 && !strcmp(buf, "hello"),
          "exact: flag %d len %d \"%s\"", flag, len, buf);

    len = 4; /* cut to 3 characters and a NUL, the size needed back */
    memset(buf, 'x', sizeof buf);
    CHECK_MPI(MPI_Info_get_string(info, "k", &len, buf, &flag));
    CHECK(flag && len == 6 && !strcmp(buf, "hel") && buf[4] == 'x',
          "cut: flag %d len %d \"%.8s\"", flag, len, buf);

    len = 1; /* room for the NUL alone */
    CHECK_MPI(MPI_Info_get_string(info, "k", &len, buf, &flag));
    CHECK(flag && len == 6 && buf[0] == '\0', "len 1: flag %d len %d", flag,
          len);

    len = 0; /* asks only the size: value untouched, may be NULL */
    CHECK_MPI(MPI_Info_get_string(info, "k", &len, NULL, &flag));
    CHECK(flag && len == 6, "len 0: flag %d len %d", flag, len);
    strcpy(buf, "keep");
    len = 0;
    CHECK_MPI(MPI_Info_get_string(info, "k", &len, buf, &flag));
    CHECK(flag && len == 6 && !strcmp(buf, "keep"),
          "len 0 wrote \"%s\"", buf);

    len = sizeof buf; /* an empty value */
    CHECK_MPI(MPI_Info_get_string(info, "empty", &len, buf, &flag));
    CHECK(flag && len == 1 && buf[0] == '\0', "empty: flag %d len %d", flag,
          len);

    len = 9; /* a key not set: flag false, value and buflen alone */
    strcpy(buf, "keep");
    flag = 1;
    CHECK_MPI(MPI_Info_get_string(info, "nokey", &len, buf, &flag));
    CHECK(!flag && len == 9 && !strcmp(buf, "keep"),
          "absent: flag %d len %d \"%s\"", flag, len, buf);

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    len = 4;
    CHECK_CLASS(MPI_Info_get_string(MPI_INFO_NULL, "k", &len, buf, &flag),
                MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_get_string(info, NULL, &len, buf, &flag),
                MPI_ERR_INFO_KEY);
    CHECK_CLASS(MPI_Info_get_string(info, "", &len, buf, &flag),
                MPI_ERR_INFO_KEY);
    CHECK_CLASS(MPI_Info_get_string(info, "k", NULL, buf, &flag),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_get_string(info, "k", &len, buf, NULL),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_get_string(info, "k", &len, NULL, &flag),
                MPI_ERR_ARG);
    len = -1;
    CHECK_CLASS(MPI_Info_get_string(info, "k", &len, buf, &flag),
                MPI_ERR_ARG);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Info_free(&info));
}

/* Every key of a, with its value, is in b, and b has no other. */
static void same_keys(MPI_Info a, MPI_Info b)
{
    int na, nb, flag, len;
    char key[MPI_MAX_INFO_KEY], va[MPI_MAX_INFO_VAL], vb[MPI_MAX_INFO_VAL];
    CHECK_MPI(MPI_Info_get_nkeys(a, &na));
    CHECK_MPI(MPI_Info_get_nkeys(b, &nb));
    CHECK(na == nb && na >= 5, "%d keys, MPI_INFO_ENV has %d", nb, na);
    for (int i = 0; i < na; i++) {
        CHECK_MPI(MPI_Info_get_nthkey(a, i, key));
        len = sizeof va;
        CHECK_MPI(MPI_Info_get_string(a, key, &len, va, &flag));
        len = sizeof vb;
        CHECK_MPI(MPI_Info_get_string(b, key, &len, vb, &flag));
        CHECK(flag && !strcmp(va, vb), "key \"%s\": \"%s\", expected \"%s\"",
              key, flag ? vb : "(not set)", va);
    }
}

static void create_env(int argc, char **argv)
{
    MPI_Info e1, e2;
    CHECK_MPI(MPI_Info_create_env(argc, argv, &e1));
    CHECK(e1 != MPI_INFO_NULL && e1 != MPI_INFO_ENV, "not a new object");
    same_keys(MPI_INFO_ENV, e1);
    /* the program's changes to MPI_INFO_ENV do not carry over */
    CHECK_MPI(MPI_Info_set(MPI_INFO_ENV, "mine", "1"));
    CHECK_MPI(MPI_Info_create_env(0, NULL, &e2));
    CHECK(e2 != e1, "the same object twice");
    same_keys(e1, e2);
    CHECK_MPI(MPI_Info_delete(MPI_INFO_ENV, "mine"));
    /* an object of the program's own: it may change and free it */
    CHECK_MPI(MPI_Info_set(e1, "maxprocs", "0"));
    CHECK_MPI(MPI_Info_free(&e1));
    CHECK_MPI(MPI_Info_free(&e2));
    same_keys(MPI_INFO_ENV, MPI_INFO_ENV);

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Info_create_env(argc, argv, NULL), MPI_ERR_ARG);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    get_string();
    create_env(argc, argv);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
