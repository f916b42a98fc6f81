package dmc

import (
	"fmt"
	"math"
	"strings"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// The lqr domain: a chain of n bodies on springs, each sliding along y relative to the
// one before, the first k driven by unbounded motors: a linear system with a quadratic
// cost (the suite's lqr.py). The model is generated from lqr.xml as the suite generates
// it: body_i (at 0.25 along x from its parent; body_0 also 0.1 up) holds joint_i (a
// slide), geom_i and site_i, and the next body; motor_i drives joint_i for i < k;
// spatial tendon_i joins site_i and site_i+1 (drawn only). Each joint's stiffness is
// uniform in [15, 25] and its damping 0 (the suite's range (0, 0)), drawn once per env
// from the env's generator, as the suite draws them once per environment it builds; the
// compiled document holds 20 and 0, which every env overwrites in its model copy.
//
// LqrLqr21-v1 (2 bodies, 1 motor), LqrLqr62-v1 (6 bodies, 2 motors): reward
// 1 - (0.5 |qpos|^2 + 0.1 * 0.5 |ctrl|^2), which is negative for large states or
// controls (the suite's reward is not confined to [0, 1]). Terminal (discount 0) when
// the norm of (qpos, qvel) is below 1e-6. Reset: qpos = sqrt(2) times a uniformly random
// unit vector (standard normals, normalised), qvel 0. Observation: position (qpos, n),
// velocity (qvel, n).
//
// The suite gives the lqr tasks no control timestep (one physics step of 0.03 s per
// action) and no time limit; here, like every suite task, an episode is cut at 1000
// actions (30 s).
func init() {
	for _, c := range [][2]int{{2, 1}, {6, 2}} {
		register(&taskDef{domain: "lqr", task: fmt.Sprintf("lqr_%d_%d", c[0], c[1]), frameSkip: 1,
			model: lqrModel(c[0], c[1]), newLogic: newLQR(c[0])})
	}
}

// The suite's lqr constants: the control cost's coefficient, the state norm below which
// an episode ends, and the ranges of the joints' stiffness and damping.
const (
	lqrControlCost = 0.1
	lqrTerminalTol = 1e-6
	lqrStiffnessLo = 15
	lqrStiffnessHi = 25
	lqrDampingLo   = 0
	lqrDampingHi   = 0
)

// lqrModel is the suite's _make_model for n bodies, the first k actuated.
func lqrModel(n, k int) func(taskOptions) ([]byte, error) {
	return editedModel("lqr", func(doc []byte) ([]byte, error) {
		var chain, actuators, tendons strings.Builder
		for b := range n {
			pos := ".25 0 0"
			if b == 0 {
				pos = ".25 0 .1"
			}
			fmt.Fprintf(&chain, `<body name="body_%d" pos="%s"><joint name="joint_%d" stiffness="%g" damping="%g"/><geom name="geom_%d"/><site name="site_%d"/>`,
				b, pos, b, (lqrStiffnessLo+lqrStiffnessHi)/2.0, (lqrDampingLo+lqrDampingHi)/2.0, b, b)
			if b < k {
				fmt.Fprintf(&actuators, `<motor name="motor_%d" joint="joint_%d"/>`, b, b)
			}
			if b < n-1 {
				fmt.Fprintf(&tendons, `<spatial name="tendon_%d"><site site="site_%d"/><site site="site_%d"/></spatial>`, b, b, b+1)
			}
		}
		chain.WriteString(strings.Repeat("</body>", n))
		doc, err := appendToElement(doc, "worldbody", "", chain.String())
		if err != nil {
			return nil, err
		}
		return appendToElement(doc, "mujoco", "", "<actuator>"+actuators.String()+"</actuator><tendon>"+tendons.String()+"</tendon>\n")
	})
}

// lqr is one env's logic of the lqr tasks.
type lqr struct {
	plainControl
	qposQvelObs
	act []float64
}

// newLQR makes the logic of an n-body chain. It draws the joints' stiffness and
// damping into the env's model copy, once per env, as the suite draws them once per
// environment.
func newLQR(n int) logicFactory {
	return func(p *Physics, _ taskOptions) (logic, error) {
		r := newResolver(p, "lqr")
		joints := make([]int, n)
		for b := range joints {
			joints[b] = r.id(mujoco.ObjJoint, fmt.Sprintf("joint_%d", b))
		}
		if err := r.err(); err != nil {
			return nil, err
		}
		stiffness, damping := p.M.Float64s("jnt_stiffness"), p.M.Float64s("dof_damping")
		for _, j := range joints {
			stiffness[j] = p.Uniform(lqrStiffnessLo, lqrStiffnessHi)
			damping[p.jointAt(j).Qvel] = p.Uniform(lqrDampingLo, lqrDampingHi)
		}
		return &lqr{act: p.D.Float64s("act")}, nil
	}
}

// initEpisode puts qpos at norm sqrt(2) in a uniformly random direction.
func (l *lqr) initEpisode(p *Physics) error {
	q := p.D.Qpos
	for i := range q {
		q[i] = p.Normal()
	}
	scale := math.Sqrt2 / norm(q...)
	for i := range q {
		q[i] *= scale
	}
	return nil
}

// reward is 1 minus the quadratic state and control cost.
func (l *lqr) reward(p *Physics) float64 {
	return 1 - (0.5*sumSquares(p.D.Qpos) + lqrControlCost*0.5*sumSquares(p.D.Ctrl))
}

// terminal reports whether the norm of the physics state (qpos, qvel, act) is below
// the tolerance: the chain has come to rest at the origin.
func (l *lqr) terminal(p *Physics) bool {
	return math.Sqrt(sumSquares(p.D.Qpos, p.D.Qvel, l.act)) < lqrTerminalTol
}
