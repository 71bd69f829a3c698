#!/usr/bin/env bash
# mpicc-paths: mpicc, mpicxx and mpic++ under a path with a space and "$(touch pwned)" in it, in the tree and installed, build C and C++ programs that run, and execute nothing of the path.
# shmpi-test: timeout=180
# shmpi-test-skip san tsan: it checks where the wrappers and the installed files point, and the programs it runs do what every other test does before a sanitizer; step 2 runs it
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

work=$TEST_TMPDIR/work
mkdir -p "$work" "$TEST_TMPDIR/a b" "$TEST_TMPDIR/c d"
cd "$work" || fail "cannot cd to $work"
# shellcheck disable=SC2016
evil='$(touch pwned)'

nothing_ran() { # what
    local hits
    hits=$(find "$TEST_TMPDIR" "$SHMPI_ROOT" -maxdepth 1 -name pwned)
    [ -z "$hits" ] || fail "$1 executed the command in its path: $hits"
}

# Builds and runs examples/hello.c (mpicc) and test/cxx_api.cc (mpicxx)
# with the wrappers in directory $1 (bin/ of an install, or the tree's top).
build_and_run() { # dir what
    local d=$1 what=$2
    # shellcheck disable=SC2086
    "$d/mpicc" ${SANFLAGS:-} -o hello "$SHMPI_ROOT/examples/hello.c" ||
        fail "$what: mpicc cannot build hello.c"
    nothing_ran "$what mpicc"
    start_job "$MPIRUN" -np 2 ./hello
    finish_job
    expect_status 0
    expect_lines "$OUT" '^hello from rank [01] of 2' 2
    rm -f cxx_api
    # shellcheck disable=SC2086
    "$d/mpicxx" ${SANFLAGS:-} -std=c++11 -Wall -Wextra -pedantic -Werror \
        -o cxx_api "$SHMPI_ROOT/test/cxx_api.cc" ||
        fail "$what: mpicxx cannot build test/cxx_api.cc"
    nothing_ran "$what mpicxx"
    start_job "$MPIRUN" -np 2 ./cxx_api
    finish_job
    expect_status 0
    # mpic++ is the same program under another name
    [ "$("$d/mpic++" -show -c x.cc)" = "$("$d/mpicxx" -show -c x.cc)" ] ||
        fail "$what: mpic++ -show differs from mpicxx -show"
    # -show prints a line a shell can run again: the path stays one word
    local line
    # shellcheck disable=SC2086
    line=$("$d/mpicc" -show ${SANFLAGS:-} -o hello2 "$SHMPI_ROOT/examples/hello.c")
    case $line in *"$evil"*) ;; *) fail "$what: -show lost the path: $line" ;; esac
    eval "$line" || fail "$what: the line of -show does not build: $line"
    nothing_ran "$what mpicc -show"
    [ -x hello2 ] || fail "$what: the line of -show built nothing"
    rm -f hello hello2 cxx_api
}

# The source tree, reached through a symbolic link with such a name.
ln -s "$SHMPI_ROOT" "$TEST_TMPDIR/a b/$evil"
build_and_run "$TEST_TMPDIR/a b/$evil" "in the tree"

# An install (make install with a space in PREFIX), then moved under such
# a name: the wrappers find the install relative to themselves.
# shellcheck disable=SC2046
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
    make -s -C "$SHMPI_ROOT" install $(tree_flavor) PREFIX="$TEST_TMPDIR/c d/inst" \
    >"$TEST_TMPDIR/install.log" 2>&1 ||
    { cat "$TEST_TMPDIR/install.log"; fail "make install PREFIX='$TEST_TMPDIR/c d/inst' failed"; }
for w in mpicc mpicxx mpic++ mpirun mpiexec; do
    [ -x "$TEST_TMPDIR/c d/inst/bin/$w" ] || fail "make install did not install bin/$w"
done
for m in man1/mpicc.1 man1/mpicxx.1 man1/mpic++.1; do
    [ -e "$TEST_TMPDIR/c d/inst/share/man/$m" ] || fail "make install did not install $m"
done
mv "$TEST_TMPDIR/c d/inst" "$TEST_TMPDIR/c d/$evil"
build_and_run "$TEST_TMPDIR/c d/$evil/bin" "installed"
expect_shm_clean
pass
