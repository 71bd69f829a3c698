#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# pt2pt-count.sh - instructions per message of osu_bw's window in shmpi
# (perf/pt2pt-count.c), counted by callgrind on both ranks: what a change
# to the nonblocking path saves, measured the same way whatever else runs
# on the machine.  Run by name: perf/run-perf pt2pt-count.
# Knobs: COUNT_SIZES (default "1 8 64 1024"), COUNT_WINDOW (64),
# COUNT_WINDOWS (100), COUNT_MODES ("p u r"; pt2pt-count.c says what each is),
# COUNT_LEVEL (single; "multiple": MPI_Init_thread(MPI_THREAD_MULTIPLE),
# one thread - what the thread locks cost).
set -u
. "$(dirname "$0")/common.sh"
unset SHMPI_NP SHMPI_RANK SHMPI_SIZE SHMPI_ARENA_FD
command -v valgrind >/dev/null || { echo "pt2pt-count: needs valgrind" >&2; exit 1; }
mkdir -p "$BIN"
"$ROOT/mpicc" $PERF_CFLAGS -g "$PERFDIR/pt2pt-count.c" -o "$BIN/pt2pt-count" || exit 1
w=${COUNT_WINDOW:-64}; n=${COUNT_WINDOWS:-100}
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
echo "| size | mode | MPI_Isend | sender's MPI_Waitall | MPI_Irecv | receiver's MPI_Waitall |"
echo "| ---: | --- | ---: | ---: | ---: | ---: |"
for size in ${COUNT_SIZES:-1 8 64 1024}; do
    for mode in ${COUNT_MODES:-p u r}; do
        rm -f "$out"/cg.*
        "$ROOT/mpirun" -np 2 valgrind -q --tool=callgrind --collect-atstart=no \
            --toggle-collect=count_isends --toggle-collect=count_irecvs \
            --toggle-collect=count_waitall --callgrind-out-file="$out/cg.%q{SHMPI_RANK}" \
            "$BIN/pt2pt-count" "$size" "$w" "$n" "$mode" \
            "${COUNT_LEVEL:-single}" >/dev/null ||
            { echo "| $size | $mode | FAIL | | | |"; continue; }
        # Ir per message of each counted function, inclusive
        per() { callgrind_annotate --inclusive=yes "$out/cg.$1" 2>/dev/null |
                awk -v f="$2" -v n=$((w * n)) '$0 ~ ":" f " " {gsub(",", "", $1); printf "%.0f", $1 / n}'; }
        echo "| $size | $mode | $(per 0 count_isends) | $(per 0 count_waitall) | $(per 1 count_irecvs) | $(per 1 count_waitall) |"
    done
done
