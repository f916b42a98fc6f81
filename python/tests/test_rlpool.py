"""Tests of rlpool's Python binding against the Go engine.

The trajectory tests run the same pools through a small Go program (gotrace, next to
this file; built once per session with `go build`) and through rlpool, with the same
seeds and a deterministic action rule, and compare every row.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import pytest

import rlpool

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


# -- helpers ---------------------------------------------------------------------------


def roms_dir():
    """Return the ROM folder when it has Pong's ROM, else None."""
    d = os.environ.get("RLPOOL_ROMS")
    if d and os.path.exists(os.path.join(d, "pong.bin")):
        return d
    return None


def make_or_skip(task, **kw):
    """Make a pool; skip the test when the task's runtime dependency is missing."""
    if task in ("Pong-v5", "Breakout-v5") and roms_dir() is None:
        pytest.skip("Pong-v5 needs ALE's ROMs: set RLPOOL_ROMS to a folder with pong.bin")
    try:
        return rlpool.make(task, **kw)
    except RuntimeError as e:
        if "mujoco" in str(e).lower():
            pytest.skip("MuJoCo task needs libmujoco.so.2.2.2 (package libmujoco2.2.2): %s" % e)
        raise


def rule_actions(space, env_ids, counts):
    """The deterministic action rule shared with gotrace (see its doc comment)."""
    if hasattr(space, "n"):
        return np.array([(7 * counts[e] + 3 * e) % space.n for e in env_ids], dtype=np.int64)
    lo = space.low.reshape(-1).astype(np.float64)
    hi = space.high.reshape(-1).astype(np.float64)
    out = np.empty((len(env_ids), lo.size), dtype=np.float32)
    for i, e in enumerate(env_ids):
        for j in range(lo.size):
            v = ((7 * counts[e] + 3 * e + 5 * j) % 11) / 10
            out[i, j] = np.float32(float(lo[j]) + (float(hi[j]) - float(lo[j])) * v)
    return out.reshape((len(env_ids),) + space.shape)


def row_record(obs, rew, term, trunc, info, i, keys, obs_dtype):
    """One row as gotrace prints it; obs_dtype is the engine's (float32 where the pool
    returns EnvPool's float64: the conversion is exact, so the bytes hash the same)."""
    return {
        "env_id": int(info["env_id"][i]),
        "reward_bits": int(np.float32(rew[i]).view(np.uint32)),
        "terminated": bool(term[i]),
        "truncated": bool(trunc[i]),
        "elapsed": int(info["elapsed_step"][i]),
        "obs_sha256": hashlib.sha256(np.ascontiguousarray(obs[i], dtype=obs_dtype).tobytes()).hexdigest(),
        "info": [float(np.float32(v)) for k in keys for v in np.atleast_1d(info[k][i])],
    }


@pytest.fixture(scope="session")
def gotrace():
    """Build the Go reference program once; skip when Go is not available."""
    go = os.environ.get("GO", "go")
    if shutil.which(go) is None:
        pytest.skip("the trajectory tests need Go to build python/tests/gotrace (set GO)")
    out = os.path.join(tempfile.mkdtemp(prefix="rlpool-gotrace-"), "gotrace")
    subprocess.run([go, "build", "-o", out, "./python/tests/gotrace"], cwd=REPO, check=True)
    return out


def info_columns(pool):
    """The info keys the pool returns in info (the others are a dm TimeStep's), each with
    the indexes of its columns among the engine's (one for a scalar, an array's length
    for an array key such as Atari's ram)."""
    out, at = [], 0
    for k, n in zip(pool.spec.info_keys, pool.spec.info_lens):
        if k not in ("discount", "step_type"):
            out.append((list(range(at, at + n)), k))
        at += n
    return out


def go_rows(gotrace, task, num_envs, batch, threads, seed, recvs, max_steps=0, options=None, columns=None):
    cmd = [gotrace, "-task", task, "-num-envs", str(num_envs), "-batch-size", str(batch),
           "-threads", str(threads), "-seed", str(seed), "-recvs", str(recvs),
           "-max-episode-steps", str(max_steps), "-options", json.dumps(options or {})]
    res = subprocess.run(cmd, capture_output=True, text=True, check=True)
    rows = []
    for line in res.stdout.splitlines():
        r = json.loads(line)
        r.pop("recv")
        r["info"] = [float(np.float32(x)) for j, x in enumerate(r["info"] or []) if columns is None or j in columns]
        rows.append(r)
    return rows


def py_rows(pool, recvs, sync):
    """Drive pool with the action rule: step() in sync mode, send/recv with ids otherwise."""
    keys = [k for _, k in info_columns(pool)]
    obs_dtype = np.dtype(pool.spec.raw["obs_dtype"])
    counts = [0] * pool.num_envs
    rows = []
    if sync:
        obs, info = pool.reset()
        rew = np.zeros(pool.num_envs, np.float32)
        term = trunc = np.zeros(pool.num_envs, bool)
    else:
        pool.async_reset()
        obs, rew, term, trunc, info = pool.recv()
    for r in range(recvs + 1):
        ids = [int(e) for e in info["env_id"]]
        rows += [row_record(obs, rew, term, trunc, info, i, keys, obs_dtype) for i in range(len(ids))]
        if r == recvs:
            break
        acts = rule_actions(pool.action_space, ids, counts)
        for e in ids:
            counts[e] += 1
        if sync:
            assert ids == list(range(pool.num_envs))
            obs, rew, term, trunc, info = pool.step(acts)
        else:
            pool.send(acts, info["env_id"])
            obs, rew, term, trunc, info = pool.recv()
    return rows


def by_env(rows):
    out = {}
    for r in rows:
        out.setdefault(r["env_id"], []).append(r)
    return out


# -- tasks, spaces, specs --------------------------------------------------------------

TASKS = [
    # task, options, obs dtype, action kind, info keys it must have
    ("CartPole-v1", {}, np.float32, "discrete"),
    ("Pendulum-v1", {}, np.float32, "box"),
    ("Hopper-v4", {}, np.float64, "box"),  # MuJoCo's doubles, as EnvPool returns them
    ("Pong-v5", {}, np.uint8, "discrete"),
]


def test_list_all_envs():
    ids = rlpool.list_all_envs()
    for t in ("CartPole-v1", "Pendulum-v1", "Hopper-v4", "Pong-v5"):
        assert t in ids
    assert ids == sorted(ids) and len(ids) > 100
    assert rlpool.version().startswith("rlpool-capi")


@pytest.mark.parametrize("task,opts,dtype,kind", TASKS)
def test_family_spaces_and_step(task, opts, dtype, kind):
    with make_or_skip(task, num_envs=3, seed=5, **opts) as pool:
        spec = pool.spec.raw
        obs_space, act_space = pool.observation_space, pool.action_space
        assert obs_space.shape == tuple(spec["obs_shape"]) and obs_space.dtype == dtype
        assert pool.config["num_envs"] == 3 and pool.config["batch_size"] == 3
        assert pool.config["seed"] == 5 and pool.config["task_id"] == task
        if kind == "discrete":
            assert act_space.n == spec["action_space"]["n"] > 1
        else:
            assert act_space.shape == tuple(spec["action_space"]["shape"])
            assert act_space.dtype == (np.float64 if dtype == np.float64 else np.float32)
            assert np.all(act_space.low < act_space.high)
        obs, info = pool.reset()
        assert obs.shape == (3,) + obs_space.shape and obs.dtype == dtype
        assert set(info) == {"env_id", "players", "elapsed_step"} | {k for _, k in info_columns(pool)}
        np.testing.assert_array_equal(info["env_id"], [0, 1, 2])
        np.testing.assert_array_equal(info["players"]["env_id"], [0, 1, 2])
        np.testing.assert_array_equal(info["elapsed_step"], [0, 0, 0])
        for cols, k in info_columns(pool):
            shape = (3,) if len(cols) == 1 else (3, len(cols))
            assert info[k].shape == shape and info[k].dtype == pool.spec.info_dtype(k)
        for step in range(1, 6):
            act = np.stack([act_space.sample() for _ in range(3)])
            if kind == "discrete":
                act = act.astype(np.int64)
            obs, rew, term, trunc, info = pool.step(act)
            assert obs.shape == (3,) + obs_space.shape and obs.dtype == dtype
            assert rew.shape == (3,) and rew.dtype == np.float32
            assert term.dtype == np.bool_ and trunc.dtype == np.bool_
            assert info["env_id"].dtype == np.int32
            if not (term.any() or trunc.any()):
                np.testing.assert_array_equal(info["elapsed_step"], [step] * 3)
            if dtype != np.uint8 and np.isfinite(obs_space.low).all():
                assert np.all(obs >= obs_space.low) and np.all(obs <= obs_space.high)


def test_family_specifics():
    with rlpool.make("CartPole-v1") as p:
        assert p.spec.reward_threshold == 475 and p.spec.max_episode_steps == 500
        assert p.spec.render_fps == 50  # Gymnasium's metadata["render_fps"]
        assert p.action_space.n == 2 and p.observation_space.shape == (4,)
    with rlpool.make("Pendulum-v1", g=9.81) as p:
        assert p.spec.reward_threshold is None and p.action_space.shape == (1,)
        np.testing.assert_array_equal(p.action_space.low, [-2.0])
        np.testing.assert_array_equal(p.observation_space.high, [1.0, 1.0, 8.0])
    if roms_dir():
        with rlpool.make("Pong-v5", num_envs=2, frame_skip=4, stack_num=4) as p:
            assert p.observation_space.shape == (4, 84, 84)
            assert p.action_space.n == 6 and "lives" in p.spec.info_keys
            assert p.spec.max_episode_steps == 27000
            assert p.spec.render_fps == 15  # 60 emulated frames a second, 4 a step
        # Atari keeps its own time limit: max_episode_steps goes to the family.
        with rlpool.make("Pong-v5", max_episode_steps=100) as p:
            assert p.spec.max_episode_steps == 100


# -- trajectories identical to the Go pool's ---------------------------------------------

TRACES = [
    # task, num_envs, batch, threads, seed, recvs, max_episode_steps, family options
    ("CartPole-v1", 4, 4, 2, 3, 120, 0, {}),
    ("CartPole-v1", 6, 2, 1, 11, 150, 0, {}),
    ("Pendulum-v1", 3, 3, 2, 7, 70, 30, {}),
    ("Pendulum-v1", 5, 2, 1, 1, 90, 25, {"g": 9.5}),
    ("Hopper-v4", 3, 3, 2, 2, 60, 0, {}),
    ("Hopper-v4", 4, 2, 1, 2, 60, 0, {}),
    ("Pong-v5", 2, 2, 2, 4, 30, 0, {}),
    ("Pong-v5", 4, 2, 1, 4, 30, 0, {}),
]


@pytest.mark.parametrize("task,n,batch,threads,seed,recvs,max_steps,opts", TRACES)
def test_trajectories_match_go(gotrace, task, n, batch, threads, seed, recvs, max_steps, opts):
    sync = batch == n
    with make_or_skip(task, num_envs=n, batch_size=batch, num_threads=threads, seed=seed,
                      max_episode_steps=max_steps or None, **opts) as pool:
        mine = py_rows(pool, recvs, sync)
        columns = [j for cols, _ in info_columns(pool) for j in cols]
    ref = go_rows(gotrace, task, n, batch, threads, seed, recvs, max_steps, opts, columns)
    assert len(mine) == len(ref) == (recvs + 1) * batch
    if sync:
        for i, (a, b) in enumerate(zip(mine, ref)):
            assert a == b, "row %d differs" % i
    else:
        # Which envs fill an async batch depends on timing; each env's own sequence
        # of rows does not. Compare every env's rows over what both runs have.
        mine_env, ref_env = by_env(mine), by_env(ref)
        assert set(mine_env) == set(ref_env) == set(range(n))
        compared = 0
        for e in range(n):
            k = min(len(mine_env[e]), len(ref_env[e]))
            assert mine_env[e][:k] == ref_env[e][:k], "env %d differs" % e
            compared += k
        assert compared >= len(ref) // 2
    if max_steps:
        assert any(r["truncated"] and r["elapsed"] == max_steps for r in ref)
    assert any(r["elapsed"] == 0 for r in ref[batch:]) or task != "CartPole-v1"


# -- reset of chosen envs, auto-reset modes, gym API, zero copy ---------------------------


def test_reset_env_ids_async():
    with rlpool.make("Pendulum-v1", num_envs=4, batch_size=2, num_threads=1, seed=3) as p:
        p.async_reset()
        obs, rew, term, trunc, info = p.recv()
        for _ in range(10):
            obs, rew, term, trunc, info = p.step(np.zeros((2, 1), np.float32), info["env_id"])
        ids = info["env_id"].copy()
        assert np.all(info["elapsed_step"] > 0)
        obs, info = p.reset(ids)
        # The two envs reset are idle: recv returns them (or envs still running).
        seen = {}
        for _ in range(3):
            for i, e in enumerate(info["env_id"]):
                seen.setdefault(int(e), int(info["elapsed_step"][i]))
            if all(int(e) in seen for e in ids):
                break
            obs, rew, term, trunc, info = p.step(np.zeros((2, 1), np.float32), info["env_id"])
        for e in ids:
            assert seen[int(e)] == 0, "env %d was not reset" % e
        # After a reset, the env's steps count from 1 again.
        obs, rew, term, trunc, info = p.step(np.zeros((2, 1), np.float32), info["env_id"])
        assert np.all(info["elapsed_step"] >= 1)


def test_sync_mode_returns_the_envs_sent():
    # As in EnvPool, a sync-mode batch holds the envs sent (or reset), in send order.
    with rlpool.make("CartPole-v1", num_envs=3, seed=1) as p:
        p.reset()
        p.step(np.zeros(3, np.int64))
        obs, info = p.reset(env_id=[1])
        assert obs.shape == (1, 4)
        np.testing.assert_array_equal(info["env_id"], [1])
        np.testing.assert_array_equal(info["elapsed_step"], [0])
        obs, rew, term, trunc, info = p.step(np.zeros(2, np.int64), [2, 0])
        assert obs.shape == (2, 4) and rew.shape == (2,)
        np.testing.assert_array_equal(info["env_id"], [2, 0])
        np.testing.assert_array_equal(info["elapsed_step"], [2, 2])
        # A step of every env is a full batch in env order again.
        obs, rew, term, trunc, info = p.step(np.zeros(3, np.int64))
        np.testing.assert_array_equal(info["env_id"], [0, 1, 2])
        np.testing.assert_array_equal(info["elapsed_step"], [3, 1, 3])


def test_first_step_without_reset_is_a_seeded_reset():
    # A fresh env counts as done: its first step ignores the action and returns the
    # seeded first observation, as reset does.
    with rlpool.make("CartPole-v1", num_envs=2, seed=0) as a, rlpool.make("CartPole-v1", num_envs=2, seed=0) as b, \
            rlpool.make("CartPole-v1", num_envs=2, seed=1) as c:
        obs_reset, _ = a.reset()
        obs, rew, term, trunc, info = b.step(np.ones(2, np.int64))
        np.testing.assert_array_equal(obs, obs_reset)
        np.testing.assert_array_equal(rew, [0, 0])
        np.testing.assert_array_equal(info["elapsed_step"], [0, 0])
        assert not term.any() and not trunc.any()
        obs_c, *_ = c.step(np.ones(2, np.int64))
        assert not np.array_equal(obs_c, obs)


def test_explicit_reset_starts_a_new_game():
    # With episodic_life, reset() starts a new game every time (five lives), however
    # often it is called.
    p = make_or_skip("Breakout-v5", num_envs=1, seed=0, episodic_life=True)
    with p:
        for _ in range(8):
            obs, info = p.reset()
            assert info["lives"][0] == 5 and info["elapsed_step"][0] == 0


def test_reset_matches_seeded_start():
    # Resetting env 0 alone gives the same observation as a whole-pool reset gives a
    # pool whose env 0 had one reset before (same generator draws).
    with rlpool.make("CartPole-v1", num_envs=2, seed=9) as a, rlpool.make("CartPole-v1", num_envs=2, seed=9) as b:
        a.reset()
        b.reset()
        a.send(np.zeros(1, np.int64), [1])
        # The batch holds env 1's step and env 0's reset, in that (send) order.
        obs_a, info_a = a.reset(env_id=[0])
        np.testing.assert_array_equal(info_a["env_id"], [1, 0])
        obs_b, _ = b.reset()
        np.testing.assert_array_equal(obs_a[1], obs_b[0])


def test_same_step_auto_reset():
    with rlpool.make("CartPole-v1", num_envs=2, seed=0, auto_reset="same_step") as p:
        assert p.config["auto_reset"] == "same_step"
        p.reset()
        ends = 0
        for _ in range(200):
            obs, rew, term, trunc, info = p.step(np.ones(2, np.int64))
            for i in np.flatnonzero(term | trunc):
                ends += 1
                assert info["elapsed_step"][i] > 0 and rew[i] == 1
                assert not np.array_equal(info["final_obs"][i], obs[i])
                assert abs(info["final_obs"][i][2]) > 0.2 or abs(info["final_obs"][i][0]) > 2.4
        assert ends > 5
        obs, rew, term, trunc, info = p.step(np.ones(2, np.int64))
        assert np.all(rew == 1)


def test_gym_api():
    # EnvPool 1.x's gym pools have gymnasium's shapes; rlpool.legacy has the four-tuple.
    with rlpool.make_gym("CartPole-v1", num_envs=2) as p:
        obs, info = p.reset()
        assert obs.shape == (2, 4) and list(info["env_id"]) == [0, 1]
        assert len(p.step(np.zeros(2, np.int64))) == 5
    with rlpool.make_gymnasium("CartPole-v1", num_envs=2) as p:
        assert len(p.reset()) == 2 and len(p.step(np.zeros(2, np.int64))) == 5


def test_zero_copy_reuses_buffers():
    with rlpool.make("CartPole-v1", num_envs=2, zero_copy=True) as p:
        o1, _ = p.reset()
        first = o1.copy()
        o2, *_ = p.step(np.zeros(2, np.int64))
        assert o1 is o2 and not np.array_equal(first, o2)
    with rlpool.make("CartPole-v1", num_envs=2) as p:
        o1, _ = p.reset()
        first = o1.copy()
        o2, *_ = p.step(np.zeros(2, np.int64))
        assert o1 is not o2 and np.array_equal(o1, first)


# -- bad input ---------------------------------------------------------------------------


def test_bad_make_arguments():
    with pytest.raises(ValueError, match='unknown task "CartPol-v1"; did you mean CartPole-v1'):
        rlpool.make("CartPol-v1")
    with pytest.raises(ValueError, match="unknown option.*frobnicate.*takes: sutton_barto_reward"):
        rlpool.make("CartPole-v1", frobnicate=3)
    with pytest.raises(ValueError, match="option g: gravity must be positive"):
        rlpool.make("Pendulum-v1", g=-1.0)
    with pytest.raises(ValueError, match="batch_size = 5: must be between 1 and num_envs"):
        rlpool.make("CartPole-v1", num_envs=2, batch_size=5)
    with pytest.raises(ValueError, match="num_envs = 0"):
        rlpool.make("CartPole-v1", num_envs=0)
    with pytest.raises(ValueError, match="auto_reset"):
        rlpool.make("CartPole-v1", auto_reset="sometimes")
    with pytest.raises(ValueError, match="env_type 'dm_env' is not supported"):
        rlpool.make("CartPole-v1", env_type="dm_env")
    with pytest.raises(ValueError, match="num_envs = 2.5: want an integer"):
        rlpool.make("CartPole-v1", num_envs=2.5)


def test_bad_actions_and_ids_leave_pool_usable():
    with rlpool.make("CartPole-v1", num_envs=3) as p:
        p.reset()
        with pytest.raises(ValueError, match="must be integers.*float64"):
            p.step(np.full(3, 0.5))
        with pytest.raises(ValueError, match=r"action shape \(2,\) does not match"):
            p.step(np.zeros(2, np.int64))
        with pytest.raises(ValueError, match=r"action 5 is not in Discrete\(2\)"):
            p.step(np.array([0, 5, 1]))
        with pytest.raises(ValueError, match=r"env id 3 out of range \[0, 3\)"):
            p.send(np.zeros(1, np.int64), [3])
        with pytest.raises(ValueError, match=r"env id -1 out of range"):
            p.send(np.zeros(1, np.int64), [-1])
        with pytest.raises(ValueError, match="appears twice"):
            p.send(np.zeros(2, np.int64), [1, 1])
        with pytest.raises(ValueError, match="env_id must be an integer"):
            p.send(np.zeros(1, np.int64), [0.5])
        obs, rew, term, trunc, info = p.step(np.array([0, 1, 0]))
        np.testing.assert_array_equal(info["elapsed_step"], [1, 1, 1])
        p.send(np.zeros(1, np.int64), [0])
        with pytest.raises(ValueError, match="env 0 is still running"):
            p.send(np.zeros(1, np.int64), [0])
    with rlpool.make("Pendulum-v1", num_envs=2) as p:
        p.reset()
        with pytest.raises(ValueError, match=r"action shape \(2,\) does not match"):
            p.step(np.zeros(2, np.float32))
        with pytest.raises(ValueError, match="action element 0 is NaN"):
            p.step(np.full((2, 1), np.nan, np.float32))
        obs, *_ = p.step(np.zeros((2, 1), np.float32))
        assert obs.shape == (2, 3)


def test_control_suite_layout_and_step_types():
    """A control-suite task names the entries of its observation (one flat array with
    flat_obs) and reports dm_env's step types and discounts in its TimeSteps."""
    pool = make_or_skip("CheetahRun-v1", num_envs=2, flat_obs=True)
    spec = pool.spec
    assert spec.obs_layout == {"position": slice(0, 8), "velocity": slice(8, 17)}
    obs, info = pool.reset()
    assert obs.shape == (2, 17) and obs.dtype == np.float64
    pool.close()
    pool = make_or_skip("CheetahRun-v1", env_type="dm", num_envs=2)
    ts = pool.reset()
    assert list(ts.step_type) == [0, 0] and list(ts.discount) == [1, 1]
    assert ts.observation.position.shape == (2, 8) and ts.observation.velocity.shape == (2, 9)
    for _ in range(3):
        ts = pool.step(np.zeros((2, 6), np.float32))
    assert list(ts.step_type) == [1, 1]
    assert ((ts.reward >= 0) & (ts.reward <= 1)).all()
    pool.close()


def test_recv_without_send_is_an_error():
    with rlpool.make("CartPole-v1", num_envs=2) as p:
        with pytest.raises(RuntimeError, match="no envs in flight"):
            p.recv()
        p.reset()


def test_use_after_close():
    p = rlpool.make("CartPole-v1", num_envs=2)
    p.reset()
    p.close()
    p.close()  # idempotent
    assert p.closed
    for call in (lambda: p.step(np.zeros(2, np.int64)), p.recv, p.reset, p.async_reset):
        with pytest.raises(RuntimeError, match="is closed"):
            call()
    # The C API itself refuses a closed or unknown handle.
    lib = rlpool._lib.load()
    assert lib.rlp_async_reset(1 << 40) == -1
    assert "no pool with handle" in str(rlpool._lib.error(1 << 40))


# -- threads and memory ------------------------------------------------------------------


def test_other_threads_run_while_recv_waits():
    """A second thread must make progress during one single blocking rlp_recv call,
    which cannot happen if the call held the GIL."""
    n = 1_000_000
    with rlpool.make("CartPole-v1", num_envs=n, num_threads=1) as p:
        p.reset()
        stamps = []
        stop = threading.Event()

        def count():
            i = 0
            while not stop.is_set():
                i += 1
                if i % 200 == 0:
                    stamps.append(time.perf_counter())

        t = threading.Thread(target=count)
        t.start()
        try:
            time.sleep(0.05)
            p.send(np.zeros(n, np.int64))
            t0 = time.perf_counter()
            assert p._recv_once(-1) is not None  # one call, no time limit
            t1 = time.perf_counter()
        finally:
            stop.set()
            t.join()
        # Python switches threads every 5 ms; leave that much on either side.
        inside = [s for s in stamps if t0 + 0.01 < s < t1 - 0.001]
        assert t1 - t0 > 0.03, "the batch took only %.3f s; make it bigger" % (t1 - t0)
        assert len(inside) > 0, "the counting thread stalled during recv (%.3f s)" % (t1 - t0)


_CTRL_C_CHILD = r"""
import os, signal, sys, threading, time
import numpy as np
import rlpool
# Python's own Ctrl-C handler, whatever the test runner left: a process started in the
# background by a non-interactive shell inherits SIGINT ignored.
signal.signal(signal.SIGINT, signal.default_int_handler)
# About two seconds of Acrobot steps on one idle thread (more on a busy machine), ten
# times the timer's delay: recv is still blocked when the signal comes.
n = 2_000_000
with rlpool.make("Acrobot-v1", num_envs=n, num_threads=1) as p:
    p.reset()
    p.send(np.zeros(n, np.int64))
    threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
    t0 = time.perf_counter()
    try:
        p.recv()
        print("recv returned", flush=True)
    except KeyboardInterrupt:
        print("KeyboardInterrupt after %.2f s" % (time.perf_counter() - t0), flush=True)
"""


def test_ctrl_c_interrupts_a_blocked_recv():
    """SIGINT while the main thread waits in recv raises KeyboardInterrupt there within
    a poll interval, rather than after the batch."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.environ.get("RLPOOL_PYTHONPATH", ""), os.path.join(REPO, "python")]))
    out = subprocess.run([sys.executable, "-c", _CTRL_C_CHILD], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "KeyboardInterrupt after" in out.stdout, out.stdout + out.stderr
    waited = float(out.stdout.split("after ")[1].split(" s")[0])
    assert waited < 0.6, "KeyboardInterrupt came %.2f s into recv, not within a poll interval" % waited


_RSS_CHILD = r"""
import os, sys
import numpy as np
import rlpool
def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
steps = int(sys.argv[1])
with rlpool.make("CartPole-v1", num_envs=1) as p:
    p.reset()
    act = np.zeros(1, np.int64)
    for _ in range(20_000):
        p.step(act)
    rss = [rss_kib()]
    for _ in range(4):
        for _ in range(steps // 4):
            p.step(act)
        rss.append(rss_kib())
print(" ".join(map(str, rss)))
"""


def test_rss_steady_over_many_steps():
    """RSS over the second half of the steps (RLPOOL_RSS_STEPS, default 400k) stays
    where the first half left it: Python's allocator settles early, a leak would not.
    It runs in a fresh interpreter, away from the other tests' big pools."""
    steps = int(os.environ.get("RLPOOL_RSS_STEPS", "400000"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.environ.get("RLPOOL_PYTHONPATH", ""), os.path.join(REPO, "python")]))
    out = subprocess.run([sys.executable, "-c", _RSS_CHILD, str(steps)], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    rss = [int(x) for x in out.stdout.split()]
    print("RSS KiB after warm-up and after each quarter of %d steps: %s" % (steps, rss))
    assert rss[4] - rss[2] < 2048, "RSS grew from %d KiB to %d KiB over the second half" % (rss[2], rss[4])

def test_metaworld_dtypes_as_envpool():
    # EnvPool's MetaWorld: float64 observations and info values (MuJoCo's doubles),
    # float32 actions in [-1, 1], task_id an int32, episodes of 500 steps.
    with make_or_skip("MetaWorld/Reach-v3", num_envs=2, seed=1, partially_observable=False) as pool:
        assert pool.observation_space.shape == (39,) and pool.observation_space.dtype == np.float64
        act = pool.action_space
        assert act.shape == (4,) and act.dtype == np.float32
        np.testing.assert_array_equal(act.low, [-1] * 4)
        np.testing.assert_array_equal(act.high, [1] * 4)
        assert pool.spec.max_episode_steps == 500
        obs, info = pool.reset()
        obs, rew, term, trunc, info = pool.step(np.zeros((2, 4), np.float32))
        assert info["success"].dtype == np.float64 and info["task_id"].dtype == np.int32
        np.testing.assert_array_equal(info["task_id"], [43, 43])  # reach-v3's place in EnvPool's list
        assert np.any(obs[:, 36:] != 0)  # the goal, observed

def test_robotics_goal_dicts_as_envpool():
    # Gymnasium-Robotics as EnvPool gives it: float64 observation dicts, float32
    # actions (the kitchen's float64), and the kitchen's goals nested by task.
    with make_or_skip("FetchReach-v4", num_envs=2, seed=1) as pool:
        space = pool.observation_space
        assert list(space.spaces) == ["observation", "achieved_goal", "desired_goal"]
        assert space["observation"].shape == (10,) and space["desired_goal"].dtype == np.float64
        assert pool.action_space.dtype == np.float32
        obs, info = pool.reset()
        obs, rew, term, trunc, info = pool.step(np.zeros((2, 4), np.float32))
        assert obs["achieved_goal"].shape == (2, 3) and obs["achieved_goal"].dtype == np.float64
        # FetchReach-v4's sparse reward: 0 within 5 cm of the goal, else -1.
        dist = np.linalg.norm(obs["achieved_goal"] - obs["desired_goal"], axis=1)
        np.testing.assert_array_equal(rew, -(dist > 0.05).astype(rew.dtype))
    with make_or_skip("FrankaKitchen-v1", num_envs=2, seed=1) as pool:
        goals = pool.observation_space["desired_goal"]
        assert list(goals.spaces)[:2] == ["bottom burner", "top burner"] and goals["kettle"].shape == (7,)
        assert pool.action_space.dtype == np.float64
        obs, _ = pool.reset()
        assert set(obs) == {"observation", "desired_goal", "achieved_goal"}
        assert obs["achieved_goal"]["microwave"].shape == (2, 1)
    with make_or_skip("FrankaKitchen-v1", num_envs=2, seed=1, env_type="dm") as pool:
        ts = pool.reset()
        assert ts.observation.desired_goal["kettle"].shape == (2, 7)
        assert pool.observation_spec().desired_goal["kettle"].shape == (7,)
