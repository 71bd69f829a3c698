#!/usr/bin/env bash
# deprecated: mpi.h warns (-Wdeprecated-declarations) at each use of the MPI-1 attribute interface, naming the replacement, stays silent for a program that uses none of it, and SHMPI_NO_DEPRECATION_WARNINGS turns the warnings off, with gcc and clang; an error in an MPI-1 call is reported under the MPI-1 name.
# shmpi-test: timeout=60
# shmpi-test-skip san tsan: it checks what the compilers say about mpi.h, which a sanitizer does not change; step 2 runs it
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

old=$TEST_TMPDIR/old.c
cat >"$old" <<'PROG'
#include <mpi.h>
int main(int argc, char **argv)
{
    int k, flag;
    void *v;
    MPI_Init(&argc, &argv);
    MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k, NULL);
    MPI_Attr_put(MPI_COMM_WORLD, k, NULL);
    MPI_Attr_get(MPI_COMM_WORLD, k, &v, &flag);
    MPI_Attr_delete(MPI_COMM_WORLD, k);
    MPI_Keyval_free(&k);
    MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &k, NULL);
    PMPI_Keyval_free(&k);
    return MPI_Finalize();
}
PROG
new=$TEST_TMPDIR/new.c
cat >"$new" <<'PROG'
#include <mpi.h>
int main(int argc, char **argv)
{
    int k;
    MPI_Init(&argc, &argv);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k,
                           NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, k, NULL);
    MPI_Comm_free_keyval(&k);
    return MPI_Finalize();
}
PROG

for cc in gcc clang; do
    command -v $cc >/dev/null || continue
    log=$TEST_TMPDIR/$cc.log
    # one warning per use, each naming what replaces the call
    SHMPI_CC=$cc "$SHMPI_ROOT/mpicc" -Wall -Wextra -c -o "$TEST_TMPDIR/old.o" "$old" >"$log" 2>&1 ||
        fail "$cc: the program using the MPI-1 calls does not build: $(cat "$log")"
    for use in 'MPI_Keyval_create.*MPI_Comm_create_keyval' \
               'MPI_DUP_FN.*MPI_COMM_DUP_FN' 'MPI_NULL_DELETE_FN.*MPI_COMM_NULL_DELETE_FN' \
               'MPI_Attr_put.*MPI_Comm_set_attr' 'MPI_Attr_get.*MPI_Comm_get_attr' \
               'MPI_Attr_delete.*MPI_Comm_delete_attr' 'MPI_NULL_COPY_FN.*MPI_COMM_NULL_COPY_FN' \
               'PMPI_Keyval_free.*MPI_Comm_free_keyval'; do
        grep -Eq "$use" "$log" || fail "$cc: no deprecation warning matching '$use': $(cat "$log")"
    done
    grep -q 'Wdeprecated-declarations' "$log" || fail "$cc: the warnings are not -Wdeprecated-declarations"
    SHMPI_CC=$cc "$SHMPI_ROOT/mpicc" -Wall -Wextra -Werror -DSHMPI_NO_DEPRECATION_WARNINGS \
        -c -o "$TEST_TMPDIR/old.o" "$old" >"$log" 2>&1 ||
        fail "$cc: SHMPI_NO_DEPRECATION_WARNINGS did not silence them: $(cat "$log")"
    SHMPI_CC=$cc "$SHMPI_ROOT/mpicc" -Wall -Wextra -Werror -c -o "$TEST_TMPDIR/new.o" "$new" >"$log" 2>&1 ||
        fail "$cc: a program without the MPI-1 calls gets warnings: $(cat "$log")"
done

# errors are reported under the name the program called
bad=$TEST_TMPDIR/bad.c
cat >"$bad" <<'PROG'
#define SHMPI_NO_DEPRECATION_WARNINGS
#include <mpi.h>
int main(int argc, char **argv)
{
    int k;
    MPI_Init(&argc, &argv);
    MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &k, NULL);
    int freed = k;
    MPI_Keyval_free(&k);
    MPI_Attr_put(MPI_COMM_WORLD, freed, NULL);
    return MPI_Finalize();
}
PROG
# shellcheck disable=SC2086
"$SHMPI_ROOT/mpicc" ${SANFLAGS:-} -o "$TEST_TMPDIR/bad" "$bad" >"$TEST_TMPDIR/bad.log" 2>&1 ||
    fail "the erroneous program does not build: $(cat "$TEST_TMPDIR/bad.log")"
start_job "$MPIRUN" -np 1 "$TEST_TMPDIR/bad"
finish_job
[ "$STATUS" = 36 ] || fail "exit status $STATUS, expected 36 (MPI_ERR_KEYVAL)"
expect_lines "$ERR" '^shmpi: rank 0: MPI_Attr_put: .* \(MPI_ERR_KEYVAL\)$' 1
expect_shm_clean
pass
