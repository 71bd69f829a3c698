/* info: every MPI_Info call, key order, truncation, long keys and values, dup independence, MPI_INFO_ENV's keys, and every error class. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static char value[MPI_MAX_INFO_VAL + 1];

static int nkeys(MPI_Info info)
{
    int n = -1;
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    return n;
}

/* The value of key, or NULL when it is not set. */
static const char *get(MPI_Info info, const char *key)
{
    int flag = -1;
    CHECK_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag));
    CHECK(flag == 0 || flag == 1, "flag %d", flag);
    return flag ? value : NULL;
}

static void check_value(MPI_Info info, const char *key, const char *want)
{
    const char *v = get(info, key);
    CHECK(v && strcmp(v, want) == 0, "\"%s\" is \"%s\", expected \"%s\"",
          key, v ? v : "(not set)", want);
    int len = -1, flag = -1;
    CHECK_MPI(MPI_Info_get_valuelen(info, key, &len, &flag));
    CHECK(flag == 1 && len == (int)strlen(want),
          "valuelen of \"%s\": flag %d len %d, expected %zu", key, flag, len,
          strlen(want));
}

/* The keys of info are exactly want[0..n-1], in that order. */
static void check_keys(MPI_Info info, int n, const char *const *want)
{
    char key[MPI_MAX_INFO_KEY];
    CHECK(nkeys(info) == n, "%d keys, expected %d", nkeys(info), n);
    for (int i = 0; i < n; i++) {
        CHECK_MPI(MPI_Info_get_nthkey(info, i, key));
        CHECK(strcmp(key, want[i]) == 0, "key %d is \"%s\", expected \"%s\"",
              i, key, want[i]);
    }
}

static void set_get_delete(void)
{
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK(info != MPI_INFO_NULL, "MPI_Info_create gave MPI_INFO_NULL");
    CHECK(nkeys(info) == 0, "a new info has %d keys", nkeys(info));
    CHECK(get(info, "anything") == NULL, "a key of an empty info is set");

    CHECK_MPI(MPI_Info_set(info, "zeta", "1"));
    CHECK_MPI(MPI_Info_set(info, "alpha", "two"));
    CHECK_MPI(MPI_Info_set(info, "mid", "3"));
    check_keys(info, 3, (const char *[]){"zeta", "alpha", "mid"});
    check_value(info, "alpha", "two");

    /* setting again replaces the value; the key keeps its number */
    CHECK_MPI(MPI_Info_set(info, "alpha", "a longer value"));
    check_keys(info, 3, (const char *[]){"zeta", "alpha", "mid"});
    check_value(info, "alpha", "a longer value");

    /* keys and values are case sensitive, and spaces are kept in C */
    CHECK_MPI(MPI_Info_set(info, "Mid", "upper"));
    CHECK_MPI(MPI_Info_set(info, " mid ", "  spaced  "));
    check_value(info, "mid", "3");
    check_value(info, "Mid", "upper");
    check_value(info, " mid ", "  spaced  ");

    /* a short valuelen truncates, and the flag is still true */
    int flag = 0;
    memset(value, '#', 16);
    CHECK_MPI(MPI_Info_get(info, "alpha", 3, value, &flag));
    CHECK(flag == 1 && strcmp(value, "a l") == 0,
          "truncated get: flag %d, \"%s\"", flag, value);
    /* a missing key leaves value alone */
    memset(value, '#', 16);
    value[16] = '\0';
    flag = 1;
    CHECK_MPI(MPI_Info_get(info, "nope", MPI_MAX_INFO_VAL, value, &flag));
    CHECK(flag == 0 && strcmp(value, "################") == 0,
          "get of a missing key: flag %d, value \"%s\"", flag, value);
    int len = -7;
    flag = 1;
    CHECK_MPI(MPI_Info_get_valuelen(info, "nope", &len, &flag));
    CHECK(flag == 0 && len == -7, "valuelen of a missing key: flag %d", flag);

    /* deleting closes the gap; setting again puts the key last */
    CHECK_MPI(MPI_Info_delete(info, "zeta"));
    CHECK(get(info, "zeta") == NULL, "deleted key still set");
    check_keys(info, 4, (const char *[]){"alpha", "mid", "Mid", " mid "});
    CHECK_MPI(MPI_Info_set(info, "zeta", "back"));
    check_keys(info, 5,
               (const char *[]){"alpha", "mid", "Mid", " mid ", "zeta"});
    CHECK_MPI(MPI_Info_delete(info, " mid "));
    CHECK_MPI(MPI_Info_delete(info, "zeta"));
    check_keys(info, 3, (const char *[]){"alpha", "mid", "Mid"});

    CHECK_MPI(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL, "MPI_Info_free did not set MPI_INFO_NULL");
}

/* The longest key and value fit; one character more is an error. */
static void limits(void)
{
    static char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    memset(key, 'k', MPI_MAX_INFO_KEY - 1);
    memset(val, 'v', MPI_MAX_INFO_VAL - 1);
    CHECK_MPI(MPI_Info_set(info, key, val));
    check_value(info, key, val);
    char nth[MPI_MAX_INFO_KEY];
    CHECK_MPI(MPI_Info_get_nthkey(info, 0, nth));
    CHECK(strcmp(nth, key) == 0, "the longest key came back as \"%s\"", nth);

    key[MPI_MAX_INFO_KEY - 1] = 'k';
    CHECK_CLASS(MPI_Info_set(info, key, "x"), MPI_ERR_INFO_KEY);
    key[MPI_MAX_INFO_KEY - 1] = '\0';
    val[MPI_MAX_INFO_VAL - 1] = 'v';
    CHECK_CLASS(MPI_Info_set(info, "v", val), MPI_ERR_INFO_VALUE);
    CHECK(nkeys(info) == 1, "a failed set added a key");
    CHECK_MPI(MPI_Info_free(&info));
}

static void dup_is_independent(void)
{
    MPI_Info a, b;
    CHECK_MPI(MPI_Info_create(&a));
    CHECK_MPI(MPI_Info_set(a, "c", "3"));
    CHECK_MPI(MPI_Info_set(a, "a", "1"));
    CHECK_MPI(MPI_Info_set(a, "b", "2"));
    CHECK_MPI(MPI_Info_dup(a, &b));
    CHECK(b != a && b != MPI_INFO_NULL, "MPI_Info_dup gave the same handle");
    check_keys(b, 3, (const char *[]){"c", "a", "b"});
    check_value(b, "a", "1");

    CHECK_MPI(MPI_Info_set(a, "a", "changed"));
    CHECK_MPI(MPI_Info_delete(a, "b"));
    CHECK_MPI(MPI_Info_set(b, "d", "4"));
    check_keys(a, 2, (const char *[]){"c", "a"});
    check_keys(b, 4, (const char *[]){"c", "a", "b", "d"});
    check_value(a, "a", "changed");
    check_value(b, "a", "1");

    CHECK_MPI(MPI_Info_free(&a));
    check_value(b, "b", "2"); /* the copy outlives the original */
    MPI_Info empty, empty2;
    CHECK_MPI(MPI_Info_create(&empty));
    CHECK_MPI(MPI_Info_dup(empty, &empty2));
    CHECK(nkeys(empty2) == 0, "dup of an empty info has %d keys",
          nkeys(empty2));
    CHECK_MPI(MPI_Info_free(&empty));
    CHECK_MPI(MPI_Info_free(&empty2));
    CHECK_MPI(MPI_Info_free(&b));
}

static void env(int size)
{
    const char *keys[] = {"command", "maxprocs", "host", "arch",
                          "thread_level"};
    for (int i = 0; i < 5; i++)
        CHECK(get(MPI_INFO_ENV, keys[i]), "MPI_INFO_ENV has no \"%s\"",
              keys[i]);
    char procs[16];
    snprintf(procs, sizeof procs, "%d", size);
    check_value(MPI_INFO_ENV, "maxprocs", procs);
    check_value(MPI_INFO_ENV, "thread_level", "MPI_THREAD_SINGLE");
    /* it can be read through the usual calls and copied */
    MPI_Info copy;
    CHECK_MPI(MPI_Info_dup(MPI_INFO_ENV, &copy));
    CHECK(nkeys(copy) == nkeys(MPI_INFO_ENV), "dup of MPI_INFO_ENV: %d keys",
          nkeys(copy));
    char key[MPI_MAX_INFO_KEY];
    CHECK_MPI(MPI_Info_get_nthkey(MPI_INFO_ENV, 0, key));
    CHECK(get(copy, key), "the copy has no \"%s\"", key);
    CHECK_MPI(MPI_Info_free(&copy));
}

static void errors(void)
{
    MPI_Info info, null = MPI_INFO_NULL;
    int flag, n;
    char key[MPI_MAX_INFO_KEY];
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "k", "v"));

    CHECK_CLASS(MPI_Info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_get(MPI_INFO_NULL, "k", 1, value, &flag),
                MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_get_valuelen(MPI_INFO_NULL, "k", &n, &flag),
                MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_get_nthkey(MPI_INFO_NULL, 0, key), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_delete(MPI_INFO_NULL, "k"), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_dup(MPI_INFO_NULL, &info), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_free(&null), MPI_ERR_INFO);

    CHECK_CLASS(MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY);
    CHECK_CLASS(MPI_Info_set(info, NULL, "v"), MPI_ERR_INFO_KEY);
    CHECK_CLASS(MPI_Info_set(info, "k", NULL), MPI_ERR_INFO_VALUE);
    CHECK_CLASS(MPI_Info_get(info, "", 1, value, &flag), MPI_ERR_INFO_KEY);
    CHECK_CLASS(MPI_Info_get(info, "k", -1, value, &flag), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_delete(info, "missing"), MPI_ERR_INFO_NOKEY);
    CHECK_CLASS(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG);
    /* n = nkeys is out of range too (Open MPI says MPI_ERR_INFO_KEY) */
    CHECK(MPI_Info_get_nthkey(info, 1, key) != MPI_SUCCESS,
          "MPI_Info_get_nthkey(n = nkeys) succeeded");

    static char long_key[MPI_MAX_INFO_KEY + 1];
    memset(long_key, 'k', MPI_MAX_INFO_KEY);
    CHECK_CLASS(MPI_Info_get(info, long_key, 1, value, &flag),
                MPI_ERR_INFO_KEY);
    CHECK_CLASS(MPI_Info_get_valuelen(info, long_key, &n, &flag),
                MPI_ERR_INFO_KEY);
    CHECK_CLASS(MPI_Info_delete(info, long_key), MPI_ERR_INFO_KEY);

    check_keys(info, 1, (const char *[]){"k"}); /* untouched by it all */
    CHECK_MPI(MPI_Info_free(&info));
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    set_get_delete();
    limits();
    dup_is_independent();
    env(size);
    errors();
    if (rank == 0)
        printf("info at np=%d: ok\n", size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
