"""dm_env's types for the "dm" pools: dm_env's own when it imports, else stand-ins with
the same names, fields and attributes (TimeStep, StepType, specs.Array,
specs.BoundedArray, specs.DiscreteArray), so code written against dm_env runs either way.
"""

import collections
import enum

import numpy as np

try:  # dm_env is optional: rlpool needs only numpy.
    import dm_env as _dm_env
except Exception:  # noqa: BLE001 - any import failure means "not available"
    _dm_env = None


class _StepType(enum.IntEnum):
    """Where a time step lies in its episode (dm_env.StepType): FIRST after a reset,
    MID inside, LAST at the end."""

    FIRST = 0
    MID = 1
    LAST = 2

    def first(self):
        """Report whether this is the first step of an episode."""
        return self is _StepType.FIRST

    def mid(self):
        """Report whether this step is neither first nor last."""
        return self is _StepType.MID

    def last(self):
        """Report whether this is the last step of an episode."""
        return self is _StepType.LAST


class _TimeStep(collections.namedtuple("TimeStep", ["step_type", "reward", "discount", "observation"])):
    """One batch of time steps (dm_env.TimeStep): every field holds one row per env."""

    __slots__ = ()

    def first(self):
        """Report whether every row is the first step of an episode (dm_env's scalar
        test, extended to a batch)."""
        return bool(np.all(np.asarray(self.step_type) == _StepType.FIRST))

    def mid(self):
        """Report whether every row is a middle step."""
        return bool(np.all(np.asarray(self.step_type) == _StepType.MID))

    def last(self):
        """Report whether every row is the last step of an episode."""
        return bool(np.all(np.asarray(self.step_type) == _StepType.LAST))


class Array:
    """An array's shape and dtype (dm_env.specs.Array)."""

    def __init__(self, shape, dtype, name=None):
        self._shape = tuple(int(d) for d in shape)
        self._dtype = np.dtype(dtype)
        self._name = name

    @property
    def shape(self):
        """The array's shape (one env's, without the batch dimension)."""
        return self._shape

    @property
    def dtype(self):
        """The array's numpy dtype."""
        return self._dtype

    @property
    def name(self):
        """The array's name (the observation or action entry it describes)."""
        return self._name

    def validate(self, value):
        """Return value as an array if it has this spec's shape, else raise ValueError."""
        value = np.asarray(value)
        if value.shape != self._shape:
            raise ValueError("rlpool: %r: shape %s, want %s" % (self._name, value.shape, self._shape))
        return value

    def generate_value(self):
        """Return an array of zeros that conforms to the spec."""
        return np.zeros(self._shape, self._dtype)

    def __repr__(self):
        return "Array(shape=%s, dtype=%s, name=%r)" % (self._shape, self._dtype, self._name)


class BoundedArray(Array):
    """An array with per-element bounds (dm_env.specs.BoundedArray)."""

    def __init__(self, shape, dtype, minimum, maximum, name=None):
        super().__init__(shape, dtype, name)
        self._minimum = np.broadcast_to(np.asarray(minimum, dtype=self._dtype), self._shape)
        self._maximum = np.broadcast_to(np.asarray(maximum, dtype=self._dtype), self._shape)

    @property
    def minimum(self):
        """The smallest value of every element."""
        return self._minimum

    @property
    def maximum(self):
        """The largest value of every element."""
        return self._maximum

    def validate(self, value):
        """Return value as an array if it has this spec's shape and lies within its
        bounds, else raise ValueError."""
        value = super().validate(value)
        if (value < self._minimum).any() or (value > self._maximum).any():
            raise ValueError("rlpool: %r: value out of [minimum, maximum]" % (self._name,))
        return value

    def generate_value(self):
        """Return the minimum, an array that conforms to the spec."""
        return np.array(self._minimum, dtype=self._dtype)

    def __repr__(self):
        return "BoundedArray(shape=%s, dtype=%s, name=%r, minimum=%s, maximum=%s)" % (
            self._shape, self._dtype, self._name, self._minimum, self._maximum)


class DiscreteArray(BoundedArray):
    """A scalar integer in [0, num_values) (dm_env.specs.DiscreteArray)."""

    def __init__(self, num_values, dtype=np.int32, name=None):
        super().__init__((), dtype, 0, int(num_values) - 1, name)
        self._num_values = int(num_values)

    @property
    def num_values(self):
        """The number of values the integer takes."""
        return self._num_values

    def __repr__(self):
        return "DiscreteArray(dtype=%s, name=%r, num_values=%d)" % (self._dtype, self._name, self._num_values)


class _Specs:
    """The stand-in for the dm_env.specs module."""

    Array = Array
    BoundedArray = BoundedArray
    DiscreteArray = DiscreteArray


if _dm_env is not None:
    StepType = _dm_env.StepType
    TimeStep = _dm_env.TimeStep
    specs = _dm_env.specs
    Environment = _dm_env.Environment
else:
    StepType = _StepType
    TimeStep = _TimeStep
    specs = _Specs
    Environment = object
