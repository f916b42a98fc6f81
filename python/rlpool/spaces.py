"""Observation and action spaces: gymnasium's (or gym's) when they import, else small
stand-ins with the same attributes (shape, dtype, n, low, high, spaces, sample,
contains)."""

import numpy as np


class Discrete:
    """The integers 0..n-1 (stand-in for gymnasium.spaces.Discrete)."""

    def __init__(self, n, seed=None):
        self.n = int(n)
        self.start = 0
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


class Dict:
    """Named sub-spaces in order (stand-in for gymnasium.spaces.Dict): the control
    suite's observations, one entry per field."""

    def __init__(self, spaces, seed=None):
        self.spaces = dict(spaces)
        self.shape = None
        self.dtype = None
        if seed is not None:
            self.seed(seed)

    def sample(self):
        """Return a dict with a random element of every sub-space."""
        return {k: s.sample() for k, s in self.spaces.items()}

    def contains(self, x):
        """Report whether x is a dict with the same keys, each in its sub-space."""
        return isinstance(x, dict) and set(x) == set(self.spaces) and all(
            s.contains(x[k]) for k, s in self.spaces.items())

    __contains__ = contains

    def seed(self, seed=None):
        """Reseed every sub-space's sampler, each from its own draw of seed."""
        seeds = np.random.SeedSequence(seed).spawn(len(self.spaces))
        for s, ss in zip(self.spaces.values(), seeds):
            s.seed(int(ss.generate_state(1)[0]))

    def __getitem__(self, key):
        return self.spaces[key]

    def __iter__(self):
        return iter(self.spaces)

    def __len__(self):
        return len(self.spaces)

    def keys(self):
        """The names of the sub-spaces."""
        return self.spaces.keys()

    def items(self):
        """(name, sub-space) pairs."""
        return self.spaces.items()

    def __repr__(self):
        return "Dict(%s)" % ", ".join("%r: %s" % kv for kv in self.spaces.items())


def spaces_module(env_type):
    """Return gymnasium.spaces (gym.spaces, then gymnasium's, for env_type "gym") if
    importable, else None (the stand-ins above)."""
    names = ["gym", "gymnasium"] if env_type == "gym" else ["gymnasium"]
    for name in names:
        try:
            return __import__(name + ".spaces", fromlist=["spaces"])
        except Exception:  # noqa: BLE001 - any import failure means "not available"
            continue
    return None


def bound(v, shape, dtype):
    """Turn a bound from the spec JSON (number, "inf" string or list) into an array."""
    if isinstance(v, list):
        arr = np.array([float(x) for x in v], dtype=np.float64)
    else:
        arr = np.full(shape, float(v), dtype=np.float64)
    return arr.reshape(shape).astype(dtype)


def box(env_type, low, high, shape, dtype):
    """A Box space of the kind env_type uses."""
    mod = spaces_module(env_type)
    if mod is not None:
        return mod.Box(low=low, high=high, shape=shape, dtype=dtype)
    return Box(low, high, shape, dtype)


def discrete(env_type, n):
    """A Discrete space of the kind env_type uses."""
    mod = spaces_module(env_type)
    return mod.Discrete(n) if mod is not None else Discrete(n)


def dict_space(env_type, entries):
    """A Dict space of the kind env_type uses, over the (name, space) pairs in order."""
    mod = spaces_module(env_type)
    return mod.Dict(dict(entries)) if mod is not None else Dict(entries)
