package minigrid

import (
	"errors"
	"fmt"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// The 96 BabyAI ids of EnvPool 1.2.4's envpool/minigrid/registration.py, in the
// minigrid family as EnvPool registers them beside the MiniGrid ids, with a mission
// field of 512 bytes. Each level takes the options minigrid's level class takes.

// babyCommonOptions are the options every BabyAI level takes: MiniGrid's, with a
// time limit that defaults to the level's own.
type babyCommonOptions struct {
	MaxEpisodeSteps int `toml:"max_episode_steps" range:"[0,1e9]" help:"the episode is truncated after this many steps; 0: the level's own max_steps (minigrid's: fixed, or the instruction's navigations times room_size^2 * num_rows * num_cols)"`
	viewOptions
}

// registerBabyAI adds a BabyAI id whose own options are the struct type O.
func registerBabyAI[O any](id string, opts O, build func(O) (babyLevel, error)) {
	envs.Register(envs.Task{ID: id, Family: family, EnvTimeLimit: true, New: func(m map[string]any) (envpool.Spec, envpool.Factory, error) {
		c := babyCommonOptions{viewOptions: defaultView(false, 512)}
		o := opts
		if err := envs.DecodeOptions(m, &c, &o); err != nil {
			return envpool.Spec{}, nil, err
		}
		lv, err := build(o)
		if err != nil {
			return envpool.Spec{}, nil, err
		}
		steps := c.MaxEpisodeSteps
		if steps == 0 {
			steps = lv.fixedSteps
		}
		return newTask(id, lv, steps, c.viewOptions, 0, &c, &o)
	}})
}

// babyRoomOptions is the side of a level's rooms.
type babyRoomOptions struct {
	RoomSize int `toml:"room_size" range:"[4,30]" help:"side of a room, walls included"`
}

// babyGridOptions is a level's room grid.
type babyGridOptions struct {
	babyRoomOptions
	NumRows int `toml:"num_rows" range:"[1,10]" help:"rows of rooms"`
	NumCols int `toml:"num_cols" range:"[1,10]" help:"columns of rooms"`
}

// babyDistsOptions is a level's room grid and its distractors.
type babyDistsOptions struct {
	babyGridOptions
	NumDists int `toml:"num_dists" range:"[0,200]" help:"distractor objects"`
}

// babyRoomDistsOptions is a one-room level's room and its distractors.
type babyRoomDistsOptions struct {
	babyRoomOptions
	NumDists int `toml:"num_dists" range:"[0,200]" help:"distractor objects"`
}

// fits says whether n objects fit rooms rooms of side size with room to spare: at
// most half the rooms' free squares, so that the rejection sampling of places ends.
func fits(n, rooms, size int, option string) error {
	if free := rooms * (size - 2) * (size - 2); 2*n > free {
		return fmt.Errorf("option %s = %d: %d room(s) of side %d hold at most %d objects; use fewer objects or larger rooms", option, n, rooms, size, free/2)
	}
	return nil
}

// atLeastTwoRooms says whether the grid has a wall between two rooms for a door.
func (o babyGridOptions) atLeastTwoRooms(why string) error {
	if o.NumRows*o.NumCols < 2 {
		return fmt.Errorf("options num_rows = %d and num_cols = %d: %s needs two rooms or more", o.NumRows, o.NumCols, why)
	}
	return nil
}

// babyOpenDoorOptions are OpenDoor's.
type babyOpenDoorOptions struct {
	Debug    bool   `toml:"debug" help:"toggling a wrong door fails the episode"`
	SelectBy string `toml:"select_by" oneof:"|color|loc" help:"name the door by its colour or its location; empty: either, drawn"`
}

// babyTwoDoorsOptions are OpenTwoDoors'.
type babyTwoDoorsOptions struct {
	FirstColor  string `toml:"first_color" oneof:"|red|green|blue|purple|yellow|grey" help:"the door to open first; empty: drawn"`
	SecondColor string `toml:"second_color" oneof:"|red|green|blue|purple|yellow|grey" help:"the door to open second; empty: drawn"`
	Strict      bool   `toml:"strict" help:"toggling the second door first fails the episode"`
}

// babyDoorsOrderOptions are OpenDoorsOrder's.
type babyDoorsOrderOptions struct {
	NumDoors int  `toml:"num_doors" range:"[2,4]" help:"doors of the middle room"`
	Debug    bool `toml:"debug" help:"toggling a wrong door fails the episode"`
}

// babyDebugOptions are PickupDist's.
type babyDebugOptions struct {
	Debug bool `toml:"debug" help:"picking up a wrong object fails the episode"`
}

// babyDistractorsOptions are UnlockLocal's and UnlockPickup's.
type babyDistractorsOptions struct {
	Distractors bool `toml:"distractors" help:"add distinct distractor objects"`
}

// babyPutNextOptions are PutNext's and MoveTwoAcross's.
type babyPutNextOptions struct {
	babyRoomOptions
	ObjsPerRoom   int  `toml:"objs_per_room" range:"[1,9]" help:"distinct objects in each of the two rooms (MoveTwoAcross: 2 or more)"`
	StartCarrying bool `toml:"start_carrying" help:"the agent starts holding the object to move (PutNext only)"`
}

// babyLocalOptions are PutNextLocal's.
type babyLocalOptions struct {
	babyRoomOptions
	NumObjs int `toml:"num_objs" range:"[2,18]" help:"distinct objects in the room"`
}

// babyKeyCorridorOptions are KeyCorridor's.
type babyKeyCorridorOptions struct {
	RoomSize int    `toml:"room_size" range:"[3,20]" help:"side of a room, walls included"`
	NumRows  int    `toml:"num_rows" range:"[1,10]" help:"rooms on each side of the corridor"`
	ObjType  string `toml:"obj_type" oneof:"ball|key|box" help:"what the agent must pick up"`
}

// colorOf reads a colour option ("" is numColors: drawn).
func colorOf(name string) uint8 {
	for i, n := range colorNames {
		if n == name {
			return uint8(i)
		}
	}
	return numColors
}

// buildOneRoom returns the build of a one-room level with distractors.
func buildOneRoom(lv func(size, dists int) babyLevel) func(babyRoomDistsOptions) (babyLevel, error) {
	return func(o babyRoomDistsOptions) (babyLevel, error) {
		return lv(o.RoomSize, o.NumDists), fits(o.NumDists+1, 1, o.RoomSize, "num_dists")
	}
}

// buildMaze returns the build of a level on a grid of rooms.
func buildMaze(lv func(size, rows, cols int) babyLevel, objs int, twoRooms string) func(babyGridOptions) (babyLevel, error) {
	return func(o babyGridOptions) (babyLevel, error) {
		err := fits(objs, o.NumRows*o.NumCols, o.RoomSize, "room_size")
		if twoRooms != "" {
			err = errors.Join(err, o.atLeastTwoRooms(twoRooms))
		}
		return lv(o.RoomSize, o.NumRows, o.NumCols), err
	}
}

// buildGen returns the build of a LevelGen level with its settings.
func buildGen(lg levelGen) func(babyDistsOptions) (babyLevel, error) {
	return func(o babyDistsOptions) (babyLevel, error) {
		lg.numDists = o.NumDists
		err := fits(o.NumDists+1, o.NumRows*o.NumCols, o.RoomSize, "num_dists")
		if lg.lockedRoomProb > 0 {
			err = errors.Join(err, o.atLeastTwoRooms("a locked room"))
		}
		return generated(o.RoomSize, o.NumRows, o.NumCols, lg), err
	}
}

// fixedLevel returns the build of a level without options of its own.
func fixedLevel(lv babyLevel) func(noOptions) (babyLevel, error) {
	return func(noOptions) (babyLevel, error) { return lv, nil }
}

// gridOf returns grid options.
func gridOf(size, rows, cols int) babyGridOptions {
	return babyGridOptions{babyRoomOptions{size}, rows, cols}
}

// dists returns grid options with distractors.
func dists(size, rows, cols, n int) babyDistsOptions {
	return babyDistsOptions{gridOf(size, rows, cols), n}
}

func init() {
	registerBabyAI("BabyAI-GoToRedBallGrey-v0", babyRoomDistsOptions{babyRoomOptions{8}, 7}, buildOneRoom(func(s, n int) babyLevel { return goToRedBall(s, n, true) }))
	registerBabyAI("BabyAI-GoToRedBall-v0", babyRoomDistsOptions{babyRoomOptions{8}, 7}, buildOneRoom(func(s, n int) babyLevel { return goToRedBall(s, n, false) }))
	registerBabyAI("BabyAI-GoToRedBallNoDists-v0", babyRoomDistsOptions{babyRoomOptions{8}, 0}, buildOneRoom(func(s, n int) babyLevel { return goToRedBall(s, n, false) }))
	registerBabyAI("BabyAI-GoToRedBlueBall-v0", babyRoomDistsOptions{babyRoomOptions{8}, 7}, buildOneRoom(goToRedBlueBall))
	for _, c := range []struct {
		id   string
		size int
	}{{"BabyAI-GoToObj-v0", 8}, {"BabyAI-GoToObjS4-v0", 4}, {"BabyAI-GoToObjS6-v1", 6}} {
		registerBabyAI(c.id, babyRoomOptions{c.size}, func(o babyRoomOptions) (babyLevel, error) { return goToObj(o.RoomSize), nil })
	}
	for _, c := range []struct{ name, size, n int }{{0, 8, 8}, {52, 5, 2}, {62, 6, 2}, {63, 6, 3}, {64, 6, 4}, {74, 7, 4}, {75, 7, 5},
		{82, 8, 2}, {83, 8, 3}, {84, 8, 4}, {85, 8, 5}, {86, 8, 6}, {87, 8, 7}} {
		id := "BabyAI-GoToLocal-v0"
		if c.name != 0 {
			id = fmt.Sprintf("BabyAI-GoToLocalS%dN%d-v0", c.size, c.n)
		}
		registerBabyAI(id, babyRoomDistsOptions{babyRoomOptions{c.size}, c.n}, buildOneRoom(goToLocal))
	}
	type goToOptions struct {
		babyDistsOptions
		DoorsOpen bool `toml:"doors_open" help:"every door starts open"`
	}
	for _, c := range []struct {
		name             string
		size, rows, cols int
		n                int
		open             bool
	}{{"GoTo", 8, 3, 3, 18, false}, {"GoToOpen", 8, 3, 3, 18, true}, {"GoToObjMaze", 8, 3, 3, 1, false},
		{"GoToObjMazeOpen", 8, 3, 3, 1, true}, {"GoToObjMazeS4", 4, 3, 3, 1, false}, {"GoToObjMazeS4R2", 4, 2, 2, 1, false},
		{"GoToObjMazeS5", 5, 3, 3, 1, false}, {"GoToObjMazeS6", 6, 3, 3, 1, false}, {"GoToObjMazeS7", 7, 3, 3, 1, false}} {
		registerBabyAI("BabyAI-"+c.name+"-v0", goToOptions{dists(c.size, c.rows, c.cols, c.n), c.open}, func(o goToOptions) (babyLevel, error) {
			return goToMaze(o.RoomSize, o.NumRows, o.NumCols, o.NumDists, o.DoorsOpen), fits(o.NumDists, o.NumRows*o.NumCols, o.RoomSize, "num_dists")
		})
	}
	registerBabyAI("BabyAI-GoToImpUnlock-v0", gridOf(8, 3, 3), buildMaze(goToImpUnlock, 18, "a locked room"))
	for _, c := range []struct {
		id                  string
		size, rows, cols, n int
	}{{"BabyAI-GoToSeq-v0", 8, 3, 3, 18}, {"BabyAI-GoToSeqS5R2-v0", 5, 2, 2, 4}} {
		registerBabyAI(c.id, dists(c.size, c.rows, c.cols, c.n), buildGen(levelGen{actions: []uint8{opGoTo}, kinds: allKinds, implicitUnlock: true}))
	}
	registerBabyAI("BabyAI-GoToDoor-v0", noOptions{}, fixedLevel(goToDoor()))
	registerBabyAI("BabyAI-GoToObjDoor-v0", noOptions{}, fixedLevel(goToObjDoor()))

	registerBabyAI("BabyAI-Open-v0", gridOf(8, 3, 3), buildMaze(openLevel, 18, "a door"))
	registerBabyAI("BabyAI-OpenRedDoor-v0", noOptions{}, fixedLevel(openRedDoor()))
	for _, c := range []struct {
		id    string
		debug bool
		by    string
	}{{"BabyAI-OpenDoor-v0", false, ""}, {"BabyAI-OpenDoorColor-v0", false, "color"}, {"BabyAI-OpenDoorDebug-v0", true, ""},
		{"BabyAI-OpenDoorLoc-v0", false, "loc"}} {
		registerBabyAI(c.id, babyOpenDoorOptions{c.debug, c.by}, func(o babyOpenDoorOptions) (babyLevel, error) {
			return openDoor(o.Debug, o.SelectBy), nil
		})
	}
	for _, c := range []struct {
		id            string
		first, second string
		strict        bool
	}{{"BabyAI-OpenTwoDoors-v0", "", "", false}, {"BabyAI-OpenRedBlueDoors-v0", "red", "blue", false},
		{"BabyAI-OpenRedBlueDoorsDebug-v0", "red", "blue", true}} {
		registerBabyAI(c.id, babyTwoDoorsOptions{c.first, c.second, c.strict}, func(o babyTwoDoorsOptions) (babyLevel, error) {
			a, b := colorOf(o.FirstColor), colorOf(o.SecondColor)
			if a == b && a != numColors {
				return babyLevel{}, fmt.Errorf("options first_color and second_color are both %s: the two doors need two colours", o.FirstColor)
			}
			return openTwoDoors(a, b, o.Strict), nil
		})
	}
	for _, c := range []struct {
		id    string
		n     int
		debug bool
	}{{"BabyAI-OpenDoorsOrderN2-v0", 2, false}, {"BabyAI-OpenDoorsOrderN2Debug-v0", 2, true},
		{"BabyAI-OpenDoorsOrderN4-v0", 4, false}, {"BabyAI-OpenDoorsOrderN4Debug-v0", 4, true}} {
		registerBabyAI(c.id, babyDoorsOrderOptions{c.n, c.debug}, func(o babyDoorsOrderOptions) (babyLevel, error) {
			return openDoorsOrder(o.NumDoors, o.Debug), nil
		})
	}

	registerBabyAI("BabyAI-Pickup-v0", gridOf(8, 3, 3), buildMaze(func(s, r, c int) babyLevel { return pickupLevel(s, r, c, false) }, 18, ""))
	registerBabyAI("BabyAI-UnblockPickup-v0", gridOf(8, 3, 3), buildMaze(func(s, r, c int) babyLevel { return pickupLevel(s, r, c, true) }, 20, ""))
	registerBabyAI("BabyAI-PickupLoc-v0", noOptions{}, fixedLevel(generated(8, 1, 1, levelGen{numDists: 8, locations: true,
		implicitUnlock: true, actions: []uint8{opPickup}, kinds: []int{kindAction}})))
	for _, c := range []struct {
		id    string
		debug bool
	}{{"BabyAI-PickupDist-v0", false}, {"BabyAI-PickupDistDebug-v0", true}} {
		registerBabyAI(c.id, babyDebugOptions{c.debug}, func(o babyDebugOptions) (babyLevel, error) { return pickupDist(o.Debug), nil })
	}
	registerBabyAI("BabyAI-PickupAbove-v0", noOptions{}, fixedLevel(pickupAbove()))

	for _, c := range []struct {
		id      string
		size, n int
	}{{"BabyAI-PutNextLocal-v0", 8, 8}, {"BabyAI-PutNextLocalS5N3-v0", 5, 3}, {"BabyAI-PutNextLocalS6N4-v0", 6, 4}} {
		registerBabyAI(c.id, babyLocalOptions{babyRoomOptions{c.size}, c.n}, func(o babyLocalOptions) (babyLevel, error) {
			return putNextLocal(o.RoomSize, o.NumObjs), fits(o.NumObjs, 1, o.RoomSize, "num_objs")
		})
	}
	for _, c := range []struct {
		id      string
		size, n int
		carry   bool
	}{{"BabyAI-PutNextS4N1-v0", 4, 1, false}, {"BabyAI-PutNextS5N1-v0", 5, 1, false}, {"BabyAI-PutNextS5N2-v0", 5, 2, false},
		{"BabyAI-PutNextS5N2Carrying-v0", 5, 2, true}, {"BabyAI-PutNextS6N3-v0", 6, 3, false}, {"BabyAI-PutNextS6N3Carrying-v0", 6, 3, true},
		{"BabyAI-PutNextS7N4-v0", 7, 4, false}, {"BabyAI-PutNextS7N4Carrying-v0", 7, 4, true}} {
		registerBabyAI(c.id, babyPutNextOptions{babyRoomOptions{c.size}, c.n, c.carry}, func(o babyPutNextOptions) (babyLevel, error) {
			return putNextLevel(o.RoomSize, o.ObjsPerRoom, o.StartCarrying), fits(o.ObjsPerRoom, 1, o.RoomSize, "objs_per_room")
		})
	}
	for _, c := range []struct {
		id      string
		size, n int
	}{{"BabyAI-MoveTwoAcrossS5N2-v0", 5, 2}, {"BabyAI-MoveTwoAcrossS8N9-v0", 8, 9}} {
		registerBabyAI(c.id, babyPutNextOptions{babyRoomOptions{c.size}, c.n, false}, func(o babyPutNextOptions) (babyLevel, error) {
			if o.StartCarrying {
				return babyLevel{}, errors.New("option start_carrying: MoveTwoAcross starts with empty hands; leave it false")
			}
			if o.ObjsPerRoom < 2 {
				return babyLevel{}, fmt.Errorf("option objs_per_room = %d: MoveTwoAcross moves two objects of each room; use 2 or more", o.ObjsPerRoom)
			}
			return moveTwoAcross(o.RoomSize, o.ObjsPerRoom), fits(o.ObjsPerRoom, 1, o.RoomSize, "objs_per_room")
		})
	}

	registerBabyAI("BabyAI-Unlock-v0", gridOf(8, 3, 3), buildMaze(unlockMaze, 3*9, "a locked room"))
	for _, c := range []struct {
		id    string
		dists bool
	}{{"BabyAI-UnlockLocal-v0", false}, {"BabyAI-UnlockLocalDist-v0", true}} {
		registerBabyAI(c.id, babyDistractorsOptions{c.dists}, func(o babyDistractorsOptions) (babyLevel, error) {
			return unlockLocal(o.Distractors, false), nil
		})
	}
	registerBabyAI("BabyAI-KeyInBox-v0", noOptions{}, fixedLevel(unlockLocal(false, true)))
	for _, c := range []struct {
		id    string
		dists bool
	}{{"BabyAI-UnlockPickup-v0", false}, {"BabyAI-UnlockPickupDist-v0", true}} {
		registerBabyAI(c.id, babyDistractorsOptions{c.dists}, func(o babyDistractorsOptions) (babyLevel, error) {
			return unlockPickup(o.Distractors), nil
		})
	}
	registerBabyAI("BabyAI-BlockedUnlockPickup-v0", noOptions{}, fixedLevel(blockedUnlockPickup()))
	registerBabyAI("BabyAI-UnlockToUnlock-v0", noOptions{}, fixedLevel(unlockToUnlock()))

	registerBabyAI("BabyAI-ActionObjDoor-v0", noOptions{}, fixedLevel(actionObjDoor()))
	for _, s := range []int{5, 6, 7} {
		registerBabyAI(fmt.Sprintf("BabyAI-FindObjS%d-v0", s), babyRoomOptions{s}, func(o babyRoomOptions) (babyLevel, error) {
			return findObj(o.RoomSize), nil
		})
	}
	for _, c := range []struct {
		name       string
		size, rows int
	}{{"", 6, 3}, {"S3R1", 3, 1}, {"S3R2", 3, 2}, {"S3R3", 3, 3}, {"S4R3", 4, 3}, {"S5R3", 5, 3}, {"S6R3", 6, 3}} {
		registerBabyAI("BabyAI-KeyCorridor"+c.name+"-v0", babyKeyCorridorOptions{c.size, c.rows, "ball"}, func(o babyKeyCorridorOptions) (babyLevel, error) {
			return keyCorridor(o.RoomSize, o.NumRows, kindOf[o.ObjType]), nil
		})
	}
	for _, s := range []int{8, 12, 16, 20} {
		registerBabyAI(fmt.Sprintf("BabyAI-OneRoomS%d-v0", s), babyRoomOptions{s}, func(o babyRoomOptions) (babyLevel, error) {
			return oneRoomBall(o.RoomSize), nil
		})
	}

	registerBabyAI("BabyAI-Synth-v0", dists(8, 3, 3, 18), buildGen(levelGen{lockedRoomProb: 0.5, unblocking: true,
		actions: allActions, kinds: []int{kindAction}}))
	registerBabyAI("BabyAI-SynthS5R2-v0", dists(5, 2, 3, 18), buildGen(levelGen{lockedRoomProb: 0.5, unblocking: true,
		actions: allActions, kinds: []int{kindAction}}))
	registerBabyAI("BabyAI-SynthLoc-v0", dists(8, 3, 3, 18), buildGen(levelGen{lockedRoomProb: 0.5, locations: true, unblocking: true,
		actions: allActions, kinds: []int{kindAction}}))
	registerBabyAI("BabyAI-SynthSeq-v0", dists(8, 3, 3, 18), buildGen(levelGen{lockedRoomProb: 0.5, locations: true, unblocking: true,
		actions: allActions, kinds: allKinds}))
	registerBabyAI("BabyAI-MiniBossLevel-v0", dists(5, 2, 2, 7), buildGen(levelGen{lockedRoomProb: 0.25, locations: true, unblocking: true,
		implicitUnlock: true, actions: allActions, kinds: allKinds}))
	registerBabyAI("BabyAI-BossLevel-v0", dists(8, 3, 3, 18), buildGen(levelGen{lockedRoomProb: 0.5, locations: true, unblocking: true,
		implicitUnlock: true, actions: allActions, kinds: allKinds}))
	registerBabyAI("BabyAI-BossLevelNoUnlock-v0", dists(8, 3, 3, 18), buildGen(levelGen{locations: true, unblocking: true,
		actions: allActions, kinds: allKinds}))
}
