"""A stand-in for the parts of gym 0.23 that EnvPool 0.6 training scripts use around
the pool (Env, Wrapper and its three kinds, spaces, wrappers), for machines where no
gym package can be installed (Debian packages none). scripts/legacy-training.sh puts
it on PYTHONPATH only when `import gym` fails, and says so. The spaces are rlpool's
own, so that a script's isinstance checks on the pool's spaces hold.

It follows gym 0.23's interface: reset returns what the env returns, step a 4-tuple.
It is not gym: only what those scripts reach is here.
"""

__version__ = "0.23.1"
STANDIN = True


class Env:
    """The base of environments: what gym.Env gives subclasses that define step and
    reset themselves."""

    metadata = {"render_modes": []}
    reward_range = (-float("inf"), float("inf"))

    @property
    def unwrapped(self):
        """The innermost env (self here; a Wrapper forwards)."""
        return self

    def close(self):
        """Release the env's resources (nothing here)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _own_or_env(name):
    """A property for a Wrapper: the value assigned to it on the wrapper, else env's."""

    def get(self):
        own = self.__dict__.get("_own_" + name)
        return getattr(self.env, name) if own is None else own

    def put(self, value):
        self.__dict__["_own_" + name] = value

    return property(get, put, doc="The wrapper's own %s if one was assigned, else env's." % name)


class Wrapper(Env):
    """An env around env: every call and every attribute it does not set itself goes to
    env, so attributes set on the pool (num_envs, single_action_space, ...) are seen
    through any number of wrappers."""

    def __init__(self, env):
        self.env = env

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError("accessing private attribute %r is prohibited" % name)
        return getattr(self.env, name)

    action_space = _own_or_env("action_space")
    observation_space = _own_or_env("observation_space")

    @property
    def unwrapped(self):
        """The innermost env: env's own unwrapped, or env itself when it has none (a
        pool made before this module was imported is no Env)."""
        return getattr(self.env, "unwrapped", self.env)

    def reset(self, **kwargs):
        """env's reset."""
        return self.env.reset(**kwargs)

    def step(self, action):
        """env's step: (obs, reward, done, info)."""
        return self.env.step(action)

    def close(self):
        """Close env."""
        return self.env.close()


class ObservationWrapper(Wrapper):
    """A wrapper that maps every observation, from reset and from step, through
    self.observation."""

    def reset(self, **kwargs):
        result = self.env.reset(**kwargs)
        if isinstance(result, tuple):  # reset(return_info=True): (obs, info)
            return (self.observation(result[0]),) + result[1:]
        return self.observation(result)

    def step(self, action):
        obs, reward, done, info = self.env.step(action)
        return self.observation(obs), reward, done, info

    def observation(self, observation):
        """The observation the wrapper returns for env's observation."""
        raise NotImplementedError


class RewardWrapper(Wrapper):
    """A wrapper that maps every step's reward through self.reward."""

    def step(self, action):
        obs, reward, done, info = self.env.step(action)
        return obs, self.reward(reward), done, info

    def reward(self, reward):
        """The reward the wrapper returns for env's reward."""
        raise NotImplementedError


class ActionWrapper(Wrapper):
    """A wrapper that maps every action through self.action before env sees it."""

    def step(self, action):
        return self.env.step(self.action(action))

    def action(self, action):
        """The action env gets for the caller's action."""
        raise NotImplementedError


from . import spaces, wrappers  # noqa: E402 - the wrappers subclass the classes above

__all__ = ["Env", "Wrapper", "ObservationWrapper", "RewardWrapper", "ActionWrapper", "spaces", "wrappers"]
