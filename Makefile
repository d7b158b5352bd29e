# The front door. `make run` and `make test` are all a new user needs (see README.md).
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
# No "Entering directory" lines from the makes CMake runs: only the build's progress shows.
MAKEFLAGS += --no-print-directory

.PHONY: all setup build test test-loaded run fuzz cflite bench format clean install deb

all: build

setup:
	@bash tools/setup.sh

build: setup
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# ctest's jobs, one a core. Two a core kept the cores busier (on 2 cores 277 s instead of 313 s:
# a quarter of their time went to tests that wait), but then mcp_http_round_trip's rich session
# once differed through the proxy (1 fresh-clone run in 3), not yet understood: TEST_JOBS=4 to try.
TEST_JOBS ?= $(JOBS)
test: build
	@ctest --test-dir $(BUILD) --output-on-failure -j $(TEST_JOBS)

# The same tests on a machine loaded past its cores (two ctest jobs a core, a busy loop a core
# beside them), where they must pass too. CTEST_ARGS go to ctest: CTEST_ARGS='-R mcp_http
# --repeat until-fail:5'.
CTEST_ARGS ?=
test-loaded: build
	@bash tools/test_under_load.sh $(BUILD) $(CTEST_ARGS)

# Builds only the arcs binary: the run needs nothing else.
run: setup
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target arcs
	@bash tools/run.sh $(BUILD)

# `make install PREFIX=DIR` (default /usr/local): arcs, its data in DIR/share/arcs, man pages.
PREFIX ?= /usr/local
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

# `make deb`: a Debian package of the same, in $(BUILD) (arcs_VERSION_ARCH.deb).
deb: build
	@cd $(BUILD) && cpack -G DEB >/dev/null && ls -1 $$PWD/arcs_*.deb

# `make cflite`: .clusterfuzzlite/build.sh under the OSS-Fuzz contract on this machine, every
# target then run over its seed corpus once (long: every target built with ASan, in build-cflite/).
cflite: setup
	@bash tools/cflite_build_test.sh

fuzz: setup
	@bash fuzz/run.sh

bench: setup
	@bash tools/bench.sh

format:
	@git ls-files '*.cc' '*.h' | xargs clang-format -i

clean:
	@rm -rf $(BUILD) build-fuzz
