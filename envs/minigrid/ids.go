package minigrid

import (
	"fmt"
	"strings"
)

// The 81 MiniGrid task ids of EnvPool 1.2.4's envpool/minigrid/registration.py, with
// its time limits and options.

// randomStart is EnvPool's _RANDOM_START: a random square and direction.
var randomStart = startOptions{AgentStartPos: [2]int{-1, -1}, AgentStartDir: -1}

// cornerStart is minigrid's default start: (1, 1) facing east.
var cornerStart = startOptions{AgentStartPos: [2]int{1, 1}}

func init() {
	for _, s := range []int{5, 6, 8, 16} {
		register(task[emptyOptions]{id: fmt.Sprintf("MiniGrid-Empty-%dx%d-v0", s, s), maxSteps: 4 * s * s, see: true,
			opts: emptyOptions{sizeOptions{s}, cornerStart}, build: buildEmpty})
	}
	for _, s := range []int{5, 6} {
		register(task[emptyOptions]{id: fmt.Sprintf("MiniGrid-Empty-Random-%dx%d-v0", s, s), maxSteps: 4 * s * s, see: true,
			opts: emptyOptions{sizeOptions{s}, randomStart}, build: buildEmpty})
	}
	for _, s := range []int{5, 6, 8, 16} {
		register(task[sizeOptions]{id: fmt.Sprintf("MiniGrid-DoorKey-%dx%d-v0", s, s), maxSteps: 10 * s * s,
			opts: sizeOptions{s}, build: buildDoorKey})
	}
	for i, row := range []int{2, 5} {
		register(task[distShiftOptions]{id: fmt.Sprintf("MiniGrid-DistShift%d-v0", i+1), maxSteps: 4 * 9 * 7, see: true,
			opts: distShiftOptions{Width: 9, Height: 7, Strip2Row: row, startOptions: cornerStart}, build: buildDistShift})
	}
	for _, c := range []struct {
		name      string
		size, n   int
		obstacles string
	}{
		{"LavaCrossingS9N1", 9, 1, "lava"}, {"LavaCrossingS9N2", 9, 2, "lava"}, {"LavaCrossingS9N3", 9, 3, "lava"},
		{"LavaCrossingS11N5", 11, 5, "lava"}, {"SimpleCrossingS9N1", 9, 1, "wall"}, {"SimpleCrossingS9N2", 9, 2, "wall"},
		{"SimpleCrossingS9N3", 9, 3, "wall"}, {"SimpleCrossingS11N5", 11, 5, "wall"},
	} {
		register(task[crossingOptions]{id: "MiniGrid-" + c.name + "-v0", maxSteps: 4 * c.size * c.size,
			opts: crossingOptions{obstacleOptions{sizeOptions{c.size}, c.obstacles}, c.n}, build: buildCrossing})
	}
	for _, s := range []int{5, 6, 7} {
		register(task[obstacleOptions]{id: fmt.Sprintf("MiniGrid-LavaGapS%d-v0", s), maxSteps: 4 * s * s,
			opts: obstacleOptions{sizeOptions{s}, "lava"}, build: buildLavaGap})
	}
	for _, c := range []struct {
		name   string
		size   int
		n      int
		random bool
	}{{"5x5", 5, 2, false}, {"Random-5x5", 5, 2, true}, {"6x6", 6, 3, false}, {"Random-6x6", 6, 3, true},
		{"8x8", 8, 4, false}, {"16x16", 16, 8, false}} {
		start := cornerStart
		if c.random {
			start = randomStart
		}
		register(task[dynamicOptions]{id: "MiniGrid-Dynamic-Obstacles-" + c.name + "-v0", maxSteps: 4 * c.size * c.size,
			see: true, actions: actForward + 1, opts: dynamicOptions{sizeOptions{c.size}, c.n, start}, build: buildDynamic})
	}
	for _, c := range []struct{ size, n int }{{5, 2}, {6, 2}, {8, 3}} {
		register(task[objectsOptions]{id: fmt.Sprintf("MiniGrid-Fetch-%dx%d-N%d-v0", c.size, c.size, c.n), maxSteps: 5 * c.size * c.size,
			see: true, opts: objectsOptions{sizeOptions{c.size}, c.n}, build: buildFetch})
	}
	register(task[noOptions]{id: "MiniGrid-FourRooms-v0", maxSteps: 100, build: fixed(fourRoomsLevel{})})
	for _, s := range []int{5, 6, 8} {
		register(task[sizeOptions]{id: fmt.Sprintf("MiniGrid-GoToDoor-%dx%d-v0", s, s), maxSteps: 4 * s * s, see: true,
			opts: sizeOptions{s}, build: buildGoToDoor})
	}
	for _, s := range []int{6, 8} {
		register(task[objectsOptions]{id: fmt.Sprintf("MiniGrid-GoToObject-%dx%d-N2-v0", s, s), maxSteps: 5 * s * s, see: true,
			opts: objectsOptions{sizeOptions{s}, 2}, build: buildGoToObject})
	}
	for _, c := range []struct{ size, rows int }{{3, 1}, {3, 2}, {3, 3}, {4, 3}, {5, 3}, {6, 3}} {
		register(task[keyCorridorOptions]{id: fmt.Sprintf("MiniGrid-KeyCorridorS%dR%d-v0", c.size, c.rows), maxSteps: 30 * c.size * c.size,
			opts: keyCorridorOptions{c.size, c.rows, "ball"}, build: buildKeyCorridor})
	}
	register(task[sizeOptions]{id: "MiniGrid-LockedRoom-v0", maxSteps: 10 * 19, opts: sizeOptions{19}, build: buildLockedRoom})
	for _, c := range []struct {
		name   string
		size   int
		random bool
	}{{"S17Random", 17, true}, {"S13Random", 13, true}, {"S13", 13, false}, {"S11", 11, false}, {"S9", 9, false}, {"S7", 7, false}} {
		register(task[memoryOptions]{id: "MiniGrid-Memory" + c.name + "-v0", maxSteps: 5 * c.size * c.size,
			opts: memoryOptions{sizeOptions{c.size}, c.random}, build: buildMemory})
	}
	for _, c := range []struct {
		name          string
		lo, hi, rsize int
	}{{"N2-S4", 2, 2, 4}, {"N4-S5", 6, 6, 5}, {"N6", 6, 6, 10}} {
		register(task[multiRoomOptions]{id: "MiniGrid-MultiRoom-" + c.name + "-v0", maxSteps: c.hi * 20,
			opts: multiRoomOptions{c.lo, c.hi, c.rsize}, build: buildMultiRoom})
	}
	for _, name := range []string{"1Dl-v0", "1Dlh-v0", "1Dlhb-v0", "2Dl-v0", "2Dlh-v0", "2Dlhb-v0", "1Q-v0", "2Q-v0", "Full-v0",
		"2Dlhb-v1", "1Q-v1", "2Q-v1", "Full-v1"} {
		register(obstructedMaze(name))
	}
	register(task[noOptions]{id: "MiniGrid-Playground-v0", maxSteps: 100, build: fixed(playgroundLevel{})})
	for _, c := range []struct{ size, n int }{{6, 2}, {8, 3}} {
		register(task[objectsOptions]{id: fmt.Sprintf("MiniGrid-PutNear-%dx%d-N%d-v0", c.size, c.size, c.n), maxSteps: 5 * c.size,
			see: true, opts: objectsOptions{sizeOptions{c.size}, c.n}, build: buildPutNear})
	}
	for _, s := range []int{6, 8} {
		register(task[sizeOptions]{id: fmt.Sprintf("MiniGrid-RedBlueDoors-%dx%d-v0", s, s), maxSteps: 20 * s * s,
			opts: sizeOptions{s}, build: buildRedBlueDoors})
	}
	register(task[noOptions]{id: "MiniGrid-Unlock-v0", maxSteps: 8 * 36, build: fixed(unlockLevel{})})
	register(task[noOptions]{id: "MiniGrid-UnlockPickup-v0", maxSteps: 8 * 36, build: fixed(unlockPickupLevel{})})
	register(task[noOptions]{id: "MiniGrid-BlockedUnlockPickup-v0", maxSteps: 16 * 36, build: fixed(unlockPickupLevel{blocked: true})})
	for _, preset := range []string{"MazeSimple", "DungeonMazeScaled", "RoomsFabric", "ObstaclesBlackdots", "ObstaclesAngular", "ObstaclesHogs3"} {
		register(task[wfcOptions]{id: "MiniGrid-WFC-" + preset + "-v0", maxSteps: 25 * 20,
			opts: wfcOptions{sizeOptions{25}, preset, true}, build: buildWFC})
	}
}

// obstructedMaze is the task ObstructedMaze-<name>, whose name says its layout as
// minigrid's do: 1D a locked door between two rooms, 2D two locked doors of the
// 3 x 3 maze, 1Q, 2Q and Full one, two and four of its corner quarters locked off;
// then l locked doors, h keys hidden in boxes, b doors blocked by balls (the Q and
// Full mazes have all three). v1 adds every door of a quarter before its keys.
func obstructedMaze(name string) task[obstructedOptions] {
	layout, version, _ := strings.Cut(name, "-")
	o := obstructedOptions{AgentRoom: [2]int{2, 1}, NumQuarters: 1, KeyInBox: true, Blocked: true}
	roomsVisited := 4
	switch layout[:2] {
	case "1D":
		o.AgentRoom, roomsVisited = [2]int{0, 0}, 2
	case "1Q":
		o.AgentRoom, roomsVisited = [2]int{1, 1}, 5
	case "2Q":
		o.NumQuarters, roomsVisited = 2, 11
	case "Fu":
		o.NumQuarters, roomsVisited = 4, 25
	}
	if strings.Contains(layout, "D") {
		o.KeyInBox, o.Blocked = strings.Contains(layout, "h"), strings.HasSuffix(layout, "b")
	}
	return task[obstructedOptions]{id: "MiniGrid-ObstructedMaze-" + name, maxSteps: 4 * roomsVisited * 36, opts: o,
		build: buildObstructed(layout[:2] == "1D", version == "v1")}
}
