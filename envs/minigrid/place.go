package minigrid

// genFailure is raised (as a panic caught by generateSafely) when a layout's
// rejection sampling gives up, as minigrid raises RecursionError: the level is laid
// out again from the generator's next draws.
type genFailure struct{ what string }

// maxLayouts is how many times a reset lays a level out before it settles for the
// last grid: with options that pass the tasks' checks a failure is rare, and a layout
// failing this often means the options leave no room.
const maxLayouts = 1000

// generateSafely lays out a new episode, again after a failed rejection sampling.
func (e *Env) generateSafely() {
	for range maxLayouts {
		if e.tryGenerate() {
			return
		}
	}
}

// tryGenerate runs the level's generator once and reports whether it succeeded.
func (e *Env) tryGenerate() (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, failed := r.(genFailure); !failed {
				panic(r)
			}
			ok = false
		}
	}()
	e.carrying, e.obstacles = empty, e.obstacles[:0]
	e.lv.generate(e)
	return true
}

// fail abandons the current layout.
func fail(what string) { panic(genFailure{what}) }

// noLimit is place's max_tries for placements minigrid does not bound: far more draws
// than any grid the options allow needs, so that a layout with no room left fails
// instead of drawing forever.
const noLimit = 100000

// place puts c on a random empty square of the rectangle at top with size (clipped to
// the grid) that is not the agent's and that reject (if any) accepts, as minigrid's
// place_obj; after maxTries failed draws the layout is abandoned.
func (e *Env) place(c cell, top, size point, reject func(point) bool, maxTries int) point {
	p, ok := e.tryPlace(c, top, size, reject, maxTries)
	if !ok {
		fail("place_obj")
	}
	return p
}

// tryPlace is place that reports a failure instead of abandoning the layout, for the
// placements a task makes during an episode (the obstacles' moves).
func (e *Env) tryPlace(c cell, top, size point, reject func(point) bool, maxTries int) (point, bool) {
	top = point{max(top.x, 0), max(top.y, 0)}
	for tries := 0; ; tries++ {
		if tries > maxTries {
			return point{}, false
		}
		p := point{e.randInt(top.x, min(top.x+size.x, e.w)), e.randInt(top.y, min(top.y+size.y, e.h))}
		if !e.grid.get(p.x, p.y).isEmpty() || p == e.agent || (reject != nil && reject(p)) {
			continue
		}
		e.grid.set(p.x, p.y, c)
		return p, true
	}
}

// placeAnywhere places c anywhere on the grid.
func (e *Env) placeAnywhere(c cell) point {
	return e.place(c, point{}, point{e.w, e.h}, nil, noLimit)
}

// placeAgent puts the agent on a random empty square of the rectangle, facing a
// random direction when randDir, as minigrid's place_agent.
func (e *Env) placeAgent(top, size point, randDir bool, maxTries int) point {
	e.agent = point{-1, -1}
	e.agent = e.place(empty, top, size, nil, maxTries)
	if randDir {
		e.dir = e.randInt(0, 4)
	}
	return e.agent
}

// placeAgentAnywhere places the agent anywhere, facing a random direction.
func (e *Env) placeAgentAnywhere() { e.placeAgent(point{}, point{e.w, e.h}, true, noLimit) }

// startAt puts the agent at a fixed start (x, y) facing dir, or, when x or y is
// negative, anywhere; a negative dir then turns it a random way (EnvPool's
// agent_start_pos = (-1, -1) and agent_start_dir = -1 are minigrid's None).
func (e *Env) startAt(pos [2]int, dir int) {
	if pos[0] < 0 || pos[1] < 0 {
		e.placeAgent(point{}, point{e.w, e.h}, dir < 0, noLimit)
		if dir >= 0 {
			e.dir = dir
		}
		return
	}
	e.agent = point{pos[0], pos[1]}
	e.dir = dir
	if dir < 0 {
		e.dir = e.randInt(0, 4)
	}
}
