# shmpi - one Makefile.
#   make                 lib/libmpi.a, lib/libmpi.so, ./mpirun, ./mpiexec
#                        (./mpicc, ./mpicxx, ./mpic++ are one script)
#   make check           the test suite under ./mpirun (last line: N passed, N failed)
#   make check-layers    no room of runtime/ includes or calls one above it (runtime/LAYERS)
#   make check-ref       the standard-only tests built and run with Open MPI
#   make perf            the benchmarks, side by side with Open MPI and MPICH
#   make install PREFIX=/some/dir
#   make SANITIZE=1 ...  everything built with ASan+UBSan
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

LIB_SRC  := $(filter-out runtime/launcher/mpirun.c,$(wildcard runtime/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
RUN_OBJ  := $(BUILD)/runtime/launcher/mpirun.o

all: lib/libmpi.a lib/libmpi.so mpirun mpiexec

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(STAMP):
	@mkdir -p lib && rm -f lib/.flavor-* && touch $@

lib/libmpi.a: $(LIB_OBJ) $(STAMP)
	rm -f $@ && ar rcs $@ $(LIB_OBJ)

lib/libmpi.so: $(LIB_OBJ) $(STAMP)
	$(CC) -shared $(LDFLAGS) -o $@ $(LIB_OBJ) $(LIBS)

mpirun: $(RUN_OBJ) lib/libmpi.a
	$(CC) $(LDFLAGS) -o $@ $(RUN_OBJ) lib/libmpi.a $(LIBS)

mpiexec: mpirun
	ln -sf mpirun $@

-include $(LIB_OBJ:.o=.d) $(RUN_OBJ:.o=.d)

# ---------------------------------------------------------------- tests
check: all
	@test/run-tests

check-ref:
	@test/run-tests --ref

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
	install -m 644 mpi.h "$(DESTDIR)$(PREFIX)/include/"
	install -m 644 lib/libmpi.a "$(DESTDIR)$(PREFIX)/lib/"
	install -m 755 lib/libmpi.so "$(DESTDIR)$(PREFIX)/lib/"
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(shell sed -n 's/.*SHMPI_VERSION_STRING "\(.*\)"/\1/p' mpi.h)|' \
	    shmpi.pc.in > "$(DESTDIR)$(PREFIX)/lib/pkgconfig/shmpi.pc"
	for s in 1 3 7; do for f in man/man$$s/*.$$s; do [ -e "$$f" ] && \
	    install -m 644 "$$f" "$(DESTDIR)$(PREFIX)/share/man/man$$s/"; done; done; true
	ln -sf mpirun.1 "$(DESTDIR)$(PREFIX)/share/man/man1/mpiexec.1"

clean:
	rm -rf build lib mpirun mpiexec test/bin test/out perf/bin

.PHONY: all check check-ref check-layers perf install clean
