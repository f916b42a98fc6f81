package box2d

import (
	"fmt"
	"image"
	"math"

	b2 "github.com/ByteArena/box2d"

	"github.com/rlpool/rlpool/envpool"
)

// BipedalWalker constants (Gymnasium bipedal_walker.py), in world units (pixels / 30).
const (
	bwScale         = 30.0
	bwMotorsTorque  = 80.0
	bwSpeedHip      = 4.0
	bwSpeedKnee     = 6.0
	bwLidarRange    = 160 / bwScale
	bwInitialRandom = 5.0
	bwLegDown       = -8 / bwScale
	bwLegW, bwLegH  = 8 / bwScale, 34 / bwScale
	bwViewW         = 600
	bwViewH         = 400
	bwTerrainStep   = 14 / bwScale
	bwTerrainLength = 200 // in steps
	bwTerrainHeight = bwViewH / bwScale / 4
	bwTerrainGrass  = 10 // grass stretches last 5 to 9 steps
	bwStartPad      = 20 // flat steps at the start
	bwFriction      = 2.5
	bwLidars        = 10
)

// bwHull is the hull's outline in pixels.
var bwHull = [...]float64{-30, 9, 6, 9, 34, 1, 34, -8, -30, -8}

// The terrain generator's states.
const (
	bwGrass = iota
	bwStump
	bwStairs
	bwPit
	bwStates
)

// bipedalOptions are BipedalWalker's options: EnvPool's hardcore, which the
// BipedalWalkerHardcore id sets.
type bipedalOptions struct {
	Hardcore bool `toml:"hardcore" help:"terrain with stumps, stairs and pits (the BipedalWalkerHardcore id sets it)"`
}

func init() {
	build := func(o bipedalOptions) (envpool.Spec, func(int64) envpool.Env, error) {
		return bipedalSpec(), func(seed int64) envpool.Env { return newBipedalWalker(seed, o.Hardcore) }, nil
	}
	register("BipedalWalker-v3", 1600, 300, bipedalOptions{}, build)
	register("BipedalWalkerHardcore-v3", 2000, 300, bipedalOptions{Hardcore: true}, build)
}

// bipedalSpec is Gymnasium's observation box (hull, two legs, ten lidar fractions) and
// four motor torques in [-1, 1].
func bipedalSpec() envpool.Spec {
	pi := float32(math.Pi)
	hi := []float32{pi, 5, 5, 5, pi, 5, pi, 5, 5, pi, 5, pi, 5, 5}
	lo := []float32{-pi, -5, -5, -5, -pi, -5, -pi, -5, 0, -pi, -5, -pi, -5, 0}
	for range bwLidars {
		hi, lo = append(hi, 1), append(lo, -1)
	}
	act := envpool.UniformBox(-1, 1, envpool.Float32, 4)
	return envpool.Spec{ObsSpace: envpool.BoxSpace(lo, hi), ActionSpace: act, RenderWidth: bwViewW, RenderHeight: bwViewH}
}

// BipedalWalker is BipedalWalker-v3 and, with hardcore terrain, BipedalWalkerHardcore-v3:
// drive a two-legged walker's hip and knee motors to cross the terrain.
//
// Its observation: the hull's angle, angular and linear velocities, each leg's hip and
// knee angles and speeds and ground contact, and the ten lidar fractions.
type BipedalWalker struct {
	episode
	vectorObs
	hardcore bool

	world   *b2.B2World
	terrain []*b2.B2Body // the obstacles' and the ground edges' bodies
	hull    *b2.B2Body
	legs    [4]*b2.B2Body // upper left, lower left, upper right, lower right
	feet    [2]*b2.B2Body // the lower legs
	joints  [4]*b2.B2RevoluteJoint
	contact [2]bool // each lower leg's contact with the ground

	terrainX, terrainY []float64
	obstacles          [][]float64 // polygons of stumps, stairs and pit walls (x0, y0, ...)
	clouds             [][]float64 // cloud polygons, drawn with parallax

	gameOver bool
	shaping  potential
	scroll   float64
	lidar    [bwLidars]float64 // fraction of each ray's range to the first ground hit
}

func newBipedalWalker(seed int64, hardcore bool) *BipedalWalker {
	e := &BipedalWalker{episode: newEpisode(seed, 4), vectorObs: newVectorObs(24), hardcore: hardcore}
	e.bind(e, fmt.Sprintf("BipedalWalker hardcore=%v", hardcore))
	return e
}

// intN draws an integer from [lo, hi), as numpy's Generator.integers does.
func (e *episode) intN(lo, hi int) int { return lo + e.rng.IntN(hi-lo) }

// obstacle adds a static polygon of the terrain (a stump, a stair or a pit wall).
func (e *BipedalWalker) obstacle(xy ...float64) {
	body := newBody(e.world, b2.B2BodyType.B2_staticBody, 0, 0, 0)
	f := defaultFixture(0)
	f.friction = bwFriction
	attach(body, polygon(1, xy...), f)
	e.terrain = append(e.terrain, body)
	e.obstacles = append(e.obstacles, xy)
}

// generateTerrain walks 200 steps of terrain: grass that drifts back towards the base
// height, and in hardcore mode stumps, stairs and pits between grass stretches. It adds
// the obstacles and the ground edges to the world and fills terrainX, terrainY.
func (e *BipedalWalker) generateTerrain() {
	const step = bwTerrainStep
	state, oneshot := bwGrass, false
	velocity, y := 0.0, float64(bwTerrainHeight)
	counter := bwStartPad
	var stairSteps, stairWidth, stairHeight int
	originalY := 0.0
	e.terrainX, e.terrainY = e.terrainX[:0], e.terrainY[:0]
	for i := range bwTerrainLength {
		x := float64(i) * step
		e.terrainX = append(e.terrainX, x)
		switch {
		case state == bwGrass && !oneshot:
			velocity = 0.8*velocity + 0.01*sign(bwTerrainHeight-y)
			if i > bwStartPad {
				velocity += e.uniform(-1, 1) / bwScale
			}
			y += velocity
		case state == bwPit && oneshot:
			counter = e.intN(3, 5)
			e.obstacle(x, y, x+step, y, x+step, y-4*step, x, y-4*step)
			dx := step * float64(counter)
			e.obstacle(x+dx, y, x+step+dx, y, x+step+dx, y-4*step, x+dx, y-4*step)
			counter += 2
			originalY = y
		case state == bwPit && !oneshot:
			y = originalY
			if counter > 1 {
				y -= 4 * step
			}
		case state == bwStump && oneshot:
			counter = e.intN(1, 3)
			s := float64(counter) * step
			e.obstacle(x, y, x+s, y, x+s, y+s, x, y+s)
		case state == bwStairs && oneshot:
			stairHeight = -1
			if e.rng.Float64() > 0.5 {
				stairHeight = 1
			}
			stairWidth = e.intN(4, 5)
			stairSteps = e.intN(3, 5)
			originalY = y
			for s := range stairSteps {
				x0 := x + float64(s*stairWidth)*step
				x1 := x + float64((1+s)*stairWidth)*step
				y0 := y + float64(s*stairHeight)*step
				y1 := y + float64(-1+s*stairHeight)*step
				e.obstacle(x0, y0, x1, y0, x1, y1, x0, y1)
			}
			counter = stairSteps * stairWidth
		case state == bwStairs && !oneshot:
			s := stairSteps*stairWidth - counter - stairHeight
			n := float64(s) / float64(stairWidth)
			y = originalY + n*float64(stairHeight)*step
		}
		oneshot = false
		e.terrainY = append(e.terrainY, y)
		counter--
		if counter == 0 {
			counter = e.intN(bwTerrainGrass/2, bwTerrainGrass)
			if state == bwGrass && e.hardcore {
				state = e.intN(1, bwStates)
			} else {
				state = bwGrass
			}
			oneshot = true
		}
	}
	ground := defaultFixture(0)
	ground.friction = bwFriction
	for i := 0; i < bwTerrainLength-1; i++ {
		body := newBody(e.world, b2.B2BodyType.B2_staticBody, 0, 0, 0)
		attach(body, edge(e.terrainX[i], e.terrainY[i], e.terrainX[i+1], e.terrainY[i+1]), ground)
		e.terrain = append(e.terrain, body)
	}
}

// generateClouds draws ten five-point clouds three quarters up the sky.
func (e *BipedalWalker) generateClouds() {
	e.clouds = e.clouds[:0]
	for range bwTerrainLength / 20 {
		x := e.uniform(0, bwTerrainLength) * bwTerrainStep
		y := float64(bwViewH) / bwScale * 3 / 4
		var poly []float64
		for a := range 5 {
			px := x + 15*bwTerrainStep*math.Sin(3.14*2*float64(a)/5) + e.uniform(0, 5*bwTerrainStep)
			py := y + 5*bwTerrainStep*math.Cos(3.14*2*float64(a)/5) + e.uniform(0, 5*bwTerrainStep)
			poly = append(poly, px, py)
		}
		e.clouds = append(e.clouds, poly)
	}
}

// Reset builds a fresh world: terrain, clouds, the hull pushed sideways at random, and
// the two legs of two segments each on motor-driven revolute joints; then it steps once
// with the motors off.
func (e *BipedalWalker) Reset() {
	e.begin()
	e.world = newWorld(0, -10)
	e.terrain, e.obstacles = e.terrain[:0], e.obstacles[:0]
	e.gameOver, e.shaping, e.scroll, e.contact = false, potential{}, 0, [2]bool{}

	e.generateTerrain()
	e.generateClouds()

	x0, y0 := bwTerrainStep*bwStartPad/2, bwTerrainHeight+2*bwLegH
	e.hull = newBody(e.world, b2.B2BodyType.B2_dynamicBody, x0, y0, 0)
	attach(e.hull, polygon(1/bwScale, bwHull[:]...), fixture{density: 5, friction: 0.1, category: 0x0020, mask: 0x0001})
	e.hull.ApplyForceToCenter(vec(e.uniform(-bwInitialRandom, bwInitialRandom), 0), true)

	limb := fixture{density: 1, friction: 0.2, category: 0x0020, mask: 0x0001}
	for k, i := range [2]float64{-1, 1} {
		upper := newBody(e.world, b2.B2BodyType.B2_dynamicBody, x0, y0-bwLegH/2-bwLegDown, i*0.05)
		attach(upper, box(bwLegW/2, bwLegH/2), limb)
		e.joints[2*k] = join(e.world, e.hull, upper, revolute{
			anchorA: vec(0, bwLegDown), anchorB: vec(0, bwLegH/2),
			enableLimit: true, lower: -0.8, upper: 1.1,
			motor: true, maxTorque: bwMotorsTorque, motorSpeed: i,
		})
		lower := newBody(e.world, b2.B2BodyType.B2_dynamicBody, x0, y0-bwLegH*3/2-bwLegDown, i*0.05)
		attach(lower, box(0.8*bwLegW/2, bwLegH/2), limb)
		e.joints[2*k+1] = join(e.world, upper, lower, revolute{
			anchorA: vec(0, -bwLegH/2), anchorB: vec(0, bwLegH/2),
			enableLimit: true, lower: -1.6, upper: -0.1,
			motor: true, maxTorque: bwMotorsTorque, motorSpeed: 1,
		})
		e.legs[2*k], e.legs[2*k+1] = upper, lower
	}
	e.feet = [2]*b2.B2Body{e.legs[1], e.legs[3]}
	e.world.SetContactListener(&hullContacts{hull: e.hull, down: &e.gameOver, feet: e.feet[:], touching: e.contact[:]})
	e.physics([4]float64{})
}

// Step sets each motor's speed to its maximum in the direction of the action's sign and
// its torque limit to 80 times the action's magnitude (clipped to 1), then advances the
// world by 1/50 s. NaN counts as 0.
func (e *BipedalWalker) Step(action []float32) envpool.StepResult {
	e.record(action)
	var a [4]float64
	for i := range a {
		a[i] = finite(float64(action[i]))
	}
	return e.physics(a)
}

// physics is one step: motors, world step, lidar, observation and reward.
func (e *BipedalWalker) physics(a [4]float64) envpool.StepResult {
	for i, j := range e.joints {
		speed := bwSpeedHip
		if i%2 == 1 {
			speed = bwSpeedKnee
		}
		j.SetMotorSpeed(speed * sign(a[i]))
		j.SetMaxMotorTorque(bwMotorsTorque * clip(math.Abs(a[i]), 0, 1))
	}
	e.world.Step(1.0/fps, 6*30, 2*30)

	pos, vel := e.hull.GetPosition(), e.hull.GetLinearVelocity()
	for i := range e.lidar {
		e.lidar[i] = 1
		end := vec(pos.X+math.Sin(1.5*float64(i)/10)*bwLidarRange, pos.Y-math.Cos(1.5*float64(i)/10)*bwLidarRange)
		e.world.RayCast(func(f *b2.B2Fixture, _, _ b2.B2Vec2, fraction float64) float64 {
			if f.GetFilterData().CategoryBits&1 == 0 {
				return -1
			}
			e.lidar[i] = fraction
			return fraction
		}, pos, end)
	}

	s := e.state
	s[0] = e.hull.GetAngle()
	s[1] = 2 * e.hull.GetAngularVelocity() / fps
	s[2] = 0.3 * vel.X * (bwViewW / bwScale) / fps
	s[3] = 0.3 * vel.Y * (bwViewH / bwScale) / fps
	for k := range 2 {
		hip, knee := e.joints[2*k], e.joints[2*k+1]
		o := s[4+5*k:]
		o[0] = hip.GetJointAngle()
		o[1] = hip.GetJointSpeed() / bwSpeedHip
		o[2] = knee.GetJointAngle() + 1
		o[3] = knee.GetJointSpeed() / bwSpeedKnee
		o[4] = b2f(e.contact[k])
	}
	copy(s[14:], e.lidar[:])
	e.scroll = pos.X - bwViewW/bwScale/5

	shaping := 130*pos.X/bwScale - 5*math.Abs(s[0])
	reward := e.shaping.change(shaping)
	for _, v := range a {
		reward -= 0.00035 * bwMotorsTorque * clip(math.Abs(v), 0, 1)
	}
	terminated := false
	if e.gameOver || pos.X < 0 {
		reward, terminated = -100, true
	}
	if pos.X > (bwTerrainLength-bwTerrainGrass)*bwTerrainStep {
		terminated = true
	}
	return envpool.StepResult{Reward: float32(reward), Terminated: terminated}
}

// Render draws the sky, the clouds (at half the scroll), the terrain, the walker and
// the start flag, following the walker as Gymnasium does (envpool.Renderer): 600 x 400.
func (e *BipedalWalker) Render() (image.Image, error) {
	c := scene(bwViewW, bwViewH, bwScale, rgb(215, 215, 255))
	if e.world == nil {
		return c.img, nil
	}
	scroll := max(e.scroll, 0)
	c.ox = -scroll * bwScale
	for _, p := range e.clouds {
		moved := make([]float64, len(p))
		for i := 0; i < len(p); i += 2 {
			moved[i], moved[i+1] = p[i]+scroll/2, p[i+1]
		}
		c.poly(rgb(255, 255, 255), moved...)
	}
	for i := 0; i+1 < len(e.terrainX); i++ {
		x0, x1 := e.terrainX[i], e.terrainX[i+1]
		if x1 < scroll || x0 > scroll+bwViewW/bwScale {
			continue
		}
		c.poly(rgb(102, 153, 76), x0, e.terrainY[i], x1, e.terrainY[i+1], x1, 0, x0, 0)
		green := rgb(76, 255, 76)
		if i%2 == 1 {
			green = rgb(76, 204, 76)
		}
		c.line(green, 1, x0, e.terrainY[i], x1, e.terrainY[i+1])
	}
	for _, p := range e.obstacles {
		c.outlined(rgb(255, 255, 255), rgb(153, 153, 153), p)
	}
	for i, leg := range e.legs {
		d := uint8(25)
		if i >= 2 { // the right legs (i = +1) are darker
			drawBody(c, leg, rgb(153-d, 76-d, 127-d), rgb(102-d, 51-d, 76-d))
		} else {
			drawBody(c, leg, rgb(153+d, 76+d, 127+d), rgb(102+d, 51+d, 76+d))
		}
	}
	drawBody(c, e.hull, rgb(127, 51, 229), rgb(76, 76, 127))
	c.flag(bwTerrainStep*3, bwTerrainHeight, rgb(0, 0, 0), rgb(230, 51, 0))
	return c.img, nil
}
