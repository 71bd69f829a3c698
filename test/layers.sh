#!/usr/bin/env bash
# layers: no file of runtime/ includes, or links to, a room above its own (runtime/LAYERS), with no exception, and every global name a room defines carries its prefix; and the check catches an upward include, an upward call and a misnamed global.
# shmpi-test: timeout=60
# shmpi-test-skip san tsan: it reads the tree, the man pages and the symbol tables the build made, where a sanitizer has nothing to look at; step 2 runs it
# SPDX-License-Identifier: BSD-3-Clause
#
# Also `make check-layers`, or `bash test/layers.sh [ROOT]` (ROOT: a tree
# to check, default this one; then the check's own test is skipped).
#   includes  every `#include "room/..."` of every runtime/*/*.[ch]; a
#             failure names file:line, the include, and the rooms that
#             file may include;
#   links     every symbol an object of the last build (build/opt or
#             build/san, as lib/.flavor-* says) takes from another room's
#             objects: a declaration in a low header of something defined
#             high up escapes the include check, not this one.  Skipped,
#             with a line that says so, when nothing is built.
#   names     every global symbol an object of room R defines starts with
#             one of R's prefixes ("R = prefixes" in runtime/LAYERS); a
#             failure names the file, the symbol and those prefixes.
#             MPI_*, PMPI_*, main and the objects mpi.h declares (the
#             build's public.syms) are exempt.
set -u

root=${1:-${SHMPI_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}}

# rules TREE: "room may-include..." per room, from TREE/runtime/LAYERS
# (the layers bottom to top; "room: rooms it may include | rooms that
# may include it" for a room beside them).
rules() {
    awk '
    function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
    { sub(/#.*/, ""); line = trim($0) }
    line == "" { next }
    line ~ /=/ { next }                 # prefixes: see prefixes()
    line ~ /:/ {
        split(line, a, ":"); room = trim(a[1]); split(a[2], b, "|")
        may[room] = room " " trim(b[1])
        n = split(trim(b[2]), by, /[ \t]+/)
        for (i = 1; i <= n; i++) extra[by[i]] = extra[by[i]] " " room
        next
    }
    { order[++nl] = line }
    END {
        for (i = 1; i <= nl; i++) {
            below = below (i > 1 ? " " : "") order[i]
            may[order[i]] = below
        }
        for (r in may) print r, may[r] extra[r]
    }' "$1/runtime/LAYERS"
}

# prefixes TREE: "room prefix..." per room, from its "room = prefixes"
# line of TREE/runtime/LAYERS.
prefixes() {
    sed -n 's/#.*//; s/^[ \t]*\([a-z_0-9]*\)[ \t]*=\(.*\)/\1 \2/p' "$1/runtime/LAYERS" |
        tr -s ' \t' '  '
}

# check_includes TREE: prints every problem; exit status 1 if any.
check_includes() {
    local tree=$1
    { rules "$tree"; echo "--"; } | awk '
    FNR == NR {
        if ($0 == "--") next
        r = $1; $1 = ""; may[r] = substr($0, 2); next
    }
    FNR == 1 {
        f = FILENAME; sub(".*/runtime/", "runtime/", f)
        split(f, p, "/"); room = p[2]
        if (!(room in may)) {
            printf "%s: room %s is not in runtime/LAYERS\n", f, room; bad = 1
        }
    }
    /^[ \t]*#[ \t]*include[ \t]*"/ {
        inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
        sub(/^runtime\//, "", inc)
        if (inc ~ /\.\.\//) {
            printf "%s:%d: #include \"%s\": name a room, not a relative path\n", f, FNR, inc
            bad = 1; next
        }
        if (inc !~ /\//) next           # mpi.h, or a header of its own room
        split(inc, q, "/")
        if (index(" " may[room] " ", " " q[1] " ")) next
        printf "%s:%d: #include \"%s\": %s may include only %s\n", f, FNR, inc, room, may[room]
        bad = 1
    }
    END { exit bad }' - "$tree"/runtime/*/*.[ch]
}

# tree_objects TREE OBJDIR: the objects OBJDIR/runtime/ROOM/NAME.o built
# from a runtime/ROOM/NAME.c of TREE, one a line.
tree_objects() {
    local o src
    for o in "$2"/runtime/*/*.o; do
        src=${o#"$2"/}
        [ -e "$1/${src%.o}.c" ] && echo "$o"
    done
}

# check_links TREE OBJDIR: the same rule for the symbols each object
# (OBJDIR/runtime/ROOM/NAME.o of a runtime/ROOM/NAME.c of TREE) takes
# from the objects of other rooms.
check_links() {
    local tree=$1 objdir=$2 objs
    mapfile -t objs < <(tree_objects "$tree" "$objdir")
    [ ${#objs[@]} -gt 0 ] || { echo "no objects in $objdir"; return 1; }
    { rules "$tree"; echo "--"
      nm -A -g --defined-only "${objs[@]}" | sed 's/^/D /'; echo "--"
      nm -A -u "${objs[@]}" | sed 's/^/U /'; } |
    awk -v objdir="$objdir/" '
    $0 == "--" { part++; next }
    part == 0 { r = $1; $1 = ""; may[r] = substr($0, 2); next }
    {
        f = $2; sub(/:.*/, "", f); f = substr(f, length(objdir) + 1)
        sub(/\.o$/, ".c", f); split(f, p, "/"); room = p[2]; sym = $NF
    }
    part == 1 { if (!(sym in home)) { home[sym] = room; where[sym] = f }; next }
    part == 2 && (sym in home) {
        to = home[sym]
        if (index(" " may[room] " ", " " to " ")) next
        printf "%s: uses %s (%s): %s may use only %s\n", f, sym, where[sym], room, may[room]
        bad = 1
    }
    END { exit bad }'
}

# check_names TREE OBJDIR: every global symbol each object of room R
# (OBJDIR/runtime/R/NAME.o of a runtime/R/NAME.c of TREE) defines starts
# with one of R's prefixes; and no prefix of a room begins another's.
check_names() {
    local tree=$1 objdir=$2 objs
    mapfile -t objs < <(tree_objects "$tree" "$objdir")
    [ ${#objs[@]} -gt 0 ] || { echo "no objects in $objdir"; return 1; }
    { prefixes "$tree"; echo "--"
      [ -e "$objdir/public.syms" ] && grep -v '\*' "$objdir/public.syms"; echo "--"
      nm -A -g --defined-only "${objs[@]}"; } |
    awk -v objdir="$objdir/" '
    $0 == "--" { part++; next }
    part == 0 {
        room = $1; pre[room] = ""
        for (i = 2; i <= NF; i++) {
            pre[room] = pre[room] (i > 2 ? " " : "") $i
            for (k = 1; k <= np; k++)
                if (owner[k] != room && (index($i, all[k]) == 1 || index(all[k], $i) == 1)) {
                    printf "runtime/LAYERS: prefix %s of %s and %s of %s overlap\n", $i, room, all[k], owner[k]
                    bad = 1
                }
            all[++np] = $i; owner[np] = room
        }
        next
    }
    part == 1 { public[$1] = 1; next }
    {
        f = $1; sub(/:.*/, "", f); f = substr(f, length(objdir) + 1)
        sub(/\.o$/, ".c", f); split(f, p, "/"); room = p[2]; sym = $NF
        if (sym ~ /^P?MPI_/ || sym == "main" || (sym in public)) next
        if (sym ~ /^__/) next   # reserved names: the compiler and sanitizers (__odr_asan.*)
        if (!(room in pre)) {
            printf "%s: defines %s: room %s has no prefixes in runtime/LAYERS\n", f, sym, room
            bad = 1; next
        }
        n = split(pre[room], q, " ")
        for (i = 1; i <= n; i++) {
            if (index(sym, q[i]) == 1) next
            if (q[i] ~ /_$/ && sym == substr(q[i], 1, length(q[i]) - 1)) next
        }
        printf "%s: defines %s: %s global names start with %s\n", f, sym, room, pre[room]
        bad = 1
    }
    END { exit bad }'
}

# The objects of the last build of root, if any.
objdir=
for flavor in "$root"/lib/.flavor-*; do
    [ -e "$flavor" ] && objdir=$root/build/${flavor##*/.flavor-}
done

failed=0
if ! out=$(check_includes "$root"); then
    echo "$out"; failed=1
fi
if [ -n "$objdir" ] && [ -d "$objdir/runtime" ]; then
    if ! out=$(check_links "$root" "$objdir"); then
        echo "$out"; failed=1
    fi
    if ! out=$(check_names "$root" "$objdir"); then
        echo "$out"; failed=1
    fi
else
    echo "links not checked: nothing built in $root (make)"
fi
if [ $failed = 1 ]; then
    echo "FAIL layers: against runtime/LAYERS"
    exit 1
fi
if [ $# -gt 0 ]; then   # a tree was named: its check is all
    echo "PASS layers"
    exit 0
fi

# The check itself, on a copy of runtime/: an include of coll added to
# core/wait.c must be named; so must a core object that calls into coll (built here, beside a
# definition compiled as coll's).
tmp=${TEST_TMPDIR:-$(mktemp -d)}
[ -z "${TEST_TMPDIR:-}" ] && trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/copy" && cp -r "$root/runtime" "$tmp/copy/"
printf '#include "coll/coll.h"\n' >> "$tmp/copy/runtime/core/wait.c"
bad=$(check_includes "$tmp/copy")
echo "$bad" | grep -q '^runtime/core/wait.c:[0-9]*: #include "coll/coll.h": core may include only shm_arena queues core$' ||
    { echo "$bad"; echo "FAIL layers: an include of coll from core was not caught"; exit 1; }

mkdir -p "$tmp/obj/runtime/core" "$tmp/obj/runtime/coll"
echo 'int layers_up(void); int layers_down(void) { return layers_up(); }' > "$tmp/copy/runtime/core/layers_down.c"
echo 'int layers_up(void) { return 1; }' > "$tmp/copy/runtime/coll/layers_up.c"
for o in core/layers_down coll/layers_up; do
    if ! ${CC:-cc} -c -o "$tmp/obj/runtime/$o.o" "$tmp/copy/runtime/$o.c"; then
        echo "FAIL layers: cannot compile the check's own test"; exit 1
    fi
done
bad=$(check_links "$tmp/copy" "$tmp/obj")
echo "$bad" | grep -q '^runtime/core/layers_down.c: uses layers_up (runtime/coll/layers_up.c): core may use only shm_arena queues core$' ||
    { echo "$bad"; echo "FAIL layers: a call from core into coll was not caught"; exit 1; }

# A core object that defines a well-named and a misnamed global: the
# misnamed one, and only it, must be named.
mkdir -p "$tmp/obj2/runtime/core"
printf 'int shmpi_core_named(void) { return 1; }\nint shmpi_misnamed(void) { return 2; }\n' > "$tmp/copy/runtime/core/layers_names.c"
${CC:-cc} -c -o "$tmp/obj2/runtime/core/layers_names.o" "$tmp/copy/runtime/core/layers_names.c" ||
    { echo "FAIL layers: cannot compile the check's own test"; exit 1; }
bad=$(check_names "$tmp/copy" "$tmp/obj2")
pre=$(prefixes "$root" | sed -n 's/^core //p')
[ "$bad" = "runtime/core/layers_names.c: defines shmpi_misnamed: core global names start with $pre" ] ||
    { echo "$bad"; echo "FAIL layers: a misnamed global of core was not caught"; exit 1; }
echo "PASS layers"
