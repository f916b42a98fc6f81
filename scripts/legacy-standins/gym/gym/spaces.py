"""gym.spaces for the stand-in: rlpool's spaces, which the pools return when no gym
imports, so isinstance(pool.action_space, gym.spaces.Box) holds."""

from rlpool.spaces import Box, Dict, Discrete

__all__ = ["Box", "Dict", "Discrete"]
