package play

import (
	"bytes"
	"context"
	"image/gif"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/impala"
	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/envpool"
	_ "github.com/rlpool/rlpool/envs/classic"
	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/render"
	"github.com/rlpool/rlpool/internal/trainer"
)

// trainRun trains the run that sets describe and returns its directory.
func trainRun(t *testing.T, sets []string) string {
	t.Helper()
	cfg, err := config.FromMap(map[string]any{}, sets, "test")
	if err != nil {
		t.Fatal(err)
	}
	res, err := trainer.Run(context.Background(), trainer.Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return res.Dir
}

// trainTiny trains a few thousand CartPole steps into a fresh run directory.
func trainTiny(t *testing.T, sets ...string) string {
	t.Helper()
	base := []string{"run.dir=" + t.TempDir(), "run.name=tiny", "run.total_steps=2048", "run.threads=1",
		"run.log_interval=1024", "run.checkpoint_interval=1024", "env.task=CartPole-v1", "env.num_envs=4",
		"env.num_threads=1", "net.hidden=8,8", "ppo.num_steps=64", "ppo.update_epochs=1"}
	return trainRun(t, append(base, sets...))
}

// patternOutput runs a's CNN player on an observation of bytes i*k and returns the
// observation and a copy of the actor's output.
func patternOutput(t *testing.T, a *Agent, k int) (obs []uint8, out []float32) {
	t.Helper()
	obs = make([]uint8, a.Spec.ObsSpace.Size())
	for i := range obs {
		obs[i] = uint8(i * k)
	}
	out, err := a.output(envpool.Obs{U8: obs})
	if err != nil {
		t.Fatal(err)
	}
	return obs, append([]float32(nil), out...)
}

// runOn runs an acting pass on one observation (float32 values or uint8 pixels) and
// returns a copy of the actor's output.
func runOn(t *testing.T, f *model.Forward, obs any) []float32 {
	t.Helper()
	switch o := obs.(type) {
	case []float32:
		copy(f.Obs.Data().([]float32), o)
	case []uint8:
		copy(f.Obs.Data().([]uint8), o)
	}
	out, _, err := f.Run()
	if err != nil {
		t.Fatal(err)
	}
	return append([]float32(nil), out...)
}

// graphOutput builds p's training graph for one observation, runs it once on obs
// (float32 values or uint8 pixels) and returns a copy of the policy's output: the
// reference a player's own acting pass must match.
func graphOutput(t *testing.T, p *model.Policy, obs any) []float32 {
	t.Helper()
	g := G.NewGraph()
	x, in := p.ObsInput(g, tensor.Float32, "obs", 1)
	switch o := obs.(type) {
	case []float32:
		copy(in.Data().([]float32), o)
	case []uint8:
		copy(in.Data().([]uint8), o)
	}
	pn, err := p.Build(g, x)
	if err != nil {
		t.Fatal(err)
	}
	var out G.Value
	G.Read(pn.Out, &out)
	m := G.NewTapeMachine(g)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	return append([]float32(nil), out.Data().([]float32)...)
}

// requireClose fails the test unless got and want (each described by its name) agree
// element by element within tol.
func requireClose(t *testing.T, gotName string, got []float32, wantName string, want []float32, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s %v, %s %v: lengths differ", gotName, got, wantName, want)
	}
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > tol {
			t.Fatalf("%s %v, %s %v", gotName, got, wantName, want)
		}
	}
}

// latestCheckpoint reads the latest checkpoint of the run in dir.
func latestCheckpoint(t *testing.T, dir string) *agent.Checkpoint {
	t.Helper()
	ck, err := agent.ReadCheckpointFile(filepath.Join(dir, "checkpoints", "latest.ckpt"))
	if err != nil {
		t.Fatal(err)
	}
	return ck
}

// trainCNN trains the Pong run that sets describe and loads its latest checkpoint,
// which must come back as a CNN player.
func trainCNN(t *testing.T, sets []string) (*Agent, string) {
	t.Helper()
	dir := trainRun(t, sets)
	a, err := Load(dir, "latest")
	if err != nil {
		t.Fatal(err)
	}
	if a.policy.Torso == nil {
		t.Fatalf("the checkpoint of %s did not load as a CNN player", dir)
	}
	return a, dir
}

func TestPlayMatchesGraphAndRecords(t *testing.T) {
	dir := trainTiny(t, "ppo.norm_obs=true")
	a, err := Load(dir, "latest")
	if err != nil {
		t.Fatal(err)
	}
	if a.EnvSteps != 2048 || a.obsRMS == nil {
		t.Fatalf("loaded checkpoint at %d steps (norm stats %v), want 2048 with stats", a.EnvSteps, a.obsRMS != nil)
	}
	// The player computes what the learner's acting pass computes on the normalised
	// observation, bit for bit, and what its training graph computes up to rounding.
	obs := []float32{0.03, -0.2, 0.05, 0.4}
	normed := make([]float32, 4)
	a.obsRMS.Normalize(obs, normed, a.obsClip)
	got, err := a.output(envpool.Obs{F32: obs})
	if err != nil {
		t.Fatal(err)
	}
	acting, err := model.NewForward(a.policy, 1)
	if err != nil {
		t.Fatal(err)
	}
	if actOut := runOn(t, acting, normed); !slices.Equal(got, actOut) {
		t.Fatalf("player logits %v, acting pass %v", got, actOut)
	}
	requireClose(t, "logits", got, "graph gives", graphOutput(t, a.policy, normed), 1e-5)

	rec := render.NewRecorder(a.FrameDelay(), 0)
	var seen []Episode
	eps, err := a.Play(Options{Episodes: 3, Seed: 5, Deterministic: true, Record: rec,
		OnEpisode: func(i int, e Episode) { seen = append(seen, e) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(eps) != 3 || len(seen) != 3 {
		t.Fatalf("%d episodes, %d reported", len(eps), len(seen))
	}
	for _, e := range eps {
		// CartPole pays 1 per step.
		if e.Return != float64(e.Length) || e.Length < 1 || e.Length > 500 {
			t.Errorf("episode %+v", e)
		}
	}
	if rec.Len() != eps[0].Length+1 {
		t.Errorf("recorded %d frames, want the first episode's %d steps + the reset frame", rec.Len(), eps[0].Length)
	}
	var buf bytes.Buffer
	if err := rec.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if g, err := gif.DecodeAll(&buf); err != nil || len(g.Image) != rec.Len() {
		t.Fatalf("GIF does not decode to its frames: %v", err)
	}
	// Deterministic play from the same seed repeats itself.
	again, _ := a.Play(Options{Episodes: 3, Seed: 5, Deterministic: true})
	for i := range eps {
		if again[i] != eps[i] {
			t.Errorf("episode %d: %+v then %+v", i, eps[i], again[i])
		}
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(t.TempDir(), "best"); err == nil {
		t.Error("loading a folder without a run succeeded")
	}
	dir := trainTiny(t)
	if _, err := Load(dir, "nope.ckpt"); err == nil {
		t.Error("loading a missing checkpoint succeeded")
	}
	if _, err := Load(dir, filepath.Join(dir, "config.toml")); err == nil {
		t.Error("loading a config as a checkpoint succeeded")
	}
	a, err := Load(dir, "best")
	if err != nil {
		t.Fatal(err)
	}
	if a.Checkpoint == "" {
		t.Error("no checkpoint path recorded")
	}
}

func TestRandomAgentClassic(t *testing.T) {
	a, err := Random("Pendulum-v1", nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := render.NewRecorder(a.FrameDelay(), 0)
	eps, err := a.Play(Options{Episodes: 2, Seed: 1, Record: rec})
	if err != nil {
		t.Fatal(err)
	}
	// Pendulum only ends at its 200-step limit; rewards are negative costs.
	if len(eps) != 2 || eps[0].Length != 200 || !eps[0].Truncated || eps[0].Return >= 0 {
		t.Fatalf("episodes %+v", eps)
	}
	if rec.Len() != 201 {
		t.Errorf("%d frames, want 201", rec.Len())
	}
	if _, err := Random("NoSuchTask-v0", nil); err == nil {
		t.Error("an unknown task was accepted")
	}
}

// TestRandomAgentAtari plays Pong from its ROM with random actions and records the
// console's own frames.
func TestRandomAgentAtari(t *testing.T) {
	dir := os.Getenv("RLPOOL_ROMS")
	if dir == "" {
		t.Skip("RLPOOL_ROMS is not set: no Pong ROM")
	}
	a, err := Random("Pong-v5", map[string]any{"roms_dir": dir, "max_episode_steps": int64(60)})
	if err != nil {
		t.Skipf("Pong-v5 unavailable: %v", err)
	}
	if err := a.CanRecord(); err != nil {
		t.Fatal(err)
	}
	g := decodeGIF(t, recordEpisode(t, a, 3, 60))
	if len(g.Image) != 61 || g.Image[0].Bounds().Dx() != 320 || g.Image[0].Bounds().Dy() != 210 {
		t.Fatalf("%d frames of %v", len(g.Image), g.Image[0].Bounds())
	}
	colours := map[uint8]bool{}
	for _, p := range g.Image[60].Pix {
		colours[p] = true
	}
	if len(colours) < 4 {
		t.Errorf("the last Pong frame has %d colours; the game shows field, walls, paddles and score", len(colours))
	}
}

// TestImpalaNatureCNN trains IMPALA on Pong for a few unrolls, loads its checkpoint's
// Nature CNN and checks that the policy head's weights reach the logits, then plays.
func TestImpalaNatureCNN(t *testing.T) {
	roms := os.Getenv("RLPOOL_ROMS")
	if roms == "" {
		t.Skip("RLPOOL_ROMS is not set: no Pong ROM")
	}
	sets := []string{"run.algo=impala", "run.dir=" + t.TempDir(), "run.name=pong", "run.total_steps=40",
		"run.threads=1", "run.log_interval=20", "run.checkpoint_interval=0", "env.task=Pong-v5",
		"env.num_envs=2", "env.batch_size=2", "env.options.roms_dir=" + roms, "impala.unroll_length=5",
		"impala.batch_size=2", "impala.queue_size=4", "net.network=auto"}
	a, dir := trainCNN(t, sets)
	obs, before := patternOutput(t, a, 7)
	// Raise the bias of action 0 in the checkpoint: exactly logit 0 must follow.
	ck := latestCheckpoint(t, dir)
	load := func(ck *agent.Checkpoint) (*model.Forward, error) {
		tr, err := impala.Algorithm.Policy(a.Config.Section(), a.Config.Net, &a.Spec, ck)
		if err != nil {
			return nil, err
		}
		return model.NewForward(tr.Policy, 1)
	}
	ck.F32["actor.b0"][0] += 1
	net, err := load(ck)
	if err != nil {
		t.Fatal(err)
	}
	after := runOn(t, net, obs)
	for i := range before {
		want := before[i]
		if i == 0 {
			want++
		}
		if math.Abs(float64(after[i]-want)) > 1e-4 {
			t.Fatalf("logits %v after raising bias 0, want %v + [1 0 ...]", after, before)
		}
	}
	delete(ck.F32, "actor.w0")
	if _, err := load(ck); err == nil {
		t.Error("a checkpoint without the policy head loaded")
	}
	a.Config.Env.MaxEpisodeSteps = 30
	rec := render.NewRecorder(a.FrameDelay(), 0)
	eps, err := a.Play(Options{Episodes: 1, Seed: 2, Deterministic: true, Record: rec})
	if err != nil {
		t.Fatal(err)
	}
	if eps[0].Length != 30 || rec.Len() != 31 {
		t.Errorf("played %+v with %d frames, want 30 steps and 31 frames", eps[0], rec.Len())
	}
}

// A player samples at the temperature its run had reached at the checkpoint: with the
// temperature falling from 1 at step 1024 to 0.5 at 3072, the checkpoint at 2048 steps
// plays at 0.75; a run without the schedule plays at 1.
func TestPlayTemperature(t *testing.T) {
	for _, tc := range []struct {
		sets []string
		want float64
	}{
		{[]string{"ppo.temperature=0.5", "ppo.temperature_start=1024", "ppo.temperature_steps=2048"}, 0.75},
		{nil, 1},
	} {
		a, err := Load(trainTiny(t, tc.sets...), "latest")
		if err != nil {
			t.Fatal(err)
		}
		if a.EnvSteps != 2048 || a.Temperature() != tc.want {
			t.Errorf("%v: temperature %g at %d steps, want %g at 2048", tc.sets, a.Temperature(), a.EnvSteps, tc.want)
		}
	}
}
