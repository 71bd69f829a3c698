#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gen-wrappers.sh MPI_H OUT_H OUT_C - the profiling wrappers of
# lib/libshmpi_trace.so, generated from mpi.h's declarations.
#
# mpi.h declares every function as SHMPI_API(ret, name, (params)); (one
# declaration may span lines).  OUT_H gets one id per function
# (SHMPI_TRACE_FN_<name>) and SHMPI_TRACE_NFN; OUT_C the table of their
# names and a wrapper MPI_<name> for each function that returns int and
# takes no "..." (MPI_Wtime, MPI_Wtick and MPI_Pcontrol are not wrapped):
# it times PMPI_<name> and, when the call succeeded, records the arguments
# the trace shows, found by type and name: the communicator (MPI_Comm
# comm), the peer (dest, source, target_rank), the tag (tag, sendtag),
# the root, and the count with its datatype's size (count/datatype,
# sendcount/sendtype, origin_count/origin_datatype), the window (MPI_Win
# win: its id, its communicator, the target as a world rank).  The functions named
# in HAND are written by hand (calls.c, p2p.c): they also read statuses
# and requests.  The functions named in POLL look for something and say
# in *flag whether they found it: one that did not is a poll that
# record.c may coalesce with the one before (shmpi_trace_poll).  The
# deprecated and removed functions (SHMPI_API_DEPRECATED,
# SHMPI_API_REMOVED) are not wrapped.
set -eu
HAND=" Init Init_thread Session_init Session_finalize Finalize Abort Recv Irecv Sendrecv Sendrecv_replace
       Wait Waitall Waitany Waitsome Test Testall Testany Testsome "
POLL=" Iprobe Improbe Request_get_status Request_get_status_any
       Request_get_status_all Parrived Win_test "
awk -v hand="$HAND" -v poll="$POLL" -v out_h="$2" -v out_c="$3" '
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
BEGIN { gsub(/[ \t\n]+/, " ", hand); gsub(/[ \t\n]+/, " ", poll) }
# the name a parameter declares: its last identifier, arrays cut off
function pname(p) {
    sub(/\[.*/, "", p); p = trim(p)
    match(p, /[A-Za-z_][A-Za-z0-9_]*$/)
    return substr(p, RSTART, RLENGTH)
}
function isnum(t) { return t == "int" || t == "MPI_Count" }
function ptype(p, n) { sub(/\[.*/, "", p); p = trim(p); return trim(substr(p, 1, length(p) - length(n))) }
/^SHMPI_API\(/ {
    s = $0
    while (s !~ /\);[ \t]*$/) { getline l; s = s " " l }
    gsub(/[ \t]+/, " ", s)
    sub(/^SHMPI_API\( */, "", s); sub(/\); *$/, "", s)
    ret = trim(substr(s, 1, index(s, ",") - 1)); s = substr(s, index(s, ",") + 1)
    name = trim(substr(s, 1, index(s, ",") - 1)); s = substr(s, index(s, ",") + 1)
    params = trim(s); sub(/^\(/, "", params); sub(/\)$/, "", params)
    if (name == "name") next            # the macro itself
    fn[++n] = name; ret_of[n] = ret; par[n] = params
}
END {
    print "/* Generated from mpi.h by tools/trace/gen-wrappers.sh. */" > out_h
    print "enum shmpi_trace_fn_id {" > out_h
    for (i = 1; i <= n; i++) printf "    SHMPI_TRACE_FN_%s,\n", fn[i] > out_h
    print "    SHMPI_TRACE_NFN\n};" > out_h
    print "/* Generated from mpi.h by tools/trace/gen-wrappers.sh. */" > out_c
    print "#include \"wrap.h\"\n" > out_c
    print "const char *const shmpi_trace_fn_names[SHMPI_TRACE_NFN] = {" > out_c
    for (i = 1; i <= n; i++) printf "    \"MPI_%s\",\n", fn[i] > out_c
    print "};" > out_c
    for (i = 1; i <= n; i++) {
        if (ret_of[i] != "int" || par[i] ~ /\.\.\./) continue
        if (index(hand, " " fn[i] " ")) continue
        np = (par[i] == "void") ? 0 : split(par[i], ps, ",")
        args = ""; delete ty; delete nm
        for (j = 1; j <= np; j++) {
            nm[j] = pname(ps[j]); ty[nm[j]] = ptype(ps[j], nm[j])
            args = args (j > 1 ? ", " : "") nm[j]
        }
        printf "\nint MPI_%s(%s)\n{\n", fn[i], par[i] > out_c
        print "    uint64_t t0 = shmpi_trace_now();" > out_c
        printf "    int rc = PMPI_%s(%s);\n", fn[i], args > out_c
        print "    uint64_t t1 = shmpi_trace_now();" > out_c
        cap = ""
        comm = (ty["comm"] == "MPI_Comm") ? "comm" : "MPI_COMM_NULL"
        if (comm == "comm") cap = cap "        a.comm = shmpi_trace_context(comm);\n"
        peer = ""
        if (ty["dest"] == "int") peer = "dest"
        else if (ty["source"] == "int") peer = "source"
        else if (ty["target_rank"] == "int") peer = "target_rank"
        if (peer != "") cap = cap "        shmpi_trace_peer(&a, " comm ", " peer ");\n"
        if (ty["tag"] == "int") cap = cap "        a.tag = tag;\n"
        else if (ty["sendtag"] == "int") cap = cap "        a.tag = sendtag;\n"
        if (ty["root"] == "int") cap = cap "        shmpi_trace_root(&a, root);\n"
        if (isnum(ty["count"]) && ty["datatype"] == "MPI_Datatype")
            cap = cap "        shmpi_trace_count(&a, count, datatype);\n"
        else if (isnum(ty["sendcount"]) && ty["sendtype"] == "MPI_Datatype")
            cap = cap "        shmpi_trace_count(&a, sendcount, sendtype);\n"
        else if (isnum(ty["origin_count"]) && ty["origin_datatype"] == "MPI_Datatype")
            cap = cap "        shmpi_trace_count(&a, origin_count, origin_datatype);\n"
        if (ty["win"] == "MPI_Win")
            cap = cap "        shmpi_trace_window(&a, win);\n"
        polls = index(poll, " " fn[i] " ") && ty["flag"] == "int *"
        if (polls)
            print "    int found = rc == MPI_SUCCESS && *flag;" > out_c
        if (cap == "" && polls)
            printf "    shmpi_trace_poll_bare(SHMPI_TRACE_FN_%s, t0, t1, rc, found);\n", fn[i] > out_c
        else if (cap == "")
            printf "    shmpi_trace_bare(SHMPI_TRACE_FN_%s, t0, t1, rc);\n", fn[i] > out_c
        else {
            if (polls)
                printf "    struct shmpi_trace_rec *r =\n        shmpi_trace_poll(SHMPI_TRACE_FN_%s, t0, t1, rc, found);\n", fn[i] > out_c
            else
                printf "    struct shmpi_trace_rec *r =\n        shmpi_trace_end(SHMPI_TRACE_FN_%s, t0, t1, rc);\n", fn[i] > out_c
            printf "    if (r) {\n        struct shmpi_trace_args a = SHMPI_TRACE_ARGS(SHMPI_TRACE_CALL);\n%s        shmpi_trace_fill(r, &a);\n    }\n", cap > out_c
        }
        print "    return rc;\n}" > out_c
    }
}' "$1"
