"""EnvSpec: what a task's pools look like, in EnvPool's terms (envpool.make_spec and
pool.spec): the config, the state and action arrays with their dtypes and shapes, the
gym, gymnasium and dm_env views of them, and the limits.

EnvPool names a pool's arrays with flat keys: "obs" (or "obs:<field>" for an ordered
dict of observations), "info:<key>" for per-env info, and the common "reward", "done",
"trunc", "discount", "step_type", "elapsed_step", "info:env_id" and
"info:players.env_id"; a leading -1 in a shape stands for the number of players (one
per env here). The Go engine keeps float32 throughout; the dtypes below are the ones
EnvPool's families declare, and the pools convert at the boundary.
"""

import collections

import numpy as np

from . import dm
from . import spaces as _spaces

INT32_MIN, INT32_MAX = -(2 ** 31), 2 ** 31 - 1

#: Families whose EnvPool arrays are MuJoCo's doubles (mjtNum).
DOUBLE_FAMILIES = ("mujoco", "dmc", "metaworld", "fetch", "hand", "adroit", "pointmaze", "kitchen")

#: Double families whose EnvPool actions are float32 all the same: MetaWorld's and
#: Gymnasium-Robotics' but the kitchen's.
FLOAT32_ACTION_FAMILIES = ("metaworld", "fetch", "hand", "adroit", "pointmaze")

#: dtypes of the info columns EnvPool declares as integers or float32 whatever the family.
_INFO_DTYPES = {
    "lives": np.int32, "terminated": np.int32, "elapsed_step": np.int32, "step_type": np.int32,
    "error": np.int32, "reward": np.float32, "discount": np.float32, "ram": np.uint8,
    "agent_pos": np.int32, "mission_id": np.int32, "task_id": np.int32,
}

#: Observation entries whose dtype EnvPool declares apart from the rest of the
#: observation: MiniGrid's direction.
_FIELD_DTYPES = {"direction": np.int32}

#: Bounds of the info arrays that declare them (EnvPool's): the console's RAM bytes.
_INFO_BOUNDS = {"ram": (0, 255)}

#: Info columns of the Go families that EnvPool reports outside info: a dm TimeStep's
#: discount and step_type (the gym pools leave them out).
TIMESTEP_COLUMNS = ("discount", "step_type")


class ArraySpec:
    """One array of a pool's state or action (EnvPool's ArraySpec): dtype, shape (a
    leading -1 is the per-env dimension), minimum and maximum, and whether it holds a
    discrete action."""

    def __init__(self, dtype, shape, minimum, maximum, is_discrete=False):
        self.dtype = np.dtype(dtype)
        self.shape = list(shape)
        self.minimum = minimum
        self.maximum = maximum
        self.is_discrete = is_discrete

    def __repr__(self):
        return "ArraySpec(shape=%s, dtype=%s, minimum=%s, maximum=%s)" % (
            self.shape, self.dtype, self.minimum, self.maximum)


def _int_spec(shape, lo=INT32_MIN, hi=INT32_MAX):
    return ArraySpec(np.int32, shape, lo, hi)


def _float_spec(dtype, shape, lo=-np.inf, hi=np.inf):
    return ArraySpec(dtype, shape, lo, hi)


def _bound(v, default, shape, dtype):
    """A bound from the spec JSON as EnvPool keeps it: one number when every element
    shares it (the JSON gives a number, or null for default), else an array."""
    if v is None:
        v = default
    if isinstance(v, list):
        return _spaces.bound(v, shape, dtype)
    return np.dtype(dtype).type(float(v))


def _row_shape(shape):
    """The shape of one env's entry: shape without its per-env -1."""
    return tuple(d for d in shape if d != -1)


def _dm_spec(name, a):
    """The dm_env spec of ArraySpec a: DiscreteArray for a zero-based small integer
    scalar, else BoundedArray."""
    shape = _row_shape(a.shape)
    small = np.ndim(a.minimum) == 0 and np.ndim(a.maximum) == 0 and 0 <= a.maximum < 2 ** 20
    if (a.dtype.kind in "iu" or a.is_discrete) and int(np.prod(shape)) == 1 and small and a.minimum == 0:
        return dm.specs.DiscreteArray(num_values=int(a.maximum) + 1, dtype=a.dtype, name=name)
    return dm.specs.BoundedArray(shape=shape, dtype=a.dtype, minimum=a.minimum, maximum=a.maximum, name=name)


def _namedtuple(name, entries):
    """A namedtuple of the (field, value) pairs in order."""
    fields = [k for k, _ in entries]
    return collections.namedtuple(name, fields)(*[v for _, v in entries])


def nest(entries, make=dict):
    """Nest (name, value) pairs whose names are "outer:inner" (the engine's flat names
    of a nested observation dict, such as the kitchen's "desired_goal:kettle") into
    (outer, make(inner pairs)) at the place of the first, keeping the order; other
    pairs stay as they are. make builds the inner container from its pairs."""
    out, groups = [], {}
    for k, v in entries:
        if ":" not in k:
            out.append((k, v))
            continue
        outer, inner = k.split(":", 1)
        if outer not in groups:
            groups[outer] = []
            out.append((outer, groups[outer]))
        groups[outer].append((inner, v))
    return [(k, make(nest(v, make)) if k in groups and v is groups[k] else v) for k, v in out]


class EnvSpec:
    """The spec of a task under a set of options (envpool.make_spec, pool.spec).

    flat_obs keeps a control-suite observation as one flat array (rlpool's own
    layout) instead of EnvPool's named fields. With frame_stack > 1 on state
    observations the engine stacks them and every entry has a leading axis of that
    many frames, oldest first.
    """

    def __init__(self, raw, options=None, flat_obs=False):
        self.raw = raw
        self.task_id = self.id = raw["task_id"]
        self.family = raw["family"]
        self.flat_obs = bool(flat_obs)
        #: The number of state observations the engine stacks per env (1: none;
        #: stacked pictures are channels of one observation).
        self.frame_stack = 1 if raw["obs_dtype"] == "uint8" else int((raw.get("options") or {}).get("frame_stack", 1))
        self.info_keys = list(raw["info_keys"])
        #: Columns per info key, in info_keys' order: 1 for a scalar, the length of an
        #: array (Atari's 128 RAM bytes, MuJoCo's initial qpos and qvel).
        self.info_lens = list(raw.get("info_lens") or [1] * len(self.info_keys))
        #: float32 info columns per row of the library's batches.
        self.info_width = sum(self.info_lens)
        # Named slices of a flattened observation (the control suite's ordered dict):
        # {"position": slice(0, 8), "velocity": slice(8, 17)}; empty for other tasks.
        self.obs_layout = {f["name"]: slice(f["offset"], f["offset"] + f["size"])
                           for f in raw.get("obs_layout") or []}
        # The layout's one-value entries that are scalars (shape () per env, as EnvPool
        # declares them) rather than vectors of one.
        self.scalar_fields = frozenset(f["name"] for f in raw.get("obs_layout") or [] if f.get("scalar"))
        # Frames per layout entry when the engine stacks state observations (each
        # entry's frames together, oldest first).
        self.field_frames = {f["name"]: f.get("frames") or 1 for f in raw.get("obs_layout") or []}
        # Shapes of one frame of layout entries that are not vectors (MiniGrid's view).
        self.field_shapes = {f["name"]: tuple(f["shape"]) for f in raw.get("obs_layout") or [] if f.get("shape")}
        self.max_episode_steps = raw["max_episode_steps"] or None
        # Frames per second at which the task's pictures play in its own time
        # (Gymnasium's metadata["render_fps"]); None when the family declares none.
        self.render_fps = raw.get("render_fps")
        self.num_envs = raw["num_envs"]
        self.batch_size = raw["batch_size"]
        double = self.family in DOUBLE_FAMILIES
        #: The dtype of the observations the pools return; pictures (from_pixels) stay
        #: uint8, as EnvPool's do.
        pictures = raw["obs_dtype"] == "uint8"
        self.obs_dtype = np.dtype(np.float64) if double and not pictures else np.dtype(raw["obs_dtype"])
        self._float = np.float64 if double else np.float32
        self._config = self._make_config(options or {})

    # -- config -------------------------------------------------------------------

    def _make_config(self, options):
        raw = self.raw
        values = {
            "num_envs": raw["num_envs"], "batch_size": raw["batch_size"],
            "num_threads": raw["num_threads"], "max_num_players": 1,
            "thread_affinity_offset": raw["thread_affinity_offset"], "seed": raw["seed"],
            "gym_reset_return_info": True,
            "max_episode_steps": raw["max_episode_steps"] or INT32_MAX,
        }
        values.update((k, v) for k, v in options.items() if k not in values and v is not None)
        # The task's options left at their defaults, as the family reports them.
        for k, v in (raw.get("options") or {}).items():
            values.setdefault(k, v)
        if raw["family"] in ("atari", "mujoco"):
            values.setdefault("frame_skip", raw["frame_skip"])
        values.update(task_id=raw["task_id"], reward_threshold=self.reward_threshold,
                      auto_reset=raw["auto_reset"])
        return values

    @property
    def config(self):
        """Every option of the pool, pool-wide ones and the task's, as a namedtuple
        (EnvPool's spec.config); pool.config is the same as a dict."""
        return _namedtuple("Config", list(self._config.items()))

    @property
    def reward_threshold(self):
        """The score at which the task counts as solved; None when it has none."""
        return self.raw["reward_threshold"]

    # -- arrays -------------------------------------------------------------------

    def obs_fields(self):
        """The observation's entries as (name, offset, size): one "obs" entry, or the
        control suite's named fields unless the spec keeps them flat."""
        if self.obs_layout and not self.flat_obs:
            return [(k, s.start, s.stop - s.start) for k, s in self.obs_layout.items()]
        return [("obs", 0, None)]

    def field_of(self, flat, name, off, size):
        """Entry name of flat observations (one or a batch: the last axis is the flat
        one) in EnvPool's shape: its frames on an axis of their own when stacked, a
        scalar entry without its axis of one."""
        part = flat[..., off:off + size]
        k = self.field_frames.get(name, 1)
        frame = self.field_shapes.get(name, (size // k,))
        if k > 1 or len(frame) > 1:
            part = part.reshape(part.shape[:-1] + ((k,) if k > 1 else ()) + frame)
        return part[..., 0] if name in self.scalar_fields else part

    def field_dtype(self, name):
        """The dtype of observation entry name in the pools' results."""
        return np.dtype(_FIELD_DTYPES.get(name, self.obs_dtype))

    def info_dtype(self, key):
        """The dtype of the info column key in the pools' info dicts."""
        return np.dtype(_INFO_DTYPES.get(key, self._float))

    def info_span(self, key):
        """The first column of the info key in the library's batches and its number of
        columns (1 for a scalar), or None when the task has no such key."""
        at = 0
        for k, n in zip(self.info_keys, self.info_lens):
            if k == key:
                return at, n
            at += n
        return None

    def info_columns(self):
        """(first column, number of columns, key) of the Go info keys that go into info
        dicts: one column for a scalar key, the array's length for an array key."""
        return [self.info_span(k) + (k,) for k in self.info_keys if k not in TIMESTEP_COLUMNS]

    @property
    def state_array_spec(self):
        """Every array a pool returns, by EnvPool's key, as ArraySpec."""
        out = {
            "info:env_id": _int_spec([]),
            "info:players.env_id": _int_spec([-1]),
            "elapsed_step": _int_spec([]),
            "done": ArraySpec(np.bool_, [], False, True),
            "reward": _float_spec(np.float32, [-1]),
            "discount": _float_spec(np.float32, [-1], 0.0, 1.0),
            "step_type": _int_spec([], 0, 2),
            "trunc": ArraySpec(np.bool_, [], False, True),
        }
        shape = list(self.raw["obs_shape"])
        low = _bound(self.raw["obs_low"], "-inf", shape, self.obs_dtype)
        high = _bound(self.raw["obs_high"], "inf", shape, self.obs_dtype)
        for name, off, size in self.obs_fields():
            if size is None:
                out["obs"] = ArraySpec(self.obs_dtype, shape, low, high)
            else:
                part = (lambda v: v if np.ndim(v) == 0 else self.field_of(v, name, off, size))
                fshape = list(self.field_of(np.empty(int(np.prod(shape))), name, off, size).shape)
                dt = self.field_dtype(name)
                cast = (lambda v: v if np.ndim(v) == 0 else v.astype(dt))
                out["obs:" + name] = ArraySpec(dt, fshape, cast(part(low)), cast(part(high)))
        for _, n, k in self.info_columns():
            if k == "elapsed_step":
                continue  # the family's own count is the common elapsed_step
            dt = self.info_dtype(k)
            if n > 1 or k in _INFO_BOUNDS:
                whole = np.iinfo(dt) if dt.kind in "iu" else None
                low, high = _INFO_BOUNDS.get(k, (whole.min, whole.max) if whole else (-np.inf, np.inf))
                out["info:" + k] = ArraySpec(dt, [n], low, high)
            else:
                out["info:" + k] = _int_spec([-1]) if dt.kind == "i" else _float_spec(dt, [-1])
        return out

    @property
    def action_array_spec(self):
        """The arrays a pool takes in send and step, by EnvPool's key, as ArraySpec."""
        a = self.raw["action_space"]
        out = {"env_id": _int_spec([]), "players.env_id": _int_spec([-1])}
        if a["kind"] == "discrete":
            out["action"] = ArraySpec(np.int32, [-1], 0, a["n"] - 1, is_discrete=True)
        else:
            shape = tuple(a["shape"])
            f = np.float32 if self.family in FLOAT32_ACTION_FAMILIES else self._float
            out["action"] = ArraySpec(f, [-1] + list(shape), _bound(a["low"], "-inf", shape, f),
                                      _bound(a["high"], "inf", shape, f))
        return out

    # -- gym, gymnasium and dm_env views ----------------------------------------------

    def _obs_space(self, env_type):
        entries = []
        for k, a in self.state_array_spec.items():
            if k == "obs" or k.startswith("obs:"):
                entries.append((k[4:] or "obs", _spaces.box(env_type, a.minimum, a.maximum, a.shape, a.dtype)))
        if len(entries) == 1:
            return entries[0][1]
        return _spaces.dict_space(env_type, nest(entries, lambda pairs: _spaces.dict_space(env_type, pairs)))

    def _action_space(self, env_type):
        a = self.action_array_spec["action"]
        if a.is_discrete:
            return _spaces.discrete(env_type, a.maximum + 1)
        return _spaces.box(env_type, a.minimum, a.maximum, _row_shape(a.shape), a.dtype)

    @property
    def observation_space(self):
        """One env's observation space, gym's (a Dict of named fields for the control
        suite)."""
        return self._obs_space("gym")

    @property
    def action_space(self):
        """One env's action space, gym's."""
        return self._action_space("gym")

    @property
    def gymnasium_observation_space(self):
        """One env's observation space, gymnasium's."""
        return self._obs_space("gymnasium")

    @property
    def gymnasium_action_space(self):
        """One env's action space, gymnasium's."""
        return self._action_space("gymnasium")

    def observation_spec(self):
        """dm_env specs of one env's observation as a namedtuple "State": the
        observation entries and the info arrays, with players as a nested namedtuple."""
        entries = []
        for k, a in self.state_array_spec.items():
            if k == "info:players.env_id":
                entries.append(("players", _namedtuple("players", [("env_id", _dm_spec("env_id", a))])))
            elif k.startswith("info:") or k.startswith("obs:"):
                name = k.split(":", 1)[1]
                entries.append((name, _dm_spec(name.rsplit(":", 1)[-1], a)))
            elif k == "obs":
                entries.append(("obs", _dm_spec("obs", a)))
        # Nested entries (the kitchen's goals, named by task, with spaces) are dicts.
        return _namedtuple("State", nest(entries))

    def action_spec(self):
        """The dm_env spec of one env's action."""
        return _dm_spec("action", self.action_array_spec["action"])

    def __repr__(self):
        return "EnvSpec(%s)" % ", ".join("%s=%r" % kv for kv in self._config.items())
