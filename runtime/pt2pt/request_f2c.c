/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * request_f2c.c - the Fortran forms of requests, messages and statuses
 * (MPI-3.1 17.2.4, 17.2.5; MPI-4.0 19.3.5 for the mpi_f08 status).
 *
 * Requests and messages get numbers from core/fint.h's tables:
 * MPI_REQUEST_NULL and MPI_MESSAGE_NULL are 0, MPI_MESSAGE_NO_PROC is 1;
 * a request keeps its number until it is freed (by the MPI_Wait or
 * MPI_Test that completes it, or MPI_Request_free), a message until
 * MPI_Mrecv or MPI_Imrecv consumes it.
 *
 * A status in Fortran is MPI_F_STATUS_SIZE integers, and an mpi_f08
 * status (MPI_F08_status) the same integers under names: MPI_SOURCE,
 * MPI_TAG, MPI_ERROR, then the hidden part of MPI_Status - the cancelled
 * flag and the byte count, as its low and high 32 bits.  Nothing is
 * lost, so a status converted either way answers MPI_Get_count,
 * MPI_Get_elements and MPI_Test_cancelled as the original did.
 */
#include <stdint.h>

#include "core/error.h"
#include "core/fint.h"
#include "core/objects.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"

SHMPI_WEAK_ALIAS(Request_c2f)
SHMPI_WEAK_ALIAS(Request_f2c)
SHMPI_WEAK_ALIAS(Message_c2f)
SHMPI_WEAK_ALIAS(Message_f2c)
SHMPI_WEAK_ALIAS(Status_c2f)
SHMPI_WEAK_ALIAS(Status_f2c)
SHMPI_WEAK_ALIAS(Status_c2f08)
SHMPI_WEAK_ALIAS(Status_f082c)
SHMPI_WEAK_ALIAS(Status_f2f08)
SHMPI_WEAK_ALIAS(Status_f082f)

static struct shmpi_request invalid_request;
static const struct shmpi_fint_kind requests = {
    SHMPI_FINT_REQUEST, 1, (void *const[]){MPI_REQUEST_NULL},
    &invalid_request};

MPI_Fint PMPI_Request_c2f(MPI_Request request)
{
    static const char fn[] = "MPI_Request_c2f";
    SHMPI_REQUIRE_INIT(fn);
    if (request == MPI_REQUEST_NULL)
        return 0;
    if (!shmpi_request_ok(request))
        return shmpi_fint_raise_bad(MPI_ERR_REQUEST, fn,
                                    "request is not a valid request "
                                    "(completed and freed, or never made)");
    return shmpi_fint_of(&requests, request, &request->fint, fn);
}

MPI_Request PMPI_Request_f2c(MPI_Fint request)
{
    SHMPI_REQUIRE_INIT("MPI_Request_f2c");
    return shmpi_fint_object(&requests, request);
}

static struct shmpi_message invalid_message;
static const struct shmpi_fint_kind messages = {
    SHMPI_FINT_MESSAGE, 2,
    (void *const[]){MPI_MESSAGE_NULL, MPI_MESSAGE_NO_PROC},
    &invalid_message};

MPI_Fint PMPI_Message_c2f(MPI_Message message)
{
    static const char fn[] = "MPI_Message_c2f";
    SHMPI_REQUIRE_INIT(fn);
    if (message == MPI_MESSAGE_NULL)
        return 0;
    if (message->magic != SHMPI_MAGIC_MESSAGE)
        return shmpi_fint_raise_bad(MPI_ERR_REQUEST, fn,
                                    "message is not a message from "
                                    "MPI_Mprobe/MPI_Improbe (received "
                                    "already, or never made)");
    return shmpi_fint_of(&messages, message, &message->fint, fn);
}

MPI_Message PMPI_Message_f2c(MPI_Fint message)
{
    SHMPI_REQUIRE_INIT("MPI_Message_f2c");
    return shmpi_fint_object(&messages, message);
}

/* ------------------------------------------------------------------ */
/* Statuses                                                            */
/* ------------------------------------------------------------------ */

/* What MPI_F_STATUS_IGNORE and the others point to: never read or
   written, only told apart. */
MPI_Fint shmpi_f_status_ignore[MPI_F_STATUS_SIZE];
MPI_Fint shmpi_f_statuses_ignore[MPI_F_STATUS_SIZE];
MPI_F08_status shmpi_f08_status_ignore, shmpi_f08_statuses_ignore;

/* The hidden words after MPI_SOURCE, MPI_TAG, MPI_ERROR. */
enum { CANCELLED = 3, COUNT_LO, COUNT_HI };

static int raise_arg(const char *fn, const char *what)
{
    return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "%s", what);
}

static int check_c(const char *fn, const MPI_Status *c_status)
{
    if (c_status == MPI_STATUS_IGNORE)
        return raise_arg(fn, "c_status is NULL (MPI_STATUS_IGNORE or "
                             "MPI_STATUSES_IGNORE): there is no status "
                             "to convert");
    return MPI_SUCCESS;
}

static int check_f(const char *fn, const MPI_Fint *f_status)
{
    if (!f_status)
        return raise_arg(fn, "f_status is NULL");
    if (f_status == MPI_F_STATUS_IGNORE || f_status == MPI_F_STATUSES_IGNORE)
        return raise_arg(fn, "f_status is MPI_F_STATUS_IGNORE or "
                             "MPI_F_STATUSES_IGNORE: there is no status "
                             "to convert");
    return MPI_SUCCESS;
}

static int check_f08(const char *fn, const MPI_F08_status *f08_status)
{
    if (!f08_status)
        return raise_arg(fn, "f08_status is NULL");
    if (f08_status == MPI_F08_STATUS_IGNORE ||
        f08_status == MPI_F08_STATUSES_IGNORE)
        return raise_arg(fn, "f08_status is MPI_F08_STATUS_IGNORE or "
                             "MPI_F08_STATUSES_IGNORE: there is no status "
                             "to convert");
    return MPI_SUCCESS;
}

static void to_f(const MPI_Status *c, MPI_Fint *f)
{
    uint64_t n = (uint64_t)c->shmpi_nbytes;
    f[MPI_F_SOURCE] = c->MPI_SOURCE;
    f[MPI_F_TAG] = c->MPI_TAG;
    f[MPI_F_ERROR] = c->MPI_ERROR;
    f[CANCELLED] = c->shmpi_cancelled;
    f[COUNT_LO] = (MPI_Fint)(uint32_t)n;
    f[COUNT_HI] = (MPI_Fint)(uint32_t)(n >> 32);
}

/* The hidden words of a status that MPI_Status_c2f did not write (or
   that the program changed) could make MPI_Get_count lie: refused. */
static int from_f(const char *fn, const MPI_Fint *f, MPI_Status *c)
{
    uint64_t n = (uint64_t)(uint32_t)f[COUNT_HI] << 32 |
                 (uint32_t)f[COUNT_LO];
    if ((f[CANCELLED] != 0 && f[CANCELLED] != 1) || n > INT64_MAX)
        return raise_arg(fn, "the Fortran status's hidden words are not "
                             "those of a status (not made by MPI or by "
                             "MPI_Status_c2f)");
    c->MPI_SOURCE = f[MPI_F_SOURCE];
    c->MPI_TAG = f[MPI_F_TAG];
    c->MPI_ERROR = f[MPI_F_ERROR];
    c->shmpi_cancelled = f[CANCELLED];
    c->shmpi_nbytes = (MPI_Count)n;
    return MPI_SUCCESS;
}

int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    static const char fn[] = "MPI_Status_c2f";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_c(fn, c_status);
    if (rc != MPI_SUCCESS || (rc = check_f(fn, f_status)) != MPI_SUCCESS)
        return rc;
    to_f(c_status, f_status);
    return MPI_SUCCESS;
}

int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    static const char fn[] = "MPI_Status_f2c";
    SHMPI_REQUIRE_INIT(fn);
    int rc = check_f(fn, f_status);
    if (rc != MPI_SUCCESS || (rc = check_c(fn, c_status)) != MPI_SUCCESS)
        return rc;
    return from_f(fn, f_status, c_status);
}

/* An MPI_F08_status holds the array's words under names. */
static void f08_to_words(const MPI_F08_status *s, MPI_Fint *w)
{
    w[MPI_F_SOURCE] = s->MPI_SOURCE;
    w[MPI_F_TAG] = s->MPI_TAG;
    w[MPI_F_ERROR] = s->MPI_ERROR;
    for (int i = CANCELLED; i < MPI_F_STATUS_SIZE; i++)
        w[i] = s->shmpi_hidden[i - CANCELLED];
}

static void words_to_f08(const MPI_Fint *w, MPI_F08_status *s)
{
    s->MPI_SOURCE = w[MPI_F_SOURCE];
    s->MPI_TAG = w[MPI_F_TAG];
    s->MPI_ERROR = w[MPI_F_ERROR];
    for (int i = CANCELLED; i < MPI_F_STATUS_SIZE; i++)
        s->shmpi_hidden[i - CANCELLED] = w[i];
}

int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    static const char fn[] = "MPI_Status_c2f08";
    SHMPI_REQUIRE_INIT(fn);
    MPI_Fint w[MPI_F_STATUS_SIZE];
    int rc = check_c(fn, c_status);
    if (rc != MPI_SUCCESS || (rc = check_f08(fn, f08_status)) != MPI_SUCCESS)
        return rc;
    to_f(c_status, w);
    words_to_f08(w, f08_status);
    return MPI_SUCCESS;
}

int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    static const char fn[] = "MPI_Status_f082c";
    SHMPI_REQUIRE_INIT(fn);
    MPI_Fint w[MPI_F_STATUS_SIZE];
    int rc = check_f08(fn, f08_status);
    if (rc != MPI_SUCCESS || (rc = check_c(fn, c_status)) != MPI_SUCCESS)
        return rc;
    f08_to_words(f08_status, w);
    return from_f(fn, w, c_status);
}

/* Through an MPI_Status, so that the hidden words are checked as by
   MPI_Status_f2c. */
int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    static const char fn[] = "MPI_Status_f2f08";
    SHMPI_REQUIRE_INIT(fn);
    MPI_Status c = {0};
    MPI_Fint w[MPI_F_STATUS_SIZE];
    int rc = check_f(fn, f_status);
    if (rc != MPI_SUCCESS || (rc = check_f08(fn, f08_status)) != MPI_SUCCESS ||
        (rc = from_f(fn, f_status, &c)) != MPI_SUCCESS)
        return rc;
    to_f(&c, w);
    words_to_f08(w, f08_status);
    return MPI_SUCCESS;
}

int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    static const char fn[] = "MPI_Status_f082f";
    SHMPI_REQUIRE_INIT(fn);
    MPI_Status c = {0};
    MPI_Fint w[MPI_F_STATUS_SIZE];
    int rc = check_f08(fn, f08_status);
    if (rc != MPI_SUCCESS || (rc = check_f(fn, f_status)) != MPI_SUCCESS)
        return rc;
    f08_to_words(f08_status, w);
    if ((rc = from_f(fn, w, &c)) != MPI_SUCCESS)
        return rc;
    to_f(&c, f_status);
    return MPI_SUCCESS;
}
