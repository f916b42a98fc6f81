"""Tests of render(): EnvPool's (n, H, W, 3) uint8 pictures of some envs."""

import numpy as np
import pytest

import rlpool
from test_rlpool import make_or_skip


def test_cartpole_picture_is_drawn_and_follows_the_state():
    with rlpool.make("CartPole-v1", env_type="gymnasium", num_envs=2, render_mode="rgb_array") as p:
        p.reset()
        first = p.render()
        assert first.dtype == np.uint8 and first.shape == (1, 200, 300, 3)  # env 0 by default
        assert len(np.unique(first.reshape(-1, 3), axis=0)) > 1  # not one flat colour
        both = p.render([1, 0])
        assert both.shape == (2, 200, 300, 3)
        np.testing.assert_array_equal(both[1], first[0])
        for _ in range(5):
            p.step(np.ones(2, dtype=np.int64))  # push right: the cart moves
        after = p.render(np.int32(0))
        assert after.shape == (1, 200, 300, 3) and (after != first).any()


def test_render_resizes_to_the_requested_size():
    opts = dict(env_type="gym", num_envs=2, render_mode="rgb_array")
    with rlpool.make("CartPole-v1", **opts) as full, \
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
        assert p.render(int(info["env_id"][0])).shape == (1, 200, 300, 3)
    with rlpool.make("CartPole-v1", render_mode="rgb_array", render_width=-3) as p:
        with pytest.raises(ValueError, match="render_width"):
            p.render()
    with rlpool.make("CartPole-v1", render_mode="rgb_array") as p:
        p.close()
        with pytest.raises(RuntimeError, match="closed"):
            p.render()


def test_atari_picture_is_the_palette_mapping_of_the_screen():
    # An RGB observation of the full screen with one frame a step and no stacking is
    # the screen in the console's colours, as the picture must be at 210 x 160.
    with make_or_skip("Pong-v5", num_envs=1, render_mode="rgb_array", render_width=160, render_height=210,
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
