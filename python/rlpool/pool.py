"""The pools: one Go pool behind a handle, seen through EnvPool's gymnasium, gym or
dm_env interface (GymnasiumEnvPool, GymEnvPool, DMEnvPool; RLPool holds what they
share)."""

import collections
import json
import numbers
import warnings

import numpy as np

from . import _lib
from . import dm
from .spec import EnvSpec, nest

_RECV_POLL_MS = 100

try:  # gymnasium 1.x names the autoreset modes; EnvPool's is NEXT_STEP, as is rlpool's default.
    from gymnasium.vector.vector_env import AutoresetMode as _AutoresetMode
    _AUTORESET = {"next_step": _AutoresetMode.NEXT_STEP, "same_step": _AutoresetMode.SAME_STEP}
except Exception:  # noqa: BLE001 - any import failure means "not available"
    _AUTORESET = {"next_step": "NextStep", "same_step": "SameStep"}
_STEP_FIRST, _STEP_MID, _STEP_LAST = 0, 1, 2


def jsonable(v):
    """Convert an option value (numpy scalars and arrays, tuples) to plain JSON types."""
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, (tuple, list)):
        return [jsonable(x) for x in v]
    return v


def options_json(options):
    """Encode the make options for the C API, dropping the ones left at None."""
    opts = {k: jsonable(v) for k, v in options.items() if v is not None}
    try:
        return json.dumps(opts, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise ValueError("rlpool: options must be JSON-encodable numbers, strings, "
                         "booleans or lists: %s" % e) from None


class RLPool:
    """A pool of environments stepped in Go. Build it with rlpool.make.

    Methods follow EnvPool: reset, step, send, recv, async_reset, close. A pool may be
    used from several threads, but its calls are serialised. The subclasses shape the
    results: GymnasiumEnvPool and GymEnvPool as tuples, DMEnvPool as dm_env TimeSteps.
    """

    env_type = None

    def __init__(self, task_id, options=None, zero_copy=False, flat_obs=False, render_options=None):
        if not isinstance(task_id, str):
            raise ValueError("rlpool: task_id must be a string, got %r" % (task_id,))
        lib = _lib.load()
        self._lib = lib
        self._handle = 0
        options = dict(options or {})
        h = lib.rlp_make(task_id.encode(), options_json(options).encode())
        if h <= 0:
            raise _lib.error(0)
        self._handle = h
        s = _lib.take_string(lib.rlp_spec(h))
        if s is None:
            err = _lib.error(h)
            lib.rlp_close(h)
            raise err
        raw = json.loads(s)
        self._zero_copy = bool(zero_copy)
        self._render = dict(render_options or {})
        self._drawn_size = None  # (width, height) the task draws, learnt by render
        self.spec = EnvSpec(raw, options, flat_obs=flat_obs)
        self._num_envs = raw["num_envs"]
        self._batch = raw["batch_size"]
        self._obs_shape = tuple(raw["obs_shape"])
        self._obs_dtype = np.dtype(raw["obs_dtype"])
        act = raw["action_space"]
        self._discrete = act["kind"] == "discrete"
        self._act_shape = tuple(act["shape"])
        self._info_keys = list(raw["info_keys"])
        self._info_cols = self.spec.info_columns()
        self._obs_fields = self.spec.obs_fields()
        self._same_step = raw["auto_reset"] == "same_step"
        self._all_ids = np.arange(self._num_envs, dtype=np.int32)
        self._bufs = None
        self._config = dict(self.spec._config)
        self._config.update(env_type=self.env_type, zero_copy=self._zero_copy, flat_obs=bool(flat_obs))

    # -- properties ---------------------------------------------------------------

    @property
    def config(self):
        """Every option of the pool as a dict (EnvPool's pool.config)."""
        return dict(self._config)

    closed = property(lambda self: self._handle == 0, doc="Whether close has been called.")
    num_envs = property(lambda self: self._num_envs, doc="The number of env instances.")
    batch_size = property(lambda self: self._batch, doc="The number of rows recv returns.")
    is_async = property(lambda self: self._batch != self._num_envs,
                        doc="Whether recv returns fewer rows than there are envs (batch_size < num_envs).")
    all_env_ids = property(lambda self: self._all_ids, doc="Every env id, 0..num_envs-1, as int32.")

    def __len__(self):
        return self._num_envs

    def seed(self, seed=None):
        """Do nothing but warn, as EnvPool does: a pool's seeds are fixed when it is made
        (make's seed option)."""
        warnings.warn("rlpool: seeding a pool after it is made is not supported; pass "
                      "seed to rlpool.make instead", stacklevel=2)

    def render(self, env_ids=None, camera_id=None):
        """Pictures of the envs in env_ids (an id or a sequence; None: make's
        render_env_id, 0 by default) as a uint8 array (n, H, W, 3), EnvPool's render.
        H x W is make's render_height x render_width, or the size the task draws (each
        picture is resampled by nearest neighbour to the size asked for). The envs must
        not be in flight (recv their results first). render_mode must have been given
        to make: "rgb_array" returns the frames, "human" shows the one env's frame with
        OpenCV (cv2) and returns None. Only the default camera (camera_id None or -1)
        exists. RuntimeError when the task cannot draw, ValueError for bad ids."""
        mode = self._render.get("render_mode")
        if mode not in ("rgb_array", "human"):
            raise RuntimeError("rlpool: render_mode must be set to 'rgb_array' or 'human' "
                               "when creating this env (rlpool.make(..., render_mode=...))")
        if camera_id not in (None, -1) or self._render.get("render_camera_id", -1) not in (None, -1):
            raise ValueError("rlpool: render: camera_id %r: only the default camera (-1) is drawn"
                             % (camera_id if camera_id is not None else self._render["render_camera_id"],))
        if env_ids is None:
            env_ids = self._render.get("render_env_id") or 0
        ids = self._ids(env_ids)
        if mode == "human" and len(ids) != 1:
            raise ValueError("rlpool: render_mode='human' only supports a single env_id")
        h = self._h()
        width, height = self._render_size(ids)
        frames = np.empty((len(ids), height, width, 3), dtype=np.uint8)
        self._check(self._lib.rlp_render(h, ids.ctypes.data, len(ids), width, height, frames.ctypes.data))
        if mode == "human":
            try:
                import cv2
            except ImportError as e:
                raise RuntimeError("rlpool: render_mode='human' requires opencv-python (cv2)") from e
            cv2.imshow("rlpool-%s" % self.spec.id, np.ascontiguousarray(frames[0, :, :, ::-1]))
            cv2.waitKey(1)
            return None
        return frames

    def _render_size(self, ids):
        """The (width, height) of render's frames: make's render_width and
        render_height, each defaulting to the size the task draws."""
        width, height = (self._render.get(k) for k in ("render_width", "render_height"))
        for name, v in (("render_width", width), ("render_height", height)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0):
                raise ValueError("rlpool: %s = %r: want a positive integer (0: the task's own size)" % (name, v))
        if not width or not height:
            if self._drawn_size is None:
                wh = np.zeros(2, dtype=np.int32)
                first = int(ids[0]) if len(ids) else 0
                self._check(self._lib.rlp_render_size(self._h(), first, wh.ctypes.data))
                self._drawn_size = int(wh[0]), int(wh[1])
            width, height = width or self._drawn_size[0], height or self._drawn_size[1]
        return int(width), int(height)

    def xla(self):
        """Not available: rlpool has no XLA custom calls (EnvPool's xla() needs jax and
        its C++ pools). Raises NotImplementedError."""
        raise NotImplementedError("rlpool: xla() is not available; step the pool from Python")

    def __repr__(self):
        return "%s(%s, num_envs=%d, batch_size=%d)" % (type(self).__name__, self.spec.id, self._num_envs, self._batch)

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
            # Float arrays are cast, as EnvPool casts them to its int32 actions, but only
            # when every value is a whole number: 0.5 is a mistake, not an action.
            if a.dtype.kind == "f" and np.all(np.isfinite(a)) and np.all(a == np.round(a)):
                a = a.astype(np.int64)
            if a.dtype.kind not in "iu":
                raise ValueError(
                    "rlpool: actions of %s must be integers or whole numbers (%s), got dtype %s"
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
        actions (one per env, in the same order). Returns at once. action may also be
        EnvPool's dict form, {"action": ..., "env_id": ...}."""
        if isinstance(action, dict):
            extra = set(action) - {"action", "env_id", "players.env_id"}
            if extra or "action" not in action:
                raise ValueError("rlpool: a dict action has the keys action and env_id, got %s" % sorted(action))
            # EnvPool hands a dict's arrays to its C++ side as they are, which takes env
            # ids (and discrete actions) as int32 only and raises RuntimeError for any
            # other dtype; a script written for EnvPool sends int32, so do the same.
            strict = ["env_id", "players.env_id"] + (["action"] if self._discrete else [])
            for key in strict:
                if key in action and np.asarray(action[key]).dtype != np.int32:
                    raise RuntimeError("rlpool: a dict action's %s must be int32 (EnvPool's dtype), got %s"
                                       % (key, np.asarray(action[key]).dtype))
            if env_id is None:
                env_id = action.get("env_id")
            action = action["action"]
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
                "info": np.empty((b, self.spec.info_width), dtype=np.float32),
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

    # -- results ------------------------------------------------------------------

    def _observation(self, flat):
        """The observation in EnvPool's form: one array (in EnvPool's dtype), or a dict
        of the named fields (EnvSpec.field_of: stacked ones with their frame axis),
        nested where the engine names a field outer:inner (the kitchen's goals)."""
        dtype = self.spec.obs_dtype
        if self._obs_fields[0][2] is None:
            return flat if flat.dtype == dtype else flat.astype(dtype)
        return dict(nest([(k, self.spec.field_of(flat, k, off, size).astype(self.spec.field_dtype(k)))
                          for k, off, size in self._obs_fields]))

    def _info(self, b):
        """The info dict of a batch, with EnvPool's keys and dtypes."""
        info = {"env_id": b["env_id"], "players": {"env_id": b["env_id"]}, "elapsed_step": b["elapsed_step"]}
        cols = b["info"]
        for j, n, k in self._info_cols:
            info[k] = (cols[:, j] if n == 1 else cols[:, j:j + n]).astype(self.spec.info_dtype(k))
        if b["final_obs"] is not None:
            info["final_obs"] = self._observation(b["final_obs"])
        return info

    def _step_type_discount(self, b):
        """dm_env's step types and discounts of a batch: the family's own columns where
        it has them (with LAST where the pool's time limit ends an episode), else FIRST
        on a reset row, LAST on an episode's end, and a discount of 0 on a terminal
        step."""
        if "step_type" in self._info_keys:
            st = b["info"][:, self.spec.info_span("step_type")[0]].astype(np.int32)
            # The family knows its own episode's end, not the pool's time limit
            # (max_episode_steps): a step the pool truncates is the episode's last.
            st[b["truncated"] & (st == _STEP_MID)] = _STEP_LAST
        else:
            st = np.where(b["terminated"] | b["truncated"], _STEP_LAST, _STEP_MID).astype(np.int32)
            st[b["elapsed_step"] == 0] = _STEP_FIRST
        if "discount" in self._info_keys:
            disc = b["info"][:, self.spec.info_span("discount")[0]].copy()
        else:
            disc = (~b["terminated"]).astype(np.float32)
        return st, disc

    def _to(self, b, reset, return_info):
        """Shape a received batch as this pool's interface returns it (return_info:
        whether a reset's result carries info, which only rlpool.legacy's gym pools
        leave out)."""
        raise NotImplementedError

    def recv(self, reset=False, return_info=True):
        """Wait for the next batch (batch_size results in async mode; in sync mode the
        results of every env sent or reset, in the order they were sent) and return
        them as step (or, with reset=True, reset) does. info holds numpy arrays: env_id, players.env_id,
        elapsed_step, the task's own keys, and final_obs in same_step mode (valid in
        rows that ended an episode)."""
        return self._to(self._wait(), reset, return_info)

    def step(self, action, env_id=None):
        """send(action, env_id) followed by recv()."""
        self.send(action, env_id)
        return self.recv()

    def reset(self, env_id=None):
        """Reset the envs in env_id (None: every env) and return the next batch, as
        recv(reset=True) does.

        In sync mode the batch holds just the envs reset; in async mode it needs
        batch_size envs, so reset a subset only while enough other envs are running."""
        ids = self._ids(env_id)
        if ids is None:
            self.async_reset()
        else:
            self._check(self._lib.rlp_reset_ids(self._h(), ids.ctypes.data, ids.size))
        return self.recv(reset=True, return_info=self._config["gym_reset_return_info"])

    def close(self, **kwargs):
        """Stop the pool's workers and free its envs. Closing twice is fine. Keyword
        arguments (gymnasium's VectorEnv.close takes some) are ignored."""
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


class _VectorPool(RLPool):
    """What the gym and gymnasium pools share: spaces of one env and the vector-env
    attributes wrappers look for."""

    observation_space = property(lambda self: self._spaces()[0], doc="One env's observation space.")
    action_space = property(lambda self: self._spaces()[1], doc="One env's action space.")
    single_observation_space = property(lambda self: self.observation_space,
                                        doc="One env's observation space (gymnasium's VectorEnv name).")
    single_action_space = property(lambda self: self.action_space,
                                   doc="One env's action space (gymnasium's VectorEnv name).")
    is_vector_env = property(lambda self: True, doc="Always True: the pool steps num_envs envs at once.")

    def _spaces(self):
        if not hasattr(self, "_space_cache"):
            self._space_cache = self._make_spaces()
        return self._space_cache

    def _make_spaces(self):
        raise NotImplementedError

    def _to(self, b, reset, return_info):
        obs, info = self._observation(b["obs"]), self._info(b)
        if reset:
            return obs, info
        return obs, b["reward"], b["terminated"], b["truncated"], info


def _optional_base(module, name):
    """The class module.name as a tuple of bases, or () when the module does not import:
    with gymnasium or gym installed the pools are their VectorEnv or Env, as EnvPool's
    are, so that wrappers that check the class accept them."""
    try:
        mod = __import__(module, fromlist=[name])
        return (getattr(mod, name),)
    except Exception:  # noqa: BLE001 - any import failure means "not available"
        return ()


class GymnasiumEnvPool(_VectorPool, *_optional_base("gymnasium.vector", "VectorEnv")):
    """A pool with gymnasium's vector interface: reset returns (obs, info), step returns
    (obs, reward, terminated, truncated, info)."""

    env_type = "gymnasium"

    @property
    def metadata(self):
        """Gymnasium's env metadata: the render modes and the task's render_fps."""
        return {"render_modes": ["rgb_array", "human"], "render_fps": self.spec.render_fps,
                "autoreset_mode": _AUTORESET[self._config["auto_reset"]]}

    @property
    def render_mode(self):
        """The render mode given to make ("rgb_array", "human" or None)."""
        return self._render.get("render_mode")

    def _make_spaces(self):
        return self.spec.gymnasium_observation_space, self.spec.gymnasium_action_space

    def reset(self, env_id=None, *, seed=None, options=None):
        """Reset the envs in env_id, or those options["reset_mask"] selects (None:
        every env). seed is ignored with a warning: seeds are fixed by make."""
        if seed is not None:
            warnings.warn("rlpool: reset(seed=...) is ignored: a pool's seeds are fixed when "
                          "it is made; pass seed to rlpool.make", stacklevel=2)
        if options:
            unknown = set(options) - {"reset_mask"}
            if unknown:
                raise ValueError("rlpool: reset options %s are not supported; only reset_mask is" % sorted(unknown))
            mask = np.asarray(options["reset_mask"], dtype=np.bool_)
            if mask.shape != (self._num_envs,) or not mask.any():
                raise ValueError("rlpool: reset_mask must have shape (%d,) and select at least one env, "
                                 "got shape %s" % (self._num_envs, mask.shape))
            if env_id is not None:
                raise ValueError("rlpool: pass either env_id or options['reset_mask'], not both")
            env_id = np.flatnonzero(mask).astype(np.int32)
        return super().reset(env_id)


class GymEnvPool(GymnasiumEnvPool, *_optional_base("gym", "Env")):
    """A pool with gym's interface as EnvPool 1.x gives it (gym >= 0.26): reset returns
    (obs, info), step returns (obs, reward, terminated, truncated, info). rlpool.legacy
    has the older four-tuple.

    It is a GymnasiumEnvPool whose spaces are gym's when gym imports: in EnvPool 1.2
    make_gym makes a gymnasium pool, so code that checks for GymnasiumEnvPool accepts
    both."""

    env_type = "gym"

    def _make_spaces(self):
        return self.spec.observation_space, self.spec.action_space


class DMEnvPool(RLPool, dm.Environment):
    """A pool with dm_env's interface: reset and step return a TimeStep of arrays
    (step_type, reward, discount, observation), one row per env. The observation is a
    namedtuple "State" of the observation entries (obs, or the control suite's named
    fields) and the info arrays (env_id, players.env_id, the task's keys)."""

    env_type = "dm"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        fields = ["env_id", "players"] + [k for k, _ in nest([(k, None) for k, _, _ in self._obs_fields])]
        fields += [k for _, _, k in self._info_cols if k != "elapsed_step"]
        self._state_cls = collections.namedtuple("State", fields)
        self._players_cls = collections.namedtuple("players", ["env_id"])

    def observation_spec(self):
        """The dm_env specs of one env's observation (spec.observation_spec())."""
        return self.spec.observation_spec()

    def action_spec(self):
        """The dm_env spec of one env's action (spec.action_spec())."""
        return self.spec.action_spec()

    def _to(self, b, reset, return_info):
        info = self._info(b)
        obs = self._observation(b["obs"])
        values = dict(obs) if isinstance(obs, dict) else {"obs": obs}  # nested entries stay dicts
        values.update((k, v) for k, v in info.items() if k not in ("players", "elapsed_step"))
        values["players"] = self._players_cls(env_id=b["env_id"])
        st, disc = self._step_type_discount(b)
        state = self._state_cls(**{k: values[k] for k in self._state_cls._fields})
        return dm.TimeStep(step_type=st, reward=b["reward"], discount=disc, observation=state)
