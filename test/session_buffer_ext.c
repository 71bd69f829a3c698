/* session_buffer_ext: MPI-4.1's buffer of a session: a buffered send on a communicator made from a group of MPI_Group_from_session_pset uses its session's buffer (and fails with MPI_ERR_BUFFER, "full", when the message does not fit in it), a buffer attached to the communicator itself takes precedence, a communicator of another session does not see it; MPI_Session_flush_buffer and MPI_Session_iflush_buffer give the space back; detach returns what was attached; attaching twice is MPI_ERR_BUFFER through the session's handler; MPI_Session_attach_buffer_c and _detach_buffer_c attach and return the same buffer. */
/* shmpi-test: np=2,4 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define MSG 1000               /* bytes: an eager message */

static int rank, size, right, left;

static MPI_Comm session_comm(MPI_Session s, const char *tag)
{
    MPI_Group g;
    MPI_Comm c;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL,
                                         MPI_ERRORS_RETURN, &c));
    CHECK_MPI(MPI_Group_free(&g));
    return c;
}

/* Receive the n messages the left neighbour buffered on c. */
static void drain_from_left(MPI_Comm c, int n)
{
    static char in[MSG];
    for (int m = 0; m < n; m++) {
        CHECK_MPI(MPI_Recv(in, MSG, MPI_CHAR, left, m, c,
                           MPI_STATUS_IGNORE));
        CHECK(in[0] == (char)('a' + m) && in[MSG - 1] == (char)('a' + m),
              "message %d holds %c", m, in[0]);
    }
}

int main(void)
{
    static char out[4 * MSG], sbuf[MSG + MPI_BSEND_OVERHEAD],
        cbuf[4 * (MSG + MPI_BSEND_OVERHEAD)];
    MPI_Session s, other;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &other));
    MPI_Comm c = session_comm(s, "session_buffer_ext.s");
    MPI_Comm oc = session_comm(other, "session_buffer_ext.other");
    CHECK_MPI(MPI_Comm_rank(c, &rank));
    CHECK_MPI(MPI_Comm_size(c, &size));
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    memset(out, 'a', sizeof out);

    /* no buffer anywhere: refused */
    CHECK_CLASS(MPI_Bsend(out, MSG, MPI_CHAR, right, 0, c), MPI_ERR_BUFFER);

    /* the session's buffer, room for one message */
    CHECK_MPI(MPI_Session_attach_buffer(s, sbuf, sizeof sbuf));
    CHECK_CLASS(MPI_Session_attach_buffer(s, sbuf, sizeof sbuf),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Bsend(out, MSG + 1, MPI_CHAR, right, 0, c),
                MPI_ERR_BUFFER); /* does not fit */
    CHECK_CLASS(MPI_Bsend(out, MSG, MPI_CHAR, right, 0, oc),
                MPI_ERR_BUFFER); /* the other session has none */
    CHECK_MPI(MPI_Bsend(out, MSG, MPI_CHAR, right, 0, c));
    CHECK_MPI(MPI_Session_flush_buffer(s)); /* delivered: room again */
    memset(out, 'b', sizeof out);
    CHECK_MPI(MPI_Bsend(out, MSG, MPI_CHAR, right, 1, c));
    MPI_Request flush;
    CHECK_MPI(MPI_Session_iflush_buffer(s, &flush));
    CHECK_MPI(MPI_Wait(&flush, MPI_STATUS_IGNORE));
    CHECK(flush == MPI_REQUEST_NULL, "the flush request was not freed");

    /* the communicator's own buffer comes first: four messages fit */
    CHECK_MPI(MPI_Comm_attach_buffer(c, cbuf, sizeof cbuf));
    for (int m = 2; m < 6; m++) {
        memset(out, 'a' + m, MSG);
        CHECK_MPI(MPI_Bsend(out, MSG, MPI_CHAR, right, m, c));
    }
    void *addr;
    int bytes;
    CHECK_MPI(MPI_Comm_detach_buffer(c, &addr, &bytes));
    CHECK(addr == cbuf && bytes == (int)sizeof cbuf, "comm detach");
    drain_from_left(c, 6);

    /* detached: buffered sends on c are refused again */
    CHECK_MPI(MPI_Session_detach_buffer(s, &addr, &bytes));
    CHECK(addr == sbuf && bytes == (int)sizeof sbuf,
          "session detach gave %p %d", addr, bytes);
    CHECK_CLASS(MPI_Bsend(out, MSG, MPI_CHAR, right, 0, c), MPI_ERR_BUFFER);
    CHECK_MPI(MPI_Session_detach_buffer(s, &addr, &bytes));
    CHECK(addr == NULL && bytes == 0, "a second detach gave %p %d", addr,
          bytes);

    /* MPI_BUFFER_AUTOMATIC for the session */
    CHECK_MPI(MPI_Session_attach_buffer(s, MPI_BUFFER_AUTOMATIC, 0));
    for (int m = 0; m < 4; m++) {
        memset(out, 'a' + m, MSG);
        CHECK_MPI(MPI_Bsend(out, MSG, MPI_CHAR, right, m, c));
    }
    drain_from_left(c, 4);
    CHECK_MPI(MPI_Session_detach_buffer(s, &addr, &bytes));
    CHECK(addr == MPI_BUFFER_AUTOMATIC, "automatic detach gave %p", addr);

    /* the large-count forms attach and detach the same buffer */
    CHECK_MPI(MPI_Session_attach_buffer_c(s, sbuf, (MPI_Count)sizeof sbuf));
    CHECK_CLASS(MPI_Session_attach_buffer_c(s, sbuf, 1), MPI_ERR_BUFFER);
    MPI_Count big;
    CHECK_MPI(MPI_Session_detach_buffer_c(s, &addr, &big));
    CHECK(addr == sbuf && big == (MPI_Count)sizeof sbuf,
          "session detach_c gave %p %lld", addr, (long long)big);
    CHECK_CLASS(MPI_Session_attach_buffer_c(s, sbuf, -1), MPI_ERR_ARG);

    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Comm_free(&oc));
    CHECK_MPI(MPI_Session_finalize(&other));
    CHECK_MPI(MPI_Session_finalize(&s));
    return 0;
}
