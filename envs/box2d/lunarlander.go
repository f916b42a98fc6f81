package box2d

import (
	"fmt"
	"image"
	"math"

	b2 "github.com/ByteArena/box2d"

	"github.com/rlpool/rlpool/envpool"
)

// LunarLander constants (Gymnasium lunar_lander.py): the world is the 600 x 400 pixel
// viewport at 30 pixels per unit.
const (
	llScale           = 30.0
	llMainPower       = 13.0
	llSidePower       = 0.6
	llInitialRandom   = 1000.0
	llLegAway         = 20.0
	llLegDown         = 18.0
	llLegW, llLegH    = 2.0, 8.0
	llLegSpringTorque = 40.0
	llSideHeight      = 14.0
	llSideAway        = 12.0
	llMainY           = 4.0
	llViewW, llViewH  = 600, 400
	llChunks          = 11
)

// llPoly is the lander's hull in pixels.
var llPoly = [...]float64{-14, 17, -17, 0, -17, -10, 17, -10, 17, 0, 14, 17}

// lunarLanderOptions are Gymnasium's LunarLander keyword arguments. continuous is
// fixed by the task id (LunarLanderContinuous-*) unless given.
type lunarLanderOptions struct {
	Continuous      bool    `toml:"continuous" help:"throttle actions Box(-1, 1, (2,)) instead of Discrete(4) (the LunarLanderContinuous ids set it)"`
	Gravity         float64 `toml:"gravity" range:"(-12,0)" help:"the moon's gravity, between -12 and 0 exclusive"`
	EnableWind      bool    `toml:"enable_wind" help:"push the lander with wind and turbulence while no leg touches the ground"`
	WindPower       float64 `toml:"wind_power" range:"[0,inf)" help:"largest sideways wind force (Gymnasium recommends 0 to 20)"`
	TurbulencePower float64 `toml:"turbulence_power" range:"[0,inf)" help:"largest turbulence torque (Gymnasium recommends 0 to 2)"`
}

func init() {
	for _, v := range []struct {
		id             string
		continuous, v2 bool
	}{
		{"LunarLander-v3", false, false}, {"LunarLander-v2", false, true},
		{"LunarLanderContinuous-v3", true, false}, {"LunarLanderContinuous-v2", true, true},
	} {
		def := lunarLanderOptions{Continuous: v.continuous, Gravity: -10, WindPower: 15, TurbulencePower: 1.5}
		register(v.id, 1000, 200, def, func(o lunarLanderOptions) (envpool.Spec, func(int64) envpool.Env, error) {
			return lunarLanderSpec(o.Continuous, v.v2), func(seed int64) envpool.Env { return newLunarLander(seed, o) }, nil
		})
	}
}

// lunarLanderSpec is Gymnasium's observation box (v3 widened v2's) and the discrete or
// continuous actions.
func lunarLanderSpec(continuous, v2 bool) envpool.Spec {
	tau := float32(2 * math.Pi)
	lo := []float32{-2.5, -2.5, -10, -10, -tau, -10, 0, 0}
	hi := []float32{2.5, 2.5, 10, 10, tau, 10, 1, 1}
	if v2 {
		lo = []float32{-1.5, -1.5, -5, -5, -math.Pi, -5, 0, 0}
		hi = []float32{1.5, 1.5, 5, 5, math.Pi, 5, 1, 1}
	}
	act := envpool.DiscreteSpace(4)
	if continuous {
		act = envpool.BoxSpace([]float32{-1, -1}, []float32{1, 1})
	}
	return envpool.Spec{ObsSpace: envpool.BoxSpace(lo, hi), ActionSpace: act, RenderWidth: llViewW, RenderHeight: llViewH}
}

// LunarLander is LunarLander-v3 (and -v2, the same dynamics in EnvPool): fire a main
// engine and two side engines to land on the pad between the flags.
//
// Its observation: x and y relative to the pad (in half-viewports), the velocities,
// the angle, the angular velocity and the two legs' contacts.
type LunarLander struct {
	episode
	vectorObs
	o lunarLanderOptions

	world   *b2.B2World
	moon    *b2.B2Body
	lander  *b2.B2Body
	legs    [2]*b2.B2Body
	contact [2]bool

	gameOver  bool
	shaping   potential
	helipadX1 float64
	helipadX2 float64
	helipadY  float64
	skyPolys  [llChunks - 1][8]float64
	windIdx   int
	torqueIdx int
}

func newLunarLander(seed int64, o lunarLanderOptions) *LunarLander {
	e := &LunarLander{episode: newEpisode(seed, actionSize(o.Continuous, 2)), vectorObs: newVectorObs(8), o: o}
	e.bind(e, fmt.Sprintf("LunarLander c=%v g=%v w=%v %v %v", o.Continuous, o.Gravity, o.EnableWind, o.WindPower, o.TurbulencePower))
	return e
}

// terrain draws the moon's surface: 12 heights in [0, H/2), the five around the
// middle flattened to the pad at H/4, then averaged over neighbours (the first point
// wraps around to the last height, as Python's index -1 does). It returns the chunks'
// x and smoothed y.
func (e *LunarLander) terrain() (xs, ys [llChunks]float64) {
	w, h := float64(llViewW)/llScale, float64(llViewH)/llScale
	var height [llChunks + 1]float64
	for i := range height {
		height[i] = e.uniform(0, h/2)
	}
	for i := range xs {
		xs[i] = w / (llChunks - 1) * float64(i)
	}
	e.helipadX1, e.helipadX2, e.helipadY = xs[llChunks/2-1], xs[llChunks/2+1], h/4
	for i := llChunks/2 - 2; i <= llChunks/2+2; i++ {
		height[i] = e.helipadY
	}
	for i := range ys {
		prev := height[(i-1+len(height))%len(height)]
		ys[i] = 0.33 * (prev + height[i] + height[i+1])
	}
	return xs, ys
}

// Reset builds a fresh world: the terrain, the lander at the top centre pushed by a
// random force, its two legs on spring motors, and takes one step with the engines off.
func (e *LunarLander) Reset() {
	e.begin()
	e.world = newWorld(0, e.o.Gravity)
	e.gameOver, e.shaping, e.contact = false, potential{}, [2]bool{}
	xs, ys := e.terrain()
	e.addMoon(xs, ys)
	fx := e.uniform(-llInitialRandom, llInitialRandom)
	fy := e.uniform(-llInitialRandom, llInitialRandom)
	if e.o.EnableWind {
		e.windIdx = e.rng.IntN(2*9999) - 9999
		e.torqueIdx = e.rng.IntN(2*9999) - 9999
	}
	e.addLander(fx, fy)
	e.physics(0, 0, 0) // no engine, in either action mode
}

// addMoon adds the ground: the screen's bottom edge and the surface through the
// chunks' points, with the sky above it for the picture.
func (e *LunarLander) addMoon(xs, ys [llChunks]float64) {
	width, height := float64(llViewW)/llScale, float64(llViewH)/llScale
	e.moon = newBody(e.world, b2.B2BodyType.B2_staticBody, 0, 0, 0)
	attach(e.moon, edge(0, 0, width, 0), defaultFixture(0))
	ground := defaultFixture(0)
	ground.friction = 0.1
	for i := 0; i < llChunks-1; i++ {
		attach(e.moon, edge(xs[i], ys[i], xs[i+1], ys[i+1]), ground)
		e.skyPolys[i] = [8]float64{xs[i], ys[i], xs[i+1], ys[i+1], xs[i+1], height, xs[i], height}
	}
}

// addLander adds the lander at the top centre, pushed by the force (fx, fy), with its
// two legs on spring motors, and listens for their contacts.
func (e *LunarLander) addLander(fx, fy float64) {
	x0, y0 := float64(llViewW)/llScale/2, float64(llViewH)/llScale
	e.lander = newBody(e.world, b2.B2BodyType.B2_dynamicBody, x0, y0, 0)
	attach(e.lander, polygon(1/llScale, llPoly[:]...), fixture{density: 5, friction: 0.1, category: 0x0010, mask: 0x0001})
	e.lander.ApplyForceToCenter(vec(fx, fy), true)
	for k, i := range [2]float64{-1, 1} {
		leg := newBody(e.world, b2.B2BodyType.B2_dynamicBody, x0-i*llLegAway/llScale, y0, i*0.05)
		attach(leg, box(llLegW/llScale, llLegH/llScale), fixture{density: 1, friction: 0.2, category: 0x0020, mask: 0x0001})
		r := revolute{
			anchorB:     vec(i*llLegAway/llScale, llLegDown/llScale),
			enableLimit: true, motor: true, maxTorque: llLegSpringTorque, motorSpeed: 0.3 * i,
		}
		if i < 0 {
			r.lower, r.upper = 0.9-0.5, 0.9
		} else {
			r.lower, r.upper = -0.9, -0.9+0.5
		}
		e.legs[k] = leg
		join(e.world, e.lander, leg, r)
	}
	e.world.SetContactListener(&hullContacts{hull: e.lander, down: &e.gameOver, feet: e.legs[:], touching: e.contact[:]})
}

// Step fires the engines the action asks for and advances the world by 1/50 s.
// Discrete: 0 nothing, 1 left engine, 2 main engine, 3 right engine (any other value
// does nothing). Continuous: main throttle (off below 0, 50% to 100% over [0, 1]) and
// lateral throttle (off within (-0.5, 0.5), left below, right above); values are
// clipped to [-1, 1] and NaN counts as 0.
func (e *LunarLander) Step(action []float32) envpool.StepResult {
	e.record(action)
	if e.o.Continuous {
		return e.physics(-1, clip(finite(float64(action[0])), -1, 1), clip(finite(float64(action[1])), -1, 1))
	}
	return e.physics(int(finite(float64(action[0]))), 0, 0)
}

// physics is one step: wind, the engines' impulses at their dispersed positions, the
// world step, the observation and the shaped reward. discrete is the discrete action,
// or -1 for the continuous throttles main and lateral.
func (e *LunarLander) physics(discrete int, main, lateral float64) envpool.StepResult {
	if e.o.EnableWind && !(e.contact[0] || e.contact[1]) {
		wind := math.Tanh(math.Sin(0.02*float64(e.windIdx))+math.Sin(math.Pi*0.01*float64(e.windIdx))) * e.o.WindPower
		e.windIdx++
		e.lander.ApplyForceToCenter(vec(wind, 0), true)
		torque := math.Tanh(math.Sin(0.02*float64(e.torqueIdx))+math.Sin(math.Pi*0.01*float64(e.torqueIdx))) * e.o.TurbulencePower
		e.torqueIdx++
		e.lander.ApplyTorque(torque, true)
	}

	angle := e.lander.GetAngle()
	tip := [2]float64{math.Sin(angle), math.Cos(angle)}
	side := [2]float64{-tip[1], tip[0]}
	disp := [2]float64{e.uniform(-1, 1) / llScale, e.uniform(-1, 1) / llScale}
	pos := e.lander.GetPosition()

	mPower := 0.0
	if (discrete < 0 && main > 0) || discrete == 2 {
		mPower = 1
		if discrete < 0 {
			mPower = (clip(main, 0, 1) + 1) * 0.5
		}
		ox := tip[0]*(llMainY/llScale+2*disp[0]) + side[0]*disp[1]
		oy := -tip[1]*(llMainY/llScale+2*disp[0]) - side[1]*disp[1]
		e.lander.ApplyLinearImpulse(vec(-ox*llMainPower*mPower, -oy*llMainPower*mPower), vec(pos.X+ox, pos.Y+oy), true)
	}

	sPower := 0.0
	if (discrete < 0 && math.Abs(lateral) > 0.5) || discrete == 1 || discrete == 3 {
		var dir float64
		if discrete < 0 {
			dir, sPower = sign(lateral), clip(math.Abs(lateral), 0.5, 1)
		} else {
			dir, sPower = float64(discrete-2), 1
		}
		ox := tip[0]*disp[0] + side[0]*(3*disp[1]+dir*llSideAway/llScale)
		oy := -tip[1]*disp[0] - side[1]*(3*disp[1]+dir*llSideAway/llScale)
		at := vec(pos.X+ox-tip[0]*17/llScale, pos.Y+oy+tip[1]*llSideHeight/llScale)
		e.lander.ApplyLinearImpulse(vec(-ox*llSidePower*sPower, -oy*llSidePower*sPower), at, true)
	}

	e.world.Step(1.0/fps, 6*30, 2*30)

	pos, vel := e.lander.GetPosition(), e.lander.GetLinearVelocity()
	halfW, halfH := float64(llViewW)/llScale/2, float64(llViewH)/llScale/2
	s := e.state
	s[0] = (pos.X - halfW) / halfW
	s[1] = (pos.Y - (e.helipadY + llLegDown/llScale)) / halfH
	s[2] = vel.X * halfW / fps
	s[3] = vel.Y * halfH / fps
	s[4] = e.lander.GetAngle()
	s[5] = 20 * e.lander.GetAngularVelocity() / fps
	s[6], s[7] = b2f(e.contact[0]), b2f(e.contact[1])

	shaping := -100*math.Sqrt(s[0]*s[0]+s[1]*s[1]) - 100*math.Sqrt(s[2]*s[2]+s[3]*s[3]) -
		100*math.Abs(s[4]) + 10*s[6] + 10*s[7]
	reward := e.shaping.change(shaping)
	reward -= mPower * 0.30
	reward -= sPower * 0.03

	terminated := false
	if e.gameOver || math.Abs(s[0]) >= 1 {
		terminated, reward = true, -100
	}
	if !e.lander.IsAwake() {
		terminated, reward = true, 100
	}
	return envpool.StepResult{Reward: float32(reward), Terminated: terminated}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Render draws the sky, the moon, the lander and its legs and the two flags as
// Gymnasium does (envpool.Renderer): 600 x 400.
func (e *LunarLander) Render() (image.Image, error) {
	c := scene(llViewW, llViewH, llScale, rgb(255, 255, 255))
	if e.world == nil {
		return c.img, nil
	}
	for _, p := range e.skyPolys {
		c.poly(rgb(0, 0, 0), p[:]...)
	}
	for _, b := range []*b2.B2Body{e.lander, e.legs[0], e.legs[1]} {
		drawBody(c, b, rgb(128, 102, 230), rgb(77, 77, 128))
	}
	for _, x := range []float64{e.helipadX1, e.helipadX2} {
		c.flag(x, e.helipadY, rgb(255, 255, 255), rgb(204, 204, 0))
	}
	return c.img, nil
}
