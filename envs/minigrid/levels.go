package minigrid

import "slices"

// The levels of minigrid's single-room and hand-drawn tasks, each laid out as its
// minigrid/envs/<name>.py _gen_grid lays it out, with its step rules beside it.

const missionGoal = "get to the green goal square"

// goalRoom lays out a walled size x size room with the goal in its bottom right
// corner, e.target.
func (e *Env) goalRoom(size int) {
	e.walledRoom(size, size)
	e.target = point{size - 2, size - 2}
	e.set(size-2, size-2, goal)
}

// square is a level of a square grid with minigrid's plain rules.
type square struct {
	plainRules
	size int
}

// emptyLevel is MiniGrid-Empty: an empty room with the goal in the far corner.
type emptyLevel struct {
	plainRules
	size     int
	start    [2]int // (-1, -1): anywhere
	startDir int    // -1: random
}

func (l emptyLevel) generate(e *Env) {
	e.goalRoom(l.size)
	e.startAt(l.start, l.startDir)
	e.mission = missionGoal
}

// doorKeyLevel is MiniGrid-DoorKey: a wall splits the room, its door locked; the
// yellow key lies on the agent's side, the goal on the other.
type doorKeyLevel square

func (l doorKeyLevel) generate(e *Env) {
	w, h := l.size, l.size
	e.goalRoom(l.size)
	split := e.randInt(2, w-2)
	e.vertWall(split, 0, -1, wall)
	e.placeAgent(point{}, point{split, h}, true, noLimit)
	e.set(split, e.randInt(1, h-2), door(yellow, true))
	e.place(obj(objKey, yellow), point{}, point{split, h}, nil, noLimit)
	e.mission = "use the key to open the door and then get to the goal"
}

// distShiftLevel is MiniGrid-DistShift: two strips of lava between the agent and the
// goal in the top right corner; the second strip's row differs between the two tasks.
type distShiftLevel struct {
	plainRules
	width, height int
	start         [2]int
	startDir      int
	strip2Row     int
}

func (l distShiftLevel) generate(e *Env) {
	e.walledRoom(l.width, l.height)
	e.set(l.width-2, 1, goal)
	for i := range l.width - 6 {
		e.set(3+i, 1, lava)
		e.set(3+i, l.strip2Row, lava)
	}
	e.startAt(l.start, l.startDir)
	e.mission = missionGoal
}

// obstacleMission is the mission of a task whose obstacles are lava or walls.
func obstacleMission(obstacle cell) string {
	if obstacle.kind == objLava {
		return "avoid the lava and get to the green goal square"
	}
	return "find the opening and get to the green goal square"
}

// obstacleRoom is a square room with obstacles of lava or walls between the agent,
// in the top left corner facing east, and the goal in the bottom right.
type obstacleRoom struct {
	plainRules
	size     int
	obstacle cell
}

// begin lays out the room, the goal, the agent and the mission.
func (l obstacleRoom) begin(e *Env) {
	e.goalRoom(l.size)
	e.agent, e.dir = point{1, 1}, 0
	e.mission = obstacleMission(l.obstacle)
}

// lavaGapLevel is MiniGrid-LavaGapS<n>: a column of lava with one gap.
type lavaGapLevel struct{ obstacleRoom }

func (l lavaGapLevel) generate(e *Env) {
	l.begin(e)
	w, h := l.size, l.size
	gap := point{e.randInt(2, w-2), e.randInt(1, h-1)}
	e.vertWall(gap.x, 1, h-2, l.obstacle)
	e.set(gap.x, gap.y, empty)
}

// crossingLevel is MiniGrid-LavaCrossing and MiniGrid-SimpleCrossing: rivers cross
// the room, each with one crossing, so that one path of crossings leads to the goal.
type crossingLevel struct {
	obstacleRoom
	crossings int
}

func (l crossingLevel) generate(e *Env) {
	l.begin(e)
	w, h := l.size, l.size
	// The candidate rivers: vertical ones at even columns, horizontal ones at even
	// rows; a random num_crossings of them are laid.
	type river struct {
		vertical bool
		at       int
	}
	var all []river
	for i := 2; i < h-2; i += 2 {
		all = append(all, river{true, i})
	}
	for j := 2; j < w-2; j += 2 {
		all = append(all, river{false, j})
	}
	var rv, rh []int
	for _, k := range e.randPerm(len(all))[:min(l.crossings, len(all))] {
		if all[k].vertical {
			rv = append(rv, all[k].at)
		} else {
			rh = append(rh, all[k].at)
		}
	}
	slices.Sort(rv)
	slices.Sort(rh)
	for _, j := range rh {
		e.horzWall(1, j, w-2, l.obstacle)
	}
	for _, i := range rv {
		e.vertWall(i, 1, h-2, l.obstacle)
	}
	// The path: one step across each river, in a random order; each crossing is a
	// random square of the river's stretch in the room the path has reached.
	path := make([]bool, 0, len(rv)+len(rh)) // true: cross a vertical river (move east)
	for range rv {
		path = append(path, true)
	}
	for range rh {
		path = append(path, false)
	}
	order := e.randPerm(len(path))
	limV := append(append([]int{0}, rv...), h-1)
	limH := append(append([]int{0}, rh...), w-1)
	ri, rj := 0, 0
	for _, k := range order {
		if path[k] {
			e.set(limV[ri+1], e.randInt(limH[rj]+1, limH[rj+1]), empty)
			ri++
		} else {
			e.set(e.randInt(limV[ri]+1, limV[ri+1]), limH[rj+1], empty)
			rj++
		}
	}
}

// dynamicObstaclesLevel is MiniGrid-Dynamic-Obstacles: blue balls (at e.obstacles)
// move to a random free neighbouring square every step; running into one (or into anything but the
// goal) ends the episode with a reward of -1.
type dynamicObstaclesLevel struct {
	size      int
	start     [2]int
	startDir  int
	obstacles int
}

func (l dynamicObstaclesLevel) generate(e *Env) {
	e.goalRoom(l.size)
	e.startAt(l.start, l.startDir)
	for range l.obstacles {
		e.obstacles = append(e.obstacles, e.place(obj(objBall, blue), point{}, point{e.w, e.h}, nil, 100))
	}
	e.mission = missionGoal
}

func (l dynamicObstaclesLevel) step(e *Env, a int) (float32, bool) {
	f := e.front()
	fc := e.grid.get(f.x, f.y)
	blocked := !fc.isEmpty() && fc.kind != objGoal
	for i, old := range e.obstacles {
		if p, ok := e.tryPlace(obj(objBall, blue), point{old.x - 1, old.y - 1}, point{3, 3}, nil, 100); ok {
			e.set(old.x, old.y, empty)
			e.obstacles[i] = p
		}
	}
	r, term := e.act(a)
	if a == actForward && blocked {
		return -1, true
	}
	return r, term
}

// fetchSyntax are the phrasings of Fetch's mission.
var fetchSyntax = [5]string{"get a", "go get a", "fetch a", "go fetch a", "you must fetch a"}

// fetchLevel is MiniGrid-Fetch: pick up the key or ball the mission names (e.want);
// picking up any other ends the episode with nothing.
type fetchLevel struct {
	size, objs int
}

func (l fetchLevel) generate(e *Env) {
	e.walledRoom(l.size, l.size)
	objs := make([]cell, l.objs)
	for i := range objs {
		kind := [2]uint8{objKey, objBall}[e.randInt(0, 2)]
		objs[i] = obj(kind, e.randColor())
		e.placeAnywhere(objs[i])
	}
	e.placeAgentAnywhere()
	e.want = objs[e.randInt(0, len(objs))]
	e.mission = fetchSyntax[e.randInt(0, 5)] + " " + e.want.name()
}

func (l fetchLevel) step(e *Env, a int) (float32, bool) {
	r, term := e.act(a)
	if !e.carrying.isEmpty() {
		if e.carrying.same(e.want) {
			return e.successReward(), true
		}
		return 0, true
	}
	return r, term
}

// nextToTarget judges GoToDoor and GoToObject: toggling ends the episode, and so
// does done, with the success reward when the agent stands next to the target.
func nextToTarget(e *Env, a int) (float32, bool) {
	r, term := e.act(a)
	switch a {
	case actToggle:
		return r, true
	case actDone:
		dx, dy := abs(e.agent.x-e.target.x), abs(e.agent.y-e.target.y)
		if dx+dy == 1 {
			return e.successReward(), true
		}
		return r, true
	}
	return r, term
}

// goToDoorLevel is MiniGrid-GoToDoor: a room of random size up to size x size with a
// door of a different colour in each wall; stand next to the named one (e.target)
// and say done.
type goToDoorLevel struct{ size int }

func (l goToDoorLevel) generate(e *Env) {
	e.grid.reset(l.size, l.size)
	w, h := e.randInt(5, l.size+1), e.randInt(5, l.size+1)
	e.wallRect(0, 0, w, h)
	doors := [4]point{{e.randInt(2, w-2), 0}, {e.randInt(2, w-2), h - 1}, {0, e.randInt(2, h-2)}, {w - 1, e.randInt(2, h-2)}}
	var colors []uint8
	for len(colors) < len(doors) {
		if c := e.randColor(); !slices.Contains(colors, c) {
			colors = append(colors, c)
		}
	}
	for i, p := range doors {
		e.set(p.x, p.y, door(colors[i], false))
	}
	e.placeAgent(point{}, point{w, h}, true, noLimit)
	k := e.randInt(0, len(doors))
	e.target, e.want = doors[k], door(colors[k], false)
	e.mission = "go to the " + colorNames[colors[k]] + " door"
}

func (goToDoorLevel) step(e *Env, a int) (float32, bool) { return nextToTarget(e, a) }

// distinctObjects places n objects (keys, balls or boxes) of distinct kind and colour
// anywhere reject allows, as GoToObject and PutNear do, and returns them and their
// squares.
func distinctObjects(e *Env, n int, reject func(placed []point, p point) bool) ([]cell, []point) {
	var objs []cell
	var at []point
	for len(objs) < n {
		c := obj(e.randKind(), e.randColor())
		if slices.Contains(objs, c) {
			continue
		}
		var rej func(point) bool
		if reject != nil {
			rej = func(p point) bool { return reject(at, p) }
		}
		at = append(at, e.place(c, point{}, point{e.w, e.h}, rej, noLimit))
		objs = append(objs, c)
	}
	return objs, at
}

// goToObjectLevel is MiniGrid-GoToObject: stand next to the named object (e.want, at
// e.target) and say done.
type goToObjectLevel struct{ size, objs int }

func (l goToObjectLevel) generate(e *Env) {
	e.walledRoom(l.size, l.size)
	objs, at := distinctObjects(e, l.objs, nil)
	e.placeAgentAnywhere()
	k := e.randInt(0, len(objs))
	e.want, e.target = objs[k], at[k]
	e.mission = "go to the " + e.want.name()
}

func (goToObjectLevel) step(e *Env, a int) (float32, bool) { return nextToTarget(e, a) }

// putNearLevel is MiniGrid-PutNear: pick up the named object (e.want, first at
// e.other) and drop it next to (or diagonally next to) the other named one (at
// e.target). Picking up a wrong object or dropping the object anywhere ends the
// episode.
type putNearLevel struct{ size, objs int }

func (l putNearLevel) generate(e *Env) {
	e.walledRoom(l.size, l.size)
	near := func(placed []point, p point) bool {
		for _, q := range placed {
			if abs(p.x-q.x) <= 1 && abs(p.y-q.y) <= 1 {
				return true
			}
		}
		return false
	}
	objs, at := distinctObjects(e, l.objs, near)
	e.placeAgentAnywhere()
	move := e.randInt(0, len(objs))
	target := move
	for target == move {
		target = e.randInt(0, len(objs))
	}
	e.want, e.target, e.other = objs[move], at[target], at[move]
	e.mission = "put the " + objs[move].name() + " near the " + objs[target].name()
}

func (putNearLevel) step(e *Env, a int) (float32, bool) {
	held := e.carrying
	r, term := e.act(a)
	f := e.front()
	if a == actPickup && !e.carrying.isEmpty() && !e.carrying.same(e.want) {
		term = true
	}
	if a == actDrop && !held.isEmpty() {
		if e.carrying.isEmpty() && abs(f.x-e.target.x) <= 1 && abs(f.y-e.target.y) <= 1 {
			r = e.successReward()
		}
		term = true
	}
	return r, term
}

// redBlueDoorsLevel is MiniGrid-RedBlueDoors: a room with a red door in its west wall
// (e.target) and a blue one in its east wall (e.other); open the red door, then the
// blue one.
type redBlueDoorsLevel struct{ size int }

func (l redBlueDoorsLevel) generate(e *Env) {
	s := l.size
	e.walledRoom(2*s, s)
	e.wallRect(s/2, 0, s, s)
	e.placeAgent(point{s / 2, 0}, point{s, s}, true, noLimit)
	e.target = point{s / 2, e.randInt(1, s-1)}
	e.set(e.target.x, e.target.y, door(red, false))
	e.other = point{s/2 + s - 1, e.randInt(1, s-1)}
	e.set(e.other.x, e.other.y, door(blue, false))
	e.mission = "open the red door then the blue door"
}

func (redBlueDoorsLevel) step(e *Env, a int) (float32, bool) {
	redBefore, blueBefore := e.isOpen(e.target), e.isOpen(e.other)
	r, term := e.act(a)
	switch {
	case e.isOpen(e.other):
		if redBefore {
			return e.successReward(), true
		}
		return 0, true
	case e.isOpen(e.target) && blueBefore:
		return 0, true
	}
	return r, term
}

// lockedRoomLevel is MiniGrid-LockedRoom: six rooms off a corridor, one locked with
// the goal inside; the key to it lies in another room the mission names.
type lockedRoomLevel square

func (l lockedRoomLevel) generate(e *Env) {
	w, h := l.size, l.size
	e.walledRoom(w, h)
	lw, rw := w/2-2, w/2+2
	e.vertWall(lw, 0, h, wall)
	e.vertWall(rw, 0, h, wall)
	type lroom struct{ top, size, door point }
	var rms []lroom
	for n := range 3 {
		j := n * (h / 3)
		e.horzWall(0, j, lw, wall)
		e.horzWall(rw, j, w-rw, wall)
		size := point{lw + 1, h/3 + 1}
		rms = append(rms, lroom{point{0, j}, size, point{lw, j + 3}}, lroom{point{rw, j}, size, point{rw, j + 3}})
	}
	inside := func(r lroom) point {
		return point{e.randInt(r.top.x+1, r.top.x+r.size.x-1), e.randInt(r.top.y+1, r.top.y+r.size.y-1)}
	}
	locked := e.randInt(0, len(rms))
	g := inside(rms[locked])
	e.set(g.x, g.y, goal)
	colors := slices.Clone(allColors)
	roomColor := make([]uint8, len(rms))
	for i, r := range rms {
		k := e.randInt(0, len(colors))
		roomColor[i] = colors[k]
		colors = slices.Delete(colors, k, k+1)
		e.set(r.door.x, r.door.y, door(roomColor[i], i == locked))
	}
	keyRoom := locked
	for keyRoom == locked {
		keyRoom = e.randInt(0, len(rms))
	}
	k := inside(rms[keyRoom])
	e.set(k.x, k.y, obj(objKey, roomColor[locked]))
	e.placeAgent(point{lw, 0}, point{rw - lw, h}, true, noLimit)
	lc := colorNames[roomColor[locked]]
	e.mission = "get the " + lc + " key from the " + colorNames[roomColor[keyRoom]] + " room, unlock the " + lc + " door and go to the goal"
}

// memoryLevel is MiniGrid-Memory: see the object in the start room, walk down the
// hallway and stand beside the matching one of the two at its end (on e.target; the
// square beside the other, e.other, ends the episode with nothing).
type memoryLevel struct {
	size         int
	randomLength bool
}

func (l memoryLevel) generate(e *Env) {
	w, h := l.size, l.size
	e.walledRoom(w, h)
	upper, lower := h/2-2, h/2+2
	end := w - 3
	if l.randomLength {
		end = e.randInt(4, w-2)
	}
	for i := 1; i < 5; i++ {
		e.set(i, upper, wall)
		e.set(i, lower, wall)
	}
	e.set(4, upper+1, wall)
	e.set(4, lower-1, wall)
	for i := 5; i < end; i++ {
		e.set(i, upper+1, wall)
		e.set(i, lower-1, wall)
	}
	for j := range h {
		if j != h/2 {
			e.set(end, j, wall)
		}
		e.set(end+2, j, wall)
	}
	e.agent, e.dir = point{e.randInt(1, end+1), h / 2}, 0
	kinds := [2]uint8{objKey, objBall}
	seen := kinds[e.randInt(0, 2)]
	e.set(1, h/2-1, obj(seen, green))
	first := e.randInt(0, 2) // which of key and ball lies at the top end
	p0, p1 := point{end + 1, h/2 - 2}, point{end + 1, h/2 + 2}
	e.set(p0.x, p0.y, obj(kinds[first], green))
	e.set(p1.x, p1.y, obj(kinds[1-first], green))
	if seen == kinds[first] {
		e.target, e.other = point{p0.x, p0.y + 1}, point{p1.x, p1.y - 1}
	} else {
		e.target, e.other = point{p1.x, p1.y - 1}, point{p0.x, p0.y + 1}
	}
	e.mission = "go to the matching object at the end of the hallway"
}

func (memoryLevel) step(e *Env, a int) (float32, bool) {
	if a == actPickup {
		a = actToggle
	}
	r, term := e.act(a)
	switch e.agent {
	case e.target:
		return e.successReward(), true
	case e.other:
		return 0, true
	}
	return r, term
}

// multiRoomLevel is MiniGrid-MultiRoom: a chain of rooms joined by closed doors, the
// agent in the first, the goal in the last.
type multiRoomLevel struct {
	plainRules
	minRooms, maxRooms, maxRoomSize int
}

// multiRoomSize is the side of MultiRoom's grid.
const multiRoomSize = 25

// chainRoom is one room of the chain: its corner, size and the door it is entered by.
type chainRoom struct{ top, size, entry point }

func (l multiRoomLevel) generate(e *Env) {
	e.grid.reset(multiRoomSize, multiRoomSize)
	n := e.randInt(l.minRooms, l.maxRooms+1)
	var best []chainRoom
	for len(best) < n {
		var cur []chainRoom
		entry := point{e.randInt(0, multiRoomSize-2), e.randInt(0, multiRoomSize-2)}
		l.placeRoom(e, n, &cur, 2, entry)
		if len(cur) > len(best) {
			best = cur
		}
	}
	prevColor := numColors
	for i, r := range best {
		e.wallRect(r.top.x, r.top.y, r.size.x, r.size.y)
		if i > 0 {
			var colors []uint8
			for _, c := range allColors {
				if c != prevColor {
					colors = append(colors, c)
				}
			}
			c := colors[e.randInt(0, len(colors))]
			e.set(r.entry.x, r.entry.y, door(c, false))
			prevColor = c
		}
	}
	e.placeAgent(best[0].top, best[0].size, true, noLimit)
	last := best[len(best)-1]
	e.target = e.place(goal, last.top, last.size, nil, noLimit)
	e.mission = "traverse the rooms to get to the goal"
}

// placeRoom tries to add a room entered by a door at entry in wall entryWall (the
// entry wall's index as the directions number them), then up to eight times a room
// beyond an exit door of it, as MultiRoomEnv._placeRoom; it reports whether the
// first room fitted.
func (l multiRoomLevel) placeRoom(e *Env, left int, list *[]chainRoom, entryWall int, entry point) bool {
	sx, sy := e.randInt(4, l.maxRoomSize+1), e.randInt(4, l.maxRoomSize+1)
	var top point
	switch {
	case len(*list) == 0:
		top = entry
	case entryWall == 0:
		top = point{entry.x - sx + 1, e.randInt(entry.y-sy+2, entry.y)}
	case entryWall == 1:
		top = point{e.randInt(entry.x-sx+2, entry.x), entry.y - sy + 1}
	case entryWall == 2:
		top = point{entry.x, e.randInt(entry.y-sy+2, entry.y)}
	default:
		top = point{e.randInt(entry.x-sx+2, entry.x), entry.y}
	}
	if top.x < 0 || top.y < 0 || top.x+sx > e.w || top.y+sy >= e.h {
		return false
	}
	rs := *list
	for _, r := range rs[:max(len(rs)-1, 0)] {
		apart := top.x+sx < r.top.x || r.top.x+r.size.x <= top.x || top.y+sy < r.top.y || r.top.y+r.size.y <= top.y
		if !apart {
			return false
		}
	}
	*list = append(*list, chainRoom{top, point{sx, sy}, entry})
	if left == 1 {
		return true
	}
	for range 8 {
		var walls []int
		for k := range 4 {
			if k != entryWall {
				walls = append(walls, k)
			}
		}
		exitWall := walls[e.randInt(0, 3)]
		var exit point
		switch exitWall {
		case 0:
			exit = point{top.x + sx - 1, top.y + e.randInt(1, sy-1)}
		case 1:
			exit = point{top.x + e.randInt(1, sx-1), top.y + sy - 1}
		case 2:
			exit = point{top.x, top.y + e.randInt(1, sy-1)}
		default:
			exit = point{top.x + e.randInt(1, sx-1), top.y}
		}
		if l.placeRoom(e, left-1, list, (exitWall+2)%4, exit) {
			break
		}
	}
	return true
}

// fourRoomsLevel is MiniGrid-FourRooms: four rooms joined by gaps, the agent and the
// goal anywhere.
type fourRoomsLevel struct{ plainRules }

// fourRoomsSize is the side of FourRooms' and Playground's grids.
const fourRoomsSize = 19

func (fourRoomsLevel) generate(e *Env) {
	splitRooms(e, 2, func(vertical bool, at, lo, hi int) {
		if vertical {
			e.set(at, e.randInt(lo, hi), empty)
		} else {
			e.set(e.randInt(lo, hi), at, empty)
		}
	})
	e.placeAgentAnywhere()
	e.target = e.placeAnywhere(goal)
	e.mission = "reach the goal"
}

// splitRooms walls a fourRoomsSize grid in and divides it into n x n rooms, calling
// opening for each wall between two rooms, in minigrid's order: a vertical one at
// column at, or a horizontal one at row at, whose room side spans [lo, hi).
func splitRooms(e *Env, n int, opening func(vertical bool, at, lo, hi int)) {
	w, h := fourRoomsSize, fourRoomsSize
	e.walledRoom(w, h)
	rw, rh := w/n, h/n
	for j := range n {
		for i := range n {
			xl, yt := i*rw, j*rh
			xr, yb := xl+rw, yt+rh
			if i+1 < n {
				e.vertWall(xr, yt, rh, wall)
				opening(true, xr, yt+1, yb)
			}
			if j+1 < n {
				e.horzWall(xl, yb, rw, wall)
				opening(false, yb, xl+1, xr)
			}
		}
	}
}

// playgroundLevel is MiniGrid-Playground: nine rooms joined by closed doors of random
// colours, twelve random objects, no mission and no reward.
type playgroundLevel struct{ plainRules }

func (playgroundLevel) generate(e *Env) {
	// A door somewhere in each wall between rooms, never at the room side's last square.
	splitRooms(e, 3, func(vertical bool, at, lo, hi int) {
		k := e.randInt(lo, hi-1)
		if vertical {
			e.set(at, k, door(e.randColor(), false))
		} else {
			e.set(k, at, door(e.randColor(), false))
		}
	})
	e.placeAgentAnywhere()
	for range 12 {
		e.placeAnywhere(obj(e.randKind(), e.randColor()))
	}
	e.mission = ""
}
