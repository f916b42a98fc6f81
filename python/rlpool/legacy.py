"""EnvPool 0.6's interface, which CleanRL's and rl_games' EnvPool scripts were written
for (they pin envpool<0.7): `import rlpool.legacy as envpool`.

The differences from rlpool's (EnvPool 1.x's) interface are in the gym pools: reset
returns the observations alone (unless gym_reset_return_info=True), step returns
(obs, reward, done, info) with done = terminated or truncated and
info["TimeLimit.truncated"], and the attributes scripts assign to (num_envs,
observation_space, action_space, single_observation_space, single_action_space,
is_vector_env) are plain attributes. The dm and gymnasium pools are rlpool's.
"""

from . import DMEnvPool, GymnasiumEnvPool, __version__, build, list_all_envs, make_spec, with_env_type
from .pool import GymEnvPool

__all__ = ["make", "make_gym", "make_dm", "make_gymnasium", "make_spec", "list_all_envs",
           "LegacyGymEnvPool", "__version__"]


class LegacyGymEnvPool(GymEnvPool):
    """A gym pool with EnvPool 0.6's results and assignable attributes."""

    # Plain attributes in place of the properties, so that scripts can assign them
    # (CleanRL's `envs.num_envs = n`); set per pool in __init__. The pool's own calls
    # never read them.
    num_envs = None
    observation_space = None
    action_space = None
    single_observation_space = None
    single_action_space = None
    is_vector_env = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.num_envs = self._num_envs
        self.observation_space = self.spec.observation_space
        self.action_space = self.spec.action_space
        self.single_observation_space = self.observation_space
        self.single_action_space = self.action_space
        self.is_vector_env = True

    def _to(self, b, reset, return_info):
        obs, info = self._observation(b["obs"]), self._info(b)
        if reset:
            return (obs, info) if return_info else obs
        info["TimeLimit.truncated"] = b["truncated"]
        return obs, b["reward"], b["terminated"] | b["truncated"], info


_LEGACY_POOLS = {"gym": LegacyGymEnvPool, "dm": DMEnvPool, "gymnasium": GymnasiumEnvPool}


def make(task_id, env_type="gym", **kwargs):
    """Make a pool with EnvPool 0.6's interface for env_type "gym" (the default), "dm"
    or "gymnasium"; the keywords are rlpool.make's, plus gym_reset_return_info
    (default False: reset returns the observations alone)."""
    return build(task_id, env_type, kwargs, pools=_LEGACY_POOLS, legacy=True)


make_gym = with_env_type(make, "gym")
make_dm = with_env_type(make, "dm")
make_gymnasium = with_env_type(make, "gymnasium")
