// cxx_api: a C++ program calls the C bindings through mpicxx: handles and constants as C++ expressions, pt2pt, collectives, topologies, errors, sync counters.
/* shmpi-test: np=1,2,4 timeout=30 ext */
// SPDX-License-Identifier: BSD-3-Clause
//
// run-tests builds it with mpicxx -std=c++11 -Wall -Wextra -pedantic
// -Werror: mpi.h must declare nothing C++ rejects or warns about, and its
// constants (MPI_COMM_WORLD, MPI_INT, MPI_STATUS_IGNORE, MPI_IN_PLACE,
// MPI_BOTTOM, MPI_UNWEIGHTED, MPI_ERRCODES_IGNORE, ...) must be C++
// expressions of the right types.  ext: it uses the sync counters.
#include "check.h"

#include <vector>

namespace {

// Predefined handles are link-time constants: usable in static
// initializers (MPI-3.1 2.5.4), in C++ too.
const MPI_Datatype kTypes[] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
const MPI_Comm kWorld = MPI_COMM_WORLD;

// A user-defined operation written in C++: elementwise max of ints.
void int_max(void *in, void *inout, int *len, MPI_Datatype *type)
{
    CHECK(*type == MPI_INT, "the op got another datatype");
    const int *a = static_cast<const int *>(in);
    int *b = static_cast<int *>(inout);
    for (int i = 0; i < *len; i++)
        b[i] = a[i] > b[i] ? a[i] : b[i];
}

void constants()
{
    // The null and ignore constants are null pointers of their types,
    // comparable and assignable in C++ without casts.
    MPI_Status *st = MPI_STATUS_IGNORE;
    MPI_Status *sts = MPI_STATUSES_IGNORE;
    int *codes = MPI_ERRCODES_IGNORE;
    char **argv = MPI_ARGV_NULL;
    CHECK(st == nullptr && sts == nullptr && codes == nullptr &&
          argv == nullptr, "an IGNORE/NULL constant is not a null pointer");
    const void *bottom = MPI_BOTTOM, *in_place = MPI_IN_PLACE;
    CHECK(in_place != bottom, "MPI_IN_PLACE equals MPI_BOTTOM");
    const int *unweighted = MPI_UNWEIGHTED, *empty = MPI_WEIGHTS_EMPTY;
    CHECK(unweighted != nullptr && unweighted != empty,
          "MPI_UNWEIGHTED is not a distinct non-null pointer");
    CHECK(kWorld == MPI_COMM_WORLD && kWorld != MPI_COMM_SELF &&
          kWorld != MPI_COMM_NULL, "MPI_COMM_WORLD is not itself");
    CHECK(kTypes[0] == MPI_INT && kTypes[1] != MPI_INT &&
          kTypes[2] != MPI_DATATYPE_NULL, "predefined datatypes differ");
    int size = 0;
    for (MPI_Datatype t : kTypes) {
        CHECK_MPI(MPI_Type_size(t, &size));
        CHECK(size > 0, "a predefined datatype has size %d", size);
    }
}

void pt2pt(int rank, int np)
{
    int right = (rank + 1) % np, left = (rank + np - 1) % np;
    std::vector<int> out(16), in(16, -1);
    for (int i = 0; i < 16; i++)
        out[i] = rank * 100 + i;
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(out.data(), 16, MPI_INT, right, 7, in.data(), 16,
                           MPI_INT, left, 7, MPI_COMM_WORLD, &st));
    int count = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 16 && st.MPI_SOURCE == left && st.MPI_TAG == 7,
          "status: count %d source %d tag %d", count, st.MPI_SOURCE,
          st.MPI_TAG);
    for (int i = 0; i < 16; i++)
        CHECK(in[i] == left * 100 + i, "in[%d] = %d", i, in[i]);

    // MPI_BOTTOM with absolute addresses: a struct type of two vectors.
    std::vector<int> a(4, rank), b(4, -rank);
    MPI_Aint disp[2];
    CHECK_MPI(MPI_Get_address(a.data(), &disp[0]));
    CHECK_MPI(MPI_Get_address(b.data(), &disp[1]));
    int lens[2] = {4, 4};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT}, both;
    CHECK_MPI(MPI_Type_create_struct(2, lens, disp, types, &both));
    CHECK_MPI(MPI_Type_commit(&both));
    std::vector<int> got(8, 12345);
    MPI_Request rq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    CHECK_MPI(MPI_Irecv(got.data(), 8, MPI_INT, left, 8, MPI_COMM_WORLD,
                        &rq[0]));
    CHECK_MPI(MPI_Isend(MPI_BOTTOM, 1, both, right, 8, MPI_COMM_WORLD,
                        &rq[1]));
    CHECK_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    CHECK(rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL,
          "completed requests are not MPI_REQUEST_NULL");
    for (int i = 0; i < 4; i++)
        CHECK(got[i] == left && got[4 + i] == -left,
              "MPI_BOTTOM message: got[%d] = %d, got[%d] = %d", i, got[i],
              4 + i, got[4 + i]);
    CHECK_MPI(MPI_Type_free(&both));
    CHECK(both == MPI_DATATYPE_NULL, "a freed type is not null");
}

void collectives(int rank, int np)
{
    int v[2] = {rank, 1};
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_SUM,
                            MPI_COMM_WORLD));
    CHECK(v[0] == np * (np - 1) / 2 && v[1] == np,
          "MPI_IN_PLACE allreduce: %d %d", v[0], v[1]);

    MPI_Op op;
    CHECK_MPI(MPI_Op_create(int_max, 1, &op));
    int m = rank * 3, top = -1;
    CHECK_MPI(MPI_Allreduce(&m, &top, 1, MPI_INT, op, MPI_COMM_WORLD));
    CHECK(top == (np - 1) * 3, "user op max: %d", top);
    CHECK_MPI(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL, "a freed op is not MPI_OP_NULL");

    MPI_Comm half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half));
    int hrank = -1, hsize = 0;
    CHECK_MPI(MPI_Comm_rank(half, &hrank));
    CHECK_MPI(MPI_Comm_size(half, &hsize));
    CHECK(hrank == hsize - 1 - rank / 2, "split ordered by key: rank %d",
          hrank);
    MPI_Request r;
    CHECK_MPI(MPI_Ibarrier(half, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK(half == MPI_COMM_NULL, "a freed communicator is not null");

    // A ring as a distributed graph without weights; neighbours gather.
    int src = (rank + np - 1) % np, dst = (rank + 1) % np;
    MPI_Comm ring;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(
        MPI_COMM_WORLD, 1, &src, MPI_UNWEIGHTED, 1, &dst, MPI_UNWEIGHTED,
        MPI_INFO_NULL, 0, &ring));
    int from = -1;
    CHECK_MPI(MPI_Neighbor_allgather(&rank, 1, MPI_INT, &from, 1, MPI_INT,
                                     ring));
    CHECK(from == src, "neighbor allgather: %d from %d", from, src);
    CHECK_MPI(MPI_Comm_free(&ring));
}

void errors(int np)
{
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int x = 0;
    CHECK_CLASS(MPI_Send(&x, 1, MPI_INT, np, 0, MPI_COMM_WORLD),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Send(&x, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD),
                MPI_ERR_TYPE);
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK_MPI(MPI_Error_string(MPI_ERR_RANK, text, &len));
    CHECK(len > 0, "MPI_Error_string gave nothing");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

// Each rank puts its rank into its right neighbour's window and signals
// that neighbour's counter; it waits on its own for its left neighbour.
void sync_counters(int rank, int np)
{
    int right = (rank + 1) % np, left = (rank + np - 1) % np;
    int *cell = nullptr;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &cell, &win));
    *cell = -1;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Sync mine = MPI_SYNC_NULL, theirs = MPI_SYNC_NULL;
    CHECK_MPI(MPI_Win_alloc_sync_objects(1, &mine, win, MPI_INFO_NULL));
    CHECK(mine != MPI_SYNC_NULL, "no counter was allocated");
    CHECK(MPI_Sync_counter_f2c(MPI_Sync_counter_c2f(mine)) == mine,
          "the Fortran handle of a counter does not round-trip");
    CHECK_MPI(MPI_Sendrecv(&mine, 1, MPI_HANDLE_SYNC, left, 9, &theirs, 1,
                           MPI_HANDLE_SYNC, right, 9, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    MPI_Request wait_for, put_done;
    CHECK_MPI(MPI_Win_sync_object_init(mine, 1, win, MPI_INFO_NULL,
                                       &wait_for));
    CHECK_MPI(MPI_Win_sync_ops_init(right, MPI_MODE_WIN_PUT, theirs, win,
                                    MPI_INFO_NULL, &put_done));
    for (int step = 0; step < 3; step++) {
        CHECK_MPI(MPI_Start(&wait_for));
        CHECK_MPI(MPI_Start(&put_done));
        int v = rank * 10 + step;
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
        CHECK_MPI(MPI_Wait(&put_done, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&wait_for, MPI_STATUS_IGNORE));
        CHECK(*cell == left * 10 + step, "step %d: the cell holds %d", step,
              *cell);
        // the left neighbour puts again only after this barrier
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Request_free(&wait_for));
    CHECK_MPI(MPI_Request_free(&put_done));
    CHECK_MPI(MPI_Win_free_sync_objects(1, &mine, win));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL, "a freed window is not MPI_WIN_NULL");
}

void alloc_mem()
{
    double *p = nullptr;
    CHECK_MPI(MPI_Alloc_mem(1000 * sizeof(double), MPI_INFO_NULL, &p));
    CHECK(p != nullptr, "MPI_Alloc_mem gave a null pointer");
    for (int i = 0; i < 1000; i++)
        p[i] = i;
    CHECK(p[999] == 999.0, "MPI_Alloc_mem memory does not hold a value");
    CHECK_MPI(MPI_Free_mem(p));
}

} // namespace

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    int rank = -1, np = 0;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &np));
    constants();
    pt2pt(rank, np);
    collectives(rank, np);
    errors(np);
    sync_counters(rank, np);
    alloc_mem();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
