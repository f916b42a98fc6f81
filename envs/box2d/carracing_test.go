package box2d

import (
	"bytes"
	"math"
	"strings"
	"testing"

	b2 "github.com/ByteArena/box2d"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

func newTestCar(t *testing.T, seed int64, opts map[string]any) *CarRacing {
	t.Helper()
	env, _ := makeEnv(t, "CarRacing-v3", opts, seed)
	return env.(*CarRacing)
}

func TestCarRacingTrack(t *testing.T) {
	for seed := range int64(10) {
		e := newTestCar(t, seed, nil)
		e.Reset()
		n := len(e.track)
		// A lap of a circle of radius about TRACK_RAD at 21/6 units a point has a few
		// hundred points.
		if n < 150 || n > 500 || len(e.tiles) != n {
			t.Fatalf("seed %d: %d track points and %d tiles", seed, n, len(e.tiles))
		}
		for i := range n {
			p, q := e.track[i], e.track[(i+1)%n]
			d := math.Hypot(q.x-p.x, q.y-p.y)
			// Consecutive points are one detail step apart; the last joins the first
			// within the glue tolerance.
			if i < n-1 && math.Abs(d-crDetailStep) > 1e-9 {
				t.Fatalf("seed %d: points %d, %d are %v apart, want %v", seed, i, i+1, d, crDetailStep)
			}
			// (cutting the lap drops one point, so the ends are two steps apart).
			if i == n-1 && d > 2*crDetailStep+0.01 {
				t.Errorf("seed %d: the lap does not close: last to first %v", seed, d)
			}
			if math.Abs(p.x) > crPlayfield || math.Abs(p.y) > crPlayfield {
				t.Errorf("seed %d: point %d at (%v, %v) outside the playfield", seed, i, p.x, p.y)
			}
			// Each tile is 2 * TRACK_WIDTH wide at its leading edge.
			tl := e.tiles[i]
			if w := math.Hypot(tl.poly[2]-tl.poly[0], tl.poly[3]-tl.poly[1]); math.Abs(w-2*crTrackWidth) > 1e-9 {
				t.Errorf("seed %d: tile %d is %v wide, want %v", seed, i, w, 2*crTrackWidth)
			}
		}
		// The car starts at rest on the first point, facing along the track.
		pos := e.car.hull.GetPosition()
		if math.Hypot(pos.X-e.track[0].x, pos.Y-e.track[0].y) > 0.1 {
			t.Errorf("seed %d: car starts at %v, want track point 0 (%v, %v)", seed, pos, e.track[0].x, e.track[0].y)
		}
	}
}

// followTrack is a pure-pursuit driver: it steers for the track point a few ahead of
// the nearest one and keeps a moderate speed.
func followTrack(e *CarRacing) []float32 {
	pos, a := e.car.hull.GetPosition(), e.car.hull.GetAngle()
	best, bestD := 0, math.Inf(1)
	for i, p := range e.track {
		if d := math.Hypot(p.x-pos.X, p.y-pos.Y); d < bestD {
			best, bestD = i, d
		}
	}
	target := e.track[(best+4)%len(e.track)]
	dx, dy := target.x-pos.X, target.y-pos.Y
	lx := dx*math.Cos(a) + dy*math.Sin(a)  // to the car's right
	ly := -dx*math.Sin(a) + dy*math.Cos(a) // ahead of the car
	steer := clip(math.Atan2(lx, ly), -1, 1)
	v := e.car.hull.GetLinearVelocity()
	gas := 0.0
	if math.Hypot(v.X, v.Y) < 55 {
		gas = 0.2
	}
	return []float32{float32(steer), float32(gas), 0}
}

func TestCarRacingCentreLineLap(t *testing.T) {
	for seed := range int64(3) {
		e := newTestCar(t, seed, nil)
		e.Reset()
		ret, steps, done := 0.0, 0, false
		for steps < 1000 && !done {
			r := e.Step(followTrack(e))
			ret += float64(r.Reward)
			steps++
			done = r.Terminated
		}
		n := float64(len(e.track))
		want := 1000*float64(e.visitedCount)/n - 0.1*float64(steps)
		if !done || float64(e.visitedCount)/n < 0.95 {
			t.Errorf("seed %d: lap not finished in %d steps: %d of %v tiles", seed, steps, e.visitedCount, n)
		}
		if math.Abs(ret-want) > 1e-3 || ret < 900-0.1*float64(steps) {
			t.Errorf("seed %d: return %.2f over %d steps, want 1000 * visited/N - 0.1 * steps = %.2f (>= 900 - time)", seed, ret, steps, want)
		}
	}
}

// TestCarRacingConstantActions holds one action for 100 steps and compares the mean
// return with what EnvPool measures for Gymnasium's car over 100 envs (to within 1):
// this checks the engine, tyre and tile-reward model together.
func TestCarRacingConstantActions(t *testing.T) {
	for _, c := range []struct {
		action []float32
		want   float64
	}{{[]float32{0, 0.5, 0}, 65}, {[]float32{0.1, 0.3, 0}, 18.5}, {[]float32{0, 0.7, 0.1}, 42.7}} {
		n, total := 20, 0.0
		for seed := range n {
			e := newTestCar(t, int64(seed), nil)
			e.Reset()
			for range 100 {
				total += float64(e.Step(c.action).Reward)
			}
		}
		if mean := total / float64(n); math.Abs(mean-c.want) > 3 {
			t.Errorf("action %v for 100 steps: mean return %.2f, want %v +- 3", c.action, mean, c.want)
		}
	}
}

func TestCarRacingObservation(t *testing.T) {
	env, spec := makeEnv(t, "CarRacing-v3", nil, 1)
	if spec.ObsSpace.DType != envpool.Uint8 || len(spec.ObsSpace.Shape) != 3 || spec.ObsSpace.Shape[0] != 96 || spec.ObsSpace.Shape[1] != 96 || spec.ObsSpace.Shape[2] != 3 {
		t.Fatalf("observation space %v, want Box([96 96 3], uint8)", spec.ObsSpace)
	}
	if spec.MaxEpisodeSteps != 1000 || spec.RewardThreshold != 900 || spec.ActionSpace.Size() != 3 {
		t.Errorf("spec %+v", spec)
	}
	env.Reset()
	obs := make([]uint8, 96*96*3)
	px := func(x, y int) [3]uint8 { i := 3 * (96*y + x); return [3]uint8{obs[i], obs[i+1], obs[i+2]} }
	// After a second at rest the view has zoomed in on the car, on the road at the
	// start.
	for range 50 {
		env.Step([]float32{0, 0, 0})
	}
	env.Observe(envpool.Obs{U8: obs}, nil)
	if p := px(48, 62); p[0] != p[1] || p[1] != p[2] || p[0] < 102 || p[0] > 107 {
		t.Errorf("pixel ahead of the car is %v, want road grey", p)
	}
	for range 10 {
		env.Step([]float32{0, 0.3, 0})
	}
	env.Observe(envpool.Obs{U8: obs}, nil)
	// The bottom rows are the black indicator bar, with the white speed bar in it.
	if p := px(1, 95); p != [3]uint8{0, 0, 0} {
		t.Errorf("bottom-left pixel %v, want the black bar", p)
	}
	white := false
	for y := 84; y < 96; y++ {
		for x := 12; x < 15; x++ {
			white = white || px(x, y) == [3]uint8{255, 255, 255}
		}
	}
	if !white {
		t.Error("no white speed indicator in the bar of a moving car")
	}
	// The car is drawn red about a quarter up from the bottom of the view, on the road.
	red := 0
	for y := 60; y < 80; y++ {
		for x := 40; x < 56; x++ {
			if px(x, y) == [3]uint8{204, 0, 0} {
				red++
			}
		}
	}
	if red < 5 {
		t.Errorf("%d red car pixels where the car should be", red)
	}
}

func TestCarRacingDiscreteAndOptions(t *testing.T) {
	env, spec := makeEnv(t, "CarRacing-v2", map[string]any{"continuous": false}, 3)
	if spec.ActionSpace.Kind != envpool.Discrete || spec.ActionSpace.N != 5 {
		t.Fatalf("continuous=false: action space %v, want Discrete(5)", spec.ActionSpace)
	}
	e := env.(*CarRacing)
	e.Reset()
	for range 30 {
		e.Step([]float32{3}) // gas
	}
	if g := e.car.wheels[2].gas; g != 0.2 {
		t.Errorf("discrete gas gives throttle %v, want 0.2", g)
	}
	e.Step([]float32{1}) // steer right
	if s := e.car.wheels[0].steer; s != -0.6 {
		t.Errorf("discrete steer right gives target %v, want -0.6", s)
	}
	e.Step([]float32{9}) // out of range: nothing
	if s, g := e.car.wheels[0].steer, e.car.wheels[2].gas; s != 0 || g != 0 {
		t.Errorf("an out-of-range action steers %v with gas %v, want neither", s, g)
	}

	a := newTestCar(t, 4, map[string]any{"domain_randomize": true})
	b := newTestCar(t, 4, nil)
	a.Reset()
	b.Reset()
	if a.roadColor == b.roadColor || a.bgColor == b.bgColor {
		t.Errorf("domain_randomize kept the colours %v %v", a.roadColor, a.bgColor)
	}
	for _, c := range []struct {
		opts map[string]any
		want string
	}{
		{map[string]any{"lap_complete_percent": 1.5}, "lap_complete_percent"},
		{map[string]any{"continous": false}, "did you mean continuous"},
	} {
		if _, err := envs.SpecOf("CarRacing-v3", c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("options %v: error %v, want one naming %q", c.opts, err, c.want)
		}
	}
}

func TestCarRacingGasClipping(t *testing.T) {
	e := newTestCar(t, 2, nil)
	e.Reset()
	e.Step([]float32{float32(math.NaN()), 7, float32(math.Inf(-1))})
	if g, s := e.car.wheels[3].gas, e.car.wheels[1].steer; g != 0.1 || s != 0 {
		t.Errorf("gas 7 then throttle %v (want 0.1, rising 0.1 a step), NaN steer target %v (want 0)", g, s)
	}
	for range 20 {
		e.Step([]float32{0, 7, 0})
	}
	if g := e.car.wheels[3].gas; g != 1 {
		t.Errorf("held gas 7 gives throttle %v, want 1", g)
	}
}

// TestLeavingTheFieldEnds moves the lander beyond the screen's edge and the car beyond
// the playfield: the next step ends the episode with -100.
func TestLeavingTheFieldEnds(t *testing.T) {
	l, _ := makeEnv(t, "LunarLander-v3", nil, 1)
	l.Reset()
	lander := l.(*LunarLander).lander
	lander.SetTransform(vec(-1, lander.GetPosition().Y), 0)
	if r := l.Step([]float32{0}); !r.Terminated || r.Reward != -100 {
		t.Errorf("lander off the left edge: %+v, want terminated with -100", r)
	}
	c := newTestCar(t, 1, nil)
	c.Reset()
	dx := crPlayfield + 5 - c.car.hull.GetPosition().X
	for _, b := range []*b2.B2Body{c.car.hull, c.car.wheels[0].body, c.car.wheels[1].body, c.car.wheels[2].body, c.car.wheels[3].body} {
		p := b.GetPosition()
		b.SetTransform(vec(p.X+dx, p.Y), b.GetAngle())
	}
	if r := c.Step([]float32{0, 0, 0}); !r.Terminated || r.Reward != -100 {
		t.Errorf("car off the playfield: %+v, want terminated with -100", r)
	}
}

// TestCarRacingCNNOptions checks frame_skip, stack_num and gray_scale against an env
// without them driven alike: a step of frame_skip frames earns the frames' rewards and
// the time limit stays 1000 frames; each stacked picture is the plain observation at
// that step, its grey level the BT.601 luma, and stacking shifts them oldest first.
func TestCarRacingCNNOptions(t *testing.T) {
	plain, _ := makeEnv(t, "CarRacing-v3", nil, 7)
	env, spec := makeEnv(t, "CarRacing-v3", map[string]any{"frame_skip": 2, "stack_num": 3, "gray_scale": true}, 7)
	if s := spec.ObsSpace.Shape; len(s) != 3 || s[0] != 3 || s[1] != 96 || s[2] != 96 || spec.MaxEpisodeSteps != 500 || spec.FrameSkip != 2 {
		t.Fatalf("spec %v, limit %d, frame skip %d; want (3, 96, 96), 500 steps of 2 frames", spec.ObsSpace, spec.MaxEpisodeSteps, spec.FrameSkip)
	}
	if _, rgb := makeEnv(t, "CarRacing-v3", map[string]any{"stack_num": 4}, 7); rgb.ObsSpace.Shape[0] != 12 {
		t.Fatalf("RGB stack of 4: %v, want 12 channels", rgb.ObsSpace)
	}
	plain.Reset()
	env.Reset()
	rgb := make([]uint8, 96*96*3)
	grey := func() []uint8 {
		plain.Observe(envpool.Obs{U8: rgb}, nil)
		g := make([]uint8, 96*96)
		for k := range g {
			g[k] = uint8(math.Round(0.299*float64(rgb[3*k]) + 0.587*float64(rgb[3*k+1]) + 0.114*float64(rgb[3*k+2])))
		}
		return g
	}
	stack := make([]uint8, 3*96*96)
	pictures := [][]uint8{grey(), grey(), grey()} // a reset fills the stack
	for i := range 40 {
		env.Observe(envpool.Obs{U8: stack}, nil)
		for k, p := range pictures[len(pictures)-3:] {
			if !bytes.Equal(stack[k*96*96:(k+1)*96*96], p) {
				t.Fatalf("step %d: stacked picture %d is not the plain env's picture %d steps ago", i, k, 2-k)
			}
		}
		a := []float32{float32(i%3) - 1, 0.5, 0}
		r := env.Step(a)
		r1 := plain.Step(a)
		r2 := plain.Step(a)
		if math.Abs(float64(r.Reward-(r1.Reward+r2.Reward))) > 1e-4 {
			t.Fatalf("step %d: reward %v, want the two frames' %v + %v", i, r.Reward, r1.Reward, r2.Reward)
		}
		pictures = append(pictures, grey())
	}
	for _, c := range []struct {
		opts map[string]any
		want string
	}{{map[string]any{"frame_skip": 0}, "frame_skip"}, {map[string]any{"stack_num": 0}, "stack_num"}, {map[string]any{"gray_scale": 2}, "gray_scale"}} {
		if _, err := envs.SpecOf("CarRacing-v3", c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("options %v: %v, want an error naming %s", c.opts, err, c.want)
		}
	}
}
