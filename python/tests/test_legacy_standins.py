"""Tests of the gym 0.23 and SummaryWriter stand-ins that scripts/legacy-training.sh
puts under EnvPool 0.6 training scripts when gym or tensorboard is not installed: the
wrappers' arithmetic, attribute forwarding to an rlpool.legacy pool, and the stand-in
torch.utils.tensorboard finder."""

import importlib
import os
import subprocess
import sys

import numpy as np
import pytest

import rlpool
import rlpool.legacy

STANDINS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "legacy-standins")


@pytest.fixture
def gym():
    """The stand-in gym, imported for one test and then taken out of sys.modules and
    sys.path again, so that the other tests see the machine's own packages."""
    saved = {k: v for k, v in sys.modules.items() if k == "gym" or k.startswith("gym.")}
    for k in saved:
        del sys.modules[k]
    sys.path.insert(0, os.path.join(STANDINS, "gym"))
    try:
        mod = importlib.import_module("gym")
        assert mod.STANDIN
        yield mod
    finally:
        sys.path.remove(os.path.join(STANDINS, "gym"))
        for k in [k for k in sys.modules if k == "gym" or k.startswith("gym.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def test_running_mean_std_merges_batches(gym):
    rms = gym.wrappers.RunningMeanStd(shape=(2,), epsilon=0.0)
    rms.update(np.array([[1.0, 10.0], [3.0, 10.0]]))
    rms.update(np.array([[5.0, 40.0]]))
    # The rows 1, 3, 5 and 10, 10, 40: means 3 and 20, variances 8/3 and 200.
    np.testing.assert_allclose(rms.mean, [3.0, 20.0])
    np.testing.assert_allclose(rms.var, [8.0 / 3.0, 200.0])
    assert rms.count == 3


class _FakeVectorEnv:
    """Two envs whose rewards are 1 and 2 every step; env 0's episode ends at step 2."""

    num_envs = 2
    is_vector_env = True

    def __init__(self):
        self.t = 0

    def step(self, action):
        self.t += 1
        done = np.array([self.t == 2, False])
        return np.zeros((2, 1)), np.array([1.0, 2.0], np.float32), done, {}


def test_normalize_reward_divides_by_the_return_scale_and_restarts_returns(gym):
    env = gym.wrappers.NormalizeReward(_FakeVectorEnv(), gamma=0.5)
    env.step(None)
    np.testing.assert_allclose(env.returns, [1.0, 2.0])
    _, reward, _, _ = env.step(None)
    # Step 2: returns 0.5 * [1, 2] + [1, 2] = [1.5, 3]; env 0's restarts after its end.
    np.testing.assert_allclose(env.returns, [0.0, 3.0])
    np.testing.assert_allclose(reward, np.array([1.0, 2.0]) / np.sqrt(env.return_rms.var + env.epsilon))
    # The statistics saw the returns 1, 2, then 1.5, 3 (and a weight of 1e-4 at 0 +- 1).
    assert env.return_rms.count == pytest.approx(4.0001)
    assert env.return_rms.mean == pytest.approx(7.5 / 4.0001)


def test_wrappers_around_a_legacy_pool(gym):
    """The MuJoCo script's chain on a continuous pool: attributes assigned to the pool are
    seen through the wrappers, actions are clipped to the pool's bounds, observations
    come back normalised and clipped."""
    envs = rlpool.legacy.make("Pendulum-v1", env_type="gym", num_envs=3)
    envs.num_envs = 3
    envs.single_action_space = envs.action_space
    envs.single_observation_space = envs.observation_space
    envs.is_vector_env = True
    wrapped = gym.wrappers.ClipAction(envs)
    wrapped = gym.wrappers.NormalizeObservation(wrapped)
    wrapped = gym.wrappers.TransformObservation(wrapped, lambda obs: np.clip(obs, -0.5, 0.5))
    wrapped = gym.wrappers.NormalizeReward(wrapped)
    assert isinstance(wrapped.single_action_space, gym.spaces.Box)
    assert wrapped.num_envs == 3 and wrapped.unwrapped is envs
    # A space assigned to a wrapper is that wrapper's (and those outside it) alone.
    inner = wrapped.env
    inner.observation_space = gym.spaces.Discrete(5)
    assert wrapped.observation_space.n == 5 and envs.observation_space.shape == (3,)
    inner.observation_space = envs.observation_space
    obs = wrapped.reset()
    assert obs.shape == (3, 3) and np.abs(obs).max() <= 0.5
    # 100 is far outside Pendulum's [-2, 2]: the pool would refuse it unclipped.
    obs, reward, done, info = wrapped.step(np.full((3, 1), 100.0, np.float32))
    assert obs.shape == (3, 3) and reward.shape == (3,) and list(done) == [False] * 3
    assert "TimeLimit.truncated" in info
    wrapped.close()


def test_summary_writer_standin(tmp_path):
    """With the stand-in folder on PYTHONPATH and no tensorboard package,
    torch.utils.tensorboard is the TSV writer (without torch the check imports the
    writer's file directly)."""
    code = (
        "import importlib.util, sys\n"
        "if importlib.util.find_spec('tensorboard') is not None: sys.exit(3)\n"
        "if importlib.util.find_spec('torch') is None:\n"
        "    import summary_writer as tb\n"
        "else:\n"
        "    import torch.utils.tensorboard as tb\n"
        "w = tb.SummaryWriter(sys.argv[1])\n"
        "w.add_scalar('charts/SPS', 12.5, 64)\n"
        "w.add_text('hyperparameters', 'a\\nb')\n"
        "w.close()\n"
    )
    env = dict(os.environ, PYTHONPATH=os.path.join(STANDINS, "tensorboard"))
    rc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "run")], env=env).returncode
    if rc == 3:
        pytest.skip("tensorboard is installed: the stand-in is not used")
    assert rc == 0
    assert (tmp_path / "run" / "scalars.tsv").read_text() == "charts/SPS\t64\t12.5\n"
    assert (tmp_path / "run" / "text.tsv").read_text() == "hyperparameters\tNone\ta\\nb\n"
