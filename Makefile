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

# Debian packages: OpenBLAS for the learners, libmujoco for the MuJoCo tasks.
APT_PACKAGES := libopenblas0-pthread libmujoco2.2.2

.PHONY: all build train test deps vet bench clean

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
	CGO_ENABLED=0 $(GO) build -o bin/train ./cmd/train

# train runs the main job on the default config (override with CONFIG=...).
train: deps build
	./bin/train -config $(CONFIG)

vet:
	$(GO) vet ./...

# test runs vet, the whole suite, and the race detector over the engine and the
# IMPALA actor-learner (its actors and learner share weight snapshots and a queue).
test: deps vet
	$(GO) test ./...
	$(GO) test -race ./envpool/... ./agent/impala/...

bench: build
	$(GO) test -run '^$$' -bench . -benchtime 2000x ./envpool/

clean:
	rm -rf bin
