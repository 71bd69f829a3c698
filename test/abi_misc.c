/* abi_misc: the other communicator calls (split_type, dup_with_info, names, infos, intercommunicators, from groups too), info, added error classes and codes, Alloc_mem, Reduce_local, Op_commutative and Request_get_status_any/all/some through the standard ABI. */
/* shmpi-test: np=1,2,3 timeout=60 ext abi */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Built against include/abi/mpi.h: MPI_COMM_TYPE_SHARED is 221,
 * MPI_ERR_LASTCODE 0x3fff, MPI_INFO_NULL 0x130; an added class or code
 * must come out above 0x3fff, and shmpi's own values fail the checks.
 */
#include "check.h"

#include <stdint.h>

static int rank, size;

static void check_comms(void)
{
    MPI_Comm node, d;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
                                  MPI_INFO_NULL, &node));
    int ns = -1, res = -1;
    CHECK_MPI(MPI_Comm_size(node, &ns));
    CHECK(ns == size, "one machine, one shared communicator: %d", ns);
    CHECK_MPI(MPI_Comm_compare(node, MPI_COMM_WORLD, &res));
    CHECK(res == MPI_CONGRUENT, "split_type congruent %d", res);
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0,
                                  MPI_INFO_NULL, &d));
    CHECK(d == MPI_COMM_NULL, "split_type MPI_UNDEFINED");
    CHECK_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, 1, 0, MPI_INFO_NULL, &d),
                MPI_ERR_ARG);
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    CHECK_MPI(MPI_Comm_dup_with_info(node, info, &d));
    CHECK_MPI(MPI_Comm_compare(node, d, &res));
    CHECK(res == MPI_CONGRUENT, "dup_with_info congruent %d", res);
    MPI_Info used = MPI_INFO_NULL;
    CHECK_MPI(MPI_Comm_get_info(d, &used));
    CHECK(used != MPI_INFO_NULL && (uintptr_t)used >= 0x1000, "Comm_get_info");
    int len = 0, n = -1;
    CHECK_MPI(MPI_Info_get_nkeys(used, &n));
    CHECK(n >= 0, "the hints in use: %d", n);
    CHECK_MPI(MPI_Info_free(&used));
    CHECK_MPI(MPI_Comm_set_info(d, info));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_CLASS(MPI_Comm_set_info(d, MPI_INFO_NULL), MPI_ERR_INFO);
    CHECK_MPI(MPI_Comm_set_name(d, "abi dup"));
    char name[MPI_MAX_OBJECT_NAME];
    CHECK_MPI(MPI_Comm_get_name(d, name, &len));
    CHECK(strcmp(name, "abi dup") == 0 && len == 7, "name '%s'", name);
    CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK(strcmp(name, "MPI_COMM_WORLD") == 0, "world's name '%s'", name);
    int inter = -1;
    CHECK_MPI(MPI_Comm_test_inter(d, &inter));
    CHECK(!inter, "an intracommunicator");
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK_MPI(MPI_Comm_free(&node));

    if (size < 2)
        return;
    /* two halves, joined by an intercommunicator, then merged */
    int low = rank < size / 2;
    MPI_Comm half, ic, merged;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half));
    CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size / 2 : 0,
                                   77, &ic));
    CHECK_MPI(MPI_Comm_test_inter(ic, &inter));
    int rs = -1;
    CHECK_MPI(MPI_Comm_remote_size(ic, &rs));
    CHECK(inter && rs == (low ? size - size / 2 : size / 2), "remote size %d", rs);
    /* a root of the intercommunicator's broadcast is MPI_ROOT (-4) */
    int b = low ? 0 : 5;
    if (low)
        CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, 0, ic));
    else
        CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, rank == size / 2 ? MPI_ROOT
                                                            : MPI_PROC_NULL, ic));
    CHECK(!low || b == 5, "intercommunicator broadcast %d", b);
    CHECK_MPI(MPI_Intercomm_merge(ic, !low, &merged));
    int mr = -1;
    CHECK_MPI(MPI_Comm_rank(merged, &mr));
    CHECK(mr == rank, "merged rank %d", mr);
    CHECK_MPI(MPI_Comm_free(&merged));
    CHECK_MPI(MPI_Comm_free(&ic));
    /* the same from the two groups, leaders given in the groups' ranks */
    MPI_Group wg, lg, rg;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK_MPI(MPI_Comm_group(half, &lg));
    CHECK_MPI(MPI_Group_difference(wg, lg, &rg));
    CHECK_MPI(MPI_Intercomm_create_from_groups(lg, 0, rg, 0, "abi.halves",
                                               MPI_INFO_NULL,
                                               MPI_ERRORS_RETURN, &ic));
    CHECK_MPI(MPI_Comm_remote_size(ic, &rs));
    CHECK(rs == (low ? size - size / 2 : size / 2), "from groups: %d", rs);
    CHECK_MPI(MPI_Comm_free(&ic));
    CHECK_MPI(MPI_Group_free(&wg));
    CHECK_MPI(MPI_Group_free(&lg));
    CHECK_MPI(MPI_Group_free(&rg));
    CHECK_MPI(MPI_Comm_free(&half));
}

static void check_info(void)
{
    MPI_Info a, b;
    CHECK_MPI(MPI_Info_create(&a));
    CHECK_MPI(MPI_Info_set(a, "k1", "v1"));
    CHECK_MPI(MPI_Info_set(a, "k2", "v2"));
    CHECK_MPI(MPI_Info_dup(a, &b));
    CHECK_MPI(MPI_Info_delete(b, "k1"));
    int n = -1;
    CHECK_MPI(MPI_Info_get_nkeys(b, &n));
    char key[MPI_MAX_INFO_KEY];
    CHECK_MPI(MPI_Info_get_nthkey(b, 0, key));
    CHECK(n == 1 && strcmp(key, "k2") == 0, "dup less k1: %d '%s'", n, key);
    CHECK_MPI(MPI_Info_get_nkeys(a, &n));
    CHECK(n == 2, "the original keeps both: %d", n);
    CHECK_MPI(MPI_Info_free(&a));
    CHECK_MPI(MPI_Info_free(&b));
    char *argv[] = { "prog", NULL };
    CHECK_MPI(MPI_Info_create_env(1, argv, &a));
    CHECK(a != MPI_INFO_NULL && a != MPI_INFO_ENV, "Info_create_env");
    CHECK_MPI(MPI_Info_free(&a));
    CHECK_CLASS(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), MPI_ERR_INFO);
}

static int handled_code;

static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handled_code = *code;
}

static void check_errors(void)
{
    int cls = -1, code = -1;
    CHECK_MPI(MPI_Add_error_class(&cls));
    CHECK(cls > MPI_ERR_LASTCODE, "an added class %d is above 0x3fff", cls);
    CHECK_MPI(MPI_Add_error_code(cls, &code));
    CHECK(code > cls, "an added code %d", code);
    CHECK_MPI(MPI_Add_error_string(code, "abi test error"));
    int c = -1, len = 0;
    char s[MPI_MAX_ERROR_STRING];
    CHECK_MPI(MPI_Error_class(code, &c));
    CHECK(c == cls, "the code's class %d", c);
    CHECK_MPI(MPI_Error_string(code, s, &len));
    CHECK(strcmp(s, "abi test error") == 0, "string '%s'", s);
    int *last = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
    CHECK(flag && *last == code, "MPI_LASTUSEDCODE %d, code %d", *last, code);
    MPI_Errhandler eh;
    MPI_Comm d;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &d));
    CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(d, eh));
    CHECK_MPI(MPI_Comm_call_errhandler(d, code));
    CHECK(handled_code == code, "the handler got %d", handled_code);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK_MPI(MPI_Remove_error_string(code));
    CHECK_MPI(MPI_Remove_error_code(code));
    CHECK_MPI(MPI_Remove_error_class(cls));
    CHECK_CLASS(MPI_Add_error_code(cls, &code), MPI_ERR_ARG);
}

static void check_rest(void)
{
    int flag = -1;
    CHECK_MPI(MPI_Is_thread_main(&flag));
    CHECK(flag == 1, "Is_thread_main");
    CHECK_MPI(MPI_Pcontrol(1));
    double *mem = NULL;
    CHECK_MPI(MPI_Alloc_mem(4 * sizeof(double), MPI_INFO_NULL, &mem));
    CHECK(mem != NULL, "Alloc_mem");
    mem[3] = 1.5;
    CHECK_MPI(MPI_Free_mem(mem));
    int in[2] = { 3, 4 }, io[2] = { 10, 20 }, comm = -1;
    CHECK_MPI(MPI_Reduce_local(in, io, 2, MPI_INT, MPI_PROD));
    CHECK(io[0] == 30 && io[1] == 80, "Reduce_local %d %d", io[0], io[1]);
    CHECK_MPI(MPI_Reduce_local_c(in, io, (MPI_Count)1, MPI_INT, MPI_SUM));
    CHECK(io[0] == 33 && io[1] == 80, "Reduce_local_c %d", io[0]);
    CHECK_MPI(MPI_Op_commutative(MPI_SUM, &comm));
    CHECK(comm == 1, "MPI_SUM commutes");

    int v = rank, got = -1;
    MPI_Request r[2];
    MPI_Status st[2];
    CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &r[0]));
    r[1] = MPI_REQUEST_NULL;
    int idx = -2;
    flag = 1;
    CHECK_MPI(MPI_Request_get_status_any(2, r, &idx, &flag, &st[0]));
    CHECK(!flag, "nothing yet");
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_SELF));
    flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Request_get_status_all(2, r, &flag, st));
    CHECK(r[0] != MPI_REQUEST_NULL && st[0].MPI_TAG == 5 && st[0].MPI_SOURCE == 0,
          "get_status_all leaves the request, status %d", st[0].MPI_TAG);
    int n = -1, ind[2];
    CHECK_MPI(MPI_Request_get_status_some(2, r, &n, ind, st));
    CHECK(n == 1 && ind[0] == 0 && st[0].MPI_TAG == 5, "get_status_some %d", n);
    CHECK_MPI(MPI_Request_get_status_any(2, r, &idx, &flag, &st[1]));
    CHECK(flag && idx == 0, "get_status_any %d", idx);
    CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    CHECK(got == rank && r[0] == MPI_REQUEST_NULL, "completed");
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    check_comms();
    check_info();
    check_errors();
    check_rest();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
