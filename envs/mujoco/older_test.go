package mujoco

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envs"
)

// olderWantOpts are the v4 options that make an older id's env (the others need none).
var olderWantOpts = map[string]map[string]any{
	"Ant-v3":      {"use_contact_forces": true},
	"Humanoid-v3": {"use_contact_forces": true},
}

// olderWant are EnvPool's -v3 and -v2 ids; each is its v4 task (the name with -v4)
// with the options in olderWantOpts.
var olderWant = []string{"Ant-v3", "HalfCheetah-v3", "Hopper-v3", "Walker2d-v3", "Humanoid-v3", "Swimmer-v3",
	"HumanoidStandup-v2", "InvertedPendulum-v2", "InvertedDoublePendulum-v2", "Reacher-v2", "Pusher-v2"}

// TestOlderIDsAreTheirV4Task checks that each -v3/-v2 id is registered and runs, for
// the same seed and actions, step for step the same as its v4 task with the older
// id's options (Ant-v3: use_contact_forces, so 111 observed values, not 27), with the
// v4 task's limits.
func TestOlderIDsAreTheirV4Task(t *testing.T) {
	requireMuJoCo(t)
	for _, id := range olderWant {
		w := struct {
			id, v4 string
			opts   map[string]any
		}{id, id[:strings.LastIndex(id, "-")] + "-v4", olderWantOpts[id]}
		if !slices.Contains(TaskIDs(), w.id) || !slices.Contains(envs.List(), w.id) {
			t.Errorf("%s is not registered", w.id)
			continue
		}
		a, spec := makeEnv(t, w.id, nil, 7)
		b, v4 := makeEnv(t, w.v4, w.opts, 7)
		if spec.TaskID != w.id || spec.MaxEpisodeSteps != v4.MaxEpisodeSteps || spec.FrameSkip != v4.FrameSkip ||
			spec.ObsSpace.Size() != v4.ObsSpace.Size() || !slices.Equal(spec.InfoKeys, v4.InfoKeys) {
			t.Fatalf("%s: spec %+v, want %s's %+v under its own id", w.id, spec, w.v4, v4)
		}
		rng := rand.New(rand.NewPCG(3, 3))
		act := make([]float32, spec.ActionSpace.Size())
		a.Reset()
		b.Reset()
		for n := range 40 {
			randomAction(rng, spec, act)
			ra, rb := a.Step(act), b.Step(act)
			oa, ia := observe(a, spec)
			ob, ib := observe(b, v4)
			if ra != rb || !slices.Equal(oa, ob) || !slices.Equal(ia, ib) {
				t.Fatalf("%s step %d: differs from %s %v", w.id, n, w.v4, w.opts)
			}
			if ra.Terminated || ra.Truncated {
				a.Reset()
				b.Reset()
			}
		}
	}
	if spec, err := envs.SpecOf("Ant-v3", nil); err != nil || spec.ObsSpace.Size() != 111 {
		t.Errorf("Ant-v3 observes %v values (%v), want 111 with the contact forces", spec.ObsSpace.Shape, err)
	}
}

// TestOlderIDsTakeOptions checks that a config's options override an older id's
// defaults: Ant-v3 without the contact forces observes Ant-v4's 27 values.
func TestOlderIDsTakeOptions(t *testing.T) {
	requireMuJoCo(t)
	spec, err := envs.SpecOf("Ant-v3", map[string]any{"use_contact_forces": false})
	if err != nil || spec.ObsSpace.Size() != 27 {
		t.Errorf("Ant-v3 use_contact_forces=false: %v values (%v), want 27", spec.ObsSpace.Shape, err)
	}
	if _, err := envs.SpecOf("Hopper-v3", map[string]any{"no_such_option": 1}); err == nil {
		t.Error("Hopper-v3 took an unknown option")
	}
}

// TestHumanoidV3PaysContactCost checks Humanoid-v3 against Humanoid-v4 for the same
// seed and actions: the same states, and a reward lower by Gym's v3 contact cost,
// min(5e-7 * sum(cfrc_ext^2), 10), computed here from the simulator state.
func TestHumanoidV3PaysContactCost(t *testing.T) {
	requireMuJoCo(t)
	a, spec := makeEnv(t, "Humanoid-v3", nil, 5)
	b, _ := makeEnv(t, "Humanoid-v4", nil, 5)
	rng := rand.New(rand.NewPCG(4, 4))
	act := make([]float32, spec.ActionSpace.Size())
	a.Reset()
	b.Reset()
	paid := false
	for n := range 30 {
		randomAction(rng, spec, act)
		ra, rb := a.Step(act), b.Step(act)
		oa, _ := observe(a, spec)
		ob, _ := observe(b, spec)
		if !slices.Equal(oa, ob) {
			t.Fatalf("step %d: Humanoid-v3 and Humanoid-v4 observe different states", n)
		}
		var sum float64
		for _, f := range a.d.CfrcExt {
			sum += f * f
		}
		contact := math.Min(5e-7*sum, 10)
		paid = paid || contact > 1e-3
		near(t, "Humanoid-v4 reward minus Humanoid-v3 reward", float64(rb.Reward)-float64(ra.Reward), contact)
		if ra.Terminated {
			break
		}
	}
	if !paid {
		t.Error("no step had a contact cost to check")
	}
}
