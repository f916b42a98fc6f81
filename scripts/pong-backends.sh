#!/bin/bash
# Pong-v5 PPO speed on each network backend, side by side: every round trains
# configs/pong.toml for its first 200,704 env steps once per backend, one after the
# other, so that a shared machine's drift hits all of them alike (how
# docs/benchmarks.md's backend figures are taken):
#
#   scripts/pong-backends.sh                     # go and onednn, ROUNDS=3
#   ROUNDS=2 scripts/pong-backends.sh go onednn bf16
#
# STEPS (default 200000) sets the run length. A backend is go, onednn, or bf16 (onednn
# with net.precision = bf16). Each line printed is: round, backend, wall seconds of the
# whole run, env steps. The runs go to a
# temporary folder that is removed at the end. Builds bin/train first; reads the ROMs
# from RLPOOL_ROMS (default: the repository's roms folder). Give it an otherwise idle
# machine.
set -eu
ROUNDS=${ROUNDS:-3}
STEPS=${STEPS:-200000}
ROOT=$(git rev-parse --show-toplevel)
export RLPOOL_ROMS=$(cd "${RLPOOL_ROMS:-$ROOT/roms}" && pwd)
[ $# -gt 0 ] || set -- go onednn
cd "$ROOT"
make -s build
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for r in $(seq "$ROUNDS"); do
	for b in "$@"; do
		case $b in
		go | onednn) set_backend=(-set "net.backend=$b") ;;
		bf16) set_backend=(-set net.backend=onednn -set net.precision=bf16) ;;
		*)
			echo "pong-backends: unknown backend $b (use go, onednn or bf16)" >&2
			exit 2
			;;
		esac
		start=$(date +%s.%N)
		bin/train -config configs/pong.toml -set run.total_steps="$STEPS" "${set_backend[@]}" \
			-set run.checkpoint_interval=0 -set run.stop_at_target=false \
			-set run.dir="$OUT" -set run.name="$b-$r" >"$OUT/$b-$r.log" 2>&1
		end=$(date +%s.%N)
		steps=$(grep -o 'steps=[0-9]*' "$OUT/$b-$r.log" | tail -1 | cut -d= -f2)
		awk -v r="$r" -v b="$b" -v s="$start" -v e="$end" -v n="$steps" \
			'BEGIN { printf "%d %s %.1f s %s steps\n", r, b, e - s, n }'
	done
done
