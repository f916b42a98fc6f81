package adroit

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/goalenv"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/mjrobot"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/mjrobot/robottest"
)

// makeHand builds one env of an Adroit task outside any pool.
func makeHand(t *testing.T, id string, seed int64) (*mjrobot.Env, *Hand, envpool.Spec) {
	t.Helper()
	return robottest.MakeLogic[*Hand](t, id, nil, seed)
}

// TestSpecs: EnvPool's 8 ids with its observation and action sizes (obs_dim,
// action_dim), model sizes (qpos_dim, qvel_dim), time limit, info keys and options.
func TestSpecs(t *testing.T) {
	robottest.RequireMuJoCo(t)
	want := map[string][3]int{"Door": {39, 28, 30}, "Hammer": {46, 26, 33}, "Pen": {45, 24, 30}, "Relocate": {39, 30, 36}}
	ids := TaskIDs()
	if len(ids) != 8 {
		t.Fatalf("ids %v", ids)
	}
	for _, id := range ids {
		e, h, spec := makeHand(t, id, 0)
		name := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(id, "AdroitHand"), "-v1"), "Sparse")
		w := want[name]
		if spec.ObsSpace.Size() != w[0] || spec.ActionSpace.Size() != w[1] || e.Sim().M.NQ != w[2] || e.Sim().M.NV != w[2] {
			t.Errorf("%s: obs %d, actions %d, nq %d, nv %d; want %v", id, spec.ObsSpace.Size(), spec.ActionSpace.Size(), e.Sim().M.NQ, e.Sim().M.NV, w)
		}
		if spec.MaxEpisodeSteps != 200 || spec.FrameSkip != 5 || !slices.Equal(spec.InfoKeys, []string{"success", "distance", "error"}) {
			t.Errorf("%s: limit %d, frame skip %d, info %v", id, spec.MaxEpisodeSteps, spec.FrameSkip, spec.InfoKeys)
		}
		if a := spec.ActionSpace; a.Low[0] != -1 || a.High[0] != 1 {
			t.Errorf("%s: action bounds %v %v", id, a.Low[0], a.High[0])
		}
		if sparse := strings.Contains(id, "Sparse"); h.sparse != sparse || spec.Options["reward_type"] != map[bool]string{true: "sparse", false: "dense"}[sparse] {
			t.Errorf("%s: options %v", id, spec.Options)
		}
		if math.Abs(spec.RenderFPS-100) > 1e-9 {
			t.Errorf("%s: render fps %v", id, spec.RenderFPS)
		}
	}
}

// TestEpisodes: every id through whole random episodes (200 steps) in a sync and an
// async pool.
func TestEpisodes(t *testing.T) { robottest.Episodes(t, 0, TaskIDs()...) }

// TestServoGains: the wrist actuators get kp 10 and the finger ones kp 1, as
// Gymnasium-Robotics sets them, and actions map onto the control ranges.
func TestServoGains(t *testing.T) {
	e, _, _ := makeHand(t, "AdroitHandRelocate-v1", 0)
	m := e.Sim().M
	gain, bias := m.Float64s("actuator_gainprm"), m.Float64s("actuator_biasprm")
	ng, nb := len(gain)/m.NU, len(bias)/m.NU
	for _, c := range []struct {
		name string
		kp   float64
	}{{"A_WRJ1", 10}, {"A_WRJ0", 10}, {"A_FFJ3", 1}, {"A_THJ0", 1}} {
		id, err := m.ID(mujoco.ObjActuator, c.name)
		if err != nil {
			t.Fatal(err)
		}
		if gain[id*ng] != c.kp || bias[id*nb+1] != -c.kp || bias[id*nb] != 0 {
			t.Errorf("%s: gain %v bias %v, want kp %v", c.name, gain[id*ng:id*ng+3], bias[id*nb:id*nb+3], c.kp)
		}
	}
	e.Reset()
	a := make([]float32, m.NU)
	a[0], a[1] = 1, 3 // 3 is clipped to 1
	a[2] = -0.5
	e.Step(a)
	r := m.CtrlRange
	for i, want := range []float64{r[1], r[3], 0.75*r[4] + 0.25*r[5]} {
		if got := e.Sim().D.Ctrl[i]; math.Abs(got-want) > 1e-12 {
			t.Errorf("ctrl[%d] = %v, want %v", i, got, want)
		}
	}
}

// rewardFromState recomputes a task's dense reward, distance and success by hand from
// the simulated state, with the sources' formulas, for TestRewards.
func rewardFromState(t *testing.T, h *Hand, s *mjrobot.Sim) (float64, float64, bool) {
	gap := func(a, b [3]float64) float64 { return math.Sqrt(sqr(a[0]-b[0]) + sqr(a[1]-b[1]) + sqr(a[2]-b[2])) }
	bonus := func(ok bool, v float64) float64 { return map[bool]float64{true: v}[ok] }
	switch l := h.task.(type) {
	case *Door:
		angle := s.D.Qpos[l.Hinge]
		getToHandle := 0.1 * gap(s.Site(l.Palm), s.Site(l.Handle))
		openDoor := -0.1 * sqr(angle-1.57)
		velocity := 0.0
		for _, v := range s.D.Qvel {
			velocity -= 1e-5 * v * v
		}
		return getToHandle + openDoor + velocity + bonus(angle > 0.2, 2) + bonus(angle > 1, 8) + bonus(angle >= 1.35, 10), angle, angle >= 1.35
	case *Hammer:
		hammer, head, nail := s.Body(l.Object), s.Site(l.Tool), s.Site(l.Nail)
		driven := gap(nail, s.Site(l.Goal))
		speed := 0.0
		for _, v := range s.D.Qvel {
			speed += v * v
		}
		lifted := hammer[2] > 0.04 && head[2] > 0.04
		return 0.1*gap(s.Site(l.Palm), hammer) - gap(head, nail) - 10*driven - 0.01*math.Sqrt(speed) + bonus(lifted, 2) + bonus(driven < 0.02, 25) + bonus(driven < 0.01, 75), driven, driven < 0.01
	case *Pen:
		pos := s.Body(l.Object)
		along := func(top, bottom int, length float64) [3]float64 {
			a, b := s.Site(top), s.Site(bottom)
			return [3]float64{(a[0] - b[0]) / length, (a[1] - b[1]) / length, (a[2] - b[2]) / length}
		}
		u, w := along(l.ObjectTop, l.ObjectBottom, l.penLength), along(l.TargetTop, l.TargetBot, l.targetLength)
		similarity := u[0]*w[0] + u[1]*w[1] + u[2]*w[2]
		off := gap(pos, s.Site(l.Ball))
		near := off < 0.075
		return similarity - off + bonus(near && similarity > 0.9, 10) + bonus(near && similarity > 0.95, 50) - bonus(pos[2] < 0.075, 5), off, near && similarity > 0.95
	case *Relocate:
		palm, ball, target := s.Site(l.Palm), s.Body(l.Object), s.Site(l.Target)
		off := gap(ball, target)
		carry := 0.0
		if ball[2] > 0.04 {
			carry = 1 - 0.5*gap(palm, target) - 0.5*off
		}
		return 0.1*gap(palm, ball) + carry + bonus(off < 0.1, 10) + bonus(off < 0.05, 20), off, off < 0.1
	}
	t.Fatalf("unknown task %T", h.task)
	return 0, 0, false
}

func sqr(x float64) float64 { return x * x }

// TestRewards: under a scripted sequence of smooth actions, each step's dense and
// sparse rewards, success and distance are the sources' formulas recomputed by hand
// from the sites, bodies and joints read back from the simulation.
func TestRewards(t *testing.T) {
	for _, id := range TaskIDs() {
		e, h, spec := makeHand(t, id, 4)
		e.Reset()
		s := e.Sim()
		for step := range 40 {
			a := make([]float32, spec.ActionSpace.Size())
			for i := range a {
				a[i] = float32(math.Sin(0.2*float64(step) + float64(i)))
			}
			r := e.Step(a)
			dense, dist, success := rewardFromState(t, h, s)
			want := dense
			if h.sparse {
				want = map[bool]float64{true: 10, false: -0.1}[success]
			}
			if r.Reward != float32(want) || r.Terminated || r.Truncated {
				t.Fatalf("%s step %d: %+v, want reward %v", id, step, r, want)
			}
			_, info := robottest.Observe(t, e, spec)
			if info[0] != map[bool]float32{true: 1}[success] || info[1] != float32(dist) {
				t.Fatalf("%s step %d: info %v, want success %v distance %v", id, step, info, success, dist)
			}
		}
	}
}

// TestSuccess: a scripted pose that meets each goal gives success, the sparse 10 and
// the dense bonuses: the door held open at 1.45 rad, and the ball placed at the
// relocation target.
func TestSuccess(t *testing.T) {
	for _, id := range []string{"AdroitHandDoor-v1", "AdroitHandDoorSparse-v1", "AdroitHandRelocate-v1", "AdroitHandRelocateSparse-v1"} {
		e, h, spec := makeHand(t, id, 9)
		e.Reset()
		s := e.Sim()
		switch l := h.task.(type) {
		case *Door:
			s.D.Qpos[l.Hinge] = 1.45
		case *Relocate:
			target, home := s.Site(l.Target), s.ModelRow("body_pos", l.Object, 3)
			for k, name := range []string{"OBJTx", "OBJTy", "OBJTz"} {
				j, err := s.M.ID(mujoco.ObjJoint, name)
				if err != nil {
					t.Fatal(err)
				}
				s.D.Qpos[s.M.Int32s("jnt_qposadr")[j]] = target[k] - home[k]
			}
		}
		s.Forward()
		r := e.Step(make([]float32, spec.ActionSpace.Size()))
		_, info := robottest.Observe(t, e, spec)
		dense, _, ok := rewardFromState(t, h, s)
		if !ok || info[0] != 1 {
			t.Fatalf("%s: the scripted pose did not succeed (info %v)", id, info)
		}
		want := dense
		if h.sparse {
			want = 10
		}
		if r.Reward != float32(want) {
			t.Errorf("%s: reward %v, want %v", id, r.Reward, want)
		}
		if !h.sparse && dense < 20 {
			t.Errorf("%s: dense reward %v lacks the success bonuses", id, dense)
		}
	}
}

// TestObservations: the observations hold the state the sources put there: the
// door's hinge and open flag, the hammer's clipped velocities, the pen's orientations
// as unit vectors, the relocation offsets.
func TestObservations(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, id := range []string{"AdroitHandDoor-v1", "AdroitHandHammer-v1", "AdroitHandPen-v1", "AdroitHandRelocate-v1"} {
		e, h, spec := makeHand(t, id, 2)
		e.Reset()
		for range 5 {
			e.Step(robottest.RandomAction(rng, spec.ActionSpace.Size()))
		}
		s := e.Sim()
		obs, _ := robottest.Observe(t, e, spec)
		q, v := s.D.Qpos, s.D.Qvel
		switch l := h.task.(type) {
		case *Door:
			if obs[0] != float32(q[1]) || obs[27] != float32(q[len(q)-1]) || obs[28] != float32(q[l.Hinge]) || obs[38] != -1 {
				t.Errorf("door: %v", obs)
			}
		case *Hammer:
			for i := range 6 {
				if obs[27+i] != float32(min(max(v[len(v)-6+i], -1), 1)) {
					t.Errorf("hammer velocity %d: %v", i, obs[27+i])
				}
			}
			nail := s.Site(l.Nail)
			if obs[42] != float32(nail[0]) {
				t.Errorf("hammer: nail %v, observed %v", nail, obs[42:45])
			}
		case *Pen:
			for _, at := range []int{33, 36} {
				n := math.Sqrt(sqr(float64(obs[at])) + sqr(float64(obs[at+1])) + sqr(float64(obs[at+2])))
				if math.Abs(n-1) > 1e-3 {
					t.Errorf("pen orientation at %d has length %v", at, n)
				}
			}
		case *Relocate:
			palm, ball := s.Site(l.Palm), s.Body(l.Object)
			if obs[30] != float32(palm[0]-ball[0]) {
				t.Errorf("relocate: %v", obs[30:])
			}
		}
	}
}

// TestResetDistribution: over many resets the randomised placements cover the
// sources' ranges: the door frame's position, the nail board's height, the pen
// target's Euler angles, the ball's and the target's positions.
func TestResetDistribution(t *testing.T) {
	type span struct{ lo, hi, min, max float64 }
	for _, id := range []string{"AdroitHandDoor-v1", "AdroitHandHammer-v1", "AdroitHandPen-v1", "AdroitHandRelocate-v1"} {
		e, h, _ := makeHand(t, id, 3)
		var spans []span
		var read func() []float64
		s := e.Sim()
		switch l := h.task.(type) {
		case *Door:
			spans = []span{{lo: -0.3, hi: -0.2}, {lo: 0.25, hi: 0.35}, {lo: 0.252, hi: 0.35}}
			read = func() []float64 { return s.ModelRow("body_pos", l.Frame, 3) }
		case *Hammer:
			spans = []span{{lo: 0.1, hi: 0.25}}
			read = func() []float64 { return s.ModelRow("body_pos", l.Board, 3)[2:] }
		case *Pen:
			spans = []span{{lo: -1, hi: 1}, {lo: -1, hi: 1}, {lo: -1e-9, hi: 1e-9}}
			read = func() []float64 {
				e := goalenv.QuatToEuler([4]float64(s.ModelRow("body_quat", l.Target, 4)))
				return e[:]
			}
		case *Relocate:
			spans = []span{{lo: -0.15, hi: 0.15}, {lo: -0.15, hi: 0.3}, {lo: -0.2, hi: 0.2}, {lo: -0.2, hi: 0.2}, {lo: 0.15, hi: 0.35}}
			read = func() []float64 {
				return append(slices.Clone(s.ModelRow("body_pos", l.Object, 3)[:2]), s.ModelRow("site_pos", l.Target, 3)...)
			}
		}
		for i := range spans {
			spans[i].min, spans[i].max = math.Inf(1), math.Inf(-1)
		}
		for range 300 {
			e.Reset()
			for i, x := range read() {
				spans[i].min, spans[i].max = min(spans[i].min, x), max(spans[i].max, x)
			}
		}
		for i, sp := range spans {
			width := sp.hi - sp.lo
			if sp.min < sp.lo-1e-9 || sp.max > sp.hi+1e-9 || (width > 1e-6 && (sp.min > sp.lo+0.05*width || sp.max < sp.hi-0.05*width)) {
				t.Errorf("%s: value %d spans [%v, %v], want [%v, %v]", id, i, sp.min, sp.max, sp.lo, sp.hi)
			}
		}
	}
}

// TestBadInput: an unknown option, a bad reward_type, a NaN action and an action of
// the wrong length are refused by name.
func TestBadInput(t *testing.T) {
	robottest.BadInput(t, "AdroitHandPen-v1", "reward_type", "shaped")
	if _, err := envs.SpecOf("AdroitHandDoor-v1", map[string]any{"frame_skip": 0}); err == nil || !strings.Contains(err.Error(), "frame_skip") {
		t.Errorf("frame_skip 0: %v", err)
	}
}

// TestRender: the door task draws through the offscreen renderer, meshes and textures
// loaded from the archive.
func TestRender(t *testing.T) { robottest.Render(t, "AdroitHandDoor-v1") }

// TestFrameStack: an Adroit observation stacked 2 deep is a (2, 45) array, the
// previous observation then the current one.
func TestFrameStack(t *testing.T) {
	e, spec := robottest.MakeEnv(t, "AdroitHandPen-v1", map[string]any{"frame_stack": 2}, 1)
	plain, pspec := robottest.MakeEnv(t, "AdroitHandPen-v1", nil, 1)
	if !slices.Equal(spec.ObsSpace.Shape, []int{2, 45}) {
		t.Fatalf("stacked shape %v", spec.ObsSpace.Shape)
	}
	e.Reset()
	plain.Reset()
	before, _ := robottest.Observe(t, plain, pspec)
	a := make([]float32, spec.ActionSpace.Size())
	a[3] = 0.7
	e.Step(a)
	plain.Step(a)
	after, _ := robottest.Observe(t, plain, pspec)
	obs, _ := robottest.Observe(t, e, spec)
	if !slices.Equal(obs[:45], before) || !slices.Equal(obs[45:], after) {
		t.Errorf("stacked %v, want %v then %v", obs, before, after)
	}
}

// TestPixels: picture observations of the hand.
func TestPixels(t *testing.T) { robottest.Pixels(t, "AdroitHandRelocate-v1") }
