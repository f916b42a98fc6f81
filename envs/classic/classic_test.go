package classic

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

type refStep struct {
	Action     float64   `json:"action"`
	State      []float64 `json:"state"`
	Obs        []float32 `json:"obs_float32"`
	Reward     float64   `json:"reward"`
	CostTerms  []float64 `json:"cost_terms"`
	Terminated bool      `json:"terminated"`
}

type refTrajectory struct {
	Name         string    `json:"name"`
	InitialState []float64 `json:"initial_state"`
	InitialObs   []float32 `json:"initial_obs_float32"`
	Steps        []refStep `json:"steps"`
}

func loadReference(t *testing.T) map[string][]refTrajectory {
	t.Helper()
	dir := os.Getenv("RLPOOL_TESTDATA")
	if dir == "" {
		t.Skip("RLPOOL_TESTDATA is not set: the classic-control reference trajectories live in $RLPOOL_TESTDATA/classic_reference.json")
	}
	raw, err := os.ReadFile(filepath.Join(dir, "classic_reference.json"))
	if err != nil {
		t.Skipf("RLPOOL_TESTDATA has no classic_reference.json: %v", err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	out := map[string][]refTrajectory{}
	for _, id := range []string{"CartPole-v1", "Pendulum-v1"} {
		var trajs []refTrajectory
		if err := json.Unmarshal(all[id], &trajs); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if len(trajs) == 0 {
			t.Fatalf("%s: no trajectories in the reference file", id)
		}
		out[id] = trajs
	}
	return out
}

// closeTo applies the reference file's tolerance: 1e-12 relative (libm differs by ulps).
func closeTo(got, want float64) bool {
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}

// closeF32 accepts equality or one float32 ulp.
func closeF32(got, want float32) bool {
	if got == want {
		return true
	}
	return math.Nextafter32(want, float32(math.Inf(1))) == got || math.Nextafter32(want, float32(math.Inf(-1))) == got
}

func checkObs(t *testing.T, where string, env envpool.Env, want []float32) {
	t.Helper()
	got := make([]float32, len(want))
	env.Observe(envpool.Obs{F32: got}, nil)
	for i := range want {
		if !closeF32(got[i], want[i]) {
			t.Fatalf("%s: obs[%d] = %v, want %v", where, i, got[i], want[i])
		}
	}
}

func TestCartPoleMatchesReference(t *testing.T) {
	for _, tr := range loadReference(t)["CartPole-v1"] {
		t.Run(tr.Name, func(t *testing.T) {
			e := newCartPole(1, false)
			copy(e.state[:], tr.InitialState)
			checkObs(t, "initial", e, tr.InitialObs)
			for k, st := range tr.Steps {
				res := e.Step([]float32{float32(st.Action)})
				for i, w := range st.State {
					if !closeTo(e.state[i], w) {
						t.Fatalf("step %d: state[%d] = %v, want %v", k+1, i, e.state[i], w)
					}
				}
				checkObs(t, "step", e, st.Obs)
				if float64(res.Reward) != st.Reward || res.Terminated != st.Terminated {
					t.Fatalf("step %d: reward %v terminated %v, want %v %v", k+1, res.Reward, res.Terminated, st.Reward, st.Terminated)
				}
			}
		})
	}
}

func TestPendulumMatchesReference(t *testing.T) {
	for _, tr := range loadReference(t)["Pendulum-v1"] {
		t.Run(tr.Name, func(t *testing.T) {
			e := newPendulum(1, 10)
			e.theta, e.thDot = tr.InitialState[0], tr.InitialState[1]
			checkObs(t, "initial", e, tr.InitialObs)
			for k, st := range tr.Steps {
				res := e.Step([]float32{float32(st.Action)})
				if !closeTo(e.theta, st.State[0]) || !closeTo(e.thDot, st.State[1]) {
					t.Fatalf("step %d: state (%v, %v), want %v", k+1, e.theta, e.thDot, st.State)
				}
				for i, w := range st.CostTerms {
					if !closeTo(e.costTermsLast[i], w) {
						t.Fatalf("step %d: cost term %d = %v, want %v", k+1, i, e.costTermsLast[i], w)
					}
				}
				cost := e.costTermsLast[0] + e.costTermsLast[1] + e.costTermsLast[2]
				if !closeTo(-cost, st.Reward) || res.Reward != float32(st.Reward) || res.Terminated {
					t.Fatalf("step %d: reward %v (float64 %v), want %v", k+1, res.Reward, -cost, st.Reward)
				}
				checkObs(t, "step", e, st.Obs)
			}
		})
	}
}

func TestCartPoleThetaLimitIsPythonValue(t *testing.T) {
	// Python evaluates 12 * 2 * math.pi / 360 step by step; the folded constant differs.
	if cpThetaLim != 0.20943951023931953 {
		t.Fatalf("theta limit %.17g, want 0.20943951023931953", cpThetaLim)
	}
}

func TestMountainCarHandComputed(t *testing.T) {
	e := newMountainCar(1, 0)
	e.pos, e.vel = -0.5, 0
	e.Step([]float32{2})
	wantVel := 0.001 + math.Cos(3*-0.5)*(-0.0025)
	if e.vel != wantVel || e.pos != -0.5+wantVel {
		t.Fatalf("after push right: pos %v vel %v, want %v %v", e.pos, e.vel, -0.5+wantVel, wantVel)
	}
	// The left wall is inelastic.
	e.pos, e.vel = -1.19, -0.05
	e.Step([]float32{0})
	if e.pos != -1.2 || e.vel != 0 {
		t.Fatalf("at the wall: pos %v vel %v, want -1.2 0", e.pos, e.vel)
	}
	// The goal terminates with reward -1.
	e.pos, e.vel = 0.49, 0.02
	if r := e.Step([]float32{1}); !r.Terminated || r.Reward != -1 {
		t.Fatalf("at the goal: %+v", r)
	}
}

func TestMountainCarContinuousRewardAndFloat32State(t *testing.T) {
	e := newMountainCarContinuous(1, 0)
	e.pos, e.vel = -0.5, 0
	r := e.Step([]float32{3}) // force clipped to 1, penalty on the raw action
	if want := float32(-0.1 * 9); math.Abs(float64(r.Reward-want)) > 1e-6 || r.Terminated {
		t.Fatalf("reward %v, want %v", r.Reward, want)
	}
	if e.vel != float64(float32(e.vel)) || e.pos != float64(float32(e.pos)) {
		t.Fatal("state is not stored as float32")
	}
	wantVel := float64(float32(1*0.0015 - 0.0025*math.Cos(3*-0.5)))
	if e.vel != wantVel {
		t.Fatalf("vel %v, want %v", e.vel, wantVel)
	}
	e.pos, e.vel = 0.44, 0.02
	if r := e.Step([]float32{0.5}); !r.Terminated || math.Abs(float64(r.Reward)-(100-0.025)) > 1e-4 {
		t.Fatalf("at the goal: %+v", r)
	}
}

func TestAcrobot(t *testing.T) {
	e := newAcrobot(1)
	// Hanging at rest with no torque is an equilibrium, up to cos(-pi/2) = 6e-17 as in
	// Python.
	e.state = [4]float64{}
	if r := e.Step([]float32{1}); r.Terminated || r.Reward != -1 {
		t.Fatalf("at rest: %+v", r)
	}
	for _, v := range e.state {
		if math.Abs(v) > 1e-15 {
			t.Fatalf("equilibrium moved: %v", e.state)
		}
	}
	// Pointing straight up terminates with reward 0: -cos(pi) - cos(0+pi) = 2 > 1.
	e.state = [4]float64{pi, 0, 0, 0}
	if r := e.Step([]float32{1}); !r.Terminated || r.Reward != 0 {
		t.Fatalf("upright: %+v state %v", r, e.state)
	}
	// Angles wrap into [-pi, pi] and velocities are clipped.
	if got := wrap(3*pi/2, -pi, pi); math.Abs(got-(-pi/2)) > 1e-15 {
		t.Fatalf("wrap(3pi/2) = %v", got)
	}
	e.state = [4]float64{0.1, 0.1, 100, -100}
	e.Step([]float32{2})
	if math.Abs(e.state[2]) != acMaxV1 || math.Abs(e.state[3]) != acMaxV2 {
		t.Fatalf("velocities not clipped: %v", e.state)
	}
	// Reset values are float32-rounded draws from U(-0.1, 0.1).
	e.Reset()
	for _, v := range e.state {
		if v != float64(float32(v)) || v < -0.1 || v > 0.1 {
			t.Fatalf("reset state %v", e.state)
		}
	}
}

func TestAngleNormalizeIsFloorModulo(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{{0, 0}, {-4, 2*pi - 4}, {4, 4 - 2*pi}, {-pi, -pi}} {
		if got := angleNormalize(c.in); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("angleNormalize(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestSpecsAndOptions(t *testing.T) {
	cases := []struct {
		id       string
		obs      int
		discrete int
		maxSteps int
	}{
		{"CartPole-v1", 4, 2, 500}, {"Acrobot-v1", 6, 3, 500}, {"MountainCar-v0", 2, 3, 200},
		{"MountainCarContinuous-v0", 2, 0, 999}, {"Pendulum-v1", 3, 0, 200},
	}
	for _, c := range cases {
		spec, err := envs.SpecOf(c.id, nil)
		if err != nil {
			t.Fatal(err)
		}
		if spec.ObsSpace.Size() != c.obs || spec.MaxEpisodeSteps != c.maxSteps {
			t.Errorf("%s: obs %d steps %d", c.id, spec.ObsSpace.Size(), spec.MaxEpisodeSteps)
		}
		if c.discrete > 0 && (spec.ActionSpace.Kind != envpool.Discrete || spec.ActionSpace.N != c.discrete) {
			t.Errorf("%s: action space %v", c.id, spec.ActionSpace)
		}
		if c.discrete == 0 && spec.ActionSpace.Kind != envpool.Box {
			t.Errorf("%s: action space %v", c.id, spec.ActionSpace)
		}
	}
	if _, err := envs.SpecOf("Pendulum-v1", map[string]any{"gravity": 9.8}); err == nil {
		t.Error("unknown option accepted")
	}
	if _, err := envs.SpecOf("Pendulum-v1", map[string]any{"g": "x"}); err == nil {
		t.Error("wrongly typed option accepted")
	}
}

func TestCartPoleEpisodeThroughPool(t *testing.T) {
	p, err := envs.Make("CartPole-v1", envs.Options{Options: envpool.Options{NumEnvs: 4, NumThreads: 2, Seed: 7}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	b, err := p.Reset()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		for _, v := range b.RowF32(i) {
			if v < -0.05 || v > 0.05 {
				t.Fatalf("reset obs %v", b.RowF32(i))
			}
		}
	}
	// Always pushing right ends every episode in a few dozen steps, each paying 1.
	acts := []float32{1, 1, 1, 1}
	var total float32
	for range 100 {
		b, err = p.Step(acts, nil)
		if err != nil {
			t.Fatal(err)
		}
		if b.Terminated[0] {
			break
		}
		total += b.Reward[0]
	}
	if !b.Terminated[0] || total < 5 || total > 60 {
		t.Fatalf("pushing right: terminated %v after reward %v", b.Terminated[0], total)
	}
}

// TestStateRoundTrip saves every task's env mid-episode, restores it into a fresh env
// of another seed, and checks both then produce the same steps and resets.
func TestStateRoundTrip(t *testing.T) {
	type stateful interface {
		envpool.Env
		MarshalBinary() ([]byte, error)
		UnmarshalBinary([]byte) error
	}
	for _, id := range envs.List() {
		t.Run(id, func(t *testing.T) {
			a, spec, err := envs.MakeEnv(id, nil, 5)
			if err != nil {
				t.Fatal(err)
			}
			b, _, _ := envs.MakeEnv(id, nil, 99)
			sa, ok := a.(stateful)
			if !ok {
				t.Skipf("%T is not a classic env", a)
			}
			act := []float32{1}
			if spec.ActionSpace.Kind == envpool.Box {
				act = []float32{0.3}
			}
			sa.Reset()
			for range 7 {
				sa.Step(act)
			}
			data, err := sa.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			sb := b.(stateful)
			if err := sb.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			oa, ob := make([]float32, spec.ObsSpace.Size()), make([]float32, spec.ObsSpace.Size())
			for k := range 30 {
				if k%10 == 9 {
					sa.Reset()
					sb.Reset()
				} else if ra, rb := sa.Step(act), sb.Step(act); ra != rb {
					t.Fatalf("step %d: %+v vs %+v", k, ra, rb)
				}
				sa.Observe(envpool.Obs{F32: oa}, nil)
				sb.Observe(envpool.Obs{F32: ob}, nil)
				for i := range oa {
					if oa[i] != ob[i] {
						t.Fatalf("step %d: obs %v vs %v", k, oa, ob)
					}
				}
			}
			if err := sb.UnmarshalBinary(data[:len(data)-3]); err == nil {
				t.Fatal("truncated state accepted")
			}
		})
	}
}

// TestGymV0Tasks checks the two Gym v0 tasks: CartPole-v0 is CartPole-v1 with a
// 200-step limit and a threshold of 195, and Pendulum-v0 advances the angle by the
// speed before clipping it, where v1 advances it by the clipped speed.
func TestGymV0Tasks(t *testing.T) {
	v0, err := envs.SpecOf("CartPole-v0", nil)
	if err != nil {
		t.Fatal(err)
	}
	v1, _ := envs.SpecOf("CartPole-v1", nil)
	if v0.MaxEpisodeSteps != 200 || v0.RewardThreshold != 195 || v0.ObsSpace.Size() != v1.ObsSpace.Size() {
		t.Errorf("CartPole-v0: %d steps, threshold %v, obs %d", v0.MaxEpisodeSteps, v0.RewardThreshold, v0.ObsSpace.Size())
	}
	// From theta = pi/2 at speed 7.9 with torque 2: the speed becomes
	// 7.9 + (15 sin(pi/2) + 3*2) * 0.05 = 8.95, clipped to 8.
	for _, c := range []struct {
		id        string
		wantTheta float64
	}{{"Pendulum-v1", math.Pi/2 + 8*0.05}, {"Pendulum-v0", math.Pi/2 + 8.95*0.05}} {
		env, _, err := envs.MakeEnv(c.id, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		p := env.(*Pendulum)
		p.theta, p.thDot = math.Pi/2, 7.9
		p.Step([]float32{2})
		if math.Abs(p.theta-c.wantTheta) > 1e-12 || p.thDot != 8 {
			t.Errorf("%s: theta %v speed %v, want %v and 8", c.id, p.theta, p.thDot, c.wantTheta)
		}
	}
}
