package metaworld

import (
	"math"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// These tests drive tasks with MetaWorld's scripted policies (metaworld/policies) on the
// observation and recompute each step's reward and success in the test, from the
// simulated state read back from MuJoCo's arrays, with the formulas of the tasks'
// compute_reward and evaluate_state in MetaWorld v3.0.0, written out here on their own.

// pyTolerance is reward_utils.tolerance with value_at_margin 0.1 and the given sigmoid
// of the distance outside the bounds in margins.
func pyTolerance(x, lo, hi, margin float64, sigmoid func(d float64) float64) float64 {
	if lo <= x && x <= hi {
		return 1
	}
	if margin == 0 {
		return 0
	}
	d := (lo - x) / margin
	if x > hi {
		d = (x - hi) / margin
	}
	return sigmoid(d)
}

// pyTol is tolerance with the long-tail sigmoid, pyGauss with the Gaussian one.
func pyTol(x, lo, hi, margin float64) float64 {
	return pyTolerance(x, lo, hi, margin, func(d float64) float64 {
		scale := math.Sqrt(1/0.1 - 1)
		return 1 / ((d*scale)*(d*scale) + 1)
	})
}

func pyGauss(x, lo, hi, margin float64) float64 {
	return pyTolerance(x, lo, hi, margin, func(d float64) float64 {
		scale := math.Sqrt(-2 * math.Log(0.1))
		return math.Exp(-0.5 * (d * scale) * (d * scale))
	})
}

// pyHamacher is reward_utils.hamacher_product.
func pyHamacher(a, b float64) float64 {
	if a+b-a*b > 0 {
		return a * b / (a + b - a*b)
	}
	return 0
}

func norm3(v [3]float64) float64 { return math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]) }

func minus(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// probe reads the simulated state of an env by MuJoCo names.
type probe struct {
	t *testing.T
	e *Env
	// obj is where the task's observation says its object is (_get_pos_objects).
	obj func(p probe) [3]float64
}

func (p probe) at(typ int, name string, arr []float64) [3]float64 {
	id, err := p.e.m.ID(typ, name)
	if err != nil {
		p.t.Fatal(err)
	}
	return [3]float64(arr[3*id : 3*id+3])
}

func (p probe) body(name string) [3]float64 { return p.at(mujoco.ObjBody, name, p.e.d.Xpos) }
func (p probe) site(name string) [3]float64 { return p.at(mujoco.ObjSite, name, p.e.d.SiteXpos) }
func (p probe) geom(name string) [3]float64 {
	return p.at(mujoco.ObjGeom, name, p.e.d.Float64s("geom_xpos"))
}

// open is the observation's gripper opening: the claws' distance over 0.1, clipped.
func (p probe) open() float64 {
	return math.Max(0, math.Min(1, norm3(minus(p.body("rightclaw"), p.body("leftclaw")))/0.1))
}

func add3(a, b [3]float64) [3]float64 { return [3]float64{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// tcp is tcp_center: the midpoint of the fingertips' sites.
func (p probe) tcp() [3]float64 {
	r, l := p.site("rightEndEffector"), p.site("leftEndEffector")
	return [3]float64{(r[0] + l[0]) / 2, (r[1] + l[1]) / 2, (r[2] + l[2]) / 2}
}

// episode is what a reference reward knows of the episode, read at its start: the
// initial tool centre, the pads' positions when the env was made, the first observation.
type episode struct {
	initTCP, initLeft, initRight [3]float64
	objInit                      [3]float64
	buttonStart                  float64    // button-press: the button start site's y
	start                        [3]float64 // the task's reference point at the reset (see scripted.start)
}

// scripted is one task's scripted policy and its reference reward and success.
type scripted struct {
	id     string
	obj    func(p probe) [3]float64
	policy func(o []float32) [4]float64
	reward func(p probe, ep *episode, o []float32, a [4]float64) (reward, success float64)
	// succeeds says the policy reaches the goal within the episode on this engine.
	succeeds bool
	// start, when set, reads a point the formulas need from the reset state.
	start func(p probe) [3]float64
	// grasps says the policy lifts the object with both pads pressing on it, which
	// grasp_success reports from the contacts' constraint forces.
	grasps bool
}

// moveTo is the policies' move(): the displacement toward to, scaled by gain.
func moveTo(o []float32, to [3]float64, gain float64) [3]float64 {
	return [3]float64{(to[0] - float64(o[0])) * gain, (to[1] - float64(o[1])) * gain, (to[2] - float64(o[2])) * gain}
}

func obsAt(o []float32, i int) [3]float64 {
	return [3]float64{float64(o[i]), float64(o[i+1]), float64(o[i+2])}
}

func act(d [3]float64, grip float64) [4]float64 { return [4]float64{d[0], d[1], d[2], grip} }

var scriptedTasks = []scripted{
	{id: "MetaWorld/Reach-v3", succeeds: true, obj: func(p probe) [3]float64 { return p.body("obj") },
		policy: func(o []float32) [4]float64 { return act(moveTo(o, obsAt(o, 36), 5), 0) },
		reward: func(p probe, ep *episode, o []float32, a [4]float64) (float64, float64) {
			target := p.site("goal")
			d := norm3(minus(p.tcp(), target))
			inPlace := pyTol(d, 0, 0.05, norm3(minus([3]float64{0, 0.6, 0.2}, target)))
			return 10 * inPlace, b2f(d <= 0.05)
		}},
	{id: "MetaWorld/Push-v3", succeeds: true, obj: func(p probe) [3]float64 { return p.geom("objGeom") },
		policy: func(o []float32) [4]float64 {
			hand, puck, goal := obsAt(o, 0), obsAt(o, 4), obsAt(o, 36)
			puck[0] -= 0.005
			to, grip := goal, 0.6
			switch {
			case math.Hypot(hand[0]-puck[0], hand[1]-puck[1]) > 0.02:
				to = [3]float64{puck[0], puck[1], puck[2] + 0.2}
			case math.Abs(hand[2]-puck[2]) > 0.04:
				to = [3]float64{puck[0], puck[1], puck[2] + 0.03}
			}
			if math.Hypot(hand[0]-puck[0], hand[1]-puck[1]) > 0.02 || math.Abs(hand[2]-puck[2]) > 0.10 {
				grip = 0
			}
			return act(moveTo(o, to, 10), grip)
		},
		reward: func(p probe, ep *episode, o []float32, a [4]float64) (float64, float64) {
			obj, target, objInit := p.obj(p), p.site("goal"), ep.objInit
			tcpToObj, toTarget := norm3(minus(obj, p.tcp())), norm3(minus(obj, target))
			inPlace := pyTol(toTarget, 0, 0.05, norm3(minus(objInit, target)))
			grasped := pyCaging(p, ep, a, obj, objInit, 0.015, 0.05, 0.005, 1, true)
			reward := 2 * grasped
			if tcpToObj < 0.02 && p.open() > 0 {
				reward += 1 + reward + 5*inPlace
			}
			if toTarget < 0.05 {
				reward = 10
			}
			return reward, b2f(toTarget <= 0.05)
		}},
	{id: "MetaWorld/PickPlace-v3", succeeds: true, grasps: true, obj: func(p probe) [3]float64 { return p.body("obj") },
		policy: func(o []float32) [4]float64 {
			hand, puck, goal := obsAt(o, 0), obsAt(o, 4), obsAt(o, 36)
			grip := b2f(norm3(minus(hand, puck)) < 0.07)
			puck[0] -= 0.005
			to := goal
			switch {
			case math.Hypot(hand[0]-puck[0], hand[1]-puck[1]) > 0.02:
				to = [3]float64{puck[0], puck[1], puck[2] + 0.1}
			case math.Abs(hand[2]-puck[2]) > 0.05 && puck[2] < 0.04:
				to = [3]float64{puck[0], puck[1], puck[2] + 0.03}
			case o[3] > 0.73:
				to = hand
			}
			return act(moveTo(o, to, 10), grip)
		},
		reward: func(p probe, ep *episode, o []float32, a [4]float64) (float64, float64) {
			obj, target, objInit := p.obj(p), p.site("goal"), ep.objInit
			toTarget, tcpToObj := norm3(minus(obj, target)), norm3(minus(obj, p.tcp()))
			inPlace := pyTol(toTarget, 0, 0.05, norm3(minus(objInit, target)))
			// pick-place's own _gripper_caging_reward: signed pad distances, margins
			// from the pads' initial positions.
			left, right := p.body("leftpad"), p.body("rightpad")
			rm := math.Abs(math.Abs(obj[1]-ep.initRight[1]) - 0.05)
			lm := math.Abs(math.Abs(obj[1]-ep.initLeft[1]) - 0.05)
			yCage := pyHamacher(pyTol(left[1]-obj[1], 0.015, 0.05, lm), pyTol(obj[1]-right[1], 0.015, 0.05, rm))
			tcp := p.tcp()
			xzMargin := math.Hypot(objInit[0]-ep.initTCP[0], objInit[2]-ep.initTCP[2]) - 0.005
			xzCage := pyTol(math.Hypot(tcp[0]-obj[0], tcp[2]-obj[2]), 0, 0.005, xzMargin)
			cage := pyHamacher(yCage, xzCage)
			gripping := 0.0
			if cage > 0.97 {
				gripping = math.Min(math.Max(0, a[3]), 1)
			}
			grasped := (pyHamacher(cage, gripping) + cage) / 2
			reward := pyHamacher(grasped, inPlace)
			if tcpToObj < 0.02 && p.open() > 0 && obj[2]-0.01 > objInit[2] {
				reward += 1 + 5*inPlace
			}
			if toTarget < 0.05 {
				reward = 10
			}
			return reward, b2f(toTarget <= 0.07)
		}},
	{id: "MetaWorld/ButtonPress-v3", succeeds: true, start: func(p probe) [3]float64 { return p.site("buttonStart") }, obj: func(p probe) [3]float64 { return add3(p.body("button"), [3]float64{0, -0.193, 0}) },
		policy: func(o []float32) [4]float64 {
			hand, button := obsAt(o, 0), obsAt(o, 4)
			button[2] -= 0.07
			if math.Abs(hand[0]-button[0]) > 0.02 || math.Abs(hand[2]-button[2]) > 0.02 {
				button[1] = hand[1] - 0.1
			} else {
				button[1] += 0.02
			}
			return act(moveTo(o, button, 25), 0)
		},
		reward: func(p probe, ep *episode, o []float32, a [4]float64) (float64, float64) {
			// button-press-v3: pressing along y, near within 5 cm, the open gripper.
			return pyPress(p, ep, 1, 0.05, math.Max(p.open(), 0), 2, 0.05, 8, 0.02)
		}},
	{id: "MetaWorld/DrawerOpen-v3", succeeds: true, obj: func(p probe) [3]float64 { return add3(p.body("drawer_link"), [3]float64{0, -0.16, 0}) },
		policy: func(o []float32) [4]float64 {
			hand, drawer := obsAt(o, 0), obsAt(o, 4)
			drawer[2] -= 0.02
			switch {
			case math.Hypot(hand[0]-drawer[0], hand[1]-drawer[1]) > 0.06:
				return act(moveTo(o, [3]float64{drawer[0], drawer[1], drawer[2] + 0.3}, 4), -1)
			case math.Abs(hand[2]-drawer[2]) > 0.04:
				return act(moveTo(o, drawer, 4), -1)
			}
			return act(moveTo(o, [3]float64{drawer[0], drawer[1] - 0.06, drawer[2]}, 50), -1)
		},
		reward: func(p probe, ep *episode, o []float32, a [4]float64) (float64, float64) {
			gripper, handle, target := p.body("hand"), p.obj(p), p.site("goal")
			handleErr := norm3(minus(handle, target))
			opening := pyTol(handleErr, 0, 0.02, 0.2)
			handleInit := [3]float64{target[0], target[1] + 0.2, target[2]}
			s := [3]float64{3, 3, 1}
			ge, gi := minus(handle, gripper), minus(handleInit, ep.initTCP)
			for i := range 3 {
				ge[i] *= s[i]
				gi[i] *= s[i]
			}
			caging := pyTol(norm3(ge), 0, 0.01, norm3(gi))
			return 5 * (caging + opening), b2f(handleErr <= 0.03)
		}},
	{id: "MetaWorld/DoorOpen-v3", succeeds: true, obj: func(p probe) [3]float64 { return p.geom("handle") },
		policy: func(o []float32) [4]float64 {
			hand, door := obsAt(o, 0), obsAt(o, 4)
			door[0] -= 0.05
			to := door
			switch {
			case math.Hypot(hand[0]-door[0], hand[1]-door[1]) > 0.12:
				to = [3]float64{door[0] + 0.06, door[1] + 0.02, door[2] + 0.2}
			case math.Abs(hand[2]-door[2]) > 0.04:
				to = [3]float64{door[0] + 0.06, door[1] + 0.02, door[2]}
			}
			return act(moveTo(o, to, 25), 1)
		},
		reward: func(p probe, ep *episode, o []float32, a [4]float64) (float64, float64) {
			id, _ := p.e.m.ID(mujoco.ObjJoint, "doorjoint")
			theta := p.e.d.Qpos[p.e.m.Int32s("jnt_qposadr")[id]]
			grab := (math.Max(-1, math.Min(1, a[3])) + 1) / 2
			hand, door := p.body("hand"), p.obj(p)
			door[0] -= 0.05
			radius := math.Hypot(hand[0]-door[0], hand[1]-door[1])
			floor := 0.0
			if radius > 0.12 {
				floor = 0.04*math.Log(radius-0.12) + 0.4
			}
			above := 1.0
			if hand[2] < floor {
				above = pyTol(floor-hand[2], 0, 0.01, floor/2)
			}
			off := minus(minus(hand, door), [3]float64{0.05, 0.03, -0.01})
			ready := pyHamacher(above, pyTol(norm3(off), 0, 0.06, 0.5))
			opened := 0.2*b2f(theta < -math.Pi/90) + 0.8*pyTol(math.Pi/2+math.Pi/6+theta, 0, 0.5, math.Pi/3)
			reward := 2*pyHamacher(ready, grab) + 8*opened
			success := math.Abs(p.obj(p)[0]-p.site("goal")[0]) <= 0.08
			if success {
				reward = 10
			}
			return reward, b2f(success)
		}},
	{id: "MetaWorld/WindowOpen-v3", succeeds: true, obj: func(p probe) [3]float64 { return p.site("handleOpenStart") },
		policy: func(o []float32) [4]float64 {
			hand, w := obsAt(o, 0), obsAt(o, 4)
			w = [3]float64{w[0] - 0.03, w[1] - 0.03, w[2] - 0.08}
			to := [3]float64{w[0] + 0.1, w[1], w[2]}
			switch {
			case math.Hypot(hand[0]-w[0], hand[1]-w[1]) > 0.04:
				to = [3]float64{w[0], w[1], w[2] + 0.3}
			case math.Abs(hand[2]-w[2]) > 0.02:
				to = w
			}
			return act(moveTo(o, to, 25), 1)
		},
		reward: func(p probe, ep *episode, o []float32, a [4]float64) (float64, float64) {
			obj, target := p.obj(p), p.site("goal")
			objInit, handleInit := p.body("window"), ep.objInit
			toTarget := math.Abs(obj[0] - target[0])
			inPlace := pyTol(toTarget, 0, 0.05, math.Abs(math.Abs(objInit[0]-target[0])-0.05))
			reach := pyTol(norm3(minus(obj, p.tcp())), 0, 0.02, math.Abs(norm3(minus(handleInit, ep.initTCP))-0.02))
			return 10 * pyHamacher(reach, inPlace), b2f(toTarget <= 0.05)
		}},
	{id: "MetaWorld/PlateSlide-v3", succeeds: true, obj: func(p probe) [3]float64 { return p.geom("puck") },
		policy: func(o []float32) [4]float64 {
			hand, puck := obsAt(o, 0), obsAt(o, 4)
			puck = [3]float64{puck[0], puck[1] - 0.055, puck[2] + 0.03}
			to := [3]float64{float64(o[36]), 0.9, puck[2]}
			switch {
			case math.Hypot(hand[0]-puck[0], hand[1]-puck[1]) > 0.03:
				to = [3]float64{puck[0], puck[1], puck[2] + 0.1}
			case math.Abs(hand[2]-puck[2]) > 0.04:
				to = puck
			}
			return act(moveTo(o, to, 10), -1)
		},
		reward: func(p probe, ep *episode, o []float32, a [4]float64) (float64, float64) {
			obj, target, objInit := p.obj(p), p.site("goal"), [3]float64{0, 0.6, 0}
			toTarget := norm3(minus(obj, target))
			inPlace := pyTol(toTarget, 0, 0.05, norm3(minus(objInit, target)))
			grasped := pyTol(norm3(minus(p.tcp(), obj)), 0, 0.05, norm3(minus(ep.initTCP, objInit)))
			reward := 8 * pyHamacher(grasped, inPlace)
			if toTarget < 0.05 {
				reward = 10
			}
			return reward, b2f(toTarget <= 0.07)
		}},
}

// moreScripted are the scripted tasks of the articulated families beyond the first
// eight: a faucet, a top-down button and a handle.
var moreScripted = []scripted{
	{id: "MetaWorld/FaucetOpen-v3", succeeds: true,
		obj:   func(p probe) [3]float64 { return add3(p.site("handleStartOpen"), [3]float64{0, 0, -0.01}) },
		start: func(p probe) [3]float64 { return p.body("faucetBase") },
		policy: func(o []float32) [4]float64 {
			hand, f := obsAt(o, 0), add3(obsAt(o, 4), [3]float64{-0.04, 0, 0.03})
			to := add3(f, [3]float64{0.1, 0.05, 0})
			switch {
			case math.Hypot(hand[0]-f[0], hand[1]-f[1]) > 0.04:
				to = add3(f, [3]float64{0, 0, 0.1})
			case math.Abs(hand[2]-f[2]) > 0.04:
				to = f
			}
			return act(moveTo(o, to, 25), 1)
		},
		reward: func(p probe, ep *episode, o []float32, a [4]float64) (float64, float64) {
			obj, target := add3(p.obj(p), [3]float64{-0.04, 0, 0.03}), p.site("goal_open")
			toTarget := norm3(minus(obj, target))
			inPlace := pyTol(toTarget, 0, 0.07, math.Abs(norm3(minus(ep.start, target))-0.07))
			reach := pyGauss(norm3(minus(obj, p.tcp())), 0, 0.01, math.Abs(norm3(minus(ep.start, ep.initTCP))-0.01))
			reward := (2*reach + 3*inPlace) * 2
			if toTarget <= 0.07 {
				reward = 10
			}
			return reward, b2f(toTarget <= 0.07)
		}},
	{id: "MetaWorld/ButtonPressTopdown-v3", succeeds: true,
		obj:   func(p probe) [3]float64 { return add3(p.body("button"), [3]float64{0, 0, 0.193}) },
		start: func(p probe) [3]float64 { return p.site("buttonStart") },
		policy: func(o []float32) [4]float64 {
			hand, b := obsAt(o, 0), obsAt(o, 4)
			to := b
			if math.Hypot(hand[0]-b[0], hand[1]-b[1]) > 0.04 {
				to = add3(b, [3]float64{0, 0, 0.1})
			}
			return act(moveTo(o, to, 25), 1)
		},
		reward: func(p probe, ep *episode, o []float32, a [4]float64) (float64, float64) {
			// button-press-topdown-v3: pressing along z, near within 1 cm, the closed gripper.
			return pyPress(p, ep, 2, 0.01, 1-p.open(), 5, 0.03, 5, 0.024)
		}},
	{id: "MetaWorld/HandlePress-v3", succeeds: true,
		obj:   func(p probe) [3]float64 { return p.site("handleStart") },
		start: func(p probe) [3]float64 { return p.site("handleStart") },
		policy: func(o []float32) [4]float64 {
			hand, h := obsAt(o, 0), add3(obsAt(o, 4), [3]float64{0, -0.02, 0})
			to := add3(h, [3]float64{0, 0, -0.5})
			if math.Hypot(hand[0]-h[0], hand[1]-h[1]) > 0.02 {
				to = add3(h, [3]float64{0, 0, 0.2})
			}
			return act(moveTo(o, to, 25), -1)
		},
		reward: func(p probe, ep *episode, o []float32, a [4]float64) (float64, float64) {
			obj, target := p.obj(p), p.site("goalPress")
			toTarget := math.Abs(obj[2] - target[2])
			inPlace := pyTol(toTarget, 0, 0.02, math.Abs(math.Abs(ep.start[2]-target[2])-0.02))
			reach := pyTol(norm3(minus(obj, p.tcp())), 0, 0.02, math.Abs(norm3(minus(ep.start, ep.initTCP))-0.02))
			reward := pyHamacher(reach, inPlace)
			if toTarget <= 0.02 {
				reward = 1
			}
			return 10 * reward, b2f(toTarget <= 0.02)
		}},
}

// pyPress is the button tasks' compute_reward and success: the button (p.obj) pressed
// along axis toward the hole from its start site's place at the reset (ep.start), the
// tool centre near it within nearBound, weight times the Hamacher product of grip and
// nearness, plus pressWeight times the pressing term once within reach; success
// within successAt.
func pyPress(p probe, ep *episode, axis int, nearBound, grip, weight, reach, pressWeight, successAt float64) (float64, float64) {
	obj, hole := p.obj(p), p.site("hole")
	tcpToObj := norm3(minus(obj, p.tcp()))
	toTarget := math.Abs(hole[axis] - obj[axis])
	near := pyTol(tcpToObj, 0, nearBound, norm3(minus(obj, ep.initTCP)))
	pressed := pyTol(toTarget, 0, 0.005, math.Abs(hole[axis]-ep.start[axis]))
	reward := weight * pyHamacher(grip, near)
	if tcpToObj <= reach {
		reward += pressWeight * pressed
	}
	return reward, b2f(toTarget <= successAt)
}

// pyCaging is SawyerXYZEnv._gripper_caging_reward without medium density.
func pyCaging(p probe, ep *episode, a [4]float64, obj, objInit [3]float64, objRadius, padThresh, xzThresh, effort float64, high bool) float64 {
	left, right := p.body("leftpad"), p.body("rightpad")
	var cages [2]float64
	for i, pad := range [2][3]float64{left, right} {
		margin := math.Abs(math.Abs(pad[1]-objInit[1]) - padThresh)
		cages[i] = pyTol(math.Abs(pad[1]-obj[1]), objRadius, padThresh, margin)
	}
	yCage := pyHamacher(cages[0], cages[1])
	tcp := p.tcp()
	xzMargin := math.Hypot(objInit[0]-ep.initTCP[0], objInit[2]-ep.initTCP[2]) - xzThresh
	xzCage := pyTol(math.Hypot(tcp[0]-obj[0], tcp[2]-obj[2]), 0, xzThresh, xzMargin)
	closed := math.Min(math.Max(0, a[3]), effort) / effort
	cage := pyHamacher(yCage, xzCage)
	gripping := 0.0
	if cage > 0.97 {
		gripping = closed
	}
	r := pyHamacher(cage, gripping)
	if high {
		r = (r + cage) / 2
	}
	return r
}

// TestScriptedRewards runs each scripted task (eleven, eleven reward functions) for a whole episode with the goal
// observed and checks every step's reward and success against the reference, and
// that the policy succeeds where MetaWorld's does.
func TestScriptedRewards(t *testing.T) {
	requireMuJoCo(t)
	for _, sc := range append(scriptedTasks, moreScripted...) {
		t.Run(sc.id, func(t *testing.T) {
			env, spec, err := envs.MakeEnv(sc.id, map[string]any{"partially_observable": false}, 11)
			if err != nil {
				t.Fatal(err)
			}
			e := env.(*Env)
			defer e.Close()
			p := probe{t, e, sc.obj}
			ep := &episode{initLeft: p.body("leftpad"), initRight: p.body("rightpad")}
			e.Reset()
			o := make([]float32, spec.ObsSpace.Size())
			info := make([]float32, spec.InfoWidth())
			e.Observe(envpool.Obs{F32: o}, info)
			// init_tcp is the tool centre MetaWorld records right after the hand reset's
			// last physics step, whose site positions lag that step; the formulas take
			// it as recorded, which lies within a millimetre of the tool centre now.
			ep.initTCP, ep.objInit = e.initTCP, p.obj(p)
			if d := norm3(minus(ep.initTCP, p.tcp())); d > 1e-3 {
				t.Fatalf("init_tcp %v is %v from the tool centre after the reset", ep.initTCP, d)
			}
			if sc.start != nil {
				ep.start = sc.start(p)
			}
			succeeded, grasped := 0, 0
			for step := 1; step <= MaxPathLength; step++ {
				a := sc.policy(o)
				act32 := []float32{float32(a[0]), float32(a[1]), float32(a[2]), float32(a[3])}
				for i := range a {
					a[i] = float64(act32[i])
				}
				r := e.Step(act32)
				e.Observe(envpool.Obs{F32: o}, info)
				want, success := sc.reward(p, ep, o, a)
				if math.Abs(float64(r.Reward)-want) > 1e-5*math.Max(1, want) || info[0] != float32(success) {
					t.Fatalf("step %d: reward %v success %v, the formula gives %v and %v", step, r.Reward, info[0], want, success)
				}
				succeeded += int(success)
				grasped += int(info[2])
				if r.Truncated != (step == MaxPathLength) {
					t.Fatalf("step %d: truncated %v", step, r.Truncated)
				}
			}
			t.Logf("success at %d of %d steps, grasp_success at %d", succeeded, MaxPathLength, grasped)
			if sc.grasps && grasped == 0 {
				t.Errorf("the scripted policy never held the object between the pads")
			}
			if sc.succeeds && succeeded == 0 {
				t.Errorf("the scripted policy never succeeded")
			}
		})
	}
}
