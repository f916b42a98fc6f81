package play

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"math"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/internal/render"
)

// blindEnv is a one-step env that cannot draw itself.
type blindEnv struct{}

func (blindEnv) Reset()                               {}
func (blindEnv) Step([]float32) envpool.StepResult    { return envpool.StepResult{Terminated: true} }
func (blindEnv) Observe(obs envpool.Obs, _ []float32) { obs.F32[0] = 1 }

// blindSpec is the test tasks' spec: one observation value, two actions.
func blindSpec(id string, fps float64) envpool.Spec {
	return envpool.Spec{TaskID: id, ObsSpace: envpool.BoxSpace([]float32{0}, []float32{1}),
		ActionSpace: envpool.DiscreteSpace(2), RewardThreshold: math.NaN(), RenderFPS: fps}
}

// missingLibEnv draws itself only when a library is present, which it is not.
type missingLibEnv struct{ blindEnv }

func (missingLibEnv) Render() (image.Image, error) { return nil, errors.New("libexample is missing") }
func (missingLibEnv) CanRender() error             { return errors.New("libexample is missing: install it") }

// dotEnv draws one pixel whose colour index is its step count.
type dotEnv struct {
	blindEnv
	steps int
	img   *image.Paletted
}

func (e *dotEnv) Step(a []float32) envpool.StepResult {
	e.steps++
	return envpool.StepResult{Terminated: e.steps == 3}
}

// Render draws into the same image each time, as an env may.
func (e *dotEnv) Render() (image.Image, error) {
	if e.img == nil {
		e.img = image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.Black, color.White, color.Gray{100}, color.Gray{200}})
	}
	e.img.Pix[0] = uint8(e.steps)
	return e.img, nil
}

func init() {
	for _, t := range []struct {
		id  string
		fps float64
		env func() envpool.Env
	}{
		{"PlayTestBlind-v0", 0, func() envpool.Env { return blindEnv{} }},
		{"PlayTestMissingLib-v0", 20, func() envpool.Env { return missingLibEnv{} }},
		{"PlayTestDot-v0", 50, func() envpool.Env { return &dotEnv{} }},
	} {
		envs.Register(envs.Task{ID: t.id, Family: "playtest", New: func(map[string]any) (envpool.Spec, envpool.Factory, error) {
			return blindSpec(t.id, t.fps), func(int, int64) (envpool.Env, error) { return t.env(), nil }, nil
		}})
	}
}

// TestRecordingUsesCapabilities checks that recording goes only by what an env
// declares: no Renderer is refused with a reason, a RenderChecker's error is passed
// on, and a Renderer's pictures are copied frame by frame at the spec's rate.
func TestRecordingUsesCapabilities(t *testing.T) {
	blind, err := Random("PlayTestBlind-v0", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := blind.CanRecord(); err == nil || !strings.Contains(err.Error(), "envpool.Renderer") {
		t.Errorf("CanRecord of an env that cannot draw: %v", err)
	}
	if _, err := blind.Play(Options{Record: render.NewRecorder(2, 0)}); err == nil {
		t.Error("recording an env that cannot draw succeeded")
	}
	if d := blind.FrameDelay(); d != 7 {
		t.Errorf("FrameDelay without a RenderFPS: %d, want 7", d)
	}

	missing, _ := Random("PlayTestMissingLib-v0", nil)
	if err := missing.CanRecord(); err == nil || !strings.Contains(err.Error(), "install it") {
		t.Errorf("CanRecord with a missing library: %v", err)
	}
	if d := missing.FrameDelay(); d != 5 {
		t.Errorf("FrameDelay at 20 fps: %d, want 5", d)
	}

	dot, _ := Random("PlayTestDot-v0", nil)
	if err := dot.CanRecord(); err != nil {
		t.Fatal(err)
	}
	if d := dot.FrameDelay(); d != 2 {
		t.Errorf("FrameDelay at 50 fps: %d, want 2", d)
	}
	rec := render.NewRecorder(dot.FrameDelay(), 0)
	eps, err := dot.Play(Options{Episodes: 1, Record: rec})
	if err != nil || len(eps) != 1 || eps[0].Length != 3 {
		t.Fatalf("episodes %+v, %v", eps, err)
	}
	if rec.Len() != 4 {
		t.Fatalf("%d frames, want the reset's and 3 steps'", rec.Len())
	}
	// The env drew every picture into one image: each frame must keep its own.
	for i, img := range decodeGIF(t, rec).Image {
		if img.Pix[0] != uint8(i) {
			t.Errorf("frame %d shows step %d", i, img.Pix[0])
		}
	}
}

// recordEpisode plays one episode of a with seed, recording it, and fails the test
// unless the episode is cut at steps (the env's max_episode_steps).
func recordEpisode(t *testing.T, a *Agent, seed int64, steps int) *render.Recorder {
	t.Helper()
	rec := render.NewRecorder(a.FrameDelay(), 0)
	eps, err := a.Play(Options{Episodes: 1, Seed: seed, Record: rec})
	if err != nil {
		t.Fatal(err)
	}
	if len(eps) != 1 || eps[0].Length != steps {
		t.Fatalf("episodes %+v, want one cut at %d steps", eps, steps)
	}
	return rec
}

// decodeGIF encodes a recording and decodes it again, as a GIF viewer reads it.
func decodeGIF(t *testing.T, rec *render.Recorder) *gif.GIF {
	t.Helper()
	var buf bytes.Buffer
	if err := rec.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
