package minigrid

// The levels laid out on a room grid (minigrid's RoomGrid subclasses).

// pickupRules is the step of the tasks won by picking up the object the mission
// names (e.want): the success reward, and the episode ends.
type pickupRules struct{}

func (pickupRules) step(e *Env, a int) (float32, bool) {
	r, term := e.act(a)
	if a == actPickup && e.carrying.same(e.want) && !e.carrying.isEmpty() {
		return e.successReward(), true
	}
	return r, term
}

// pickupMission is "pick up the <colour> <kind>".
func pickupMission(c cell) string { return "pick up the " + c.name() }

// unlockLevel is MiniGrid-Unlock: open the locked door (e.target) of the first of two
// rooms with the key that lies beside the agent.
type unlockLevel struct{}

func (unlockLevel) generate(e *Env) {
	rg := newRooms(e, 6, 1, 2)
	d, p := rg.addDoor(0, 0, 0, numColors, true)
	rg.addObject(0, 0, objKey, d.color)
	rg.placeAgentIn(0, 0, true)
	e.target = p
	e.mission = "open the door"
}

func (unlockLevel) step(e *Env, a int) (float32, bool) {
	r, term := e.act(a)
	if a == actToggle && e.isOpen(e.target) {
		return e.successReward(), true
	}
	return r, term
}

// unlockPickupLevel is MiniGrid-UnlockPickup and MiniGrid-BlockedUnlockPickup: pick
// up the box behind the locked door; when blocked, a ball stands in front of the
// door and must be moved first.
type unlockPickupLevel struct {
	pickupRules
	blocked bool
}

func (l unlockPickupLevel) generate(e *Env) {
	rg := newRooms(e, 6, 1, 2)
	box, _ := rg.addObject(1, 0, objBox, numColors)
	d, p := rg.addDoor(0, 0, 0, numColors, true)
	if l.blocked {
		e.set(p.x-1, p.y, obj(objBall, e.randColor()))
	}
	rg.addObject(0, 0, objKey, d.color)
	rg.placeAgentIn(0, 0, true)
	e.want = box
	e.mission = pickupMission(box)
}

// keyCorridorLevel is MiniGrid-KeyCorridor: a corridor of rooms; the object to pick up
// lies behind a locked door, its key in another room.
type keyCorridorLevel struct {
	pickupRules
	roomSize, rows int
	kind           uint8
}

func (l keyCorridorLevel) generate(e *Env) {
	rg := newRooms(e, l.roomSize, l.rows, 3)
	for j := 1; j < l.rows; j++ {
		rg.removeWall(1, j, 3)
	}
	k := e.randInt(0, l.rows)
	d, _ := rg.addDoor(2, k, 2, numColors, true)
	o, _ := rg.addObject(2, k, l.kind, numColors)
	rg.addObject(0, e.randInt(0, l.rows), objKey, d.color)
	rg.placeAgentIn(1, l.rows/2, true)
	rg.connectAll(allColors, 5000)
	e.want = o
	e.mission = pickupMission(o)
}

// The colours ObstructedMaze gives its objects (COLOR_NAMES[0], [1] and [2]).
const (
	mazeBallColor     = red
	mazeBlockingColor = green
	mazeBoxColor      = blue
)

// obstructedMazeLevel is MiniGrid-ObstructedMaze: find the red ball in a maze of
// rooms whose doors are locked, their keys perhaps hidden in boxes and the doors
// perhaps blocked by balls. Variant "1Dlhb" has two rooms; the others a 3 x 3 maze
// with num_quarters of its corners open to the search. v1 adds every door before any
// key, so that no blocking ball lands on a key.
type obstructedMazeLevel struct {
	pickupRules
	twoRooms     bool   // the 1Dl, 1Dlh, 1Dlhb tasks
	agentRoom    [2]int // the (column, row) of the room the agent starts in
	keyInBox     bool
	blocked      bool
	quarters     int
	doorsFirstV1 bool
}

func (l obstructedMazeLevel) generate(e *Env) {
	var rg *rooms
	if l.twoRooms {
		rg = newRooms(e, 6, 1, 2)
	} else {
		rg = newRooms(e, 6, 3, 3)
	}
	colors := make([]uint8, numColors)
	for i, k := range e.randPerm(int(numColors)) {
		colors[i] = uint8(k)
	}
	ball := obj(objBall, mazeBallColor)
	if l.twoRooms {
		l.lockedDoor(rg, 0, 0, 0, colors[0])
		l.key(rg, 0, 0, colors[0])
		rg.placeIn(1, 0, ball)
		rg.placeAgentIn(l.agentRoom[0], l.agentRoom[1], true)
	} else {
		side := [4][2]int{{2, 1}, {1, 2}, {0, 1}, {1, 0}}
		for i := range l.quarters {
			rg.addDoor(1, 1, i, colors[i], false)
			s := side[i]
			var keys []uint8
			for _, k := range [2]int{-1, 1} {
				c := colors[(i+k+len(colors))%len(colors)]
				l.lockedDoor(rg, s[0], s[1], (i+k+4)%4, c)
				if l.doorsFirstV1 {
					keys = append(keys, c)
				} else {
					l.key(rg, s[0], s[1], c)
				}
			}
			for _, c := range keys {
				l.key(rg, s[0], s[1], c)
			}
		}
		corners := [4][2]int{{2, 0}, {2, 2}, {0, 2}, {0, 0}}
		c := corners[e.randInt(0, l.quarters)]
		rg.placeIn(c[0], c[1], ball)
		rg.placeAgentIn(l.agentRoom[0], l.agentRoom[1], true)
	}
	e.want = ball
	e.mission = pickupMission(ball)
}

// lockedDoor adds a locked door to wall k of room (i, j), with a green ball in front
// of it (inside the room) when the maze is blocked.
func (l obstructedMazeLevel) lockedDoor(rg *rooms, i, j, k int, color uint8) {
	_, p := rg.addDoor(i, j, k, color, true)
	if l.blocked {
		v := dirVecs[k]
		rg.e.set(p.x-v.x, p.y-v.y, obj(objBall, mazeBlockingColor))
	}
}

// key puts the key of a colour in room (i, j), in a blue box when keys are hidden.
func (l obstructedMazeLevel) key(rg *rooms, i, j int, color uint8) {
	k := obj(objKey, color)
	if l.keyInBox {
		k = boxWith(mazeBoxColor, k)
	}
	rg.placeIn(i, j, k)
}
