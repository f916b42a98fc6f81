"""Tests of render(): EnvPool's (n, H, W, 3) uint8 pictures of some envs."""

import numpy as np
import pytest

import rlpool
from test_rlpool import make_or_skip


def test_cartpole_picture_is_drawn_and_follows_the_state():
    with rlpool.make("CartPole-v1", env_type="gymnasium", num_envs=2, render_mode="rgb_array") as p:
        p.reset()
        first = p.render()
        # env 0, at EnvPool's default size for CartPole (Gymnasium's 600 x 400 screen)
        assert first.dtype == np.uint8 and first.shape == (1, 400, 600, 3)
        assert len(np.unique(first.reshape(-1, 3), axis=0)) > 1  # not one flat colour
        both = p.render([1, 0])
        assert both.shape == (2, 400, 600, 3)
        np.testing.assert_array_equal(both[1], first[0])
        for _ in range(5):
            p.step(np.ones(2, dtype=np.int64))  # push right: the cart moves
        after = p.render(np.int32(0))
        assert after.shape == (1, 400, 600, 3) and (after != first).any()


def test_render_resizes_to_the_requested_size():
    opts = dict(env_type="gym", num_envs=2, render_mode="rgb_array")
    # full: the size CartPole draws at (300 x 200); half: half of it.
    with rlpool.make("CartPole-v1", render_width=300, render_height=200, **opts) as full, \
            rlpool.make("CartPole-v1", render_width=150, render_height=100, **opts) as half:
        full.reset()
        half.reset()
        small = half.render([0, 1])
        assert small.shape == (2, 100, 150, 3)
        # Halving samples every second pixel, starting from the second.
        np.testing.assert_array_equal(small[0], full.render(0)[0][1::2, 1::2])


def test_render_refusals():
    with rlpool.make("CartPole-v1", num_envs=2, batch_size=1, render_mode="rgb_array") as p:
        with pytest.raises(ValueError, match="out of range"):
            p.render(2)
        with pytest.raises(ValueError, match="out of range"):
            p.render(np.array([0, -1], dtype=np.int32))
        with pytest.raises(ValueError, match="camera"):
            p.render(0, camera_id=1)
        p.async_reset()
        _, _, _, _, info = p.recv()
        running = 1 - int(info["env_id"][0])  # its reset is still queued or finished, not received
        with pytest.raises(RuntimeError, match="still running"):
            p.render(running)
        assert p.render(int(info["env_id"][0])).shape == (1, 400, 600, 3)
    with rlpool.make("CartPole-v1", render_mode="rgb_array", render_width=-3) as p:
        with pytest.raises(ValueError, match="render_width"):
            p.render()
    with rlpool.make("CartPole-v1", render_mode="rgb_array") as p:
        p.close()
        with pytest.raises(RuntimeError, match="closed"):
            p.render()


def test_atari_picture_is_the_palette_mapping_of_the_screen():
    # An RGB observation of the full screen with one frame a step and no stacking is
    # the screen in the console's colours, as the picture must be at 210 x 160, the
    # size render gives by default (EnvPool's).
    with make_or_skip("Pong-v5", num_envs=1, render_mode="rgb_array",
                      img_height=210, img_width=160, gray_scale=False, stack_num=1, frame_skip=1) as p:
        p.reset()
        for i in range(60):
            obs = p.step(np.array([i % 6]))[0]
        frame = p.render()
        assert frame.shape == (1, 210, 160, 3)
        np.testing.assert_array_equal(frame[0], obs[0].transpose(1, 2, 0))
        assert len(np.unique(frame.reshape(-1, 3), axis=0)) >= 3  # court, paddles, ball


def test_human_mode_shows_one_env():
    with rlpool.make("CartPole-v1", num_envs=2, render_mode="human") as p:
        p.reset()
        with pytest.raises(ValueError, match="single env_id"):
            p.render([0, 1])


def test_mujoco_picture_is_drawn():
    with make_or_skip("Ant-v4", num_envs=2, render_mode="rgb_array", render_width=96, render_height=64) as p:
        p.reset()
        try:
            frames = p.render([0, 1])
        except RuntimeError as e:
            if "osmesa" in str(e).lower():
                pytest.skip("MuJoCo's pictures need libOSMesa (package libosmesa6): %s" % e)
            raise
        assert frames.shape == (2, 64, 96, 3)
        assert all(len(np.unique(f.reshape(-1, 3), axis=0)) > 10 for f in frames)


def test_mujoco_pixel_observations():
    """from_pixels: EnvPool's channel-first uint8 pictures, 84x84 and one per
    observation by default; frame_stack stacks them along the channels, oldest first."""
    try:
        p = rlpool.make("Ant-v4", env_type="gymnasium", num_envs=2, from_pixels=True, frame_stack=3)
    except RuntimeError as e:
        if "osmesa" in str(e).lower():
            pytest.skip("pixel observations need libOSMesa (package libosmesa6): %s" % e)
        if "mujoco" in str(e).lower():
            pytest.skip("MuJoCo task needs libmujoco.so.2.2.2 (package libmujoco2.2.2): %s" % e)
        raise
    with p:
        assert p.observation_space.shape == (9, 84, 84) and p.observation_space.dtype == np.uint8
        obs, _ = p.reset()
        assert obs.shape == (2, 9, 84, 84) and obs.dtype == np.uint8
        np.testing.assert_array_equal(obs[:, :3], obs[:, 6:])  # a reset fills every slot
        assert np.unique(obs[0, :3].reshape(3, -1), axis=1).shape[1] > 10  # colours, not a blank
        nxt = p.step(np.ones((2, 8), dtype=np.float32))[0]
        np.testing.assert_array_equal(nxt[:, :6], obs[:, 3:])  # the stack shifts by a picture
    with rlpool.make("Ant-v4", env_type="gymnasium", num_envs=1, from_pixels=True) as one:
        assert one.observation_space.shape == (3, 84, 84)
