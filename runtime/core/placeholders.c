/*
 * placeholders.c - predefined handles whose rooms are not built yet
 * (info).  mpi.h names them, so the objects
 * exist; no function accepts them until their room arrives and takes
 * its object over.
 */
#include "core/objects.h"

struct shmpi_info shmpi_info_env = {SHMPI_MAGIC_INFO};
