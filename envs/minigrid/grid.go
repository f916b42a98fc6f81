package minigrid

// The world's objects and colours are numbered as minigrid's OBJECT_TO_IDX and
// COLOR_TO_IDX number them: the observation encodes a cell as (object, colour, state)
// with these indices, so a policy trained on minigrid reads rlpool's observations.
const (
	objUnseen uint8 = iota // a cell the agent cannot see (observations only)
	objEmpty
	objWall
	objFloor
	objDoor
	objKey
	objBall
	objBox
	objGoal
	objLava
	objAgent // minigrid's index for the agent; never stored in a grid
)

// objectNames are minigrid's names of the object indices, as missions spell them.
var objectNames = [...]string{"unseen", "empty", "wall", "floor", "door", "key", "ball", "box", "goal", "lava", "agent"}

// The six colours, in minigrid's COLOR_NAMES order (which is also COLOR_TO_IDX).
const (
	red uint8 = iota
	green
	blue
	purple
	yellow
	grey
	numColors
)

// colorNames are the colours' names, as missions spell them.
var colorNames = [numColors]string{"red", "green", "blue", "purple", "yellow", "grey"}

// The states of a door in an encoded cell (minigrid's Door.encode); every other
// object's state is 0.
const (
	stateOpen   uint8 = 0
	stateClosed uint8 = 1
	stateLocked uint8 = 2
)

// cell is what occupies one square of the grid: an object of a kind and colour, a
// door's open and locked flags, and a box's contents (innerKind objUnseen when it has
// none). A cell is a value, so grids copy, compare and save without pointers; tasks
// that follow an object (the moving obstacles, the ball to fetch) keep its position
// or its kind and colour instead of an identity.
type cell struct {
	kind, color           uint8
	open, locked          bool
	innerKind, innerColor uint8
}

// empty is a free square (minigrid's None), encoded as (empty, red, 0).
var empty = cell{kind: objEmpty}

// obj returns an object of a kind and colour.
func obj(kind, color uint8) cell { return cell{kind: kind, color: color} }

// The objects with a fixed colour, as minigrid's constructors default them.
var (
	wall = obj(objWall, grey)
	goal = obj(objGoal, green)
	lava = obj(objLava, red)
)

// door returns a closed door, locked or not.
func door(color uint8, locked bool) cell { return cell{kind: objDoor, color: color, locked: locked} }

// boxWith returns a box of a colour holding an object.
func boxWith(color uint8, inner cell) cell {
	return cell{kind: objBox, color: color, innerKind: inner.kind, innerColor: inner.color}
}

// isEmpty reports whether nothing occupies the cell.
func (c cell) isEmpty() bool { return c.kind == objEmpty }

// canOverlap reports whether the agent may stand on the cell (WorldObj.can_overlap).
func (c cell) canOverlap() bool {
	switch c.kind {
	case objEmpty, objFloor, objGoal, objLava:
		return true
	case objDoor:
		return c.open
	}
	return false
}

// canPickup reports whether the agent may carry the object.
func (c cell) canPickup() bool { return c.kind == objKey || c.kind == objBall || c.kind == objBox }

// seeBehind reports whether the cell lets the agent see past it.
func (c cell) seeBehind() bool {
	switch c.kind {
	case objWall:
		return false
	case objDoor:
		return c.open
	}
	return true
}

// state is the cell's state index in an observation.
func (c cell) state() uint8 {
	if c.kind != objDoor || c.open {
		return stateOpen
	}
	if c.locked {
		return stateLocked
	}
	return stateClosed
}

// same reports whether two cells hold objects of the same kind and colour: how the
// tasks recognise the object they ask for.
func (c cell) same(d cell) bool { return c.kind == d.kind && c.color == d.color }

// name is the object's name in a mission: "red ball".
func (c cell) name() string { return colorNames[c.color] + " " + objectNames[c.kind] }

// point is a square of the grid: x the column, y the row, as minigrid's positions.
type point struct{ x, y int }

// add returns p moved by d.
func (p point) add(d point) point { return point{p.x + d.x, p.y + d.y} }

// dirVecs are the unit moves of the four directions: 0 right (east), 1 down, 2 left,
// 3 up, as minigrid's DIR_TO_VEC.
var dirVecs = [4]point{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}

// grid is the world: w x h cells, row by row.
type grid struct {
	w, h  int
	cells []cell
}

// reset makes the grid w x h and empty, reusing its storage.
func (g *grid) reset(w, h int) {
	g.w, g.h = w, h
	if cap(g.cells) < w*h {
		g.cells = make([]cell, w*h)
	}
	g.cells = g.cells[:w*h]
	for i := range g.cells {
		g.cells[i] = empty
	}
}

// in reports whether (x, y) lies on the grid.
func (g *grid) in(x, y int) bool { return x >= 0 && y >= 0 && x < g.w && y < g.h }

// get returns the cell at (x, y); outside the grid it is a wall, as minigrid's slices
// see it.
func (g *grid) get(x, y int) cell {
	if !g.in(x, y) {
		return wall
	}
	return g.cells[y*g.w+x]
}

// at returns the cell at p for changing in place (p must be on the grid).
func (g *grid) at(p point) *cell { return &g.cells[p.y*g.w+p.x] }

// isOpen reports whether p holds an open door (false off the grid).
func (g *grid) isOpen(p point) bool { return g.get(p.x, p.y).open }

// set puts c at (x, y).
func (g *grid) set(x, y int, c cell) { g.cells[y*g.w+x] = c }

// horzWall fills length cells of row y from column x with c (to the edge when
// length < 0).
func (g *grid) horzWall(x, y, length int, c cell) {
	if length < 0 {
		length = g.w - x
	}
	for i := range length {
		g.set(x+i, y, c)
	}
}

// vertWall fills length cells of column x from row y with c (to the edge when
// length < 0).
func (g *grid) vertWall(x, y, length int, c cell) {
	if length < 0 {
		length = g.h - y
	}
	for j := range length {
		g.set(x, y+j, c)
	}
}

// wallRect draws the outline of the w x h rectangle at (x, y) in walls.
func (g *grid) wallRect(x, y, w, h int) {
	g.horzWall(x, y, w, wall)
	g.horzWall(x, y+h-1, w, wall)
	g.vertWall(x, y, h, wall)
	g.vertWall(x+w-1, y, h, wall)
}

// walledRoom makes the grid w x h, empty inside a wall around its edge.
func (g *grid) walledRoom(w, h int) {
	g.reset(w, h)
	g.wallRect(0, 0, w, h)
}
