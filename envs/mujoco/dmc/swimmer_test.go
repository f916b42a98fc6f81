package dmc

import (
	"fmt"
	"math"
	"testing"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// swimmerSizes are the body counts of the suite's swimmer tasks.
var swimmerSizes = []int{6, 15}

// swimmerID is the task id of the n-body swimmer.
func swimmerID(n int) string { return fmt.Sprintf("SwimmerSwimmer%d-v1", n) }

// TestSwimmerModel: the generated n-body swimmer has the suite's sizes (n+2 position
// coordinates, n-1 motors, n+1 bodies with the world, 6 + 2(n-1) sensors), joints
// limited to ±360/n degrees and tracking cameras moved away by n/6.
func TestSwimmerModel(t *testing.T) {
	for _, n := range swimmerSizes {
		e, spec := makeEnv(t, swimmerID(n), nil, 0)
		m := e.Physics().M
		if m.NQ != n+2 || m.NV != n+2 || m.NU != n-1 || m.NBody != n+1 || m.Size("njnt") != n+2 ||
			m.Size("nsensor") != 6+2*(n-1) || m.Size("nsensordata") != 12+6*n {
			t.Fatalf("swimmer%d: nq %d nv %d nu %d nbody %d njnt %d nsensor %d nsensordata %d", n, m.NQ, m.NV, m.NU,
				m.NBody, m.Size("njnt"), m.Size("nsensor"), m.Size("nsensordata"))
		}
		checkTiming(t, e, spec, 15, 0.002, 30)
		ranges, limited := m.Float64s("jnt_range"), m.Bytes("jnt_limited")
		for i := range n - 1 {
			j := mustID(t, e.Physics(), mujoco.ObjJoint, fmt.Sprintf("joint_%d", i))
			lim := 2 * math.Pi / float64(n)
			if limited[j] == 0 || math.Abs(ranges[2*j]+lim) > 1e-12 || math.Abs(ranges[2*j+1]-lim) > 1e-12 {
				t.Fatalf("swimmer%d: joint_%d limited %d range %v, want ±%g", n, i, limited[j], ranges[2*j:2*j+2], lim)
			}
			mustID(t, e.Physics(), mujoco.ObjActuator, fmt.Sprintf("motor_%d", i))
		}
		cam := mustID(t, e.Physics(), mujoco.ObjCamera, "tracking1")
		pos, scale := m.Float64s("cam_pos")[3*cam:3*cam+3], float64(n)/6
		if math.Abs(pos[1]+0.2*scale) > 1e-12 || math.Abs(pos[2]-0.5*scale) > 1e-12 {
			t.Errorf("swimmer%d: tracking1 at %v, want (0, %g, %g)", n, pos, -0.2*scale, 0.5*scale)
		}
		checkLayout(t, spec, fmt.Sprintf("joints:%d", n-1), "to_target:2", fmt.Sprintf("body_velocities:%d", 3*n))
	}
	if _, err := swimmerModel(2); err == nil {
		t.Errorf("a 2-body swimmer was accepted")
	}
}

// TestSwimmerObservation: joints are qpos[3:]; to_target is the target minus the nose
// projected on the head's x and y axes (here from the framepos and axis sensors);
// body_velocities the velocimeters' x, y and the gyros' z, head first.
func TestSwimmerObservation(t *testing.T) {
	for _, n := range swimmerSizes {
		e, spec := makeEnv(t, swimmerID(n), nil, 2)
		p := e.Physics()
		rollout(t, e, spec, 10, 5, 3, nil, func(obs []float32) {
			checkEntry(t, spec, obs, "joints", p.D.Qpos[3:]...)
			nose, target := sensorValues(t, p, "nose_pos"), sensorValues(t, p, "target_pos")
			xaxis, yaxis := sensorValues(t, p, "head_xaxis"), sensorValues(t, p, "head_yaxis")
			var dx, dy float64
			for k := range 3 {
				dx += (target[k] - nose[k]) * xaxis[k]
				dy += (target[k] - nose[k]) * yaxis[k]
			}
			checkEntry(t, spec, obs, "to_target", dx, dy)
			vel, gyro := sensorValues(t, p, "head_vel"), sensorValues(t, p, "head_gyro")
			want := []float64{vel[0], vel[1], gyro[2]}
			for b := range n - 1 {
				vel, gyro = sensorValues(t, p, fmt.Sprintf("velocimeter_%d", b)), sensorValues(t, p, fmt.Sprintf("gyro_%d", b))
				want = append(want, vel[0], vel[1], gyro[2])
			}
			checkEntry(t, spec, obs, "body_velocities", want...)
		})
	}
}

// TestSwimmerReset: the root's slides stay 0, its rotation and the joints are drawn in
// their ranges, and the target (with its light) lands in [-2, 2]^2, within
// [-0.3, 0.3]^2 about a fifth of the time or more.
func TestSwimmerReset(t *testing.T) {
	e, _ := makeEnv(t, "SwimmerSwimmer6-v1", nil, 21)
	p := e.Physics()
	target, light := mustID(t, p, mujoco.ObjGeom, "target"), mustID(t, p, swimmerObjLight, "target_light")
	const resets = 400
	nClose, far := 0, 0
	for range resets {
		e.Reset()
		q := p.D.Qpos
		if q[0] != 0 || q[1] != 0 || math.Abs(q[2]) > math.Pi {
			t.Fatalf("root %v", q[:3])
		}
		for i, v := range q[3:] {
			if math.Abs(v) > math.Pi/3 {
				t.Fatalf("joint_%d = %g beyond 60 degrees", i, v)
			}
		}
		g, l := p.M.Float64s("geom_pos")[3*target:3*target+3], p.M.Float64s("light_pos")[3*light:3*light+3]
		if g[0] != l[0] || g[1] != l[1] || g[2] != 0.05 || l[2] != 1.5 {
			t.Fatalf("target at %v, its light at %v", g, l)
		}
		if math.Abs(g[0]) > 2 || math.Abs(g[1]) > 2 {
			t.Fatalf("target at %v outside the arena", g)
		}
		if gx := p.D.Float64s("geom_xpos")[3*target : 3*target+2]; gx[0] != g[0] || gx[1] != g[1] {
			t.Fatalf("geom_xpos %v not updated to %v", gx, g)
		}
		if math.Abs(g[0]) <= 0.3 && math.Abs(g[1]) <= 0.3 {
			nClose++
		}
		if math.Abs(g[0]) > 1.5 || math.Abs(g[1]) > 1.5 {
			far++
		}
	}
	// Close targets: 0.2 + 0.8 * 0.15^2 of the draws; far ones 0.8 * (1 - 0.75^2).
	if nClose < resets*14/100 || nClose > resets*30/100 || far < resets*25/100 {
		t.Errorf("%d close and %d far targets of %d", nClose, far, resets)
	}
}

// TestSwimmerReward: the long-tail tolerance of the nose-target distance at set
// states: 1 within the target's radius 0.1, 1/((3d)^2 + 1) at d margins of 0.5.
func TestSwimmerReward(t *testing.T) {
	for _, n := range swimmerSizes {
		e, _ := makeEnv(t, swimmerID(n), nil, 0)
		p := e.Physics()
		target := mustID(t, p, mujoco.ObjGeom, "target")
		for _, s := range []struct{ rx, ry, tx, ty float64 }{
			{0, 0, 0, -0.06}, {0, 0, 0.05, -0.02}, {0.3, -0.2, 1, 1}, {1, 1, -1.5, 0.7}, {-1, 0.5, -1, 0.6}, {0, 0, 0.1, -0.06},
		} {
			g := p.M.Float64s("geom_pos")[3*target : 3*target+3]
			g[0], g[1] = s.tx, s.ty
			q := make([]float64, p.M.NQ)
			q[0], q[1] = s.rx, s.ry
			got := rewardAt(t, e, q, nil, nil)
			// The nose sits at (0, -0.06) in the head, which is unrotated here.
			dist := math.Hypot(s.tx-s.rx, s.ty-(s.ry-0.06))
			want := 1.0
			if dist > 0.1 {
				d := (dist - 0.1) / 0.5
				want = 1 / (9*d*d + 1)
			}
			checkNear(t, fmt.Sprintf("swimmer%d reward at distance %g", n, dist), got, want)
		}
	}
}
