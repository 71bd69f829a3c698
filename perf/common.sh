# SPDX-License-Identifier: BSD-3-Clause
# common.sh - sourced by every benchmark script in perf/.
#
# Sets ROOT (the source tree), PERFDIR (perf/), BIN (perf/bin/), the peers'
# commands, and offers:
#   build_walltime             perf/bin/walltime, the interleaving timer
#   build_mpi SRC NAME [CFLAGS...]
#                              SRC built three times: BIN/NAME-shmpi with
#                              ./mpicc, BIN/NAME-ompi with mpicc.openmpi,
#                              BIN/NAME-mpich with mpicc.mpich; a peer that
#                              is not installed, or shmpi without its
#                              ./mpirun, is skipped with a note.
#   have shmpi|ompi|mpich      true when that flavour of the last build_mpi
#                              exists
#   fmt_ms SECONDS             a time in ms, 3 significant digits or so
# Peer launch commands (arrays): SHMPI_RUN, OMPI_RUN, MPICH_RUN; each is
# followed by "-np N prog args".  STATS_AWK: the awk functions the tables
# share (perf/stats.awk), to put before a script's own awk program.
PERFDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$PERFDIR")
BIN=$PERFDIR/bin
mkdir -p "$BIN"

SHMPI_RUN=("$ROOT/mpirun")
# Open MPI refuses to run as root without --allow-run-as-root, and refuses
# more ranks than cores without --oversubscribe.
OMPI_RUN=(mpirun.openmpi --allow-run-as-root --oversubscribe)
# Hydra's fork launcher: no ssh, no daemons beyond hydra's own proxy.
MPICH_RUN=(mpiexec.mpich -launcher fork)

STATS_AWK=$(cat "$PERFDIR/stats.awk")

CC=${CC:-cc}
PERF_CFLAGS=${PERF_CFLAGS:--O2}

note() { printf '%s\n' "$*" >&2; }

build_walltime() {
    if [ ! -x "$BIN/walltime" ] || [ "$PERFDIR/walltime.c" -nt "$BIN/walltime" ]; then
        "$CC" -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -o "$BIN/walltime" \
            "$PERFDIR/walltime.c" || { note "perf: cannot build walltime"; return 1; }
    fi
}

declare -A _have
build_mpi() {
    local src=$1 name=$2; shift 2
    _have=()
    rm -f "$BIN/$name-shmpi" "$BIN/$name-ompi" "$BIN/$name-mpich"
    if [ ! -x "${SHMPI_RUN[0]}" ]; then
        note "perf: ./mpirun not built (run 'make'); shmpi skipped"
    elif [ -f "$ROOT/lib/libmpi.a" ] &&
       "$ROOT/mpicc" $PERF_CFLAGS "$@" "$src" -o "$BIN/$name-shmpi"; then
        _have[shmpi]=1
    else
        note "perf: $name-shmpi could not be built (run 'make' first)"
    fi
    if command -v mpicc.openmpi >/dev/null && command -v mpirun.openmpi >/dev/null; then
        mpicc.openmpi $PERF_CFLAGS "$@" "$src" -o "$BIN/$name-ompi" && _have[ompi]=1
    else
        note "perf: Open MPI not installed (Debian: openmpi-bin libopenmpi-dev); skipping it"
    fi
    if command -v mpicc.mpich >/dev/null && command -v mpiexec.mpich >/dev/null; then
        mpicc.mpich $PERF_CFLAGS "$@" "$src" -o "$BIN/$name-mpich" && _have[mpich]=1
    else
        note "perf: MPICH not installed (Debian: mpich libmpich-dev); skipping it"
    fi
}
have() { [ -n "${_have[$1]:-}" ]; }

fmt_ms() {
    awk -v s="$1" 'BEGIN { ms = s * 1000;
        if (ms < 10) printf "%.2f", ms; else if (ms < 1000) printf "%.1f", ms;
        else printf "%.0f", ms }'
}

machine_line() {
    local cpu
    cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
    printf '%s; %s CPUs online; Linux %s; load average %s; %s\n' \
        "${cpu:-unknown CPU}" "$(nproc)" "$(uname -r)" \
        "$(cut -d' ' -f1-3 /proc/loadavg)" "$(date -u '+%Y-%m-%d %H:%M UTC')"
}
