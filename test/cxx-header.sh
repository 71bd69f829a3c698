#!/usr/bin/env bash
# cxx-header: mpi.h and a C++ program using it (test/cxx_api.cc) compile without a warning under g++ and clang++, -std=c++11 and -std=c++17, -Wall -Wextra -pedantic.
# shmpi-test: timeout=120
# shmpi-test-skip san tsan: it checks what the compilers say about mpi.h, which a sanitizer does not change; step 2 runs it
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

n=0
for cxx in g++ clang++; do
    if ! command -v "$cxx" >/dev/null; then
        echo "skipped $cxx: not installed (Debian packages g++, clang)"
        continue
    fi
    for std in c++11 c++17; do
        SHMPI_CXX=$cxx "$SHMPI_ROOT/mpicxx" -std=$std -Wall -Wextra -pedantic \
            -Werror -fsyntax-only "$SHMPI_ROOT/test/cxx_api.cc" \
            >"$TEST_TMPDIR/log" 2>&1 ||
            { cat "$TEST_TMPDIR/log"; fail "$cxx -std=$std: warnings or errors"; }
        n=$((n + 1))
    done
done
[ $n -gt 0 ] || fail "neither g++ nor clang++ is installed"
pass "$n compilers x standards"
