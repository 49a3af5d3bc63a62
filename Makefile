# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# gpurobust: the one entry point.
#
#   make demo    install what is needed, build, and run the report on a bundled example
#   make check   every test tier; the last line is "N passed, N failed"
#   make lib     build libgpurobust and the gpurobust command
#   make install install libgpurobust (PREFIX, DESTDIR as usual)
#   make clean   remove build output (kernel caches live outside the repo)
#
# Each tier writes one or more files "passed failed skipped" into $(RESULTS);
# scripts/summarize.sh adds them up and fails when a tier left no result.

TOP := $(abspath .)
BUILD ?= $(TOP)/build
RESULTS ?= $(BUILD)/results
PREFIX ?= /usr/local
LIBBUILD := $(BUILD)/lib
TIERS := lib kernel kernel72 igt mesa pkg guest

.PHONY: all deps lib demo check lib-check kernel-check kernel72-check igt-check mesa-check pkg-check \
	guest-check install clean

all: lib

deps:
	@$(TOP)/scripts/install-deps.sh

$(LIBBUILD)/build.ninja:
	meson setup $(LIBBUILD) $(TOP)/libgpurobust --prefix=$(PREFIX) -Dbuildtype=debugoptimized

lib: deps $(LIBBUILD)/build.ninja
	meson compile -C $(LIBBUILD)

demo: lib
	@$(TOP)/scripts/demo.sh $(LIBBUILD)

install: lib
	meson install -C $(LIBBUILD) $(if $(DESTDIR),--destdir $(DESTDIR))

lib-check: deps
	@mkdir -p $(RESULTS)
	@$(TOP)/libgpurobust/tests/check-tiers.sh $(BUILD) $(RESULTS)

kernel-check: deps
	@mkdir -p $(RESULTS)
	@$(TOP)/kernel/scripts/check.sh $(RESULTS)

kernel72-check: deps
	@mkdir -p $(RESULTS)
	@GPUROBUST_SERIES=7.2 $(TOP)/kernel/scripts/check.sh $(RESULTS)

igt-check: deps
	@mkdir -p $(RESULTS)
	@$(TOP)/igt-tests/check.sh $(RESULTS)

mesa-check: deps
	@mkdir -p $(RESULTS)
	@$(TOP)/libgpurobust/integration/mesa/check.sh $(RESULTS)

pkg-check: deps
	@mkdir -p $(RESULTS)
	@$(TOP)/libgpurobust/integration/debian/check.sh $(RESULTS)

# The collector end to end in a QEMU guest; installs the pkg tier's .debs.
guest-check: deps
	@mkdir -p $(RESULTS)
	@$(TOP)/libgpurobust/integration/guest/check.sh $(RESULTS)

check: deps
	@rm -rf $(RESULTS) && mkdir -p $(RESULTS)
	-@$(MAKE) --no-print-directory lib-check
	-@$(MAKE) --no-print-directory kernel-check
	-@$(MAKE) --no-print-directory kernel72-check
	-@$(MAKE) --no-print-directory igt-check
	-@$(MAKE) --no-print-directory mesa-check
	-@$(MAKE) --no-print-directory pkg-check
	-@$(MAKE) --no-print-directory guest-check
	@$(TOP)/scripts/summarize.sh $(RESULTS) $(TIERS)

clean:
	rm -rf $(BUILD)
