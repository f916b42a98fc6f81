package box2d

import (
	"math"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// makeEnv builds one env of a task with options, failing the test on error.
func makeEnv(t testing.TB, id string, opts map[string]any, seed int64) (envpool.Env, envpool.Spec) {
	t.Helper()
	env, spec, err := envs.MakeEnv(id, opts, seed)
	if err != nil {
		t.Fatalf("MakeEnv(%s, %v): %v", id, opts, err)
	}
	return env, spec
}

// observe returns an env's observation as float64.
func observe(env envpool.Env, n int) []float64 {
	o := make([]float32, n)
	env.Observe(envpool.Obs{F32: o}, nil)
	out := make([]float64, n)
	for i, v := range o {
		out[i] = float64(v)
	}
	return out
}

// landerHeuristic is the PID-like controller Gymnasium ships with the lander: lean
// towards the pad, hover at a height proportional to the horizontal offset, and only
// brake the fall once a leg touches.
func landerHeuristic(s []float64, continuous bool) []float32 {
	angleTarg := clip(s[0]*0.5+s[2]*1.0, -0.4, 0.4)
	hoverTarg := 0.55 * math.Abs(s[0])
	angleTodo := (angleTarg-s[4])*0.5 - s[5]*1.0
	hoverTodo := (hoverTarg-s[1])*0.5 - s[3]*0.5
	if s[6] != 0 || s[7] != 0 {
		angleTodo = 0
		hoverTodo = -s[3] * 0.5
	}
	if continuous {
		return []float32{float32(clip(hoverTodo*20-1, -1, 1)), float32(clip(-angleTodo*20, -1, 1))}
	}
	switch {
	case hoverTodo > math.Abs(angleTodo) && hoverTodo > 0.05:
		return []float32{2}
	case angleTodo < -0.05:
		return []float32{3}
	case angleTodo > 0.05:
		return []float32{1}
	}
	return []float32{0}
}

// runEpisode plays one episode of at most limit steps with a policy and returns its
// return, its length and whether it terminated.
func runEpisode(env envpool.Env, n, limit int, policy func(s []float64) []float32) (ret float64, steps int, terminated bool) {
	env.Reset()
	s := observe(env, n)
	for steps < limit {
		r := env.Step(policy(s))
		ret += float64(r.Reward)
		steps++
		s = observe(env, n)
		if r.Terminated {
			return ret, steps, true
		}
	}
	return ret, steps, false
}

func TestLunarLanderTerrain(t *testing.T) {
	env, _ := makeEnv(t, "LunarLander-v3", nil, 3)
	e := env.(*LunarLander)
	e.begin()
	xs, ys := e.terrain()
	w, h := 600.0/30, 400.0/30
	if xs[0] != 0 || math.Abs(xs[10]-w) > 1e-12 || math.Abs(xs[1]-2) > 1e-12 {
		t.Errorf("chunk x = %v, want 0, 2, ..., 20", xs)
	}
	if e.helipadX1 != xs[4] || e.helipadX2 != xs[6] || e.helipadY != h/4 {
		t.Errorf("pad %v..%v at %v, want %v..%v at %v", e.helipadX1, e.helipadX2, e.helipadY, xs[4], xs[6], h/4)
	}
	// Chunks 4 to 6 average three pad heights: flat at 0.99 * H/4.
	for i := 4; i <= 6; i++ {
		if math.Abs(ys[i]-0.99*h/4) > 1e-12 {
			t.Errorf("smoothed height %d = %v, want 0.99*H/4 = %v", i, ys[i], 0.99*h/4)
		}
	}
	for i, y := range ys {
		if y < 0 || y >= 0.99*h/2 {
			t.Errorf("smoothed height %d = %v outside [0, 0.99*H/2)", i, y)
		}
	}
}

func TestLunarLanderGeometry(t *testing.T) {
	env, _ := makeEnv(t, "LunarLander-v3", nil, 1)
	e := env.(*LunarLander)
	e.Reset()
	// Hull area from the shoelace formula of LANDER_POLY (pixels), at density 5.
	area := 0.0
	for i := 0; i < len(llPoly); i += 2 {
		j := (i + 2) % len(llPoly)
		area += llPoly[i]*llPoly[j+1] - llPoly[j]*llPoly[i+1]
	}
	area = math.Abs(area) / 2 / (llScale * llScale)
	if got := e.lander.GetMass(); math.Abs(got-5*area) > 1e-9 {
		t.Errorf("lander mass %v, want 5 * %v", got, area)
	}
	legArea := 4 * (llLegW / llScale) * (llLegH / llScale)
	for i, leg := range e.legs {
		if got := leg.GetMass(); math.Abs(got-legArea) > 1e-9 {
			t.Errorf("leg %d mass %v, want %v", i, got, legArea)
		}
	}
	// After the first step the legs hang either side of the hull.
	if e.legs[0].GetPosition().X <= e.legs[1].GetPosition().X {
		t.Errorf("leg 0 at x %v should be right of leg 1 at %v", e.legs[0].GetPosition().X, e.legs[1].GetPosition().X)
	}
	s := observe(e, 8)
	// Start at the top centre: x near 0, y about (H - H/4 - 18/30) / (H/2).
	if math.Abs(s[0]) > 0.05 || math.Abs(s[1]-(400.0/30*0.75-0.6)/(400.0/60)) > 0.05 {
		t.Errorf("first observation %v, want x near 0 and y near %v", s, (400.0/30*0.75-0.6)/(400.0/60))
	}
}

// TestLunarLanderMatchesBox2D drops the lander onto flat ground with several pushes
// and gravities and compares where and when the hull touches down with Box2D 2.3.10's
// C++ (the copy box2d-py bundles) in the same scene, stepped the same way.
func TestLunarLanderMatchesBox2D(t *testing.T) {
	for _, c := range []struct {
		fx, fy, g   float64
		step        int
		x, y, angle float64
	}{
		{300, 0, -10, 68, 11.6555, 3.7117, -0.1162},
		{-500, 200, -10, 72, 7.0839, 3.7696, 0.2296},
		{900, -900, -10, 52, 13.8089, 3.8237, -0.3524},
		{200, 0, -1.5, 179, 12.8867, 3.6721, -0.0420},
		{-300, 0, -2, 154, 6.2797, 3.7545, 0.1993},
	} {
		env, _ := makeEnv(t, "LunarLander-v3", nil, 0)
		e := env.(*LunarLander)
		e.world = newWorld(0, c.g)
		var xs, ys [llChunks]float64
		for i := range xs {
			xs[i], ys[i] = 2*float64(i), 400.0/30/4*0.99
		}
		e.addMoon(xs, ys)
		e.addLander(c.fx, c.fy)
		step := 0
		for ; step < 1000 && !e.gameOver; step++ {
			e.world.Step(1.0/fps, 6*30, 2*30)
		}
		p := e.lander.GetPosition()
		if step-1 != c.step || math.Abs(p.X-c.x) > 2e-3 || math.Abs(p.Y-c.y) > 2e-3 || math.Abs(e.lander.GetAngle()-c.angle) > 2e-3 {
			t.Errorf("push (%v, %v), gravity %v: hull down at step %d at (%.4f, %.4f) angle %.4f; Box2D: step %d at (%v, %v) angle %v",
				c.fx, c.fy, c.g, step-1, p.X, p.Y, e.lander.GetAngle(), c.step, c.x, c.y, c.angle)
		}
	}
}

func TestLunarLanderFreeFallCrashes(t *testing.T) {
	for seed := int64(0); seed < 10; seed++ {
		env, _ := makeEnv(t, "LunarLander-v3", nil, seed)
		env.Reset()
		var last envpool.StepResult
		steps := 0
		for ; steps < 1000 && !last.Terminated; steps++ {
			last = env.Step([]float32{0})
		}
		if !last.Terminated || last.Reward != -100 {
			t.Errorf("seed %d: engines off for %d steps: terminated %v with reward %v, want the -100 crash", seed, steps, last.Terminated, last.Reward)
		}
	}
}

// TestLunarLanderHeuristicLands flies Gymnasium's heuristic lander over 100 seeds and
// requires a mean return of at least 200 (the solved score) and, as EnvPool's own
// correctness test does against Gymnasium's 1000-episode means, within 20 of 237
// (discrete) and within 10 of 284 (continuous). -short flies 20 seeds and checks 200.
func TestLunarLanderHeuristicLands(t *testing.T) {
	for _, c := range []struct {
		id        string
		want, tol float64
	}{{"LunarLander-v3", 237, 20}, {"LunarLanderContinuous-v3", 284, 10}} {
		continuous := strings.Contains(c.id, "Continuous")
		n := 100
		if testing.Short() {
			n = 20
		}
		total := 0.0
		for seed := range n {
			env, _ := makeEnv(t, c.id, nil, int64(seed))
			ret, _, _ := runEpisode(env, 8, 1000, func(s []float64) []float32 { return landerHeuristic(s, continuous) })
			total += ret
		}
		mean := total / float64(n)
		if mean < 200 || (!testing.Short() && math.Abs(mean-c.want) > c.tol) {
			t.Errorf("%s: heuristic lander's mean return over %d seeds is %.1f, want >= 200 and within %v of %v", c.id, n, mean, c.tol, c.want)
		}
	}
}

// TestLunarLanderRests lands with the heuristic and requires most episodes to end the
// way a good landing does: the lander comes to rest on its legs, Box2D puts it to sleep,
// and the last step pays +100.
func TestLunarLanderRests(t *testing.T) {
	rested := 0
	for seed := range 20 {
		env, _ := makeEnv(t, "LunarLanderContinuous-v3", nil, int64(seed))
		env.Reset()
		s := observe(env, 8)
		for range 1000 {
			r := env.Step(landerHeuristic(s, true))
			s = observe(env, 8)
			if r.Terminated {
				if r.Reward == 100 && s[6] == 1 && s[7] == 1 && !env.(*LunarLander).lander.IsAwake() {
					rested++
				}
				break
			}
		}
	}
	if rested < 15 {
		t.Errorf("%d of 20 heuristic landings came to rest with +100, want most", rested)
	}
}

func TestLunarLanderWind(t *testing.T) {
	calm, _ := makeEnv(t, "LunarLander-v3", nil, 5)
	windy, _ := makeEnv(t, "LunarLander-v3", map[string]any{"enable_wind": true, "wind_power": 20.0}, 5)
	noop := func([]float64) []float32 { return []float32{0} }
	for _, e := range []envpool.Env{calm, windy} {
		e.Reset()
		for range 30 {
			e.Step(noop(nil))
		}
	}
	if a, b := observe(calm, 8), observe(windy, 8); a[0] == b[0] {
		t.Errorf("wind changed nothing: x %v with and without", a[0])
	}
}

func TestLunarLanderOptionsAndSpaces(t *testing.T) {
	_, spec := makeEnv(t, "LunarLanderContinuous-v2", nil, 0)
	if spec.ActionSpace.Kind != envpool.Box || spec.ActionSpace.Size() != 2 || spec.MaxEpisodeSteps != 1000 || spec.RewardThreshold != 200 {
		t.Errorf("LunarLanderContinuous-v2 spec: %+v", spec)
	}
	_, spec = makeEnv(t, "LunarLander-v3", map[string]any{"continuous": true}, 0)
	if spec.ActionSpace.Kind != envpool.Box {
		t.Errorf("continuous=true: action space %v, want a box", spec.ActionSpace)
	}
	if spec.ObsSpace.High[0] != 2.5 {
		t.Errorf("v3 x bound %v, want 2.5", spec.ObsSpace.High[0])
	}
	for _, c := range []struct {
		opts map[string]any
		want string
	}{
		{map[string]any{"gravity": -13.0}, "gravity"},
		{map[string]any{"gravity": 0.0}, "gravity"},
		{map[string]any{"gravity": math.NaN()}, "gravity"},
		{map[string]any{"wind_power": -1.0}, "wind_power"},
		{map[string]any{"gravty": -5.0}, "did you mean gravity"},
	} {
		_, err := envs.SpecOf("LunarLander-v3", c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("options %v: error %v, want one naming %q", c.opts, err, c.want)
		}
	}
}

func TestLunarLanderBadActions(t *testing.T) {
	// Through a pool, a NaN or out-of-range action is refused with a named error.
	for _, c := range []struct {
		id     string
		action []float32
		want   string
	}{
		{"LunarLander-v3", []float32{4}, "Discrete(4)"},
		{"LunarLander-v3", []float32{-1}, "Discrete(4)"},
		{"LunarLanderContinuous-v3", []float32{float32(math.NaN()), 0}, "NaN"},
	} {
		p, err := envs.Make(c.id, envs.Options{Options: envpool.Options{NumEnvs: 1, BatchSize: 1, NumThreads: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Reset(); err != nil {
			t.Fatal(err)
		}
		if err := p.Send(c.action, []int32{0}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Send(%v) = %v, want an error naming %q", c.id, c.action, err, c.want)
		}
		p.Close()
	}
	// Stepped directly, such actions do nothing rather than panic.
	inf := float32(math.Inf(1))
	for _, c := range []struct {
		id     string
		action []float32
	}{
		{"LunarLander-v3", []float32{7}},
		{"LunarLander-v3", []float32{-3}},
		{"LunarLanderContinuous-v3", []float32{float32(math.NaN()), inf}},
		{"LunarLanderContinuous-v3", []float32{50, -50}},
	} {
		env, _ := makeEnv(t, c.id, nil, 0)
		env.Reset()
		env.Step(c.action)
		for _, v := range observe(env, 8) {
			if math.IsNaN(v) {
				t.Errorf("%s: action %v made the observation NaN", c.id, c.action)
			}
		}
	}
}
