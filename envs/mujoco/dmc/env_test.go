package dmc

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/mujocotest"
)

// TestTaskIDs: the ids follow EnvPool's naming and every table row is registered.
func TestTaskIDs(t *testing.T) {
	for _, c := range [][3]string{{"cheetah", "run", "CheetahRun-v1"}, {"ball_in_cup", "catch", "BallInCupCatch-v1"}, {"point_mass", "easy", "PointMassEasy-v1"}, {"acrobot", "swingup_sparse", "AcrobotSwingupSparse-v1"}, {"humanoid_CMU", "run", "HumanoidCMURun-v1"}} {
		if got := ID(c[0], c[1]); got != c[2] {
			t.Errorf("ID(%s, %s) = %s, want %s", c[0], c[1], got, c[2])
		}
	}
	known := envs.List()
	for _, id := range TaskIDs() {
		if !slices.Contains(known, id) {
			t.Errorf("%s is in the table but not registered", id)
		}
	}
}

// TestEveryTaskEpisode runs each task for a whole episode of random actions: the layout
// covers the observation, every element is written and finite, the step types go
// first, mid..., last at the 1000th step with truncation and discount 1, rewards lie in
// [0, 1] (LQR's at most 1), and the same seed and actions give the same episode.
func TestEveryTaskEpisode(t *testing.T) {
	mujocotest.RequireMuJoCo(t)
	for _, id := range TaskIDs() {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			a, spec := makeEnv(t, id, nil, 3)
			b, _ := makeEnv(t, id, nil, 3)
			if spec.MaxEpisodeSteps != TimeLimit || !slices.Equal(spec.InfoKeys, InfoKeys) {
				t.Fatalf("spec: limit %d, info %v", spec.MaxEpisodeSteps, spec.InfoKeys)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			a.Reset()
			b.Reset()
			oa, ia := observe(t, a, spec)
			ob, _ := observe(t, b, spec)
			if !slices.Equal(oa, ob) {
				t.Fatalf("two envs with seed 3 start differently")
			}
			if ia[1] != StepFirst || ia[0] != 1 || ia[2] != 0 {
				t.Fatalf("info after reset %v, want discount 1, step type first, no error", ia)
			}
			// qpos0 and qvel0: the initial state, nq and nv columns after the scalars.
			qp, np := spec.InfoSpan("qpos0")
			qv, nv := spec.InfoSpan("qvel0")
			if qp != infoScalars || np != a.p.M.NQ || qv != qp+np || nv != a.p.M.NV || spec.InfoWidth() != qv+nv {
				t.Fatalf("qpos0 at %d (%d), qvel0 at %d (%d), width %d; nq %d nv %d", qp, np, qv, nv, spec.InfoWidth(), a.p.M.NQ, a.p.M.NV)
			}
			for i, q := range a.p.D.Qpos {
				if ia[qp+i] != float32(q) {
					t.Fatalf("qpos0[%d] = %v, qpos after reset %v", i, ia[qp+i], q)
				}
			}
			for i, v := range a.p.D.Qvel {
				if ia[qv+i] != float32(v) {
					t.Fatalf("qvel0[%d] = %v, qvel after reset %v", i, ia[qv+i], v)
				}
			}
			initial := slices.Clone(ia[qp:])
			for step := 1; step <= TimeLimit; step++ {
				act := randomAction(rng, spec)
				ra, rb := a.Step(act), b.Step(act)
				oa, ia = observe(t, a, spec)
				ob, _ = observe(t, b, spec)
				if ra != rb || !slices.Equal(oa, ob) {
					t.Fatalf("step %d: same seed and actions diverge: %+v vs %+v", step, ra, rb)
				}
				if ia[2] != 0 {
					f, msg := a.Fault()
					t.Fatalf("step %d: fault %d: %s", step, f, msg)
				}
				if !slices.Equal(ia[qp:], initial) {
					t.Fatalf("step %d: qpos0/qvel0 changed during the episode", step)
				}
				// Every suite reward lies in [0, 1] but LQR's, 1 minus a quadratic cost.
				if !(ra.Reward <= 1 && (ra.Reward >= 0 || strings.HasPrefix(id, "Lqr"))) {
					t.Fatalf("step %d: reward %v outside [0, 1]", step, ra.Reward)
				}
				if ra.Terminated {
					if ia[1] != StepLast || ia[0] != 0 {
						t.Fatalf("step %d: terminal step with info %v", step, ia)
					}
					return
				}
				last := step == TimeLimit
				if ra.Truncated != last || (ia[1] == StepLast) != last || ia[0] != 1 {
					t.Fatalf("step %d: truncated %v, info %v", step, ra.Truncated, ia)
				}
			}
		})
	}
}

// TestBadOptions: in every task a bad frame_skip and an unknown option are errors
// naming them.
func TestBadOptions(t *testing.T) {
	mujocotest.RequireMuJoCo(t)
	for _, id := range TaskIDs() {
		for _, c := range []struct {
			opts map[string]any
			want string
		}{
			{map[string]any{"frame_skip": 0}, "frame_skip"},
			{map[string]any{"frame_skip": 1.5}, "frame_skip"},
			{map[string]any{"speed": 3.0}, "speed"},
			{map[string]any{"pixels_size": 64}, "option pixels_size: takes effect only with from_pixels = true"},
			{map[string]any{"from_pixels": true, "frame_stack": 0}, "option frame_stack = 0 is out of range"},
		} {
			_, err := envs.SpecOf(id, c.opts)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s, options %v: %v, want an error naming %s", id, c.opts, err, c.want)
			}
		}
	}
}

// TestBadActionEndsEpisode: an action of the wrong length ends the episode as truncated
// with the bad-action fault, and the next reset recovers.
func TestBadActionEndsEpisode(t *testing.T) {
	e, spec := makeEnv(t, "CheetahRun-v1", nil, 0)
	e.Reset()
	r := e.Step([]float32{1, 2})
	_, info := observe(t, e, spec)
	if !r.Truncated || info[2] != mujoco.FaultBadAction || info[1] != StepLast {
		t.Fatalf("bad action: %+v, info %v", r, info)
	}
	e.Reset()
	r = e.Step(make([]float32, spec.ActionSpace.Size()))
	if _, info = observe(t, e, spec); r.Truncated || info[2] != 0 {
		t.Fatalf("after reset: %+v, info %v", r, info)
	}
}

// TestFrameSkip: frame_skip n advances the simulation n model timesteps per action.
func TestFrameSkip(t *testing.T) {
	for _, n := range []int{1, 3} {
		e, spec := makeEnv(t, "CheetahRun-v1", map[string]any{"frame_skip": n}, 0)
		e.Reset()
		t0 := e.Physics().D.Time()
		e.Step(make([]float32, spec.ActionSpace.Size()))
		dt := e.Physics().D.Time() - t0
		if want := float64(n) * e.Physics().M.Timestep; math.Abs(dt-want) > 1e-12 {
			t.Errorf("frame_skip %d: time advanced %g, want %g", n, dt, want)
		}
		if spec.FrameSkip != n {
			t.Errorf("frame_skip %d: spec says %d", n, spec.FrameSkip)
		}
	}
}

// TestCheetah: the observation is qpos without the root x and qvel; the reward is
// the linear tolerance of the torso's forward velocity; reset settles the body and
// sets time to 0.
func TestCheetah(t *testing.T) {
	e, spec := makeEnv(t, "CheetahRun-v1", nil, 5)
	e.Reset()
	p := e.Physics()
	if p.D.Time() != 0 {
		t.Errorf("time after reset %g, want 0", p.D.Time())
	}
	obs, _ := observe(t, e, spec)
	pos, vel := entry(t, spec, obs, "position"), entry(t, spec, obs, "velocity")
	for i, v := range pos {
		if v != float32(p.D.Qpos[i+1]) {
			t.Fatalf("position[%d] = %v, qpos[%d] = %v", i, v, i+1, p.D.Qpos[i+1])
		}
	}
	for i, v := range vel {
		if v != float32(p.D.Qvel[i]) {
			t.Fatalf("velocity[%d] = %v, qvel = %v", i, v, p.D.Qvel[i])
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		r := e.Step(randomAction(rng, spec))
		speed := sensorValues(t, p, "torso_subtreelinvel")[0]
		checkNear(t, fmt.Sprintf("reward at speed %g", speed), float64(r.Reward), linearTol(speed, 10, math.Inf(1), 10, 0))
	}
}

// TestPoolEpisodes runs the tasks added last (the CMU humanoid's walk and the dog's
// five) through whole episodes of random actions in a sync pool (2 envs) and an async
// pool (3 envs, batches of 2): every row is finite, without a fault, with a reward in
// [0, 1], no episode terminates, and each is truncated exactly at its 1000th step,
// until every env has ended one.
func TestPoolEpisodes(t *testing.T) {
	mujocotest.RequireMuJoCo(t)
	for _, id := range []string{"HumanoidCMUWalk-v1", "DogStand-v1", "DogWalk-v1", "DogTrot-v1", "DogRun-v1", "DogFetch-v1"} {
		for _, mode := range []struct{ envs, batch int }{{2, 2}, {3, 2}} {
			t.Run(fmt.Sprintf("%s/%d-of-%d", id, mode.batch, mode.envs), func(t *testing.T) {
				pool, err := envs.Make(id, envs.Options{Options: envpool.Options{NumEnvs: mode.envs, BatchSize: mode.batch, NumThreads: 2, Seed: 5}})
				if err != nil {
					t.Fatal(err)
				}
				defer pool.Close()
				spec := *pool.Spec()
				rng := rand.New(rand.NewPCG(3, 4))
				b, err := pool.Reset()
				ends := map[int32]int{}
				for err == nil && len(ends) < mode.envs {
					for i := range b.Size {
						row, info := b.RowF32(i), b.InfoRow(i)
						for _, x := range row {
							if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
								t.Fatalf("env %d: non-finite observation", b.EnvID[i])
							}
						}
						if info[2] != 0 || b.Terminated[i] || !(b.Reward[i] >= 0 && b.Reward[i] <= 1) {
							t.Fatalf("env %d step %d: info %v, terminated %v, reward %v", b.EnvID[i], b.ElapsedStep[i], info, b.Terminated[i], b.Reward[i])
						}
						if b.Truncated[i] != (b.ElapsedStep[i] == TimeLimit) {
							t.Fatalf("env %d: truncated %v at step %d", b.EnvID[i], b.Truncated[i], b.ElapsedStep[i])
						}
						if b.Truncated[i] {
							ends[b.EnvID[i]]++
						}
					}
					act := make([]float32, b.Size*spec.ActionSpace.Size())
					for i := range b.Size {
						copy(act[i*spec.ActionSpace.Size():], randomAction(rng, spec))
					}
					b, err = pool.Step(act, slices.Clone(b.EnvID))
				}
				if err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}
