/* errors_remove_ext: MPI_Remove_error_string, _code and _class (MPI-4.1) take back what the program added, only in the order the standard requires (a code's string, then the code, then its class), refuse predefined and unknown numbers, and never give a removed number again; Open MPI 4.1 lacks them. */
/* shmpi-test: np=1,2,4 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int is_code(int code)
{
    int cls;
    return MPI_Error_class(code, &cls) == MPI_SUCCESS;
}

static void in_order(void)
{
    int cls, c1, c2, x;
    char s[MPI_MAX_ERROR_STRING];
    int len;
    CHECK_MPI(MPI_Add_error_class(&cls));
    CHECK_MPI(MPI_Add_error_code(cls, &c1));
    CHECK_MPI(MPI_Add_error_code(cls, &c2));
    CHECK_MPI(MPI_Add_error_string(cls, "my class"));
    CHECK_MPI(MPI_Add_error_string(c1, "my code"));

    /* a class with codes, a code with its string: refused */
    CHECK_CLASS(MPI_Remove_error_class(cls), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Remove_error_code(c1), MPI_ERR_ARG);
    /* the wrong call for the kind of number */
    CHECK_CLASS(MPI_Remove_error_code(cls), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Remove_error_class(c2), MPI_ERR_ARG);
    /* a code without a string */
    CHECK_CLASS(MPI_Remove_error_string(c2), MPI_ERR_ARG);
    CHECK(is_code(cls) && is_code(c1) && is_code(c2), "a refusal removed");

    /* string, then code */
    CHECK_MPI(MPI_Remove_error_string(c1));
    CHECK_MPI(MPI_Error_string(c1, s, &len));
    CHECK(len == 0 && s[0] == '\0', "string after removal: \"%s\"", s);
    CHECK_CLASS(MPI_Remove_error_string(c1), MPI_ERR_ARG); /* twice */
    CHECK_MPI(MPI_Remove_error_code(c1));
    CHECK(!is_code(c1), "removed code %d still a code", c1);
    CHECK_CLASS(MPI_Error_string(c1, s, &len), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Remove_error_code(c1), MPI_ERR_ARG); /* twice */
    CHECK_CLASS(MPI_Add_error_string(c1, "back"), MPI_ERR_ARG);

    /* the class still has c2 */
    CHECK_CLASS(MPI_Remove_error_class(cls), MPI_ERR_ARG);
    CHECK_MPI(MPI_Remove_error_code(c2));
    /* now it goes, with its own string */
    CHECK_MPI(MPI_Error_string(cls, s, &len));
    CHECK(!strcmp(s, "my class"), "class string \"%s\"", s);
    CHECK_MPI(MPI_Remove_error_class(cls));
    CHECK(!is_code(cls), "removed class %d still a class", cls);
    CHECK_CLASS(MPI_Add_error_code(cls, &x), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Remove_error_class(cls), MPI_ERR_ARG);

    /* numbers are not given again */
    int next;
    CHECK_MPI(MPI_Add_error_class(&next));
    CHECK(next > c2 && next > cls, "new class %d reuses a removed number",
          next);
    int *last, flag;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last,
                                &flag));
    CHECK(flag && *last == next, "MPI_LASTUSEDCODE %d, last added %d", *last,
          next);
    CHECK_MPI(MPI_Remove_error_class(next)); /* no codes, no string */
    CHECK(!is_code(next), "removed class %d still a class", next);
}

static void refused(void)
{
    /* predefined classes and numbers nobody added */
    const int bad[] = {MPI_SUCCESS, MPI_ERR_ARG, MPI_ERR_ERRHANDLER,
                       MPI_ERR_LASTCODE, -1, MPI_ERR_LASTCODE + 100000};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_CLASS(MPI_Remove_error_class(bad[i]), MPI_ERR_ARG);
        CHECK_CLASS(MPI_Remove_error_code(bad[i]), MPI_ERR_ARG);
        CHECK_CLASS(MPI_Remove_error_string(bad[i]), MPI_ERR_ARG);
    }
    CHECK(is_code(MPI_ERR_ARG), "MPI_ERR_ARG removed");
}

/* A code of a predefined class goes like any other. */
static void code_of_predefined(void)
{
    int code, cls;
    CHECK_MPI(MPI_Add_error_code(MPI_ERR_OTHER, &code));
    CHECK_MPI(MPI_Error_class(code, &cls));
    CHECK(cls == MPI_ERR_OTHER, "class %d", cls);
    CHECK_MPI(MPI_Remove_error_code(code));
    CHECK(!is_code(code) && is_code(MPI_ERR_OTHER), "after removal");
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    in_order();
    refused();
    code_of_predefined();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
