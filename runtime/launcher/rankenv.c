/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rankenv.c - the environment every rank is started with.
 *
 * Built once, in the launcher, as one envp array: our environment minus
 * the variables we set, plus the -x exports (the last of several with one
 * name wins), plus SHMPI_SIZE, SHMPI_ARENA_FD and SHMPI_RANK.  Only the
 * SHMPI_RANK string differs between ranks; the launcher rewrites it in
 * place before each spawn (the child shares our memory until it execs,
 * see spawn.c), so starting a rank costs no allocation and the child
 * calls nothing but execve with it - no setenv between fork and exec,
 * which would not be safe in a multithreaded program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launcher/job.h"

extern char **environ;

/* Do two "NAME=..." strings name the same variable? */
static bool same_name(const char *a, const char *b)
{
    size_t n = strcspn(a, "=");
    return strncmp(a, b, n) == 0 && (b[n] == '=' || b[n] == '\0');
}

static bool exported_later(char **exports, const char *entry)
{
    for (char **e = exports; e && *e; e++)
        if (same_name(*e, entry))
            return true;
    return false;
}

static bool set_by_us(char **exports, const char *entry)
{
    static const char *const ours[] = {SHMPI_ENV_RANK, SHMPI_ENV_SIZE,
                                       SHMPI_ENV_ARENA_FD, SHMPI_ENV_RANK_PID};
    for (size_t i = 0; i < sizeof ours / sizeof *ours; i++)
        if (same_name(ours[i], entry))
            return true;
    return exported_later(exports, entry);
}

static size_t count(char **v)
{
    size_t n = 0;
    while (v && v[n])
        n++;
    return n;
}

int shmpi_ln_env_build(struct shmpi_job *j)
{
    char **exports = j->opts->exports;
    size_t n = 0;
    char **env = malloc((count(environ) + count(exports) + 4) * sizeof *env);
    if (!env)
        return -1;
    for (char **e = environ; e && *e; e++)
        if (!set_by_us(exports, *e))
            env[n++] = *e;
    for (char **e = exports; e && *e; e++)
        if (strchr(*e, '=') && !exported_later(e + 1, *e))
            env[n++] = *e;
    snprintf(j->size_var, sizeof j->size_var, "%s=%d", SHMPI_ENV_SIZE, j->np);
    snprintf(j->fd_var, sizeof j->fd_var, "%s=%d", SHMPI_ENV_ARENA_FD,
             j->arena_fd);
    env[n++] = j->size_var;
    env[n++] = j->fd_var;
    env[n++] = j->rank_var;
    env[n] = NULL;
    j->envp = env;
    return 0;
}

void shmpi_ln_env_set_rank(struct shmpi_job *j, int rank)
{
    snprintf(j->rank_var, sizeof j->rank_var, "%s=%d", SHMPI_ENV_RANK, rank);
}
