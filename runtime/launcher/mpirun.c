/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpirun.c - the mpirun (and mpiexec) command: options in, shmpi_ln_launch.
 *
 * Only option parsing lives here; the job itself is run by shmpi_ln_launch
 * in libmpi.a, the same code a program uses to start its own ranks.
 * The parser is a table walk rather than getopt_long: MPI launchers spell
 * long options with one dash (-np, -x; getopt would read -np as -n -p),
 * users also write --np, and the first word that is not an option is the
 * program - everything after it belongs to the program, never to us.  So
 * every option takes one or two dashes and its value either as the next
 * word or after '='.  Open MPI's --oversubscribe and --allow-run-as-root
 * are accepted and do nothing (both are always allowed here), so scripts
 * written for Open MPI run unchanged.
 *
 * Messages start with the name we were called by ("mpirun: ",
 * "mpiexec: "); a usage error is one line and exit status 2.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launcher/launch.h"
#include "launcher/trace.h"
#include "mpi.h"

enum opt_id { OPT_NP, OPT_BIND, OPT_REPORT, OPT_TIMEOUT, OPT_EXPORT,
              OPT_TAG, OPT_HELP, OPT_VERSION, OPT_SHOW_TUNABLES, OPT_NOOP,
              OPT_TRACE, OPT_PROFILE, OPT_CHECK };

struct opt {
    const char *name;
    enum opt_id id;
    bool takes_value;
};

static const struct opt options[] = {
    {"np", OPT_NP, true},           {"n", OPT_NP, true},
    {"bind-to", OPT_BIND, true},    {"report-bindings", OPT_REPORT, false},
    {"timeout", OPT_TIMEOUT, true}, {"x", OPT_EXPORT, true},
    {"tag-output", OPT_TAG, false}, {"help", OPT_HELP, false},
    {"h", OPT_HELP, false},         {"version", OPT_VERSION, false},
    {"V", OPT_VERSION, false},      {"oversubscribe", OPT_NOOP, false},
    {"allow-run-as-root", OPT_NOOP, false},
    {"show-tunables", OPT_SHOW_TUNABLES, false},
    {"trace", OPT_TRACE, true},     {"profile", OPT_PROFILE, false},
    {"check", OPT_CHECK, false},
};

struct cli {
    struct shmpi_launch_opts o;
    char **exports;          /* malloc'd "NAME=VALUE" strings */
    size_t nexports;
    struct shmpi_ln_trace trace;  /* --trace FILE, --profile */
    bool done;               /* --help, --version, --show-tunables */
    int status;              /* exit status when done */
};

static const char usage_text[] =
    "Usage: %s -np N [options] program [args...]\n"
    "Runs N copies of program on this machine as one MPI job.\n"
    "\n"
    "  -np N, -n N           number of ranks (default: one per usable core)\n"
    "  --bind-to core|none   bind rank i to core i %% cores (default: core\n"
    "                        when N <= usable cores, else none)\n"
    "  --report-bindings     print each rank's CPUs and NUMA node (stderr)\n"
    "  --timeout S           kill the job after S seconds (exit status 124)\n"
    "  -x NAME[=VALUE]       set NAME in every rank (no VALUE: ours)\n"
    "  --tag-output          prefix every output line with [rank]\n"
    "  --check               report erroneous MPI use as it happens\n"
    "                        (SHMPI_CHECK=1; exit status 123 if any)\n"
    "  --trace FILE          write every MPI call and message of the job\n"
    "                        to FILE (Chrome trace JSON: ui.perfetto.dev)\n"
    "  --profile             print time and calls per MPI function at the\n"
    "                        end (stderr)\n"
    "                        (both: programs built with mpicc -shared-mpi)\n"
    "  --oversubscribe, --allow-run-as-root\n"
    "                        accepted for Open MPI scripts; always allowed\n"
    "  --show-tunables       print every environment variable shmpi reads,\n"
    "                        its value in effect (with -x given before it)\n"
    "                        and what it accepts; then exit\n"
    "  -h, --help            this text\n"
    "  -V, --version         print the version\n"
    "\n"
    "Options take one or two dashes, and values as '--opt V' or '--opt=V'.\n"
    "Environment: MPIEXEC_TIMEOUT=S (as --timeout), SHMPI_KILL_GRACE_MS\n"
    "(after a signal is passed to the ranks, SIGKILL follows; default 1000),\n"
    "and the ranks' tunables: see --show-tunables and shmpi(7).\n"
    "Exit status: 0 all ranks finished; else that of the first rank that\n"
    "failed (its exit status, 128+signal, MPI_Abort's code, 1 if it exited\n"
    "without MPI_Finalize), 128+signal if we were signalled, 123 --check\n"
    "found problems, 124 timeout, 125 deadlock,\n"
    "126/127 program not executable/not found, 2 usage, 1 other errors.\n";

static const char *tool;

static int usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", tool);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see '%s --help')\n", tool);
    va_end(ap);
    return -1;
}

static const struct opt *find_option(const char *word, size_t len)
{
    for (size_t i = 0; i < sizeof options / sizeof *options; i++)
        if (strlen(options[i].name) == len &&
            strncmp(options[i].name, word, len) == 0)
            return &options[i];
    return NULL;
}

static int parse_np(struct cli *c, const char *v)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < 1 || n > 1000000)
        return usage_error("-np wants a number of ranks from 1 to 1000000, "
                           "not '%s'", v);
    c->o.np = (int)n;
    return 0;
}

static int parse_bind(struct cli *c, const char *v)
{
    if (strcmp(v, "core") == 0)
        c->o.bind = SHMPI_BIND_CORE;
    else if (strcmp(v, "none") == 0)
        c->o.bind = SHMPI_BIND_NONE;
    else
        return usage_error("--bind-to wants core or none, not '%s'", v);
    return 0;
}

static int parse_timeout(struct cli *c, const char *v)
{
    char *end;
    double t = strtod(v, &end);
    if (!*v || *end || !(t > 0 && t <= 1e9))
        return usage_error("--timeout wants a number of seconds > 0, not "
                           "'%s'", v);
    c->o.timeout_s = t;
    return 0;
}

static int add_export(struct cli *c, const char *v)
{
    const char *eq = strchr(v, '=');
    if (!*v || eq == v)
        return usage_error("-x wants NAME or NAME=VALUE, not '%s'", v);
    const char *ours = eq ? NULL : getenv(v);
    if (!eq && !ours) {
        fprintf(stderr, "%s: -x %s: %s is not set here; not exported\n", tool,
                v, v);
        return 0;
    }
    char *s = malloc(strlen(v) + (ours ? strlen(ours) + 2 : 1));
    char **grown = realloc(c->exports, (c->nexports + 2) * sizeof *grown);
    if (!s || !grown) {
        free(s);
        if (grown)
            c->exports = grown;
        return usage_error("%s", "out of memory");
    }
    strcpy(s, v);
    if (ours)
        strcat(strcat(s, "="), ours);
    c->exports = grown;
    c->exports[c->nexports++] = s;
    c->exports[c->nexports] = NULL;
    return 0;
}

static const char *const read_by[] = {
    [SHMPI_TUN_BY_SELF_LAUNCH] = "MPI_Init of a program started without a "
                                 "launcher",
    [SHMPI_TUN_BY_LAUNCHER] = "the launcher (mpirun, or the in-library "
                              "launch)",
    [SHMPI_TUN_BY_RANK] = "each rank, in MPI_Init",
};

/* One tunable: its value in effect and where it came from, its help,
   what it accepts, who reads it.  Returns 0, or -1 if its value is bad. */
static int show_tunable(struct cli *c, enum shmpi_tun_id id)
{
    const struct shmpi_tunable *t = &shmpi_tun_table[id];
    char value[64], dflt[64], err[SHMPI_TUN_ERR], acc[SHMPI_TUN_ERR];
    uint64_t v;
    int r = shmpi_tun_read(id, c->exports, &v, err, sizeof err);
    shmpi_tun_format(id, shmpi_tun_default(id, 0), dflt, sizeof dflt);
    if (r > 0)
        shmpi_tun_format(id, v, value, sizeof value);
    if (r > 0)
        printf("%s = %s (environment; default %s)\n", t->name, value,
               t->dflt_text ? t->dflt_text : dflt);
    else if (r == 0)
        printf("%s = %s (default%s%s)\n", t->name,
               t->dflt_text && t->dflt == SHMPI_TUN_UNSET ? "unset" : dflt,
               t->dflt_text ? ": " : "", t->dflt_text ? t->dflt_text : "");
    else
        printf("%s = '%s' (environment: NOT VALID)\n", t->name,
               shmpi_tun_text(id, c->exports));
    shmpi_tun_accepts(id, acc, sizeof acc);
    printf("    %s\n    unit: %s; accepts %s\n    read by %s%s\n", t->help,
           t->unit ? t->unit : "none", acc, read_by[t->reader],
           t->scope == SHMPI_TUN_JOB
               ? "; one value for the whole job, checked in every rank"
               : "");
    if (r < 0)
        fprintf(stderr, "%s: %s\n", tool, err);
    return r < 0 ? -1 : 0;
}

/* --show-tunables: the whole table; status 2 if a value is bad. */
static int show_tunables(struct cli *c)
{
    int bad = 0;
    printf("The environment variables shmpi reads (shmpi(7), ENVIRONMENT):\n");
    for (int id = 0; id < SHMPI_TUN_COUNT; id++)
        bad |= show_tunable(c, (enum shmpi_tun_id)id);
    printf("\nBetween the launcher and its ranks, never set by hand (not "
           "tunables):\n");
    for (int id = SHMPI_TUN_COUNT; id < SHMPI_TUN_ALL; id++)
        printf("  %s: %s\n", shmpi_tun_table[id].name,
               shmpi_tun_table[id].help);
    return bad ? SHMPI_EXIT_USAGE : 0;
}

static int apply(struct cli *c, enum opt_id id, const char *v)
{
    switch (id) {
    case OPT_NP: return parse_np(c, v);
    case OPT_BIND: return parse_bind(c, v);
    case OPT_TIMEOUT: return parse_timeout(c, v);
    case OPT_EXPORT: return add_export(c, v);
    case OPT_REPORT: c->o.report_bindings = 1; break;
    case OPT_TAG: c->o.tag_output = 1; break;
    case OPT_HELP: printf(usage_text, tool); c->done = true; break;
    case OPT_VERSION:
        printf("%s (shmpi) %s\n", tool, SHMPI_VERSION_STRING);
        c->done = true;
        break;
    case OPT_SHOW_TUNABLES:
        c->status = show_tunables(c);
        c->done = true;
        break;
    case OPT_NOOP: break;
    case OPT_TRACE:
        if (!*v)
            return usage_error("%s", "--trace wants a file name");
        c->trace.out = v;
        break;
    case OPT_PROFILE: c->trace.profile = 1; break;
    /* an export, as -x SHMPI_CHECK=1: the ranks read it as any tunable */
    case OPT_CHECK: return add_export(c, "SHMPI_CHECK=1");
    }
    return 0;
}

/* argv[*i] is an option: applies it (consuming its value word too). */
static int parse_option(struct cli *c, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    const char *word = arg + (arg[1] == '-' ? 2 : 1);
    const char *eq = strchr(word, '=');
    const struct opt *o = find_option(word, eq ? (size_t)(eq - word)
                                               : strlen(word));
    if (!o)
        return usage_error("unknown option '%s'", arg);
    if (!o->takes_value && eq)
        return usage_error("option '%s' takes no value", arg);
    const char *v = eq ? eq + 1 : NULL;
    if (o->takes_value && !v) {
        if (*i + 1 >= argc)
            return usage_error("option '%s' wants a value", arg);
        v = argv[++*i];
    }
    return apply(c, o->id, v);
}

/* Returns the index of the program in argv, 0 when done, -1 on error. */
static int parse(struct cli *c, int argc, char **argv)
{
    int i = 1;
    for (; i < argc && !c->done; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0')
            break;
        if (parse_option(c, argc, argv, &i) != 0)
            return -1;
    }
    if (c->done)
        return 0;
    if (i >= argc)
        return usage_error("%s", "no program to run");
    return i;
}

static void free_exports(struct cli *c)
{
    for (size_t i = 0; i < c->nexports; i++)
        free(c->exports[i]);
    free(c->exports);
}

int main(int argc, char **argv)
{
    const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
    tool = argc > 0 ? (slash ? slash + 1 : argv[0]) : "mpirun";
    struct cli c;
    memset(&c, 0, sizeof c);
    c.o.bind = SHMPI_BIND_AUTO;
    c.o.tool = tool;
    int prog = parse(&c, argc, argv);
    int status = prog < 0 ? SHMPI_EXIT_USAGE : c.status;
    if (prog > 0 && (c.trace.out || c.trace.profile)) {
        c.trace.tool = tool;
        status = shmpi_ln_trace_begin(&c.trace, argv[prog]);
        if (!status && (add_export(&c, c.trace.preload) ||
                        add_export(&c, c.trace.dir_var)))
            status = SHMPI_EXIT_LAUNCH_ERROR;
        if (status)
            prog = 0;
    }
    if (prog > 0) {
        c.o.argv = argv + prog;
        c.o.exports = c.exports;
        status = shmpi_ln_launch(&c.o);
    }
    shmpi_ln_trace_end(&c.trace, c.o.np, status);
    free_exports(&c);
    return status;
}
