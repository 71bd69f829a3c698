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
#   have shmpi|base|ompi|mpich true when that flavour of the last build_mpi
#                              exists
#   use_baseline               called by a benchmark that runs a baseline,
#                              before build_mpi: with PERF_BASELINE=REV set
#                              (any git revision), builds REV's shmpi (below)
#                              and makes build_mpi build BIN/NAME-base with
#                              REV's ./mpicc; a script that does not call it
#                              notes that it ignores PERF_BASELINE.
#   launcher_of IMPL           LAUNCHER=(the launch command of IMPL): SHMPI_RUN
#                              for shmpi, BASE_RUN for base, OMPI_RUN, MPICH_RUN
#   baseline_line              one line naming the baseline (nothing without)
#   fmt_ms SECONDS             a time in ms, 3 significant digits or so
# Peer launch commands (arrays): SHMPI_RUN, OMPI_RUN, MPICH_RUN; each is
# followed by "-np N prog args".  STATS_AWK: the awk functions the tables
# share (perf/stats.awk), to put before a script's own awk program.
#
# The baseline (PERF_BASELINE=REV): a second shmpi, built from git revision
# REV, run as one more implementation beside the working tree's, named
# "base" in the scripts and raw files and BASE_LABEL ("shmpi@<short hash>")
# in the tables.  REV is exported with `git archive` (the repository is
# not touched) into BIN/baseline/<full hash>/ and built there with
# `make -j2`, once per commit: a finished build leaves .built-ok, and the
# next script reuses it.  BASE_RUN is that tree's ./mpirun, its programs
# are built with its ./mpicc, and it is run with the same options, pinning
# and noise guard as the working tree's shmpi.
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

# perf/bin/limits, the machine's own limits (perf/limits.c)
build_limits() {
    if [ ! -x "$BIN/limits" ] || [ "$PERFDIR/limits.c" -nt "$BIN/limits" ]; then
        "$CC" -std=c11 -O2 -Wall -Wextra -o "$BIN/limits" "$PERFDIR/limits.c" ||
            { note "perf: cannot build limits"; return 1; }
    fi
}

BASE_DIR= BASE_LABEL= BASE_RUN=()
use_baseline() {
    local rev=${PERF_BASELINE:-} hash dir
    [ -z "$rev" ] && return 0
    hash=$(git -C "$ROOT" rev-parse --verify --quiet "$rev^{commit}") ||
        { note "perf: PERF_BASELINE='$rev' is not a git revision of $ROOT"; exit 2; }
    dir=$BIN/baseline/$hash
    if [ ! -f "$dir/.built-ok" ]; then
        note "perf: building the baseline $rev ($hash) in $dir (make -j2)"
        rm -rf "$dir"; mkdir -p "$dir"
        git -C "$ROOT" archive --format=tar "$hash" | tar -x -C "$dir" ||
            { note "perf: cannot export $hash into $dir"; exit 1; }
        make -C "$dir" -j2 >"$dir/build.log" 2>&1 ||
            { note "perf: the baseline $hash does not build; see $dir/build.log"; exit 1; }
        touch "$dir/.built-ok"
    fi
    BASE_DIR=$dir
    BASE_LABEL=shmpi@$(git -C "$ROOT" rev-parse --short "$hash")
    BASE_RUN=("$dir/mpirun")
}

baseline_line() {
    [ -n "$BASE_DIR" ] || return 0
    echo "baseline: $BASE_LABEL = PERF_BASELINE=$PERF_BASELINE ($(basename "$BASE_DIR")), built in ${BASE_DIR#"$ROOT"/}; ratios \"shmpi / baseline\" are the working tree's over it"
}

launcher_of() {
    case $1 in
        shmpi) LAUNCHER=("${SHMPI_RUN[@]}") ;;
        base)  LAUNCHER=("${BASE_RUN[@]}") ;;
        ompi)  LAUNCHER=("${OMPI_RUN[@]}") ;;
        mpich) LAUNCHER=("${MPICH_RUN[@]}") ;;
    esac
}

declare -A _have
build_mpi() {
    local src=$1 name=$2; shift 2
    _have=()
    rm -f "$BIN/$name-shmpi" "$BIN/$name-base" "$BIN/$name-ompi" "$BIN/$name-mpich"
    if [ -n "$BASE_DIR" ]; then
        "$BASE_DIR/mpicc" $PERF_CFLAGS "$@" "$src" -o "$BIN/$name-base" && _have[base]=1
    elif [ -n "${PERF_BASELINE:-}" ] && [ -z "${_base_noted:-}" ]; then
        note "perf: this benchmark runs no baseline; PERF_BASELINE ignored"
        _base_noted=1
    fi
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
