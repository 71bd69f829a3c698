#!/usr/bin/env bash
# check-coll-kinds: mpirun --check compares the collectives of every kind of communicator - 60 ranks, a communicator without a collective area, an intercommunicator, a topology communicator's neighborhood collectives - and the type signatures (4 MPI_INT against 4 MPI_FLOAT in MPI_Bcast): each erroneous program is reported in one "shmpi check:" line and ends with 123, its corrected twin says nothing and ends with 0, as does an erroneous one without --check.
# shmpi-test: timeout=240
# shmpi-test-nocheck: it tests the check mode itself, running erroneous helpers with the mode and without it and expecting no report without it.
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

H=$TEST_BIN/check_coll_kinds
F='; fix: '

# (np, form, regex of the line[, a string it holds]): the line once, the
# job's first complaint, status 123; then FORM-ok quiet.  Extra
# environment in ENV.
run_pair() {
    local np=$1 form=$2 re=$3 holds=${4:-}
    # shellcheck disable=SC2086
    start_job env ${ENV:-} "$MPIRUN" --check --timeout 60 -np "$np" "$H" "$form"
    finish_job
    [ "$STATUS" = 123 ] || fail "$form: exit status $STATUS, expected 123"
    expect_lines "$ERR" '^shmpi check: ' 1
    expect_lines "$ERR" "$re" 1
    grep -Eq '^shmpi check: ' <(grep -E '^(shmpi check|mpirun)' "$ERR" | head -1) ||
        fail "$form: the check's line is not the job's first complaint"
    grep -E '^shmpi check' "$ERR" | grep -qF -- "$holds" ||
        fail "$form: the line does not say \"$holds\""
    expect_shm_clean
    # shellcheck disable=SC2086
    run_quiet env ${ENV:-} "$MPIRUN" --check -np "$np" "$H" "$form-ok"
}

run_pair 2 sig "^shmpi check: rank [01]: members called a collective with type signatures that do not match \(MPI-3.1 5.1\): rank [01]: MPI_Bcast\(root 0, 16 bytes of MPI_(INT|FLOAT)\); rank [01]: MPI_Bcast\(root 0, 16 bytes of MPI_(FLOAT|INT)\); collective 1 on MPI_COMM_WORLD${F}give every member the basic types"
# 60 ranks: their control lines leave no room in an area's last page
run_pair 60 big "^shmpi check: rank [0-9]+: members called a reduction with different ops \(MPI-3.1 5.1\): rank [0-9]+: MPI_Allreduce\(MPI_(SUM|MAX), 4 bytes\); rank [0-9]+: MPI_Allreduce\(MPI_(MAX|SUM), 4 bytes\); collective 2 on MPI_COMM_WORLD${F}pass the same op" \
    'rank 59: MPI_Allreduce(MPI_MAX, 4 bytes)'
# two areas: MPI_COMM_WORLD's and the check's; the dup's collectives
# go over messages
ENV=SHMPI_COLL_AREAS=2 run_pair 2 noarea "^shmpi check: rank [01]: members called a collective with different roots \(MPI-3.1 5.1\): rank [01]: MPI_Bcast\(root [01], 16 bytes\); rank [01]: MPI_Bcast\(root [01], 16 bytes\); collective 2 on nodup${F}pass the same root"
run_pair 4 inter "^shmpi check: rank [0-3]: members called a reduction with different ops \(MPI-3.1 5.1\): (remote )?rank [01]: MPI_Allreduce\(MPI_(SUM|MAX), 8 bytes\); rank [01]: MPI_Allreduce\(MPI_(MAX|SUM), 8 bytes\); collective 1 on the intercommunicator ab${F}pass the same op"
run_pair 2 neighbor "^shmpi check: rank [01]: members called different collectives at the same point \(MPI-3.1 7.6\): rank [01]: MPI_Neighbor_(allgather|alltoall)\(\); rank [01]: MPI_Neighbor_(alltoall|allgather)\(\); collective 1 on ring${F}every member"

# an erroneous form without the mode: no word, status 0
for form in sig neighbor; do
    run_quiet "$MPIRUN" -np 2 "$H" "$form"
done
pass
