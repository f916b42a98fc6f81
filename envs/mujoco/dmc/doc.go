// Package dmc is the DeepMind Control Suite (dm_control 1.0.7, the release built for
// MuJoCo 2.2.2) on the mujoco package's binding of Debian's libmujoco: 19 domains and
// 51 tasks under EnvPool's ids (CheetahRun-v1, WalkerWalk-v1, ...), registered with
// package envs as the "dmc" family.
//
// Each domain is one file: its tasks' initial states, model edits, observations (the
// suite's ordered dict, flattened in its order; the spec's ObsLayout names the
// entries) and rewards, built on Tolerance, the suite's reward shaping (a value of 1
// inside a band and a sigmoid falling off outside it). env.go is the suite's control
// loop (reset, the legacy physics step, 1000-step episodes, discount and step type in
// info, faults), physics.go the simulation each env owns (a copy of the model, since
// tasks edit it per episode), pixels.go the pixel observations and recordings drawn
// with MuJoCo's renderer. docs/design/dmc.md gives the reasoning.
package dmc
