package box2d

import (
	"image/color"
	"math"

	b2 "github.com/ByteArena/box2d"
)

// The car of CarRacing (Gymnasium car_dynamics.py): a four-part hull and four wheels on
// revolute joints, the front two steered by their joint motors. Box2D carries the
// bodies; the tyres are modelled outside it: each wheel has a spin rate driven by the
// engine and brakes, and the difference between the wheel's rolling speed and its
// ground speed becomes a force capped by the friction of the surface under it.

// Car constants, in the car's units (SIZE maps them to world units).
const (
	carSize          = 0.02
	carEnginePower   = 100000000 * carSize * carSize
	carWheelMoment   = 4000 * carSize * carSize
	carFrictionLimit = 1000000 * carSize * carSize
	carWheelR        = 27.0
	carWheelW        = 14.0
)

var (
	carWheelPos = [4][2]float64{{-55, 80}, {55, 80}, {-55, -82}, {55, -82}}
	carHull     = [][]float64{
		{-60, 130, 60, 130, 60, 110, -60, 110},
		{-15, 120, 15, 120, 20, 20, -20, 20},
		{25, 20, 50, -10, 50, -40, 20, -90, -20, -90, -50, -40, -50, -10, -25, 20},
		{-50, -120, 50, -120, 50, -90, -50, -90},
	}
	carHullColor   = rgb(204, 0, 0)
	carWheelColor  = rgb(0, 0, 0)
	carWheelStripe = rgb(77, 77, 77)
)

// wheel is one of the car's wheels with its tyre state.
type wheel struct {
	body  *b2.B2Body
	joint *b2.B2RevoluteJoint
	gas   float64 // throttle, rising by at most 0.1 a step (rear wheels)
	brake float64
	steer float64 // target steering angle (front wheels)
	phase float64 // rotation angle, for the drawing's stripe
	omega float64 // spin rate
	tiles []*tile // road tiles the wheel touches
}

// car is the hull and its wheels.
type car struct {
	hull      *b2.B2Body
	wheels    [4]*wheel
	fuelSpent float64
}

// newCar puts a car at rest at (x, y) facing angle.
func newCar(w *b2.B2World, angle, x, y float64) *car {
	c := &car{hull: newBody(w, b2.B2BodyType.B2_dynamicBody, x, y, angle)}
	for _, part := range carHull {
		attach(c.hull, polygon(carSize, part...), defaultFixture(1))
	}
	for i, p := range carWheelPos {
		body := newBody(w, b2.B2BodyType.B2_dynamicBody, x+p[0]*carSize, y+p[1]*carSize, angle)
		attach(body, box(carWheelW*carSize, carWheelR*carSize), fixture{density: 0.1, friction: 0.2, category: 0x0020, mask: 0x0001})
		wh := &wheel{body: body}
		wh.joint = join(w, c.hull, body, revolute{
			anchorA:     vec(p[0]*carSize, p[1]*carSize),
			enableLimit: true, lower: -0.4, upper: 0.4,
			motor: true, maxTorque: 180 * 900 * carSize * carSize,
		})
		body.SetUserData(wh)
		c.wheels[i] = wh
	}
	return c
}

// setGas sets the rear wheels' throttle towards gas (clipped to [0, 1]): it rises by at
// most 0.1 a step and drops at once.
func (c *car) setGas(gas float64) {
	gas = clip(gas, 0, 1)
	for _, w := range c.wheels[2:] {
		w.gas += min(gas-w.gas, 0.1)
	}
}

// setBrake sets every wheel's brake: 0.9 and above locks the wheels.
func (c *car) setBrake(b float64) {
	for _, w := range c.wheels {
		w.brake = b
	}
}

// setSteer sets the front wheels' target angle; the joint motors turn them towards it.
func (c *car) setSteer(s float64) { c.wheels[0].steer, c.wheels[1].steer = s, s }

// step advances the tyres by dt: steering motors, engine, brakes, and each tyre's
// friction force on its wheel.
func (c *car) step(dt float64) {
	for _, w := range c.wheels {
		angle := w.joint.GetJointAngle()
		w.joint.SetMotorSpeed(sign(w.steer-angle) * math.Min(50*math.Abs(w.steer-angle), 3))

		limit := carFrictionLimit * 0.6 // grass, when no tile is under the wheel
		for range w.tiles {
			limit = math.Max(limit, carFrictionLimit*1.0) // every tile has road friction 1
		}
		forw := w.body.GetWorldVector(vec(0, 1))
		side := w.body.GetWorldVector(vec(1, 0))
		v := w.body.GetLinearVelocity()
		vf := forw.X*v.X + forw.Y*v.Y
		vs := side.X*v.X + side.Y*v.Y

		w.omega += dt * carEnginePower * w.gas / carWheelMoment / (math.Abs(w.omega) + 5)
		c.fuelSpent += dt * carEnginePower * w.gas
		if w.brake >= 0.9 {
			w.omega = 0
		} else if w.brake > 0 {
			const brakeForce = 15 // radians per second
			val := math.Min(brakeForce*w.brake, math.Abs(w.omega))
			w.omega += -sign(w.omega) * val
		}
		w.phase += w.omega * dt

		vr := w.omega * carWheelR * carSize // the tyre's rolling speed
		fForce := (-vf + vr) * 205000 * carSize * carSize
		pForce := -vs * 205000 * carSize * carSize
		if force := math.Hypot(fForce, pForce); force > limit {
			fForce, pForce = fForce/force*limit, pForce/force*limit
		}
		w.omega -= dt * fForce * carWheelR * carSize / carWheelMoment
		w.body.ApplyForceToCenter(vec(pForce*side.X+fForce*forw.X, pForce*side.Y+fForce*forw.Y), true)
	}
}

// draw paints the wheels (with their turning stripe) and the hull.
func (c *car) draw(cv *canvas) {
	for _, w := range c.wheels {
		drawBody(cv, w.body, carWheelColor, color.RGBA{})
		a1, a2 := w.phase, w.phase+1.2
		s1, s2, c1, c2 := math.Sin(a1), math.Sin(a2), math.Cos(a1), math.Cos(a2)
		if s1 > 0 && s2 > 0 {
			continue
		}
		if s1 > 0 {
			c1 = sign(c1)
		}
		if s2 > 0 {
			c2 = sign(c2)
		}
		xf := w.body.GetTransform()
		var xy []float64
		for _, p := range [4][2]float64{{-carWheelW, carWheelR * c1}, {carWheelW, carWheelR * c1}, {carWheelW, carWheelR * c2}, {-carWheelW, carWheelR * c2}} {
			q := b2.B2TransformVec2Mul(xf, vec(p[0]*carSize, p[1]*carSize))
			xy = append(xy, q.X, q.Y)
		}
		cv.poly(carWheelStripe, xy...)
	}
	drawBody(cv, c.hull, carHullColor, color.RGBA{})
}
