/* env_ext: shmpi's own answers: MPI 4.1 exactly, a library version naming shmpi, the host name as processor name, MPI_TAG_UB = INT_MAX, a global MPI_Wtime, universe = world. */
/* shmpi-test: np=1,2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <limits.h>

static int attr(int key)
{
    int *v = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag));
    CHECK(flag && v, "attribute %d is not set", key);
    return *v;
}

int main(int argc, char **argv)
{
    int size, version, subversion, len;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

    CHECK_MPI(MPI_Get_version(&version, &subversion));
    CHECK(version == 4 && subversion == 1, "MPI_Get_version: %d.%d", version,
          subversion);

    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    memset(lib, 'X', sizeof lib);
    CHECK_MPI(MPI_Get_library_version(lib, &len));
    CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING && lib[len] == '\0' &&
              (int)strlen(lib) == len,
          "MPI_Get_library_version: resultlen %d, string \"%.*s\"", len,
          (int)sizeof lib - 1, lib);
    CHECK(strstr(lib, "shmpi") && strstr(lib, SHMPI_VERSION_STRING),
          "MPI_Get_library_version: \"%s\" does not name shmpi %s", lib,
          SHMPI_VERSION_STRING);

    char name[MPI_MAX_PROCESSOR_NAME], host[MPI_MAX_PROCESSOR_NAME];
    CHECK_MPI(MPI_Get_processor_name(name, &len));
    CHECK(gethostname(host, sizeof host) == 0, "gethostname");
    host[sizeof host - 1] = '\0';
    CHECK(strcmp(name, host) == 0, "processor name \"%s\", host name \"%s\"",
          name, host);

    CHECK(attr(MPI_TAG_UB) == INT_MAX, "MPI_TAG_UB = %d, not INT_MAX",
          attr(MPI_TAG_UB));
    CHECK(attr(MPI_WTIME_IS_GLOBAL) == 1, "MPI_WTIME_IS_GLOBAL = %d",
          attr(MPI_WTIME_IS_GLOBAL));
    CHECK(attr(MPI_UNIVERSE_SIZE) == size, "MPI_UNIVERSE_SIZE = %d, size %d",
          attr(MPI_UNIVERSE_SIZE), size);
    CHECK(attr(MPI_LASTUSEDCODE) == MPI_ERR_LASTCODE,
          "MPI_LASTUSEDCODE = %d before any MPI_Add_error_*",
          attr(MPI_LASTUSEDCODE));
    CHECK(MPI_Wtick() <= 1e-6, "MPI_Wtick() = %g, expected a fine clock",
          MPI_Wtick());

    CHECK_MPI(MPI_Finalize());
    return 0;
}
