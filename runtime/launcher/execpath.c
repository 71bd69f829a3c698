/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * execpath.c - find the program once, in the launcher, before any fork.
 *
 * execvp would search PATH in every child and a typo would surface as N
 * identical failures after N forks.  Searching once up front gives one
 * clear message and a status before anything is started (127: not found,
 * 126: found but not executable, as the shell does), and lets every
 * child call plain execve on a known path.  The search follows execvp:
 * a name with a slash is used as is; an empty PATH element means the
 * current directory; PATH unset means the confstr(_CS_PATH) default; a
 * candidate that exists but may not be executed is remembered (EACCES)
 * while the search goes on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launcher/job.h"

/* 0 if path is an executable regular file, else an errno value. */
static int check_exec(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return errno;
    if (S_ISDIR(st.st_mode))
        return EACCES;
    if (faccessat(AT_FDCWD, path, X_OK, AT_EACCESS) != 0)
        return errno;
    return 0;
}

static char *join(const char *dir, size_t dlen, const char *name)
{
    size_t nlen = strlen(name);
    char *p = malloc(dlen + nlen + 2);
    if (!p)
        return NULL;
    memcpy(p, dir, dlen);
    size_t n = dlen;
    if (dlen > 0)
        p[n++] = '/';
    memcpy(p + n, name, nlen + 1);
    return p;
}

static char *default_path(void)
{
    size_t n = confstr(_CS_PATH, NULL, 0);
    char *p = n ? malloc(n) : NULL;
    if (p)
        confstr(_CS_PATH, p, n);
    return p;
}

/* Tries every directory of search; returns the first executable hit. */
static int search(const char *search_path, const char *name, char **out)
{
    int err = ENOENT;
    const char *dir = search_path;
    for (;;) {
        const char *end = strchrnul(dir, ':');
        char *cand = join(dir, (size_t)(end - dir), name);
        if (!cand)
            return ENOMEM;
        int e = check_exec(cand);
        if (e == 0) {
            *out = cand;
            return 0;
        }
        free(cand);
        if (e == EACCES)
            err = EACCES;
        if (!*end)
            return err;
        dir = end + 1;
    }
}

/* Finds name as execvp would.  Returns 0 and a malloc'd path, or an
   errno value (ENOENT, EACCES, ...). */
int shmpi_ln_find_program(const char *name, char **path_out)
{
    *path_out = NULL;
    if (!name || !*name)
        return ENOENT;
    if (strchr(name, '/')) {
        int e = check_exec(name);
        if (e == 0 && !(*path_out = strdup(name)))
            return ENOMEM;
        return e;
    }
    const char *env = getenv("PATH");
    char *def = env ? NULL : default_path();
    int e = search(env ? env : def ? def : "/bin:/usr/bin", name, path_out);
    free(def);
    return e;
}
