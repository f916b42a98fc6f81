package minigrid

import (
	"encoding"
	"image"
	"math/rand/v2"

	"github.com/rlpool/rlpool/envpool"
)

// The actions, as minigrid's Actions enum numbers them.
const (
	actLeft = iota
	actRight
	actForward
	actPickup
	actDrop
	actToggle
	actDone
	numActions
)

// level is one task's layout and rules: generate lays out a new episode's grid,
// places the agent and sets the mission (drawing from the env's generator); step
// applies one action (after the step count has advanced) and returns the reward and
// whether the episode ended, calling Env.act for the moves every task shares. A level
// is configuration only: what an episode remembers lives in the Env, so that saving
// the Env saves the episode. BabyAI's levels are levels with an instruction verifier
// in their step.
type level interface {
	generate(e *Env)
	step(e *Env, a int) (reward float32, terminated bool)
}

// plainRules is the step of a task with only minigrid's own rules (a goal ends the
// episode with the success reward, lava ends it with none).
type plainRules struct{}

func (plainRules) step(e *Env, a int) (float32, bool) { return e.act(a) }

// config is what every env of a task shares: its level and the options that shape the
// observation and the episode.
type config struct {
	lv           level
	maxSteps     int // the time limit; 0 for a BabyAI level whose limit its instruction sets
	viewSize     int
	seeThrough   bool
	missionBytes int
	numActions   int
	tileSize     int
	floatObs     bool // observations as float32 (written as bytes, then widened)
	oneHot       bool // float32 one-hot features of those bytes (onehot.go)
}

// Env is one MiniGrid env: a grid world the agent sees a square of in front of it,
// with a mission to fulfil. The task's level lays out each episode and judges the
// steps; the Env keeps the whole state of the episode.
type Env struct {
	*config
	gen
	grid
	agent    point
	dir      int
	carrying cell // objEmpty when the hands are empty
	steps    int
	mission  string

	// What a level remembers of its episode (each level says which it uses).
	target    point   // a square the mission is about (a door, an object, the goal)
	other     point   // a second square (the blue door, the failure square)
	want      cell    // the kind and colour of the object the mission asks for
	obstacles []point // the moving obstacles

	// limit is the episode's max_steps: the task's, or one a BabyAI level sets from
	// its instruction; baby is a BabyAI episode's instruction and object identities
	// (nil for the MiniGrid tasks).
	limit int
	baby  *babyState

	// Scratch for the view, reused by every observation, and for the bytes of a
	// float32 observation.
	view  []cell
	vis   []bool
	bytes []uint8
	// The word counts of the mission words, for one_hot observations, and the
	// mission they count.
	words     []float32
	wordsOf   string
	wordsDone bool

	tiles map[tileKey]*image.RGBA // the pictures of the tiles drawn so far (draw.go)
}

// newEnv returns an env of a task seeded with seed.
func newEnv(c *config, seed int64) *Env {
	n := c.viewSize * c.viewSize
	e := &Env{config: c, gen: newGen(seed), view: make([]cell, n), vis: make([]bool, n), limit: c.maxSteps}
	if c.floatObs {
		e.bytes = make([]uint8, 1+3*n+c.missionBytes)
	}
	return e
}

// Reset lays out a new episode.
func (e *Env) Reset() {
	e.steps, e.carrying, e.mission, e.limit = 0, empty, "", e.maxSteps
	e.target, e.other, e.want, e.obstacles = point{-1, -1}, point{-1, -1}, empty, e.obstacles[:0]
	e.generateSafely()
}

// Step applies an action: 0 turn left, 1 turn right, 2 forward, 3 pick up, 4 drop,
// 5 toggle, 6 done. The pool rejects actions outside the task's action space before
// they reach an env; an env stepped directly takes the nearest valid action (0 for
// NaN), so it never fails. The episode is truncated when the step count reaches
// max_episode_steps (or a BabyAI level's own limit), as minigrid truncates at
// max_steps.
func (e *Env) Step(action []float32) envpool.StepResult {
	if e.cells == nil { // stepped before its first Reset
		e.Reset()
	}
	a := 0
	if len(action) > 0 && action[0] >= 0 {
		a = min(int(action[0]), e.numActions-1)
	}
	e.steps++
	r, term := e.lv.step(e, a)
	return envpool.StepResult{Reward: r, Terminated: term, Truncated: e.steps >= e.limit}
}

// successReward is minigrid's reward for success: 1 - 0.9 * steps / max_steps.
func (e *Env) successReward() float32 {
	return float32(1 - 0.9*(float64(e.steps)/float64(e.limit)))
}

// front is the square the agent faces.
func (e *Env) front() point { return e.agent.add(dirVecs[e.dir]) }

// act applies one of minigrid's actions with MiniGridEnv.step's rules and returns the
// reward (the success reward on stepping onto a goal) and whether the episode ended
// (on a goal or in lava).
func (e *Env) act(a int) (float32, bool) {
	f := e.front()
	fc := e.grid.get(f.x, f.y)
	switch a {
	case actLeft:
		e.dir = (e.dir + 3) % 4
	case actRight:
		e.dir = (e.dir + 1) % 4
	case actForward:
		if fc.canOverlap() {
			e.agent = f
		}
		switch fc.kind {
		case objGoal:
			return e.successReward(), true
		case objLava:
			return 0, true
		}
	case actPickup:
		if fc.canPickup() && e.carrying.isEmpty() {
			e.carrying = fc
			e.grid.set(f.x, f.y, empty)
		}
	case actDrop:
		if fc.isEmpty() && !e.carrying.isEmpty() && e.grid.in(f.x, f.y) {
			e.grid.set(f.x, f.y, e.carrying)
			e.carrying = empty
		}
	case actToggle:
		if e.grid.in(f.x, f.y) {
			e.toggle(e.grid.at(f))
		}
	}
	return 0, false
}

// toggle acts on an object as minigrid's toggle methods do: a door opens or closes,
// a locked door opens only for a key of its colour, a box turns into its contents.
func (e *Env) toggle(c *cell) {
	switch c.kind {
	case objDoor:
		if c.locked {
			if e.carrying.kind == objKey && e.carrying.color == c.color {
				c.locked, c.open = false, true
			}
			return
		}
		c.open = !c.open
	case objBox:
		if c.innerKind == objUnseen {
			*c = empty
		} else {
			*c = obj(c.innerKind, c.innerColor)
		}
	}
}

// Observe writes the observation, the fields in the order of the spec's layout: the
// direction (one byte), the agent's view (viewSize x viewSize x 3 bytes, indexed
// [column][row][channel] as minigrid's image) and the mission (its bytes, zero
// padded, at most mission_bytes-1 of them as EnvPool writes them), as bytes or, with
// float_obs, as float32 values, or with one_hot as their features (onehot.go). The
// info columns are the agent's position and
// EnvPool's mission_id (-1: no BabyAI mission).
func (e *Env) Observe(obs envpool.Obs, info []float32) {
	o := obs.U8
	if e.floatObs {
		o = e.bytes
	}
	o[0] = uint8(e.dir)
	n := e.viewSize * e.viewSize * 3
	e.encodeView(o[1 : 1+n])
	m := o[1+n : 1+n+e.missionBytes]
	clear(m)
	copy(m[:e.missionBytes-1], e.mission)
	if e.oneHot {
		e.writeOneHot(obs.F32)
	} else if e.floatObs {
		for i, b := range o {
			obs.F32[i] = float32(b)
		}
	}
	if len(info) >= 3 {
		info[0], info[1], info[2] = float32(e.agent.x), float32(e.agent.y), -1
	}
}

// viewCell returns the world square that view cell (i, j) shows: the view is a
// square of viewSize cells the agent looks into from the middle of its bottom row,
// column i from its left, row j from its far edge (minigrid's get_view_exts, slice
// and rotate_left, composed).
func (e *Env) viewCell(i, j int) point {
	f := dirVecs[e.dir]
	r := point{-f.y, f.x}
	ahead, side := e.viewSize-1-j, i-e.viewSize/2
	return point{e.agent.x + f.x*ahead + r.x*side, e.agent.y + f.y*ahead + r.y*side}
}

// computeView fills e.view with what lies in the agent's view square (walls outside
// the grid) and e.vis with which of its cells the agent sees, by minigrid's
// process_vis: light spreads from the agent's cell row by row away from it, left and
// right, through every cell that can be seen behind. The agent's own cell shows what
// it carries.
func (e *Env) computeView() {
	v := e.viewSize
	for j := range v {
		for i := range v {
			p := e.viewCell(i, j)
			e.view[j*v+i] = e.grid.get(p.x, p.y)
		}
	}
	if e.seeThrough {
		for i := range e.vis {
			e.vis[i] = true
		}
	} else {
		clear(e.vis)
		e.vis[(v-1)*v+v/2] = true
		for j := v - 1; j >= 0; j-- {
			for i := 0; i < v-1; i++ {
				if e.vis[j*v+i] && e.view[j*v+i].seeBehind() {
					e.vis[j*v+i+1] = true
					if j > 0 {
						e.vis[(j-1)*v+i+1], e.vis[(j-1)*v+i] = true, true
					}
				}
			}
			for i := v - 1; i > 0; i-- {
				if e.vis[j*v+i] && e.view[j*v+i].seeBehind() {
					e.vis[j*v+i-1] = true
					if j > 0 {
						e.vis[(j-1)*v+i-1], e.vis[(j-1)*v+i] = true, true
					}
				}
			}
		}
	}
	e.view[(v-1)*v+v/2] = e.carrying
}

// encodeView writes the agent's view encoded as minigrid's Grid.encode: (object,
// colour, state) per visible cell, zeros where the agent cannot see.
func (e *Env) encodeView(dst []uint8) {
	e.computeView()
	v := e.viewSize
	for i := range v {
		for j := range v {
			k := (i*v + j) * 3
			c := e.view[j*v+i]
			if !e.vis[j*v+i] {
				dst[k], dst[k+1], dst[k+2] = 0, 0, 0
				continue
			}
			dst[k], dst[k+1], dst[k+2] = c.kind, c.color, c.state()
		}
	}
}

// gen is an env's random generator, seeded at construction; the PCG source is kept
// beside it so that the env's state can be saved and restored with it.
type gen struct {
	rng *rand.Rand
	pcg *rand.PCG
}

// newGen returns the generator of the env with that seed: a PCG stream of its own.
func newGen(seed int64) gen {
	src := rand.NewPCG(uint64(seed), 0x3c6ef372fe94f82b)
	return gen{rng: rand.New(src), pcg: src}
}

// randInt draws an integer in [lo, hi), as minigrid's _rand_int.
func (g *gen) randInt(lo, hi int) int { return lo + g.rng.IntN(hi-lo) }

// randBool draws a fair coin.
func (g *gen) randBool() bool { return g.rng.IntN(2) == 0 }

// randColor draws one of the six colours.
func (g *gen) randColor() uint8 { return uint8(g.rng.IntN(int(numColors))) }

// randKind draws key, ball or box, as minigrid's _rand_elem(["key", "ball", "box"]).
func (g *gen) randKind() uint8 { return [3]uint8{objKey, objBall, objBox}[g.rng.IntN(3)] }

// randPerm returns the integers [0, n) in a random order (minigrid's _rand_subset
// of all of a list, and np_random.shuffle).
func (g *gen) randPerm(n int) []int { return g.rng.Perm(n) }

// The capabilities of the family's envs beside envpool.Env: a picture and a text
// frame (draw.go) and the exact state, generator included, so that a killed training
// run resumes every episode exactly (state.go).
var (
	_ envpool.Renderer           = (*Env)(nil)
	_ envpool.TextRenderer       = (*Env)(nil)
	_ encoding.BinaryMarshaler   = (*Env)(nil)
	_ encoding.BinaryUnmarshaler = (*Env)(nil)
)
