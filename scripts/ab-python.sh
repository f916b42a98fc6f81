#!/bin/bash
# Side-by-side comparison of the Python package's step rate between an earlier commit
# and the working tree: a send/recv loop with random actions from Python, for Pong-v5
# and Ant-v4 (async, 32 envs in batches of 16, 2 env threads), each build's package in
# its own interpreter, alternating the two builds round by round so that a shared
# machine's drift hits both alike:
#
#   scripts/ab-python.sh 99713a1            # BASE commit; ROUNDS=5, SECONDS_PER=3 by default
#
# Prints each round's env steps per second and, at the end, the medians and the ratio
# new/base per task. Give it an otherwise idle machine. Reads ROMs from RLPOOL_ROMS.
set -eu
BASE=${1:?usage: scripts/ab-python.sh BASE_COMMIT}
ROUNDS=${ROUNDS:-5}
SECONDS_PER=${SECONDS_PER:-3}
ROOT=$(git rev-parse --show-toplevel)
export RLPOOL_ROMS=$(cd "${RLPOOL_ROMS:-$ROOT/roms}" && pwd)
W=$(mktemp -d)
trap 'git -C "$ROOT" worktree remove --force "$W/base" >/dev/null 2>&1; rm -rf "$W"' EXIT

git -C "$ROOT" worktree add --detach "$W/base" "$BASE" >/dev/null
for side in base new; do
	src=$W/base
	[ $side = new ] && src=$ROOT
	(cd "$src" && make -s python PYTHON_PREFIX="$W/$side" >/dev/null)
done

cat >"$W/loop.py" <<'PY'
import sys, time
import numpy as np
import rlpool

task, seconds = sys.argv[1], float(sys.argv[2])
with rlpool.make(task, num_envs=32, batch_size=16, num_threads=2, seed=1) as pool:
    rng = np.random.default_rng(0)
    space = pool.action_space
    if hasattr(space, "n"):
        acts = rng.integers(0, space.n, size=(256, 16))
    else:
        acts = rng.uniform(space.low, space.high, size=(256, 16) + tuple(space.shape)).astype(space.dtype)
    pool.async_reset()
    info = pool.recv()[-1]
    i, steps, t0, start = 0, 0, time.perf_counter(), None
    while True:
        now = time.perf_counter()
        if start is None and now - t0 >= 1.0:  # one second of warm-up
            start, steps = now, 0
        if start is not None and now - start >= seconds:
            print("%.0f" % (steps / (now - start)))
            break
        pool.send(acts[i % 256], info["env_id"])
        info = pool.recv()[-1]
        steps += 16
        i += 1
PY

echo "BASE = $(git -C "$ROOT" rev-parse --short "$BASE"), new = working tree of $(git -C "$ROOT" rev-parse --short HEAD)"
for r in $(seq "$ROUNDS"); do
	for task in Pong-v5 Ant-v4; do
		for side in base new; do
			rate=$(PYTHONPATH="$W/$side" /usr/bin/python3 "$W/loop.py" "$task" "$SECONDS_PER")
			echo "round $r $task $side $rate steps/s" | tee -a "$W/rates"
		done
	done
done
python3 - "$W/rates" <<'PY'
import statistics, sys
rates = {}
for line in open(sys.argv[1]):
    _, _, task, side, rate, _ = line.split()
    rates.setdefault((task, side), []).append(float(rate))
for task in sorted({t for t, _ in rates}):
    b, n = statistics.median(rates[(task, "base")]), statistics.median(rates[(task, "new")])
    print("%s: base median %.0f, new median %.0f steps/s, new/base %.3f" % (task, b, n, n / b))
PY
