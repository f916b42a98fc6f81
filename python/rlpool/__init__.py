"""rlpool from Python, with EnvPool's interface: `import rlpool as envpool` is the one
change a script written for EnvPool 1.x makes (rlpool.legacy has EnvPool 0.6's).

    import rlpool
    print(rlpool.list_all_envs())  # the task ids
    envs = rlpool.make(task_id, env_type="gymnasium", num_envs=8)
    obs, info = envs.reset()
    actions = np.zeros(8, dtype=np.int64)  # one per env, for a task with discrete actions
    obs, reward, terminated, truncated, info = envs.step(actions)

env_type "gymnasium" and "gym" return tuples (gym as EnvPool 1.x gives it, the same
shapes as gymnasium), "dm" returns dm_env TimeSteps. The pool runs in Go
(librlpool.so, built by `make python`); this package is pure Python, numpy and
ctypes, and uses gymnasium, gym and dm_env when they import (stand-ins with the same
attributes otherwise). Sync mode (batch_size == num_envs) returns the envs sent, in the
order they were sent (every env in env order for a step of all of them); async mode
(batch_size < num_envs) returns the first batch_size envs to finish, and
info["env_id"] says which:

    envs = rlpool.make(task_id, env_type="gymnasium", num_envs=16, batch_size=8)
    envs.async_reset()
    while True:
        obs, rew, term, trunc, info = envs.recv()
        envs.send(policy(obs), info["env_id"])

Returned arrays are fresh numpy arrays, unless the pool was made with zero_copy=True:
then those that need no conversion are views of buffers that the next recv (or step,
reset) overwrites. Errors from the engine raise ValueError (bad arguments: unknown task
or option, wrong action dtype or shape, env id out of range) or RuntimeError (anything
else, such as a call on a closed pool), with the engine's message. Where EnvPool raises
AssertionError (unknown task or env_type, bad num_envs or batch_size) or TypeError (an
option the task does not take), the error is also of that class.
"""

import json
import numbers

from . import _lib
from .pool import DMEnvPool, GymEnvPool, GymnasiumEnvPool, RLPool, options_json
from .spec import ArraySpec, EnvSpec

__all__ = [
    "make", "make_gymnasium", "make_gym", "make_dm", "make_spec", "list_all_envs",
    "EnvSpec", "ArraySpec", "EnvPool", "RLPool", "DMEnvPool", "GymnasiumEnvPool", "GymEnvPool",
    "MakeError", "OptionError", "version", "__version__",
]

#: The Python package's own version (not EnvPool's).
__version__ = "0.1.0"

#: EnvPool's name for the class every pool is an instance of (envpool.EnvPool).
EnvPool = RLPool

_POOLS = {"gymnasium": GymnasiumEnvPool, "gym": GymEnvPool, "dm": DMEnvPool}
_RENDER_KEYS = ("render_mode", "render_env_id", "render_width", "render_height", "render_camera_id")


class MakeError(ValueError, AssertionError):
    """A task id, env_type or pool size make cannot use. A ValueError, and an
    AssertionError as EnvPool raises for the same mistakes."""


class OptionError(ValueError, TypeError):
    """An option the task does not take. A ValueError, and a TypeError as EnvPool's
    config raises for an unexpected keyword."""


def version():
    """Return the version of the C API rlpool was built with."""
    return _lib.version()


def list_all_envs():
    """Return every task id rlpool knows, sorted."""
    return _lib.list_tasks()


def _compat(err):
    """Return err as MakeError or OptionError where EnvPool raises AssertionError or
    TypeError for that mistake; other errors unchanged."""
    msg = str(err)
    if not isinstance(err, ValueError) or isinstance(err, (MakeError, OptionError)):
        return err
    if "unknown option" in msg:
        return OptionError(msg)
    if "unknown task" in msg or "num_envs =" in msg or "batch_size =" in msg:
        return MakeError(msg)
    return err


def _split_options(kwargs, legacy=False):
    """Check the EnvPool-only keywords of make and make_spec and take them out of
    kwargs: render options (kept for render_mode), gym_reset_return_info,
    max_num_players, thread_pool; per-env seed lists are refused. Returns
    (render options, gym_reset_return_info)."""
    render = {k: kwargs.pop(k) for k in _RENDER_KEYS if k in kwargs}
    if render.get("render_mode") not in (None, "rgb_array", "human"):
        raise ValueError("rlpool: render_mode must be None, 'rgb_array' or 'human', got %r" % (render["render_mode"],))
    reset_info = kwargs.pop("gym_reset_return_info", not legacy)
    if not reset_info and not legacy:
        raise ValueError("rlpool: gym_reset_return_info=False is EnvPool 0.6's reset; the gym "
                         "pools return (obs, info) from reset (rlpool.legacy has the old one)")
    if kwargs.pop("max_num_players", 1) != 1:
        raise ValueError("rlpool: max_num_players: every task has one player")
    if kwargs.pop("thread_pool", None) is not None:
        raise ValueError("rlpool: thread_pool is not supported: every pool has its own threads")
    seed = kwargs.get("seed")
    if "env_seed" in kwargs or isinstance(seed, (list, tuple)) or hasattr(seed, "shape") and seed.shape:
        raise ValueError("rlpool: per-env seeds (env_seed, a list of seeds) are not supported; "
                         "env i is seeded seed + i")
    for name in ("num_envs", "batch_size", "num_threads", "seed", "max_episode_steps"):
        v = kwargs.get(name)
        if v is not None and (isinstance(v, bool) or not isinstance(v, numbers.Integral)):
            raise ValueError("rlpool: %s = %r: want an integer" % (name, v))
    return render, bool(reset_info)


def _pool_kwargs(kwargs):
    """Separate rlpool's own switches (zero_copy, flat_obs) from the options."""
    return {"zero_copy": kwargs.pop("zero_copy", False), "flat_obs": kwargs.pop("flat_obs", False)}


def build(task_id, env_type, kwargs, pools=None, legacy=False):
    """Make a pool of the class pools[env_type] (default: the EnvPool 1.x ones) from
    make's keywords. rlpool.legacy builds its pools with it."""
    pools = pools or _POOLS
    if env_type not in pools:
        raise MakeError("rlpool: env_type %r is not supported; use one of %s" % (env_type, ", ".join(map(repr, pools))))
    kwargs = dict(kwargs)
    render, reset_info = _split_options(kwargs, legacy)
    own = _pool_kwargs(kwargs)
    kwargs.setdefault("num_envs", 1)
    kwargs.setdefault("seed", 0)
    try:
        pool = pools[env_type](task_id, options=kwargs, render_options=render, **own)
    except ValueError as e:
        raise _compat(e) from None
    pool.spec._config["gym_reset_return_info"] = pool._config["gym_reset_return_info"] = reset_info
    return pool


def make(task_id: str, env_type: str = "gymnasium", **kwargs) -> RLPool:
    """Make a pool of task_id (EnvPool's envpool.make) with EnvPool 1.x's interface for
    env_type: "gymnasium" (the default), "gym" or "dm".

    Pool options: num_envs (default 1), batch_size (< num_envs is async mode),
    num_threads (default min(batch_size, cores)), seed (env i is seeded seed + i;
    default 0), max_episode_steps (overrides the task's time limit),
    thread_affinity_offset. Every other keyword is the task's own option (e.g.
    frame_skip for Atari); unknown ones raise OptionError naming them. rlpool's own
    switches, all off by default: auto_reset="same_step" (an episode's end and the next
    reset in one row, the end's observation in info["final_obs"]), zero_copy=True
    (views of reused buffers), flat_obs=True (a control-suite observation as one flat
    array instead of named fields). frame_stack=k on a MuJoCo or control-suite task
    (without from_pixels) returns each env's last k observations, oldest first, as
    EnvPool does: shape (k, ...) per env, the first observation of an episode repeated
    k times.
    """
    return build(task_id, env_type, kwargs)


def with_env_type(make_fn, env_type, pool_cls=None):
    """Return make_fn with env_type fixed: make_gym, make_dm and the like. pool_cls,
    the class of the pools it makes, becomes its return annotation, so that type
    checkers and typing.get_type_hints see it."""
    def make_typed(task_id, **kwargs):
        return make_fn(task_id, env_type=env_type, **kwargs)
    make_typed.__name__ = make_typed.__qualname__ = "make_" + env_type
    make_typed.__doc__ = "make(task_id, env_type=%r, ...)." % env_type
    if pool_cls is not None:
        make_typed.__annotations__ = {"task_id": str, "return": pool_cls}
    return make_typed


make_gymnasium = with_env_type(make, "gymnasium", GymnasiumEnvPool)
# A GymEnvPool is a GymnasiumEnvPool (EnvPool 1.2's make_gym makes a gymnasium pool).
make_gym = with_env_type(make, "gym", GymnasiumEnvPool)
make_dm = with_env_type(make, "dm", DMEnvPool)


def make_spec(task_id: str, **kwargs) -> EnvSpec:
    """Return the EnvSpec a pool made with these keywords would have, without making
    the pool or its envs (EnvPool's envpool.make_spec). Bad options raise as make does."""
    if not isinstance(task_id, str):
        raise MakeError("rlpool: task_id must be a string, got %r" % (task_id,))
    kwargs = dict(kwargs)
    _split_options(kwargs)
    flat = _pool_kwargs(kwargs)["flat_obs"]
    kwargs.setdefault("num_envs", 1)
    kwargs.setdefault("seed", 0)
    try:
        raw = _lib.task_spec(task_id, options_json(kwargs))
    except ValueError as e:
        raise _compat(e) from None
    return EnvSpec(json.loads(raw), kwargs, flat_obs=flat)
