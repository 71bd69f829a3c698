/* mpit_category_ext: shmpi's categories - "shmpi" holds every other one and no variable, and every control and performance variable is in exactly one of the others (a tunable added without a category fails here); SHMPI_SPIN_US is in shmpi_wait, SHMPI_EAGER_LIMIT in shmpi_pt2pt, shmpi_alloc_mem_bytes in shmpi_memory; indices are checked. */
/* shmpi-test: np=1 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int category(const char *name)
{
    int c = -1;
    T_RC(MPI_T_category_get_index(name, &c), MPI_SUCCESS);
    return c;
}

/* Whether category c lists index i among its cvars (pvars if pv). */
static int lists(int c, int i, int pv)
{
    int nc, np, nk, idx[64];
    T_RC(MPI_T_category_get_info(c, NULL, NULL, NULL, NULL, &nc, &np, &nk),
         MPI_SUCCESS);
    int n = pv ? np : nc;
    CHECK(n <= 64, "category %d: %d variables", c, n);
    T_RC((pv ? MPI_T_category_get_pvars : MPI_T_category_get_cvars)(c, n,
                                                                     idx),
         MPI_SUCCESS);
    for (int k = 0; k < n; k++)
        if (idx[k] == i)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int provided, ncats, ncvars, npvars, nc, np, nk, i;
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    CHECK_MPI(MPI_Init(&argc, &argv));
    T_RC(MPI_T_category_get_num(&ncats), MPI_SUCCESS);
    T_RC(MPI_T_cvar_get_num(&ncvars), MPI_SUCCESS);
    T_RC(MPI_T_pvar_get_num(&npvars), MPI_SUCCESS);
    int root = category("shmpi");
    T_RC(MPI_T_category_get_info(root, NULL, NULL, NULL, NULL, &nc, &np,
                                 &nk), MPI_SUCCESS);
    CHECK(nc == 0 && np == 0 && nk == ncats - 1,
          "shmpi: %d cvars, %d pvars, %d categories", nc, np, nk);
    for (int pv = 0; pv < 2; pv++)
        for (i = 0; i < (pv ? npvars : ncvars); i++) {
            int in = 0;
            for (int c = 0; c < ncats; c++)
                in += lists(c, i, pv);
            CHECK(in == 1, "%s %d is in %d categories", pv ? "pvar" : "cvar",
                  i, in);
        }
    T_RC(MPI_T_cvar_get_index("SHMPI_SPIN_US", &i), MPI_SUCCESS);
    CHECK(lists(category("shmpi_wait"), i, 0), "SHMPI_SPIN_US category");
    T_RC(MPI_T_cvar_get_index("SHMPI_EAGER_LIMIT", &i), MPI_SUCCESS);
    CHECK(lists(category("shmpi_pt2pt"), i, 0), "SHMPI_EAGER_LIMIT category");
    T_RC(MPI_T_pvar_get_index("shmpi_alloc_mem_bytes",
                              MPI_T_PVAR_CLASS_LEVEL, &i), MPI_SUCCESS);
    CHECK(lists(category("shmpi_memory"), i, 1), "shmpi_alloc_mem_bytes");
    int idx[4];
    T_RC(MPI_T_category_get_info(ncats, NULL, NULL, NULL, NULL, &nc, &np,
                                 &nk), MPI_T_ERR_INVALID_INDEX);
    T_RC(MPI_T_category_get_cvars(-1, 4, idx), MPI_T_ERR_INVALID_INDEX);
    T_RC(MPI_T_category_get_pvars(root, -1, idx), MPI_T_ERR_INVALID);
    T_RC(MPI_T_category_get_categories(root, 4, NULL), MPI_T_ERR_INVALID);
    /* a short array takes the first ones */
    idx[1] = -7;
    T_RC(MPI_T_category_get_categories(root, 1, idx), MPI_SUCCESS);
    CHECK(idx[0] >= 0 && idx[0] < ncats && idx[1] == -7,
          "get_categories with len 1: %d %d", idx[0], idx[1]);
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
