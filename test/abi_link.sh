#!/usr/bin/env bash
# abi_link: lib/libmpi_abi.so exports exactly the MPI_ and PMPI_ functions include/abi/mpi.h declares, MPI_ ones weak; a program's own MPI_Send wraps PMPI_Send; mpicc_abi links libmpi_abi.a statically.
# shmpi-test: timeout=120
# shmpi-test-skip san tsan: it reads the tree, the man pages and the symbol tables the build made, where a sanitizer has nothing to look at; step 2 runs it
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

so=$SHMPI_ROOT/lib/libmpi_abi.so
ar=$SHMPI_ROOT/lib/libmpi_abi.a
[ -e "$so" ] && [ -e "$ar" ] || fail "libmpi_abi.so/.a missing: run make first"
cd "$TEST_TMPDIR" || fail "cannot cd to $TEST_TMPDIR"

nm -D --defined-only "$so" | awk 'NF == 3 { print $3 }' | LC_ALL=C sort -u >exported ||
    fail "nm -D cannot read $so"
cc -E -P -x c "$SHMPI_ROOT/include/abi/mpi.h" | tr '\n' ' ' | tr ';' '\n' |
    grep -v '^ *typedef' | grep -o '\bP\{0,1\}MPI_[A-Za-z0-9_]* *(' |
    tr -d ' (' | LC_ALL=C sort -u >functions
[ -s functions ] || fail "no function found in include/abi/mpi.h"
diff=$(LC_ALL=C comm -3 exported functions)
[ -z "$diff" ] ||
    fail "libmpi_abi.so's exports and the ABI header's functions differ: $(echo $diff)"
strong=$(nm -D --defined-only "$so" | awk '$2 != "W" && $3 ~ /^MPI_/ { print $3 }')
[ -z "$strong" ] || fail "MPI_ functions not weak: $(echo $strong)"
global=$(nm -g --defined-only "$ar" | awk 'NF == 3 { print $3 }' | LC_ALL=C sort -u)
[ "$global" = "$(cat functions)" ] ||
    fail "libmpi_abi.a's global symbols are not the ABI header's functions"

# A program of the ABI that interposes MPI_Send and counts, linked both
# ways; run at np 2.
cat >wrap.c <<'C'
#include <mpi.h>
#include <stdio.h>
static int sends;
int MPI_Send(const void *b, int n, MPI_Datatype t, int d, int g, MPI_Comm c)
{
    sends++;
    return PMPI_Send(b, n, t, d, g, c);
}
int main(int argc, char **argv)
{
    int rank, x = 7;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    printf("rank %d x %d sends %d\n", rank, x, sends);
    return x != 7 || sends != (rank == 0);
}
C
"$SHMPI_ROOT/mpicc_abi" -shared-mpi -o wrap_so wrap.c 2>cc.log ||
    fail "mpicc_abi -shared-mpi failed: $(cat cc.log)"
"$SHMPI_ROOT/mpicc_abi" -o wrap_a wrap.c 2>cc.log ||
    fail "mpicc_abi (static) failed: $(cat cc.log)"
ldd wrap_so | grep -q 'libmpi_abi\.so\.1 => .*/lib/libmpi_abi\.so\.1' ||
    fail "wrap_so does not load lib/libmpi_abi.so.1: $(ldd wrap_so)"
! ldd wrap_so | grep -q libshmpi ||
    fail "wrap_so loads shmpi's own library too"
for p in wrap_so wrap_a; do
    "$SHMPI_ROOT/mpirun" -np 2 "./$p" >"$p.out" 2>&1 ||
        fail "$p failed: $(cat "$p.out")"
    expect_lines "$p.out" '^rank 0 x 7 sends 1$' 1
    expect_lines "$p.out" '^rank 1 x 7 sends 0$' 1
done
pass "$(wc -l <functions) functions; MPI_Send interposed, shared and static"
