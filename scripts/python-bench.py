"""Steps per second of rlpool pools driven from Python, against `train bench` with the
same options, alternated round by round (the machine is shared: compare within a run).

    make build python
    RLPOOL_ROMS=... PYTHONPATH=.python /usr/bin/python3 scripts/python-bench.py --rounds 3

For each case it prints the Python loop's rate (random actions from numpy, send then
recv, fresh arrays), `train bench`'s pool rate, their ratio, and the microseconds per
step each side takes; for CartPole-v1 with one env the difference is the cost of the
Python boundary per step.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

import rlpool

CASES = [
    # task, num_envs, batch_size, threads
    ("Pong-v5", 32, 16, 2),  # async: Python's work on one batch overlaps the other's steps
    ("Pong-v5", 16, 16, 2),  # sync: every microsecond in Python is a microsecond the envs wait
    ("Pong-v5", 32, 16, 1),  # one env thread: the Python thread has a core of its own on two
    ("CartPole-v1", 16, 16, 2),
    ("CartPole-v1", 1, 1, 1),
]


def python_rate(task, n, b, threads, seconds, warmup=1.0):
    """Env steps per second of a send/recv loop with random actions."""
    with rlpool.make(task, num_envs=n, batch_size=b, num_threads=threads, seed=1) as pool:
        rng = np.random.default_rng(0)
        space = pool.action_space
        if hasattr(space, "n"):
            acts = rng.integers(0, space.n, size=(1024, b))
        else:
            acts = rng.uniform(space.low, space.high, size=(1024, b) + space.shape).astype(np.float32)
        pool.async_reset()
        _, _, _, _, info = pool.recv()
        i, steps, t0, start = 0, 0, time.perf_counter(), None
        while True:
            now = time.perf_counter()
            if start is None and now - t0 >= warmup:
                start, steps = now, 0
            if start is not None and now - start >= seconds:
                return steps / (now - start)
            pool.send(acts[i % 1024], info["env_id"])
            _, _, _, _, info = pool.recv()
            steps += b
            i += 1


def go_rate(train, task, n, b, threads, seconds):
    """Env steps per second of the pool in `train bench` (median of its own repeats)."""
    out = subprocess.run(
        [train, "bench", "-task", task, "-num-envs", str(n), "-batch-size", str(b), "-threads", str(threads),
         "-seconds", str(seconds), "-repeat", "1", "-no-loop", "-json"],
        check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["steps_per_sec"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--task", default="", help="only the cases of this task")
    ap.add_argument("--train", default=os.path.join(os.path.dirname(__file__), "..", "bin", "train"))
    args = ap.parse_args()
    tasks = set(rlpool.list_all_envs())
    for task, n, b, threads in CASES:
        if task not in tasks or args.task and task != args.task:
            continue
        try:
            rlpool.make(task).close()
        except (ValueError, RuntimeError) as e:
            print("%s: skipped (%s)" % (task, e))
            continue
        py, go = [], []
        for _ in range(args.rounds):
            py.append(python_rate(task, n, b, threads, args.seconds))
            go.append(go_rate(args.train, task, n, b, threads, args.seconds))
        p, g = statistics.median(py), statistics.median(go)
        print("%s num_envs=%d batch_size=%d threads=%d: python %s, train bench %s steps/s (medians of %d alternated rounds); "
              "ratio %.2f; %.2f us per step from Python, %.2f us in Go, difference %.2f us"
              % (task, n, b, threads, " / ".join("%.0f" % x for x in py), " / ".join("%.0f" % x for x in go),
                 args.rounds, p / g, 1e6 / p, 1e6 / g, 1e6 / p - 1e6 / g))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
