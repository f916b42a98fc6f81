package minigrid

import (
	"errors"
	"fmt"
)

// The options of the tasks, by the levels they build. Each struct's values in init
// are a task's defaults (EnvPool's registration); ranges are what the level's layout
// needs.

type startOptions struct {
	AgentStartPos [2]int `toml:"agent_start_pos" help:"the agent's start (x, y); (-1, -1): a random free square"`
	AgentStartDir int    `toml:"agent_start_dir" range:"[-1,3]" help:"the agent's start direction (0 east, 1 south, 2 west, 3 north); -1: random"`
}

// check says whether the start lies inside a w x h grid's outer walls.
func (o startOptions) check(w, h int) error {
	p := o.AgentStartPos
	if (p[0] < 0 || p[1] < 0) && (p[0] != -1 || p[1] != -1) {
		return fmt.Errorf("option agent_start_pos = %v: give a square inside the walls or (-1, -1) for a random one", p)
	}
	if p[0] >= 0 && (p[0] < 1 || p[1] < 1 || p[0] > w-2 || p[1] > h-2) {
		return fmt.Errorf("option agent_start_pos = %v is outside the room: x in [1, %d], y in [1, %d], or (-1, -1) for a random square", p, w-2, h-2)
	}
	return nil
}

// sizeOptions is the size of a square grid; each level checks the least it needs
// (atLeast).
type sizeOptions struct {
	Size int `toml:"size" range:"[4,101]" help:"side of the grid, walls included"`
}

// atLeast says whether the grid is at least n squares a side.
func (o sizeOptions) atLeast(n int, why string) error {
	if o.Size < n {
		return fmt.Errorf("option size = %d: %s needs a grid of at least %d", o.Size, why, n)
	}
	return nil
}

// odd says whether the grid's side is odd, as a level with a middle row needs.
func (o sizeOptions) odd(why string) error {
	if o.Size%2 == 0 {
		return fmt.Errorf("option size = %d: %s needs an odd size", o.Size, why)
	}
	return nil
}

// emptyOptions are Empty's: the room and the start.
type emptyOptions struct {
	sizeOptions
	startOptions
}

func buildEmpty(o emptyOptions) (level, error) {
	return emptyLevel{size: o.Size, start: o.AgentStartPos, startDir: o.AgentStartDir}, o.check(o.Size, o.Size)
}

func buildDoorKey(o sizeOptions) (level, error) {
	return doorKeyLevel{size: o.Size}, o.atLeast(5, "a room split by a wall with a door")
}

// distShiftOptions are DistShift's: the grid, the second strip of lava, the start.
type distShiftOptions struct {
	Width     int `toml:"width" range:"[7,101]" help:"width of the grid, walls included"`
	Height    int `toml:"height" range:"[4,101]" help:"height of the grid, walls included"`
	Strip2Row int `toml:"strip2_row" range:"[1,99]" help:"row of the second strip of lava"`
	startOptions
}

func buildDistShift(o distShiftOptions) (level, error) {
	if o.Strip2Row > o.Height-2 {
		return nil, fmt.Errorf("option strip2_row = %d lies outside the room; use a row in [1, %d]", o.Strip2Row, o.Height-2)
	}
	return distShiftLevel{width: o.Width, height: o.Height, start: o.AgentStartPos, startDir: o.AgentStartDir, strip2Row: o.Strip2Row},
		o.check(o.Width, o.Height)
}

// obstacleOptions are LavaGap's: the grid and what its obstacle is made of.
type obstacleOptions struct {
	sizeOptions
	ObstacleType string `toml:"obstacle_type" oneof:"lava|wall" help:"what the obstacles are made of"`
}

// kindOf reads an object kind option.
var kindOf = map[string]uint8{"ball": objBall, "key": objKey, "box": objBox, "lava": objLava, "wall": objWall}

// obstacleOf is the obstacle cell of an obstacle_type.
func obstacleOf(name string) cell {
	if name == "wall" {
		return wall
	}
	return lava
}

func buildLavaGap(o obstacleOptions) (level, error) {
	return lavaGapLevel{obstacleRoom{size: o.Size, obstacle: obstacleOf(o.ObstacleType)}}, o.atLeast(5, "a gap between the agent and the goal")
}

// crossingOptions are the crossing tasks': LavaGap's and how many rivers.
type crossingOptions struct {
	obstacleOptions
	NumCrossings int `toml:"num_crossings" range:"[1,100]" help:"how many rivers cross the room"`
}

func buildCrossing(o crossingOptions) (level, error) {
	if err := errors.Join(o.atLeast(5, "a river"), o.odd("rivers on even rows and columns")); err != nil {
		return nil, err
	}
	return crossingLevel{obstacleRoom{size: o.Size, obstacle: obstacleOf(o.ObstacleType)}, o.NumCrossings}, nil
}

// dynamicOptions are Dynamic-Obstacles': the room, the moving balls, the start.
type dynamicOptions struct {
	sizeOptions
	NObstacles int `toml:"n_obstacles" range:"[0,100]" help:"moving balls (at most size/2 + 1; more become size/2, as minigrid)"`
	startOptions
}

func buildDynamic(o dynamicOptions) (level, error) {
	n := o.NObstacles
	if float64(n) > float64(o.Size)/2+1 {
		n = o.Size / 2
	}
	return dynamicObstaclesLevel{size: o.Size, start: o.AgentStartPos, startDir: o.AgentStartDir, obstacles: n}, o.check(o.Size, o.Size)
}

// objectsOptions are Fetch's, GoToObject's and PutNear's: the room and its objects.
type objectsOptions struct {
	sizeOptions
	NumObjs int `toml:"num_objs" range:"[1,100]" help:"objects in the room"`
}

// checkObjects says whether n objects fit a size x size room with the agent: at most
// the free squares, and for distinct objects at most the 18 kinds and colours.
func checkObjects(o objectsOptions, distinct bool, spaced bool) error {
	if err := o.atLeast(5, "a room of objects"); err != nil {
		return err
	}
	free := (o.Size-2)*(o.Size-2) - 1
	if spaced {
		free = ((o.Size - 1) / 2) * ((o.Size - 1) / 2)
	}
	if distinct {
		free = min(free, 18)
	}
	if o.NumObjs > free {
		return fmt.Errorf("option num_objs = %d: a %d x %d room holds at most %d such objects", o.NumObjs, o.Size, o.Size, free)
	}
	return nil
}

func buildFetch(o objectsOptions) (level, error) {
	return fetchLevel{size: o.Size, objs: o.NumObjs}, checkObjects(o, false, false)
}

func buildGoToObject(o objectsOptions) (level, error) {
	return goToObjectLevel{size: o.Size, objs: o.NumObjs}, checkObjects(o, true, false)
}

func buildPutNear(o objectsOptions) (level, error) {
	if o.NumObjs < 2 {
		return nil, fmt.Errorf("option num_objs = %d: PutNear needs an object to move and one to put it near; use 2 or more", o.NumObjs)
	}
	return putNearLevel{size: o.Size, objs: o.NumObjs}, checkObjects(o, true, true)
}

func buildGoToDoor(o sizeOptions) (level, error) {
	return goToDoorLevel{size: o.Size}, o.atLeast(5, "a door in each wall")
}

func buildRedBlueDoors(o sizeOptions) (level, error) { return redBlueDoorsLevel{size: o.Size}, nil }

func buildLockedRoom(o sizeOptions) (level, error) {
	return lockedRoomLevel{size: o.Size}, o.atLeast(13, "six rooms of at least 3 x 3")
}

// memoryOptions are Memory's: the grid and whether the hallway's length varies.
type memoryOptions struct {
	sizeOptions
	RandomLength bool `toml:"random_length" help:"the hallway's length is random"`
}

func buildMemory(o memoryOptions) (level, error) {
	if err := errors.Join(o.atLeast(7, "a start room and a hallway"), o.odd("a hallway along the middle row")); err != nil {
		return nil, err
	}
	return memoryLevel{size: o.Size, randomLength: o.RandomLength}, nil
}

// multiRoomOptions are MultiRoom's: how many rooms and how large.
type multiRoomOptions struct {
	MinNumRooms int `toml:"min_num_rooms" range:"[1,30]" help:"fewest rooms of the chain"`
	MaxNumRooms int `toml:"max_num_rooms" range:"[1,30]" help:"most rooms of the chain"`
	MaxRoomSize int `toml:"max_room_size" range:"[4,24]" help:"largest side of a room, walls included"`
}

func buildMultiRoom(o multiRoomOptions) (level, error) {
	if o.MinNumRooms > o.MaxNumRooms {
		return nil, fmt.Errorf("options min_num_rooms = %d and max_num_rooms = %d: the fewest rooms exceed the most", o.MinNumRooms, o.MaxNumRooms)
	}
	return multiRoomLevel{minRooms: o.MinNumRooms, maxRooms: o.MaxNumRooms, maxRoomSize: o.MaxRoomSize}, nil
}

// keyCorridorOptions are KeyCorridor's: the rooms and the object to pick up.
type keyCorridorOptions struct {
	RoomSize int    `toml:"room_size" range:"[3,20]" help:"side of a room, walls included"`
	NumRows  int    `toml:"num_rows" range:"[1,10]" help:"rooms on each side of the corridor"`
	ObjType  string `toml:"obj_type" oneof:"ball|key|box" help:"what the agent must pick up"`
}

func buildKeyCorridor(o keyCorridorOptions) (level, error) {
	return keyCorridorLevel{roomSize: o.RoomSize, rows: o.NumRows, kind: kindOf[o.ObjType]}, nil
}

// noOptions are the options of a task with none of its own.
type noOptions struct{}

// fixed returns the build of a task without options of its own.
func fixed(lv level) func(noOptions) (level, error) {
	return func(noOptions) (level, error) { return lv, nil }
}

// obstructedOptions are ObstructedMaze's: where the agent starts, how the locks are
// hidden and blocked, how many quarters are locked off.
type obstructedOptions struct {
	AgentRoom   [2]int `toml:"agent_room" help:"the (column, row) of the maze room the agent starts in"`
	KeyInBox    bool   `toml:"key_in_box" help:"keys are hidden in boxes"`
	Blocked     bool   `toml:"blocked" help:"a ball blocks each locked door"`
	NumQuarters int    `toml:"num_quarters" range:"[1,4]" help:"how many of the maze's corner quarters are locked off and may hold the ball"`
}

// buildObstructed returns the build of an ObstructedMaze task: the two-room variant or
// the 3 x 3 maze, v1's key order or v0's.
func buildObstructed(twoRooms, v1 bool) func(obstructedOptions) (level, error) {
	return func(o obstructedOptions) (level, error) {
		r := o.AgentRoom
		if r[0] < 0 || r[1] < 0 || r[0] > 2 || r[1] > 2 || (twoRooms && (r[0] > 1 || r[1] > 0)) {
			return nil, fmt.Errorf("option agent_room = %v is not a room of the maze: columns and rows are 0 to 2", r)
		}
		return obstructedMazeLevel{twoRooms: twoRooms, agentRoom: r, keyInBox: o.KeyInBox, blocked: o.Blocked,
			quarters: o.NumQuarters, doorsFirstV1: v1}, nil
	}
}

// wfcOptions are WFC's: the preset, the grid and whether only the largest free
// region is kept.
type wfcOptions struct {
	sizeOptions
	WFCPreset       string `toml:"wfc_preset" oneof:"MazeSimple|DungeonMazeScaled|RoomsFabric|ObstaclesBlackdots|ObstaclesAngular|ObstaclesHogs3" help:"the example picture the maze grows from"`
	EnsureConnected bool   `toml:"ensure_connected" help:"wall off all but the largest connected free region"`
}

func buildWFC(o wfcOptions) (level, error) {
	if err := o.atLeast(5, "a maze"); err != nil {
		return nil, err
	}
	m, err := newWFCModel(wfcPresets[o.WFCPreset])
	return wfcLevel{model: m, size: o.Size, connected: o.EnsureConnected}, err
}
