/* abi_tool_event: the events and the source of the tool interface through the standard ABI: an event's datatypes, binding, verbosity and info as the ABI's, the source's order; callbacks on shmpi_comm_created given the registration, the ABI's safety level and their user data, the event's data (MPI_T_event_read and _copy agree), source 0 and timestamps that never go back; a replaced callback, the dropped handler in a raise and at the free (with and without a callback of the registration's), the free callback, ABI codes for wrong levels and freed handles, and registrations left to MPI_T_finalize. */
/* shmpi-test: np=1,2 timeout=60 ext abi */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Built against include/abi/mpi.h: MPI_T_CB_REQUIRE_MPI_RESTRICTED is
 * 0x03, MPI_T_SOURCE_UNORDERED 2, MPI_T_BIND_NO_OBJECT 1, MPI_UNSIGNED
 * 0x20d, MPI_T_ERR_INVALID 1006; shmpi's own values (1, 1, 0, its
 * pointers, 79) fail the checks.
 */
#include "check.h"

#define DUPS 3

static int world;  /* MPI_COMM_WORLD's size: what a callback may not ask */

/* What a callback saw. */
struct seen {
    MPI_T_event_registration reg;   /* the one it must be given */
    int calls, bad;
    MPI_T_cb_safety safety;
    unsigned context[DUPS];
    MPI_Count stamp[DUPS];
};

static void on_made(MPI_T_event_instance e, MPI_T_event_registration r,
                    MPI_T_cb_safety safety, void *user)
{
    struct seen *s = user;
    int n = s->calls++, source = -1, size;
    unsigned context;
    MPI_Count stamp;
    struct {            /* shmpi_comm_created's data: context, size */
        unsigned context;
        int size;
    } copy;
    T_RC(MPI_T_event_read(e, 0, &context), MPI_SUCCESS);
    T_RC(MPI_T_event_read(e, 1, &size), MPI_SUCCESS);
    T_RC(MPI_T_event_read(e, 2, &size), MPI_T_ERR_INVALID_INDEX);
    T_RC(MPI_T_event_copy(e, &copy), MPI_SUCCESS);
    T_RC(MPI_T_event_get_timestamp(e, &stamp), MPI_SUCCESS);
    T_RC(MPI_T_event_get_source(e, &source), MPI_SUCCESS);
    if (r != s->reg || source != 0 || copy.context != context ||
        copy.size != size || size != world ||
        (n > 0 && n <= DUPS && stamp < s->stamp[n - 1]))
        s->bad++;
    s->safety = safety;
    if (n < DUPS) {
        s->context[n] = context;
        s->stamp[n] = stamp;
    }
}

static void never(MPI_T_event_instance e, MPI_T_event_registration r,
                  MPI_T_cb_safety safety, void *user)
{
    ((struct seen *)user)->bad++;
    (void)e, (void)r, (void)safety;
}

/* What a dropped handler or a free callback heard. */
struct heard {
    MPI_T_event_registration reg;
    int calls;
    MPI_Count count;
    int source;
    MPI_T_cb_safety safety;
    void *user;
};
static struct heard dropped, freed;

static void on_dropped(MPI_Count count, MPI_T_event_registration r,
                       int source, MPI_T_cb_safety safety, void *user)
{
    dropped = (struct heard){r, dropped.calls + 1, count, source, safety,
                             user};
}

static void on_free(MPI_T_event_registration r, MPI_T_cb_safety safety,
                    void *user)
{
    freed = (struct heard){r, freed.calls + 1, 0, 0, safety, user};
}

static int index_of(const char *name)
{
    int i = -1;
    T_RC(MPI_T_event_get_index(name, &i), MPI_SUCCESS);
    return i;
}

static void listing(void)
{
    MPI_Datatype dt[4];
    MPI_Aint disp[4];
    int ne = 4, verbosity = 0, bind = 0, nkeys = -1;
    MPI_T_enum en;
    MPI_Info info = MPI_INFO_NULL;
    T_RC(MPI_T_event_get_info(index_of("shmpi_unexpected_message"), NULL,
                              NULL, &verbosity, dt, disp, &ne, &en, &info,
                              NULL, NULL, &bind),
         MPI_SUCCESS);
    CHECK(ne == 4 && dt[0] == MPI_UNSIGNED_LONG_LONG && dt[1] == MPI_INT &&
              dt[2] == MPI_INT && dt[3] == MPI_UNSIGNED && disp[3] == 16,
          "unexpected message's elements");
    CHECK(verbosity == MPI_T_VERBOSITY_USER_BASIC &&
              bind == MPI_T_BIND_NO_OBJECT && en == MPI_T_ENUM_NULL,
          "verbosity %#x, binding %d", verbosity, bind);
    CHECK(info != MPI_INFO_NULL, "no info");
    CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys));
    CHECK_MPI(MPI_Info_free(&info));
    ne = 1; /* a short array: one entry given, the one after it left */
    dt[1] = MPI_BYTE;
    T_RC(MPI_T_event_get_info(index_of("shmpi_comm_created"), NULL, NULL,
                              NULL, dt, disp, &ne, NULL, NULL, NULL, NULL,
                              NULL),
         MPI_SUCCESS);
    CHECK(ne == 2 && dt[0] == MPI_UNSIGNED && dt[1] == MPI_BYTE,
          "a short array of datatypes");
    int n;
    T_RC(MPI_T_event_get_num(&n), MPI_SUCCESS);
    T_RC(MPI_T_event_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                              NULL, NULL, NULL, NULL),
         MPI_T_ERR_INVALID_INDEX);
    T_RC(MPI_T_event_get_index("no_such_event", &n), MPI_T_ERR_INVALID_NAME);

    MPI_T_source_order order = 0;
    MPI_Count tps = 0, t0, t1;
    T_RC(MPI_T_source_get_num(&n), MPI_SUCCESS);
    CHECK(n == 1, "%d sources", n);
    T_RC(MPI_T_source_get_info(0, NULL, NULL, NULL, NULL, &order, &tps,
                               NULL, &info),
         MPI_SUCCESS);
    CHECK(order == MPI_T_SOURCE_UNORDERED && tps == 1000000000 &&
              info != MPI_INFO_NULL,
          "source: order %d, %lld ticks/s", (int)order, (long long)tps);
    CHECK_MPI(MPI_Info_free(&info));
    T_RC(MPI_T_source_get_info(1, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                               NULL),
         MPI_T_ERR_INVALID_INDEX);
    T_RC(MPI_T_source_get_timestamp(0, &t0), MPI_SUCCESS);
    T_RC(MPI_T_source_get_timestamp(0, &t1), MPI_SUCCESS);
    CHECK(t1 >= t0, "timestamps go back: %lld, %lld", (long long)t0,
          (long long)t1);
}

static void dups(int k)
{
    MPI_Comm c[DUPS];
    for (int i = 0; i < k; i++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c[i]));
    for (int i = 0; i < k; i++)
        CHECK_MPI(MPI_Comm_free(&c[i]));
}

static MPI_T_event_registration alloc_made(void)
{
    MPI_T_event_registration r;
    T_RC(MPI_T_event_handle_alloc(index_of("shmpi_comm_created"), NULL,
                                  MPI_INFO_NULL, &r),
         MPI_SUCCESS);
    return r;
}

/* A callback at a level, registered. */
static void on(MPI_T_event_registration r, MPI_T_cb_safety level, void *user,
               MPI_T_event_cb_function *fn)
{
    T_RC(MPI_T_event_register_callback(r, level, MPI_INFO_NULL, user, fn),
         MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    int provided;
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    listing();
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &world);

    /* the callback of the least restrictive level at or above
       MPI_RESTRICTED runs, told MPI_RESTRICTED; the one at NONE not */
    static struct seen made, other, wrong;
    MPI_T_event_registration rm = alloc_made();
    made.reg = other.reg = rm;
    on(rm, MPI_T_CB_REQUIRE_NONE, &wrong, never);
    on(rm, MPI_T_CB_REQUIRE_THREAD_SAFE, &other, never);
    /* replaced at its level */
    on(rm, MPI_T_CB_REQUIRE_THREAD_SAFE, &made, on_made);
    T_RC(MPI_T_event_register_callback(rm, (MPI_T_cb_safety)1, MPI_INFO_NULL,
                                       &wrong, never),
         MPI_T_ERR_INVALID);
    MPI_Info info;
    T_RC(MPI_T_event_callback_get_info(rm, MPI_T_CB_REQUIRE_THREAD_SAFE,
                                       &info),
         MPI_SUCCESS);
    T_RC(MPI_T_event_callback_set_info(rm, MPI_T_CB_REQUIRE_THREAD_SAFE,
                                       info),
         MPI_SUCCESS);
    CHECK_MPI(MPI_Info_free(&info));
    T_RC(MPI_T_event_callback_get_info(rm, MPI_T_CB_REQUIRE_MPI_RESTRICTED,
                                       &info),
         MPI_T_ERR_INVALID);
    T_RC(MPI_T_event_handle_get_info(rm, &info), MPI_SUCCESS);
    T_RC(MPI_T_event_handle_set_info(rm, info), MPI_SUCCESS);
    CHECK_MPI(MPI_Info_free(&info));

    /* dropped, told at the free: with a callback at NONE (its user data
       given), and with none */
    static struct seen at_none, late;
    static int mine;
    MPI_T_event_registration rd = alloc_made(), rn = alloc_made(),
                             rr = alloc_made();
    on(rd, MPI_T_CB_REQUIRE_NONE, &at_none, never);
    T_RC(MPI_T_event_set_dropped_handler(rd, on_dropped), MPI_SUCCESS);
    T_RC(MPI_T_event_set_dropped_handler(rn, on_dropped), MPI_SUCCESS);
    /* and in a raise, before the callback that then comes at a level */
    on(rr, MPI_T_CB_REQUIRE_NONE, &at_none, never);
    T_RC(MPI_T_event_set_dropped_handler(rr, on_dropped), MPI_SUCCESS);

    MPI_Count before, after;
    T_RC(MPI_T_source_get_timestamp(0, &before), MPI_SUCCESS);
    dups(DUPS);
    T_RC(MPI_T_source_get_timestamp(0, &after), MPI_SUCCESS);
    CHECK(made.calls == DUPS && made.bad == 0 && other.bad == 0 &&
              wrong.bad == 0 && at_none.bad == 0,
          "%d callbacks, %d wrong", made.calls,
          made.bad + other.bad + wrong.bad + at_none.bad);
    CHECK(made.safety == MPI_T_CB_REQUIRE_MPI_RESTRICTED,
          "safety level %#x", (unsigned)made.safety);
    CHECK(made.stamp[0] >= before && made.stamp[DUPS - 1] <= after &&
              made.context[0] != made.context[1],
          "timestamps or contexts");
    CHECK(dropped.calls == 0, "a dropped handler before its time");

    late.reg = rr;
    on(rr, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE, &late, on_made);
    dups(1);
    CHECK(dropped.calls == 1 && dropped.reg == rr &&
              dropped.count == DUPS && dropped.source == 0 &&
              dropped.safety == MPI_T_CB_REQUIRE_MPI_RESTRICTED &&
              dropped.user == &late && late.calls == 1 && late.bad == 0,
          "dropped in a raise: %d calls, count %lld, safety %#x",
          dropped.calls, (long long)dropped.count, (unsigned)dropped.safety);

    T_RC(MPI_T_event_handle_free(rd, &mine, on_free), MPI_SUCCESS);
    CHECK(dropped.calls == 2 && dropped.reg == rd &&
              dropped.count == DUPS + 1 &&
              dropped.safety == MPI_T_CB_REQUIRE_NONE &&
              dropped.user == &at_none,
          "dropped at the free: %d calls, count %lld", dropped.calls,
          (long long)dropped.count);
    CHECK(freed.calls == 1 && freed.reg == rd && freed.user == &mine &&
              freed.safety == MPI_T_CB_REQUIRE_NONE,
          "free callback: %d calls", freed.calls);
    T_RC(MPI_T_event_handle_free(rn, NULL, NULL), MPI_SUCCESS);
    CHECK(dropped.calls == 3 && dropped.reg == rn &&
              dropped.count == DUPS + 1 && dropped.user == NULL &&
              freed.calls == 1,
          "dropped of a registration without callbacks: %d calls, count "
          "%lld", dropped.calls, (long long)dropped.count);
    T_RC(MPI_T_event_handle_free(rd, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    T_RC(MPI_T_event_register_callback(rd, MPI_T_CB_REQUIRE_NONE,
                                       MPI_INFO_NULL, NULL, never),
         MPI_T_ERR_INVALID_HANDLE);
    T_RC(MPI_T_event_set_dropped_handler(rd, on_dropped),
         MPI_T_ERR_INVALID_HANDLE);

    /* removed at its level: no more callbacks */
    on(rm, MPI_T_CB_REQUIRE_THREAD_SAFE, NULL, NULL);
    on(rr, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE, NULL, NULL);
    dups(1);
    CHECK(made.calls == DUPS + 1 && late.calls == 1,
          "a removed callback ran");

    /* rm and rr left registered: MPI_T_finalize drops them; then a new
       registration is a new one */
    MPI_Finalize();
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    T_RC(MPI_T_event_handle_free(rm, NULL, NULL),
         MPI_T_ERR_NOT_INITIALIZED);
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    MPI_T_event_registration again = alloc_made();
    T_RC(MPI_T_event_set_dropped_handler(again, on_dropped), MPI_SUCCESS);
    T_RC(MPI_T_event_handle_free(again, &mine, on_free), MPI_SUCCESS);
    CHECK(freed.calls == 2 && freed.reg == again && dropped.calls == 3,
          "after MPI_T_finalize: %d free callbacks", freed.calls);
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    return 0;
}
