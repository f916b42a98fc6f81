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
		&taskDef{domain: "point_mass", task: "easy", frameSkip: 1, model: suiteModel("point_mass"), newLogic: newPointMass(false)},
		&taskDef{domain: "point_mass", task: "hard", frameSkip: 1, model: suiteModel("point_mass"), newLogic: newPointMass(true)},
	)
}

// pointMassMaxCosine is the most parallel the hard task's two directions may be.
const pointMassMaxCosine = 0.9

type pointMass struct {
	plainControl
	noTermination
	qposQvelObs
	randomizeGains bool
	mass, target   int // geoms
}

func newPointMass(randomizeGains bool) func(*Physics, taskOptions) (logic, error) {
	return func(p *Physics, _ taskOptions) (logic, error) {
		g, err := p.Names(mujoco.ObjGeom, "pointmass", "target")
		if err != nil {
			return nil, mustBeNamed("point_mass", err)
		}
		return &pointMass{randomizeGains: randomizeGains, mass: g[0], target: g[1]}, nil
	}
}

func (pm *pointMass) initEpisode(p *Physics) error {
	p.RandomizeLimitedAndRotationalJoints()
	if !pm.randomizeGains {
		return nil
	}
	dir1 := randomPlanarDirection(p)
	dir2 := randomPlanarDirection(p)
	for math.Abs(dir1[0]*dir2[0]+dir1[1]*dir2[1]) > pointMassMaxCosine {
		dir2 = randomPlanarDirection(p)
	}
	// The wraps of tendons t1 and t2 are the first four: t1's coefficients of root_x and
	// root_y, then t2's.
	w := p.M.Float64s("wrap_prm")
	w[0], w[1], w[2], w[3] = dir1[0], dir1[1], dir2[0], dir2[1]
	return nil
}

// randomPlanarDirection is a normalised draw of N(0, I) in the plane.
func randomPlanarDirection(p *Physics) [2]float64 {
	x, y := p.Normal(), p.Normal()
	n := math.Sqrt(x*x + y*y)
	return [2]float64{x / n, y / n}
}

func (pm *pointMass) reward(p *Physics) float64 {
	size := p.ModelRow("geom_size", pm.target, 3)[0]
	d := pointDistance(p.Row("geom_xpos", pm.target, 3), p.Row("geom_xpos", pm.mass, 3))
	near := Tolerance(d, 0, size, size, Gaussian, DefaultValueAtMargin)
	return near * smallControl(p)
}
