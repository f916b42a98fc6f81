#!/bin/bash
# Side-by-side comparison of the learners' speed between an earlier commit and the
# working tree, alternating the two builds round by round in one script so that a
# shared machine's drift hits both alike:
#
#   docs/ab-learners.sh 4225de5            # BASE commit; ROUNDS=3 by default
#
# Each round runs, for BASE then the working tree:
#   - BenchmarkNatureCNN's pure-Go fused sub-benchmarks (a training step at batch 256:
#     forward, backward, Adam; inference at batch 16), ms per step;
#   - BenchmarkPPOMinibatchStep with OpenBLAS (a PPO minibatch update of the 64-64 tanh
#     MLP at CartPole's and Ant's sizes), the path the vector tasks train on;
#   - `train bench -task Pong-v5 -num-envs 12 -batch-size 4 -threads 2` (pool frames/s).
# Give it an otherwise idle machine. Reads the ROMs from RLPOOL_ROMS (default: the
# repository's roms folder).
set -eu
BASE=${1:?usage: docs/ab-learners.sh BASE_COMMIT}
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
	(cd "$src" && go test -c -o "$W/$side-nn.test" ./agent/nn/ && go test -c -o "$W/$side-ppo.test" ./agent/ppo/ &&
		CGO_ENABLED=0 go build $FLAGS -o "$W/$side-train" ./cmd/train)
done

# The fused sub-benchmarks were named fast before the backends had names.
pattern() { if [ "$1" = base ]; then echo 'NatureCNN/.*/fast$'; else echo 'NatureCNN/.*/go$'; fi; }

echo "BASE = $(git -C "$ROOT" rev-parse --short "$BASE"), new = working tree of $(git -C "$ROOT" rev-parse --short HEAD)"
for r in $(seq "$ROUNDS"); do
	for side in base new; do
		cnn=$(cd "$ROOT/agent/nn" && "$W/$side-nn.test" -test.run '^$' -test.bench "$(pattern $side)" -test.benchtime 5x |
			awk '/^BenchmarkNatureCNN/ {n=$1; sub(/^BenchmarkNatureCNN\//, "", n); sub(/-[0-9]+$/, "", n); sub(/\/.*/, "", n);
				for (i = 2; i < NF; i++) if ($(i+1) == "ms/step") printf "%s %s ms  ", n, $i}')
		mlp=$(cd "$ROOT/agent/ppo" && "$W/$side-ppo.test" -test.run '^$' -test.bench 'PPOMinibatchStep/.*/openblas' -test.benchtime 100x |
			awk '/^BenchmarkPPOMinibatchStep/ {n=$1; sub(/^BenchmarkPPOMinibatchStep\//, "", n); sub(/\/.*/, "", n); printf "ppo-%s %.3f ms  ", n, $3/1e6}')
		pool=$(RLPOOL_ROMS=$ROMS "$W/$side-train" bench -task Pong-v5 -num-envs 12 -batch-size 4 -threads 2 -json |
			python3 -c 'import json,sys; d=json.load(sys.stdin); print("pong pool %.0f frames/s" % d["frames_per_sec"])')
		printf 'round %d %-4s | %s%s| %s\n' "$r" "$side" "$cnn" "$mlp" "$pool"
	done
done
