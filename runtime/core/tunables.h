/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tunables.h - every environment variable shmpi reads, declared once.
 *
 * The table (tunables.c) gives each variable its name, type, unit,
 * default, accepted range, who reads it, whether it must be the same in
 * every rank, and one line of help.  One parser reads them all: garbage
 * (empty, not a number, trailing junk, out of range, overflow) is a
 * one-line error naming the variable, the value and what it accepts, and
 * the job does not start.  `mpirun --show-tunables` prints the table
 * with the values in effect; man/man7/shmpi.7 (ENVIRONMENT) documents
 * it, and test/tunables-doc.sh checks that the two agree.
 *
 * The table is also what the MPI_T control variables are (tool/cvar.c):
 * one per tunable, in this order, with its name, its help as the
 * description, the kept form as an MPI_UNSIGNED_LONG_LONG (a choice or
 * a BOOL an MPI_INT with an enumeration, tool/enum.c), and scope
 * MPI_T_SCOPE_READONLY - every value is read once, at MPI_Init or at
 * the launch - but for SHMPI_SPIN_US and SHMPI_YIELDS, which a tool may
 * change at run time (MPI_T_SCOPE_LOCAL, core/wait.h).  A new tunable
 * needs a category there too.  The values in effect are in
 * shmpi_proc.tun (core/proc.h), with where each came from.
 *
 * Layering: this is core.  shm_arena, below, reads no variable: whoever
 * creates an arena (the launcher, or a singleton's MPI_Init) loads the
 * table and passes the numbers that shape the arena down in
 * struct shmpi_arena_params (shm_arena/arena.h); the arena header then
 * keeps the job-wide values for the ranks to check theirs against.
 */
#ifndef SHMPI_TUNABLES_H
#define SHMPI_TUNABLES_H

#include <stddef.h>
#include <stdint.h>

/* The plumbing between a launcher and its ranks: set by the launcher
   (or, SHMPI_RANK_PID, by the rank's program; see init/init.c), never by
   hand.  They are not tunables, but they are parsed by the same parser
   and listed apart by --show-tunables. */
#define SHMPI_ENV_RANK     "SHMPI_RANK"      /* 0 .. size-1 */
#define SHMPI_ENV_SIZE     "SHMPI_SIZE"      /* number of ranks */
#define SHMPI_ENV_ARENA_FD "SHMPI_ARENA_FD"  /* inherited arena descriptor */
#define SHMPI_ENV_RANK_PID "SHMPI_RANK_PID"  /* the process that is the rank */

enum shmpi_tun_id {
    /* the in-library launch: read by MPI_Init when no launcher started us */
    SHMPI_TUN_NP,
    SHMPI_TUN_BIND_TO,
    SHMPI_TUN_TAG_OUTPUT,
    SHMPI_TUN_REPORT_BINDINGS,
    /* the launcher (mpirun, or the in-library launch) */
    SHMPI_TUN_TIMEOUT,
    SHMPI_TUN_KILL_GRACE_MS,
    SHMPI_TUN_DEADLOCK_MS,
    SHMPI_TUN_HANG_REPORT,
    /* the launcher, when it lays the arena out */
    SHMPI_TUN_RING_KB,
    SHMPI_TUN_FAST_RINGS,
    SHMPI_TUN_OUTBOX_KB,
    SHMPI_TUN_LANES,
    SHMPI_TUN_SYNC_COUNTERS,
    SHMPI_TUN_COLL_AREAS,
    SHMPI_TUN_COLL_SLOT_KB,
    /* every rank, in MPI_Init */
    SHMPI_TUN_EAGER_LIMIT,
    SHMPI_TUN_CHUNK,
    SHMPI_TUN_FAST_AFTER,
    SHMPI_TUN_RING_MIN_KB,
    SHMPI_TUN_RING_GROW_AFTER,
    SHMPI_TUN_PULL_LIMIT_MB,
    SHMPI_TUN_UNEXPECTED_MB,
    SHMPI_TUN_COLL_FOLD_MAX,
    SHMPI_TUN_COLL_BARRIER,
    SHMPI_TUN_SPIN_US,
    SHMPI_TUN_YIELDS,
    SHMPI_TUN_CHECK,
    SHMPI_TUN_COUNT,                 /* the tunables end here */
    /* plumbing, see above */
    SHMPI_TUN_P_RANK = SHMPI_TUN_COUNT,
    SHMPI_TUN_P_SIZE,
    SHMPI_TUN_P_ARENA_FD,
    SHMPI_TUN_P_RANK_PID,
    SHMPI_TUN_ALL
};

enum shmpi_tun_type {
    SHMPI_TUN_BOOL,    /* 1/0, yes/no, true/false, on/off */
    SHMPI_TUN_INT,     /* a whole number, in `unit` */
    SHMPI_TUN_SIZE,    /* a whole number of `unit`, or bytes with a suffix
                          k, M, G, T (powers of 1024); kept in bytes */
    SHMPI_TUN_CHOICE,  /* one of `choices`; kept as its index */
    SHMPI_TUN_SECONDS, /* a decimal number of seconds; kept in ns */
};

enum shmpi_tun_reader {
    SHMPI_TUN_BY_SELF_LAUNCH, /* MPI_Init of a program started without a
                                 launcher (SHMPI_NP) */
    SHMPI_TUN_BY_LAUNCHER,    /* mpirun, or the in-library launch */
    SHMPI_TUN_BY_RANK,        /* each rank, in MPI_Init */
};

enum shmpi_tun_scope {
    SHMPI_TUN_LOCAL,     /* each reader its own */
    SHMPI_TUN_JOB,       /* one value for the whole job: the launcher
                            records it in the arena, every rank checks */
    SHMPI_TUN_PLUMBING,  /* not a tunable, see above */
};

/* The values of the choices (their index in the table's lists). */
enum shmpi_tun_bind_to { SHMPI_TUN_BIND_CORE, SHMPI_TUN_BIND_NONE };
enum shmpi_tun_barrier { SHMPI_TUN_BARRIER_DISSEMINATION,
                         SHMPI_TUN_BARRIER_COUNTER };

#define SHMPI_TUN_UNSET UINT64_MAX  /* a default that means "not set" */

struct shmpi_tunable {
    const char *name;
    enum shmpi_tun_type type;
    const char *unit;         /* of a plain number ("KiB", "us", ...) */
    uint64_t unit_bytes;      /* SIZE: bytes in one unit */
    uint64_t dflt;            /* kept form; SHMPI_TUN_UNSET: none */
    uint64_t dflt_oversub;    /* when the job has more ranks than CPUs */
    uint64_t min, max;        /* kept form */
    const char *const *choices; /* CHOICE: NULL-ended */
    const char *dflt_text;    /* the default in words, when a number or
                                 choice does not say it all; or NULL */
    enum shmpi_tun_reader reader;
    enum shmpi_tun_scope scope;
    const char *help;         /* one line */
};

extern const struct shmpi_tunable shmpi_tun_table[SHMPI_TUN_ALL];

/* The values in effect for one process, and where each came from. */
enum shmpi_tun_from { SHMPI_TUN_FROM_DEFAULT, SHMPI_TUN_FROM_ENV };

struct shmpi_tun_set {
    uint64_t value[SHMPI_TUN_COUNT];
    unsigned char from[SHMPI_TUN_COUNT];  /* enum shmpi_tun_from */
};

#define SHMPI_TUN_ERR 320  /* room for any message below */

/* The text of variable id: the last "NAME=VALUE" of exports (mpirun's
   -x, NULL-ended, may be NULL), else the environment; NULL if unset. */
const char *shmpi_tun_text(enum shmpi_tun_id id, char *const *exports);

/* The parser.  Returns 0 and the kept form in *out, or -1 and one line
   in err: "NAME='text': what is wrong; accepts what". */
int shmpi_tun_parse(enum shmpi_tun_id id, const char *text, uint64_t *out,
                    char *err, size_t errlen);

/* Reads one variable: 0 unset, 1 set (*out), -1 bad (err). */
int shmpi_tun_read(enum shmpi_tun_id id, char *const *exports, uint64_t *out,
                   char *err, size_t errlen);

/* Fills s with every tunable: the defaults (those of an oversubscribed
   job if oversubscribed), then what the environment (and exports) say
   for the tunables whose reader is in `readers` (a mask of
   1u << enum shmpi_tun_reader).  Returns 0, or -1 and the first bad
   one's line in err. */
#define SHMPI_TUN_READERS(r) (1u << (r))
int shmpi_tun_load(struct shmpi_tun_set *s, unsigned readers,
                   char *const *exports, int oversubscribed, char *err,
                   size_t errlen);

/* A default in effect: dflt or dflt_oversub. */
uint64_t shmpi_tun_default(enum shmpi_tun_id id, int oversubscribed);

/* What a variable accepts, in words ("a number of KiB, or ..."). */
void shmpi_tun_accepts(enum shmpi_tun_id id, char *buf, size_t len);
/* A kept value in words, with its unit ("256 KiB", "core", "unset"). */
void shmpi_tun_format(enum shmpi_tun_id id, uint64_t v, char *buf,
                      size_t len);

/* Before MPI_Init the rank is only in SHMPI_RANK: that, or otherwise
   (unset, garbage) `otherwise`.  For messages that must not fail. */
int shmpi_tun_env_rank(int otherwise);

struct shmpi_arena_header;
struct shmpi_arena_params;

/* The launcher, with s loaded: what shapes the arena ... */
void shmpi_tun_arena_params(const struct shmpi_tun_set *s,
                            struct shmpi_arena_params *p);
/* ... and, once it exists, the job-wide values kept in it. */
void shmpi_tun_record(const struct shmpi_tun_set *s,
                      struct shmpi_arena_header *h);

/* A rank in MPI_Init: loads what ranks read, and for each job-wide
   tunable takes the job's value from h; one set in this rank's own
   environment must equal it.  Returns 0, or -1 and one line in err
   naming the variable and both values. */
int shmpi_tun_join(struct shmpi_tun_set *s, const struct shmpi_arena_header *h,
                   int oversubscribed, char *err, size_t errlen);

#endif
