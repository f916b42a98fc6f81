package box2d

import (
	"math"
	"testing"

	"github.com/rlpool/rlpool/envpool"
)

// walkerHeuristic is Gymnasium's hand-written gait for the walker: stand on one leg,
// swing the other forward, put it down, push off, switch legs.
type walkerHeuristic struct {
	state, moving, supporting int
	supportKnee               float64
}

const (
	whStayOnOneLeg = iota + 1
	whPutOtherDown
	whPushOff
	whSpeed       = 0.29
	whSupportKnee = 0.1
)

func newWalkerHeuristic() *walkerHeuristic {
	return &walkerHeuristic{state: whStayOnOneLeg, moving: 0, supporting: 1, supportKnee: whSupportKnee}
}

// act returns the next action; a target of NaN (or 0, as Python's truthiness has it)
// leaves that joint's target term out.
func (h *walkerHeuristic) act(s []float64) []float32 {
	nan := math.NaN()
	hipTarg, kneeTarg := [2]float64{nan, nan}, [2]float64{nan, nan}
	mBase, sBase := 4+5*h.moving, 4+5*h.supporting
	if h.state == whStayOnOneLeg {
		hipTarg[h.moving], kneeTarg[h.moving] = 1.1, -0.6
		h.supportKnee += 0.03
		if s[2] > whSpeed {
			h.supportKnee += 0.03
		}
		h.supportKnee = math.Min(h.supportKnee, whSupportKnee)
		kneeTarg[h.supporting] = h.supportKnee
		if s[sBase] < 0.10 {
			h.state = whPutOtherDown
		}
	}
	if h.state == whPutOtherDown {
		hipTarg[h.moving], kneeTarg[h.moving] = 0.1, whSupportKnee
		kneeTarg[h.supporting] = h.supportKnee
		if s[mBase+4] != 0 {
			h.state = whPushOff
			h.supportKnee = math.Min(s[mBase+2], whSupportKnee)
		}
	}
	if h.state == whPushOff {
		kneeTarg[h.moving], kneeTarg[h.supporting] = h.supportKnee, 1.0
		if s[sBase+2] > 0.88 || s[2] > 1.2*whSpeed {
			h.state = whStayOnOneLeg
			h.moving = 1 - h.moving
			h.supporting = 1 - h.moving
		}
	}
	set := func(v float64) bool { return !math.IsNaN(v) && v != 0 }
	var hipTodo, kneeTodo [2]float64
	for k := range 2 {
		if set(hipTarg[k]) {
			hipTodo[k] = 0.9*(hipTarg[k]-s[4+5*k]) - 0.25*s[5+5*k]
		}
		if set(kneeTarg[k]) {
			kneeTodo[k] = 4.0*(kneeTarg[k]-s[6+5*k]) - 0.25*s[7+5*k]
		}
		hipTodo[k] -= 0.9*(0-s[0]) - 1.5*s[1]
		kneeTodo[k] -= 15.0 * s[3]
	}
	a := []float64{hipTodo[0], kneeTodo[0], hipTodo[1], kneeTodo[1]}
	out := make([]float32, 4)
	for i, v := range a {
		out[i] = float32(clip(0.5*v, -1, 1))
	}
	return out
}

func TestBipedalTerrain(t *testing.T) {
	for _, hardcore := range []bool{false, true} {
		sawObstacle := false
		for seed := range int64(10) {
			e := newBipedalWalker(seed, hardcore)
			e.Reset()
			if len(e.terrainX) != bwTerrainLength || len(e.terrainY) != bwTerrainLength {
				t.Fatalf("terrain of %d x and %d y, want %d", len(e.terrainX), len(e.terrainY), bwTerrainLength)
			}
			for i, x := range e.terrainX {
				if math.Abs(x-float64(i)*bwTerrainStep) > 1e-12 {
					t.Fatalf("terrain x %d = %v, want %v", i, x, float64(i)*bwTerrainStep)
				}
			}
			// The start pad is flat at the base height.
			for i := 0; i <= bwStartPad; i++ {
				if e.terrainY[i] != bwTerrainHeight {
					t.Errorf("hardcore=%v seed %d: start pad height %d = %v, want %v", hardcore, seed, i, e.terrainY[i], bwTerrainHeight)
				}
			}
			// Grass drifts back to the base height: it stays within a few units
			// (hardcore stairs and pits may carry it further).
			for i, y := range e.terrainY {
				if !hardcore && math.Abs(y-bwTerrainHeight) > 4 {
					t.Errorf("hardcore=%v seed %d: height %d = %v strays from %v", hardcore, seed, i, y, bwTerrainHeight)
				}
			}
			if !hardcore && len(e.obstacles) != 0 {
				t.Errorf("seed %d: normal terrain has %d obstacles", seed, len(e.obstacles))
			}
			sawObstacle = sawObstacle || len(e.obstacles) > 0
			if got, want := len(e.terrain), len(e.obstacles)+bwTerrainLength-1; got != want {
				t.Errorf("terrain bodies %d, want %d obstacles + %d edges", got, len(e.obstacles), bwTerrainLength-1)
			}
			if len(e.clouds) != bwTerrainLength/20 {
				t.Errorf("%d clouds, want %d", len(e.clouds), bwTerrainLength/20)
			}
		}
		if hardcore && !sawObstacle {
			t.Error("hardcore terrain of 10 seeds has no stumps, stairs or pits")
		}
	}
}

func TestBipedalObservationLayout(t *testing.T) {
	env, spec := makeEnv(t, "BipedalWalker-v3", nil, 4)
	if spec.ObsSpace.Size() != 24 || spec.ActionSpace.Size() != 4 || spec.MaxEpisodeSteps != 1600 || spec.RewardThreshold != 300 {
		t.Fatalf("spec %+v", spec)
	}
	_, hard := makeEnv(t, "BipedalWalkerHardcore-v3", nil, 4)
	if hard.MaxEpisodeSteps != 2000 {
		t.Errorf("hardcore time limit %d, want 2000", hard.MaxEpisodeSteps)
	}
	e := env.(*BipedalWalker)
	e.Reset()
	s := observe(e, 24)
	if s[0] != float64(float32(e.hull.GetAngle())) {
		t.Errorf("obs[0] %v, want the hull angle %v", s[0], e.hull.GetAngle())
	}
	for k := range 2 {
		if got, want := s[4+5*k], float64(float32(e.joints[2*k].GetJointAngle())); got != want {
			t.Errorf("leg %d hip angle obs %v, want %v", k, got, want)
		}
		if got, want := s[6+5*k], float64(float32(e.joints[2*k+1].GetJointAngle()+1)); got != want {
			t.Errorf("leg %d knee obs %v, want angle + 1 = %v", k, got, want)
		}
	}
	// On flat ground at the start the ten rays fan from straight down forwards: each
	// later ray is longer, and all reach the ground within range.
	lidar := s[14:]
	for i := range lidar {
		if lidar[i] <= 0 || lidar[i] > 1 {
			t.Errorf("lidar %d = %v outside (0, 1]", i, lidar[i])
		}
		if i > 0 && lidar[i] < lidar[i-1] {
			t.Errorf("lidar %d = %v shorter than ray %d = %v on flat ground", i, lidar[i], i-1, lidar[i-1])
		}
	}
	if lidar[0] >= 1 {
		t.Errorf("the downward ray misses the ground: %v", lidar[0])
	}
}

func TestBipedalIdleWalker(t *testing.T) {
	// With the motors off the legs fold and the walker topples forward onto its hull
	// within a few seconds: the episode ends with the fall's -100. Box2D 2.3 itself
	// (C++, the same scene on flat ground) has the hull touch down at step 118 with x
	// about 7.06.
	for seed := range int64(5) {
		env, _ := makeEnv(t, "BipedalWalker-v3", nil, seed)
		e := env.(*BipedalWalker)
		var last envpool.StepResult
		steps := 0
		e.Reset()
		for ; steps < 1600 && !last.Terminated; steps++ {
			last = e.Step(make([]float32, 4))
		}
		x := e.hull.GetPosition().X
		if !last.Terminated || !e.gameOver || last.Reward != -100 || steps < 100 || steps > 140 || math.Abs(x-7.06) > 0.3 {
			t.Errorf("seed %d: idle walker: %d steps, terminated %v, hull down %v, last reward %v, x %v; want the hull down at about step 118, x 7.06, reward -100", seed, steps, last.Terminated, e.gameOver, last.Reward, x)
		}
	}
}

// TestBipedalHeuristic runs Gymnasium's heuristic gait, started as EnvPool's
// correctness test starts it (one step with the motors off), and requires the mean
// returns EnvPool measures against Gymnasium: 110 +- 30 on normal terrain (the gait
// walks the course on some tracks and stumbles on others) and -59 +- 10 on hardcore
// terrain (it stalls or falls at the first obstacles). -short runs hardcore only.
func TestBipedalHeuristic(t *testing.T) {
	for _, c := range []struct {
		id        string
		steps     int
		want, tol float64
	}{{"BipedalWalker-v3", 1600, 110, 30}, {"BipedalWalkerHardcore-v3", 2000, -59, 10}} {
		if testing.Short() && c.id == "BipedalWalker-v3" {
			continue
		}
		n, total := 30, 0.0
		for seed := range n {
			env, _ := makeEnv(t, c.id, nil, int64(seed))
			h, first := newWalkerHeuristic(), true
			ret, _, _ := runEpisode(env, 24, c.steps, func(s []float64) []float32 {
				if first {
					first = false
					return make([]float32, 4)
				}
				return h.act(s)
			})
			total += ret
		}
		if mean := total / float64(n); math.Abs(mean-c.want) > c.tol {
			t.Errorf("%s: heuristic walker's mean return over %d seeds %.1f, want %v +- %v", c.id, n, mean, c.want, c.tol)
		} else {
			t.Logf("%s: mean return %.1f over %d seeds", c.id, mean, n)
		}
	}
}

func TestBipedalTorqueClipping(t *testing.T) {
	env, _ := makeEnv(t, "BipedalWalker-v3", nil, 1)
	e := env.(*BipedalWalker)
	e.Reset()
	r := e.Step([]float32{5, -0.5, -7, float32(math.NaN())})
	for i, want := range []struct{ speed, torque float64 }{
		{bwSpeedHip, bwMotorsTorque}, {-bwSpeedKnee, 0.5 * bwMotorsTorque}, {-bwSpeedHip, bwMotorsTorque}, {0, 0},
	} {
		j := e.joints[i]
		if j.GetMotorSpeed() != want.speed || j.GetMaxMotorTorque() != want.torque {
			t.Errorf("joint %d: speed %v torque %v, want %v and %v", i, j.GetMotorSpeed(), j.GetMaxMotorTorque(), want.speed, want.torque)
		}
	}
	if math.IsNaN(float64(r.Reward)) {
		t.Error("a NaN action element made the reward NaN")
	}
}
