// Package play loads a trained policy from a run directory and plays it: `train eval`.
//
// The policy is rebuilt from the run's own config.toml and a checkpoint (best or
// latest) by the run's learner (agent.Algorithm's Policy) and run by the learners' own
// acting pass (model.Forward) on one observation at a time: the same float32 graph and
// kernels, the torso on the backend net.backend picks. Returns are the env's raw,
// undiscounted rewards.
// The first episode can be recorded as an animated GIF: a drawing of the system for
// classic-control tasks, the env's own frames for envs that implement render.Framer
// (Atari) or render.RGBFramer (MuJoCo's rendered scenes, reduced to one palette per
// recording).
package play

import (
	"errors"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/atari"
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
	a.policy, a.obsRMS, a.obsClip = tr.Policy, tr.ObsRMS, tr.ObsClip
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
		a.policy.Sample(out, rng, dst)
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
	if render.CanDrawClassic(a.Spec.TaskID) {
		return nil
	}
	env, err := a.factory(0, 0)
	if err != nil {
		return err
	}
	defer closeEnv(env)
	if f := framerOf(env); f != nil {
		if c, ok := env.(render.FrameChecker); ok {
			if err := c.CanFrame(); err != nil {
				return fmt.Errorf("play: cannot draw %s: %w", a.Spec.TaskID, err)
			}
		}
		return nil
	}
	return fmt.Errorf("play: no way to draw %s: its envs implement neither render.Framer nor render.RGBFramer and it is not a classic-control task", a.Spec.TaskID)
}

// FrameDelay is the GIF frame time for a task in hundredths of a second, close to the
// speed Gymnasium renders it at (CartPole 50 fps, Acrobot 15, Atari 15 with frame
// skip 4, others 30), or the env's own RenderFPS (MuJoCo: one frame per env step of
// simulated time), never under the 2 hundredths GIF players keep to.
func (a *Agent) FrameDelay() int {
	switch a.Spec.TaskID {
	case "CartPole-v1":
		return 2
	case "Acrobot-v1":
		return 7
	case "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1":
		return 3
	}
	if a.factory != nil {
		if env, err := a.factory(0, 0); err == nil {
			defer closeEnv(env)
			if r, ok := env.(interface{ RenderFPS() float64 }); ok && r.RenderFPS() > 0 {
				return max(2, int(math.Round(100/r.RenderFPS())))
			}
		}
	}
	return 7
}

// aleEnv is an Atari env: its emulator's screen is the frame to record.
type aleEnv interface{ ALE() *atari.ALE }

// aleFramer records an Atari env's last emulated frame in NTSC colours, each pixel
// two wide so that the picture has roughly its television aspect.
type aleFramer struct{ env aleEnv }

// Frame returns the emulator's last frame as a new image.
func (f aleFramer) Frame() (*image.Paletted, error) {
	ale := f.env.ALE()
	return render.Atari(ale.Screen(), atari.ScreenWidth, ale.ScreenHeight(), 2, 1)
}

// rgbFramer records an env's true-colour pictures (a MuJoCo task's rendered scene),
// reduced to one palette chosen from the first picture (render.Quantizer).
type rgbFramer struct {
	env render.RGBFramer
	q   *render.Quantizer
}

// Frame returns the env's current picture as a new paletted image.
func (f *rgbFramer) Frame() (*image.Paletted, error) {
	img, err := f.env.FrameRGBA()
	if err != nil {
		return nil, err
	}
	if f.q == nil {
		f.q = render.NewQuantizer(img)
	}
	return f.q.Paletted(img), nil
}

// framerOf returns how to take frames of env's own pixels, or nil.
func framerOf(env envpool.Env) render.Framer {
	if f, ok := env.(render.Framer); ok {
		return f
	}
	if f, ok := env.(render.RGBFramer); ok {
		return &rgbFramer{env: f}
	}
	if e, ok := env.(aleEnv); ok {
		return aleFramer{e}
	}
	return nil
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
	info := make([]float32, len(a.Spec.InfoKeys))
	// Returns are raw: the family's unclipped reward column when it has one (Atari).
	rawCol := a.Spec.InfoIndex("reward")
	act := make([]float32, max(a.Spec.ActionSpace.Size(), 1))
	rng := agent.NewRand(opts.Seed, agent.StreamEval)
	framer := framerOf(env)
	record := func() error {
		if opts.Record == nil {
			return nil
		}
		if framer != nil {
			img, err := framer.Frame()
			if err != nil {
				return err
			}
			opts.Record.Add(img)
			return nil
		}
		img, err := render.Classic(a.Spec.TaskID, obs)
		if err != nil {
			return err
		}
		opts.Record.Add(img)
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
