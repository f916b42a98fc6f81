# rlpool's entry points. `make train` and `make test` work on a fresh Debian/Ubuntu
# machine that has Go: they install the system libraries that are missing first.

SHELL := /bin/bash
GO ?= go

# Test data and ROMs live beside the checkout in ../shared when it is there; an
# explicitly set variable wins.
ifneq ($(wildcard ../shared/roms),)
RLPOOL_ROMS ?= $(abspath ../shared/roms)
endif
ifneq ($(wildcard ../shared/testdata),)
RLPOOL_TESTDATA ?= $(abspath ../shared/testdata)
endif
export RLPOOL_ROMS RLPOOL_TESTDATA

CONFIG ?= configs/ant.toml

# Debian packages: OpenBLAS and oneDNN (libdnnl2) for the learners, libmujoco for the
# MuJoCo tasks, Mesa's off-screen OpenGL (libosmesa6) for pictures of them.
APT_PACKAGES := libopenblas0-pthread libmujoco2.2.2 libdnnl2 libosmesa6
# numpy and pytest for Debian's python3: the Python binding (make python, make test-python);
# venv for the test that pip-installs the wheel into a fresh virtual environment.
APT_PACKAGES += python3-numpy python3-pytest python3-venv

# The 2600 emulator's CPU makes one bus access per byte; the fast path of each (a direct
# page read) is a few instructions, but the slow path's call puts it over Go's inlining
# budget. Charging calls 1 instead of 57 in that one package (-l=4) inlines the fast
# paths: 15-18% fewer CPU seconds per emulated frame (BenchmarkReplay*, side by side).
# Everything passes with and without it; `go test` alone builds without it.
EMU_GCFLAGS := -gcflags=github.com/rlpool/rlpool/envs/atari/vcs=-l=4

.PHONY: all build train test test-slurm deps vet bench bench-emu clean
.PHONY: python test-python wheel

all: build

# deps installs the system libraries that are missing, with apt-get, only when needed.
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  sudo=""; [ "$$(id -u)" -ne 0 ] && sudo=sudo; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi

build:
	CGO_ENABLED=0 $(GO) build $(EMU_GCFLAGS) -o bin/train ./cmd/train

# train runs the main job on the default config (override with CONFIG=...).
train: deps build
	./bin/train -config $(CONFIG)

vet:
	$(GO) vet ./...

# test runs vet; the whole suite built as bin/train is, without cgo (the C libraries
# loaded with purego behave differently in a program without cgo: signals on their
# threads, for one); the Atari packages again as bin/train builds them (EMU_GCFLAGS);
# and the race detector over the engine and the IMPALA actor-learner (its actors and
# learner share weight snapshots and a queue).
test: deps vet
	CGO_ENABLED=0 $(GO) test ./...
	$(GO) test $(EMU_GCFLAGS) ./envs/atari/...
	$(GO) test -race ./envpool/... ./agent/impala/...
	$(MAKE) test-python
	$(MAKE) test-slurm

# test-slurm brings up a one-machine Slurm cluster (scripts/slurm-local.sh installs
# slurm-wlm and munge when missing), runs the tests that submit sweeps and runs to
# it, and stops it whether they pass or not.
SLURM_DIR ?= /tmp/rlpool-slurm
test-slurm:
	RLPOOL_SLURM_DIR=$(SLURM_DIR) scripts/slurm-local.sh start
	source $(SLURM_DIR)/env.sh && RLPOOL_SLURM_TESTS=1 CGO_ENABLED=0 $(GO) test -count=1 -run Slurm ./cmd/train/ ./internal/sweep/ ./internal/slurm/; \
	  rc=$$?; RLPOOL_SLURM_DIR=$(SLURM_DIR) scripts/slurm-local.sh stop; exit $$rc

bench: build
	$(GO) test -run '^$$' -bench . -benchtime 2000x ./envpool/

# bench-emu measures the emulator on Pong, Breakout and Space Invaders (random action
# each frame, grayscale screen each frame) as built for bin/train; compare with ALE's
# figures in ../shared/testdata/atari/README.md.
bench-emu:
	$(GO) test $(EMU_GCFLAGS) -run '^$$' -bench Frame -benchtime 5000x -count 3 ./envs/atari/vcs/

clean:
	rm -rf bin

# python builds the C API (cmd/librlpool) as python/rlpool/librlpool.so and copies the
# rlpool package to $(PYTHON_PREFIX): PYTHONPATH=$(PYTHON_PREFIX) python3 -c 'import rlpool'.
PYTHON ?= /usr/bin/python3
PYTHON_PREFIX ?= $(CURDIR)/.python
python:
	CGO_ENABLED=1 $(GO) build $(EMU_GCFLAGS) -buildmode=c-shared -o python/rlpool/librlpool.so ./cmd/librlpool
	rm -rf $(PYTHON_PREFIX)/rlpool && mkdir -p $(PYTHON_PREFIX)
	cp -r python/rlpool $(PYTHON_PREFIX)/rlpool && rm -rf $(PYTHON_PREFIX)/rlpool/__pycache__

# wheel builds dist/rlpool-<version>-py3-none-<platform>.whl, the package with its
# library, for `pip install dist/rlpool-*.whl` into any CPython 3.9+ with numpy;
# python/build_wheel.py writes it with the standard library alone (no download).
wheel: python
	$(PYTHON) python/build_wheel.py --out dist

# test-python runs the binding's tests against the installed copy (Debian's python3
# with numpy and pytest; GO builds the tests' Go reference program).
test-python: deps python
	RLPOOL_PYTHONPATH=$(PYTHON_PREFIX) GO=$(GO) GODEBUG=cgocheck=1 $(PYTHON) -m pytest -q python/tests
