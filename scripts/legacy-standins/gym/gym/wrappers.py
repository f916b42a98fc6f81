"""The gym 0.23 wrappers that EnvPool 0.6 training scripts put around a pool, for the
gym stand-in. Each works on a vector env (is_vector_env true: arrays with a leading
num_envs axis, as a pool returns) and on a single env."""

import numpy as np

from . import ActionWrapper, ObservationWrapper, RewardWrapper, Wrapper


class RunningMeanStd:
    """Mean and variance of everything passed to update, merged batch by batch (the
    pairwise update of Chan, Golub and LeVeque). It starts from mean 0, variance 1 and
    a weight of epsilon samples, so that the first division is by a finite scale."""

    def __init__(self, shape=(), epsilon=1e-4):
        self.mean = np.zeros(shape, np.float64)
        self.var = np.ones(shape, np.float64)
        self.count = epsilon

    def update(self, batch):
        """Merge a batch (rows along the first axis) into the statistics."""
        batch = np.asarray(batch, np.float64)
        n = batch.shape[0]
        batch_mean, batch_var = batch.mean(axis=0), batch.var(axis=0)
        total = self.count + n
        delta = batch_mean - self.mean
        m2 = self.var * self.count + batch_var * n + delta * delta * self.count * n / total
        self.mean = self.mean + delta * n / total
        self.var = m2 / total
        self.count = total


def _vector(env):
    return bool(getattr(env, "is_vector_env", False))


class ClipAction(ActionWrapper):
    """Clip continuous actions into the action space's bounds."""

    def action(self, action):
        return np.clip(action, self.action_space.low, self.action_space.high)


class _Keep:
    """Keeps the function f of the Transform wrappers."""

    def __init__(self, env, f):
        super().__init__(env)
        self.f = f


class TransformObservation(_Keep, ObservationWrapper):
    """Apply f to every observation."""

    def observation(self, observation):
        return self.f(observation)


class TransformReward(_Keep, RewardWrapper):
    """Apply f to every reward."""

    def reward(self, reward):
        return self.f(reward)


class NormalizeObservation(Wrapper):
    """Scale observations to about zero mean and unit variance with running statistics
    of every observation seen so far, reset's included."""

    def __init__(self, env, epsilon=1e-8):
        super().__init__(env)
        self.num_envs = getattr(env, "num_envs", 1)
        self.is_vector_env = _vector(env)
        space = self.single_observation_space if self.is_vector_env else self.observation_space
        self.obs_rms = RunningMeanStd(shape=space.shape)
        self.epsilon = epsilon

    def normalize(self, obs):
        """Update the statistics with obs and return it scaled by them."""
        rows = obs if self.is_vector_env else np.asarray([obs])
        self.obs_rms.update(rows)
        out = (rows - self.obs_rms.mean) / np.sqrt(self.obs_rms.var + self.epsilon)
        return out if self.is_vector_env else out[0]

    def reset(self, **kwargs):
        result = self.env.reset(**kwargs)
        if isinstance(result, tuple):
            return (self.normalize(result[0]),) + result[1:]
        return self.normalize(result)

    def step(self, action):
        obs, reward, done, info = self.env.step(action)
        return self.normalize(obs), reward, done, info


class NormalizeReward(Wrapper):
    """Divide rewards by the running standard deviation of the discounted return, which
    restarts at 0 when an episode ends."""

    def __init__(self, env, gamma=0.99, epsilon=1e-8):
        super().__init__(env)
        self.num_envs = getattr(env, "num_envs", 1)
        self.is_vector_env = _vector(env)
        self.return_rms = RunningMeanStd(shape=())
        self.returns = np.zeros(self.num_envs)
        self.gamma = gamma
        self.epsilon = epsilon

    def step(self, action):
        obs, reward, done, info = self.env.step(action)
        rewards = np.asarray(reward, np.float64) if self.is_vector_env else np.asarray([reward], np.float64)
        self.returns = self.returns * self.gamma + rewards
        self.return_rms.update(self.returns)
        rewards = rewards / np.sqrt(self.return_rms.var + self.epsilon)
        self.returns[np.asarray(done, np.bool_).reshape(-1)] = 0.0
        return obs, (rewards if self.is_vector_env else rewards[0]), done, info


__all__ = ["ClipAction", "NormalizeObservation", "NormalizeReward", "RunningMeanStd",
           "TransformObservation", "TransformReward"]
