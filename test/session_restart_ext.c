/* session_restart_ext: once the last session ended, MPI has ended in the process: a new MPI_Session_init fails with MPI_ERR_OTHER through the handler it was given, and the job still ends well. */
/* shmpi-test: np=1,2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

int main(void)
{
    MPI_Session s;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    CHECK_MPI(MPI_Session_finalize(&s));
    int rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    CHECK_CLASS(rc, MPI_ERR_OTHER);
    int flag = 1;
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK(!flag, "MPI_Finalized answers for the World Model, never used");
    return 0;
}
