package metaworld

import (
	"math"

	"github.com/rlpool/rlpool/envs/mujoco/dmc"
)

// The reward shaping functions of MetaWorld's reward_utils, shared by every task's
// reward. Its tolerance is dm_control's, called with the defaults (the value 0.1 at the
// margin, a long-tail or a Gaussian sigmoid): the control suite's own implementation.

// longTail is tolerance(x, bounds=(lower, upper), margin, sigmoid="long_tail"), the
// control suite's tolerance (dmc.Tolerance) with its default 0.1 at the margin.
func longTail(x, lower, upper, margin float64) float64 {
	return dmc.Tolerance(x, lower, upper, margin, dmc.LongTail, dmc.DefaultValueAtMargin)
}

// gaussian is tolerance with the Gaussian sigmoid.
func gaussian(x, lower, upper, margin float64) float64 {
	return dmc.Tolerance(x, lower, upper, margin, dmc.Gaussian, dmc.DefaultValueAtMargin)
}

// hamacher is the Hamacher product of two values in [0, 1], ab/(a+b-ab), a soft "and"
// that is 0 when either is and 1 when both are.
func hamacher(a, b float64) float64 {
	den := a + b - a*b
	if den <= 0 {
		return 0
	}
	return a * b / den
}

// rectPrism is rect_prism_tolerance: inside the box spanned by the corners zero and
// one, the product of curr's fractions of the way from zero to one along each axis;
// 1 outside the box.
func rectPrism(curr, zero, one vec3) float64 {
	in := func(a, b, c float64) bool {
		if c >= b {
			return b <= a && a <= c
		}
		return c <= a && a <= b
	}
	for i := range 3 {
		if !in(curr[i], zero[i], one[i]) {
			return 1
		}
	}
	p := 1.0
	for i := range 3 {
		p *= (curr[i] - zero[i]) / (one[i] - zero[i])
	}
	return p
}

// caging are the parameters of the grippers' caging reward (the sources'
// _gripper_caging_reward): how well the two pads surround an object of objRadius
// along y and the hand sits on it in x-z, and how firmly the gripper closes on it.
type caging struct {
	objRadius, padThresh, reachRadius, xzThresh float64
	// effort is the gripper effort that counts as fully closed (desired_gripper_effort).
	effort float64
	// high and medium are the sources' high_density and medium_density: averaging in
	// the caging term alone, or a reaching term.
	high, medium bool
}

// cagingReward is the shaped grasping reward of most pick and push tasks for the
// object at obj, whose initial position was init, under action a.
func (e *Env) cagingReward(a [4]float64, obj, init vec3, c caging) float64 {
	left, right := e.bodyPos("leftpad"), e.bodyPos("rightpad")
	leftDelta, rightDelta := math.Abs(left[1]-obj[1]), math.Abs(right[1]-obj[1])
	leftMargin := math.Abs(math.Abs(left[1]-init[1]) - c.padThresh)
	rightMargin := math.Abs(math.Abs(right[1]-init[1]) - c.padThresh)
	yCaging := hamacher(longTail(leftDelta, c.objRadius, c.padThresh, leftMargin),
		longTail(rightDelta, c.objRadius, c.padThresh, rightMargin))
	tcp := e.tcp()
	xzMargin := dist(xz(init), xz(e.initTCP)) - c.xzThresh
	xzCaging := longTail(dist(xz(tcp), xz(obj)), 0, c.xzThresh, xzMargin)
	cage := hamacher(yCaging, xzCaging)
	gripping := 0.0
	if cage > 0.97 {
		gripping = clamp(a[3], 0, c.effort) / c.effort
	}
	r := hamacher(cage, gripping)
	if c.high {
		r = (r + cage) / 2
	}
	if c.medium {
		margin := math.Abs(dist(init, e.initTCP) - c.reachRadius)
		r = (r + longTail(dist(obj, tcp), 0, c.reachRadius, margin)) / 2
	}
	return r
}

// padCaging is the y caging of the two pads around obj as the pick-place, push-back,
// sweep and soccer rewards compute it: signed distances from each pad, margins from
// the pads' positions when the env was made. It returns the caging term and the
// gripping term, the same with the success bound objRadius+gripExtra.
func (e *Env) padCaging(obj vec3, objRadius, gripExtra float64) (cage, grip float64) {
	const padMargin = 0.05
	left, right := e.bodyPos("leftpad"), e.bodyPos("rightpad")
	leftDelta, rightDelta := left[1]-obj[1], obj[1]-right[1]
	rightMargin := math.Abs(math.Abs(obj[1]-e.initRightPad[1]) - padMargin)
	leftMargin := math.Abs(math.Abs(obj[1]-e.initLeftPad[1]) - padMargin)
	cage = hamacher(longTail(rightDelta, objRadius, padMargin, rightMargin),
		longTail(leftDelta, objRadius, padMargin, leftMargin))
	gripBound := objRadius + gripExtra
	grip = hamacher(longTail(rightDelta, objRadius, gripBound, rightMargin),
		longTail(leftDelta, objRadius, gripBound, leftMargin))
	return cage, grip
}

// xzCaging is how close the hand is to obj in the x-z plane, with the margin of the
// object's and the hand's initial positions.
func (e *Env) xzCaging(obj vec3, thresh float64) float64 {
	margin := dist(xz(e.objInit), xz(e.initTCP)) - thresh
	return longTail(dist(xz(e.tcp()), xz(obj)), 0, thresh, margin)
}

// pickPlaceCaging is pick-place's own grasping reward.
func (e *Env) pickPlaceCaging(a [4]float64, obj vec3) float64 {
	yCage, _ := e.padCaging(obj, 0.015, 0)
	cage := hamacher(yCage, e.xzCaging(obj, 0.005))
	gripping := 0.0
	if cage > 0.97 {
		gripping = clamp(a[3], 0, 1)
	}
	return (hamacher(cage, gripping) + cage) / 2
}

// sweepCaging is the grasping reward of push-back, sweep, sweep-into and soccer:
// caging, and gripping measured by the pads' positions rather than the action.
func (e *Env) sweepCaging(obj vec3, objRadius, gripExtra, xzThresh float64) float64 {
	yCage, yGrip := e.padCaging(obj, objRadius, gripExtra)
	cage := hamacher(yCage, e.xzCaging(obj, xzThresh))
	gripping := 0.0
	if cage > 0.95 {
		gripping = yGrip
	}
	return (cage + gripping) / 2
}
