package box2d

import (
	"fmt"
	"image"
	"image/color"
	"math"

	b2 "github.com/ByteArena/box2d"

	"github.com/rlpool/rlpool/envpool"
)

// CarRacing constants (Gymnasium car_racing.py), in world units.
const (
	crStateW, crStateH = 96, 96
	crVideoW, crVideoH = 600, 400
	crWindowW          = 1000
	crWindowH          = 800
	crScale            = 6.0
	crTrackRad         = 900 / crScale
	crPlayfield        = 2000 / crScale
	crZoom             = 2.7
	crDetailStep       = 21 / crScale
	crTurnRate         = 0.31
	crTrackWidth       = 40 / crScale
	crBorder           = 8 / crScale
	crBorderMinCount   = 4
	crGrassDim         = crPlayfield / 20.0
	crCheckpoints      = 12
)

// carRacingOptions are Gymnasium's CarRacing keyword arguments (EnvPool takes
// lap_complete_percent).
type carRacingOptions struct {
	LapCompletePercent float64 `toml:"lap_complete_percent" range:"[0,1]" help:"fraction of the tiles to visit before crossing the start ends the lap"`
	DomainRandomize    bool    `toml:"domain_randomize" help:"draw the road, background and grass colours at random on every reset"`
	Continuous         bool    `toml:"continuous" help:"actions (steer, gas, brake) in Box([-1, 0, 0], [1, 1, 1]); false: Discrete(5)"`
	// rlpool's options for CNN policies, as the Atari family names them.
	FrameSkip int  `toml:"frame_skip" range:"[1,50]" help:"frames per step: the action is repeated and the rewards summed; the time limit stays 1000 frames (1000 / frame_skip steps, rounded up)"`
	StackNum  int  `toml:"stack_num" range:"[1,32]" help:"observe the last stack_num pictures, channels first (stack_num x channels x 96 x 96), as a CNN policy reads them"`
	GrayScale bool `toml:"gray_scale" help:"observe one grey channel per picture (ITU-R 601 luma) instead of RGB, channels first"`
}

// channelsFirst reports whether the observation is the stacked channels-first
// pictures of a CNN policy rather than Gymnasium's one 96 x 96 x 3 picture.
func (o carRacingOptions) channelsFirst() bool { return o.GrayScale || o.StackNum > 1 }

// channels is the number of channels of one picture.
func (o carRacingOptions) channels() int {
	if o.GrayScale {
		return 1
	}
	return 3
}

func init() {
	for _, id := range []string{"CarRacing-v3", "CarRacing-v2"} {
		def := carRacingOptions{LapCompletePercent: 0.95, Continuous: true, FrameSkip: 1, StackNum: 1}
		register(id, 1000, 900, def, func(o carRacingOptions) (envpool.Spec, func(int64) envpool.Env, error) {
			return carRacingSpec(o), func(seed int64) envpool.Env { return newCarRacing(seed, o) }, nil
		})
	}
}

// carRacingSpec is the 96 x 96 RGB picture (or the stacked pictures) and the
// continuous or discrete actions; with frame skipping, a step is frame_skip frames
// and the time limit 1000 frames in steps.
func carRacingSpec(o carRacingOptions) envpool.Spec {
	act := envpool.DiscreteSpace(5)
	if o.Continuous {
		act = envpool.BoxSpace([]float32{-1, 0, 0}, []float32{1, 1, 1})
	}
	obs := envpool.UniformBox(0, 255, envpool.Uint8, crStateH, crStateW, 3)
	if o.channelsFirst() {
		obs = envpool.UniformBox(0, 255, envpool.Uint8, o.StackNum*o.channels(), crStateH, crStateW)
	}
	return envpool.Spec{
		ObsSpace: obs, ActionSpace: act, RenderWidth: crVideoW, RenderHeight: crVideoH,
		MaxEpisodeSteps: (1000 + o.FrameSkip - 1) / o.FrameSkip, FrameSkip: o.FrameSkip,
	}
}

// trackPoint is one point of the generated centre line: its angle around the centre,
// the track's heading there, and its position.
type trackPoint struct{ alpha, beta, x, y float64 }

// tile is one quadrilateral piece of road, a sensor the wheels report touching.
type tile struct {
	idx     int
	visited bool
	poly    [8]float64
	color   [3]float64
}

// border is a red or white kerb drawn on the outside of a sharp turn.
type border struct {
	poly [8]float64
	red  bool
}

// CarRacing is CarRacing-v3 (and -v2, the same task in EnvPool): drive a top-down car
// around a random closed track seen from above, rewarded for each new road tile.
type CarRacing struct {
	episode
	o carRacingOptions

	world   *b2.B2World
	car     *car
	track   []trackPoint
	tiles   []*tile
	borders []border

	roadColor, bgColor, grassColor [3]float64

	reward, prevReward float64
	visitedCount       int
	newLap             bool
	t                  float64

	obs   *canvas // the 96 x 96 observation, drawn in Observe
	video *canvas // the 600 x 400 picture for people
	// stack holds the last stack_num pictures, oldest first, each channels x 96 x 96,
	// when the observation is channels first; a picture is pushed after each reset and
	// step, so that saved states (which replay steps) rebuild it.
	stack []uint8
}

func newCarRacing(seed int64, o carRacingOptions) *CarRacing {
	e := &CarRacing{episode: newEpisode(seed, actionSize(o.Continuous, 3)), o: o}
	e.bind(e, fmt.Sprintf("CarRacing c=%v r=%v l=%v", o.Continuous, o.DomainRandomize, o.LapCompletePercent))
	e.roadColor, e.bgColor, e.grassColor = [3]float64{102, 102, 102}, [3]float64{102, 204, 102}, [3]float64{102, 230, 102}
	return e
}

// crContacts is the world's contact listener: a tile touched by anything takes the
// road's colour; a wheel touching a tile first visits it (+1000/N reward) and counts
// it for its friction.
type crContacts struct {
	quietSolve
	e *CarRacing
}

func (l crContacts) contact(c b2.B2ContactInterface, begin bool) {
	u1, u2 := c.GetFixtureA().GetBody().GetUserData(), c.GetFixtureB().GetBody().GetUserData()
	t, ok := u1.(*tile)
	obj := u2
	if t2, ok2 := u2.(*tile); ok2 {
		t, ok, obj = t2, true, u1
	}
	if !ok {
		return
	}
	t.color = l.e.roadColor
	w, ok := obj.(*wheel)
	if !ok {
		return
	}
	if !begin {
		for i, x := range w.tiles {
			if x == t {
				w.tiles = append(w.tiles[:i], w.tiles[i+1:]...)
				break
			}
		}
		return
	}
	w.tiles = append(w.tiles, t)
	if t.visited {
		return
	}
	t.visited = true
	e := l.e
	e.reward += 1000.0 / float64(len(e.track))
	e.visitedCount++
	if t.idx == 0 && float64(e.visitedCount)/float64(len(e.track)) > e.o.LapCompletePercent {
		e.newLap = true
	}
}

func (l crContacts) BeginContact(c b2.B2ContactInterface) { l.contact(c, true) }
func (l crContacts) EndContact(c b2.B2ContactInterface)   { l.contact(c, false) }

// randomColors draws the domain-randomised colours: road and background uniform in
// [0, 210), grass the background with one channel 20 brighter.
func (e *CarRacing) randomColors() {
	for i := range 3 {
		e.roadColor[i] = e.uniform(0, 210)
	}
	for i := range 3 {
		e.bgColor[i] = e.uniform(0, 210)
	}
	e.grassColor = e.bgColor
	e.grassColor[e.rng.IntN(3)] += 20
}

// createTrack generates a track: twelve checkpoints at random angles and radii around
// the centre, a centre line that steers towards the next checkpoint lap after lap, one
// lap of it cut out between two passes through the start, and tiles and kerbs built
// along it. It reports false when the lap does not close up, and the caller retries.
func (e *CarRacing) createTrack() bool {
	type checkpoint struct{ alpha, x, y float64 }
	var cps [crCheckpoints]checkpoint
	startAlpha := 0.0
	for c := range crCheckpoints {
		noise := e.uniform(0, 2*math.Pi*1/crCheckpoints)
		alpha := 2*math.Pi*float64(c)/crCheckpoints + noise
		rad := e.uniform(crTrackRad/3, crTrackRad)
		if c == 0 {
			alpha, rad = 0, 1.5*crTrackRad
		}
		if c == crCheckpoints-1 {
			alpha = 2 * math.Pi * float64(c) / crCheckpoints
			startAlpha = 2 * math.Pi * (-0.5) / crCheckpoints
			rad = 1.5 * crTrackRad
		}
		cps[c] = checkpoint{alpha, rad * math.Cos(alpha), rad * math.Sin(alpha)}
	}

	x, y, beta := 1.5*crTrackRad, 0.0, 0.0
	destI, laps := 0, 0
	var track []trackPoint
	visitedOtherSide := false
	for noFreeze := 2500; noFreeze > 0; noFreeze-- {
		alpha := math.Atan2(y, x)
		if visitedOtherSide && alpha > 0 {
			laps++
			visitedOtherSide = false
		}
		if alpha < 0 {
			visitedOtherSide = true
			alpha += 2 * math.Pi
		}
		var dest checkpoint
		for {
			failed := true
			for {
				dest = cps[destI%crCheckpoints]
				if alpha <= dest.alpha {
					failed = false
					break
				}
				destI++
				if destI%crCheckpoints == 0 {
					break
				}
			}
			if !failed {
				break
			}
			alpha -= 2 * math.Pi
		}
		r1x, r1y := math.Cos(beta), math.Sin(beta)
		p1x, p1y := -r1y, r1x
		proj := r1x*(dest.x-x) + r1y*(dest.y-y)
		for beta-alpha > 1.5*math.Pi {
			beta -= 2 * math.Pi
		}
		for beta-alpha < -1.5*math.Pi {
			beta += 2 * math.Pi
		}
		prevBeta := beta
		proj *= crScale
		if proj > 0.3 {
			beta -= math.Min(crTurnRate, math.Abs(0.001*proj))
		}
		if proj < -0.3 {
			beta += math.Min(crTurnRate, math.Abs(0.001*proj))
		}
		x += p1x * crDetailStep
		y += p1y * crDetailStep
		track = append(track, trackPoint{alpha, prevBeta*0.5 + beta*0.5, x, y})
		if laps > 4 {
			break
		}
	}

	// Cut one lap: between the last two passes through the start angle.
	i1, i2 := -1, -1
	for i := len(track) - 1; ; i-- {
		if i <= 0 {
			return false
		}
		through := track[i].alpha > startAlpha && track[i-1].alpha <= startAlpha
		if through && i2 == -1 {
			i2 = i
		} else if through && i1 == -1 {
			i1 = i
			break
		}
	}
	track = track[i1 : i2-1]
	if len(track) < crBorderMinCount+1 {
		return false
	}
	first := track[0]
	last := track[len(track)-1]
	glue := math.Hypot(math.Cos(first.beta)*(first.x-last.x), math.Sin(first.beta)*(first.y-last.y))
	if glue > crDetailStep {
		return false
	}

	n := len(track)
	at := func(i int) trackPoint { return track[((i%n)+n)%n] }
	kerb := make([]bool, n)
	for i := range track {
		good, oneSide := true, 0.0
		for neg := range crBorderMinCount {
			b1, b2 := at(i-neg).beta, at(i-neg-1).beta
			good = good && math.Abs(b1-b2) > crTurnRate*0.2
			oneSide += sign(b1 - b2)
		}
		kerb[i] = good && math.Abs(oneSide) == crBorderMinCount
	}
	for i := range track {
		for neg := range crBorderMinCount {
			kerb[((i-neg)%n+n)%n] = kerb[((i-neg)%n+n)%n] || kerb[i]
		}
	}

	e.tiles, e.borders = e.tiles[:0], e.borders[:0]
	for i := range track {
		p1, p2 := track[i], at(i-1)
		c1, s1, c2, s2 := math.Cos(p1.beta), math.Sin(p1.beta), math.Cos(p2.beta), math.Sin(p2.beta)
		poly := [8]float64{
			p1.x - crTrackWidth*c1, p1.y - crTrackWidth*s1,
			p1.x + crTrackWidth*c1, p1.y + crTrackWidth*s1,
			p2.x + crTrackWidth*c2, p2.y + crTrackWidth*s2,
			p2.x - crTrackWidth*c2, p2.y - crTrackWidth*s2,
		}
		body := newBody(e.world, b2.B2BodyType.B2_staticBody, 0, 0, 0)
		f := defaultFixture(0)
		f.sensor = true
		attach(body, polygon(1, poly[:]...), f)
		shade := 0.01 * float64(i%3) * 255
		t := &tile{idx: i, poly: poly}
		for k := range t.color {
			t.color[k] = e.roadColor[k] + shade
		}
		body.SetUserData(t)
		e.tiles = append(e.tiles, t)
		if kerb[i] {
			side := sign(p2.beta - p1.beta)
			w1, w2 := side*crTrackWidth, side*(crTrackWidth+crBorder)
			e.borders = append(e.borders, border{red: i%2 == 1, poly: [8]float64{
				p1.x + w1*c1, p1.y + w1*s1,
				p1.x + w2*c1, p1.y + w2*s1,
				p2.x + w2*c2, p2.y + w2*s2,
				p2.x + w1*c2, p2.y + w1*s2,
			}})
		}
	}
	e.track = track
	return true
}

// Reset generates a new track (retrying until one closes up), puts the car at rest
// on the first tile facing along the track, and takes one step with no action.
func (e *CarRacing) Reset() {
	e.begin()
	e.reward, e.prevReward, e.visitedCount, e.t, e.newLap = 0, 0, 0, 0, false
	if e.o.DomainRandomize {
		e.randomColors()
	}
	for {
		e.world = newWorld(0, 0)
		e.world.SetContactListener(crContacts{e: e})
		if e.createTrack() {
			break
		}
	}
	start := e.track[0]
	e.car = newCar(e.world, start.beta, start.x, start.y)
	e.advance()
	if e.o.channelsFirst() {
		e.pushPicture(true)
	}
}

// advance steps the car's tyres and the world by one frame.
func (e *CarRacing) advance() {
	e.car.step(1.0 / fps)
	e.world.Step(1.0/fps, 6*30, 2*30)
	e.t += 1.0 / fps
}

// Step applies an action for frame_skip frames (one by default), summing their
// rewards and stopping at the episode's end. A frame: continuous: steer (-1 full left to 1
// full right), gas (clipped to [0, 1]), brake (0.9 and above locks the wheels); NaN
// counts as 0. Discrete: 0 nothing, 1 steer right, 2 steer left, 3 gas, 4 brake (other
// values do nothing). The reward is -0.1 a frame plus 1000/N for each new tile of the
// N; leaving the playfield ends the episode with -100, and so does finishing the lap
// (with the tiles' reward).
func (e *CarRacing) Step(action []float32) envpool.StepResult {
	e.record(action)
	var res envpool.StepResult
	for range e.o.FrameSkip {
		r := e.frame(action)
		res.Reward += r.Reward
		if res.Terminated = r.Terminated; res.Terminated {
			break
		}
	}
	if e.o.channelsFirst() {
		e.pushPicture(false)
	}
	return res
}

// frame applies an action for one frame.
func (e *CarRacing) frame(action []float32) envpool.StepResult {
	if e.o.Continuous {
		e.car.setSteer(-finite(float64(action[0])))
		e.car.setGas(finite(float64(action[1])))
		e.car.setBrake(finite(float64(action[2])))
	} else {
		a := finite(float64(action[0]))
		e.car.setSteer(-0.6*b2f(a == 1) + 0.6*b2f(a == 2))
		e.car.setGas(0.2 * b2f(a == 3))
		e.car.setBrake(0.8 * b2f(a == 4))
	}
	e.advance()

	e.reward -= 0.1
	e.car.fuelSpent = 0
	r := e.reward - e.prevReward
	e.prevReward = e.reward
	terminated := e.visitedCount == len(e.track) || e.newLap
	pos := e.car.hull.GetPosition()
	if math.Abs(pos.X) > crPlayfield || math.Abs(pos.Y) > crPlayfield {
		terminated, r = true, -100
	}
	return envpool.StepResult{Reward: float32(r), Terminated: terminated}
}

// Observe draws the 96 x 96 view that follows the car (Gymnasium's state_pixels) into
// obs, as height x width x RGB bytes, or copies the stacked channels-first pictures.
func (e *CarRacing) Observe(obs envpool.Obs, _ []float32) {
	if e.o.channelsFirst() {
		copy(obs.U8, e.stack)
		return
	}
	pix := e.picture()
	for i, j := 0, 0; i < len(pix); i, j = i+4, j+3 {
		obs.U8[j], obs.U8[j+1], obs.U8[j+2] = pix[i], pix[i+1], pix[i+2]
	}
}

// picture draws the 96 x 96 view and returns its RGBA bytes.
func (e *CarRacing) picture() []uint8 {
	if e.obs == nil {
		e.obs = newCanvas(crStateW, crStateH, 1)
	}
	e.draw(e.obs)
	return e.obs.img.Pix
}

// pushPicture draws the view and appends it, channels first, to the stack, dropping
// the oldest picture; after a reset (fill), the first picture fills every slot.
func (e *CarRacing) pushPicture(fill bool) {
	pix := e.picture()
	c, n := e.o.channels(), crStateW*crStateH
	size := c * n
	if e.stack == nil {
		e.stack = make([]uint8, e.o.StackNum*size)
	}
	copy(e.stack, e.stack[size:])
	dst := e.stack[len(e.stack)-size:]
	for k := range n {
		r, g, b := pix[4*k], pix[4*k+1], pix[4*k+2]
		if c == 1 {
			dst[k] = luma(r, g, b)
		} else {
			dst[k], dst[n+k], dst[2*n+k] = r, g, b
		}
	}
	if fill {
		for i := 0; i < len(e.stack)-size; i += size {
			copy(e.stack[i:i+size], dst)
		}
	}
}

// luma is a pixel's grey level by ITU-R BT.601 (0.299 R + 0.587 G + 0.114 B), rounded
// to nearest, as OpenCV's RGB-to-grey conversion gives it.
func luma(r, g, b uint8) uint8 {
	return uint8((299*int(r) + 587*int(g) + 114*int(b) + 500) / 1000)
}

// Render draws the same view at 600 x 400 (Gymnasium's rgb_array) (envpool.Renderer).
func (e *CarRacing) Render() (image.Image, error) {
	if e.video == nil {
		e.video = newCanvas(crVideoW, crVideoH, 1)
	}
	e.draw(e.video)
	return e.video.img, nil
}

// toRGB rounds a colour down to bytes, as Gymnasium's int() does.
func toRGB(c [3]float64) color.RGBA {
	return rgb(uint8(clip(c[0], 0, 255)), uint8(clip(c[1], 0, 255)), uint8(clip(c[2], 0, 255)))
}

// draw paints the view of Gymnasium's 1000 x 800 window, squeezed into the canvas:
// the car a quarter of the way up from the bottom, the road turned so that the car
// points up, zoomed in over the first second; then the indicator bar.
func (e *CarRacing) draw(c *canvas) {
	if e.car == nil { // not reset yet
		c.fill(rgb(0, 0, 0))
		return
	}
	sx, sy := float64(c.width)/crWindowW, float64(c.height)/crWindowH
	zoom := 0.1*crScale*math.Max(1-e.t, 0) + crZoom*crScale*math.Min(e.t, 1)
	angle := -e.car.hull.GetAngle()
	c.cosA, c.sinA = math.Cos(angle), math.Sin(angle)
	pos := e.car.hull.GetPosition()
	rx, ry := pos.X*c.cosA-pos.Y*c.sinA, pos.X*c.sinA+pos.Y*c.cosA
	c.zx, c.zy = zoom*sx, zoom*sy
	c.ox = sx * (crWindowW/2 - zoom*rx)
	c.oy = sy * (crWindowH - crWindowH/4 + zoom*ry)

	c.fill(toRGB(e.bgColor))
	grass := toRGB(e.grassColor)
	for x := -20; x < 20; x += 2 {
		for y := -20; y < 20; y += 2 {
			x0, y0 := crGrassDim*float64(x), crGrassDim*float64(y)
			c.poly(grass, x0+crGrassDim, y0, x0, y0, x0, y0+crGrassDim, x0+crGrassDim, y0+crGrassDim)
		}
	}
	for _, t := range e.tiles {
		c.poly(toRGB(t.color), t.poly[:]...)
	}
	for _, b := range e.borders {
		col := rgb(255, 255, 255)
		if b.red {
			col = rgb(255, 0, 0)
		}
		c.poly(col, b.poly[:]...)
	}
	e.car.draw(c)
	e.indicators(c, sx, sy)
}

// indicators draws the bar at the bottom of the window: speed, the four wheels' spin,
// the steering angle and the yaw rate.
func (e *CarRacing) indicators(c *canvas, sx, sy float64) {
	const w, h = float64(crWindowW), float64(crWindowH)
	s, u := w/40, h/40
	c.rect(rgb(0, 0, 0), 0, (h-5*u)*sy, w*sx, h*sy)
	vertical := func(place, val float64, col color.RGBA) {
		if math.Abs(val) > 1e-4 {
			c.rect(col, place*s*sx, (h-(u+u*val))*sy, (place+1)*s*sx, (h-u)*sy)
		}
	}
	horizontal := func(place, val float64, col color.RGBA) {
		if math.Abs(val) > 1e-4 {
			c.rect(col, place*s*sx, (h-4*u)*sy, (place+val)*s*sx, (h-2*u)*sy)
		}
	}
	v := e.car.hull.GetLinearVelocity()
	speed := math.Hypot(v.X, v.Y)
	vertical(5, 0.02*speed, rgb(255, 255, 255))
	for i, wh := range e.car.wheels {
		col := rgb(0, 0, 255)
		if i >= 2 {
			col = rgb(51, 0, 255)
		}
		vertical(float64(7+i), 0.01*wh.omega, col)
	}
	horizontal(20, -10*e.car.wheels[0].joint.GetJointAngle(), rgb(0, 255, 0))
	horizontal(30, -0.8*e.car.hull.GetAngularVelocity(), rgb(255, 0, 0))
}
