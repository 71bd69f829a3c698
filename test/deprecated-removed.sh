#!/usr/bin/env bash
# deprecated-removed: mpi.h warns (-Wdeprecated-declarations) at each use of an MPI-1 name removed in MPI-3.0 (MPI_Address, MPI_Type_extent/lb/ub/hvector/hindexed/struct, MPI_LB, MPI_UB, MPI_Errhandler_create/set/get, MPI_Handler_function, the _INTEGER combiners) and of the errhandler_fn typedefs deprecated in MPI-2.2, naming the replacement, with gcc and clang; -Werror=deprecated-declarations makes it an error; SHMPI_NO_DEPRECATION_WARNINGS silences them; a program using none gets no warning; errors are reported under the MPI-1 name.
# shmpi-test: timeout=60
# shmpi-test-skip san tsan: it checks what the compilers say about mpi.h, which a sanitizer does not change; step 2 runs it
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

old=$TEST_TMPDIR/old.c
cat >"$old" <<'PROG'
#include <mpi.h>
static void h(MPI_Comm *c, int *e, ...) { (void)c; (void)e; }
int main(int argc, char **argv)
{
    MPI_Aint a, e;
    MPI_Datatype t, s;
    MPI_Errhandler eh;
    MPI_Handler_function *f = h;
    MPI_Comm_errhandler_fn *cf = h;
    MPI_Win_errhandler_fn *wf = 0;
    MPI_File_errhandler_fn *ff = 0;
    int len = 1;
    MPI_Datatype types[2] = {MPI_LB, MPI_UB};
    MPI_Init(&argc, &argv);
    MPI_Address(&a, &a);
    MPI_Type_hvector(1, 1, 8, MPI_INT, &t);
    MPI_Type_hindexed(1, &len, &a, MPI_INT, &s);
    MPI_Type_struct(1, &len, &a, &t, &s);
    MPI_Type_extent(t, &e);
    MPI_Type_lb(t, &e);
    MPI_Type_ub(t, &e);
    PMPI_Type_ub(t, &e);
    MPI_Errhandler_create(f, &eh);
    MPI_Errhandler_set(MPI_COMM_WORLD, eh);
    MPI_Errhandler_get(MPI_COMM_WORLD, &eh);
    (void)cf; (void)wf; (void)ff; (void)types;
    return MPI_COMBINER_STRUCT_INTEGER + MPI_COMBINER_HVECTOR_INTEGER +
           MPI_COMBINER_HINDEXED_INTEGER + MPI_Finalize();
}
PROG
new=$TEST_TMPDIR/new.c
cat >"$new" <<'PROG'
#include <mpi.h>
static void h(MPI_Comm *c, int *e, ...) { (void)c; (void)e; }
int main(int argc, char **argv)
{
    MPI_Aint a, lb, e;
    MPI_Datatype t, s;
    MPI_Errhandler eh;
    MPI_Comm_errhandler_function *f = h;
    int len = 1;
    MPI_Init(&argc, &argv);
    MPI_Get_address(&a, &a);
    MPI_Type_create_hvector(1, 1, 8, MPI_INT, &t);
    MPI_Type_create_struct(1, &len, &a, &t, &s);
    MPI_Type_create_resized(t, 0, 16, &s);
    MPI_Type_get_extent(t, &lb, &e);
    MPI_Comm_create_errhandler(f, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    return MPI_COMBINER_STRUCT + MPI_Finalize();
}
PROG

for cc in gcc clang; do
    command -v $cc >/dev/null || continue
    log=$TEST_TMPDIR/$cc.log
    # one warning per use, each naming what replaces it
    SHMPI_CC=$cc "$SHMPI_ROOT/mpicc" -Wall -Wextra -c -o "$TEST_TMPDIR/old.o" "$old" >"$log" 2>&1 ||
        fail "$cc: the program using the removed names does not build: $(cat "$log")"
    for use in 'MPI_Address was removed in MPI-3.0: use MPI_Get_address' \
               'MPI_Type_hvector was removed in MPI-3.0: use MPI_Type_create_hvector' \
               'MPI_Type_hindexed was removed in MPI-3.0: use MPI_Type_create_hindexed' \
               'MPI_Type_struct was removed in MPI-3.0: use MPI_Type_create_struct' \
               'MPI_Type_extent was removed in MPI-3.0: use MPI_Type_get_extent' \
               'MPI_Type_lb was removed in MPI-3.0: use MPI_Type_get_extent' \
               'MPI_Type_ub was removed in MPI-3.0: use MPI_Type_get_extent' \
               'PMPI_Type_ub was removed in MPI-3.0: use MPI_Type_get_extent' \
               'MPI_LB was removed in MPI-3.0: use MPI_Type_create_resized' \
               'MPI_UB was removed in MPI-3.0: use MPI_Type_create_resized' \
               'MPI_Errhandler_create was removed in MPI-3.0: use MPI_Comm_create_errhandler' \
               'MPI_Errhandler_set was removed in MPI-3.0: use MPI_Comm_set_errhandler' \
               'MPI_Errhandler_get was removed in MPI-3.0: use MPI_Comm_get_errhandler' \
               'MPI_Handler_function was removed in MPI-3.0: use MPI_Comm_errhandler_function' \
               'MPI_COMBINER_STRUCT_INTEGER was removed in MPI-3.0: use MPI_COMBINER_STRUCT' \
               'MPI_COMBINER_HVECTOR_INTEGER was removed in MPI-3.0: use MPI_COMBINER_HVECTOR' \
               'MPI_COMBINER_HINDEXED_INTEGER was removed in MPI-3.0: use MPI_COMBINER_HINDEXED' \
               'deprecated since MPI-2.2: use MPI_Comm_errhandler_function' \
               'deprecated since MPI-2.2: use MPI_Win_errhandler_function' \
               'deprecated since MPI-2.2: use MPI_File_errhandler_function'; do
        grep -Fq "$use" "$log" || fail "$cc: no deprecation warning '$use': $(cat "$log")"
    done
    grep -q 'Wdeprecated-declarations' "$log" || fail "$cc: the warnings are not -Wdeprecated-declarations"
    # what a build that refuses removed names sees: an error naming the replacement
    if SHMPI_CC=$cc "$SHMPI_ROOT/mpicc" -Werror=deprecated-declarations -c -o "$TEST_TMPDIR/old.o" \
        "$old" >"$log" 2>&1; then
        fail "$cc: -Werror=deprecated-declarations accepted the removed names"
    fi
    grep -Fq 'error: ' "$log" && grep -Fq 'use MPI_Type_create_struct' "$log" ||
        fail "$cc: -Werror=deprecated-declarations: no error naming the replacement: $(cat "$log")"
    SHMPI_CC=$cc "$SHMPI_ROOT/mpicc" -Wall -Wextra -Werror -DSHMPI_NO_DEPRECATION_WARNINGS \
        -c -o "$TEST_TMPDIR/old.o" "$old" >"$log" 2>&1 ||
        fail "$cc: SHMPI_NO_DEPRECATION_WARNINGS did not silence them: $(cat "$log")"
    SHMPI_CC=$cc "$SHMPI_ROOT/mpicc" -std=c11 -pedantic -Wall -Wextra -Werror \
        -c -o "$TEST_TMPDIR/new.o" "$new" >"$log" 2>&1 ||
        fail "$cc: a program without the removed names gets warnings: $(cat "$log")"
done

# errors are reported under the name the program called
bad=$TEST_TMPDIR/bad.c
cat >"$bad" <<'PROG'
#define SHMPI_NO_DEPRECATION_WARNINGS
#include <mpi.h>
int main(int argc, char **argv)
{
    MPI_Datatype t;
    MPI_Init(&argc, &argv);
    MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (MPI_Type_hvector(-1, 1, 8, MPI_INT, &t) == MPI_SUCCESS)
        return 3;
    MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Type_struct(-1, NULL, NULL, NULL, &t);
    return MPI_Finalize();
}
PROG
# shellcheck disable=SC2086
"$SHMPI_ROOT/mpicc" ${SANFLAGS:-} -o "$TEST_TMPDIR/bad" "$bad" >"$TEST_TMPDIR/bad.log" 2>&1 ||
    fail "the erroneous program does not build: $(cat "$TEST_TMPDIR/bad.log")"
start_job "$MPIRUN" -np 1 "$TEST_TMPDIR/bad"
finish_job
[ "$STATUS" = 2 ] || fail "exit status $STATUS, expected 2 (MPI_ERR_COUNT): $ERR"
expect_lines "$ERR" '^shmpi: rank 0: MPI_Type_struct: .* \(MPI_ERR_COUNT\)$' 1
expect_shm_clean

cat >"$bad" <<'PROG'
#define SHMPI_NO_DEPRECATION_WARNINGS
#include <mpi.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Errhandler_get(MPI_COMM_WORLD, NULL);
    return MPI_Finalize();
}
PROG
# shellcheck disable=SC2086
"$SHMPI_ROOT/mpicc" ${SANFLAGS:-} -o "$TEST_TMPDIR/bad" "$bad" >"$TEST_TMPDIR/bad.log" 2>&1 ||
    fail "the second erroneous program does not build: $(cat "$TEST_TMPDIR/bad.log")"
start_job "$MPIRUN" -np 1 "$TEST_TMPDIR/bad"
finish_job
[ "$STATUS" = 13 ] || fail "exit status $STATUS, expected 13 (MPI_ERR_ARG): $ERR"
expect_lines "$ERR" '^shmpi: rank 0: MPI_Errhandler_get: .* \(MPI_ERR_ARG\)$' 1
expect_shm_clean
pass
