package dmc

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rlpool/rlpool/envpool"
)

// The cartpole domain: a cart on a rail with one or more hinged poles chained on top of
// it (the suite's cartpole.py). All tasks take one physics step (0.01 s, RK4) per
// action.
//
// CartpoleBalance-v1 and CartpoleBalanceSparse-v1 start near upright: the cart uniform
// in [-0.1, 0.1], every hinge uniform in [-0.034, 0.034] rad. CartpoleSwingup-v1,
// CartpoleSwingupSparse-v1, CartpoleTwoPoles-v1 and CartpoleThreePoles-v1 start hanging
// down: the cart 0.01·N(0, 1), the first hinge pi + 0.01·N(0, 1), further hinges
// 0.1·N(0, 1). Every task adds velocities 0.01·N(0, 1).
//
// The smooth reward (Balance, Swingup, TwoPoles, ThreePoles) is the product of
// upright (the mean over poles of (cos + 1) / 2, cos being the z component of the
// pole's z axis), centered ((1 + tolerance(cart x, margin 2)) / 2, gaussian), small
// control ((4 + tolerance(u, margin 1, quadratic, 0 at the margin)) / 5) and small
// velocity ((1 + the least over hinges of tolerance(angular velocity, margin 5)) / 2,
// gaussian). The sparse reward is 1 while the cart is within [-0.25, 0.25] and every
// pole's cos is within [0.995, 1], else 0.
//
// The extra poles are the suite's model edit: each further pole is a body "pole_<i>"
// (class pole, 1 above its parent, hinge "hinge_<i>", geom "pole_<i>") nested in the
// previous one, the floor moved to z = 1 - n - 0.05 and the two cameras moved back.
// CartpoleThreePoles-v1 takes the suite's num_poles option (default 3) and sparse
// (0 or 1, default 0).
//
// Observation: position (1 + 2n: the cart's x, then per pole the z and x components of
// its z axis, i.e. cos and sin of its absolute angle), velocity (qvel, 1 + n).
func init() {
	register(
		&taskDef{domain: "cartpole", task: "balance", frameSkip: 1, model: cartpoleModel(1), newLogic: newCartpole(false, false)},
		&taskDef{domain: "cartpole", task: "balance_sparse", frameSkip: 1, model: cartpoleModel(1), newLogic: newCartpole(false, true)},
		&taskDef{domain: "cartpole", task: "swingup", frameSkip: 1, model: cartpoleModel(1), newLogic: newCartpole(true, false)},
		&taskDef{domain: "cartpole", task: "swingup_sparse", frameSkip: 1, model: cartpoleModel(1), newLogic: newCartpole(true, true)},
		&taskDef{domain: "cartpole", task: "two_poles", frameSkip: 1, model: cartpoleModel(2), newLogic: newCartpole(true, false)},
		&taskDef{domain: "cartpole", task: "three_poles", frameSkip: 1, model: cartpoleModel(0), newLogic: newCartpole(true, false),
			options: func() any { return &threePolesOptions{NumPoles: 3} }},
	)
}

// Ranges of the suite's Balance task.
var (
	cartpoleCartBand   = Tol{Lower: -0.25, Upper: 0.25, Sigmoid: Gaussian, ValueAtMargin: DefaultValueAtMargin}
	cartpoleUprightCos = Tol{Lower: 0.995, Upper: 1, Sigmoid: Gaussian, ValueAtMargin: DefaultValueAtMargin}
	cartpoleCentered   = Tol{Margin: 2, Sigmoid: Gaussian, ValueAtMargin: DefaultValueAtMargin}
	cartpoleSlowHinge  = Tol{Margin: 5, Sigmoid: Gaussian, ValueAtMargin: DefaultValueAtMargin}
)

// threePolesOptions are three_poles' options, as the suite's constructor takes them.
type threePolesOptions struct {
	// NumPoles' bound, 100, is enough for any experiment and far from models too large
	// to compile quickly.
	NumPoles int `toml:"num_poles" range:"[1,100]" help:"poles in the chain"`
	// Sparse is a number, 0 or 1, as the suite's keyword argument is passed to EnvPool.
	Sparse int `toml:"sparse" range:"[0,1]" help:"1: sparse reward (0 or 1 per step); 0: smooth"`
}

// polesOf returns the options of a three_poles task.
func polesOf(o taskOptions) (*threePolesOptions, bool) {
	p, ok := o.own.(*threePolesOptions)
	return p, ok
}

// cartpoleModel is the model of a task with n poles, or with the num_poles option's
// count when n is 0.
func cartpoleModel(n int) func(taskOptions) ([]byte, error) {
	return func(o taskOptions) ([]byte, error) {
		if n == 0 {
			p, ok := polesOf(o)
			if !ok {
				return nil, fmt.Errorf("dmc: cartpole: a model of any number of poles needs the num_poles option")
			}
			return cartpoleXML(p.NumPoles)
		}
		return cartpoleXML(n)
	}
}

// cartpoleXML returns the cartpole document with n poles: the suite's file for one,
// otherwise the suite's _make_model edit (a chain of poles nested in the first, the
// floor lowered below the hanging chain, the cameras moved back).
func cartpoleXML(n int) ([]byte, error) {
	doc, err := ModelXML("cartpole")
	if err != nil || n == 1 {
		return doc, err
	}
	if n < 1 {
		return nil, fmt.Errorf("dmc: cartpole: %d poles; want at least 1", n)
	}
	var chain strings.Builder
	for i := 2; i <= n; i++ {
		fmt.Fprintf(&chain, `<body name="pole_%d" pos="0 0 1" childclass="pole"><joint name="hinge_%d"/><geom name="pole_%d"/>`, i, i, i)
	}
	chain.WriteString(strings.Repeat("</body>", n-1))
	doc, err = appendToElement(doc, "body", "pole_1", chain.String())
	if err == nil {
		floorZ := strconv.FormatFloat(1-float64(n)-0.05, 'g', -1, 64)
		doc, err = setElementAttr(doc, "geom", "floor", "pos", "0 0 "+floorZ)
	}
	if err == nil {
		doc, err = setElementAttr(doc, "camera", "fixed", "pos", fmt.Sprintf("0 %d 1", -1-2*n))
	}
	if err == nil {
		doc, err = setElementAttr(doc, "camera", "lookatcart", "pos", fmt.Sprintf("0 %d 2", -2*n))
	}
	if err != nil {
		return nil, fmt.Errorf("dmc: cartpole: %w", err)
	}
	return doc, nil
}

// cartpole is one env's logic of the cartpole tasks.
type cartpole struct {
	plainControl
	noTermination
	swingUp, sparse bool
	slider, hinge1  Joint
	poles           []int // bodies after the cart, as the suite's xmat[2:]
}

// newCartpole makes the logic of a swing-up (else balance) task, sparse or smooth
// (three_poles' sparse option can also make it sparse).
func newCartpole(swingUp, sparse bool) logicFactory {
	return func(p *Physics, o taskOptions) (logic, error) {
		r := newResolver(p, "cartpole")
		own, ok := polesOf(o)
		c := &cartpole{swingUp: swingUp, sparse: sparse || (ok && own.Sparse == 1), slider: r.joint("slider"), hinge1: r.joint("hinge_1")}
		for b := 2; b < p.M.NBody; b++ {
			c.poles = append(c.poles, b)
		}
		return c, r.err()
	}
}

// initEpisode draws the cart and hinges near upright (balance) or hanging down
// (swing-up), and small velocities.
func (c *cartpole) initEpisode(p *Physics) error {
	q := p.D.Qpos
	if c.swingUp {
		q[c.slider.Qpos] = 0.01 * p.Normal()
		q[c.hinge1.Qpos] = math.Pi + 0.01*p.Normal()
		for i := 2; i < p.M.NV; i++ {
			q[i] = 0.1 * p.Normal()
		}
	} else {
		q[c.slider.Qpos] = p.Uniform(-0.1, 0.1)
		for i := 1; i < p.M.NV; i++ {
			q[i] = p.Uniform(-0.034, 0.034)
		}
	}
	for i := range p.D.Qvel {
		p.D.Qvel[i] = 0.01 * p.Normal()
	}
	return nil
}

// reward is the sparse band reward or the smooth product of upright, centered, small
// control and small velocity.
func (c *cartpole) reward(p *Physics) float64 {
	cart := p.D.Qpos[c.slider.Qpos]
	if c.sparse {
		r := cartpoleCartBand.Of(cart)
		for _, b := range c.poles {
			r *= cartpoleUprightCos.Of(bodyZAxisZ(p, b))
		}
		return r
	}
	upright := 0.0
	for _, b := range c.poles {
		upright += (bodyZAxisZ(p, b) + 1) / 2
	}
	upright /= float64(len(c.poles))
	centered := (1 + cartpoleCentered.Of(cart)) / 2
	slowest := 1.0
	for _, w := range p.D.Qvel[1:] {
		slowest = min(slowest, cartpoleSlowHinge.Of(w))
	}
	smallVelocity := (1 + slowest) / 2
	return upright * smallControl(p) * smallVelocity * centered
}

// layout is position (the cart's x and each pole's cos and sin) and velocity.
func (c *cartpole) layout(p *Physics) []envpool.ObsField {
	return []envpool.ObsField{field("position", 1+2*len(c.poles)), field("velocity", p.M.NV)}
}

// observe writes the cart's x, each pole's z axis (z then x component), then qvel.
func (c *cartpole) observe(p *Physics, o []float32) {
	o = put(o, p.D.Qpos[c.slider.Qpos])
	for _, b := range c.poles {
		o = put(o, bodyZAxisZ(p, b), bodyZAxisX(p, b))
	}
	put(o, p.D.Qvel...)
}
