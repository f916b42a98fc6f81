// Package atari is rlpool's ALE-compatible layer over the pure-Go Atari 2600 in
// package vcs, and the Atari tasks built on it: it finds ROMs by md5, knows each
// supported game's properties and RAM layout (score, lives, game over, minimal action
// set, mode selection, starting actions), and drives the console exactly as the Arcade
// Learning Environment (ALE 0.12.1) does, so that rewards, RAM and screens match ALE
// frame for frame.
//
// docs/design/atari.md describes the behaviour this package reproduces, and
// docs/design/emulator.md the emulator under it; the frame-by-frame comparison with ALE
// is trace_test.go, run against the recorded ALE traces in
// $RLPOOL_TESTDATA/atari/traces with the ROMs in $RLPOOL_ROMS.
//
// # Tasks
//
// Importing the package registers one task per game with package envs, named as
// EnvPool names them: Pong-v5, Breakout-v5, MontezumaRevenge-v5, ... (Game.TaskID). Each
// is an Env: EnvPool's Atari preprocessing with its defaults and options (EnvConfig;
// family options img_height, img_width, stack_num, gray_scale, frame_skip, noop_max,
// episodic_life, zero_discount_on_life_loss, reward_clip, repeat_action_probability,
// use_inter_area_resize, use_fire_reset, full_action_space, max_episode_steps, mode,
// difficulty, and roms_dir). Observations are uint8 [stack, H, W] (gray) or
// [stack*3, H, W] (RGB, channel-first); the resize is OpenCV's INTER_AREA, bit-exact.
//
// Only the frames that are observed are turned into pixels: the console skips pixel
// output for the frames of a step before its last two, and the max-pool, color
// conversion and resize recompute only the rows that changed since the previous step.
// TestRenderSkipExact checks that this changes no observation.
//
// ROMs are never part of rlpool. Tasks read them from the ROM folder (ROMDir: the
// roms_dir option, else $RLPOOL_ROMS, else ./roms); `train roms import DIR` fills it
// (ImportROMs) and `train roms list` shows which games are available (ROMStatus).
package atari
