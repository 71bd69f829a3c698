#!/usr/bin/env python3
# trace-check.py FILE NP: checks the trace mpirun --trace wrote of
# test/helpers/tracejob.c on NP ranks (test/trace.sh); prints what is
# wrong, exit status 1 if anything.
import json, sys
f, np = sys.argv[1], int(sys.argv[2])
ev = json.load(open(f))["traceEvents"]
bad = []
names = {e["pid"]: e["args"]["name"] for e in ev
         if e["ph"] == "M" and e["name"] == "process_name"}
for r in range(np):
    if names.get(r) != "rank %d" % r:
        bad.append("rank %d's track is named %r" % (r, names.get(r)))
want = {"MPI_Init": 1, "MPI_Comm_rank": 1, "MPI_Comm_size": 1,
        "MPI_Isend": 3, "MPI_Recv": 4, "MPI_Waitall": 2, "MPI_Irecv": 2,
        "MPI_Send": 3, "MPI_Sendrecv": 1, "MPI_Comm_dup": 1,
        "MPI_Comm_free": 1, "MPI_Barrier": 2, "MPI_Bcast": 1,
        "MPI_Allreduce": 4, "MPI_Reduce": 1, "MPI_Gather": 1,
        "MPI_Finalize": 1, "MPI_Win_create": 1, "MPI_Win_fence": 2,
        "MPI_Put": 1, "MPI_Win_free": 1}
slices = [e for e in ev if e["ph"] == "X"]
for r in range(np):
    got = {}
    for e in slices:
        if e["pid"] == r:
            got[e["name"]] = got.get(e["name"], 0) + 1
    if got != want:
        bad.append("rank %d's slices: %s, expected %s" % (r, got, want))
for e in slices:
    a = e["args"]
    if e["name"] == "MPI_Bcast" and (a.get("root") != 0 or a.get("count") != 3
                                     or a.get("bytes") != 12):
        bad.append("MPI_Bcast's args: %s" % a)
    if e["name"] == "MPI_Reduce" and a.get("root") != np - 1:
        bad.append("MPI_Reduce's args: %s" % a)
tracks = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
          if e["ph"] == "M" and e["name"] == "thread_name"}
wins = set()
for e in slices:
    on_win = e["name"] in ("MPI_Win_fence", "MPI_Put")
    name = tracks.get((e["pid"], e["tid"]), "")
    if on_win != name.startswith("window "):
        bad.append("%s of rank %d on track %r" % (e["name"], e["pid"], name))
    if on_win:
        wins.add(e["args"].get("win"))
    if e["name"] == "MPI_Put" and \
       e["args"].get("peer_world") != (e["pid"] + 1) % np:
        bad.append("MPI_Put's args: %s" % e["args"])
if len(wins) != 1 or None in wins:
    bad.append("the window's ids: %s" % wins)
def around(pid, tid, ts):
    for e in slices:
        if e["pid"] == pid and e["tid"] == tid and \
           e["ts"] <= ts <= e["ts"] + e["dur"]:
            return e
flows = {}
for e in ev:
    if e["ph"] in "sf":
        flows.setdefault(e["id"], {})[e["ph"]] = e
if len(flows) != 7 * np:
    bad.append("%d arrows, expected %d" % (len(flows), 7 * np))
sends = {"MPI_Isend", "MPI_Send", "MPI_Sendrecv"}
recvs = {"MPI_Recv", "MPI_Waitall", "MPI_Sendrecv"}
tags = {}
for i, fl in flows.items():
    if set(fl) != {"s", "f"}:
        bad.append("arrow %s has ends %s" % (i, sorted(fl)))
        continue
    s, d = fl["s"], fl["f"]
    a, b = around(s["pid"], s["tid"], s["ts"]), around(d["pid"], d["tid"], d["ts"])
    if not a or a["name"] not in sends or not b or b["name"] not in recvs:
        bad.append("arrow %s from %s to %s" % (i, a and a["name"], b and b["name"]))
        continue
    if a["args"].get("peer_world") != d["pid"]:
        bad.append("arrow %s: a send to %s ends on rank %d" % (i, a["args"], d["pid"]))
    if (d["pid"] - s["pid"]) % np not in (1, np - 1):
        bad.append("arrow %s: rank %d to %d" % (i, s["pid"], d["pid"]))
    if b["name"] == "MPI_Recv" and b["args"].get("peer_world") != s["pid"]:
        bad.append("arrow %s: from rank %d into %s" % (i, s["pid"], b["args"]))
    key = (a["name"], a["args"]["tag"], a["args"]["comm"])
    tags[key] = tags.get(key, 0) + 1
want_tags = {"MPI_Isend": 3 * np, "MPI_Send": 3 * np, "MPI_Sendrecv": np}
got_tags = {}
for (n, t, c), k in tags.items():
    got_tags[n] = got_tags.get(n, 0) + k
if got_tags != want_tags:
    bad.append("arrows by send call: %s, expected %s" % (got_tags, want_tags))
if len({c for (n, t, c) in tags if n == "MPI_Send"}) != 2:
    bad.append("MPI_Send's arrows are not on two communicators: %s" % tags)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
