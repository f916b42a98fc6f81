package minigrid

// BabyAI's level machinery (minigrid's envs/babyai/core/roomgrid_level.py and
// levelgen.py): a room grid laid out by the level's mission, the instruction
// validated, its surface the mission text, its verifier judging every step.

// babyLevel is a BabyAI level: a grid of rows x cols rooms of side roomSize, laid out
// by mission (minigrid's gen_mission), which also sets the instruction. fixedSteps
// is the level's own max_steps (0: the instruction's navigations times the maze's
// area, as RoomGridLevel computes it); a max_episode_steps option overrides both.
// unblocking is LevelGen's: an instruction may not be about a key that opens a
// locked door. startCarrying starts the agent holding PutNext's object to move.
type babyLevel struct {
	roomSize, rows, cols int
	fixedSteps           int
	unblocking           bool
	startCarrying        bool
	mission              func(g *babyGen)
}

func (babyLevel) step(e *Env, a int) (float32, bool) { return babyStep(e, a) }

// babyGen is one layout of a BabyAI level in the making: the room grid, the room
// locked by add_locked_room (if any), the instruction, and the object PutNext's
// agent starts holding.
type babyGen struct {
	*rooms
	e      *Env
	locked *room
	instr  *instr
	carry  point
}

func (l babyLevel) generate(e *Env) {
	if e.baby == nil {
		e.baby = &babyState{}
	}
	e.baby.instr = nil
	e.limit = l.limit(nil, e.maxSteps) // should every layout fail: one navigation's
	g := &babyGen{rooms: newRooms(e, l.roomSize, l.rows, l.cols), e: e, carry: point{-1, -1}}
	l.mission(g)
	e.numberObjects()
	g.validate(g.instr, l.unblocking, g.lockedColors())
	in := g.instr
	in.reset(e, l.roomSize)
	e.mission = in.surface()
	e.baby.instr = in
	e.limit = l.limit(in, e.maxSteps)
	if l.startCarrying && g.carry.x >= 0 {
		p := g.carry
		e.carrying = e.get(p.x, p.y)
		e.set(p.x, p.y, empty)
		e.baby.carried, e.baby.uids[p.y*e.w+p.x] = e.uidAt(p), 0
	}
}

// limit is an episode's max_steps: the option's (given), the level's own, or the
// instruction's navigations (one without an instruction) times the maze's area.
func (l babyLevel) limit(in *instr, given int) int {
	switch {
	case given > 0:
		return given
	case l.fixedSteps > 0:
		return l.fixedSteps
	}
	navs := 1
	if in != nil {
		navs = in.navs()
	}
	return navs * l.roomSize * l.roomSize * l.rows * l.cols
}

// lockedColors are the colours of the locked doors.
func (g *babyGen) lockedColors() []uint8 {
	var colors []uint8
	for j := range g.rows {
		for i := range g.cols {
			r := g.at(i, j)
			for k, ok := range r.connected {
				if c := g.e.get(r.doorPos[k].x, r.doorPos[k].y); ok && c.kind == objDoor && c.locked {
					colors = append(colors, c.color)
				}
			}
		}
	}
	return colors
}

// validate rejects the layout when the instruction cannot be carried out as meant
// (minigrid's validate_instrs): PutNext's two descriptions share an object, or an
// object to move already lies beside its target; with unblocking, an instruction
// about a key that opens a locked door.
func (g *babyGen) validate(in *instr, unblocking bool, locked []uint8) {
	if in.isSeq() {
		g.validate(in.a, unblocking, locked)
		g.validate(in.b, unblocking, locked)
		return
	}
	if in.op == opPutNext {
		in.reset(g.e, g.size)
		for _, id := range in.obj.set {
			if containsID(in.fixed.set, id) {
				fail("PutNext's objects overlap")
			}
		}
		if in.objsNext() {
			fail("PutNext's objects already next to each other")
		}
	}
	if !unblocking {
		return
	}
	for _, d := range []objDesc{in.obj, in.fixed} {
		for _, c := range locked {
			if d.kind == objKey && d.color == c {
				fail("an instruction about a key that opens a locked door")
			}
		}
		if in.op != opPutNext {
			break
		}
	}
}

// find chooses the objects a description matches now (during the layout).
func (g *babyGen) find(d *objDesc) {
	g.e.numberObjects()
	g.e.find(d, true, g.size)
}

// Whether a door is locked, as add_door's locked argument (lockRandom: None).
const (
	unlocked = iota
	lockedDoor
	lockRandom
)

// door adds a door to wall k of room (i, j) (k < 0: a random wall with a neighbour
// and no door), of a colour (numColors: drawn), locked or not or at random, drawing
// in minigrid's add_door's order.
func (g *babyGen) door(i, j, k int, color uint8, lock int) (cell, point) {
	if k < 0 {
		k = g.freeWall(g.at(i, j))
	}
	if color == numColors {
		color = g.e.randColor()
	}
	locked := lock == lockedDoor
	if lock == lockRandom {
		locked = g.e.randBool()
	}
	return g.addDoor(i, j, k, color, locked)
}

// placed is an object put on the grid and where.
type placed struct {
	c cell
	p point
}

// distractors adds n random objects (add_distractors) to room (i, j), or each to a
// random room when i or j is negative; unique keeps every kind and colour once
// among all the rooms' objects.
func (g *babyGen) distractors(i, j, n int, unique bool) []placed {
	var have []cell
	for _, row := range g.grid {
		for _, r := range row {
			have = append(have, r.objs...)
		}
	}
	var out []placed
	for tries := 0; len(out) < n; tries++ {
		if tries > noLimit {
			fail("add_distractors")
		}
		color := g.e.randColor()
		c := obj(g.e.randKind(), color)
		if unique && containsCell(have, c) {
			continue
		}
		ri, rj := i, j
		if ri < 0 {
			ri = g.e.randInt(0, g.cols)
		}
		if rj < 0 {
			rj = g.e.randInt(0, g.rows)
		}
		_, p := g.addObject(ri, rj, c.kind, c.color)
		have = append(have, c)
		out = append(out, placed{c, p})
	}
	return out
}

func containsCell(cs []cell, c cell) bool {
	for _, d := range cs {
		if d.same(c) {
			return true
		}
	}
	return false
}

// placeAgent puts the agent in room (i, j) (negative: random) facing a free square
// or a wall, turned a random way.
func (g *babyGen) placeAgent(i, j int) { g.placeAgentIn(i, j, true) }

// placeAgentOutside places the agent in a random room other than the locked one.
func (g *babyGen) placeAgentOutside(locked *room) {
	for {
		g.placeAgent(-1, -1)
		if g.roomOf(g.e.agent) != locked {
			return
		}
	}
}

// reachable reports whether every object can be reached from the agent without
// moving another (check_objs_reachable); with reject, the layout is abandoned when
// one cannot.
func (g *babyGen) reachable(reject bool) bool {
	e := g.e
	seen := make([]bool, e.w*e.h)
	stack := []point{e.agent}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !e.grid.in(p.x, p.y) || seen[p.y*e.w+p.x] {
			continue
		}
		seen[p.y*e.w+p.x] = true
		if c := e.get(p.x, p.y); !c.isEmpty() && c.kind != objDoor {
			continue
		}
		stack = append(stack, point{p.x + 1, p.y}, point{p.x - 1, p.y}, point{p.x, p.y + 1}, point{p.x, p.y - 1})
	}
	for i, c := range e.cells {
		if !c.isEmpty() && c.kind != objWall && !seen[i] {
			if reject {
				fail("an object out of reach")
			}
			return false
		}
	}
	return true
}

// openAllDoors opens every door of the maze.
func (g *babyGen) openAllDoors() {
	for i := range g.e.cells {
		if g.e.cells[i].kind == objDoor {
			g.e.cells[i].open = true
		}
	}
}

// addLockedRoom locks a random room's door on a random wall and puts its key in
// another room (LevelGen.add_locked_room).
func (g *babyGen) addLockedRoom() {
	var d cell
	for {
		i, j, k := g.e.randInt(0, g.cols), g.e.randInt(0, g.rows), g.e.randInt(0, 4)
		if g.at(i, j).neighbor[k] == nil {
			continue
		}
		g.locked = g.at(i, j)
		d, _ = g.door(i, j, k, numColors, lockedDoor)
		break
	}
	for {
		i, j := g.e.randInt(0, g.cols), g.e.randInt(0, g.rows)
		if g.at(i, j) == g.locked {
			continue
		}
		g.addObject(i, j, objKey, d.color)
		return
	}
}

// randElem draws an index into a list of n.
func (g *babyGen) randElem(n int) int { return g.e.randInt(0, n) }

// levelGen is minigrid's LevelGen: a maze with distractors, perhaps a locked room,
// and an instruction drawn from the baby language's grammar, limited to some
// actions (goto, pickup, open, putnext) and kinds of instruction (a single action,
// two joined by "and", two in sequence).
type levelGen struct {
	numDists       int
	lockedRoomProb float64
	locations      bool // descriptions may name a location
	unblocking     bool // objects may stand in the way (no reachability check)
	implicitUnlock bool // objects may lie in the locked room
	actions        []uint8
	kinds          []int
}

// The kinds of instruction LevelGen draws.
const (
	kindAction = iota
	kindAnd
	kindSeq
)

// The object kinds a description draws from, in minigrid's OBJ_TYPES order.
var (
	objTypes        = []uint8{objBox, objBall, objKey, objDoor}
	objTypesNotDoor = []uint8{objBox, objBall, objKey}
	allActions      = []uint8{opGoTo, opPickup, opOpen, opPutNext}
	allKinds        = []int{kindAction, kindAnd, kindSeq}
)

func (l levelGen) mission(g *babyGen) {
	if g.e.rng.Float64() < l.lockedRoomProb {
		g.addLockedRoom()
	}
	g.connectAll(allColors, 5000)
	g.distractors(-1, -1, l.numDists, false)
	g.placeAgentOutside(g.locked)
	if !l.unblocking {
		g.reachable(true)
	}
	g.instr = l.randInstr(g, l.kinds)
}

// randObj draws a description that matches at least one object (rand_obj): a colour
// or none, a kind, and with locations half the time a location; without implicit
// unlocking, one object must lie outside the locked room.
func (l levelGen) randObj(g *babyGen, types []uint8) objDesc {
	for tries := 0; ; tries++ {
		if tries > 100 {
			fail("rand_obj")
		}
		color := anyColor
		if c := g.randElem(int(numColors) + 1); c > 0 {
			color = uint8(c - 1)
		}
		d := objDesc{kind: types[g.randElem(len(types))], color: color}
		if l.locations && g.e.randBool() {
			d.loc = uint8(1 + g.randElem(4))
		}
		g.find(&d)
		if len(d.set) == 0 {
			continue
		}
		if !l.implicitUnlock && g.locked != nil {
			outside := false
			for _, p := range d.poss {
				r := g.locked
				outside = outside || p.x < r.top.x || p.y < r.top.y || p.x >= r.top.x+r.size.x || p.y >= r.top.y+r.size.y
			}
			if !outside {
				continue
			}
		}
		return d
	}
}

// randInstr draws an instruction of one of the kinds (rand_instr).
func (l levelGen) randInstr(g *babyGen, kinds []int) *instr {
	switch kinds[g.randElem(len(kinds))] {
	case kindAction:
		switch l.actions[g.randElem(len(l.actions))] {
		case opGoTo:
			return goTo(l.randObj(g, objTypes))
		case opPickup:
			return pickup(l.randObj(g, objTypesNotDoor), false)
		case opOpen:
			return openInstr(l.randObj(g, []uint8{objDoor}), false)
		default:
			move := l.randObj(g, objTypesNotDoor)
			return putNext(move, l.randObj(g, objTypes))
		}
	case kindAnd:
		a := l.randInstr(g, []int{kindAction})
		return seq(opAnd, a, l.randInstr(g, []int{kindAction}))
	}
	a := l.randInstr(g, []int{kindAction, kindAnd})
	b := l.randInstr(g, []int{kindAction, kindAnd})
	if g.randElem(2) == 0 {
		return seq(opBefore, a, b)
	}
	return seq(opAfter, a, b)
}
