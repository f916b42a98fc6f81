#!/bin/bash
# Side-by-side comparison of the learners' and the engine's speed between an earlier
# commit and the working tree, alternating the two builds round by round in one script
# so that a shared machine's drift hits both alike:
#
#   scripts/ab-learners.sh 99713a1            # BASE commit; ROUNDS=3 by default
#
# Each round runs, for BASE then the working tree:
#   - BenchmarkNatureCNN's training step (batch 256: forward, backward, Adam) on the Go
#     kernels and on oneDNN, ms per step;
#   - BenchmarkPPOMinibatchStep with OpenBLAS (a PPO minibatch update of the 64-64 tanh
#     MLP at CartPole's and Ant's sizes);
#   - `train bench -task Pong-v5 -num-envs 12 -batch-size 4 -threads 2` (pool frames/s);
#   - with TRAIN=1 (the default), short PPO runs of the bundled pong and ant configs
#     (TRAIN_STEPS env steps each, default 40960): env steps per second of the whole run.
# Give it an otherwise idle machine. Reads the ROMs from RLPOOL_ROMS (default: the
# repository's roms folder).
set -eu
BASE=${1:?usage: scripts/ab-learners.sh BASE_COMMIT}
ROUNDS=${ROUNDS:-3}
TRAIN=${TRAIN:-1}
TRAIN_STEPS=${TRAIN_STEPS:-40960}
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

# The Go kernels' sub-benchmarks were named fast before the backends had names.
pattern() {
	if "$W/$1-nn.test" -test.run '^$' -test.bench 'NatureCNN/train-b256/go$' -test.benchtime 1x 2>/dev/null | grep -q ms/step; then
		echo 'NatureCNN/train-b256/(go|onednn)$'
	else
		echo 'NatureCNN/train-b256/fast$'
	fi
}

# steps_per_second prints a finished run's env steps over its wall time (the last row
# of its metrics.csv).
steps_per_second() {
	python3 - "$1" <<'PY'
import csv, glob, sys
rows = list(csv.DictReader(open(glob.glob(sys.argv[1] + "/*/metrics.csv")[0])))
print("%.0f" % (float(rows[-1]["env_steps"]) / float(rows[-1]["wall_s"])))
PY
}

train_run() { # side config
	local dir=$W/runs-$1-$2-$r
	RLPOOL_ROMS=$ROMS "$W/$1-train" -config "$2" -set run.dir="$dir" -set run.total_steps="$TRAIN_STEPS" \
		-set run.checkpoint_interval=0 -set run.stop_at_target=false >/dev/null 2>&1
	printf '%s %s steps/s  ' "$2" "$(steps_per_second "$dir")"
}

base_pattern=$(pattern base)
new_pattern=$(pattern new)

echo "BASE = $(git -C "$ROOT" rev-parse --short "$BASE"), new = working tree of $(git -C "$ROOT" rev-parse --short HEAD)"
for r in $(seq "$ROUNDS"); do
	for side in base new; do
		cnn=$(cd "$ROOT/agent/nn" && "$W/$side-nn.test" -test.run '^$' -test.bench "$([ $side = base ] && echo "$base_pattern" || echo "$new_pattern")" -test.benchtime 5x |
			awk '/^BenchmarkNatureCNN/ {n=$1; sub(/^BenchmarkNatureCNN\/train-b256\//, "", n); sub(/-[0-9]+$/, "", n);
				for (i = 2; i < NF; i++) if ($(i+1) == "ms/step") printf "cnn-%s %s ms  ", n, $i}')
		mlp=$(cd "$ROOT/agent/ppo" && "$W/$side-ppo.test" -test.run '^$' -test.bench 'PPOMinibatchStep/.*/openblas' -test.benchtime 100x |
			awk '/^BenchmarkPPOMinibatchStep/ {n=$1; sub(/^BenchmarkPPOMinibatchStep\//, "", n); sub(/\/.*/, "", n); printf "ppo-%s %.3f ms  ", n, $3/1e6}')
		pool=$(RLPOOL_ROMS=$ROMS "$W/$side-train" bench -task Pong-v5 -num-envs 12 -batch-size 4 -threads 2 -json |
			python3 -c 'import json,sys; d=json.load(sys.stdin); print("pong pool %.0f frames/s" % d["frames_per_sec"])')
		runs=""
		if [ "$TRAIN" = 1 ]; then
			runs=$(train_run $side pong; train_run $side ant)
		fi
		printf 'round %d %-4s | %s%s| %s | %s\n' "$r" "$side" "$cnn" "$mlp" "$pool" "$runs"
	done
done
