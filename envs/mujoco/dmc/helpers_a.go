package dmc

// Helpers shared by the acrobot, pendulum, cartpole, point_mass, reacher and ball_in_cup
// domains (helper file "a"): the components of a body's z axis that the pole-like
// domains observe, and the plain qpos/qvel observation.

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
)

// Elements of a row-major xmat row (the suite's 'xz' and 'zz' columns): the world x
// and z components of the body's z axis. For a body rotated by angle a about the world
// y axis they are sin(a) and cos(a).
const (
	xmatXZ = 2
	xmatZZ = 8
)

// bodyZAxisX returns xmat[body, 'xz'], the world x component of the body's z axis.
func bodyZAxisX(p *Physics, body int) float64 { return p.Xmat[9*body+xmatXZ] }

// bodyZAxisZ returns xmat[body, 'zz'], the world z component of the body's z axis
// (the cosine of its tilt from upright).
func bodyZAxisZ(p *Physics, body int) float64 { return p.Xmat[9*body+xmatZZ] }

// qposQvelObs is the observation of the domains that show the whole state as it is:
// "position" (qpos) then "velocity" (qvel), the suite's physics.position() and
// physics.velocity().
type qposQvelObs struct{}

func (qposQvelObs) layout(p *Physics) []envpool.ObsField {
	return []envpool.ObsField{field("position", p.M.NQ), field("velocity", p.M.NV)}
}

func (qposQvelObs) observe(p *Physics, o []float32) {
	o = put(o, p.D.Qpos...)
	put(o, p.D.Qvel...)
}

// pointDistance returns the Euclidean distance between two points of the same
// dimension (rows of site_xpos, geom_xpos, or their first two columns), summed as
// numpy's linalg.norm of their difference.
func pointDistance(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return math.Sqrt(s)
}
