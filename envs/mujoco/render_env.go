package mujoco

import (
	"image"
	"slices"
	"strings"

	"github.com/rlpool/rlpool/envpool"
)

// FrameSize is the side of the square pictures Env.FrameRGBA draws for recordings
// (train eval -gif): half of Gymnasium's 480, which keeps a GIF of a 1000-step episode
// around a few megabytes.
const FrameSize = 240

// frameOptions are the renderer settings of recorded frames: the model's look, with a
// 1024-texel shadow map instead of 4096 (indistinguishable at FrameSize, and a few
// times cheaper with llvmpipe).
var frameOptions = RenderOptions{ShadowSize: 1024}

// An env draws itself, with a system library that may be missing.
var (
	_ envpool.Renderer      = (*Env)(nil)
	_ envpool.RenderChecker = (*Env)(nil)
)

// CanRender reports whether Render can draw (envpool.RenderChecker): nil when
// libOSMesa and MuJoCo's renderer load, else an error naming the package to install.
func (e *Env) CanRender() error { return LoadOSMesa() }

// Render draws the env's current state (envpool.Renderer): FrameRGBA's picture.
func (e *Env) Render() (image.Image, error) { return e.FrameRGBA() }

// FrameRGBA draws the env's current state from FrameView at FrameSize x FrameSize,
// for recordings (train eval -gif). The image is the env's own and is
// overwritten by the next call; copy or convert it before then. The renderer is made
// at the first call (on any goroutine; see Renderer on threads) and freed by Close.
func (e *Env) FrameRGBA() (*image.RGBA, error) {
	return e.frames.Draw(e.d, e.FrameView)
}

// RenderFPS is the task's frame rate in simulated time, Gymnasium's
// metadata["render_fps"]: one frame per env step, 1/dt (the spec's RenderFPS).
func (e *Env) RenderFPS() float64 { return e.t.spec.RenderFPS }

// FrameView returns the view Gymnasium renders the task's rgb_array frames from
// (v0.29.1 for v4 tasks, 1.0 for v5; both choose the same way): the model's camera
// named "track" when it has one (Ant, HalfCheetah, Hopper, Humanoid, HumanoidStandup,
// Swimmer, Walker2d: a camera that follows the body's centre of mass); otherwise a free
// camera looking at the median of the geoms' current positions from stat.extent, at
// MuJoCo's default azimuth 90 and elevation -45, with the task's default camera
// settings (lookat, distance, azimuth, elevation: a v5 env's default_camera_config, or
// gymCameraConfigs) on top. The settings' type,
// fixedcamid and trackbodyid change nothing: Gymnasium resets the type to free before
// drawing. Once FrameRGBA has drawn, the view stays the one it drew first, as
// Gymnasium's viewer keeps the free camera it made at its first frame.
func (e *Env) FrameView() View {
	if e.frames.r != nil {
		return e.frames.View
	}
	return e.renderView()
}

// renderView is FrameView's choice for the current state, worked out afresh (pixel
// observations draw each picture from it, as EnvPool does).
func (e *Env) renderView() View {
	if v, err := e.m.NamedView("track"); err == nil {
		return v
	}
	v := MedianView(e.d)
	cfg := e.DefaultCamera()
	if cfg.IsZero() {
		name, _, _ := strings.Cut(e.t.spec.TaskID, "-v")
		cfg = gymCameraConfigs[name]
	}
	if cfg.LookAt != nil {
		v.Lookat = *cfg.LookAt
	}
	if cfg.Distance != nil {
		v.Distance = *cfg.Distance
	}
	if cfg.Azimuth != nil {
		v.Azimuth = *cfg.Azimuth
	}
	if cfg.Elevation != nil {
		v.Elevation = *cfg.Elevation
	}
	return v
}

// frameMedian is numpy's median: the middle value, or the mean of the two middle ones.
func frameMedian(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// gymCameraConfigs are Gymnasium's DEFAULT_CAMERA_CONFIG of the tasks by name (the
// same in v0.29.1's v4 files and 1.0's v5 ones), in the fields a free view uses
// (trackbodyid is left out: it changes nothing, see FrameView). Only the tasks whose
// models lack a "track" camera (InvertedPendulum, InvertedDoublePendulum, Reacher,
// Pusher) draw with them; the others' apply to a replacement model (xml_file) without
// one. A v5 env's own default_camera_config, when it sets any field, replaces them.
var gymCameraConfigs = map[string]Camera{
	"Ant":                    {Distance: camFloat(4.0)},
	"HalfCheetah":            {Distance: camFloat(4.0)},
	"Hopper":                 {Distance: camFloat(3.0), LookAt: &[3]float64{0, 0, 1.15}, Elevation: camFloat(-20.0)},
	"Walker2d":               {Distance: camFloat(4.0), LookAt: &[3]float64{0, 0, 1.15}, Elevation: camFloat(-20.0)},
	"Humanoid":               {Distance: camFloat(4.0), LookAt: &[3]float64{0, 0, 2.0}, Elevation: camFloat(-20.0)},
	"HumanoidStandup":        {Distance: camFloat(4.0), LookAt: &[3]float64{0, 0, 0.8925}, Elevation: camFloat(-20.0)},
	"InvertedPendulum":       {Distance: camFloat(2.04)},
	"InvertedDoublePendulum": {Distance: camFloat(4.1225), LookAt: &[3]float64{0, 0, 0.12250000000000005}},
	"Pusher":                 {Distance: camFloat(4.0)},
}

func camFloat(x float64) *float64 { return &x }

// closeFrames frees the env's frame renderer, if it made one.
func (e *Env) closeFrames() {
	e.frames.Close()
}
