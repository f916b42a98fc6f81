package minigrid

// room is one room of a room grid (minigrid's roomgrid.Room) while a level is laid
// out: its walls' corner and size, the door squares it shares with its neighbours
// (east, south, west, north, as the directions), which of them are open passages
// (a door or a removed wall), whether its last door was locked, and the objects put in it.
type room struct {
	top, size point
	doorPos   [4]point
	neighbor  [4]*room
	connected [4]bool
	locked    bool
	objs      []cell
}

// rooms is a grid of rows x cols square rooms of side size sharing their walls
// (minigrid's RoomGrid), over the env's grid. BabyAI's levels are laid out on it too.
type rooms struct {
	e          *Env
	size       int
	rows, cols int
	grid       [][]room
}

// newRooms lays out the walls of a room grid, draws the door square of every wall
// between two rooms, and puts the agent in the middle room facing east, as
// RoomGrid._gen_grid does.
func newRooms(e *Env, size, rows, cols int) *rooms {
	rg := &rooms{e: e, size: size, rows: rows, cols: cols, grid: make([][]room, rows)}
	e.grid.reset((size-1)*cols+1, (size-1)*rows+1)
	for j := range rows {
		rg.grid[j] = make([]room, cols)
		for i := range cols {
			r := &rg.grid[j][i]
			r.top, r.size = point{i * (size - 1), j * (size - 1)}, point{size, size}
			e.grid.wallRect(r.top.x, r.top.y, size, size)
		}
	}
	for j := range rows {
		for i := range cols {
			r := &rg.grid[j][i]
			xl, yl := r.top.x+1, r.top.y+1
			xm, ym := r.top.x+r.size.x-1, r.top.y+r.size.y-1
			if i < cols-1 {
				r.neighbor[0] = &rg.grid[j][i+1]
				r.doorPos[0] = point{xm, e.randInt(yl, ym)}
			}
			if j < rows-1 {
				r.neighbor[1] = &rg.grid[j+1][i]
				r.doorPos[1] = point{e.randInt(xl, xm), ym}
			}
			if i > 0 {
				r.neighbor[2] = &rg.grid[j][i-1]
				r.doorPos[2] = r.neighbor[2].doorPos[0]
			}
			if j > 0 {
				r.neighbor[3] = &rg.grid[j-1][i]
				r.doorPos[3] = r.neighbor[3].doorPos[1]
			}
		}
	}
	e.agent = point{(cols/2)*(size-1) + size/2, (rows/2)*(size-1) + size/2}
	e.dir = 0
	return rg
}

// at returns room (i, j): column i, row j.
func (rg *rooms) at(i, j int) *room { return &rg.grid[j][i] }

// roomOf returns the room that holds square p.
func (rg *rooms) roomOf(p point) *room { return rg.at(p.x/(rg.size-1), p.y/(rg.size-1)) }

// placeIn puts c in room (i, j), not next to the agent, as RoomGrid.place_in_room.
func (rg *rooms) placeIn(i, j int, c cell) point {
	r := rg.at(i, j)
	start := rg.e.agent
	p := rg.e.place(c, r.top, r.size, func(p point) bool { return abs(p.x-start.x)+abs(p.y-start.y) < 2 }, 1000)
	r.objs = append(r.objs, c)
	return p
}

// addObject puts an object of a kind and colour in room (i, j); a kind of objUnseen
// or a colour of numColors is drawn at random, as add_object's None.
func (rg *rooms) addObject(i, j int, kind, color uint8) (cell, point) {
	if kind == objUnseen {
		kind = rg.e.randKind()
	}
	if color == numColors {
		color = rg.e.randColor()
	}
	c := obj(kind, color)
	return c, rg.placeIn(i, j, c)
}

// addDoor puts a closed door (locked or not) of a colour (numColors: drawn) on wall k
// of room (i, j) (k < 0: a random wall with a neighbour and no door yet), as
// RoomGrid.add_door with its locked argument given.
func (rg *rooms) addDoor(i, j, k int, color uint8, locked bool) (cell, point) {
	r := rg.at(i, j)
	if k < 0 {
		k = rg.freeWall(r)
	}
	if color == numColors {
		color = rg.e.randColor()
	}
	r.locked = locked
	d := door(color, locked)
	p := r.doorPos[k]
	rg.e.grid.set(p.x, p.y, d)
	r.connected[k] = true
	r.neighbor[k].connected[(k+2)%4] = true
	return d, p
}

// freeWall draws a wall of r with a neighbour and no door yet, as add_door draws its
// door_idx.
func (rg *rooms) freeWall(r *room) int {
	for {
		if k := rg.e.randInt(0, 4); r.neighbor[k] != nil && !r.connected[k] {
			return k
		}
	}
}

// removeWall opens the whole wall k of room (i, j) into its neighbour.
func (rg *rooms) removeWall(i, j, k int) {
	r := rg.at(i, j)
	t, w, h := r.top, r.size.x, r.size.y
	switch k {
	case 0:
		rg.e.grid.vertWall(t.x+w-1, t.y+1, h-2, empty)
	case 1:
		rg.e.grid.horzWall(t.x+1, t.y+h-1, w-2, empty)
	case 2:
		rg.e.grid.vertWall(t.x, t.y+1, h-2, empty)
	case 3:
		rg.e.grid.horzWall(t.x+1, t.y, w-2, empty)
	}
	r.connected[k] = true
	r.neighbor[k].connected[(k+2)%4] = true
}

// placeAgentIn puts the agent in room (i, j) (a negative index: a random room)
// facing a free square or a wall, as RoomGrid.place_agent.
func (rg *rooms) placeAgentIn(i, j int, randDir bool) {
	if i < 0 {
		i = rg.e.randInt(0, rg.cols)
	}
	if j < 0 {
		j = rg.e.randInt(0, rg.rows)
	}
	r := rg.at(i, j)
	for {
		rg.e.placeAgent(r.top, r.size, randDir, 1000)
		f := rg.e.front()
		if c := rg.e.grid.get(f.x, f.y); c.isEmpty() || c.kind == objWall {
			return
		}
	}
}

// connectAll adds unlocked doors of the given colours between random neighbouring
// rooms until every room is reachable from the agent's, as RoomGrid.connect_all
// (abandoning the layout after maxItrs tries).
func (rg *rooms) connectAll(colors []uint8, maxItrs int) {
	for itr := 0; ; itr++ {
		if itr > maxItrs {
			fail("connect_all")
		}
		if rg.reachable() == rg.rows*rg.cols {
			return
		}
		i, j, k := rg.e.randInt(0, rg.cols), rg.e.randInt(0, rg.rows), rg.e.randInt(0, 4)
		r := rg.at(i, j)
		if r.neighbor[k] == nil || r.connected[k] || r.locked || r.neighbor[k].locked {
			continue
		}
		rg.addDoor(i, j, k, colors[rg.e.randInt(0, len(colors))], false)
	}
}

// reachable counts the rooms joined to the agent's by doors and open walls.
func (rg *rooms) reachable() int {
	seen := map[*room]bool{}
	stack := []*room{rg.roomOf(rg.e.agent)}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[r] {
			continue
		}
		seen[r] = true
		for k, ok := range r.connected {
			if ok {
				stack = append(stack, r.neighbor[k])
			}
		}
	}
	return len(seen)
}

// allColors are the six colours, connect_all's default door colours.
var allColors = []uint8{red, green, blue, purple, yellow, grey}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
