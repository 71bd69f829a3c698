/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tunables.c - the table of environment variables, and its one parser.
 *
 * Which values must agree across ranks, and how that is made sure.
 * Those that shape the arena (hot rings and their slots, outboxes, sync
 * counters, collective areas and slots) can only be what the arena was
 * made with.  Those that choose an
 * algorithm every member must follow alike (whether a reduction is
 * folded whole or in slices, coll/reduce.c; the barrier, coll/barrier.c)
 * must be equal, or members wait for words the others never write.  The
 * eager limit and the chunk are decided by the sender alone today
 * (pt2pt/send.c), but they are the protocol of every pair: one value per
 * job keeps a run reproducible from its launch line, and leaves the
 * receiver free to rely on them later.  They are scope SHMPI_TUN_JOB.  The launcher
 * reads them once, from the environment it gives the ranks (its own plus
 * -x), and records them in the arena header, which every rank maps
 * before it reads anything; each rank takes the recorded value, and a
 * value set in its own environment that differs (a wrapper script that
 * sets it per rank) stops MPI_Init with a line naming both.  The other
 * way, each rank comparing with rank 0, needs rank 0 to have written
 * first - a wait in MPI_Init for every rank - and reports the mismatch in
 * every rank but 0 instead of once; the header is written before any rank
 * exists, so the check costs nothing and cannot race.
 *
 * The launcher also parses every variable a rank reads before it starts
 * a rank, so garbage is one line from mpirun (status 2), not one per
 * rank; a rank parses its own environment again, since a wrapper may have
 * changed it.
 */
#include "core/tunables.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "shm_arena/arena.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)
#define TIB (1024ull * GIB)

/* in the order of the enums in tunables.h */
static const char *const bind_choices[] = {
    [SHMPI_TUN_BIND_CORE] = "core", [SHMPI_TUN_BIND_NONE] = "none", NULL};
/* SHMPI_LANES: a power of two, so that a context's lane is a mask
   (pt2pt/pt2pt.h, shmpi_p2p_lane_of) and not a division on every
   message; kept as its index, log2 of the count */
static const char *const lanes_choices[] = {"1", "2", "4", "8", "16", NULL};
static const char *const barrier_choices[] = {
    [SHMPI_TUN_BARRIER_DISSEMINATION] = "dissemination",
    [SHMPI_TUN_BARRIER_COUNTER] = "counter", NULL};

#define LAUNCH SHMPI_TUN_BY_SELF_LAUNCH
#define LAUNCHER SHMPI_TUN_BY_LAUNCHER
#define RANK SHMPI_TUN_BY_RANK
#define LOCAL SHMPI_TUN_LOCAL
#define JOB SHMPI_TUN_JOB
#define PLUMB SHMPI_TUN_PLUMBING
#define UNSET SHMPI_TUN_UNSET

/* Ranges: a rank count as mpirun's -np; sizes within what the code's
   64-bit arithmetic and 32-bit record lengths hold (a ring's record is
   at most a quarter of the ring, queues/ring.c); times of a day or a
   minute, longer than anyone should want. */
const struct shmpi_tunable shmpi_tun_table[SHMPI_TUN_ALL] = {
    [SHMPI_TUN_NP] = {
        "SHMPI_NP", SHMPI_TUN_INT, "ranks", 0, UNSET, UNSET, 1, 1000000,
        NULL, "a singleton", LAUNCH, LOCAL,
        "MPI_Init starts this many ranks of the program (in-library launch)"},
    [SHMPI_TUN_BIND_TO] = {
        "SHMPI_BIND_TO", SHMPI_TUN_CHOICE, NULL, 0, UNSET, UNSET, 0, 1,
        bind_choices, "core when ranks <= usable cores, else none", LAUNCH,
        LOCAL, "--bind-to of an in-library launch"},
    [SHMPI_TUN_TAG_OUTPUT] = {
        "SHMPI_TAG_OUTPUT", SHMPI_TUN_BOOL, NULL, 0, 0, 0, 0, 1, NULL, NULL,
        LAUNCH, LOCAL, "--tag-output of an in-library launch"},
    [SHMPI_TUN_REPORT_BINDINGS] = {
        "SHMPI_REPORT_BINDINGS", SHMPI_TUN_BOOL, NULL, 0, 0, 0, 0, 1, NULL,
        NULL, LAUNCH, LOCAL, "--report-bindings of an in-library launch"},
    [SHMPI_TUN_TIMEOUT] = {
        "MPIEXEC_TIMEOUT", SHMPI_TUN_SECONDS, "s", 0, 0, 0, 0,
        1000000000ull * 1000000000ull, NULL, "no limit", LAUNCHER, LOCAL,
        "kill the job after this long, status 124 (0: no limit; --timeout wins)"},
    [SHMPI_TUN_KILL_GRACE_MS] = {
        "SHMPI_KILL_GRACE_MS", SHMPI_TUN_INT, "ms", 0, 1000, 1000, 0,
        86400000, NULL, NULL, LAUNCHER, LOCAL,
        "after a signal is passed to the ranks, SIGKILL follows this late"},
    [SHMPI_TUN_DEADLOCK_MS] = {
        "SHMPI_DEADLOCK_MS", SHMPI_TUN_INT, "ms", 0, 1000, 1000, 0, 3600000,
        NULL, NULL, LAUNCHER, LOCAL,
        "every rank asleep in MPI, nothing moved this long: print the wait-for "
        "graph, status 125 (0: off)"},
    [SHMPI_TUN_HANG_REPORT] = {
        "SHMPI_HANG_REPORT", SHMPI_TUN_SECONDS, "s", 0, 0, 0, 0,
        1000000000ull * 86400, NULL, "off", LAUNCHER, LOCAL,
        "a rank blocked in one MPI call this long is reported once (0: off)"},
    [SHMPI_TUN_RING_KB] = {
        "SHMPI_RING_KB", SHMPI_TUN_SIZE, "KiB", KIB, 128 * KIB, 128 * KIB,
        16 * KIB, 1 * GIB, NULL, NULL, LAUNCHER, JOB,
        "hot ring from one rank to another (whole pages; less in huge jobs)"},
    [SHMPI_TUN_FAST_RINGS] = {
        "SHMPI_FAST_RINGS", SHMPI_TUN_INT, "rings", 0, 8, 8, 0, 256, NULL,
        NULL, LAUNCHER, JOB,
        "hot rings a rank receives through, and polls, at most (0: none)"},
    [SHMPI_TUN_OUTBOX_KB] = {
        "SHMPI_OUTBOX_KB", SHMPI_TUN_SIZE, "KiB", KIB, 128 * KIB, 128 * KIB,
        16 * KIB, 1 * GIB, NULL, NULL, LAUNCHER, JOB,
        "each rank's outbox for pairs without a hot ring (whole pages)"},
    [SHMPI_TUN_LANES] = {
        "SHMPI_LANES", SHMPI_TUN_CHOICE, NULL, 0, 2, 2, 0, 4, lanes_choices,
        NULL, LAUNCHER, JOB,
        "point-to-point lanes per rank; a communicator's messages use one"},
    [SHMPI_TUN_SYNC_COUNTERS] = {
        "SHMPI_SYNC_COUNTERS", SHMPI_TUN_INT, "counters", 0, 256, 256, 1,
        (1u << 21) - 1, NULL, NULL, LAUNCHER, JOB,
        "RMA sync counters each process can hold (capped: < 2^21 per job)"},
    [SHMPI_TUN_COLL_AREAS] = {
        "SHMPI_COLL_AREAS", SHMPI_TUN_INT, "areas", 0, 256, 256, 0,
        SHMPI_COLL_AREAS_MAX, NULL, NULL, LAUNCHER, JOB,
        "communicators with shared-memory collectives at once (0: none)"},
    [SHMPI_TUN_COLL_SLOT_KB] = {
        "SHMPI_COLL_SLOT_KB", SHMPI_TUN_SIZE, "KiB", KIB, 128 * KIB,
        128 * KIB, 8 * KIB, 1 * GIB, NULL, NULL, LAUNCHER, JOB,
        "each member's data slot in a collective area (8 KiB multiples)"},
    [SHMPI_TUN_EAGER_LIMIT] = {
        "SHMPI_EAGER_LIMIT", SHMPI_TUN_SIZE, "bytes", 1, 16384, 16384, 0,
        1 * GIB, NULL, NULL, RANK, JOB,
        "largest message sent eagerly (capped: ring / 4 and outbox / 4)"},
    [SHMPI_TUN_CHUNK] = {
        "SHMPI_CHUNK", SHMPI_TUN_SIZE, "bytes", 1, 32768, 32768, 0, 1 * GIB,
        NULL, NULL, RANK, JOB,
        "bytes per piece of a larger message (0 or above the cap: the cap)"},
    [SHMPI_TUN_FAST_AFTER] = {
        "SHMPI_FAST_AFTER", SHMPI_TUN_INT, "records", 0, 256, 256, 0,
        1u << 30, NULL, NULL, RANK, JOB,
        "records a pair exchanges through the mailboxes before a hot ring"},
    [SHMPI_TUN_RING_MIN_KB] = {
        "SHMPI_RING_MIN_KB", SHMPI_TUN_SIZE, "KiB", KIB, 16 * KIB, 16 * KIB,
        4 * KIB, 1 * GIB, NULL, NULL, RANK, JOB,
        "smallest hot ring (it grows to SHMPI_RING_KB as its pair needs)"},
    [SHMPI_TUN_RING_GROW_AFTER] = {
        "SHMPI_RING_GROW_AFTER", SHMPI_TUN_INT, "times", 0, 8, 8, 1,
        1u << 30, NULL, NULL, RANK, JOB,
        "times a sender finds its hot ring full before it doubles it"},
    [SHMPI_TUN_PULL_LIMIT_MB] = {
        "SHMPI_PULL_LIMIT_MB", SHMPI_TUN_SIZE, "MiB", MIB, 1024 * MIB,
        1024 * MIB, 0, 16 * TIB, NULL, NULL, RANK, LOCAL,
        "largest message a stalled wait pulls in past SHMPI_UNEXPECTED_MB (0: none)"},
    [SHMPI_TUN_UNEXPECTED_MB] = {
        "SHMPI_UNEXPECTED_MB", SHMPI_TUN_SIZE, "MiB", MIB, 16 * MIB,
        16 * MIB, 0, 16 * TIB, NULL, NULL, RANK, LOCAL,
        "memory a rank holds for messages before their receive; past it senders wait"},
    [SHMPI_TUN_COLL_FOLD_MAX] = {
        "SHMPI_COLL_FOLD_MAX", SHMPI_TUN_SIZE, "bytes", 1, 16384, 16384, 0,
        1 * GIB, NULL, NULL, RANK, JOB,
        "reductions up to this size are folded whole, larger ones in slices"},
    [SHMPI_TUN_COLL_BARRIER] = {
        "SHMPI_COLL_BARRIER", SHMPI_TUN_CHOICE, NULL, 0,
        SHMPI_TUN_BARRIER_DISSEMINATION, SHMPI_TUN_BARRIER_COUNTER, 0, 1,
        barrier_choices, "dissemination; counter when ranks > CPUs", RANK,
        JOB, "the barrier's algorithm in shared memory"},
    [SHMPI_TUN_SPIN_US] = {
        "SHMPI_SPIN_US", SHMPI_TUN_INT, "us", 0, 100, 0, 0, 60000000, NULL,
        "100; 0 when ranks > CPUs", RANK, LOCAL,
        "a waiting call spins this long without progress before it yields"},
    [SHMPI_TUN_YIELDS] = {
        "SHMPI_YIELDS", SHMPI_TUN_INT, "yields", 0, 4, 16, 0, 1000000, NULL,
        "4; 16 when ranks > CPUs", RANK, LOCAL,
        "sched_yield calls before a waiting call sleeps"},
    [SHMPI_TUN_CHECK] = {
        "SHMPI_CHECK", SHMPI_TUN_BOOL, NULL, 0, 0, 0, 0, 1, NULL, NULL, RANK,
        LOCAL, "check mode: report erroneous programs that shared memory "
        "forgives (mpirun --check; shmpi_check(7))"},
    [SHMPI_TUN_P_RANK] = {
        SHMPI_ENV_RANK, SHMPI_TUN_INT, NULL, 0, UNSET, UNSET, 0, 999999, NULL,
        NULL, RANK, PLUMB, "the rank, set by the launcher"},
    [SHMPI_TUN_P_SIZE] = {
        SHMPI_ENV_SIZE, SHMPI_TUN_INT, NULL, 0, UNSET, UNSET, 1, 1000000,
        NULL, NULL, RANK, PLUMB, "the job's size, set by the launcher"},
    [SHMPI_TUN_P_ARENA_FD] = {
        SHMPI_ENV_ARENA_FD, SHMPI_TUN_INT, NULL, 0, UNSET, UNSET, 0,
        2147483647, NULL, NULL, RANK, PLUMB,
        "the arena's descriptor, set by the launcher"},
    [SHMPI_TUN_P_RANK_PID] = {
        SHMPI_ENV_RANK_PID, SHMPI_TUN_INT, NULL, 0, UNSET, UNSET, 1,
        2147483647, NULL, NULL, RANK, PLUMB,
        "the process that is the rank, set by the rank's program"},
};

_Static_assert(1u << 4 == SHMPI_ARENA_LANES_MAX,
               "SHMPI_LANES's largest choice is the arena's most lanes");
_Static_assert(SHMPI_TUN_COUNT <= SHMPI_ARENA_TUNABLES,
               "the arena header records every job-wide tunable by id");

const char *shmpi_tun_text(enum shmpi_tun_id id, char *const *exports)
{
    const char *name = shmpi_tun_table[id].name, *found = NULL;
    size_t n = strlen(name);
    for (char *const *e = exports; e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            found = *e + n + 1;
    return found ? found : getenv(name);
}

/* ------------------------------------------------------------ words */

static void fmt_bytes(uint64_t b, char *buf, size_t len)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && b >= 1024 && b % 1024 == 0) {
        b /= 1024;
        u++;
    }
    snprintf(buf, len, "%llu %s", (unsigned long long)b, units[u]);
}

static void fmt_choices(const char *const *c, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; c[i] && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s",
                               i == 0 ? "" : c[i + 1] ? ", " : " or ", c[i]);
}

void shmpi_tun_accepts(enum shmpi_tun_id id, char *buf, size_t len)
{
    const struct shmpi_tunable *t = &shmpi_tun_table[id];
    char lo[32], hi[32];
    switch (t->type) {
    case SHMPI_TUN_BOOL:
        snprintf(buf, len, "1, 0, yes, no, true, false, on or off");
        break;
    case SHMPI_TUN_CHOICE:
        fmt_choices(t->choices, buf, len);
        break;
    case SHMPI_TUN_INT:
        snprintf(buf, len, "a whole number%s%s from %llu to %llu",
                 t->unit ? " of " : "", t->unit ? t->unit : "",
                 (unsigned long long)t->min, (unsigned long long)t->max);
        break;
    case SHMPI_TUN_SIZE:
        fmt_bytes(t->min, lo, sizeof lo);
        fmt_bytes(t->max, hi, sizeof hi);
        snprintf(buf, len, "a whole number of %s, or %swith a suffix k, M, "
                 "G or T (powers of 1024), from %s to %s", t->unit,
                 t->unit_bytes == 1 ? "" : "of bytes ", lo, hi);
        break;
    case SHMPI_TUN_SECONDS:
        snprintf(buf, len, "a number of seconds (fractions allowed) from 0 "
                 "to %.0f", (double)t->max / 1e9);
        break;
    }
}

void shmpi_tun_format(enum shmpi_tun_id id, uint64_t v, char *buf,
                      size_t len)
{
    const struct shmpi_tunable *t = &shmpi_tun_table[id];
    if (v == UNSET) {
        snprintf(buf, len, "unset");
        return;
    }
    switch (t->type) {
    case SHMPI_TUN_BOOL:
        snprintf(buf, len, "%s", v ? "yes" : "no");
        break;
    case SHMPI_TUN_CHOICE:
        snprintf(buf, len, "%s", t->choices[v]);
        break;
    case SHMPI_TUN_INT:
        snprintf(buf, len, "%llu%s%s", (unsigned long long)v,
                 t->unit ? " " : "", t->unit ? t->unit : "");
        break;
    case SHMPI_TUN_SIZE:
        if (v % t->unit_bytes == 0)
            snprintf(buf, len, "%llu %s",
                     (unsigned long long)(v / t->unit_bytes), t->unit);
        else
            snprintf(buf, len, "%llu bytes", (unsigned long long)v);
        break;
    case SHMPI_TUN_SECONDS:
        snprintf(buf, len, "%g s", (double)v / 1e9);
        break;
    }
}

/* ----------------------------------------------------------- parser */

/* A value as it may be shown on one line: at most 40 characters, no
   control characters. */
static void printable(const char *text, char *buf, size_t len)
{
    size_t n = 0;
    for (; text[n] && n < 40 && n + 4 < len; n++)
        buf[n] = iscntrl((unsigned char)text[n]) ? '?' : text[n];
    if (text[n] && n + 4 <= len)
        buf[n++] = '.', buf[n++] = '.', buf[n++] = '.';
    buf[n] = '\0';
}

static int bad(enum shmpi_tun_id id, const char *text, const char *why,
               char *err, size_t errlen)
{
    char shown[48], acc[160];
    printable(text, shown, sizeof shown);
    shmpi_tun_accepts(id, acc, sizeof acc);
    snprintf(err, errlen, "%s='%s': %s; it accepts %s",
             shmpi_tun_table[id].name, shown, why, acc);
    return -1;
}

/* Leading decimal digits into *v; returns the first other character,
   or NULL when there is no digit or the number overflows. */
static const char *digits(const char *s, uint64_t *v, int *overflow)
{
    const char *start = s;
    *v = 0;
    *overflow = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (*v > (UINT64_MAX - d) / 10)
            *overflow = 1;
        else
            *v = *v * 10 + d;
    }
    return s == start ? NULL : s;
}

/* "k", "kb", "kib" and the same for M, G, T, in any case: the factor,
   0 for anything else. */
static uint64_t suffix(const char *s)
{
    static const char letters[] = "kmgt";
    const char *at = *s ? strchr(letters, tolower((unsigned char)*s)) : NULL;
    if (!at)
        return 0;
    const char *rest = s + 1;
    if (*rest && strcasecmp(rest, "b") != 0 && strcasecmp(rest, "ib") != 0)
        return 0;
    return 1ull << (10 * (at - letters + 1));
}

static int parse_number(enum shmpi_tun_id id, const char *text, uint64_t *out,
                        char *err, size_t errlen)
{
    const struct shmpi_tunable *t = &shmpi_tun_table[id];
    uint64_t v;
    int overflow;
    const char *end = digits(text, &v, &overflow);
    if (!end)
        return bad(id, text, "not a whole number", err, errlen);
    uint64_t factor = t->type == SHMPI_TUN_SIZE ? t->unit_bytes : 1;
    if (*end && t->type == SHMPI_TUN_SIZE)
        factor = suffix(end);
    if (*end && factor == 0)
        return bad(id, text, "not a size", err, errlen);
    if (*end && t->type != SHMPI_TUN_SIZE)
        return bad(id, text, "junk after the number", err, errlen);
    if (overflow || v > UINT64_MAX / factor)
        return bad(id, text, "too large", err, errlen);
    v *= factor;
    if (v < t->min || v > t->max)
        return bad(id, text, "out of range", err, errlen);
    *out = v;
    return 0;
}

static int parse_seconds(enum shmpi_tun_id id, const char *text,
                         uint64_t *out, char *err, size_t errlen)
{
    const struct shmpi_tunable *t = &shmpi_tun_table[id];
    char *end;
    /* strtod alone would take spaces, signs, hex, "inf" and "nan" */
    if (!isdigit((unsigned char)text[0]) && text[0] != '.')
        return bad(id, text, "not a number", err, errlen);
    double s = strtod(text, &end);
    if (*end || end == text || text[strspn(text, "0123456789.eE+-")])
        return bad(id, text, "not a number", err, errlen);
    if (!isfinite(s) || s * 1e9 > (double)t->max)
        return bad(id, text, "out of range", err, errlen);
    *out = (uint64_t)(s * 1e9 + 0.5);
    return 0;
}

static int parse_word(enum shmpi_tun_id id, const char *text, uint64_t *out,
                      char *err, size_t errlen)
{
    static const char *const yes_no[] = {"0", "1", "no", "yes", "false",
                                         "true", "off", "on", NULL};
    const struct shmpi_tunable *t = &shmpi_tun_table[id];
    const char *const *words = t->type == SHMPI_TUN_BOOL ? yes_no : t->choices;
    for (uint64_t i = 0; words[i]; i++)
        if (strcasecmp(text, words[i]) == 0) {
            *out = t->type == SHMPI_TUN_BOOL ? i % 2 : i;
            return 0;
        }
    return bad(id, text, "not one of these", err, errlen);
}

int shmpi_tun_parse(enum shmpi_tun_id id, const char *text, uint64_t *out,
                    char *err, size_t errlen)
{
    switch (shmpi_tun_table[id].type) {
    case SHMPI_TUN_BOOL:
    case SHMPI_TUN_CHOICE:
        if (!*text)
            break;
        return parse_word(id, text, out, err, errlen);
    case SHMPI_TUN_SECONDS:
        if (!*text)
            break;
        return parse_seconds(id, text, out, err, errlen);
    case SHMPI_TUN_INT:
    case SHMPI_TUN_SIZE:
        if (!*text)
            break;
        return parse_number(id, text, out, err, errlen);
    }
    return bad(id, text, "set but empty (unset it for the default)", err,
               errlen);
}

int shmpi_tun_read(enum shmpi_tun_id id, char *const *exports, uint64_t *out,
                   char *err, size_t errlen)
{
    const char *text = shmpi_tun_text(id, exports);
    if (!text)
        return 0;
    return shmpi_tun_parse(id, text, out, err, errlen) == 0 ? 1 : -1;
}

int shmpi_tun_env_rank(int otherwise)
{
    char err[SHMPI_TUN_ERR];
    uint64_t rank;
    return shmpi_tun_read(SHMPI_TUN_P_RANK, NULL, &rank, err, sizeof err) > 0
               ? (int)rank
               : otherwise;
}

/* ------------------------------------------------------------- sets */

uint64_t shmpi_tun_default(enum shmpi_tun_id id, int oversubscribed)
{
    const struct shmpi_tunable *t = &shmpi_tun_table[id];
    return oversubscribed ? t->dflt_oversub : t->dflt;
}

int shmpi_tun_load(struct shmpi_tun_set *s, unsigned readers,
                   char *const *exports, int oversubscribed, char *err,
                   size_t errlen)
{
    for (int id = 0; id < SHMPI_TUN_COUNT; id++) {
        s->value[id] = shmpi_tun_default(id, oversubscribed);
        s->from[id] = SHMPI_TUN_FROM_DEFAULT;
        if (!(readers & SHMPI_TUN_READERS(shmpi_tun_table[id].reader)))
            continue;
        int r = shmpi_tun_read(id, exports, &s->value[id], err, errlen);
        if (r < 0)
            return -1;
        if (r > 0)
            s->from[id] = SHMPI_TUN_FROM_ENV;
    }
    return 0;
}

void shmpi_tun_arena_params(const struct shmpi_tun_set *s,
                            struct shmpi_arena_params *p)
{
    p->ring_bytes = s->value[SHMPI_TUN_RING_KB];
    p->fast_rings = (uint32_t)s->value[SHMPI_TUN_FAST_RINGS];
    p->outbox_bytes = s->value[SHMPI_TUN_OUTBOX_KB];
    p->lanes = 1u << s->value[SHMPI_TUN_LANES];
    p->sync_per_rank = (uint32_t)s->value[SHMPI_TUN_SYNC_COUNTERS];
    p->coll_areas = (uint32_t)s->value[SHMPI_TUN_COLL_AREAS];
    p->coll_slot_bytes = s->value[SHMPI_TUN_COLL_SLOT_KB];
}

void shmpi_tun_record(const struct shmpi_tun_set *s,
                      struct shmpi_arena_header *h)
{
    h->tunables_from_env = 0;
    for (int id = 0; id < SHMPI_TUN_COUNT; id++) {
        if (shmpi_tun_table[id].scope != SHMPI_TUN_JOB)
            continue;
        h->tunables[id] = s->value[id];
        if (s->from[id] == SHMPI_TUN_FROM_ENV)
            h->tunables_from_env |= 1ull << id;
    }
}

static int mismatch(enum shmpi_tun_id id, uint64_t mine, uint64_t job,
                    int job_from_env, char *err, size_t errlen)
{
    char a[48], b[48];
    shmpi_tun_format(id, mine, a, sizeof a);
    shmpi_tun_format(id, job, b, sizeof b);
    snprintf(err, errlen, "%s is %s in this rank's environment but %s in the "
             "job (%s the launcher's environment): it must be the same in "
             "every rank", shmpi_tun_table[id].name, a, b,
             job_from_env ? "from" : "the default, unset in");
    return -1;
}

int shmpi_tun_join(struct shmpi_tun_set *s, const struct shmpi_arena_header *h,
                   int oversubscribed, char *err, size_t errlen)
{
    if (shmpi_tun_load(s, SHMPI_TUN_READERS(SHMPI_TUN_BY_RANK), NULL,
                       oversubscribed, err, errlen) != 0)
        return -1;
    for (int id = 0; id < SHMPI_TUN_COUNT; id++) {
        if (shmpi_tun_table[id].scope != SHMPI_TUN_JOB)
            continue;
        int from_env = (int)(h->tunables_from_env >> id & 1);
        uint64_t job = from_env ? h->tunables[id]
                                : shmpi_tun_default(id, oversubscribed);
        uint64_t mine;
        int r = shmpi_tun_read(id, NULL, &mine, err, errlen);
        if (r < 0)
            return -1;
        if (r > 0 && mine != job)
            return mismatch(id, mine, job, from_env, err, errlen);
        s->value[id] = job;
        s->from[id] = from_env ? SHMPI_TUN_FROM_ENV : SHMPI_TUN_FROM_DEFAULT;
    }
    return 0;
}
