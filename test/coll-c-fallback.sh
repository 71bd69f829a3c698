#!/usr/bin/env bash
# coll-c-fallback: the large-count collectives where no communicator has a collective area (SHMPI_COLL_AREAS=0: the blocking ones then run over point-to-point messages, coll/fallback.c, which count in int and cut larger blocks): coll_c_ext (every _c form against its MPI-3.1 form) at np 1, 2 and 4, and coll_c_big_ext (2^31 + 8 bytes broadcast as bytes and as a derived 4-byte type, and allreduced) at np 2 but under ThreadSanitizer, whose shadow of the 2 GiB a rank would not fit.
# shmpi-test: timeout=900 ext
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

build_test() { # name: test/name.c into $TEST_TMPDIR/name
    # shellcheck disable=SC2086
    "$SHMPI_ROOT/mpicc" ${SANFLAGS:-} -O1 -g -Wall -Wextra \
        -I"$SHMPI_ROOT/test" -o "$TEST_TMPDIR/$1" \
        "$SHMPI_ROOT/test/$1.c" >"$OUT" 2>"$ERR" || fail "cannot build $1"
}

no_areas() { # np program
    start_job env SHMPI_COLL_AREAS=0 "$MPIRUN" -np "$1" --timeout 800 \
        "$TEST_TMPDIR/$2"
    finish_job
    expect_status 0
}

build_test coll_c_ext
for np in 1 2 4; do
    no_areas "$np" coll_c_ext
done

case "${SANFLAGS:-}" in
*thread*) pass "2 GiB a rank skipped under ThreadSanitizer" ;;
esac
build_test coll_c_big_ext
no_areas 2 coll_c_big_ext
expect_shm_clean
pass
