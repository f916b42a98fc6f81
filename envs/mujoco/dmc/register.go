package dmc

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/option"
)

// Family is the envs family name of the suite's tasks.
const Family = "dmc"

// TimeLimit is the suite's episode length in control steps: every task's time limit
// divided by its control timestep is 1000.
const TimeLimit = 1000

// taskDef is one row of the task table: a domain's task under its EnvPool id.
type taskDef struct {
	domain, task string
	// frameSkip is the default number of physics steps per control step (the suite's
	// control_timestep / model timestep).
	frameSkip int
	// model returns the MJCF document the task compiles (the suite's file, or one the
	// task generates or edits, such as cartpole's extra poles).
	model func(o taskOptions) ([]byte, error)
	// newLogic makes one env's task logic, resolving the names it reads.
	newLogic logicFactory
	// options returns the task's own constructor options (besides the ones every task
	// takes, buildOptions): a pointer to a tagged struct at its defaults, decoded from
	// the family option table and handed to model and newLogic; nil when it has none.
	options func() any
}

// logicFactory makes one env's task logic under the task's options: the domain's
// constructor with the task's parameters bound (newAcrobot(sparse), ...).
type logicFactory func(p *Physics, o taskOptions) (logic, error)

// taskOptions are a task's own options after decoding: the struct its options
// function made, nil when it has none.
type taskOptions struct {
	own any
}

// buildOptions are the options every suite task takes.
type buildOptions struct {
	FrameSkip  int  `toml:"frame_skip" range:"[1,inf)" help:"physics steps per action"`
	FromPixels bool `toml:"from_pixels" help:"observe rendered pictures instead of the state"`
}

// pictureOptions are the options of pixel observations: every task takes them, and all
// but frame_stack, which also stacks state observations, mean something only with
// from_pixels.
type pictureOptions struct {
	PixelsSize int  `toml:"pixels_size" range:"[1,1024]" help:"the pictures' side in pixels"`
	FrameStack int  `toml:"frame_stack" range:"[1,16]" help:"pictures per observation (3), or states without from_pixels (1)"`
	CameraID   int  `toml:"camera_id" range:"[0,inf)" help:"the camera to render from"`
	PixelsFast bool `toml:"pixels_fast" help:"render without shadows or reflections (faster)"`
}

// ID is the EnvPool id of a domain and task: each underscore-separated word capitalised,
// the rest kept, then "-v1" (cheetah, run: CheetahRun-v1; ball_in_cup, catch:
// BallInCupCatch-v1; humanoid_CMU, run: HumanoidCMURun-v1).
func ID(domain, task string) string {
	var b strings.Builder
	for _, part := range []string{domain, task} {
		for _, w := range strings.Split(part, "_") {
			if w == "" {
				continue
			}
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String() + "-v1"
}

// taskDefs is the task table, filled by the domains' init functions.
var taskDefs []*taskDef

// register adds a domain's tasks to the table and to the envs registry.
func register(defs ...*taskDef) {
	for _, d := range defs {
		taskDefs = append(taskDefs, d)
		envs.Register(envs.Task{
			ID:     d.id(),
			Family: Family,
			New:    func(family map[string]any) (envpool.Spec, envpool.Factory, error) { return d.build(family) },
		})
	}
}

// id is the task's EnvPool id.
func (d *taskDef) id() string { return ID(d.domain, d.task) }

// TaskIDs returns the suite's task ids in table order (domain by domain).
func TaskIDs() []string {
	ids := make([]string, len(taskDefs))
	for i, d := range taskDefs {
		ids[i] = d.id()
	}
	return ids
}

// suiteTask is the table row of a task that compiles its domain's file unedited, as
// most of the suite's tasks do; they differ only in their logic.
func suiteTask(domain, task string, frameSkip int, newLogic logicFactory) *taskDef {
	return &taskDef{domain: domain, task: task, frameSkip: frameSkip, newLogic: newLogic, model: editedModel(domain, nil)}
}

// editedModel is the model function of a task that compiles its domain's file after
// edit (nil: as shipped), the suite's make_model for the tasks that edit theirs.
func editedModel(domain string, edit func(doc []byte) ([]byte, error)) func(taskOptions) ([]byte, error) {
	return func(taskOptions) ([]byte, error) {
		doc, err := ModelXML(domain)
		if err != nil || edit == nil {
			return doc, err
		}
		return edit(doc)
	}
}

// modelCache holds the compiled models by domain and document, shared read-only by the
// envs, which copy them.
var modelCache mujoco.ModelCache

// cachedModel compiles a domain's document once and returns the compiled model to
// every later build of a task with the same document.
func cachedModel(domain string, xml []byte) (*mujoco.Model, error) {
	return modelCache.Get(domain+"\x00"+string(xml), func() (*mujoco.Model, error) { return LoadModel(domain, xml) })
}

// build reads the options, compiles (or reuses) the model, makes one env to learn the
// observation layout and returns the spec and a factory.
func (d *taskDef) build(family map[string]any) (envpool.Spec, envpool.Factory, error) {
	bo, po := buildOptions{FrameSkip: d.frameSkip}, pictureOptions{PixelsSize: 84, FrameStack: 3}
	more := []any{&po}
	var opts taskOptions
	if d.options != nil {
		opts.own = d.options()
		more = append(more, opts.own)
	}
	err := envs.DecodeOptions(family, &bo, more...)
	// frame_stack also stacks states, as EnvPool's does; its default there is 1.
	stateStack := 1
	if _, given := family["frame_stack"]; given && !bo.FromPixels {
		stateStack = po.FrameStack
	}
	err = errors.Join(err, mujoco.PixelOnly(family, bo.FromPixels, slices.DeleteFunc(option.Keys(&po), func(k string) bool { return k == "frame_stack" })))
	if err != nil {
		return envpool.Spec{}, nil, fmt.Errorf("dmc: %s: %w", d.id(), err)
	}
	frameSkip := bo.FrameSkip
	var pix pixelConfig
	if bo.FromPixels {
		pix = pixelConfig{size: po.PixelsSize, stack: po.FrameStack, camera: po.CameraID, fast: po.PixelsFast}
	}
	if err := mujoco.Load(); err != nil {
		return envpool.Spec{}, nil, err
	}
	if pix.size > 0 {
		if err := mujoco.LoadPixelRenderer(); err != nil {
			return envpool.Spec{}, nil, fmt.Errorf("dmc: %s: from_pixels: %w", d.id(), err)
		}
	}
	xml, err := d.model(opts)
	if err != nil {
		return envpool.Spec{}, nil, err
	}
	m, err := cachedModel(d.domain, xml)
	if err != nil {
		return envpool.Spec{}, nil, err
	}
	t := &task{def: d, model: m, nSub: frameSkip, limit: TimeLimit, opts: opts, pix: pix}
	probe, err := newEnv(t, 0) // a state env without stacks, to learn the layout
	if err != nil {
		return envpool.Spec{}, nil, err
	}
	layout := probe.logic.layout(probe.p)
	probe.Close()
	n := 0
	for i := range layout {
		layout[i].Offset = n
		n += layout[i].Size
	}
	limited, ranges := m.Bytes("actuator_ctrllimited"), m.CtrlRange
	low, high := make([]float32, m.NU), make([]float32, m.NU)
	for i := range m.NU {
		low[i], high[i] = float32(math.Inf(-1)), float32(math.Inf(1))
		if limited[i] != 0 {
			low[i], high[i] = float32(ranges[2*i]), float32(ranges[2*i+1])
		}
	}
	inf := float32(math.Inf(1))
	obsSpace := envpool.UniformBox(-inf, inf, envpool.Float32, n)
	if stateStack > 1 {
		t.stateStack, t.frameLen, t.frameLayout = stateStack, n, layout
		obsSpace, layout = envpool.UniformBox(-inf, inf, envpool.Float32, stateStack*n), stackedLayout(layout, stateStack)
	}
	if pix.size > 0 {
		obsSpace, layout = envpool.UniformBox(0, 255, envpool.Uint8, pix.channels(), pix.size, pix.size), nil
	}
	t.spec = envpool.Spec{
		TaskID:          d.id(),
		ObsSpace:        obsSpace,
		ActionSpace:     envpool.BoxSpace(low, high),
		MaxEpisodeSteps: TimeLimit,
		FrameSkip:       frameSkip,
		InfoKeys:        append([]string(nil), InfoKeys...),
		InfoLens:        []int{1, 1, 1, m.NQ, m.NV},
		RewardThreshold: math.NaN(),
		ObsLayout:       layout,
		RenderFPS:       1 / (float64(frameSkip) * m.Timestep), // one picture per control step
		RenderWidth:     480, RenderHeight: 480,
		Options: option.Values(append([]any{&bo}, more...)...),
	}
	if !bo.FromPixels {
		t.spec.Options["frame_stack"] = stateStack // states stack 1 by default, pictures 3
	}
	factory := func(index int, seed int64) (envpool.Env, error) { return newEnv(t, seed) }
	return t.spec, factory, nil
}

// stackedLayout is the layout of k stacked observations of layout: each field's k
// frames together, in the field order (see Env.observeStack).
func stackedLayout(layout []envpool.ObsField, k int) []envpool.ObsField {
	out := make([]envpool.ObsField, len(layout))
	for i, f := range layout {
		out[i] = envpool.ObsField{Name: f.Name, Offset: k * f.Offset, Size: k * f.Size, Scalar: f.Scalar, Frames: k}
	}
	return out
}
