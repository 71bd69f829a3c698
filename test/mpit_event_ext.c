/* mpit_event_ext: MPI-4.0 events - before MPI_Init the three events and the one source are listed with their elements, datatypes and displacements (index errors exact), each event in one category (MPI_T_category_get_num_events/_get_events); after it a callback on shmpi_comm_created / shmpi_comm_freed is called once per MPI_Comm_dup / MPI_Comm_free with the communicator's context and size (MPI_T_event_read and MPI_T_event_copy agree), the safety level MPI_T_CB_REQUIRE_MPI_RESTRICTED, the callback of the least restrictive level that suffices, source 0 and a timestamp between the source's before and after; rank 1's shmpi_unexpected_message callback sees rank 0's early messages in order with their tag and size; a registration with only an MPI_T_CB_REQUIRE_NONE callback drops its events and its dropped handler hears the count at MPI_T_event_handle_free, whose free callback gets its user data; after the free no callback runs. */
/* shmpi-test: np=2 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "check.h"

#define K 6
#define B 40

struct seen {
    int calls, wrong_level;
    MPI_T_cb_safety safety;
    unsigned context[8];
    int size[8];
    MPI_Count stamp[8];
    int source;
};

static void on_comm(MPI_T_event_instance e, MPI_T_event_registration r,
                    MPI_T_cb_safety safety, void *user)
{
    struct seen *s = user;
    struct {
        unsigned context;
        int size;
    } copy;
    int n = s->calls++;
    if (n >= 8)
        return;
    s->safety = safety;
    T_RC(MPI_T_event_read(e, 0, &s->context[n]), MPI_SUCCESS);
    T_RC(MPI_T_event_read(e, 1, &s->size[n]), MPI_SUCCESS);
    T_RC(MPI_T_event_read(e, 2, &copy), MPI_T_ERR_INVALID_INDEX);
    T_RC(MPI_T_event_copy(e, &copy), MPI_SUCCESS);
    CHECK(copy.context == s->context[n] && copy.size == s->size[n],
          "copy %u/%d, read %u/%d", copy.context, copy.size, s->context[n],
          s->size[n]);
    T_RC(MPI_T_event_get_timestamp(e, &s->stamp[n]), MPI_SUCCESS);
    T_RC(MPI_T_event_get_source(e, &s->source), MPI_SUCCESS);
    (void)r;
}

static void wrong(MPI_T_event_instance e, MPI_T_event_registration r,
                  MPI_T_cb_safety safety, void *user)
{
    ((struct seen *)user)->wrong_level++;
    (void)e, (void)r, (void)safety;
}

struct early {
    int calls, bad;
};

static void on_unexpected(MPI_T_event_instance e, MPI_T_event_registration r,
                          MPI_T_cb_safety safety, void *user)
{
    struct early *s = user;
    unsigned long long bytes;
    int source, tag;
    T_RC(MPI_T_event_read(e, 0, &bytes), MPI_SUCCESS);
    T_RC(MPI_T_event_read(e, 1, &source), MPI_SUCCESS);
    T_RC(MPI_T_event_read(e, 2, &tag), MPI_SUCCESS);
    if (tag >= 100) { /* ours: the library's own messages do not count */
        if (bytes != B || source != 0 || tag != 100 + s->calls)
            s->bad++;
        s->calls++;
    }
    (void)r, (void)safety;
}

static int dropped_calls;
static MPI_Count dropped_count;
static void on_dropped(MPI_Count count, MPI_T_event_registration r,
                       int source, MPI_T_cb_safety safety, void *user)
{
    dropped_calls++;
    dropped_count = count;
    (void)r, (void)source, (void)safety, (void)user;
}

static void *freed_with;
static void on_free(MPI_T_event_registration r, MPI_T_cb_safety safety,
                    void *user)
{
    freed_with = user;
    (void)r, (void)safety;
}

static int index_of(const char *name)
{
    int i = -1;
    T_RC(MPI_T_event_get_index(name, &i), MPI_SUCCESS);
    return i;
}

static void listing(void)
{
    int n, ns;
    T_RC(MPI_T_event_get_num(&n), MPI_SUCCESS);
    CHECK(n == 3, "%d events", n);
    for (int i = 0; i < n; i++) {
        char name[64];
        int len = sizeof name, ne = 0, bind;
        T_RC(MPI_T_event_get_info(i, name, &len, NULL, NULL, NULL, &ne, NULL,
                                  NULL, NULL, NULL, &bind),
             MPI_SUCCESS);
        CHECK(index_of(name) == i && bind == MPI_T_BIND_NO_OBJECT &&
                  ne >= 2 && ne <= 4,
              "event %d: %s, %d elements", i, name, ne);
    }
    MPI_Datatype dt[4];
    MPI_Aint disp[4];
    int ne = 4;
    MPI_Info info;
    T_RC(MPI_T_event_get_info(index_of("shmpi_unexpected_message"), NULL,
                              NULL, NULL, dt, disp, &ne, NULL, &info, NULL,
                              NULL, NULL),
         MPI_SUCCESS);
    CHECK(ne == 4 && dt[0] == MPI_UNSIGNED_LONG_LONG && dt[1] == MPI_INT &&
              dt[2] == MPI_INT && dt[3] == MPI_UNSIGNED && disp[0] == 0 &&
              disp[1] == 8 && disp[2] == 12 && disp[3] == 16,
          "unexpected message's elements");
    CHECK_MPI(MPI_Info_free(&info));
    ne = 1; /* a short array: one stored, the count told */
    T_RC(MPI_T_event_get_info(index_of("shmpi_comm_created"), NULL, NULL,
                              NULL, dt, disp, &ne, NULL, NULL, NULL, NULL,
                              NULL),
         MPI_SUCCESS);
    CHECK(ne == 2 && dt[0] == MPI_UNSIGNED && disp[0] == 0, "comm elements");
    T_RC(MPI_T_event_get_info(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                              NULL, NULL, NULL, NULL),
         MPI_T_ERR_INVALID_INDEX);
    int i;
    T_RC(MPI_T_event_get_index("no_such_event", &i), MPI_T_ERR_INVALID_NAME);

    T_RC(MPI_T_source_get_num(&ns), MPI_SUCCESS);
    CHECK(ns == 1, "%d sources", ns);
    MPI_T_source_order order;
    MPI_Count tps, max, t0, t1;
    char name[64];
    int len = sizeof name;
    T_RC(MPI_T_source_get_info(0, name, &len, NULL, NULL, &order, &tps, &max,
                               NULL),
         MPI_SUCCESS);
    CHECK(tps == 1000000000 && max > 0 && strcmp(name, "shmpi_clock") == 0,
          "source: %s, %lld ticks/s", name, tps);
    T_RC(MPI_T_source_get_info(1, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                               NULL),
         MPI_T_ERR_INVALID_INDEX);
    T_RC(MPI_T_source_get_timestamp(0, &t0), MPI_SUCCESS);
    T_RC(MPI_T_source_get_timestamp(0, &t1), MPI_SUCCESS);
    CHECK(t1 >= t0, "timestamps go back: %lld, %lld", t0, t1);

    /* every event in exactly one category: unexpected in shmpi_pt2pt,
       the communicator ones in shmpi_comm */
    int ncat, in[3] = {0, 0, 0}, pt2pt, comm, idx[3];
    T_RC(MPI_T_category_get_num(&ncat), MPI_SUCCESS);
    T_RC(MPI_T_category_get_index("shmpi_pt2pt", &pt2pt), MPI_SUCCESS);
    T_RC(MPI_T_category_get_index("shmpi_comm", &comm), MPI_SUCCESS);
    for (int c = 0; c < ncat; c++) {
        int ne = -1;
        T_RC(MPI_T_category_get_num_events(c, &ne), MPI_SUCCESS);
        CHECK(ne >= 0 && ne <= 3, "category %d: %d events", c, ne);
        T_RC(MPI_T_category_get_events(c, 3, idx), MPI_SUCCESS);
        for (int k = 0; k < ne; k++) {
            in[idx[k]]++;
            CHECK(c == (idx[k] == index_of("shmpi_unexpected_message")
                            ? pt2pt
                            : comm),
                  "event %d in category %d", idx[k], c);
        }
    }
    CHECK(in[0] == 1 && in[1] == 1 && in[2] == 1, "events in %d, %d, %d "
          "categories", in[0], in[1], in[2]);
    T_RC(MPI_T_category_get_num_events(ncat, &i), MPI_T_ERR_INVALID_INDEX);
    T_RC(MPI_T_category_get_events(0, 1, NULL), MPI_T_ERR_INVALID);
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    listing();
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* communicators: a callback at THREAD_SAFE runs (the least restrictive
       one at or above MPI_RESTRICTED), not the one at NONE */
    static struct seen made, freed;
    MPI_T_event_registration rm, rf, rdrop, ru;
    T_RC(MPI_T_event_handle_alloc(index_of("shmpi_comm_created"), NULL,
                                  MPI_INFO_NULL, &rm),
         MPI_SUCCESS);
    T_RC(MPI_T_event_register_callback(rm, MPI_T_CB_REQUIRE_NONE,
                                       MPI_INFO_NULL, &made, wrong),
         MPI_SUCCESS);
    T_RC(MPI_T_event_register_callback(rm, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE,
                                       MPI_INFO_NULL, &made, wrong),
         MPI_SUCCESS);
    T_RC(MPI_T_event_register_callback(rm, MPI_T_CB_REQUIRE_THREAD_SAFE,
                                       MPI_INFO_NULL, &made, on_comm),
         MPI_SUCCESS);
    T_RC(MPI_T_event_handle_alloc(index_of("shmpi_comm_freed"), NULL,
                                  MPI_INFO_NULL, &rf),
         MPI_SUCCESS);
    T_RC(MPI_T_event_register_callback(rf, MPI_T_CB_REQUIRE_MPI_RESTRICTED,
                                       MPI_INFO_NULL, &freed, on_comm),
         MPI_SUCCESS);
    /* only NONE: every event dropped */
    T_RC(MPI_T_event_handle_alloc(index_of("shmpi_comm_created"), NULL,
                                  MPI_INFO_NULL, &rdrop),
         MPI_SUCCESS);
    T_RC(MPI_T_event_register_callback(rdrop, MPI_T_CB_REQUIRE_NONE,
                                       MPI_INFO_NULL, &made, wrong),
         MPI_SUCCESS);
    T_RC(MPI_T_event_set_dropped_handler(rdrop, on_dropped), MPI_SUCCESS);
    MPI_Info info;
    T_RC(MPI_T_event_handle_get_info(rm, &info), MPI_SUCCESS);
    CHECK_MPI(MPI_Info_free(&info));
    T_RC(MPI_T_event_callback_get_info(rm, MPI_T_CB_REQUIRE_THREAD_SAFE,
                                       &info),
         MPI_SUCCESS);
    CHECK_MPI(MPI_Info_free(&info));
    T_RC(MPI_T_event_callback_get_info(rf, MPI_T_CB_REQUIRE_NONE, &info),
         MPI_T_ERR_INVALID);
    T_RC(MPI_T_event_register_callback(rm, (MPI_T_cb_safety)7, MPI_INFO_NULL,
                                       NULL, on_comm),
         MPI_T_ERR_INVALID);

    MPI_Comm c[3];
    MPI_Count before, after;
    T_RC(MPI_T_source_get_timestamp(0, &before), MPI_SUCCESS);
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c[i]));
    T_RC(MPI_T_source_get_timestamp(0, &after), MPI_SUCCESS);
    CHECK(made.calls == 3 && made.wrong_level == 0,
          "%d creation callbacks, %d at a wrong level", made.calls,
          made.wrong_level);
    CHECK(made.safety == MPI_T_CB_REQUIRE_MPI_RESTRICTED && made.source == 0,
          "safety %d, source %d", (int)made.safety, made.source);
    for (int i = 0; i < 3; i++) {
        CHECK(made.size[i] == size && made.stamp[i] >= before &&
                  made.stamp[i] <= after &&
                  (i == 0 || made.context[i] != made.context[i - 1]),
              "creation %d: context %u size %d", i, made.context[i],
              made.size[i]);
    }
    for (int i = 2; i >= 0; i--)
        CHECK_MPI(MPI_Comm_free(&c[i]));
    CHECK(freed.calls == 3 && freed.context[0] == made.context[2] &&
              freed.context[2] == made.context[0],
          "%d free callbacks", freed.calls);

    /* the dropped ones are told at the free, then the free callback */
    static int mine;
    T_RC(MPI_T_event_handle_free(rdrop, &mine, on_free), MPI_SUCCESS);
    CHECK(dropped_calls == 1 && dropped_count == 3 && freed_with == &mine,
          "dropped handler %d calls, count %lld", dropped_calls,
          (long long)dropped_count);
    T_RC(MPI_T_event_handle_free(rm, NULL, NULL), MPI_SUCCESS);
    T_RC(MPI_T_event_handle_free(rm, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c[0]));
    CHECK(made.calls == 3, "a callback after its registration's free");
    CHECK_MPI(MPI_Comm_free(&c[0]));
    T_RC(MPI_T_event_handle_free(rf, NULL, NULL), MPI_SUCCESS);

    /* early messages */
    static struct early early;
    T_RC(MPI_T_event_handle_alloc(index_of("shmpi_unexpected_message"), NULL,
                                  MPI_INFO_NULL, &ru),
         MPI_SUCCESS);
    T_RC(MPI_T_event_register_callback(ru, MPI_T_CB_REQUIRE_MPI_RESTRICTED,
                                       MPI_INFO_NULL, &early, on_unexpected),
         MPI_SUCCESS);
    char buf[B] = {0};
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        for (int t = 0; t < K; t++)
            CHECK_MPI(MPI_Send(buf, B, MPI_BYTE, 1, 100 + t, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Probe(0, 100 + K - 1, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE));
        CHECK(early.calls == K && early.bad == 0,
              "%d early-message callbacks, %d wrong", early.calls,
              early.bad);
        for (int t = 0; t < K; t++)
            CHECK_MPI(MPI_Recv(buf, B, MPI_BYTE, 0, 100 + t, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
    }
    T_RC(MPI_T_event_handle_free(ru, NULL, NULL), MPI_SUCCESS);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Finalize();
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    return 0;
}
