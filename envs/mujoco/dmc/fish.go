package dmc

import (
	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// The fish domain: a fish with a free root, a two-part tail and two fins, swimming
// without gravity in a dense fluid (the suite's fish.py). Control timestep 0.04 s over
// a 0.004 s model step: frame skip 10.
//
// FishUpright-v1: reward tolerance(the torso's xmat zz, [1, 1], margin 1, gaussian,
// 0.1 at the margin). Observation: joint_angles (tail1, tail_twist, tail2,
// finright_roll, finright_pitch, finleft_roll, finleft_pitch, 7), upright (the
// torso's xmat zz, 1), velocity (qvel, 13). The target is hidden (alpha 0).
//
// FishSwim-v1: reward (7*in_target + (upright + 1)/2) / 8, in_target =
// tolerance(|mouth to target|, [0, r], margin 2r, gaussian, 0.1), r being the sum of
// the mouth's and the target's radii (0.045). Observation: joint_angles (7), upright
// (1), target (the target minus the mouth, in the mouth geom's frame, 3), velocity
// (qvel, 13). The target moves each episode to x, y uniform in [-0.4, 0.4] and z in
// [0.1, 0.3].
//
// Reset (both): the root's orientation a normalised 4-vector of standard normals (its
// position stays at 0 0 0.1), each of the seven joints uniform in [-0.2, 0.2]. No
// termination.
func init() {
	register(
		suiteTask("fish", "upright", 10, newFish(false)),
		suiteTask("fish", "swim", 10, newFish(true)),
	)
}

// fishJoints are the suite's _JOINTS: the tail's and fins' hinges, in its order.
var fishJoints = []string{"tail1", "tail_twist", "tail2", "finright_roll", "finright_pitch", "finleft_roll", "finleft_pitch"}

// fishUpright is FishUpright's reward: the torso's zz close to 1.
var fishUpright = Tol{Lower: 1, Upper: 1, Margin: 1, Sigmoid: Gaussian, ValueAtMargin: DefaultValueAtMargin}

// fish is one env's logic of the fish tasks.
type fish struct {
	plainControl
	noTermination
	swim          bool
	torso         int
	mouth, target int // geoms
	root          Joint
	joints        []Joint
}

// newFish makes the logic of FishSwim (swim) or FishUpright.
func newFish(swim bool) logicFactory {
	return func(p *Physics, _ taskOptions) (logic, error) {
		r := newResolver(p, "fish")
		f := &fish{swim: swim, torso: r.id(mujoco.ObjBody, "torso"), mouth: r.id(mujoco.ObjGeom, "mouth"), target: r.id(mujoco.ObjGeom, "target"),
			root: r.joint("root"), joints: r.joints(fishJoints...)}
		return f, r.err()
	}
}

// initEpisode draws the root's orientation and the joints, then hides the target
// (upright) or moves it (swim) in the env's model copy.
func (f *fish) initEpisode(p *Physics) error {
	randomUnitVector(p, p.D.Qpos[f.root.Qpos+3:f.root.Qpos+7])
	for _, j := range f.joints {
		p.D.Qpos[j.Qpos] = p.Uniform(-0.2, 0.2)
	}
	if !f.swim {
		p.M.Float32s("geom_rgba")[4*f.target+3] = 0
		return nil
	}
	g := p.ModelRow("geom_pos", f.target, 3)
	g[0] = p.Uniform(-0.4, 0.4)
	g[1] = p.Uniform(-0.4, 0.4)
	g[2] = p.Uniform(0.1, 0.3)
	return nil
}

// mouthToTarget is the target minus the mouth in the mouth geom's frame.
func (f *fish) mouthToTarget(p *Physics) [3]float64 {
	return vecInFrame(vecSub3(vec3(p.GeomXpos, f.target), vec3(p.GeomXpos, f.mouth)), mat3(p.GeomXmat, f.mouth))
}

// reward is upright (FishUpright) or mostly the mouth reaching the target (FishSwim).
func (f *fish) reward(p *Physics) float64 {
	upright := bodyZAxisZ(p, f.torso)
	if !f.swim {
		return fishUpright.Of(upright)
	}
	r := p.ModelRow("geom_size", f.mouth, 3)[0] + p.ModelRow("geom_size", f.target, 3)[0]
	v := f.mouthToTarget(p)
	inTarget := Tolerance(norm(v[:]...), 0, r, 2*r, Gaussian, DefaultValueAtMargin)
	return (7*inTarget + 0.5*(upright+1)) / 8
}

// layout is joint_angles, upright, target (swim) and velocity.
func (f *fish) layout(p *Physics) []envpool.ObsField {
	out := []envpool.ObsField{field("joint_angles", len(f.joints)), scalar("upright")}
	if f.swim {
		out = append(out, field("target", 3))
	}
	return append(out, field("velocity", p.M.NV))
}

// observe writes the joint angles, the torso's zz, the target in the mouth's frame
// (swim) and qvel.
func (f *fish) observe(p *Physics, o []float32) {
	for _, j := range f.joints {
		o = put(o, p.D.Qpos[j.Qpos])
	}
	o = put(o, bodyZAxisZ(p, f.torso))
	if f.swim {
		v := f.mouthToTarget(p)
		o = put(o, v[:]...)
	}
	put(o, p.D.Qvel...)
}
