/* rma_win_mapped_ext: memory of MPI_Win_create (malloc'd heap, static .data and .bss) and of MPI_Win_attach (heap) is really moved onto a memory file, as a user sees it: while the window or region lives /proc/self/maps shows a memfd for every one of its pages, after MPI_Win_free / MPI_Win_detach none, contents kept throughout; a stack window's pages never move (peers reach them with process_vm). */
/* shmpi-test: np=1,2 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

#define BYTES (2 * 4096 + 100) /* three pages or more, wherever it starts */

static char data_buf[BYTES] = {1};
static char bss_buf[BYTES];

/* Checks that every page of [p, p + len) is mapped from a memory file
   (/proc/self/maps names "/memfd:") when on_memfd, none of them else. */
static void expect_pages(const void *p, size_t len, int on_memfd,
                         const char *what)
{
    uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)p & ~(pg - 1);
    uintptr_t hi = ((uintptr_t)p + len + pg - 1) & ~(pg - 1);
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f, "/proc/self/maps: %s", strerror(errno));
    char line[4096];
    uintptr_t on = 0, off = 0, a, b;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "%lx-%lx", &a, &b) != 2 || b <= lo || a >= hi)
            continue;
        uintptr_t n = (b < hi ? b : hi) - (a > lo ? a : lo);
        if (strstr(line, "/memfd:"))
            on += n;
        else
            off += n;
    }
    fclose(f);
    CHECK(on + off == hi - lo, "%s: only %lu of %lu bytes are mapped", what,
          (unsigned long)(on + off), (unsigned long)(hi - lo));
    CHECK(on == (on_memfd ? hi - lo : 0), "%s: %lu of %lu bytes of its "
          "pages are on a memory file, expected %s", what,
          (unsigned long)on, (unsigned long)(hi - lo),
          on_memfd ? "all" : "none");
}

static void fill(char *p, size_t len, int seed)
{
    for (size_t i = 0; i < len; i++)
        p[i] = (char)(seed + i * 7);
}

static void expect_kept(const char *p, size_t len, int seed,
                        const char *what)
{
    for (size_t i = 0; i < len; i++)
        CHECK(p[i] == (char)(seed + i * 7), "%s: byte %zu changed", what, i);
}

/* MPI_Win_create over buf: moved (or not, move == 0) while the window
   lives, private again after MPI_Win_free. */
static void created(char *buf, int move, const char *what)
{
    fill(buf, BYTES, 3);
    expect_pages(buf, BYTES, 0, what);
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(buf, BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                             &win));
    expect_pages(buf, BYTES, move, what);
    expect_kept(buf, BYTES, 3, what);
    fill(buf, BYTES, 5); /* stores to the window's memory */
    CHECK_MPI(MPI_Win_free(&win));
    expect_pages(buf, BYTES, 0, what);
    expect_kept(buf, BYTES, 5, what);
}

/* MPI_Win_attach of malloc'd memory: moved while attached. */
static void attached(void)
{
    char *buf = malloc(BYTES);
    CHECK(buf, "malloc");
    MPI_Win win;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    for (int round = 0; round < 2; round++) { /* the same memory again */
        fill(buf, BYTES, round);
        expect_pages(buf, BYTES, 0, "heap before MPI_Win_attach");
        CHECK_MPI(MPI_Win_attach(win, buf, BYTES));
        expect_pages(buf, BYTES, 1, "heap attached");
        expect_kept(buf, BYTES, round, "heap attached");
        CHECK_MPI(MPI_Win_detach(win, buf));
        expect_pages(buf, BYTES, 0, "heap after MPI_Win_detach");
        expect_kept(buf, BYTES, round, "heap after MPI_Win_detach");
    }
    CHECK_MPI(MPI_Win_free(&win));
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    char *heap = malloc(BYTES);
    CHECK(heap, "malloc");
    created(heap, 1, "malloc'd memory");
    free(heap);
    created(data_buf, 1, "static .data");
    created(bss_buf, 1, "static .bss");
    char stack[BYTES];
    created(stack, 0, "stack");
    attached();
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    if (rank == 0)
        printf("rma_win_mapped_ext: ok\n");
    return 0;
}
