"""Tests of rlpool's EnvPool-shaped interface: the module's functions, EnvSpec, the
gymnasium, gym and dm pools, the dtypes each family returns, rlpool.legacy's EnvPool 0.6
results, and the errors EnvPool raises for the same mistakes."""

import os
import typing

import numpy as np
import pytest

import rlpool
import rlpool.legacy

from test_rlpool import make_or_skip, roms_dir


def test_module_surface():
    assert isinstance(rlpool.__version__, str) and rlpool.__version__[0].isdigit()
    assert os.path.exists(os.path.join(os.path.dirname(rlpool.__file__), "py.typed"))
    for name in ("make", "make_gym", "make_gymnasium", "make_dm", "make_spec", "list_all_envs"):
        assert callable(getattr(rlpool, name)) and callable(getattr(rlpool.legacy, name))
    assert "CartPole-v1" in rlpool.list_all_envs() == rlpool.legacy.list_all_envs()


def test_make_functions_declare_what_they_return():
    # Type checkers (and typing.get_type_hints) learn each make function's pool class
    # from its annotations; EnvPool is the name of the class every pool derives from.
    hints = {name: typing.get_type_hints(getattr(rlpool, name))["return"]
             for name in ("make", "make_gym", "make_gymnasium", "make_dm", "make_spec")}
    assert hints == {"make": rlpool.EnvPool, "make_gym": rlpool.GymnasiumEnvPool,
                     "make_gymnasium": rlpool.GymnasiumEnvPool, "make_dm": rlpool.DMEnvPool,
                     "make_spec": rlpool.EnvSpec}
    assert {"EnvPool", "EnvSpec", "DMEnvPool", "GymnasiumEnvPool"} <= set(rlpool.__all__)
    # A gym pool is a gymnasium pool, as make_gym's pools are in EnvPool 1.2.
    assert issubclass(rlpool.GymEnvPool, rlpool.GymnasiumEnvPool)
    for name, cls in hints.items():
        if name == "make_spec":
            continue
        with getattr(rlpool, name)("CartPole-v1", num_envs=2) as pool:
            assert isinstance(pool, cls) and isinstance(pool, rlpool.EnvPool)


def test_make_spec_config_and_bounds():
    spec = rlpool.make_spec("CartPole-v1", num_envs=4, batch_size=2, seed=7)
    c = spec.config
    assert (c.num_envs, c.batch_size, c.seed, c.max_episode_steps) == (4, 2, 7, 500)
    assert c.max_num_players == 1 and c.gym_reset_return_info is True
    assert spec.reward_threshold == 475 and spec.max_episode_steps == 500
    # The task's own options appear in the config with the values given.
    assert rlpool.make_spec("Pendulum-v1", g=9.5).config.g == 9.5
    # Options left at their defaults appear too, with the value the task used.
    assert rlpool.make_spec("Pendulum-v1").config.g == 10.0
    hopper = rlpool.make_spec("Hopper-v4").config
    assert (hopper.reset_noise_scale, hopper.frame_skip, hopper.frame_stack) == (0.005, 4, 1)
    assert rlpool.make_spec("WalkerWalk-v1").config.frame_stack == 1  # states; pictures stack 3
    assert rlpool.make_spec("WalkerWalk-v1", from_pixels=True).config.frame_stack == 3
    if roms_dir() is not None:
        breakout = rlpool.make_spec("Breakout-v5").config
        assert (breakout.mode, breakout.difficulty, breakout.stack_num, breakout.episodic_life) == (-1, -1, 4, False)
        assert rlpool.make_spec("Breakout-v5", mode=4).config.mode == 4
    # Gymnasium's CartPole bounds: 2 * 2.4 for the cart, 2 * 12 degrees for the pole and
    # float32's largest value for the speeds.
    high = spec.observation_space.high
    np.testing.assert_allclose(high[[0, 2]], [4.8, 2 * 12 * 2 * np.pi / 360], rtol=1e-6)
    assert list(high[[1, 3]]) == [np.finfo(np.float32).max] * 2
    with rlpool.make("CartPole-v1", num_envs=4, batch_size=2, seed=7) as pool:
        assert pool.spec.config == c
        assert pool.config == {**c._asdict(), "env_type": "gymnasium", "zero_copy": False, "flat_obs": False}


def test_spec_arrays_follow_envpool():
    spec = rlpool.make_spec("CartPole-v1")
    states = spec.state_array_spec
    for key, dtype, shape in [("info:env_id", np.int32, []), ("info:players.env_id", np.int32, [-1]),
                              ("elapsed_step", np.int32, []), ("done", np.bool_, []), ("trunc", np.bool_, []),
                              ("reward", np.float32, [-1]), ("discount", np.float32, [-1]),
                              ("step_type", np.int32, []), ("obs", np.float32, [4])]:
        assert states[key].dtype == dtype and states[key].shape == shape, key
    assert (states["discount"].minimum, states["discount"].maximum) == (0, 1)
    action = spec.action_array_spec
    assert list(action) == ["env_id", "players.env_id", "action"]
    a = action["action"]
    assert (a.dtype, a.shape, a.minimum, a.maximum, a.is_discrete) == (np.int32, [-1], 0, 1, True)
    assert spec.action_spec().num_values == 2 and spec.gymnasium_action_space.n == 2
    obs_spec = spec.observation_spec()
    assert obs_spec._fields == ("env_id", "players", "obs")
    assert obs_spec.obs.shape == (4,) and obs_spec.players.env_id.dtype == np.int32

    box = rlpool.make_spec("Pendulum-v1").action_array_spec["action"]
    assert box.shape == [-1, 1] and box.dtype == np.float32 and (box.minimum, box.maximum) == (-2, 2)
    dmc = rlpool.make_spec("CheetahRun-v1")
    assert [k for k in dmc.state_array_spec if k.startswith("obs")] == ["obs:position", "obs:velocity"]
    assert dmc.state_array_spec["obs:velocity"].shape == [9]
    assert dmc.action_array_spec["action"].dtype == np.float64
    assert dmc.observation_spec().position.shape == (8,) and dmc.action_spec().shape == (6,)


ERRORS = [
    # what EnvPool raises (rlpool's errors are also ValueErrors), message, the call
    (AssertionError, "unknown task", lambda: rlpool.make("CartPol-v1", env_type="gym")),
    (AssertionError, "env_type 'gym3' is not supported", lambda: rlpool.make("CartPole-v1", env_type="gym3")),
    (TypeError, "unknown option.*frobnicate", lambda: rlpool.make_spec("CartPole-v1", frobnicate=1)),
    (AssertionError, "num_envs = 0", lambda: rlpool.make_spec("CartPole-v1", num_envs=0)),
    (AssertionError, "batch_size = 3", lambda: rlpool.make_dm("CartPole-v1", num_envs=2, batch_size=3)),
    (ValueError, "per-env seeds", lambda: rlpool.make("CartPole-v1", num_envs=2, seed=[1, 2])),
    (ValueError, "gym_reset_return_info=False", lambda: rlpool.make_gym("CartPole-v1", gym_reset_return_info=False)),
    (ValueError, "render_mode", lambda: rlpool.make("CartPole-v1", render_mode="window")),
]


@pytest.mark.parametrize("cls,match,call", ERRORS)
def test_errors_are_envpools_classes(cls, match, call):
    with pytest.raises(cls, match=match) as e:
        call()
    assert isinstance(e.value, ValueError)


def test_pool_attributes():
    with rlpool.make("CartPole-v1", env_type="gymnasium", num_envs=4, batch_size=2) as p:
        assert p.is_async and len(p) == 4 and p.num_envs == 4 and p.batch_size == 2
        assert p.all_env_ids.dtype == np.int32 and list(p.all_env_ids) == [0, 1, 2, 3]
        assert p.is_vector_env and p.single_observation_space.shape == (4,)
        assert p.single_action_space.n == 2
        with pytest.raises(AttributeError):
            p.num_envs = 3
        with pytest.warns(UserWarning, match="seeding a pool after it is made"):
            assert p.seed(3) is None
        with pytest.raises(RuntimeError, match="render_mode must be set"):
            p.render()  # made without render_mode, as EnvPool refuses
        with pytest.raises(NotImplementedError, match="xla"):
            p.xla()
    with rlpool.make_gym("CartPole-v1", num_envs=2, render_mode="rgb_array") as p:
        assert not p.is_async and p.is_vector_env
        p.close(wait=True)  # gymnasium's VectorEnv.close keywords are accepted
        assert p.closed


def test_gymnasium_reset_keywords():
    with rlpool.make_gymnasium("CartPole-v1", num_envs=3) as p:
        with pytest.warns(UserWarning, match="reset\\(seed=...\\) is ignored"):
            obs, info = p.reset(seed=5)
        obs, info = p.reset(options={"reset_mask": [True, True, True]})
        assert list(info["env_id"]) == [0, 1, 2] and list(info["elapsed_step"]) == [0, 0, 0]
        with pytest.raises(ValueError, match="reset_mask must have shape \\(3,\\)"):
            p.reset(options={"reset_mask": [True, False]})
        with pytest.raises(ValueError, match="only reset_mask"):
            p.reset(options={"seed": 1})
        with pytest.raises(ValueError, match="either env_id or"):
            p.reset(env_id=[0], options={"reset_mask": [True, False, False]})


def test_dm_timesteps():
    with rlpool.make_dm("CartPole-v1", num_envs=3, seed=1) as p:
        assert p.action_spec().num_values == 2 and p.observation_spec().obs.shape == (4,)
        ts = p.reset()
        assert isinstance(ts, rlpool.dm.TimeStep) and ts._fields == ("step_type", "reward", "discount", "observation")
        assert list(ts.step_type) == [0, 0, 0] and list(ts.discount) == [1, 1, 1]
        assert list(ts.first()) == [True] * 3 and not ts.last().any()
        assert ts.observation.obs.shape == (3, 4) and ts.observation.obs.dtype == np.float32
        assert list(ts.observation.env_id) == [0, 1, 2] and list(ts.observation.players.env_id) == [0, 1, 2]
        # Pushing right all the time topples the pole within a few dozen steps: the
        # last step has discount 0 and the env's next row starts a new episode.
        ended = set()
        for _ in range(60):
            before = ts
            ts = p.step(np.ones(3, np.int64))
            assert ts.reward.dtype == np.float32 and ts.step_type.dtype == np.int32
            for e in range(3):
                if before.step_type[e] == rlpool.dm.StepType.LAST:
                    assert ts.step_type[e] == rlpool.dm.StepType.FIRST and ts.reward[e] == 0
                if ts.step_type[e] == rlpool.dm.StepType.LAST:
                    assert ts.discount[e] == 0
                    ended.add(e)
                elif ts.step_type[e] == rlpool.dm.StepType.MID:
                    assert ts.discount[e] == 1 and ts.reward[e] == 1
        assert ended == {0, 1, 2}


FAMILIES = [
    # task, obs dtype, {info key: dtype}
    ("CartPole-v1", np.float32, {}),
    ("Hopper-v4", np.float64, {"x_position": np.float64, "x_velocity": np.float64}),
    ("CheetahRun-v1", np.float64, {}),
    ("Pong-v5", np.uint8, {"lives": np.int32, "terminated": np.int32, "reward": np.float32}),
]


@pytest.mark.parametrize("task,obs_dtype,info_dtypes", FAMILIES)
def test_family_dtypes(task, obs_dtype, info_dtypes):
    with make_or_skip(task, env_type="gym", num_envs=2) as p:
        p.reset()
        sample = p.action_space.sample()
        acts = np.stack([sample, sample])
        obs, rew, term, trunc, info = p.step(acts)
        for a in (obs.values() if isinstance(obs, dict) else [obs]):
            assert a.dtype == obs_dtype and a.shape[0] == 2
        assert rew.dtype == np.float32 and term.dtype == np.bool_ and trunc.dtype == np.bool_
        assert info["env_id"].dtype == np.int32 and info["elapsed_step"].dtype == np.int32
        for k, dt in info_dtypes.items():
            assert info[k].dtype == dt and info[k].shape == (2,), k
        assert "discount" not in info and "step_type" not in info  # a dm TimeStep's fields


def test_info_arrays():
    # Atari's RAM and MuJoCo's initial state are arrays per env, with EnvPool's specs.
    with make_or_skip("Breakout-v5", env_type="gymnasium", num_envs=2) as p:
        ram = p.spec.state_array_spec["info:ram"]
        assert (ram.dtype, ram.shape, ram.minimum, ram.maximum) == (np.uint8, [128], 0, 255)
        _, info = p.reset()
        assert info["ram"].dtype == np.uint8 and info["ram"].shape == (2, 128)
        _, _, _, _, info = p.step(np.ones(2, np.int32))  # FIRE
        # Breakout keeps its lives in RAM byte 57 (0xB9).
        np.testing.assert_array_equal(info["ram"][:, 57], info["lives"])
    with make_or_skip("Hopper-v4", env_type="gymnasium", num_envs=2, seed=1) as p:
        states = p.spec.state_array_spec
        assert states["info:qpos0"].shape == [6] and states["info:qvel0"].dtype == np.float64
        _, info = p.reset()
        q0 = info["qpos0"]
        assert q0.shape == (2, 6) and q0.dtype == np.float64 and not np.array_equal(q0[0], q0[1])
        for _ in range(3):
            _, _, _, _, info = p.step(np.zeros((2, 3)))
            np.testing.assert_array_equal(info["qpos0"], q0)  # the episode's, until a reset
    with make_or_skip("CheetahRun-v1", env_type="dm", num_envs=1) as p:
        ts = p.reset()
        assert ts.observation.qpos0.shape == (1, 9) and ts.observation.qvel0.shape == (1, 9)


def test_grid_world_and_box2d_arrays():
    # MiniGrid and BabyAI as EnvPool gives them: the 7x7x3 view, an int32 direction, the
    # mission's bytes, an (x, y) agent_pos; Box2D's states float32, CarRacing's pictures.
    for task, mission_bytes in [("MiniGrid-DoorKey-8x8-v0", 96), ("BabyAI-GoToLocal-v0", 512)]:
        with rlpool.make(task, num_envs=2, seed=3) as p:
            states = p.spec.state_array_spec
            assert states["obs:image"].shape == [7, 7, 3] and states["obs:direction"].dtype == np.int32
            assert states["info:agent_pos"].shape == [2] and states["info:agent_pos"].dtype == np.int32
            obs, info = p.reset()
            assert obs["image"].shape == (2, 7, 7, 3) and obs["image"].dtype == np.uint8
            assert obs["direction"].dtype == np.int32 and set(obs["direction"]) <= {0, 1, 2, 3}
            assert obs["mission"].shape == (2, mission_bytes)
            assert bytes(obs["mission"][0]).rstrip(b"\0").decode().isprintable()
            assert info["agent_pos"].shape == (2, 2) and info["agent_pos"].dtype == np.int32
            # Turning left (action 0) lowers the direction by one, modulo 4.
            d0 = obs["direction"].copy()
            obs, _, _, _, info = p.step(np.zeros(2, np.int32))  # left
            np.testing.assert_array_equal(obs["direction"], (d0 - 1) % 4)
    with rlpool.make("LunarLander-v3", num_envs=2) as p:
        obs, _ = p.reset()
        assert obs.shape == (2, 8) and obs.dtype == np.float32 and p.action_space.n == 4
    with rlpool.make("CarRacing-v3", num_envs=1) as p:
        obs, _ = p.reset()
        assert obs.shape == (1, 96, 96, 3) and obs.dtype == np.uint8 and obs.std() > 0


def test_control_suite_named_fields_match_flat():
    kw = dict(num_envs=2, seed=4)
    named = make_or_skip("WalkerWalk-v1", env_type="gymnasium", **kw)
    flat = make_or_skip("WalkerWalk-v1", env_type="gymnasium", flat_obs=True, **kw)
    space = named.observation_space
    assert list(space.keys()) == ["orientations", "height", "velocity"]
    # The height is a scalar, as in the suite (and EnvPool), not a vector of one.
    assert [space[k].shape for k in space.keys()] == [(14,), (), (9,)]
    assert flat.observation_space.shape == (24,)
    o1, _ = named.reset()
    o2, _ = flat.reset()
    act = np.full((2, 6), 0.3)
    for _ in range(3):
        assert o1["height"].shape == (2,)
        np.testing.assert_array_equal(np.concatenate([o1[k].reshape(2, -1) for k in space.keys()], axis=1), o2)
        o1, *_ = named.step(act)
        o2, *_ = flat.step(act)
    named.close()
    flat.close()


def test_dict_action_is_the_array_action():
    with rlpool.make("Pendulum-v1", num_envs=2, seed=3) as a, rlpool.make("Pendulum-v1", num_envs=2, seed=3) as b:
        a.reset()
        b.reset()
        act = np.array([[0.5], [-1.0]], np.float32)
        oa, ra, *_ = a.step({"action": act, "env_id": np.array([0, 1], np.int32)})
        ob, rb, *_ = b.step(act)
        np.testing.assert_array_equal(oa, ob)
        np.testing.assert_array_equal(ra, rb)
        with pytest.raises(ValueError, match="dict action"):
            a.step({"act": act})
        # EnvPool's dict form takes env ids as int32 only, and says so with RuntimeError.
        with pytest.raises(RuntimeError, match="env_id must be int32"):
            a.send({"action": act, "env_id": np.array([0, 1])})


def test_whole_float_actions_are_cast_for_discrete_tasks():
    with rlpool.make("CartPole-v1", num_envs=2, seed=3) as a, rlpool.make("CartPole-v1", num_envs=2, seed=3) as b:
        a.reset()
        b.reset()
        oa, *_ = a.step(np.array([1.0, 0.0]))
        ob, *_ = b.step(np.array([1, 0]))
        np.testing.assert_array_equal(oa, ob)
        with pytest.raises(ValueError, match="whole numbers"):
            a.step(np.array([0.5, 0.0]))


def test_legacy_gym_results():
    envs = rlpool.legacy.make("CartPole-v1", env_type="gym", num_envs=2, max_episode_steps=3)
    # CleanRL's scripts assign these after make.
    envs.num_envs = 2
    envs.single_action_space = envs.action_space
    envs.single_observation_space = envs.observation_space
    envs.is_vector_env = True
    assert envs.single_action_space.n == 2 and envs.config["gym_reset_return_info"] is False
    assert envs.spec.config.gym_reset_return_info is False
    assert isinstance(envs, rlpool.legacy.LegacyGymEnvPool)
    obs = envs.reset()
    assert isinstance(obs, np.ndarray) and obs.shape == (2, 4)
    for step in (1, 2, 3):
        # Alternating pushes keep the pole up for three steps; the third hits the limit.
        obs, rew, done, info = envs.step(np.full(2, step % 2, np.int64))
        assert list(done) == [step == 3] * 2
        assert list(info["TimeLimit.truncated"]) == [step == 3] * 2
        assert list(info["elapsed_step"]) == [step] * 2
    envs.close()
    with rlpool.legacy.make_gym("CartPole-v1", gym_reset_return_info=True) as envs:
        obs, info = envs.reset()
        assert list(info["env_id"]) == [0]
    with rlpool.legacy.make_dm("CartPole-v1") as envs:
        assert list(envs.reset().step_type) == [0]


def test_legacy_atari_episode_statistics():
    """CleanRL's Atari wrapper adds info["reward"] and clears on info["terminated"]:
    the dtypes must allow its in-place arithmetic."""
    if roms_dir() is None:
        pytest.skip("Pong-v5 needs ALE's ROMs: set RLPOOL_ROMS to a folder with pong.bin")
    with rlpool.legacy.make("Pong-v5", env_type="gym", num_envs=2, episodic_life=True, reward_clip=True) as envs:
        envs.reset()
        returns = np.zeros(2, dtype=np.float32)
        lengths = np.zeros(2, dtype=np.int32)
        for _ in range(20):
            obs, rew, done, info = envs.step(np.zeros(2, np.int64))
            assert info["lives"].dtype == np.int32 and info["terminated"].dtype == np.int32
            returns += info["reward"]
            lengths += 1
            returns *= 1 - info["terminated"]
            lengths *= 1 - info["terminated"]
        assert list(lengths) == [20, 20] and obs.dtype == np.uint8



def test_frame_stack_of_state_observations():
    k = 3
    spec = rlpool.make_spec("HalfCheetah-v5", frame_stack=k)
    assert spec.observation_space.shape == (k, 17) and spec.config.frame_stack == k
    assert rlpool.make_spec("HalfCheetah-v5", frame_stack=1).observation_space.shape == (17,)
    opts = dict(num_envs=2, seed=3, max_episode_steps=4)
    actions = np.zeros((2, 6))
    with rlpool.make_gym("HalfCheetah-v5", frame_stack=k, **opts) as stacked, \
            rlpool.make_gym("HalfCheetah-v5", **opts) as plain:
        obs, _ = stacked.reset()
        want, _ = plain.reset()
        # A reset fills the history with the first observation.
        assert obs.shape == (2, k, 17) and obs.dtype == np.float64
        for j in range(k):
            np.testing.assert_array_equal(obs[:, j], want)
        frames = [want] * k
        restarts = 0
        for _ in range(6):  # past the 4-step limit: the ended episode's envs start afresh
            obs, _, term, trunc, info = stacked.step(actions)
            want, _, _, _, pinfo = plain.step(actions)
            np.testing.assert_array_equal(info["elapsed_step"], pinfo["elapsed_step"])
            frames = frames[1:] + [want]
            expect = np.stack(frames, axis=1)
            fresh = info["elapsed_step"] == 0
            restarts += fresh.sum()
            expect[fresh] = want[fresh][:, None]
            frames = [expect[:, j] for j in range(k)]
            np.testing.assert_array_equal(obs, expect)
        assert restarts == 2  # both envs started a second episode


def test_frame_stack_of_control_suite_fields():
    with rlpool.make_dm("WalkerWalk-v1", num_envs=1, seed=0, frame_stack=2) as env:
        assert env.observation_spec().orientations.shape == (2, 14)
        assert env.observation_spec().height.shape == (2,)  # one scalar per frame
        ts = env.reset()
        assert ts.observation.orientations.shape == (1, 2, 14)
        np.testing.assert_array_equal(ts.observation.velocity[:, 0], ts.observation.velocity[:, 1])
        ts1 = env.step(np.zeros((1, 6)))
        np.testing.assert_array_equal(ts1.observation.velocity[:, 0], ts.observation.velocity[:, 1])


def test_frame_stack_is_refused_where_no_state_is_stacked():
    # Classic control takes no frame_stack (nor does EnvPool's); Atari stacks with stack_num.
    with pytest.raises(rlpool.OptionError, match="frame_stack"):
        rlpool.make_gym("CartPole-v1", frame_stack=4)
    with pytest.raises(ValueError, match="frame_stack"):
        rlpool.make_spec("HalfCheetah-v5", frame_stack=0)


def test_dm_time_limit_ends_the_episode():
    # A control-suite task reports its own step types; a max_episode_steps shorter than
    # its 1000 steps is the pool's, and the step it truncates must still be LAST (with
    # discount 1: the episode was cut, not ended), the next one FIRST.
    with rlpool.make_dm("CheetahRun-v1", num_envs=1, max_episode_steps=5) as env:
        env.reset()
        types, discounts = [], []
        for _ in range(6):
            ts = env.step(np.zeros((1, 6)))
            types.append(int(ts.step_type[0]))
            discounts.append(float(ts.discount[0]))
        assert types == [1, 1, 1, 1, 2, 0]
        assert discounts[4] == 1.0
