/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sleeper - a rank program that is no MPI program and never ends.
 *
 *   sleeper
 *
 * Prints "sleeper pid P euid E" (one line, flushed) and sleeps until it
 * is killed.  test/tree-setuid.sh runs a set-user-ID copy of it: execve
 * of such a program clears the parent-death signal the launcher set.
 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    printf("sleeper pid %d euid %d\n", (int)getpid(), (int)geteuid());
    fflush(stdout);
    for (;;)
        pause();
}
