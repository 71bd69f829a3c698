# SPDX-License-Identifier: BSD-3-Clause
# shmpi - one Makefile.
#   make                 lib/libmpi.a, lib/libmpi.so, lib/libshmpi_trace.so,
#                        ./mpirun, ./mpiexec
#                        (./mpicc, ./mpicxx, ./mpic++ are one script)
#   make check           the test suite under ./mpirun (last line: N passed, N failed)
#   make check-layers    no room of runtime/ includes or calls one above it, nor
#                        defines a global without its prefix (runtime/LAYERS)
#   make check-checkmode the test suite in the check mode (TEST_CHECK=1: no
#                        report of shmpi_check(7) may appear)
#   make check-ref       the standard-only tests built and run with Open MPI
#   make check-ref-mpich the same with MPICH
#   make check-abi       the standard-only tests built against the MPI standard
#                        ABI (./mpicc_abi, lib/libmpi_abi.so), run under ./mpirun
#   make perf            the benchmarks, side by side with Open MPI and MPICH
#   make install PREFIX=/some/dir
#   make SANITIZE=1 ...  everything built with ASan+UBSan
#   make check-tsan      library, mpirun and tests built with clang's TSan
#                        (SANITIZE=thread, build/tsan), the suite run under it
CC      ?= cc
PREFIX  ?= /usr/local
OPT     ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wno-unused-parameter
override CFLAGS += -std=c11 -D_GNU_SOURCE -fPIC $(OPT) $(WARN) -I. -Iruntime
LIBS    := -luring -lnuma -lpthread

ifeq ($(SANITIZE),1)
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
override CFLAGS += $(SANFLAGS)
override LDFLAGS += $(SANFLAGS)
FLAVOR   := san
else ifeq ($(SANITIZE),thread)
# ThreadSanitizer, with clang (make check-tsan).  test/run-tests reads
# TSANFLAGS from this line, and SANFLAGS from the one above, by name.
TSANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
override CFLAGS += $(TSANFLAGS)
override LDFLAGS += $(TSANFLAGS)
SANFLAGS  = $(TSANFLAGS)
FLAVOR   := tsan
else
FLAVOR   := opt
endif
BUILD    := build/$(FLAVOR)
# lib/ and ./mpirun hold one flavor at a time; this stamp relinks them when
# the flavor changes.
STAMP    := lib/.flavor-$(FLAVOR)
export SANFLAGS

# Stop early, in one line, when a required -dev package is missing.
ifeq ($(filter clean,$(MAKECMDGOALS)),)
ifneq ($(shell printf '\#include <liburing.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo ok),ok)
$(error liburing headers not found: install the Debian package liburing-dev)
endif
ifneq ($(shell printf '\#include <numa.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo ok),ok)
$(error libnuma headers not found: install the Debian package libnuma-dev)
endif
endif

# mpirun's own: its options, and the merge of --trace/--profile's files.
RUN_SRC  := runtime/launcher/mpirun.c runtime/launcher/trace.c
LIB_SRC  := $(filter-out $(RUN_SRC),$(wildcard runtime/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
RUN_OBJ  := $(RUN_SRC:%.c=$(BUILD)/%.o)

# The shared library is libshmpi.so.MAJOR.MINOR.PATCH (the release in
# mpi.h), its soname libshmpi.so.MAJOR, and libmpi.so the name -lmpi
# links by.  A program records the soname, not libmpi.so: Open MPI's
# libmpi.so.40 and MPICH's libmpi.so.12 (and old Open MPI's libmpi.so.0
# and .1) can then never be loaded in shmpi's place, whatever
# LD_LIBRARY_PATH says, and a machine without shmpi says which library is
# missing.  MAJOR goes up with a release that breaks the ABI: a function
# removed or changed, or a predefined object of mpi.h resized (programs
# hold copies of them, by copy relocations).
VERSION  := $(shell sed -n 's/.*SHMPI_VERSION_STRING "\(.*\)"/\1/p' mpi.h)
SONAME   := libshmpi.so.$(firstword $(subst ., ,$(VERSION)))
SOFILE   := libshmpi.so.$(VERSION)

all: lib/libmpi.a lib/libmpi.so lib/libshmpi_trace.so mpirun mpiexec \
     lib/libmpi_abi.so lib/libmpi_abi.a

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(STAMP):
	@mkdir -p lib && rm -f lib/.flavor-* && touch $@

# What a program may link to: the MPI_ and PMPI_ functions, and the
# objects mpi.h declares extern (the predefined handles its macros take
# the address of).  Read from mpi.h itself, so that a handle added there
# is exported without another list to keep.
$(BUILD)/public.syms: mpi.h
	@mkdir -p $(dir $@)
	{ echo 'MPI_*'; echo 'PMPI_*'; \
	  $(CC) -E -P -x c mpi.h | tr '\n' ' ' | tr ';' '\n' | \
	      sed -n 's/^ *extern  *//p' | sed 's/struct  *[A-Za-z0-9_]*//g' | \
	      grep -o 'shmpi_[A-Za-z0-9_]*' | LC_ALL=C sort -u; } >$@.tmp
	mv $@.tmp $@

# The version script of libmpi.so: those symbols global, every other one
# local, so that the library's own functions and data neither collide
# with a program's nor can be interposed by it.
$(BUILD)/libmpi.map: $(BUILD)/public.syms
	{ echo '{'; echo 'global:'; sed 's/.*/    &;/' $<; \
	  echo 'local:'; echo '    *;'; echo '};'; } >$@.tmp
	mv $@.tmp $@

lib/$(SOFILE): $(LIB_OBJ) $(BUILD)/libmpi.map $(STAMP)
	$(CC) -shared $(LDFLAGS) -Wl,-soname,$(SONAME) \
	    -Wl,--version-script,$(BUILD)/libmpi.map -o $@ $(LIB_OBJ) $(LIBS)

lib/$(SONAME): lib/$(SOFILE)
	ln -sf $(SOFILE) $@

lib/libmpi.so: lib/$(SONAME)
	ln -sf $(SONAME) $@

# An archive cannot hide a symbol, so libmpi.a holds one object, the whole
# library linked together (-r), whose symbols but the public ones are
# made local: a program that defines a name of the library's own still
# links.  The price: a static program holds all of the library, not only
# the objects it calls into.
$(BUILD)/libmpi.o: $(LIB_OBJ) $(BUILD)/public.syms
	$(CC) -r -nostdlib -o $@.tmp $(LIB_OBJ)
	objcopy --wildcard --keep-global-symbols=$(BUILD)/public.syms $@.tmp $@
	rm -f $@.tmp

lib/libmpi.a: $(BUILD)/libmpi.o $(STAMP)
	rm -f $@ && ar rcs $@ $(BUILD)/libmpi.o

# mpirun calls the launcher's internal functions: it links the objects as
# they are, from an archive of its own.
$(BUILD)/internal.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $(LIB_OBJ)

mpirun: $(RUN_OBJ) $(BUILD)/internal.a $(STAMP)
	$(CC) $(LDFLAGS) -o $@ $(RUN_OBJ) $(BUILD)/internal.a $(LIBS)

mpiexec: mpirun
	ln -sf mpirun $@

# lib/libshmpi_trace.so: the profiling wrappers mpirun --trace/--profile
# preloads into the ranks (tools/trace/wrap.h).  One wrapper per function
# of mpi.h, generated from it; linked without libshmpi.so and lazily,
# its PMPI_ calls bound in the rank's program.
TRACE_GEN := $(BUILD)/tools/trace
TRACE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tools/trace/*.c)) \
             $(TRACE_GEN)/wrappers.o

$(TRACE_GEN)/fn.h: $(TRACE_GEN)/wrappers.c
$(TRACE_GEN)/wrappers.c: mpi.h tools/trace/gen-wrappers.sh
	@mkdir -p $(TRACE_GEN)
	tools/trace/gen-wrappers.sh mpi.h $(TRACE_GEN)/fn.h $(TRACE_GEN)/wrappers.c

$(TRACE_OBJ): $(TRACE_GEN)/fn.h
$(TRACE_OBJ): override CFLAGS += -Itools/trace -I$(TRACE_GEN)

$(TRACE_GEN)/wrappers.o: $(TRACE_GEN)/wrappers.c
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

lib/libshmpi_trace.so: $(TRACE_OBJ) tools/trace/libshmpi_trace.map $(STAMP)
	$(CC) -shared $(LDFLAGS) -Wl,-z,lazy \
	    -Wl,--version-script,tools/trace/libshmpi_trace.map -o $@ $(TRACE_OBJ) -lpthread

# lib/libmpi_abi.so and lib/libmpi_abi.a: the MPI standard ABI
# (include/abi/mpi.h, MPI-5.0 chapter 20), the layer of abi/ linked with
# the whole library.  The layer defines each ABI function as
# shmpi_abi_PMPI_<name> with the weak alias shmpi_abi_MPI_<name>; one
# objcopy renames shmpi's own MPI_ and PMPI_ functions shmpi_native_...,
# the layer's to the ABI's names, and a second makes every symbol but
# MPI_* and PMPI_* local (abi/README.md).  The library's objects, not
# libmpi.o, whose internal symbols are local already: the layer's
# definition of a weak one (shmpi_info_key_max, abi/info.c) must win.
ABI_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(wildcard abi/*.c))
ABI_SONAME := libmpi_abi.so.1

$(BUILD)/abi/all.o: $(ABI_OBJ) $(LIB_OBJ)
	$(CC) -r -nostdlib -o $@.tmp $(ABI_OBJ) $(LIB_OBJ)
	nm -g --defined-only $@.tmp | awk \
	    '$$3 ~ /^P?MPI_/ { print $$3, "shmpi_native_" $$3 } \
	     $$3 ~ /^shmpi_abi_P?MPI_/ { n = $$3; sub(/^shmpi_abi_/, "", n); print $$3, n }' \
	    >$@.map
	objcopy --redefine-syms=$@.map $@.tmp $@.tmp
	objcopy --wildcard --keep-global-symbol='MPI_*' \
	    --keep-global-symbol='PMPI_*' $@.tmp $@
	rm -f $@.tmp

lib/$(ABI_SONAME): $(BUILD)/abi/all.o $(STAMP)
	$(CC) -shared $(LDFLAGS) -Wl,-soname,$(ABI_SONAME) -o $@ \
	    $(BUILD)/abi/all.o $(LIBS)

lib/libmpi_abi.so: lib/$(ABI_SONAME)
	ln -sf $(ABI_SONAME) $@

lib/libmpi_abi.a: $(BUILD)/abi/all.o $(STAMP)
	rm -f $@ && ar rcs $@ $(BUILD)/abi/all.o

-include $(LIB_OBJ:.o=.d) $(RUN_OBJ:.o=.d) $(TRACE_OBJ:.o=.d) $(ABI_OBJ:.o=.d)

# ---------------------------------------------------------------- tests
check: all
	@test/run-tests

check-checkmode: all
	@TEST_CHECK=1 test/run-tests

# TESTS= narrows these too: make check-ref-mpich TESTS='sync_halo sync_modes'.
check-ref:
	@test/run-tests --ref $(TESTS)

check-ref-mpich:
	@test/run-tests --ref=mpich $(TESTS)

check-abi: all
	@test/run-tests --abi $(TESTS)

# The suite under ThreadSanitizer: clang builds the library, mpirun and
# every test (a test must be built by the compiler whose runtime the
# library links).  lib/ then holds the tsan flavor, as after SANITIZE=1;
# `make` goes back.  TESTS= narrows it: make check-tsan TESTS='a b'.
check-tsan:
	@$(MAKE) --no-print-directory SANITIZE=thread CC=clang all
	@SHMPI_CC=clang SHMPI_CXX=clang++ CC=clang test/run-tests $(TESTS)

# Also one test of `make check` (test/layers.sh); the links of the objects
# are checked too when something is built.
check-layers:
	@test/layers.sh

perf: all
	@perf/run-perf

# -------------------------------------------------------------- install
install: all
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/include" \
	    "$(DESTDIR)$(PREFIX)/lib/pkgconfig" "$(DESTDIR)$(PREFIX)/share/man/man1" \
	    "$(DESTDIR)$(PREFIX)/share/man/man3" "$(DESTDIR)$(PREFIX)/share/man/man7"
	install -m 755 mpirun mpicc "$(DESTDIR)$(PREFIX)/bin/"
	ln -sf mpirun "$(DESTDIR)$(PREFIX)/bin/mpiexec"
	ln -sf mpicc "$(DESTDIR)$(PREFIX)/bin/mpicxx"
	ln -sf mpicc "$(DESTDIR)$(PREFIX)/bin/mpic++"
	ln -sf mpicc "$(DESTDIR)$(PREFIX)/bin/mpicc_abi"
	install -d "$(DESTDIR)$(PREFIX)/include/abi"
	install -m 644 include/abi/mpi.h "$(DESTDIR)$(PREFIX)/include/abi/"
	install -m 644 lib/libmpi_abi.a "$(DESTDIR)$(PREFIX)/lib/"
	install -m 755 lib/$(ABI_SONAME) "$(DESTDIR)$(PREFIX)/lib/"
	ln -sf $(ABI_SONAME) "$(DESTDIR)$(PREFIX)/lib/libmpi_abi.so"
	install -m 644 mpi.h "$(DESTDIR)$(PREFIX)/include/"
	install -m 644 lib/libmpi.a "$(DESTDIR)$(PREFIX)/lib/"
	install -m 755 lib/$(SOFILE) lib/libshmpi_trace.so "$(DESTDIR)$(PREFIX)/lib/"
	ln -sf $(SOFILE) "$(DESTDIR)$(PREFIX)/lib/$(SONAME)"
	ln -sf $(SONAME) "$(DESTDIR)$(PREFIX)/lib/libmpi.so"
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|' \
	    shmpi.pc.in > "$(DESTDIR)$(PREFIX)/lib/pkgconfig/shmpi.pc"
	for s in 1 3 7; do for f in man/man$$s/*.$$s; do [ -e "$$f" ] && \
	    install -m 644 "$$f" "$(DESTDIR)$(PREFIX)/share/man/man$$s/"; done; done; true
	ln -sf mpirun.1 "$(DESTDIR)$(PREFIX)/share/man/man1/mpiexec.1"

clean:
	rm -rf build lib mpirun mpiexec test/bin test/out perf/bin

.PHONY: all check check-checkmode check-ref check-ref-mpich check-abi check-tsan check-layers perf install clean
