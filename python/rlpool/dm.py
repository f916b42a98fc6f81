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
        """Report, row by row, whether a step is the first of its episode (dm_env's
        comparison, which numpy applies per row)."""
        return np.asarray(self.step_type) == _StepType.FIRST

    def mid(self):
        """Report, row by row, whether a step is neither first nor last."""
        return np.asarray(self.step_type) == _StepType.MID

    def last(self):
        """Report, row by row, whether a step is the last of its episode."""
        return np.asarray(self.step_type) == _StepType.LAST


class Array:
    """An array's shape (one env's, without the batch dimension), numpy dtype and name
    (the observation or action entry it describes) (dm_env.specs.Array)."""

    def __init__(self, shape, dtype, name=None):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.name = name

    def validate(self, value):
        """Return value as an array if it has this spec's shape, else raise ValueError."""
        value = np.asarray(value)
        if value.shape != self.shape:
            raise ValueError("rlpool: %r: shape %s, want %s" % (self.name, value.shape, self.shape))
        return value

    def generate_value(self):
        """Return an array of zeros that conforms to the spec."""
        return np.zeros(self.shape, self.dtype)

    def __repr__(self):
        return "Array(shape=%s, dtype=%s, name=%r)" % (self.shape, self.dtype, self.name)


class BoundedArray(Array):
    """An array with per-element bounds, minimum and maximum
    (dm_env.specs.BoundedArray)."""

    def __init__(self, shape, dtype, minimum, maximum, name=None):
        super().__init__(shape, dtype, name)
        self.minimum = np.broadcast_to(np.asarray(minimum, dtype=self.dtype), self.shape)
        self.maximum = np.broadcast_to(np.asarray(maximum, dtype=self.dtype), self.shape)

    def validate(self, value):
        """Return value as an array if it has this spec's shape and lies within its
        bounds, else raise ValueError."""
        value = super().validate(value)
        if (value < self.minimum).any() or (value > self.maximum).any():
            raise ValueError("rlpool: %r: value out of [minimum, maximum]" % (self.name,))
        return value

    def generate_value(self):
        """Return the minimum, an array that conforms to the spec."""
        return np.array(self.minimum, dtype=self.dtype)

    def __repr__(self):
        return "BoundedArray(shape=%s, dtype=%s, name=%r, minimum=%s, maximum=%s)" % (
            self.shape, self.dtype, self.name, self.minimum, self.maximum)


class DiscreteArray(BoundedArray):
    """A scalar integer in [0, num_values) (dm_env.specs.DiscreteArray)."""

    def __init__(self, num_values, dtype=np.int32, name=None):
        super().__init__((), dtype, 0, int(num_values) - 1, name)
        self.num_values = int(num_values)

    def __repr__(self):
        return "DiscreteArray(dtype=%s, name=%r, num_values=%d)" % (self.dtype, self.name, self.num_values)


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
