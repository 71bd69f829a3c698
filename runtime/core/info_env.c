/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * info_env.c - MPI_INFO_ENV, the predefined info object that describes
 * how this process was started (MPI-3.1 8.7, with MPI_INIT); MPI_Init
 * fills it in.
 *
 * Keys, in this order, each present only when it has a true value:
 *   command       argv[0], and
 *   argv          the other arguments joined by spaces (no key when
 *                 there are none, as in Open MPI), both read from
 *                 /proc/self/cmdline: MPI_Init may get NULL arguments,
 *                 and getopt may have reordered argv already;
 *   maxprocs      the size of MPI_COMM_WORLD;
 *   soft          the same: the job was started with exactly that many;
 *   host          gethostname(), the name MPI_Get_processor_name gives;
 *   arch          the machine of uname(), e.g. "x86_64";
 *   wdir          the working directory when MPI_Init ran;
 *   thread_level  the level the program requested, "MPI_THREAD_SINGLE"
 *                 for MPI_Init (the standard's meaning; MPI_Query_thread
 *                 tells what was provided).
 * "file" (a file of further information) is never set: no launcher here
 * reads one.  The standard lets MPI_INFO_ENV hold any subset of these
 * keys; a value that would not fit in MPI_MAX_INFO_VAL - 1 characters is
 * left out rather than cut into something false.
 *
 * The program may set and delete keys in MPI_INFO_ENV like in any info
 * object (Open MPI and MPICH allow it too), but not free it.
 *
 * MPI_Info_create_env (MPI-4.0) builds a new object the same way, with
 * the same keys and values MPI_Init gave MPI_INFO_ENV whatever the
 * program changed there since.  MPI-4.0 lets it be called before
 * MPI_Init too, but here, as in MPI-3.1, no info call works outside
 * MPI_Init..MPI_Finalize, so neither does this one.  Its argc and argv
 * are not read: like MPI_INFO_ENV, the command line comes from
 * /proc/self/cmdline (the standard lets C programs pass NULL for both).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/error.h"
#include "core/info.h"
#include "core/pmpi.h"
#include "core/proc.h"

SHMPI_WEAK_ALIAS(Info_create_env)

struct shmpi_info shmpi_info_env = {.magic = SHMPI_MAGIC_INFO,
                                    .predefined = 1};

static int set_if_fits(struct shmpi_info *info, const char *key,
                       const char *value)
{
    if (strnlen(value, MPI_MAX_INFO_VAL) == MPI_MAX_INFO_VAL)
        return MPI_SUCCESS;
    return shmpi_info_set(info, key, value);
}

/* Appends arg to the space-separated list in buf (used bytes of a
   MPI_MAX_INFO_VAL buffer); 0 when it does not fit. */
static int append_arg(char *buf, size_t *used, const char *arg)
{
    size_t n = strlen(arg), sep = *used > 0;
    if (*used + sep + n >= MPI_MAX_INFO_VAL)
        return 0;
    if (sep)
        buf[(*used)++] = ' ';
    memcpy(buf + *used, arg, n + 1);
    *used += n;
    return 1;
}

static int set_command_line(struct shmpi_info *info)
{
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (!f)
        return MPI_SUCCESS; /* no /proc: the two keys are left out */
    char *arg = NULL, args[MPI_MAX_INFO_VAL] = "";
    size_t cap = 0, used = 0;
    int rc = MPI_SUCCESS, nargs = 0, fits = 1;
    if (getdelim(&arg, &cap, '\0', f) > 0)
        rc = set_if_fits(info, "command", arg);
    while (getdelim(&arg, &cap, '\0', f) > 0) {
        nargs++;
        fits = fits && append_arg(args, &used, arg);
    }
    if (rc == MPI_SUCCESS && nargs > 0 && fits)
        rc = shmpi_info_set(info, "argv", args);
    free(arg);
    fclose(f);
    return rc;
}

static const char *thread_level_name(int level)
{
    return level >= MPI_THREAD_MULTIPLE ? "MPI_THREAD_MULTIPLE"
         : level >= MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
         : level >= MPI_THREAD_FUNNELED ? "MPI_THREAD_FUNNELED"
         : "MPI_THREAD_SINGLE";
}

/* Fills info with the keys above; MPI_SUCCESS or MPI_ERR_NO_MEM. */
static int fill(struct shmpi_info *info, int requested)
{
    char procs[16], host[MPI_MAX_PROCESSOR_NAME], wdir[MPI_MAX_INFO_VAL];
    struct utsname u;
    snprintf(procs, sizeof procs, "%d", shmpi_proc.size);
    int rc = set_command_line(info);
    if (rc == MPI_SUCCESS)
        rc = set_if_fits(info, "maxprocs", procs);
    if (rc == MPI_SUCCESS)
        rc = set_if_fits(info, "soft", procs);
    if (rc == MPI_SUCCESS && gethostname(host, sizeof host) == 0) {
        host[sizeof host - 1] = '\0';
        rc = set_if_fits(info, "host", host);
    }
    if (rc == MPI_SUCCESS && uname(&u) == 0)
        rc = set_if_fits(info, "arch", u.machine);
    if (rc == MPI_SUCCESS && getcwd(wdir, sizeof wdir))
        rc = set_if_fits(info, "wdir", wdir);
    if (rc == MPI_SUCCESS)
        rc = set_if_fits(info, "thread_level", thread_level_name(requested));
    return rc;
}

int shmpi_info_env_init(int requested)
{
    shmpi_proc.thread_requested = requested;
    return fill(&shmpi_info_env, requested);
}

int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    static const char fn[] = "MPI_Info_create_env";
    SHMPI_REQUIRE_INIT(fn);
    if (!info)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "info is NULL");
    struct shmpi_info *i = shmpi_info_new();
    if (i && fill(i, shmpi_proc.thread_requested) != MPI_SUCCESS) {
        shmpi_info_destroy(i);
        i = NULL;
    }
    if (!i)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                           "no memory for an info object");
    *info = i;
    return MPI_SUCCESS;
}
