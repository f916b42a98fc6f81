package minigrid

import (
	"fmt"
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

const family = "minigrid"

// renderFPS is minigrid's metadata["render_fps"].
const renderFPS = 10

// commonOptions are the options every task takes.
type commonOptions struct {
	MaxEpisodeSteps int  `toml:"max_episode_steps" range:"[1,1e9]" help:"the episode is truncated after this many steps (minigrid's max_steps; the success reward is 1 - 0.9 * steps / max_episode_steps)"`
	AgentViewSize   int  `toml:"agent_view_size" range:"[3,51]" help:"side of the agent's square view in cells, odd"`
	SeeThroughWalls bool `toml:"see_through_walls" help:"the agent sees every cell of its view square, walls and closed doors hide nothing"`
	MissionBytes    int  `toml:"mission_bytes" range:"[2,4096]" help:"bytes of the observation's mission field (the mission text, zero padded, cut to mission_bytes-1)"`
	TileSize        int  `toml:"tile_size" range:"[4,128]" help:"pixels per cell of a rendered picture"`
}

// task is a registered id: its options' defaults and how to build its level.
type task[O any] struct {
	id       string
	maxSteps int
	see      bool // minigrid's see_through_walls for the task
	actions  int
	opts     O
	build    func(O) (level, error)
}

// register adds a task whose own options are the struct type O.
func register[O any](t task[O]) {
	envs.Register(envs.Task{ID: t.id, Family: family, EnvTimeLimit: true, New: func(m map[string]any) (envpool.Spec, envpool.Factory, error) {
		c := commonOptions{MaxEpisodeSteps: t.maxSteps, AgentViewSize: 7, SeeThroughWalls: t.see, MissionBytes: 96, TileSize: 32}
		o := t.opts
		if err := envs.DecodeOptions(m, &c, &o); err != nil {
			return envpool.Spec{}, nil, err
		}
		if c.AgentViewSize%2 == 0 {
			return envpool.Spec{}, nil, fmt.Errorf("option agent_view_size = %d: the view needs a middle column for the agent; use an odd size such as 7", c.AgentViewSize)
		}
		lv, err := t.build(o)
		if err != nil {
			return envpool.Spec{}, nil, err
		}
		actions := t.actions
		if actions == 0 {
			actions = numActions
		}
		cfg := &config{lv: lv, maxSteps: c.MaxEpisodeSteps, viewSize: c.AgentViewSize, seeThrough: c.SeeThroughWalls,
			missionBytes: c.MissionBytes, numActions: actions, tileSize: c.TileSize}
		spec := cfg.spec(t.id)
		return spec, func(_ int, seed int64) (envpool.Env, error) { return newEnv(cfg, seed), nil }, nil
	}})
}

// spec is the task's spec: the observation is EnvPool's dict of direction, image and
// mission flattened into one uint8 row in that (its key) order, the spec's layout
// naming the parts.
func (c *config) spec(id string) envpool.Spec {
	img := c.viewSize * c.viewSize * 3
	n := 1 + img + c.missionBytes
	obs := envpool.UniformBox(0, 255, envpool.Uint8, n)
	obs.High[0] = 3
	return envpool.Spec{
		TaskID: id, ObsSpace: obs, ActionSpace: envpool.DiscreteSpace(c.numActions),
		MaxEpisodeSteps: c.maxSteps, FrameSkip: 1, RewardThreshold: math.NaN(), RenderFPS: renderFPS,
		InfoKeys: []string{"agent_pos_x", "agent_pos_y", "mission_id"},
		ObsLayout: []envpool.ObsField{
			{Name: "direction", Offset: 0, Size: 1, Scalar: true},
			{Name: "image", Offset: 1, Size: img},
			{Name: "mission", Offset: 1 + img, Size: c.missionBytes},
		},
	}
}

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

type emptyOptions struct {
	Size int `toml:"size" range:"[4,100]" help:"side of the room, walls included"`
	startOptions
}

type sizeOptions struct {
	Size int `toml:"size" range:"[5,100]" help:"side of the grid, walls included"`
}

type distShiftOptions struct {
	Width     int `toml:"width" range:"[7,100]" help:"width of the grid, walls included"`
	Height    int `toml:"height" range:"[4,100]" help:"height of the grid, walls included"`
	Strip2Row int `toml:"strip2_row" range:"[1,98]" help:"row of the second strip of lava"`
	startOptions
}

type obstacleOptions struct {
	Size         int    `toml:"size" range:"[5,100]" help:"side of the grid, walls included"`
	ObstacleType string `toml:"obstacle_type" oneof:"lava|wall" help:"what the obstacles are made of"`
}

type crossingOptions struct {
	obstacleOptions
	NumCrossings int `toml:"num_crossings" range:"[1,100]" help:"how many rivers cross the room"`
}

type dynamicOptions struct {
	Size       int `toml:"size" range:"[4,100]" help:"side of the room, walls included"`
	NObstacles int `toml:"n_obstacles" range:"[0,100]" help:"moving balls (at most size/2 + 1; more become size/2, as minigrid)"`
	startOptions
}

type objectsOptions struct {
	Size    int `toml:"size" range:"[5,100]" help:"side of the room, walls included"`
	NumObjs int `toml:"num_objs" range:"[1,100]" help:"objects in the room"`
}

type memoryOptions struct {
	Size         int  `toml:"size" range:"[7,101]" help:"side of the grid, walls included, odd"`
	RandomLength bool `toml:"random_length" help:"the hallway's length is random"`
}

type multiRoomOptions struct {
	MinNumRooms int `toml:"min_num_rooms" range:"[1,30]" help:"fewest rooms of the chain"`
	MaxNumRooms int `toml:"max_num_rooms" range:"[1,30]" help:"most rooms of the chain"`
	MaxRoomSize int `toml:"max_room_size" range:"[4,24]" help:"largest side of a room, walls included"`
}

type noOptions struct{}

type keyCorridorOptions struct {
	RoomSize int    `toml:"room_size" range:"[3,20]" help:"side of a room, walls included"`
	NumRows  int    `toml:"num_rows" range:"[1,10]" help:"rooms on each side of the corridor"`
	ObjType  string `toml:"obj_type" oneof:"ball|key|box" help:"what the agent must pick up"`
}

type obstructedOptions struct {
	AgentRoom   [2]int `toml:"agent_room" help:"the (column, row) of the maze room the agent starts in"`
	KeyInBox    bool   `toml:"key_in_box" help:"keys are hidden in boxes"`
	Blocked     bool   `toml:"blocked" help:"a ball blocks each locked door"`
	NumQuarters int    `toml:"num_quarters" range:"[1,4]" help:"how many of the maze's corner quarters are locked off and may hold the ball"`
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

func buildEmpty(o emptyOptions) (level, error) {
	return emptyLevel{size: o.Size, start: o.AgentStartPos, startDir: o.AgentStartDir}, o.check(o.Size, o.Size)
}

func buildDoorKey(o sizeOptions) (level, error) { return doorKeyLevel{size: o.Size}, nil }

func buildDistShift(o distShiftOptions) (level, error) {
	if o.Strip2Row > o.Height-2 {
		return nil, fmt.Errorf("option strip2_row = %d lies outside the room; use a row in [1, %d]", o.Strip2Row, o.Height-2)
	}
	return distShiftLevel{width: o.Width, height: o.Height, start: o.AgentStartPos, startDir: o.AgentStartDir, strip2Row: o.Strip2Row},
		o.check(o.Width, o.Height)
}

func buildLavaGap(o obstacleOptions) (level, error) {
	return lavaGapLevel{size: o.Size, obstacle: obstacleOf(o.ObstacleType)}, nil
}

func buildCrossing(o crossingOptions) (level, error) {
	if o.Size%2 == 0 {
		return nil, fmt.Errorf("option size = %d: the rivers lie on even rows and columns of an odd grid; use an odd size such as 9", o.Size)
	}
	return crossingLevel{size: o.Size, crossings: o.NumCrossings, obstacle: obstacleOf(o.ObstacleType)}, nil
}

func buildDynamic(o dynamicOptions) (level, error) {
	n := o.NObstacles
	if float64(n) > float64(o.Size)/2+1 {
		n = o.Size / 2
	}
	return dynamicObstaclesLevel{size: o.Size, start: o.AgentStartPos, startDir: o.AgentStartDir, obstacles: n}, o.check(o.Size, o.Size)
}

// checkObjects says whether n objects fit a size x size room with the agent: at most
// the free squares, and for distinct objects at most the 18 kinds and colours.
func checkObjects(o objectsOptions, distinct bool, spaced bool) error {
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

func buildGoToDoor(o sizeOptions) (level, error) { return goToDoorLevel{size: o.Size}, nil }

func buildRedBlueDoors(o sizeOptions) (level, error) { return redBlueDoorsLevel{size: o.Size}, nil }

func buildLockedRoom(o sizeOptions) (level, error) {
	if o.Size < 13 {
		return nil, fmt.Errorf("option size = %d: six rooms of at least 3 x 3 need a grid of 13 or more", o.Size)
	}
	return lockedRoomLevel{size: o.Size}, nil
}

func buildMemory(o memoryOptions) (level, error) {
	if o.Size%2 == 0 {
		return nil, fmt.Errorf("option size = %d: the hallway runs along the middle row of an odd grid; use an odd size such as 13", o.Size)
	}
	return memoryLevel{size: o.Size, randomLength: o.RandomLength}, nil
}

func buildMultiRoom(o multiRoomOptions) (level, error) {
	if o.MinNumRooms > o.MaxNumRooms {
		return nil, fmt.Errorf("options min_num_rooms = %d and max_num_rooms = %d: the fewest rooms exceed the most", o.MinNumRooms, o.MaxNumRooms)
	}
	return multiRoomLevel{minRooms: o.MinNumRooms, maxRooms: o.MaxNumRooms, maxRoomSize: o.MaxRoomSize}, nil
}

func buildKeyCorridor(o keyCorridorOptions) (level, error) {
	return keyCorridorLevel{roomSize: o.RoomSize, rows: o.NumRows, kind: kindOf[o.ObjType]}, nil
}

// fixed returns the build of a task without options of its own.
func fixed(lv level) func(noOptions) (level, error) {
	return func(noOptions) (level, error) { return lv, nil }
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
