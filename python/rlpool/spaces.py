"""Observation and action spaces: gymnasium's (or gym's) when they import, else small
stand-ins with the same attributes (shape, dtype, n, low, high, sample, contains)."""

import numpy as np


class Discrete:
    """The integers 0..n-1 (stand-in for gymnasium.spaces.Discrete)."""

    def __init__(self, n, seed=None):
        self.n = int(n)
        self.shape = ()
        self.dtype = np.dtype(np.int64)
        self._rng = np.random.default_rng(seed)

    def sample(self):
        """Return a uniformly random element."""
        return np.int64(self._rng.integers(self.n))

    def contains(self, x):
        """Report whether x is an integer in [0, n)."""
        a = np.asarray(x)
        return a.shape == () and a.dtype.kind in "iu" and 0 <= int(a) < self.n

    __contains__ = contains

    def seed(self, seed=None):
        """Reseed the sampler."""
        self._rng = np.random.default_rng(seed)

    def __repr__(self):
        return "Discrete(%d)" % self.n

    def __eq__(self, other):
        return isinstance(other, Discrete) and other.n == self.n


class Box:
    """A box of real (or uint8) arrays with per-element bounds (stand-in for
    gymnasium.spaces.Box)."""

    def __init__(self, low, high, shape, dtype, seed=None):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), self.shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), self.shape).copy()
        self._rng = np.random.default_rng(seed)

    def sample(self):
        """Return a random element: uniform where bounded, normal where unbounded."""
        if self.dtype.kind in "iu":
            return self._rng.integers(self.low, self.high, endpoint=True, dtype=self.dtype)
        lo = self.low.astype(np.float64)
        hi = self.high.astype(np.float64)
        out = self._rng.normal(size=self.shape)
        both = np.isfinite(lo) & np.isfinite(hi)
        out[both] = self._rng.uniform(lo[both], hi[both])
        out = np.where(np.isfinite(lo) & ~np.isfinite(hi), lo + np.abs(out), out)
        out = np.where(~np.isfinite(lo) & np.isfinite(hi), hi - np.abs(out), out)
        return out.astype(self.dtype)

    def contains(self, x):
        """Report whether x has the box's shape and lies within its bounds."""
        a = np.asarray(x)
        return a.shape == self.shape and bool(np.all(a >= self.low) and np.all(a <= self.high))

    __contains__ = contains

    def seed(self, seed=None):
        """Reseed the sampler."""
        self._rng = np.random.default_rng(seed)

    def __repr__(self):
        return "Box(%s, %s)" % (self.shape, self.dtype)


def _spaces_module(env_type):
    """Return gymnasium.spaces (or gym.spaces for env_type "gym") if importable."""
    names = ["gym", "gymnasium"] if env_type == "gym" else ["gymnasium"]
    for name in names:
        try:
            mod = __import__(name + ".spaces", fromlist=["spaces"])
            return mod
        except Exception:  # noqa: BLE001 - any import failure means "not available"
            continue
    return None


def _bound(v, shape, dtype):
    """Turn a bound from the spec JSON (number, "inf" string or list) into an array."""
    if isinstance(v, list):
        arr = np.array([float(x) for x in v], dtype=np.float64)
    else:
        arr = np.full(shape, float(v), dtype=np.float64)
    return arr.reshape(shape).astype(dtype)


def observation_space(spec, env_type):
    """Build the observation space described by the spec JSON."""
    shape = tuple(spec["obs_shape"])
    dtype = np.dtype(spec["obs_dtype"])
    low = _bound(spec["obs_low"] if spec["obs_low"] is not None else "-inf", shape, dtype)
    high = _bound(spec["obs_high"] if spec["obs_high"] is not None else "inf", shape, dtype)
    mod = _spaces_module(env_type)
    if mod is not None:
        return mod.Box(low=low, high=high, shape=shape, dtype=dtype)
    return Box(low, high, shape, dtype)


def action_space(spec, env_type):
    """Build the action space described by the spec JSON."""
    a = spec["action_space"]
    mod = _spaces_module(env_type)
    if a["kind"] == "discrete":
        return mod.Discrete(a["n"]) if mod is not None else Discrete(a["n"])
    shape = tuple(a["shape"])
    low = _bound(a["low"], shape, np.float32)
    high = _bound(a["high"], shape, np.float32)
    if mod is not None:
        return mod.Box(low=low, high=high, shape=shape, dtype=np.float32)
    return Box(low, high, shape, np.float32)
