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
	registerVariants("fish", 10, []string{"upright", "swim"}, func(p *Physics, i int) (logic, error) { return newFish(p, i == 1) })
}

// fishJoints are the suite's _JOINTS: the tail's and fins' hinges, in its order.
var fishJoints = []string{"tail1", "tail_twist", "tail2", "finright_roll", "finright_pitch", "finleft_roll", "finleft_pitch"}

var fishUpright = Tol{Lower: 1, Upper: 1, Margin: 1, Sigmoid: Gaussian, ValueAtMargin: DefaultValueAtMargin}

type fish struct {
	plainControl
	noTermination
	swim          bool
	torso         int
	mouth, target int // geoms
	root          Joint
	joints        []Joint
}

func newFish(p *Physics, swim bool) (logic, error) {
	r := &nameResolver{p: p, domain: "fish"}
	f := &fish{swim: swim, torso: r.id(mujoco.ObjBody, "torso"), mouth: r.id(mujoco.ObjGeom, "mouth"), target: r.id(mujoco.ObjGeom, "target")}
	if j := r.joints(append([]string{"root"}, fishJoints...)...); j != nil {
		f.root, f.joints = j[0], j[1:]
	}
	return f, r.failed()
}

func (f *fish) initEpisode(p *Physics) error {
	var quat [4]float64
	for i := range quat {
		quat[i] = p.Normal()
	}
	n := euclidNorm(quat[:]...)
	for i, v := range quat {
		p.D.Qpos[f.root.Qpos+3+i] = v / n
	}
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

func (f *fish) upright(p *Physics) float64 { return p.Xmat[9*f.torso+8] }

// mouthToTarget is the target minus the mouth in the mouth geom's frame.
func (f *fish) mouthToTarget(p *Physics) [3]float64 {
	return vecInFrame(vecSub3(p.GeomXpos[3*f.target:3*f.target+3], p.GeomXpos[3*f.mouth:3*f.mouth+3]), p.GeomXmat[9*f.mouth:9*f.mouth+9])
}

func (f *fish) reward(p *Physics) float64 {
	if !f.swim {
		return fishUpright.Of(f.upright(p))
	}
	size := p.M.Float64s("geom_size")
	r := size[3*f.mouth] + size[3*f.target]
	v := f.mouthToTarget(p)
	inTarget := Tolerance(euclidNorm(v[:]...), 0, r, 2*r, Gaussian, DefaultValueAtMargin)
	return (7*inTarget + 0.5*(f.upright(p)+1)) / 8
}

func (f *fish) layout(p *Physics) []envpool.ObsField {
	out := []envpool.ObsField{field("joint_angles", len(f.joints)), field("upright", 1)}
	if f.swim {
		out = append(out, field("target", 3))
	}
	return append(out, field("velocity", p.M.NV))
}

func (f *fish) observe(p *Physics, o []float32) {
	for _, j := range f.joints {
		o = put(o, p.D.Qpos[j.Qpos])
	}
	o = put(o, f.upright(p))
	if f.swim {
		v := f.mouthToTarget(p)
		o = put(o, v[:]...)
	}
	put(o, p.D.Qvel...)
}
