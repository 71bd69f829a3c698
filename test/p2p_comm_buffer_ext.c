/* p2p_comm_buffer_ext: MPI-4.1's buffers for buffered sends: MPI_BUFFER_AUTOMATIC as the process's buffer (many large Bsends before any receive), a communicator's own buffer taking precedence over the process's, MPI_Buffer_flush, MPI_Comm_flush_buffer and MPI_Comm_iflush_buffer waiting for delivery, detach returning what was attached, and bad arguments. */
/* shmpi-test: np=1,2,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define BIG 100000 /* bytes: beyond the eager limit */
#define MSGS 20

static int rank, size, left, right;

/* Twenty large messages through an automatic process buffer, sent
   before the receiver posts anything. */
static void automatic_process_buffer(void)
{
    static char out[MSGS][BIG], in[BIG];
    CHECK_MPI(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
    for (int m = 0; m < MSGS; m++) {
        memset(out[m], 'a' + m, BIG);
        CHECK_MPI(MPI_Bsend(out[m], BIG, MPI_CHAR, right, m, MPI_COMM_WORLD));
        memset(out[m], 0, BIG); /* the copy went, not the buffer */
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int m = 0; m < MSGS; m++) {
        CHECK_MPI(MPI_Recv(in, BIG, MPI_CHAR, left, m, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        CHECK(in[0] == 'a' + m && in[BIG - 1] == 'a' + m,
              "message %d: %c...%c", m, in[0], in[BIG - 1]);
    }
    CHECK_MPI(MPI_Buffer_flush());
    void *addr = NULL;
    int bytes = -1;
    CHECK_MPI(MPI_Buffer_detach(&addr, &bytes));
    CHECK(addr == MPI_BUFFER_AUTOMATIC && bytes == 0,
          "detach of an automatic buffer: %p, %d", addr, bytes);
}

/* dup has a buffer for one large message; the process has room for no
   message: a Bsend on dup uses dup's, one on world finds its own full. */
static void comm_buffer(void)
{
    static char big[BIG], in[BIG];
    int tiny_size = MPI_BSEND_OVERHEAD + 4, dup_size = BIG + MPI_BSEND_OVERHEAD;
    char *tiny = malloc(tiny_size), *mine = malloc(dup_size);
    CHECK(tiny && mine, "no memory");
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Buffer_attach(tiny, tiny_size));
    CHECK_MPI(MPI_Comm_attach_buffer(dup, mine, dup_size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
    memset(big, 'z', BIG);
    CHECK_MPI(MPI_Bsend(big, BIG, MPI_CHAR, right, 1, dup));
    CHECK_CLASS(MPI_Bsend(big, 8, MPI_CHAR, right, 2, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    MPI_Request flush;
    int flag = -1;
    CHECK_MPI(MPI_Comm_iflush_buffer(dup, &flush));
    if (size > 1) { /* to oneself a message is delivered at once */
        CHECK_MPI(MPI_Test(&flush, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "a flush complete before the receive was posted");
        /* still in dup's buffer: no room there for another */
        CHECK_CLASS(MPI_Bsend(big, 8, MPI_CHAR, right, 3, dup),
                    MPI_ERR_BUFFER);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(in, BIG, MPI_CHAR, left, 1, dup, MPI_STATUS_IGNORE));
    CHECK(in[0] == 'z' && in[BIG - 1] == 'z', "received %c...%c", in[0],
          in[BIG - 1]);
    CHECK_MPI(MPI_Wait(&flush, MPI_STATUS_IGNORE));
    CHECK(flush == MPI_REQUEST_NULL, "Wait left the flush request");
    CHECK_MPI(MPI_Comm_flush_buffer(dup));
    /* a small one fits in the process's buffer */
    CHECK_MPI(MPI_Bsend(big, 4, MPI_CHAR, right, 4, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(in, 4, MPI_CHAR, left, 4, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    void *addr = NULL;
    int bytes = -1;
    CHECK_MPI(MPI_Comm_detach_buffer(dup, &addr, &bytes));
    CHECK(addr == mine && bytes == dup_size, "comm detach: %p %d", addr,
          bytes);
    /* detached: dup's sends use the process's buffer again */
    CHECK_CLASS(MPI_Bsend(big, BIG, MPI_CHAR, right, 5, dup), MPI_ERR_BUFFER);
    CHECK_MPI(MPI_Buffer_detach(&addr, &bytes));
    CHECK(addr == tiny && bytes == tiny_size, "detach: %p %d", addr, bytes);
    /* freed with a buffer attached: it goes with the communicator */
    CHECK_MPI(MPI_Comm_attach_buffer(dup, MPI_BUFFER_AUTOMATIC, 12345));
    CHECK_MPI(MPI_Bsend(big, BIG, MPI_CHAR, right, 6, dup));
    CHECK_MPI(MPI_Recv(in, BIG, MPI_CHAR, left, 6, dup, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    free(tiny);
    free(mine);
}

static void errors(void)
{
    char buf[256];
    void *addr;
    int bytes;
    MPI_Request r;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Comm_attach_buffer(MPI_COMM_NULL, buf, 256), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_attach_buffer(MPI_COMM_WORLD, buf, -1), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_attach_buffer(MPI_COMM_WORLD, NULL, 10),
                MPI_ERR_BUFFER);
    CHECK_MPI(MPI_Comm_attach_buffer(MPI_COMM_WORLD, buf, 256));
    CHECK_CLASS(MPI_Comm_attach_buffer(MPI_COMM_WORLD, buf, 256),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Comm_detach_buffer(MPI_COMM_WORLD, NULL, &bytes),
                MPI_ERR_ARG);
    CHECK_MPI(MPI_Comm_detach_buffer(MPI_COMM_WORLD, &addr, &bytes));
    CHECK(addr == buf && bytes == 256, "detach: %p %d", addr, bytes);
    CHECK_CLASS(MPI_Comm_flush_buffer(MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_iflush_buffer(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Buffer_iflush(NULL), MPI_ERR_ARG);
    /* nothing attached: the flushes have nothing to wait for */
    CHECK_MPI(MPI_Buffer_iflush(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_flush_buffer(MPI_COMM_SELF));
    CHECK_MPI(MPI_Comm_iflush_buffer(MPI_COMM_SELF, &r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL, "Request_free left the flush request");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    automatic_process_buffer();
    comm_buffer();
    errors();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
