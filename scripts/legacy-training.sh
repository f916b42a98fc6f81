#!/bin/bash
# Training scripts written for EnvPool 0.6 (gym 0.23: reset returns obs, step a
# 4-tuple), run on rlpool.legacy with only their import changed:
#
#   scripts/legacy-training.sh ATARI_PPO.py MUJOCO_PPO.py
#
# ATARI_PPO.py is a CleanRL-style Atari PPO script (CleanRL v1.0.0's
# cleanrl/ppo_atari_envpool.py), MUJOCO_PPO.py a MuJoCo one (ppo_continuous_action_envpool.py
# of vwxyzjn/envpool-cleanrl); both take CleanRL's flags. Each is copied to a temporary
# folder, its `import envpool` line becomes `import rlpool.legacy as envpool` (the diff
# is printed), and it trains for STEPS env steps (default 8192) with NUM_ENVS envs
# (default 4) and NUM_STEPS steps per rollout (default 128) on the CPU. One line per
# script gives its exit status, steps, SPS and episode returns; the script fails if
# either run fails. TIMEOUT (seconds, default 1200) bounds each run.
#
# It builds the Python package (make python) and installs the Debian packages it needs
# (make deps, and python3-torch). Debian packages neither gym nor tensorboard: when one
# does not import, a stand-in from scripts/legacy-standins takes its place (gym's
# Wrapper, wrappers and spaces; torch.utils.tensorboard's SummaryWriter writing TSV
# files), and a line says so. ROMs come from RLPOOL_ROMS (default: the repository's
# roms folder).
set -eu
if [ $# -ne 2 ]; then
	echo "usage: $0 ATARI_PPO.py MUJOCO_PPO.py (training scripts written for EnvPool 0.6)" >&2
	exit 2
fi
for f in "$@"; do
	[ -f "$f" ] || { echo "$0: $f: no such file; give the paths of the two training scripts" >&2; exit 2; }
done
STEPS=${STEPS:-8192}
NUM_ENVS=${NUM_ENVS:-4}
NUM_STEPS=${NUM_STEPS:-128}
PY=${PYTHON:-/usr/bin/python3}
atari=$(realpath "$1")
mujoco=$(realpath "$2")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export RLPOOL_ROMS=$(cd "${RLPOOL_ROMS:-$ROOT/roms}" && pwd)
cd "$ROOT"
make -s deps python
make -s deps APT_PACKAGES=python3-torch

pypath=$ROOT/.python
if ! "$PY" -c 'import gym' 2>/dev/null; then
	echo "stand-in: no gym package; the scripts' gym (Env, Wrapper, wrappers, spaces) is scripts/legacy-standins/gym"
	pypath=$pypath:$ROOT/scripts/legacy-standins/gym
fi
if ! "$PY" -c 'import tensorboard' 2>/dev/null; then
	echo "stand-in: no tensorboard package; torch.utils.tensorboard's SummaryWriter is scripts/legacy-standins/tensorboard (TSV files)"
	pypath=$pypath:$ROOT/scripts/legacy-standins/tensorboard
fi
echo "python: $("$PY" -c 'import sys, torch, numpy; print(sys.version.split()[0], "torch", torch.__version__, "numpy", numpy.__version__)')"

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
failed=0

# run NAME SCRIPT FLAGS...: train one script and print its summary line.
run() {
	local name=$1 src=$2 dir=$OUT/$1 script rc
	shift 2
	mkdir "$dir"
	script=$dir/$(basename "$src")
	sed 's/^import envpool$/import rlpool.legacy as envpool/' "$src" >"$script"
	if ! grep -qx 'import rlpool.legacy as envpool' "$script"; then
		echo "$name: $src has no line 'import envpool'; is it written for EnvPool?"
		failed=1
		return
	fi
	echo "$name: $src, changed:"
	diff "$src" "$script" | sed 's/^/  /' || true
	rc=0
	(cd "$dir" && PYTHONPATH=$pypath timeout "${TIMEOUT:-1200}" "$PY" "$script" "$@") >"$dir/log" 2>&1 || rc=$?
	local updates sps episodes last
	updates=$(grep -c '^SPS:' "$dir/log" || true)
	sps=$(grep '^SPS:' "$dir/log" | awk '{print $2}' | paste -sd' ' -)
	episodes=$(grep -c 'episodic_return=' "$dir/log" || true)
	last=$(grep 'episodic_return=' "$dir/log" | tail -1 | sed 's/.*episodic_return=//')
	echo "$name: exit $rc, $((updates * NUM_ENVS * NUM_STEPS)) steps in $updates updates, SPS per update: ${sps:-none}; $episodes episodes${last:+, last return $last}"
	if [ "$rc" -ne 0 ]; then
		tail -20 "$dir/log" | sed 's/^/  /'
		failed=1
	fi
}

common=(--total-timesteps "$STEPS" --num-envs "$NUM_ENVS" --num-steps "$NUM_STEPS" --cuda False --track False)
run atari "$atari" --env-id Pong-v5 "${common[@]}"
run mujoco "$mujoco" --env-id HalfCheetah-v4 "${common[@]}"
exit "$failed"
