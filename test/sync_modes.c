/* sync_modes: sync_ops requests of every sync_mode - MPI_MODE_WIN_GET (targets overwrite only once their counter says every origin has read), MPI_MODE_WIN_ACCUMULATE (Accumulate and Fetch_and_op from all ranks into rank 0), PUT|GET|ACCUMULATE together, 0 (notify only) - the sync_ops epoch rules (MPI_ERR_RMA_SYNC), MPI_PROC_NULL targets, and the any/all/some completion calls on sync requests. */
/* shmpi-test: np=2,3,4 timeout=60 ext psync */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "sync_test.h"

#define ROUNDS 100
#define NPUB 8
#define NACC 4
#define NMIX 4

/* The window: ints at these offsets (disp_unit sizeof(int)). */
enum {
    PUB = 0,                   /* published for MPI_Get */
    ACC = PUB + NPUB,          /* MPI_Accumulate target at rank 0 */
    FETCH = ACC + NACC,        /* MPI_Fetch_and_op target at rank 0 */
    MIX_P = FETCH + 1,         /* mixed mode: put by the left neighbour */
    MIX_G = MIX_P + NMIX,      /* published for it to get */
    MIX_A = MIX_G + NMIX,      /* accumulated into by it */
    EPOCH_CELL = MIX_A + NMIX, /* the epoch rule checks */
    WIN_INTS = EPOCH_CELL + 1
};

static int rank, size, left, right;
static MPI_Win win;
static int *mem;

#define SYNC_ERROR(call) CHECK_CLASS(call, MPI_ERR_RMA_SYNC)

/* n new counters of mine; *all gets every rank's, all[r * n + k]. */
static MPI_Sync *alloc_counters(int n, MPI_Sync *mine)
{
    MPI_Sync *all = malloc((size_t)(size * n) * sizeof *all);
    CHECK(all, "malloc");
    CHECK_MPI(MPI_Win_alloc_sync_objects(n, mine, win, MPI_INFO_NULL));
    CHECK_MPI(MPI_Allgather(mine, n, MPI_HANDLE_SYNC, all, n,
                            MPI_HANDLE_SYNC, MPI_COMM_WORLD));
    return all;
}

static void free_counters(int n, MPI_Sync *mine, MPI_Sync *all)
{
    /* nobody signals them any more once every rank is here */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int k = 0; k < n; k++)
        sync_expect_balanced(win, mine[k], "at the end of a case");
    CHECK_MPI(MPI_Win_free_sync_objects(n, mine, win));
    free(all);
}

static void free_reqs(int n, MPI_Request *reqs)
{
    for (int k = 0; k < n; k++)
        CHECK_MPI(MPI_Request_free(&reqs[k]));
}

static MPI_Request object_req(MPI_Sync counter, int count)
{
    MPI_Request r;
    CHECK_MPI(MPI_Win_sync_object_init(counter, count, win, MPI_INFO_NULL,
                                       &r));
    return r;
}

static MPI_Request ops_req(int target, int mode, MPI_Sync counter)
{
    MPI_Request r;
    CHECK_MPI(MPI_Win_sync_ops_init(target, mode, counter, win,
                                    MPI_INFO_NULL, &r));
    return r;
}

static int pub_value(int r, int round, int k)
{
    return (r * 1000 + round) * 16 + k + 1;
}

/*
 * MPI_MODE_WIN_GET.  Each round every rank publishes pub_value(me,
 * round) and notifies every rank (sync_mode 0, counter READY); once all
 * have published, it gets everybody's data under GET-mode requests whose
 * completion signals the target's GOTTEN counter.  A target overwrites
 * its data in the next round only after GOTTEN completed, so each origin
 * must see exactly this round's values.
 */
static void get_mode(void)
{
    enum { READY, GOTTEN, N };
    MPI_Sync mine[N], *all = alloc_counters(N, mine);
    MPI_Request ready = object_req(mine[READY], size);
    MPI_Request gotten = object_req(mine[GOTTEN], size);
    MPI_Request *notify = malloc((size_t)size * sizeof *notify);
    MPI_Request *gets = malloc((size_t)size * sizeof *gets);
    int *buf = malloc((size_t)size * NPUB * sizeof *buf);
    CHECK(notify && gets && buf, "malloc");
    for (int t = 0; t < size; t++) {
        notify[t] = ops_req(t, 0, all[t * N + READY]);
        gets[t] = ops_req(t, MPI_MODE_WIN_GET, all[t * N + GOTTEN]);
    }
    for (int round = 0; round < ROUNDS; round++) {
        CHECK_MPI(MPI_Start(&ready));
        CHECK_MPI(MPI_Start(&gotten));
        for (int k = 0; k < NPUB; k++)
            mem[PUB + k] = pub_value(rank, round, k);
        CHECK_MPI(MPI_Startall(size, notify));
        CHECK_MPI(MPI_Waitall(size, notify, MPI_STATUSES_IGNORE));
        CHECK_MPI(MPI_Wait(&ready, MPI_STATUS_IGNORE));
        memset(buf, 0, (size_t)size * NPUB * sizeof *buf);
        CHECK_MPI(MPI_Startall(size, gets));
        for (int t = 0; t < size; t++)
            CHECK_MPI(MPI_Get(buf + t * NPUB, NPUB, MPI_INT, t, PUB, NPUB,
                              MPI_INT, win));
        CHECK_MPI(MPI_Waitall(size, gets, MPI_STATUSES_IGNORE));
        for (int t = 0; t < size; t++)
            for (int k = 0; k < NPUB; k++)
                CHECK(buf[t * NPUB + k] == pub_value(t, round, k),
                      "GET round %d: got %d from rank %d cell %d, expected "
                      "%d", round, buf[t * NPUB + k], t, k,
                      pub_value(t, round, k));
        /* every origin has read my data of this round */
        CHECK_MPI(MPI_Wait(&gotten, MPI_STATUS_IGNORE));
    }
    free_reqs(size, notify);
    free_reqs(size, gets);
    free_reqs(1, &ready);
    free_reqs(1, &gotten);
    free(notify);
    free(gets);
    free(buf);
    free_counters(N, mine, all);
}

static int acc_value(int r, int round, int k)
{
    return (r + 1) * (round + 3) + k * 7;
}

/*
 * MPI_MODE_WIN_ACCUMULATE.  Each round every rank (rank 0 too) adds its
 * values into rank 0's ACC cells with MPI_Accumulate and 1 into FETCH
 * with MPI_Fetch_and_op, then signals rank 0's DONE counter (count
 * size).  Rank 0 checks the running sums and lets the others on into the
 * next round through their GO counters (sync_mode 0).  Each fetched old
 * value must be unique within its round: gathered and checked at the
 * end.
 */
static void accumulate_mode(void)
{
    enum { DONE, GO, N };
    MPI_Sync mine[N], *all = alloc_counters(N, mine);
    MPI_Request done = object_req(mine[DONE], size);
    MPI_Request go = object_req(mine[GO], 1);
    MPI_Request acc = ops_req(0, MPI_MODE_WIN_ACCUMULATE, all[0 * N + DONE]);
    MPI_Request *go_ops = malloc((size_t)size * sizeof *go_ops);
    int *olds = malloc((size_t)ROUNDS * size * sizeof *olds);
    CHECK(go_ops && olds, "malloc");
    for (int t = 1; t < size; t++)
        go_ops[t] = ops_req(t, 0, all[t * N + GO]);
    long want[NACC] = {0};
    if (rank == 0)
        memset(&mem[ACC], 0, (NACC + 1) * sizeof *mem);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    for (int round = 0; round < ROUNDS; round++) {
        CHECK_MPI(MPI_Start(rank == 0 ? &done : &go));
        CHECK_MPI(MPI_Start(&acc));
        int vals[NACC], one = 1;
        for (int k = 0; k < NACC; k++)
            vals[k] = acc_value(rank, round, k);
        CHECK_MPI(MPI_Accumulate(vals, NACC, MPI_INT, 0, ACC, NACC, MPI_INT,
                                 MPI_SUM, win));
        CHECK_MPI(MPI_Fetch_and_op(&one, &olds[round], MPI_INT, 0, FETCH,
                                   MPI_SUM, win));
        CHECK_MPI(MPI_Wait(&acc, MPI_STATUS_IGNORE));
        CHECK(olds[round] >= round * size && olds[round] < (round + 1) * size,
              "ACCUMULATE round %d: Fetch_and_op returned %d", round,
              olds[round]);
        if (rank != 0) {
            CHECK_MPI(MPI_Wait(&go, MPI_STATUS_IGNORE));
            continue;
        }
        CHECK_MPI(MPI_Wait(&done, MPI_STATUS_IGNORE));
        for (int k = 0; k < NACC; k++) {
            for (int r = 0; r < size; r++)
                want[k] += acc_value(r, round, k);
            CHECK(mem[ACC + k] == want[k], "ACCUMULATE round %d: cell %d is "
                  "%d, expected %ld", round, k, mem[ACC + k], want[k]);
        }
        CHECK(mem[FETCH] == (round + 1) * size, "ACCUMULATE round %d: "
              "fetch cell is %d, expected %d", round, mem[FETCH],
              (round + 1) * size);
        CHECK_MPI(MPI_Startall(size - 1, go_ops + 1));
        CHECK_MPI(MPI_Waitall(size - 1, go_ops + 1, MPI_STATUSES_IGNORE));
    }

    int *every = rank == 0 ? malloc((size_t)ROUNDS * size * size *
                                    sizeof *every) : NULL;
    CHECK(rank != 0 || every, "malloc");
    CHECK_MPI(MPI_Gather(olds, ROUNDS, MPI_INT, every, ROUNDS, MPI_INT, 0,
                         MPI_COMM_WORLD));
    for (int round = 0; rank == 0 && round < ROUNDS; round++) {
        unsigned seen = 0;
        for (int r = 0; r < size; r++)
            seen |= 1u << (every[r * ROUNDS + round] - round * size);
        CHECK(seen == (1u << size) - 1, "ACCUMULATE round %d: Fetch_and_op "
              "old values not all distinct", round);
    }
    free(every);
    free_reqs(1, &done);
    free_reqs(1, &go);
    free_reqs(1, &acc);
    free_reqs(size - 1, go_ops + 1);
    free(go_ops);
    free(olds);
    free_counters(N, mine, all);
}

static int mix_value(int r, int round, int k, int which)
{
    return ((r * 1000 + round) * 8 + k) * 4 + which;
}

/*
 * PUT | GET | ACCUMULATE in one request: on a ring each rank, once its
 * right neighbour says it is ready (it has published MIX_G for this
 * round and checked its MIX_P / MIX_A of the last one), puts into the
 * right's MIX_P, gets its MIX_G and accumulates into its MIX_A, all
 * covered by one request that signals the right's DONE counter.
 */
static void mixed_mode(void)
{
    enum { READY, DONE, N };
    const int all_modes = MPI_MODE_WIN_PUT | MPI_MODE_WIN_GET |
                          MPI_MODE_WIN_ACCUMULATE;
    MPI_Sync mine[N], *all = alloc_counters(N, mine);
    MPI_Request ready = object_req(mine[READY], 1);
    MPI_Request done = object_req(mine[DONE], 1);
    MPI_Request notify = ops_req(left, 0, all[left * N + READY]);
    MPI_Request mix = ops_req(right, all_modes, all[right * N + DONE]);
    long sum[NMIX] = {0};
    for (int round = 0; round < ROUNDS; round++) {
        CHECK_MPI(MPI_Start(&ready));
        CHECK_MPI(MPI_Start(&done));
        for (int k = 0; k < NMIX; k++)
            mem[MIX_G + k] = mix_value(rank, round, k, 1);
        CHECK_MPI(MPI_Start(&notify));
        CHECK_MPI(MPI_Wait(&notify, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&ready, MPI_STATUS_IGNORE));

        int p[NMIX], g[NMIX] = {0}, a[NMIX];
        for (int k = 0; k < NMIX; k++) {
            p[k] = mix_value(rank, round, k, 0);
            a[k] = mix_value(rank, round, k, 2);
        }
        CHECK_MPI(MPI_Start(&mix));
        CHECK_MPI(MPI_Put(p, NMIX, MPI_INT, right, MIX_P, NMIX, MPI_INT, win));
        CHECK_MPI(MPI_Get(g, NMIX, MPI_INT, right, MIX_G, NMIX, MPI_INT, win));
        CHECK_MPI(MPI_Accumulate(a, NMIX, MPI_INT, right, MIX_A, NMIX,
                                 MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Wait(&mix, MPI_STATUS_IGNORE));
        for (int k = 0; k < NMIX; k++)
            CHECK(g[k] == mix_value(right, round, k, 1), "mixed round %d: "
                  "got %d, expected %d", round, g[k],
                  mix_value(right, round, k, 1));

        CHECK_MPI(MPI_Wait(&done, MPI_STATUS_IGNORE));
        for (int k = 0; k < NMIX; k++) {
            sum[k] += mix_value(left, round, k, 2);
            CHECK(mem[MIX_P + k] == mix_value(left, round, k, 0),
                  "mixed round %d: put cell %d is %d, expected %d", round, k,
                  mem[MIX_P + k], mix_value(left, round, k, 0));
            CHECK(mem[MIX_A + k] == sum[k], "mixed round %d: accumulate "
                  "cell %d is %d, expected %ld", round, k, mem[MIX_A + k],
                  sum[k]);
        }
    }
    free_reqs(1, &ready);
    free_reqs(1, &done);
    free_reqs(1, &notify);
    free_reqs(1, &mix);
    free_counters(N, mine, all);
}

/* A put of 100 + rank into right's EPOCH_CELL. */
/* The origin of every put_mark: it must stay as it is until the put
   completes, later than put_mark returns. */
static int mark_val = -1;

static void put_mark(void)
{
    if (mark_val < 0)
        mark_val = 100 + rank;
    CHECK_MPI(MPI_Put(&mark_val, 1, MPI_INT, right, EPOCH_CELL, 1, MPI_INT, win));
}

/*
 * The sync_ops epoch: what a started request covers and what it does
 * not, that it ends when the last request covering it completes or is
 * freed, that it cannot open inside another access epoch nor another
 * inside it, and that sync_mode 0 opens none and starts anywhere.  Each
 * rank's counter is signalled by its left neighbour only, and each phase
 * arms it with the number of signals that phase sends; the barriers keep
 * phases apart.
 */
static void epoch_rules(void)
{
    MPI_Sync mine[1], *all = alloc_counters(1, mine);
    MPI_Request put = ops_req(right, MPI_MODE_WIN_PUT, all[right]);
    MPI_Request get = ops_req(right, MPI_MODE_WIN_GET, all[right]);
    MPI_Request note = ops_req(right, 0, all[right]);
    MPI_Request got;
    int v = 0;

    /* 1: PUT covers MPI_Put to right and nothing else; 1 signal */
    got = object_req(mine[0], 1);
    CHECK_MPI(MPI_Start(&got));
    CHECK_MPI(MPI_Start(&put));
    SYNC_ERROR(MPI_Get(&v, 1, MPI_INT, right, EPOCH_CELL, 1, MPI_INT, win));
    SYNC_ERROR(MPI_Accumulate(&v, 1, MPI_INT, right, EPOCH_CELL, 1, MPI_INT,
                              MPI_SUM, win));
    int old = 0;
    SYNC_ERROR(MPI_Fetch_and_op(&v, &old, MPI_INT, right, EPOCH_CELL,
                                MPI_SUM, win));
    /* another target: me (right is someone else at np >= 2) */
    SYNC_ERROR(MPI_Put(&v, 1, MPI_INT, rank, EPOCH_CELL, 1, MPI_INT, win));
    SYNC_ERROR(MPI_Win_fence(0, win));
    SYNC_ERROR(MPI_Win_lock_all(0, win));
    SYNC_ERROR(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    put_mark();
    CHECK_MPI(MPI_Wait(&put, MPI_STATUS_IGNORE));
    SYNC_ERROR(MPI_Put(&v, 1, MPI_INT, right, EPOCH_CELL, 1, MPI_INT, win));
    CHECK_MPI(MPI_Wait(&got, MPI_STATUS_IGNORE));
    CHECK(mem[EPOCH_CELL] == 100 + left, "phase 1: epoch cell is %d, "
          "expected %d", mem[EPOCH_CELL], 100 + left);
    CHECK_MPI(MPI_Request_free(&got));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 2: GET covers MPI_Get, not MPI_Put; with GET and PUT requests to
       one target the epoch lasts until the last of them is done; an
       active request freed signals and ends its part; 3 signals */
    got = object_req(mine[0], 3);
    CHECK_MPI(MPI_Start(&got));
    CHECK_MPI(MPI_Start(&get));
    CHECK_MPI(MPI_Start(&note)); /* sync_mode 0 inside the epoch */
    SYNC_ERROR(MPI_Put(&v, 1, MPI_INT, right, EPOCH_CELL, 1, MPI_INT, win));
    CHECK_MPI(MPI_Get(&v, 1, MPI_INT, right, EPOCH_CELL, 1, MPI_INT, win));
    CHECK_MPI(MPI_Start(&put));
    CHECK_MPI(MPI_Wait(&get, MPI_STATUS_IGNORE));
    /* the get is complete once its request is (not at its return: MPI-3.1
       11.3, as under an MPI other than shmpi with portable/sync) */
    CHECK(v == 100 + rank, "phase 2: got %d from the right, expected %d", v,
          100 + rank);
    put_mark();
    SYNC_ERROR(MPI_Get(&v, 1, MPI_INT, right, EPOCH_CELL, 1, MPI_INT, win));
    CHECK_MPI(MPI_Request_free(&put));
    SYNC_ERROR(MPI_Put(&v, 1, MPI_INT, right, EPOCH_CELL, 1, MPI_INT, win));
    CHECK_MPI(MPI_Wait(&note, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&got, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 3: a sync_ops epoch cannot open inside a fence epoch with RMA
       calls, a lock_all or a lock epoch; sync_mode 0 starts in each
       (and opens no epoch of its own); 4 signals */
    put = ops_req(right, MPI_MODE_WIN_PUT, all[right]);
    free_reqs(1, &got);
    got = object_req(mine[0], 4);
    CHECK_MPI(MPI_Start(&got));
    CHECK_MPI(MPI_Win_fence(0, win));
    put_mark();
    SYNC_ERROR(MPI_Start(&put));
    CHECK_MPI(MPI_Start(&note));
    CHECK_MPI(MPI_Wait(&note, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    SYNC_ERROR(MPI_Start(&put));
    CHECK_MPI(MPI_Start(&note));
    CHECK_MPI(MPI_Wait(&note, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    SYNC_ERROR(MPI_Start(&put));
    CHECK_MPI(MPI_Win_unlock(right, win));
    CHECK_MPI(MPI_Start(&note));
    SYNC_ERROR(MPI_Put(&v, 1, MPI_INT, right, EPOCH_CELL, 1, MPI_INT, win));
    CHECK_MPI(MPI_Wait(&note, MPI_STATUS_IGNORE));
    /* the failed starts left put inactive: it starts now */
    CHECK_MPI(MPI_Start(&put));
    put_mark();
    CHECK_MPI(MPI_Wait(&put, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&got, MPI_STATUS_IGNORE));
    CHECK(mem[EPOCH_CELL] == 100 + left, "phase 3: epoch cell is %d, "
          "expected %d", mem[EPOCH_CELL], 100 + left);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 4: a request to MPI_PROC_NULL completes at once, signals nothing */
    MPI_Request none;
    CHECK_MPI(MPI_Win_sync_ops_init(MPI_PROC_NULL, MPI_MODE_WIN_PUT,
                                    MPI_SYNC_NULL, win, MPI_INFO_NULL,
                                    &none));
    for (int i = 0; i < 3; i++) {
        int flag = 0;
        CHECK_MPI(MPI_Start(&none));
        CHECK_MPI(MPI_Test(&none, &flag, MPI_STATUS_IGNORE));
        CHECK(flag, "MPI_PROC_NULL request not complete at once");
    }
    free_reqs(1, &none);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    sync_expect_balanced(win, mine[0], "after the MPI_PROC_NULL requests");

    free_reqs(1, &got);
    free_reqs(1, &put);
    free_reqs(1, &get);
    free_reqs(1, &note);
    free_counters(1, mine, all);
}

/* Sync requests return an empty status. */
static void check_empty(const MPI_Status *st, const char *what)
{
    int count = -1;
    CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG,
          "%s: status source %d tag %d, expected an empty status", what,
          st->MPI_SOURCE, st->MPI_TAG);
    CHECK_MPI(MPI_Get_count(st, MPI_INT, &count));
    CHECK(count == 0, "%s: status count %d", what, count);
}

enum { N_SIG = 2, N_REQS = 2 * N_SIG };

/* Marks index i of a completion call's answer; each exactly once. */
static void mark(int *seen, int i, const MPI_Status *st, const char *what)
{
    CHECK(i >= 0 && i < N_REQS && !seen[i], "%s: index %d", what, i);
    seen[i] = 1;
    check_empty(st, what);
}

/*
 * The completion calls on sync requests: reqs[0..1] notify the right
 * neighbour's two counters (sync_mode 0), reqs[2..3] wait for mine,
 * which the left neighbour notifies; each call below completes all four
 * in a round.  A sync_ops request is complete at once, so each waiting
 * call always finds one to complete and no rank waits for ever.
 */
static void completion_calls(void)
{
    MPI_Sync mine[N_SIG], *all = alloc_counters(N_SIG, mine);
    MPI_Request reqs[N_REQS];
    MPI_Status st[N_REQS];
    for (int k = 0; k < N_SIG; k++) {
        reqs[k] = ops_req(right, 0, all[right * N_SIG + k]);
        reqs[N_SIG + k] = object_req(mine[k], 1);
    }
    for (int round = 0; round < 20; round++) {
        int seen[N_REQS] = {0}, done = 0, i, n, flag, idx[N_REQS];
        CHECK_MPI(MPI_Startall(N_REQS, reqs));
        switch (round % 4) {
        case 0:
            for (; done < N_REQS; done++) {
                CHECK_MPI(MPI_Waitany(N_REQS, reqs, &i, st));
                mark(seen, i, st, "MPI_Waitany");
            }
            CHECK_MPI(MPI_Waitany(N_REQS, reqs, &i, st));
            CHECK(i == MPI_UNDEFINED, "Waitany on inactive gave %d", i);
            break;
        case 1:
            do
                CHECK_MPI(MPI_Testall(N_REQS, reqs, &flag, st));
            while (!flag);
            for (i = 0; i < N_REQS; i++)
                mark(seen, i, &st[i], "MPI_Testall");
            break;
        case 2:
            while (done < N_REQS) {
                CHECK_MPI(MPI_Waitsome(N_REQS, reqs, &n, idx, st));
                CHECK(n >= 1 && n <= N_REQS - done, "Waitsome gave %d", n);
                for (i = 0; i < n; i++)
                    mark(seen, idx[i], &st[i], "MPI_Waitsome");
                done += n;
            }
            CHECK_MPI(MPI_Waitsome(N_REQS, reqs, &n, idx, st));
            CHECK(n == MPI_UNDEFINED, "Waitsome on inactive gave %d", n);
            break;
        case 3:
            while (done < N_REQS) {
                CHECK_MPI(MPI_Testsome(N_REQS, reqs, &n, idx, st));
                CHECK(n >= 0 && n <= N_REQS - done, "Testsome gave %d", n);
                for (i = 0; i < n; i++)
                    mark(seen, idx[i], &st[i], "MPI_Testsome");
                done += n;
            }
            CHECK_MPI(MPI_Testsome(N_REQS, reqs, &n, idx, st));
            CHECK(n == MPI_UNDEFINED, "Testsome on inactive gave %d", n);
            break;
        }
        /* the left neighbour's next round may not signal before this
           one saw its signals: that would be two signals on count 1 */
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }

    /* MPI_Request_get_status: reports without completing; a sync_ops
       request looked at that way still signals exactly once */
    int flag = 0;
    CHECK_MPI(MPI_Start(&reqs[N_SIG]));
    CHECK_MPI(MPI_Start(&reqs[0]));
    CHECK_MPI(MPI_Request_get_status(reqs[0], &flag, &st[0]));
    CHECK(flag, "a started sync_ops request is not complete at once");
    CHECK_MPI(MPI_Request_get_status(reqs[0], &flag, &st[0]));
    CHECK(flag, "get_status changed its answer");
    check_empty(&st[0], "MPI_Request_get_status");
    CHECK_MPI(MPI_Wait(&reqs[0], &st[0]));
    do
        CHECK_MPI(MPI_Request_get_status(reqs[N_SIG], &flag, &st[0]));
    while (!flag);
    check_empty(&st[0], "MPI_Request_get_status");
    /* still active until a completion call: starting it is an error */
    CHECK_CLASS(MPI_Start(&reqs[N_SIG]), MPI_ERR_REQUEST);
    /* every signal of this round has arrived once all are here (and
       free_counters checks that there was exactly one) */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&reqs[N_SIG], &st[0]));
    check_empty(&st[0], "MPI_Wait");
    CHECK_MPI(MPI_Request_get_status(reqs[N_SIG], &flag, &st[0]));
    CHECK(flag, "get_status of an inactive request: flag 0");
    check_empty(&st[0], "MPI_Request_get_status (inactive)");

    free_reqs(N_REQS, reqs);
    free_counters(N_SIG, mine, all);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    CHECK_MPI(MPI_Win_allocate(WIN_INTS * (MPI_Aint)sizeof(int), sizeof(int),
                               MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    memset(mem, 0, WIN_INTS * sizeof *mem);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    get_mode();
    accumulate_mode();
    mixed_mode();
    epoch_rules();
    completion_calls();

    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
