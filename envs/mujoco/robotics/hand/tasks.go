package hand

import (
	"errors"
	"math"
	"strings"

	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/envs/mujoco/robotics/goalenv"
)

// actuators is how the hand turns actions into controls: each actuator's control
// range, and for relative control the qpos addresses of the joint it drives and of the
// coupled distal joint of the four fingers' J1 actuators (robot0:FFJ1 drives FFJ1 and
// FFJ0 together).
type actuators struct {
	relative bool
	lo, hi   []float64
	joint    []int
	coupled  []int // -1 when none
}

// newActuators reads the model's actuators: robot0:A_XXJn drives joint robot0:XXJn.
func newActuators(s *goalenv.Sim, relative bool) (*actuators, error) {
	a := &actuators{relative: relative}
	var errs []error
	for i := range s.M.NU {
		a.lo, a.hi = append(a.lo, s.M.CtrlRange[2*i]), append(a.hi, s.M.CtrlRange[2*i+1])
		name := goalenv.Name(s.M, "name_actuatoradr", i)
		joint := strings.Replace(name, ":A_", ":", 1)
		j, err := s.Joint(joint)
		errs = append(errs, err)
		a.joint, a.coupled = append(a.joint, j.Qpos), append(a.coupled, -1)
		for _, f := range []string{"FF", "MF", "RF", "LF"} {
			if joint == "robot0:"+f+"J1" {
				c, err := s.Joint("robot0:" + f + "J0")
				errs = append(errs, err)
				a.coupled[i] = c.Qpos
			}
		}
	}
	return a, errors.Join(errs...)
}

// set writes the controls of an action (clipped to [-1, 1]; nil is all zeros): the
// centre of each control range (or, with relative control, the joint's current
// position, plus the coupled joint's) plus the action times half the range, clipped to
// the range.
func (a *actuators) set(s *goalenv.Sim, action []float32) {
	for i := range a.lo {
		half := (a.hi[i] - a.lo[i]) / 2
		centre := (a.hi[i] + a.lo[i]) / 2
		if a.relative {
			centre = s.D.Qpos[a.joint[i]]
			if a.coupled[i] >= 0 {
				centre += s.D.Qpos[a.coupled[i]]
			}
		}
		x := 0.0
		if action != nil {
			x = max(-1, min(1, float64(action[i])))
		}
		s.D.Ctrl[i] = max(a.lo[i], min(a.hi[i], centre+x*half))
	}
}

// observeRobot writes the hand's joint positions and velocities and returns the rest
// of o.
func observeRobot(s *goalenv.Sim, qpos, qvel *[]float64, o []float32) []float32 {
	*qpos, *qvel = s.RobotObs((*qpos)[:0], (*qvel)[:0])
	return put(put(o, *qpos...), *qvel...)
}

// put writes float64 values as float32 and returns the rest of dst.
func put(dst []float32, src ...float64) []float32 {
	for i, v := range src {
		dst[i] = float32(v)
	}
	return dst[len(src):]
}

// handView is where Gymnasium-Robotics' hand camera looks from.
var handView = mujoco.View{Kind: mujoco.ViewFree, ID: -1, Lookat: [3]float64{1, 0.96, 0.14}, Distance: 0.5, Azimuth: 55, Elevation: -25}

// fingertips are the sites whose positions are Reach's achieved goal, thumb last.
var fingertips = [5]string{"robot0:S_fftip", "robot0:S_mftip", "robot0:S_rftip", "robot0:S_lftip", "robot0:S_thtip"}

// reachInitialQpos is the hand's pose at the start of every Reach episode.
var reachInitialQpos = []struct {
	joint string
	value float64
}{
	{"robot0:WRJ1", -0.16514339750464327}, {"robot0:WRJ0", -0.31973286565062153},
	{"robot0:FFJ3", 0.14340512546557435}, {"robot0:FFJ2", 0.32028208333591573},
	{"robot0:FFJ1", 0.7126053607727917}, {"robot0:FFJ0", 0.6705281001412586},
	{"robot0:MFJ3", 0.000246444303701037}, {"robot0:MFJ2", 0.3152655251085491},
	{"robot0:MFJ1", 0.7659800313729842}, {"robot0:MFJ0", 0.7323156897425923},
	{"robot0:RFJ3", 0.00038520700007378114}, {"robot0:RFJ2", 0.36743546201985233},
	{"robot0:RFJ1", 0.7119514095008576}, {"robot0:RFJ0", 0.6699446327514138},
	{"robot0:LFJ4", 0.0525442258033891}, {"robot0:LFJ3", -0.13615534724474673},
	{"robot0:LFJ2", 0.39872030433433003}, {"robot0:LFJ1", 0.7415570009679252},
	{"robot0:LFJ0", 0.704096378652974}, {"robot0:THJ4", 0.003673823825070126},
	{"robot0:THJ3", 0.5506291436028695}, {"robot0:THJ2", -0.014515151997119306},
	{"robot0:THJ1", -0.0015229223564485414}, {"robot0:THJ0", -0.7894883021600622},
}

// reach is one env's HandReach task: bring the thumb and one other fingertip together
// at a point above the palm while the other tips stay where they started.
type reach struct {
	act                    *actuators
	tips, targets, fingers [5]int // site ids: fingertips, goal markers, tip markers
	initGoal               [15]float64
	palm                   [3]float64
	qpos, qvel             []float64
}

// newReach resolves the names, sets the initial pose and records the tips' positions
// (the goal the unchosen fingers keep) and the palm's.
func newReach(s *goalenv.Sim, o Options) (*reach, error) {
	act, err := newActuators(s, o.RelativeControl)
	if err != nil {
		return nil, err
	}
	r := &reach{act: act}
	var errs []error
	for i, n := range fingertips {
		var e1, e2, e3 error
		r.tips[i], e1 = s.Site(n)
		r.targets[i], e2 = s.Site("target" + string(rune('0'+i)))
		r.fingers[i], e3 = s.Site("finger" + string(rune('0'+i)))
		errs = append(errs, e1, e2, e3)
	}
	palm, err := s.Body("robot0:palm")
	errs = append(errs, err)
	for _, q := range reachInitialQpos {
		j, err := s.Joint(q.joint)
		errs = append(errs, err)
		if err == nil {
			s.Qpos(j)[0] = q.value
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := s.D.Forward(); err != nil {
		return nil, err
	}
	r.Achieved(s, r.initGoal[:])
	copy(r.palm[:], s.Xpos[3*palm:3*palm+3])
	return r, nil
}

// Reset keeps the restored pose and draws the goal: a meeting point 9 cm in front of
// and 5 cm above the palm (plus N(0, 5 mm) noise), the thumb's tip and one other
// finger's (drawn among the four) placed 5 mm from it on their way; one goal in ten is
// the tips' start instead.
func (r *reach) Reset(s *goalenv.Sim, goal []float64) (bool, error) {
	finger := s.Rng.IntN(4)
	meet := [3]float64{r.palm[0] + s.Normal(0.005), r.palm[1] - 0.09 + s.Normal(0.005), r.palm[2] + 0.05 + s.Normal(0.005)}
	copy(goal, r.initGoal[:])
	for _, i := range []int{4, finger} {
		g := goal[3*i : 3*i+3]
		d := [3]float64{meet[0] - g[0], meet[1] - g[1], meet[2] - g[2]}
		n := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
		if n == 0 {
			continue
		}
		for k := range 3 {
			g[k] = meet[k] - 0.005*d[k]/n
		}
	}
	if s.Uniform(0, 1) < 0.1 {
		copy(goal, r.initGoal[:])
	}
	return true, nil
}

// Act sets the controls and advances one env step.
func (r *reach) Act(s *goalenv.Sim, action []float32) error {
	r.act.set(s, action)
	return s.Simulate()
}

// Achieved is the five fingertips' positions.
func (r *reach) Achieved(s *goalenv.Sim, dst []float64) {
	for i, id := range r.tips {
		p := s.SitePos(id)
		copy(dst[3*i:3*i+3], p[:])
	}
}

// Observe writes the hand's joint positions and velocities and the tips' positions.
func (r *reach) Observe(s *goalenv.Sim, achieved []float64, o []float32) error {
	put(observeRobot(s, &r.qpos, &r.qvel, o), achieved...)
	return nil
}

// RenderSetup moves the goal markers to the goal and the tip markers to the tips.
func (r *reach) RenderSetup(s *goalenv.Sim, goal []float64) (mujoco.View, error) {
	var tips [15]float64
	r.Achieved(s, tips[:])
	for i := range 5 {
		moveSite(s, r.targets[i], goal[3*i:3*i+3])
		moveSite(s, r.fingers[i], tips[3*i:3*i+3])
	}
	return handView, s.D.Forward()
}

// moveSite shifts a site of the env's model so that it lies at pos.
func moveSite(s *goalenv.Sim, site int, pos []float64) {
	sp := s.M.Float64s("site_pos")[3*site : 3*site+3]
	x := s.SitePos(site)
	for k := range 3 {
		sp[k] = pos[k] - (x[k] - sp[k])
	}
}
