"""rlpool from Python, with EnvPool's interface.

    import rlpool
    envs = rlpool.make("CartPole-v1", env_type="gymnasium", num_envs=8)
    obs, info = envs.reset()
    obs, reward, terminated, truncated, info = envs.step(np.zeros(8, dtype=np.int64))

The pool runs in Go (librlpool.so, built by `make python`); this package is pure
Python, numpy and ctypes. Sync mode (batch_size == num_envs) returns the envs sent, in
the order they were sent (every env in env order for a step of all of them); async mode
(batch_size < num_envs) returns the first batch_size envs to finish, and info["env_id"]
says which:

    envs = rlpool.make("Pong-v5", num_envs=16, batch_size=8)
    envs.async_reset()
    while True:
        obs, rew, term, trunc, info = envs.recv()
        envs.send(policy(obs), info["env_id"])

Returned arrays are fresh numpy arrays, unless the pool was made with zero_copy=True:
then they are views of buffers that the next recv (or step, reset) overwrites.
Errors from the engine raise ValueError (bad arguments: unknown task or option, wrong
action dtype or shape, env id out of range) or RuntimeError (anything else, such as a
call on a closed pool), with the engine's message.
"""

import ctypes
import json
import numbers

import numpy as np

from . import _lib
from . import spaces as _spaces

__all__ = ["make", "make_gymnasium", "make_gym", "list_all_envs", "RLPool", "version"]

_ENV_TYPES = ("gymnasium", "gym")
_RECV_POLL_MS = 100


def version():
    """Return the version of the C API rlpool was built with."""
    return _lib.version()


def list_all_envs():
    """Return every task id rlpool knows, sorted."""
    return _lib.list_tasks()


def _jsonable(v):
    """Convert an option value (numpy scalars and arrays, tuples) to plain JSON types."""
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, (tuple, list)):
        return [_jsonable(x) for x in v]
    return v


class PoolSpec:
    """What a pool's tasks look like: spaces, limits, info keys and the resolved config."""

    def __init__(self, raw, env_type):
        self.raw = raw
        self.id = raw["task_id"]
        self.task_id = raw["task_id"]
        self.observation_space = _spaces.observation_space(raw, env_type)
        self.action_space = _spaces.action_space(raw, env_type)
        self.info_keys = list(raw["info_keys"])
        # Named slices of a flattened observation (the control suite's ordered dict):
        # {"position": slice(0, 8), "velocity": slice(8, 17)}; empty for other tasks.
        self.obs_layout = {f["name"]: slice(f["offset"], f["offset"] + f["size"]) for f in raw.get("obs_layout") or []}
        self.max_episode_steps = raw["max_episode_steps"] or None
        self.reward_threshold = raw["reward_threshold"]
        self.num_envs = raw["num_envs"]
        self.batch_size = raw["batch_size"]

    def __repr__(self):
        return "PoolSpec(%s, obs=%s, action=%s)" % (self.id, self.observation_space, self.action_space)


class RLPool:
    """A pool of environments stepped in Go. Build it with rlpool.make.

    Methods follow EnvPool: reset, step, send, recv, async_reset, close. A pool may be
    used from several threads, but its calls are serialised.
    """

    def __init__(self, task_id, env_type="gymnasium", zero_copy=False, options=None):
        if env_type not in _ENV_TYPES:
            raise ValueError(
                "rlpool: env_type %r is not supported; use 'gymnasium' or 'gym'" % (env_type,)
            )
        if not isinstance(task_id, str):
            raise ValueError("rlpool: task_id must be a string, got %r" % (task_id,))
        lib = _lib.load()
        self._lib = lib
        self._handle = 0
        opts = {k: _jsonable(v) for k, v in (options or {}).items() if v is not None}
        try:
            opts_json = json.dumps(opts, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise ValueError("rlpool: options must be JSON-encodable numbers, strings, "
                             "booleans or lists: %s" % e) from None
        h = lib.rlp_make(task_id.encode(), opts_json.encode())
        if h <= 0:
            raise _lib.error(0)
        self._handle = h
        s = _lib.take_string(lib.rlp_spec(h))
        if s is None:
            err = _lib.error(h)
            lib.rlp_close(h)
            raise err
        raw = json.loads(s)
        self._env_type = env_type
        self._zero_copy = bool(zero_copy)
        self.spec = PoolSpec(raw, env_type)
        self.observation_space = self.spec.observation_space
        self.action_space = self.spec.action_space
        self._num_envs = raw["num_envs"]
        self._batch = raw["batch_size"]
        self._obs_shape = tuple(raw["obs_shape"])
        self._obs_dtype = np.dtype(raw["obs_dtype"])
        act = raw["action_space"]
        self._discrete = act["kind"] == "discrete"
        self._act_shape = tuple(act["shape"])
        self._act_size = int(np.prod(self._act_shape)) if self._act_shape else 1
        self._info_keys = list(raw["info_keys"])
        self._same_step = raw["auto_reset"] == "same_step"
        self._all_ids = np.arange(self._num_envs, dtype=np.int32)
        self._bufs = None
        self.config = dict(opts)
        self.config.update({
            "task_id": raw["task_id"], "env_type": env_type, "num_envs": raw["num_envs"],
            "batch_size": raw["batch_size"], "num_threads": raw["num_threads"],
            "seed": raw["seed"], "max_episode_steps": raw["max_episode_steps"],
            "auto_reset": raw["auto_reset"],
            "thread_affinity_offset": raw["thread_affinity_offset"],
            "zero_copy": self._zero_copy,
        })

    # -- properties ---------------------------------------------------------------

    @property
    def closed(self):
        """Whether close has been called."""
        return self._handle == 0

    def __len__(self):
        return self._num_envs

    @property
    def num_envs(self):
        """The number of env instances."""
        return self._num_envs

    @property
    def batch_size(self):
        """The number of rows recv returns."""
        return self._batch

    def __repr__(self):
        return "RLPool(%s, num_envs=%d, batch_size=%d)" % (self.spec.id, self._num_envs, self._batch)

    # -- calls --------------------------------------------------------------------

    def _h(self):
        if self._handle == 0:
            raise RuntimeError("rlpool: pool %s is closed" % self.spec.id)
        return self._handle

    def _check(self, rc):
        if rc < 0:
            raise _lib.error(self._handle)
        return rc

    def _ids(self, env_id):
        """Validate env ids (None: every env) and return them as a contiguous int32 array."""
        if env_id is None:
            return None
        ids = np.asarray(env_id)
        if ids.ndim == 0:
            ids = ids.reshape(1)
        if ids.ndim != 1 or (ids.size and ids.dtype.kind not in "iu"):
            raise ValueError(
                "rlpool: env_id must be an integer or a 1-D array of integers, got dtype %s shape %s"
                % (ids.dtype, ids.shape)
            )
        if ids.dtype != np.int32:
            # Values that do not fit in int32 are out of range anyway; the engine checks
            # the range of the others.
            bad = ids[(ids < 0) | (ids >= self._num_envs)]
            if bad.size:
                raise ValueError("rlpool: env id %d out of range [0, %d)" % (bad[0], self._num_envs))
            ids = ids.astype(np.int32)
        return np.ascontiguousarray(ids)

    def _actions(self, action, n):
        """Validate a batch of n actions and return them as contiguous float32 values."""
        a = np.asarray(action)
        if self._discrete:
            if a.dtype.kind not in "iu":
                raise ValueError(
                    "rlpool: actions of %s must be integers (%s), got dtype %s"
                    % (self.spec.id, self.action_space, a.dtype)
                )
            want = (n,)
        else:
            if a.dtype.kind not in "fiu":
                raise ValueError("rlpool: actions of %s must be numbers, got dtype %s" % (self.spec.id, a.dtype))
            want = (n,) + self._act_shape
        if a.shape != want:
            raise ValueError(
                "rlpool: action shape %s does not match %s: want %s (%d envs x %s)"
                % (a.shape, self.action_space, want, n, self._act_shape or "scalar")
            )
        return np.ascontiguousarray(a, dtype=np.float32)

    def send(self, action, env_id=None):
        """Queue one step for the envs in env_id (None: every env, in order) with their
        actions (one per env, in the same order). Returns at once."""
        h = self._h()
        ids = self._ids(env_id)
        n = self._num_envs if ids is None else ids.size
        acts = self._actions(action, n)
        self._check(self._lib.rlp_send(
            h, acts.ctypes.data, acts.size,
            None if ids is None else ids.ctypes.data, 0 if ids is None else ids.size,
        ))

    def async_reset(self):
        """Queue a reset of every env (none may be running); recv returns the first
        observations."""
        self._check(self._lib.rlp_async_reset(self._h()))

    def _buffers(self):
        """The pool's receive buffers, allocated once, and their addresses for rlp_recv.
        recv copies out of them unless the pool was made with zero_copy."""
        if self._bufs is None:
            b = self._batch
            bufs = {
                "obs": np.empty((b,) + self._obs_shape, dtype=self._obs_dtype),
                "reward": np.empty(b, dtype=np.float32),
                "terminated": np.empty(b, dtype=np.bool_),
                "truncated": np.empty(b, dtype=np.bool_),
                "env_id": np.empty(b, dtype=np.int32),
                "elapsed_step": np.empty(b, dtype=np.int32),
                "info": np.empty((b, len(self._info_keys)), dtype=np.float32),
                "final_obs": np.empty((b,) + self._obs_shape, dtype=self._obs_dtype) if self._same_step else None,
            }
            order = ("obs", "reward", "terminated", "truncated", "env_id", "elapsed_step", "info", "final_obs")
            self._ptrs = tuple(None if bufs[k] is None else bufs[k].ctypes.data for k in order)
            self._bufs = bufs
        return self._bufs

    def _recv_once(self, timeout_ms):
        """One rlp_recv call into the receive buffers: return them, or None when it
        timed out."""
        h = self._h()
        b = self._buffers()
        rows = self._check(self._lib.rlp_recv(h, int(timeout_ms), *self._ptrs))
        if rows == 0:
            return None
        if rows < self._batch:  # a sync-mode batch of some envs
            b = {k: None if v is None else v[:rows] for k, v in b.items()}
        if self._zero_copy:
            return b
        return {k: None if v is None else v.copy() for k, v in b.items()}

    def _wait(self):
        """Block until a batch arrives, polling so that Ctrl-C interrupts the wait."""
        while True:
            b = self._recv_once(_RECV_POLL_MS)
            if b is not None:
                return b

    def _result(self, b, reset):
        info = {
            "env_id": b["env_id"],
            "elapsed_step": b["elapsed_step"],
            "terminated": b["terminated"],
            "truncated": b["truncated"],
        }
        for j, k in enumerate(self._info_keys):
            info[k] = b["info"][:, j]
        if b["final_obs"] is not None:
            info["final_obs"] = b["final_obs"]
        if self._env_type == "gymnasium":
            if reset:
                return b["obs"], info
            return b["obs"], b["reward"], b["terminated"], b["truncated"], info
        if reset:
            return b["obs"]
        done = b["terminated"] | b["truncated"]
        return b["obs"], b["reward"], done, info

    def recv(self, reset=False):
        """Wait for the next batch: batch_size results in async mode; in sync mode
        the results of every env sent (or reset), in the order they were sent.

        Returns (obs, reward, terminated, truncated, info) for gymnasium and
        (obs, reward, done, info) for gym; with reset=True, (obs, info) for gymnasium
        and obs for gym. info holds numpy arrays: env_id, elapsed_step, terminated,
        truncated, the task's own keys, and final_obs in same_step mode (valid in rows
        that ended an episode).
        """
        return self._result(self._wait(), reset)

    def step(self, action, env_id=None):
        """send(action, env_id) followed by recv()."""
        self.send(action, env_id)
        return self.recv()

    def reset(self, env_id=None):
        """Reset the envs in env_id (None: every env) and return the next batch, as
        recv(reset=True) does: (obs, info) for gymnasium, obs for gym.

        In sync mode the batch holds just the envs reset; in async mode it needs
        batch_size envs, so reset a subset only while enough other envs are running."""
        ids = self._ids(env_id)
        if ids is None:
            self.async_reset()
        else:
            self._check(self._lib.rlp_reset_ids(self._h(), ids.ctypes.data, ids.size))
        return self.recv(reset=True)

    def close(self):
        """Stop the pool's workers and free its envs. Closing twice is fine."""
        if self._handle:
            h, self._handle = self._handle, 0
            if self._lib.rlp_close(h) < 0:
                raise _lib.error(h)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - never raise from a finaliser
            pass


def make(task_id, env_type="gymnasium", num_envs=1, batch_size=None, num_threads=None,
         seed=0, max_episode_steps=None, zero_copy=False, **task_options):
    """Make a pool of num_envs envs of task_id (EnvPool's envpool.make).

    batch_size < num_envs is async mode; num_threads defaults to
    min(batch_size, cores); env i is seeded seed + i; max_episode_steps overrides the
    task's time limit. Other keywords are the task's own options (e.g. frame_skip for
    Atari, auto_reset="same_step", thread_affinity_offset); unknown ones raise
    ValueError naming them. zero_copy=True returns views of reused buffers.
    """
    for name, v in (("num_envs", num_envs), ("batch_size", batch_size), ("num_threads", num_threads),
                    ("seed", seed), ("max_episode_steps", max_episode_steps)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, numbers.Integral)):
            raise ValueError("rlpool: %s = %r: want an integer" % (name, v))
    options = dict(task_options)
    options.update(num_envs=num_envs, batch_size=batch_size, num_threads=num_threads,
                   seed=seed, max_episode_steps=max_episode_steps)
    return RLPool(task_id, env_type=env_type, zero_copy=zero_copy, options=options)


def make_gymnasium(task_id, **kwargs):
    """make(task_id, env_type="gymnasium", ...)."""
    return make(task_id, env_type="gymnasium", **kwargs)


def make_gym(task_id, **kwargs):
    """make(task_id, env_type="gym", ...)."""
    return make(task_id, env_type="gym", **kwargs)


_ = ctypes  # ctypes is used through _lib; kept imported for users' isinstance checks
