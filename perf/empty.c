/* SPDX-License-Identifier: BSD-3-Clause */
/* empty.c - a program that does nothing, for perf/launch-parts.sh: built
 * static, dynamic, and dynamic with shmpi's run-time libraries. */
int main(void)
{
    return 0;
}
