/* p2p_huge: a message larger than 2 GiB (count * type size past INT_MAX bytes) arrives whole, with the right count and elements. */
/* shmpi-test: np=2 timeout=240 */
/* shmpi-test-skip tsan: the rank writes and reads over 2 GiB, to which ThreadSanitizer adds shadow memory of at least twice every byte touched (86 s of the TSan step, 2026-11-30), and the program starts no threads, between which its races would be. */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "big.h"
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

/* 2^29 + 2 ints: 2 GiB and 8 bytes */
#define COUNT ((1 << 29) + 2)

static int value(size_t i) { return (int)(i * 2654435761u); }

int main(int argc, char **argv)
{
    int rank;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    int *buf = big_alloc((size_t)COUNT * sizeof(int));
    CHECK(buf != NULL, "cannot allocate %zu bytes", (size_t)COUNT * 4);
    if (rank == 0) {
        for (size_t i = 0; i < COUNT; i++)
            buf[i] = value(i);
        CHECK_MPI(MPI_Send(buf, COUNT, MPI_INT, 1, 5, MPI_COMM_WORLD));
    } else if (rank == 1) {
        MPI_Status st;
        buf[COUNT - 1] = 0;
        CHECK_MPI(MPI_Recv(buf, COUNT, MPI_INT, 0, 5, MPI_COMM_WORLD, &st));
        int count;
        MPI_Count elements;
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
        CHECK_MPI(MPI_Get_elements_x(&st, MPI_BYTE, &elements));
        CHECK(count == COUNT, "count %d, expected %d", count, COUNT);
        CHECK(elements == (MPI_Count)COUNT * 4, "%lld bytes, expected %lld",
              (long long)elements, (long long)COUNT * 4);
        for (size_t i = 0; i < COUNT; i += 4093)
            CHECK(buf[i] == value(i), "int %zu is %d, expected %d", i,
                  buf[i], value(i));
        CHECK(buf[COUNT - 1] == value(COUNT - 1), "last int is wrong");
    }
    big_free(buf, (size_t)COUNT * sizeof(int));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
