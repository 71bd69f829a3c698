#!/usr/bin/env bash
# install-pkgconfig: make install puts libshmpi.so.VERSION with its soname link and libmpi.so; a program built with `cc $(pkg-config --cflags --libs shmpi)` or the installed `mpicc -shared-mpi` loads that library, not another MPI's libmpi.so, even with Open MPI's directory in LD_LIBRARY_PATH.
# shmpi-test: timeout=180
# shmpi-test-skip san tsan: it checks where the wrappers and the installed files point, and the programs it runs do what every other test does before a sanitizer; step 2 runs it
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

command -v pkg-config >/dev/null || fail "pkg-config is not installed (Debian package pkg-config)"
cd "$TEST_TMPDIR" || fail "cannot cd to $TEST_TMPDIR"
inst=$TEST_TMPDIR/inst
# shellcheck disable=SC2046
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
    make -s -C "$SHMPI_ROOT" install $(tree_flavor) PREFIX="$inst" \
    >install.log 2>&1 || { cat install.log; fail "make install PREFIX=$inst failed"; }

version=$(sed -n 's/.*SHMPI_VERSION_STRING "\(.*\)"/\1/p' "$SHMPI_ROOT/mpi.h")
file=libshmpi.so.$version
soname=libshmpi.so.${version%%.*}
lib=$inst/lib
[ -f "$lib/$file" ] && [ ! -L "$lib/$file" ] || fail "no file lib/$file installed"
[ "$(readlink "$lib/$soname")" = "$file" ] || fail "lib/$soname is not a link to $file"
[ "$(readlink "$lib/libmpi.so")" = "$soname" ] || fail "lib/libmpi.so is not a link to $soname"
[ -f "$lib/libmpi.a" ] || fail "no lib/libmpi.a installed"
readelf -d "$lib/$file" | grep -q "(SONAME).*\[$soname\]" ||
    fail "$file has not the soname $soname: $(readelf -d "$lib/$file" | grep SONAME)"

cat >version.c <<'C'
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Get_library_version(v, &n);
    printf("rank %d: %s\n", rank, v);
    MPI_Finalize();
    return 0;
}
C

# Which libmpi the program loads, and what it says it is.
check_run() { # what
    local ldd_line
    ldd_line=$(ldd ./version | grep -E 'lib(shmpi|mpi|mpich)\.so')
    case $ldd_line in
        *"$soname => $lib/$soname "*) ;;
        *) fail "$1: the program loads $ldd_line" ;;
    esac
    start_job "$inst/bin/mpirun" -np 2 ./version
    finish_job
    expect_status 0
    expect_lines "$OUT" '^rank [01]: shmpi ' 2
    echo "$1: $ldd_line"
}

export PKG_CONFIG_PATH=$lib/pkgconfig
flags=$(pkg-config --cflags --libs shmpi) || fail "pkg-config knows no shmpi"
# shellcheck disable=SC2086
cc ${SANFLAGS:-} -o version version.c $flags >build.log 2>&1 ||
    { cat build.log; fail "cc \$(pkg-config --cflags --libs shmpi) failed: $flags"; }
check_run "pkg-config"

# Open MPI's directory first in the search path changes nothing: the
# program asks for the soname, which no other MPI has.
ompi_lib=$(mpicc.openmpi --showme:libdirs 2>/dev/null | awk '{ print $1 }')
if [ -n "$ompi_lib" ] && [ -e "$ompi_lib/libmpi.so" ]; then
    LD_LIBRARY_PATH=$ompi_lib check_run "pkg-config, LD_LIBRARY_PATH=$ompi_lib"
else
    echo "skipped LD_LIBRARY_PATH: no Open MPI found"
fi

rm -f version
# shellcheck disable=SC2086
"$inst/bin/mpicc" -shared-mpi ${SANFLAGS:-} -o version version.c >build.log 2>&1 ||
    { cat build.log; fail "the installed mpicc -shared-mpi failed"; }
check_run "mpicc -shared-mpi"
expect_shm_clean
pass
