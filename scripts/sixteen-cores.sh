#!/bin/bash
# The 16-core figures of docs/benchmarks.md in one script: Pong-v5 pool throughput, the Nature
# CNN training step (fused ops against stock Gorgonia), and PPO and IMPALA on Pong-v5
# for a fixed wall time each. Build on any machine, run on the 16-core one:
#
#   mkdir -p .device/roms && cp "$RLPOOL_ROMS/pong.bin" .device/roms/
#   CGO_ENABLED=0 go build -ldflags='-s -w' -gcflags=github.com/rlpool/rlpool/envs/atari/vcs=-l=4 -o .device/train ./cmd/train
#   CGO_ENABLED=0 go test -c -ldflags='-s -w' -o .device/nn.test ./agent/nn
#   gzip -f .device/train .device/nn.test
#   OUT=/tmp/out scripts/sixteen-cores.sh         # on the 16-core machine (needs OpenBLAS)
#
# TRAIN_SECONDS sets each training run's wall time (default 180). Results land in $OUT:
# log.txt (everything printed) and runs.tgz (both runs' directories, checkpoints left out).
set -u
D=${DEVICE_DIR:-.device}
TRAIN_SECONDS=${TRAIN_SECONDS:-180}
OUT=${OUT:?set OUT to the folder for results}
mkdir -p "$OUT" /tmp/r16
exec > >(tee "$OUT/log.txt") 2>&1

for f in train nn.test; do
	[ -f "$D/$f.gz" ] && gunzip -f "$D/$f.gz"
	chmod +x "$D/$f"
done
export RLPOOL_ROMS=$(cd "$D" && pwd)/roms
if ! ldconfig -p | grep -q 'libopenblas.so.0 '; then
	lib=$(find / -name 'libopenblas*.so*' -not -path '*/proc/*' 2>/dev/null | grep -v 64_ | head -1)
	[ -n "$lib" ] && export RLPOOL_OPENBLAS=$lib
fi

echo "== machine"
date -u
nproc
lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Core|Socket|NUMA node\(s\)' || true
ldconfig -p | grep -i openblas || echo "OpenBLAS: ${RLPOOL_OPENBLAS:-not found}"

echo "== Pong-v5 pool throughput, 16 threads (async, 48 envs, batches of 16)"
"$D/train" bench -task Pong-v5 -num-envs 48 -batch-size 16 -threads 16 -seconds 3 -repeat 3 -json
echo "== Pong-v5 pool throughput, 16 threads (sync, 16 envs)"
"$D/train" bench -task Pong-v5 -num-envs 16 -threads 16 -seconds 3 -repeat 3 -no-loop -json
echo "== Pong-v5 pool throughput, the 2-core machine's 2-thread setting"
"$D/train" bench -task Pong-v5 -num-envs 12 -batch-size 4 -threads 2 -seconds 3 -repeat 3 -json

echo "== Nature CNN: fused ops against stock Gorgonia"
timeout 150 "$D/nn.test" -test.run XXX -test.bench NatureCNN -test.benchtime 5x -test.count 2

echo "== PPO Pong-v5 (configs/pong.toml) for ${TRAIN_SECONDS}s"
timeout -s INT "$TRAIN_SECONDS" "$D/train" -config configs/pong.toml -set run.dir=/tmp/r16 -set run.checkpoint_interval=100000000
"$D/train" runs show /tmp/r16/pong-* 2>&1 | head -40

echo "== IMPALA Pong-v5 (configs/impala-pong.toml, 2 actors) for ${TRAIN_SECONDS}s"
timeout -s INT "$TRAIN_SECONDS" "$D/train" -config configs/impala-pong.toml -set run.dir=/tmp/r16 -set impala.num_actors=2 -set run.checkpoint_interval=100000000
"$D/train" runs show /tmp/r16/impala-pong-* 2>&1 | head -40

tar -C /tmp/r16 --exclude=checkpoints -czf "$OUT/runs.tgz" .
echo "== done $(date -u)"
