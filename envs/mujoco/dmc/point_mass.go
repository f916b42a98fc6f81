package dmc

import (
	"math"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// The point_mass domain: a planar point mass driven through two tendons to a target at
// the arena's centre (the suite's point_mass.py). Both tasks take one physics step
// (0.02 s) per action.
//
// PointMassEasy-v1: the tendons pull along x and y. Reset: both slide joints uniform in
// their range [-0.29, 0.29], zero velocity.
// PointMassHard-v1: as easy, and each episode the tendons' joint coefficients (the
// model's wrap_prm) become random unit directions dir1 and dir2 (normalised N(0, I)
// draws, dir2 redrawn while |dir1·dir2| > 0.9), so each control pushes along a random
// direction.
// Reward (both): near_target · (4 + c) / 5, where near_target is tolerance(distance
// from mass to target, [0, s], margin s, gaussian) with s the target's radius (0.015),
// and c the mean over controls of tolerance(u, margin 1, quadratic, 0 at the margin).
// Observation: position (qpos, 2), velocity (qvel, 2).
func init() {
	register(
		suiteTask("point_mass", "easy", 1, newPointMass(false)),
		suiteTask("point_mass", "hard", 1, newPointMass(true)),
	)
}

// pointMassMaxCosine is the most parallel the hard task's two directions may be.
const pointMassMaxCosine = 0.9

// pointMass is one env's logic of the point_mass tasks.
type pointMass struct {
	plainControl
	noTermination
	qposQvelObs
	randomizeGains bool
	mass, target   int // geoms
}

// newPointMass makes the logic of PointMassHard (randomizeGains) or PointMassEasy.
func newPointMass(randomizeGains bool) logicFactory {
	return func(p *Physics, _ taskOptions) (logic, error) {
		r := newResolver(p, "point_mass")
		pm := &pointMass{randomizeGains: randomizeGains, mass: r.id(mujoco.ObjGeom, "pointmass"), target: r.id(mujoco.ObjGeom, "target")}
		return pm, r.err()
	}
}

// initEpisode draws the position and (hard) the two tendons' directions.
func (pm *pointMass) initEpisode(p *Physics) error {
	p.RandomizeLimitedAndRotationalJoints()
	if !pm.randomizeGains {
		return nil
	}
	var dir1, dir2 [2]float64
	randomUnitVector(p, dir1[:])
	randomUnitVector(p, dir2[:])
	for math.Abs(dir1[0]*dir2[0]+dir1[1]*dir2[1]) > pointMassMaxCosine {
		randomUnitVector(p, dir2[:])
	}
	// The wraps of tendons t1 and t2 are the first four: t1's coefficients of root_x and
	// root_y, then t2's.
	w := p.M.Float64s("wrap_prm")
	w[0], w[1], w[2], w[3] = dir1[0], dir1[1], dir2[0], dir2[1]
	return nil
}

// reward is near_target times small_control.
func (pm *pointMass) reward(p *Physics) float64 {
	size := p.ModelRow("geom_size", pm.target, 3)[0]
	d := distance(vec3(p.GeomXpos, pm.target), vec3(p.GeomXpos, pm.mass))
	near := Tolerance(d, 0, size, size, Gaussian, DefaultValueAtMargin)
	return near * smallControl(p)
}
