#!/bin/bash
# Side-by-side comparison of the Atari emulator and the Pong-v5 pool between an earlier
# commit and the working tree, alternating the two builds in one script so that the
# shared machine's drift hits both alike (how docs/benchmarks.md's build-to-build
# figures are taken):
#
#   scripts/ab-emulator.sh d45951f            # BASE commit; ROUNDS=3 by default
#
# Each round runs, for BASE then the working tree: the one-core frame benchmarks of
# `make bench-emu` (Pong, Breakout, Space Invaders: frames/s, one run each) and
# `train bench -task Pong-v5 -num-envs 12 -batch-size 4 -threads 2` (pool frames/s,
# the single-goroutine loop, and the ratio to 2 x ALE's 18,828 frames/s). POOL_ONLY=1
# skips the frame benchmarks, so that more pool rounds fit in the minutes during which
# a shared VM's vCPUs all run at full speed. Give it an otherwise idle machine. Reads
# the ROMs from RLPOOL_ROMS (default: the repository's roms folder).
set -eu
BASE=${1:?usage: scripts/ab-emulator.sh BASE_COMMIT}
ROUNDS=${ROUNDS:-3}
ROOT=$(git rev-parse --show-toplevel)
ROMS=$(cd "${RLPOOL_ROMS:-$ROOT/roms}" && pwd)
W=$(mktemp -d)
trap 'git -C "$ROOT" worktree remove --force "$W/base" >/dev/null 2>&1; rm -rf "$W"' EXIT
FLAGS=-gcflags=github.com/rlpool/rlpool/envs/atari/vcs=-l=4

git -C "$ROOT" worktree add --detach "$W/base" "$BASE" >/dev/null
for side in base new; do
	src=$W/base
	[ $side = new ] && src=$ROOT
	(cd "$src" && go test -c -o "$W/$side-vcs.test" $FLAGS ./envs/atari/vcs/ &&
		CGO_ENABLED=0 go build $FLAGS -o "$W/$side-train" ./cmd/train)
done

echo "BASE = $(git -C "$ROOT" rev-parse --short "$BASE"), new = working tree of $(git -C "$ROOT" rev-parse --short HEAD)"
for r in $(seq "$ROUNDS"); do
	for side in base new; do
		frames=
		[ "${POOL_ONLY:-0}" = 1 ] || frames=$(cd "$ROOT/envs/atari/vcs" && RLPOOL_ROMS=$ROMS "$W/$side-vcs.test" -test.run '^$' \
			-test.bench Frame -test.benchtime 5000x | awk '/^Benchmark/ {sub(/^BenchmarkFrame/, "", $1); sub(/-[0-9]+$/, "", $1); printf "%s %s  ", $1, $5}')
		pool=$(RLPOOL_ROMS=$ROMS "$W/$side-train" bench -task Pong-v5 -num-envs 12 -batch-size 4 -threads 2 -json |
			python3 -c 'import json,sys; d=json.load(sys.stdin); f=d["frames_per_sec"]; print("pool %.0f loop %.0f = %.3fx of 2 x ALE" % (f, d["loop_frames_per_sec"], f/37656))')
		printf 'round %d %-4s | %s| %s\n' "$r" "$side" "$frames" "$pool"
	done
done
