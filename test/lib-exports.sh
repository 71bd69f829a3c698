#!/usr/bin/env bash
# lib-exports: lib/libmpi.so exports (and lib/libmpi.a holds as global) exactly the MPI_ and PMPI_ functions and the predefined objects mpi.h declares extern - every one of them, and nothing of the library's own.
# shmpi-test: timeout=60
# shmpi-test-skip san tsan: it reads the tree, the man pages and the symbol tables the build made, where a sanitizer has nothing to look at; step 2 runs it
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

so=$SHMPI_ROOT/lib/libmpi.so
[ -e "$so" ] || fail "$so is missing: run make first"
cd "$TEST_TMPDIR" || fail "cannot cd to $TEST_TMPDIR"

nm -D --defined-only "$so" | awk 'NF == 3 { print $3 }' | LC_ALL=C sort -u >exported ||
    fail "nm -D cannot read $so"
[ -s exported ] || fail "$so exports nothing"

# mpi.h, preprocessed, one declaration a line: the objects it declares
# extern (struct tags dropped), and the functions it declares (typedefs
# of function types dropped).
cc -E -P -x c "$SHMPI_ROOT/mpi.h" | tr '\n' ' ' | tr ';' '\n' >decls ||
    fail "mpi.h does not preprocess"
sed -n 's/^ *extern  *//p' decls | sed 's/struct  *[A-Za-z0-9_]*//g' |
    grep -o 'shmpi_[A-Za-z0-9_]*' | LC_ALL=C sort -u >objects
grep -v '^ *typedef' decls | grep -o '\bP\{0,1\}MPI_[A-Za-z0-9_]* *(' |
    tr -d ' (' | LC_ALL=C sort -u >functions
[ -s objects ] && [ -s functions ] || fail "no declaration found in mpi.h"

extra=$(grep -Ev '^P?MPI_' exported | LC_ALL=C comm -23 - objects)
if [ -n "$extra" ]; then
    fail "libmpi.so exports $(echo "$extra" | wc -l) symbols beyond MPI_*, PMPI_* and mpi.h's objects: $(echo $extra)"
fi
# libmpi.a: the same names global, the rest made local by the build
ar=$SHMPI_ROOT/lib/libmpi.a
nm -g --defined-only "$ar" | awk 'NF == 3 { print $3 }' | LC_ALL=C sort -u >global ||
    fail "nm -g cannot read $ar"
extra=$(grep -Ev '^P?MPI_' global | LC_ALL=C comm -23 - objects)
if [ -n "$extra" ]; then
    fail "libmpi.a has $(echo "$extra" | wc -l) global symbols beyond MPI_*, PMPI_* and mpi.h's objects: $(echo $extra)"
fi
missing=$(LC_ALL=C sort -u objects functions | LC_ALL=C comm -23 - exported)
[ -z "$missing" ] ||
    fail "mpi.h declares what libmpi.so does not export: $(echo $missing)"
missing=$(LC_ALL=C sort -u objects functions | LC_ALL=C comm -23 - global)
[ -z "$missing" ] ||
    fail "mpi.h declares what libmpi.a does not hold as global: $(echo $missing)"
pass "$(wc -l <exported) symbols: $(wc -l <functions) functions, $(wc -l <objects) objects"
