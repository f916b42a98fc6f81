package metaworld

import (
	"fmt"
	"math"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// resetRange is where a reset may put one point of a task, per MetaWorld's source
// (the task's _random_reset_space and reset_model), and how to read it back.
type resetRange struct {
	what     string
	lo, hi   [3]float64
	read     func(p probe, o []float32) [3]float64
	minApart float64 // the least x-y distance from the task's other point (0: none)
	// tol is how far outside the range a point may read: 1e-6 (float32 rounding)
	// unless set.
	tol float64
}

// observed reads the first object's position from the observation.
func observed(_ probe, o []float32) [3]float64 { return obsAt(o, 4) }

// observedGoal reads the goal from the observation (partially_observable false).
func observedGoal(_ probe, o []float32) [3]float64 { return obsAt(o, 36) }

func bodyAt(name string) func(probe, []float32) [3]float64 {
	return func(p probe, _ []float32) [3]float64 { return p.body(name) }
}

// TestResetDistributions resets tasks many times and checks that the objects and the
// goal land inside the source's ranges, cover them (each bound approached within a
// quarter of the range) and keep the source's least distances apart.
func TestResetDistributions(t *testing.T) {
	requireMuJoCo(t)
	const n = 40
	cases := map[string][]resetRange{
		"MetaWorld/Reach-v3": {
			{what: "object", lo: [3]float64{-0.1, 0.6, 0.02}, hi: [3]float64{0.1, 0.7, 0.02}, read: observed},
			{what: "goal", lo: [3]float64{-0.1, 0.8, 0.05}, hi: [3]float64{0.1, 0.9, 0.3}, read: observedGoal, minApart: 0.15},
		},
		"MetaWorld/Push-v3": {
			{what: "object", lo: [3]float64{-0.1, 0.6, 0.02}, hi: [3]float64{0.1, 0.7, 0.02}, read: observed, tol: 5e-4},
			// push keeps the goal at the puck's height, read after the hand reset
			// has let it settle a fraction of a millimetre.
			{what: "goal", lo: [3]float64{-0.1, 0.8, 0.02}, hi: [3]float64{0.1, 0.9, 0.02}, read: observedGoal, minApart: 0.15, tol: 5e-4},
		},
		"MetaWorld/PickPlace-v3": {
			{what: "object", lo: [3]float64{-0.1, 0.6, 0.02}, hi: [3]float64{0.1, 0.7, 0.02}, read: observed},
			{what: "goal", lo: [3]float64{-0.1, 0.8, 0.05}, hi: [3]float64{0.1, 0.9, 0.3}, read: observedGoal, minApart: 0.15},
		},
		"MetaWorld/ButtonPress-v3": {
			{what: "button box", lo: [3]float64{-0.1, 0.85, 0.115}, hi: [3]float64{0.1, 0.9, 0.115}, read: bodyAt("box")},
		},
		"MetaWorld/DrawerOpen-v3": {
			{what: "drawer", lo: [3]float64{-0.1, 0.9, 0}, hi: [3]float64{0.1, 0.9, 0}, read: bodyAt("drawer")},
			// the goal is 36 cm in front of the drawer and 9 cm up.
			{what: "goal", lo: [3]float64{-0.1, 0.54, 0.09}, hi: [3]float64{0.1, 0.54, 0.09}, read: observedGoal},
		},
		"MetaWorld/DoorOpen-v3": {
			{what: "door", lo: [3]float64{0, 0.85, 0.15}, hi: [3]float64{0.1, 0.95, 0.15}, read: bodyAt("door")},
		},
		"MetaWorld/WindowOpen-v3": {
			{what: "window", lo: [3]float64{-0.1, 0.7, 0.16}, hi: [3]float64{0.1, 0.9, 0.16}, read: bodyAt("window")},
		},
		"MetaWorld/PlateSlide-v3": {
			{what: "goal", lo: [3]float64{-0.1, 0.85, 0}, hi: [3]float64{0.1, 0.9, 0}, read: observedGoal},
		},
	}
	for id, ranges := range cases {
		t.Run(id, func(t *testing.T) {
			env, spec, err := envs.MakeEnv(id, map[string]any{"partially_observable": false}, 5)
			if err != nil {
				t.Fatal(err)
			}
			e := env.(*Env)
			defer e.Close()
			p := probe{t: t, e: e}
			o := make([]float32, spec.ObsSpace.Size())
			lo, hi := make([][3]float64, len(ranges)), make([][3]float64, len(ranges))
			for i := range ranges {
				for k := range 3 {
					lo[i][k], hi[i][k] = math.Inf(1), math.Inf(-1)
				}
			}
			for range n {
				e.Reset()
				if code, msg := e.Fault(); code != mujoco.FaultNone {
					t.Fatalf("reset fault: %s", msg)
				}
				e.Observe(envpool.Obs{F32: o}, make([]float32, spec.InfoWidth()))
				var pts [][3]float64
				for i, r := range ranges {
					x := r.read(p, o)
					pts = append(pts, x)
					for k := range 3 {
						tol := r.tol
						if tol == 0 {
							tol = 1e-6 // float32 observations round positions by up to 1e-7
						}
						if x[k] < r.lo[k]-tol || x[k] > r.hi[k]+tol {
							t.Fatalf("%s at %v, outside %v..%v", r.what, x, r.lo, r.hi)
						}
						lo[i][k], hi[i][k] = math.Min(lo[i][k], x[k]), math.Max(hi[i][k], x[k])
					}
					if r.minApart > 0 && math.Hypot(x[0]-pts[0][0], x[1]-pts[0][1]) < r.minApart {
						t.Fatalf("%s at %v is closer than %v to %v", r.what, x, r.minApart, pts[0])
					}
				}
			}
			for i, r := range ranges {
				for k := range 3 {
					if w := r.hi[k] - r.lo[k]; w > 0 && (lo[i][k]-r.lo[k] > w/4 || r.hi[k]-hi[i][k] > w/4) {
						t.Errorf("%s axis %d spans %v..%v of %v..%v over %d resets", r.what, k, lo[i][k], hi[i][k], r.lo[k], r.hi[k], n)
					}
				}
				t.Log(r.what, fmt.Sprintf("%.3f..%.3f", lo[i], hi[i]))
			}
		})
	}
}

// TestGoalOnBodyStays: a goal read from a site that hangs from a moved body (the
// basket's, the shelf's) keeps the same offset from that body over episodes, as in
// MetaWorld, whose goal markers never move sites for good.
func TestGoalOnBodyStays(t *testing.T) {
	requireMuJoCo(t)
	for id, body := range map[string]string{"MetaWorld/Basketball-v3": "basket_goal", "MetaWorld/ShelfPlace-v3": "shelf", "MetaWorld/Hammer-v3": "box"} {
		env, _, err := envs.MakeEnv(id, nil, 9)
		if err != nil {
			t.Fatal(err)
		}
		e := env.(*Env)
		p := probe{t: t, e: e}
		var first [3]float64
		for i := range 5 {
			e.Reset()
			for range 3 {
				e.Step([]float32{0, 0, 0, 0})
			}
			off := minus([3]float64(e.target), p.body(body))
			if i == 0 {
				first = off
			} else if norm3(minus(off, first)) > 1e-9 {
				t.Errorf("%s: episode %d's goal is %v from the %s, the first's %v", id, i, off, body, first)
			}
		}
		e.Close()
	}
}
