// Package play loads a trained policy from a run directory and plays it: `train eval`.
//
// The policy is rebuilt from the run's own config.toml and a checkpoint (best or
// latest) by the run's learner (agent.Algorithm's Policy) and run by the learners' own
// acting pass (model.Forward) on one observation at a time: the same float32 graph and
// kernels, the torso on the backend net.backend picks. Returns are the env's raw,
// undiscounted rewards.
// The first episode can be recorded as an animated GIF of the pictures the env draws of
// itself (envpool.Renderer), whatever its family, at the task's RenderFPS.
package play

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/render"
	"github.com/rlpool/rlpool/internal/rundir"
)

// Agent is a trained policy with the task it was trained on.
type Agent struct {
	Config     *config.Config
	Spec       envpool.Spec
	Checkpoint string // path of the checkpoint loaded
	EnvSteps   int64  // training env steps when the checkpoint was written
	Note       string // e.g. that best.ckpt was missing and latest.ckpt was used

	factory envpool.Factory
	policy  *model.Policy
	forward *model.Forward // the policy's acting pass on one observation
	random  bool
	obsRMS  *agent.RunningMeanStd
	obsClip float64
	// temperature divides the logits before sampling: the run's ppo.temperature at
	// the checkpoint (0 or 1: none).
	temperature float64
}

// SetTemperature makes the agent sample from softmax(logits / t) instead of at its
// run's own temperature: how a policy would play sharper or softer than it was
// trained (`train eval -temperature`). Only categorical policies have logits to divide.
func (a *Agent) SetTemperature(t float64) error {
	if !(t > 0) || math.IsInf(t, 0) {
		return fmt.Errorf("play: temperature %g: want a temperature above 0", t)
	}
	if a.policy == nil || a.policy.Head != model.HeadCategorical {
		return fmt.Errorf("play: a temperature applies to a categorical policy's logits, and %s's actions are not categorical", a.Spec.TaskID)
	}
	a.temperature = t
	return nil
}

// Temperature is the sampling temperature the agent plays at: that of its run at the
// checkpoint (PPO's ppo.temperature), 1 when the logits are sampled as they are.
func (a *Agent) Temperature() float64 {
	if a.temperature <= 0 {
		return 1
	}
	return a.temperature
}

// Load reads a run's config and the checkpoint named by which: "best" (falling back to
// latest when no best was written), "latest", or a path to a checkpoint file.
func Load(runDir, which string) (*Agent, error) {
	d, err := rundir.Open(runDir)
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	cfg, err := config.Load(d.File(rundir.ConfigFile), nil)
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	a := &Agent{Config: cfg}
	switch which {
	case "best", "":
		a.Checkpoint = d.Checkpoint(rundir.BestCheckpoint)
		if _, err := os.Stat(a.Checkpoint); errors.Is(err, os.ErrNotExist) {
			a.Checkpoint = d.Checkpoint(rundir.LatestCheckpoint)
			a.Note = "no best.ckpt (no episode finished before a checkpoint): using latest.ckpt"
		}
	case "latest":
		a.Checkpoint = d.Checkpoint(rundir.LatestCheckpoint)
	default:
		a.Checkpoint = which
		if !filepath.IsAbs(which) {
			if p := d.Checkpoint(which); fileExists(p) {
				a.Checkpoint = p
			}
		}
	}
	f, err := os.Open(a.Checkpoint)
	if err != nil {
		return nil, fmt.Errorf("play: %w (train writes checkpoints at run.checkpoint_interval and at the end; -checkpoint takes best, latest or a file)", err)
	}
	ckpt, err := agent.ReadCheckpoint(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("play: %s: %w", a.Checkpoint, err)
	}
	a.EnvSteps = ckpt.EnvSteps
	if ckpt.TaskID != cfg.Env.Task {
		return nil, fmt.Errorf("play: %s is a checkpoint for %s, but the run's config trains %s", a.Checkpoint, ckpt.TaskID, cfg.Env.Task)
	}
	task, err := envs.Lookup(cfg.Env.Task)
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	if a.Spec, a.factory, err = task.New(cfg.Env.FamilyOptions()); err != nil {
		return nil, fmt.Errorf("play: env.options for %s: %w", cfg.Env.Task, err)
	}
	if err := cfg.CheckTask(&a.Spec); err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	if ckpt.Algo != cfg.Run.Algo {
		return nil, fmt.Errorf("play: %s was written by %s, but the run's config says run.algo = %s", a.Checkpoint, ckpt.Algo, cfg.Run.Algo)
	}
	algo, err := cfg.Algorithm()
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	tr, err := algo.Policy(cfg.Section(), cfg.Net, &a.Spec, ckpt)
	if err != nil {
		return nil, fmt.Errorf("play: %s: %w", a.Checkpoint, err)
	}
	a.policy, a.obsRMS, a.obsClip, a.temperature = tr.Policy, tr.ObsRMS, tr.ObsClip, tr.Temperature
	if a.forward, err = model.NewForward(tr.Policy, 1); err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	// The checkpoint's weights do not change during an evaluation: convert them once.
	a.forward.WeightsFixed()
	return a, nil
}

// Random returns an agent that plays a task with uniformly random actions: the
// baseline a trained policy must beat, and a way to look at a task (-gif) before
// training on it. family holds the task family's options (nil: defaults).
func Random(taskID string, family map[string]any) (*Agent, error) {
	task, err := envs.Lookup(taskID)
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	a := &Agent{Config: &config.Config{}, Checkpoint: "(none: random actions)", random: true}
	*a.Config = config.Default()
	a.Config.Env.Task, a.Config.Env.Family = taskID, family
	if a.Spec, a.factory, err = task.New(family); err != nil {
		return nil, fmt.Errorf("play: %s options: %w", taskID, err)
	}
	return a, nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// output runs the actor on one raw observation (normalised as in training when the
// run normalised observations) and returns its logits or means.
func (a *Agent) output(ob envpool.Obs) ([]float32, error) {
	switch in := a.forward.Obs.Data().(type) {
	case []uint8:
		copy(in, ob.U8)
	case []float32:
		if a.obsRMS != nil {
			a.obsRMS.Normalize(ob.F32, in, a.obsClip)
		} else {
			copy(in, ob.F32)
		}
	}
	out, _, err := a.forward.Run()
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	return out, nil
}

// Act writes the env action for a raw observation into dst: the most likely action
// with deterministic, else a sample; Gaussian actions are clipped to the action box.
func (a *Agent) Act(ob envpool.Obs, deterministic bool, rng *rand.Rand, dst []float32) error {
	if a.random {
		a.randomAction(rng, dst)
		return nil
	}
	out, err := a.output(ob) // the actor's output: logits, or a Gaussian's means
	if err != nil {
		return err
	}
	if deterministic {
		a.policy.Greedy(out, dst)
	} else {
		a.policy.Sample(model.Temper(out, out, a.temperature), rng, dst)
	}
	if sp := &a.Spec.ActionSpace; sp.Kind == envpool.Box {
		for j := range dst {
			dst[j] = min(max(dst[j], sp.Low[j]), sp.High[j])
		}
	}
	return nil
}

// randomAction draws a uniform action: an index for Discrete spaces, a point of the
// box for Box spaces.
func (a *Agent) randomAction(rng *rand.Rand, dst []float32) {
	sp := &a.Spec.ActionSpace
	if sp.Kind != envpool.Box {
		dst[0] = float32(rng.IntN(sp.N))
		return
	}
	for j := range dst {
		lo, hi := float64(sp.Low[j]), float64(sp.High[j])
		if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
			dst[j] = float32(rng.NormFloat64())
			continue
		}
		dst[j] = float32(lo + (hi-lo)*rng.Float64())
	}
}

// Episode is one played episode: its raw return and length, and whether it was cut
// short (the time limit, or the env's own truncation: a suite task's 1000 steps, a
// physics fault) rather than ended by the task.
type Episode struct {
	Return    float64
	Length    int
	Truncated bool
}

// Options configure Play.
type Options struct {
	Episodes      int
	Seed          int64
	Deterministic bool
	// Record, when not nil, receives the frames of the first episode.
	Record *render.Recorder
	// OnEpisode, when not nil, is called after each episode.
	OnEpisode func(i int, e Episode)
}

// CanRecord reports whether frames of the task can be recorded, and if not, why.
func (a *Agent) CanRecord() error {
	env, err := a.factory(0, 0)
	if err != nil {
		return err
	}
	defer closeEnv(env)
	if _, ok := env.(envpool.Renderer); !ok {
		return fmt.Errorf("play: no way to draw %s: its envs do not draw themselves (envpool.Renderer)", a.Spec.TaskID)
	}
	if c, ok := env.(envpool.RenderChecker); ok {
		if err := c.CanRender(); err != nil {
			return fmt.Errorf("play: cannot draw %s: %w", a.Spec.TaskID, err)
		}
	}
	return nil
}

// FrameDelay is the GIF frame time for the task in hundredths of a second: its
// RenderFPS, the rate its family declares (Gymnasium's, or one picture per step of
// simulated time), never under the 2 hundredths GIF players keep to; 7 (about 15
// frames a second) for a task that declares none.
func (a *Agent) FrameDelay() int {
	if fps := a.Spec.RenderFPS; fps > 0 {
		return max(2, int(math.Round(100/fps)))
	}
	return 7
}

func closeEnv(env envpool.Env) {
	if c, ok := env.(interface{ Close() error }); ok {
		c.Close()
	}
}

// Play runs episodes of the policy in one env seeded with opts.Seed and returns them.
func (a *Agent) Play(opts Options) ([]Episode, error) {
	env, err := a.factory(0, opts.Seed)
	if err != nil {
		return nil, fmt.Errorf("play: building the env: %w", err)
	}
	defer closeEnv(env)
	limit := a.Config.Env.MaxEpisodeSteps
	if limit == 0 {
		limit = a.Spec.MaxEpisodeSteps
	}
	// Observations in the spec's dtype: float32 for the MLP policies, bytes for
	// pixels (which the CNN policies and the random agent play).
	var ob envpool.Obs
	var obs []float32
	if a.Spec.ObsSpace.DType == envpool.Float32 {
		obs = make([]float32, a.Spec.ObsSpace.Size())
		ob.F32 = obs
	} else {
		if a.policy != nil && a.policy.Torso == nil {
			return nil, fmt.Errorf("play: %s has %v observations, which an MLP policy cannot read", a.Spec.TaskID, a.Spec.ObsSpace.DType)
		}
		ob.U8 = make([]uint8, a.Spec.ObsSpace.Size())
	}
	info := make([]float32, a.Spec.InfoWidth())
	// Returns are raw: the family's unclipped reward column when it has one (Atari).
	rawCol := a.Spec.InfoIndex("reward")
	act := make([]float32, max(a.Spec.ActionSpace.Size(), 1))
	rng := agent.NewRand(opts.Seed, agent.StreamEval)
	renderer, _ := env.(envpool.Renderer)
	if opts.Record != nil && renderer == nil {
		return nil, fmt.Errorf("play: cannot record %s: its envs do not draw themselves (envpool.Renderer)", a.Spec.TaskID)
	}
	var frames render.Frames
	record := func() error {
		if opts.Record == nil {
			return nil
		}
		pic, err := renderer.Render()
		if err != nil {
			return fmt.Errorf("play: drawing %s: %w", a.Spec.TaskID, err)
		}
		opts.Record.Add(frames.Paletted(pic))
		return nil
	}
	var eps []Episode
	for i := range max(opts.Episodes, 1) {
		env.Reset()
		env.Observe(ob, info)
		if i > 0 {
			opts.Record = nil // only the first episode is recorded
		}
		if err := record(); err != nil {
			return eps, err
		}
		var e Episode
		for {
			if err := a.Act(ob, opts.Deterministic, rng, act); err != nil {
				return eps, err
			}
			r := env.Step(act)
			env.Observe(ob, info)
			if rawCol >= 0 {
				e.Return += float64(info[rawCol])
			} else {
				e.Return += float64(r.Reward)
			}
			e.Length++
			if err := record(); err != nil {
				return eps, err
			}
			if r.Terminated || r.Truncated {
				e.Truncated = r.Truncated && !r.Terminated
				break
			}
			if limit > 0 && e.Length >= limit {
				e.Truncated = true
				break
			}
		}
		eps = append(eps, e)
		if opts.OnEpisode != nil {
			opts.OnEpisode(i, e)
		}
	}
	return eps, nil
}
