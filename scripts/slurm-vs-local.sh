#!/usr/bin/env bash
# Runs configs/sweeps/cartpole-lr-clip.toml through the local executor and through the
# local Slurm cluster, alternated (ROUNDS times each), each in a fresh folder under
# $OUT, and prints the wall times. Needs bin/train (make build) and root for the
# cluster, which it starts and stops.
#
#   ROUNDS=2 OUT=/tmp/slurm-vs-local scripts/slurm-vs-local.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-2}
OUT=${OUT:-/tmp/slurm-vs-local}
BIN=$PWD/bin/train
SWEEP=$PWD/configs/sweeps/cartpole-lr-clip.toml
scripts/slurm-local.sh start >/dev/null
trap 'scripts/slurm-local.sh stop >/dev/null' EXIT
source "${RLPOOL_SLURM_DIR:-/tmp/rlpool-slurm}/env.sh"
for r in $(seq "$ROUNDS"); do
	for ex in local slurm; do
		d=$OUT/$ex-$r
		rm -rf "$d" && mkdir -p "$d"
		t0=$(date +%s.%N)
		(cd "$d" && "$BIN" sweep -config "$SWEEP" -executor "$ex" >out.txt 2>&1)
		t1=$(date +%s.%N)
		echo "$ex round $r: wall $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}') s ($d/out.txt)"
	done
done
