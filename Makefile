# tengen — Gomoku/Renju engine and game.
#
#   make            build build/tengen and build/pbrain-tengen (installs missing packages)
#   make run        build and start the game
#   make test       build and run every test (SAN=1: under ASan + UBSan; SAN=thread: TSan)
#   make fuzz       run every libFuzzer target for FUZZ_SECONDS (default 300) each
#   make bench      print the move-generation and search benchmarks
#   make format     clang-format the sources
#   make clean

# ==== 1. Configuration ========================================================================

CC      ?= cc
SAN     ?= 0
FUZZ_SECONDS ?= 300
FUZZ_TEST_SECONDS ?= 15
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

ifeq ($(SAN),1)
BUILD   ?= build/san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
OPT     := -O1
else ifeq ($(SAN),thread)
BUILD   ?= build/tsan
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
OPT     := -O1
else
BUILD   ?= build
SANFLAGS :=
OPT     := -O2
endif

WARN    := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
           -Wmissing-declarations -Wwrite-strings -Wpointer-arith -Wundef -Wvla \
           -Wformat=2
# Warnings are errors for developers and CI (`make test`, any test target, or CI set), not for a
# user's plain `make` or `make run`, where a newer compiler's new warning must not stop the build.
ifneq ($(filter test unit %-test check-layout fuzz fuzz-quick bench-check,$(MAKECMDGOALS))$(CI),)
WERROR  ?= 1
endif
WERROR  ?= 0
ifeq ($(WERROR),1)
WARN    += -Werror
endif
CFLAGS  ?= $(OPT) -g
ALL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -pthread \
           -ffp-contract=off $(WARN) $(SANFLAGS) -DTG_BUILD_VERSION='"$(VERSION)"' $(CFLAGS)
LDLIBS  := -pthread -lm

# ==== 2. Dependencies (Debian packages, installed by scripts/deps.sh) ========================

DEPS_TEST := cmd:g++=g++ pc:cmocka=libcmocka-dev libfuzzer:clang=clang libfuzzer:clang=libclang-rt-dev cmd:tmux=tmux \
             cmd:python3=python3 file:/usr/lib/python3/dist-packages/numpy/__init__.py=python3-numpy \
             file:/usr/lib/python3/dist-packages/torch/__init__.py=python3-torch
DEPS      := cmd:pkg-config=pkg-config pc:jansson=libjansson-dev pc:ncursesw=libncurses-dev \
             pc:libmicrohttpd=libmicrohttpd-dev pc:sqlite3=libsqlite3-dev

# ==== 3. Sources ==============================================================================

CORE_SRC  := $(wildcard src/core/*.c)
CORE_OBJ  := $(CORE_SRC:src/%.c=$(BUILD)/obj/%.o)
# The front ends, one folder each; `tengen` links them all, pbrain-tengen only the brain.
BRAIN_SRC := $(filter-out src/brain/pbrain_main.c,$(wildcard src/brain/*.c))
APP_SRC   := $(wildcard src/cli/*.c src/play/*.c src/serve/*.c) $(BRAIN_SRC)
APP_OBJ   := $(APP_SRC:src/%.c=$(BUILD)/obj/%.o)
APP_H     := $(wildcard src/cli/*.h src/brain/*.h src/play/*.h src/serve/*.h)
BRAIN_OBJ := $(BUILD)/obj/brain/pbrain_main.o $(BRAIN_SRC:src/%.c=$(BUILD)/obj/%.o)
UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_SRC  := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN  := $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)
LIB       := $(BUILD)/libtengen.a
LIB_INTERNAL := $(BUILD)/libtengen-internal.a
FORMAT_FILES = src/*.h src/core/*.[ch] src/cli/*.[ch] src/brain/*.[ch] src/play/*.[ch] \
               src/serve/*.[ch] tests/unit/*.[ch] tests/fuzz/*.c tests/cxx/*.cpp
# Data compiled into libtengen: the zero level's networks (every models/*.tgnn) and the
# evaluation's weight tables (every weights/*.txt).
EMBED_FILES := $(wildcard models/*.tgnn weights/*.txt)
EMBED_OBJ := $(BUILD)/obj/gen/embedded.o
# The web page, compiled into tengen (`tengen serve`): every file under web/.
WEB_FILES := $(shell find web -type f ! -name '.*' 2>/dev/null)
WEB_OBJ   := $(BUILD)/obj/gen/web_assets.o
SERVE_PC  := libmicrohttpd sqlite3 jansson
# The API layer of `tengen serve` without HTTP, for the fuzzer.
SERVE_API_SRC := $(filter-out src/serve/http.c src/serve/main.c,$(wildcard src/serve/*.c)) src/cli/cli.c

# ==== 4. Build ================================================================================

.PHONY: all run test unit fuzz fuzz-quick bench bench-check cli-test format clean deps \
        deps-test check-layout
.DEFAULT_GOAL := all

all: deps $(BUILD)/tengen $(BUILD)/pbrain-tengen

deps:
	@sh scripts/deps.sh $(DEPS)

# After deps, never beside it: under make -j two apt-gets would race for dpkg's lock.
deps-test: deps
	@sh scripts/deps.sh $(DEPS) $(DEPS_TEST)

# `| deps` installs missing packages before the first compile; APP_CFLAGS and APP_LIBS are
# recursive (=), so pkg-config runs when a recipe runs, after that install.
$(BUILD)/obj/%.o: src/%.c $(wildcard src/*.h src/core/*.h) $(APP_H) | deps
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(EXTRA_CFLAGS) -c $< -o $@

# libtengen.a is one relocatable object whose only global names are the API's tg_ names: the
# core's internal functions (board_play, search_run, ...) are made local, so a program that
# links the library cannot reach them or collide with them. The unit tests, which test those
# internals, link libtengen-internal.a, the same objects as they are.
$(LIB): $(CORE_OBJ) $(EMBED_OBJ)
	@rm -f $@ $(BUILD)/tengen.o
	ld -r -o $(BUILD)/tengen.o $^
	objcopy --wildcard --keep-global-symbol='tg_*' $(BUILD)/tengen.o
	ar rcs $@ $(BUILD)/tengen.o

$(LIB_INTERNAL): $(CORE_OBJ) $(EMBED_OBJ)
	@rm -f $@
	ar rcs $@ $^

APP_PC      := ncursesw $(SERVE_PC)
APP_CFLAGS   = $(shell pkg-config --cflags $(APP_PC))
APP_LIBS     = $(shell pkg-config --libs $(APP_PC))
$(APP_OBJ): EXTRA_CFLAGS = $(APP_CFLAGS)
$(BUILD)/tengen: $(APP_OBJ) $(WEB_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS) $(APP_LIBS) -lm

# web/ as C arrays; `web` itself is a prerequisite so that an added or removed file counts.
$(BUILD)/gen/web_assets.c: scripts/embed_assets.sh $(WEB_FILES) $(wildcard web)
	@mkdir -p $(dir $@)
	sh scripts/embed_assets.sh web >$@.tmp && mv $@.tmp $@

$(WEB_OBJ): $(BUILD)/gen/web_assets.c src/serve/assets.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc/serve -c $< -o $@

%/gen/embedded.c: scripts/embed_data.sh $(EMBED_FILES) $(wildcard models/ weights/)
	@mkdir -p $(dir $@)
	sh scripts/embed_data.sh models weights >$@.tmp && mv $@.tmp $@

$(EMBED_OBJ): $(BUILD)/gen/embedded.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/pbrain-tengen: $(BRAIN_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

# ==== 5. Run ==================================================================================

run: all
	$(BUILD)/tengen serve

# ==== 6. Tests ================================================================================

$(BUILD)/tests/%: tests/unit/%.c $(LIB_INTERNAL) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Wno-missing-declarations $(shell pkg-config --cflags cmocka) \
	    $< $(LIB_INTERNAL) -o $@ $(LDLIBS) $(shell pkg-config --libs cmocka)

unit: deps-test $(UNIT_BIN) $(BUILD)/tengen
	@sh tests/run_unit.sh $(BUILD) $(UNIT_BIN)

# The fuzzers always run under ASan+UBSan, so the SAN=1 pass does not repeat them.
test: unit cxx-test check-layout cli-test brain-test play-test serve-test web-test zero-test $(if $(filter 0,$(SAN)),docs-test fuzz-quick bench-check)
	@echo "tengen: all tests passed ($(if $(filter 1,$(SAN)),ASan+UBSan,$(if $(filter thread,$(SAN)),TSan,plain)) build)"

# The analyze and selfplay commands, driven as a user would.
cli-test: $(BUILD)/tengen
	@sh tests/cli/test_analyze_selfplay.sh $(BUILD)/tengen
	@sh tests/cli/test_ladder.sh $(BUILD)/tengen
	@sh tests/cli/test_datagen.sh $(BUILD)/tengen
	@sh tests/cli/test_tune.sh $(BUILD)/tengen
	@sh tests/cli/test_paired.sh
	@sh tests/cli/test_search_size.sh
	@sh tests/cli/test_judgment.sh

# tengen.h from C++: compiles, links libtengen.a, stops a search on a std::atomic<bool>.
CXX ?= c++
.PHONY: cxx-test
cxx-test: deps-test $(LIB)
	@mkdir -p $(BUILD)/tests
	$(CXX) -std=c++17 -Wall -Wextra -Werror $(SANFLAGS) -pthread tests/cxx/api_test.cpp $(LIB) \
	    -o $(BUILD)/tests/cxx_api_test -lm
	@$(BUILD)/tests/cxx_api_test

# The README's console examples, run and compared with their output (tests/docs).
.PHONY: docs-test
docs-test: $(BUILD)/tengen $(BUILD)/pbrain-tengen
	@python3 tests/docs/readme_examples.py $(BUILD)

# The zero level's learning loop end to end on a 6x6 board: self-play, training with PyTorch,
# export, evaluation against pure MCTS, resumption, the curve; then the model on the command line.
.PHONY: zero-test
zero-test: deps-test $(BUILD)/tengen
	@sh tests/zero/run.sh $(BUILD)/tengen

# `tengen play`: scripted --plain games and the ncurses screen driven in tmux.
.PHONY: play-test
play-test: $(BUILD)/tengen
	@sh tests/play/run.sh $(BUILD)/tengen

# `tengen serve`: its JSON API driven over HTTP against a real server on a free port.
.PHONY: serve-test
serve-test: $(BUILD)/tengen
	@sh tests/serve/run.sh $(BUILD)/tengen

# The page of `tengen serve` driven in headless Chromium (playwright-core); screenshots go to
# build/artifacts/.
.PHONY: web-test
web-test: $(BUILD)/tengen
	@WEB_WAIT_MS=$(if $(filter 0,$(SAN)),10000,30000) sh tests/web/run.sh $(BUILD)/tengen

# The search bench reproduces the node count of the last `Bench:` commit (plain build only).
bench-check: $(BUILD)/tengen
	@sh tests/check_bench.sh $(BUILD)/tengen

# Front ends include only the public header; the core has no file-scope mutable state.
check-layout: $(LIB) $(LIB_INTERNAL) $(BUILD)/tengen
	@sh tests/check_layout.sh $(BUILD)

# Scripted protocol sessions against pbrain-tengen, with the time and memory checks.
.PHONY: brain-test
brain-test: $(BUILD)/pbrain-tengen
	@sh tests/brain/run.sh $(BUILD)/pbrain-tengen

# libFuzzer targets are always built with clang and ASan+UBSan, under build/fuzz.
FUZZ_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -pthread -g -O1 \
              -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_EMBED := build/fuzz/gen/embedded.c
build/fuzz/%: tests/fuzz/%.c $(CORE_SRC) $(FUZZ_EMBED) $(wildcard src/*.h src/core/*.h)
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS) $< $(CORE_SRC) $(FUZZ_EMBED) -o $@ -lm

# The protocol fuzzer also needs the brain's front-end file.
build/fuzz/fuzz_protocol: tests/fuzz/fuzz_protocol.c $(BRAIN_SRC) $(CORE_SRC) $(FUZZ_EMBED) \
                          $(wildcard src/*.h src/core/*.h) $(APP_H)
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS) $< $(filter-out src/brain/loop.c,$(BRAIN_SRC)) $(CORE_SRC) $(FUZZ_EMBED) -o $@ -lm

# The API fuzzer runs the server's API layer (no HTTP) on an in-memory archive.
build/fuzz/fuzz_api: tests/fuzz/fuzz_api.c $(SERVE_API_SRC) $(CORE_SRC) $(FUZZ_EMBED) \
                     $(wildcard src/*.h src/core/*.h) $(APP_H)
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS) $(shell pkg-config --cflags $(SERVE_PC)) $< $(SERVE_API_SRC) $(CORE_SRC) \
	    $(FUZZ_EMBED) \
	    -o $@ $(shell pkg-config --libs $(SERVE_PC)) -lm

fuzz-quick: deps-test $(FUZZ_BIN)
	@sh tests/run_fuzz.sh $(FUZZ_TEST_SECONDS) $(FUZZ_BIN)

fuzz: deps-test $(FUZZ_BIN)
	@sh tests/run_fuzz.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

# ==== 7. Tools ================================================================================

# pbrain-tengen.exe for Gomocup (Windows x86-64), cross-built with Debian's MinGW-w64. Static,
# so it needs no DLL; the 64 MiB default stack reserve covers the search threads, which the core
# starts with default attributes. printf is MinGW's C99 one (%zu works); -Wno-format because
# GCC still checks `format(printf)` attributes against Microsoft's printf.
WIN_CC     := x86_64-w64-mingw32-gcc-posix
WIN_BUILD  := build/windows
WIN_CFLAGS := -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -ffp-contract=off \
              -D__USE_MINGW_ANSI_STDIO=1 -Wall -Wextra -Wno-format \
              -DTG_BUILD_VERSION='"$(VERSION)"'
WIN_OBJ    := $(CORE_SRC:src/%.c=$(WIN_BUILD)/obj/%.o) $(WIN_BUILD)/obj/brain/pbrain_main.o \
              $(BRAIN_SRC:src/%.c=$(WIN_BUILD)/obj/%.o) $(WIN_BUILD)/obj/gen/embedded.o
.PHONY: windows
windows: $(WIN_BUILD)/pbrain-tengen.exe

$(WIN_BUILD)/obj/%.o: src/%.c $(wildcard src/*.h src/core/*.h) $(APP_H)
	@sh scripts/deps.sh cmd:$(WIN_CC)=gcc-mingw-w64-x86-64
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) -c $< -o $@

$(WIN_BUILD)/obj/gen/embedded.o: $(WIN_BUILD)/gen/embedded.c
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) -c $< -o $@

$(WIN_BUILD)/pbrain-tengen.exe: $(WIN_OBJ)
	$(WIN_CC) -static -Wl,--stack,67108864 $^ -o $@ -lpthread -lm

# One generation of the evaluation's weight table (docs/eval.md): make weights RULE=renju;
# one round of its move ordering from the search's own tree: make ordering RULE=renju
RULE ?= freestyle
.PHONY: weights ordering
weights: all
	sh scripts/weights.sh --rule $(RULE)
ordering: all
	sh scripts/weights.sh --ordering --rule $(RULE)

bench: all
	$(BUILD)/tengen bench --moves
	$(BUILD)/tengen bench

format:
	clang-format -i $(FORMAT_FILES)

# CI: the sources are as clang-format leaves them.
.PHONY: format-check
format-check:
	@sh scripts/deps.sh cmd:clang-format=clang-format
	clang-format --dry-run --Werror $(FORMAT_FILES)

clean:
	rm -rf build
