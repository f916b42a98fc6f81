package box2d

import (
	"image/color"

	b2 "github.com/ByteArena/box2d"
)

// Small builders over the Box2D port for what the tasks create: bodies and fixtures
// with box2d-py's defaults (friction 0.2, no restitution, category 1, mask all).

// newWorld returns an empty world with the given gravity that filters contacts by the
// fixtures' category and mask bits, as Box2D's default filter does. The Go port leaves
// its default filter unset (nil), so without this every pair of fixtures would
// collide whatever their bits say: the lander's and the walker's legs would push on
// each other, and the car's wheels too.
func newWorld(gx, gy float64) *b2.B2World {
	w := b2.MakeB2World(vec(gx, gy))
	w.SetContactFilter(&b2.B2ContactFilter{})
	return &w
}

// fixture is a fixture definition's settings besides its shape.
type fixture struct {
	density, friction, restitution float64
	category, mask                 uint16
	sensor                         bool
}

// defaultFixture is box2d-py's fixtureDef() with the given density.
func defaultFixture(density float64) fixture {
	return fixture{density: density, friction: 0.2, category: 0x0001, mask: 0xFFFF}
}

// newBody adds a body of the given type (b2.B2BodyType.*) at a position and angle.
func newBody(w *b2.B2World, typ uint8, x, y, angle float64) *b2.B2Body {
	def := b2.MakeB2BodyDef()
	def.Type = typ
	def.Position = vec(x, y)
	def.Angle = angle
	return w.CreateBody(&def)
}

// attach adds a fixture of the given shape to a body.
func attach(body *b2.B2Body, shape b2.B2ShapeInterface, f fixture) *b2.B2Fixture {
	def := b2.MakeB2FixtureDef()
	def.Shape = shape
	def.Density, def.Friction, def.Restitution = f.density, f.friction, f.restitution
	def.Filter.CategoryBits, def.Filter.MaskBits = f.category, f.mask
	def.IsSensor = f.sensor
	return body.CreateFixtureFromDef(&def)
}

// polygon returns the convex polygon shape through the given points (x0, y0, x1, y1,
// ...), each coordinate multiplied by scale (the tasks give their outlines in pixels).
func polygon(scale float64, xy ...float64) *b2.B2PolygonShape {
	vs := make([]b2.B2Vec2, 0, len(xy)/2)
	for i := 0; i+1 < len(xy); i += 2 {
		vs = append(vs, vec(xy[i]*scale, xy[i+1]*scale))
	}
	s := b2.NewB2PolygonShape()
	s.Set(vs, len(vs))
	return s
}

// box returns a rectangle of half-widths hx, hy centred on the body's origin.
func box(hx, hy float64) *b2.B2PolygonShape {
	s := b2.NewB2PolygonShape()
	s.SetAsBox(hx, hy)
	return s
}

// edge returns a segment shape.
func edge(x0, y0, x1, y1 float64) *b2.B2EdgeShape {
	s := b2.NewB2EdgeShape()
	s.Set(vec(x0, y0), vec(x1, y1))
	return s
}

// revolute is a revolute joint's settings: anchors in the bodies' frames, limits and
// motor.
type revolute struct {
	anchorA, anchorB      b2.B2Vec2
	lower, upper          float64
	enableLimit, motor    bool
	maxTorque, motorSpeed float64
}

// join adds a revolute joint between two bodies. Its reference angle is the bodies'
// angle difference at creation, as box2d-py's revoluteJointDef sets it when given both
// bodies (Box2D itself would leave it 0): the joint angle, its limits and the
// observations built on it count from the pose the bodies are created in.
func join(w *b2.B2World, a, b *b2.B2Body, r revolute) *b2.B2RevoluteJoint {
	def := b2.MakeB2RevoluteJointDef()
	def.BodyA, def.BodyB = a, b
	def.LocalAnchorA, def.LocalAnchorB = r.anchorA, r.anchorB
	def.ReferenceAngle = b.GetAngle() - a.GetAngle()
	def.EnableLimit, def.LowerAngle, def.UpperAngle = r.enableLimit, r.lower, r.upper
	def.EnableMotor, def.MaxMotorTorque, def.MotorSpeed = r.motor, r.maxTorque, r.motorSpeed
	return w.CreateJoint(&def).(*b2.B2RevoluteJoint)
}

// bodyPolygons returns a body's polygon fixtures in world coordinates, each as
// x0, y0, x1, y1, ...
func bodyPolygons(body *b2.B2Body) [][]float64 {
	xf := body.GetTransform()
	var out [][]float64
	for f := body.GetFixtureList(); f != nil; f = f.GetNext() {
		p, ok := f.GetShape().(*b2.B2PolygonShape)
		if !ok {
			continue
		}
		xy := make([]float64, 0, 2*p.M_count)
		for i := 0; i < p.M_count; i++ {
			v := b2.B2TransformVec2Mul(xf, p.M_vertices[i])
			xy = append(xy, v.X, v.Y)
		}
		out = append(out, xy)
	}
	return out
}

// drawBody fills a body's polygon fixtures with fill and, unless outline is fully
// transparent, outlines them.
func drawBody(c *canvas, body *b2.B2Body, fill, outline color.RGBA) {
	for _, xy := range bodyPolygons(body) {
		c.outlined(fill, outline, xy)
	}
}
