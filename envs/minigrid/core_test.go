package minigrid

import (
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
)

// handLevel lays out a grid the test draws itself.
type handLevel struct {
	plainRules
	build func(e *Env)
}

func (l handLevel) generate(e *Env) { l.build(e) }

// handEnv returns a reset env whose layout is build's, with a view of viewSize.
func handEnv(viewSize int, see bool, build func(e *Env)) *Env {
	c := &config{lv: handLevel{build: build}, maxSteps: 100, viewSize: viewSize, seeThrough: see, missionBytes: 16, numActions: numActions, tileSize: 8}
	e := newEnv(c, 1)
	e.Reset()
	return e
}

// roomOf9 lays out a 9 x 9 walled room with the agent at (x, y) facing dir.
func roomOf9(x, y, dir int, more func(e *Env)) func(e *Env) {
	return func(e *Env) {
		e.walledRoom(9, 9)
		e.agent, e.dir = point{x, y}, dir
		if more != nil {
			more(e)
		}
		e.mission = "test"
	}
}

// observation returns an env's observation row and info.
func observation(e *Env) ([]uint8, []float32) {
	spec := e.config.spec("test")
	obs := make([]uint8, spec.ObsSpace.Size())
	info := make([]float32, spec.InfoWidth())
	e.Observe(envpool.Obs{U8: obs}, info)
	return obs, info
}

// viewAt returns the encoded (object, colour, state) of view cell (i, j).
func viewAt(e *Env, obs []uint8, i, j int) [3]uint8 {
	k := 1 + (i*e.viewSize+j)*3
	return [3]uint8{obs[k], obs[k+1], obs[k+2]}
}

func step(e *Env, a int) envpool.StepResult { return e.Step([]float32{float32(a)}) }

// TestViewEncoding checks where objects land in the image (column first, the agent at
// the bottom middle looking up the view), their encoding, the carried object shown
// in the agent's cell, and the walls outside the grid.
func TestViewEncoding(t *testing.T) {
	e := handEnv(7, true, roomOf9(4, 7, 3, func(e *Env) {
		e.set(5, 6, obj(objKey, red))    // ahead 1, right 1
		e.set(4, 3, door(purple, true))  // ahead 4
		e.set(1, 2, obj(objBox, yellow)) // ahead 5, left 3
	}))
	obs, info := observation(e)
	if obs[0] != 3 {
		t.Errorf("direction %d, want 3", obs[0])
	}
	for _, c := range []struct {
		i, j int
		want [3]uint8
	}{
		{4, 5, [3]uint8{objKey, red, 0}},
		{3, 2, [3]uint8{objDoor, purple, stateLocked}},
		{0, 1, [3]uint8{objBox, yellow, 0}},
		{3, 6, [3]uint8{objEmpty, 0, 0}}, // the agent's cell, hands empty
		{3, 0, [3]uint8{objEmpty, 0, 0}}, // (4, 1), the far edge of the view
		{2, 4, [3]uint8{objEmpty, 0, 0}},
	} {
		if got := viewAt(e, obs, c.i, c.j); got != c.want {
			t.Errorf("view (%d, %d) = %v, want %v", c.i, c.j, got, c.want)
		}
	}
	if got := string(obs[1+147 : 1+147+4]); got != "test" || obs[1+147+4] != 0 {
		t.Errorf("mission bytes %q", obs[1+147:])
	}
	if info[0] != 4 || info[1] != 7 || info[2] != -1 {
		t.Errorf("info %v, want agent (4, 7) and mission_id -1", info)
	}
	// Facing east from (7, 4): two columns of the view lie outside the grid, as walls.
	e.agent, e.dir, e.carrying = point{7, 4}, 0, obj(objBall, green)
	obs, _ = observation(e)
	if got := viewAt(e, obs, 3, 4); got != [3]uint8{objWall, grey, 0} { // (9, 4): outside
		t.Errorf("outside the grid: %v", got)
	}
	if got := viewAt(e, obs, 3, 6); got != [3]uint8{objBall, green, 0} {
		t.Errorf("carried ball in the agent's cell: %v", got)
	}
	if got := viewAt(e, obs, 6, 6); got != [3]uint8{objEmpty, 0, 0} { // three right of the agent: (7, 7)
		t.Errorf("square right of the agent: %v", got)
	}
}

// TestOcclusion checks minigrid's visibility: a full wall across the view hides
// everything behind it; a closed door hides, an open one lets the light through its
// column and spreading from it; see_through_walls shows everything.
func TestOcclusion(t *testing.T) {
	build := func(open bool) func(e *Env) {
		return roomOf9(4, 7, 3, func(e *Env) {
			e.horzWall(0, 5, 9, wall)
			d := door(blue, false)
			d.open = open
			e.set(4, 5, d)
			e.set(4, 2, obj(objBall, red))
		})
	}
	// The wall is two squares ahead (view row 4), the door in it straight ahead, the
	// ball five squares ahead (view row 1).
	e := handEnv(7, false, build(false))
	obs, _ := observation(e)
	for i := range 7 {
		for j := range 7 {
			got := viewAt(e, obs, i, j)
			switch {
			case j == 4 && i == 3:
				if got != [3]uint8{objDoor, blue, stateClosed} {
					t.Errorf("closed door cell %v", got)
				}
			case j == 4:
				if got != [3]uint8{objWall, grey, 0} {
					t.Errorf("wall cell (%d, %d) = %v", i, j, got)
				}
			case j > 4:
				if got != [3]uint8{objEmpty, 0, 0} {
					t.Errorf("visible square (%d, %d) = %v", i, j, got)
				}
			default:
				if got != [3]uint8{} {
					t.Errorf("(%d, %d) behind the wall is seen: %v", i, j, got)
				}
			}
		}
	}
	// Through the open door the light spreads along the whole row behind the wall
	// and on up the view, as minigrid's process_vis spreads it.
	e = handEnv(7, false, build(true))
	obs, _ = observation(e)
	if got := viewAt(e, obs, 3, 1); got != [3]uint8{objBall, red, 0} {
		t.Errorf("ball behind the open door: %v", got)
	}
	if got := viewAt(e, obs, 3, 4); got != [3]uint8{objDoor, blue, stateOpen} {
		t.Errorf("open door: %v", got)
	}
	for i := range 7 {
		if got := viewAt(e, obs, i, 3); got != [3]uint8{objEmpty, 0, 0} {
			t.Errorf("square (%d, 3) behind the wall, reached through the door: %v", i, got)
		}
	}
	e = handEnv(7, true, build(false))
	obs, _ = observation(e)
	if got := viewAt(e, obs, 3, 1); got != [3]uint8{objBall, red, 0} {
		t.Errorf("see_through_walls: ball %v", got)
	}
}

// TestObjectRules checks pickup, drop and toggle: a locked door opens only for a key
// of its colour, an unlocked one opens and closes, a box turns into its contents, one
// object at a time is carried, and nothing is dropped onto an object.
func TestObjectRules(t *testing.T) {
	e := handEnv(7, true, roomOf9(2, 4, 0, func(e *Env) {
		e.set(3, 4, obj(objKey, red))
		e.vertWall(5, 1, 7, wall)
		e.set(5, 4, door(green, true))
		e.set(2, 5, boxWith(yellow, obj(objBall, purple)))
		e.set(2, 3, obj(objBall, blue))
	}))
	step(e, actToggle) // a key is not toggled
	step(e, actPickup)
	if e.carrying != obj(objKey, red) || !e.get(3, 4).isEmpty() {
		t.Fatalf("pickup: carrying %v, square %v", e.carrying, e.get(3, 4))
	}
	step(e, actLeft) // face the blue ball
	step(e, actPickup)
	if e.carrying != obj(objKey, red) || e.get(2, 3) != obj(objBall, blue) {
		t.Fatal("picked a second object up")
	}
	step(e, actDrop)
	if e.get(2, 3) != obj(objBall, blue) || e.carrying.isEmpty() {
		t.Fatal("dropped onto a ball")
	}
	step(e, actRight)
	step(e, actForward)
	step(e, actForward)
	if e.agent != (point{4, 4}) {
		t.Fatalf("agent at %v, want (4, 4)", e.agent)
	}
	step(e, actForward) // the locked door blocks
	step(e, actToggle)  // red key, green door
	if d := e.get(5, 4); !d.locked || d.open || e.agent != (point{4, 4}) {
		t.Fatalf("locked green door after toggling with a red key: %+v, agent %v", d, e.agent)
	}
	e.carrying = obj(objKey, green)
	step(e, actToggle)
	if d := e.get(5, 4); d.locked || !d.open {
		t.Fatalf("green key did not open the green door: %+v", d)
	}
	step(e, actToggle)
	if d := e.get(5, 4); d.locked || d.open {
		t.Fatalf("toggling an unlocked open door did not close it: %+v", d)
	}
	step(e, actToggle)
	step(e, actForward)
	if e.agent != (point{5, 4}) {
		t.Fatalf("did not walk into the open door: %v", e.agent)
	}
	// Back to the box: toggling it leaves its ball in its place.
	e.agent, e.dir = point{2, 4}, 1
	step(e, actToggle)
	if got := e.get(2, 5); got != obj(objBall, purple) {
		t.Fatalf("box opened into %+v", got)
	}
	step(e, actDrop)
	if e.carrying.isEmpty() {
		t.Fatal("dropped onto the ball")
	}
	step(e, actLeft)
	step(e, actDrop) // (3, 4) is empty again
	if !e.carrying.isEmpty() || e.get(3, 4) != obj(objKey, green) {
		t.Fatalf("drop: carrying %v, square %v", e.carrying, e.get(3, 4))
	}
}

// plan finds the fewest turns and moves that bring the agent to a state done
// accepts, walking only on squares it may stand on and never into lava (breadth-first
// search over position and direction).
func plan(e *Env, done func(p point, dir int) bool) []int {
	type state struct {
		p   point
		dir int
	}
	prev := map[state]struct {
		s state
		a int
	}{}
	start := state{e.agent, e.dir}
	queue := []state{start}
	seen := map[state]bool{start: true}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if done(s.p, s.dir) {
			var acts []int
			for s != start {
				pa := prev[s]
				acts = append(acts, pa.a)
				s = pa.s
			}
			slices.Reverse(acts)
			return acts
		}
		next := []state{{s.p, (s.dir + 3) % 4}, {s.p, (s.dir + 1) % 4}}
		f := s.p.add(dirVecs[s.dir])
		if c := e.get(f.x, f.y); c.canOverlap() && c.kind != objLava {
			next = append(next, state{f, s.dir})
		} else {
			next = append(next, s)
		}
		for a, n := range next {
			if !seen[n] {
				seen[n] = true
				prev[n] = struct {
					s state
					a int
				}{s, a}
				queue = append(queue, n)
			}
		}
	}
	return nil
}

// facing is a plan's goal: the agent faces square q.
func facing(q point) func(point, int) bool {
	return func(p point, dir int) bool { return p.add(dirVecs[dir]) == q }
}

// at is a plan's goal: the agent stands on square q.
func at(q point) func(point, int) bool { return func(p point, _ int) bool { return p == q } }

// run steps an env through acts and returns the last step's result.
func run(t *testing.T, e *Env, acts []int) envpool.StepResult {
	t.Helper()
	var r envpool.StepResult
	for i, a := range acts {
		r = step(e, a)
		if (r.Terminated || r.Truncated) && i < len(acts)-1 {
			t.Fatalf("episode ended after %d of %d actions", i+1, len(acts))
		}
	}
	return r
}

// want is minigrid's success reward after n steps of max.
func want(n, max int) float32 { return float32(1 - 0.9*float64(n)/float64(max)) }

// TestEmptyShortestPath walks Empty-5x5's shortest path, forward twice, right,
// forward twice: the goal after 5 of 100 steps gives 1 - 0.9 * 5 / 100.
func TestEmptyShortestPath(t *testing.T) {
	e := makeEnv(t, "MiniGrid-Empty-5x5-v0", nil, 3)
	if e.agent != (point{1, 1}) || e.dir != 0 || e.get(3, 3) != goal {
		t.Fatalf("layout: agent %v dir %d", e.agent, e.dir)
	}
	acts := []int{actForward, actForward, actRight, actForward, actForward}
	if p := plan(e, at(point{3, 3})); len(p) != len(acts) {
		t.Fatalf("the planner's path has %d steps, want %d", len(p), len(acts))
	}
	r := run(t, e, acts)
	if !r.Terminated || r.Truncated || r.Reward != want(5, 100) || r.Reward != float32(0.955) {
		t.Errorf("goal step: %+v, want reward 0.955 and terminated", r)
	}
}

// TestTimeLimit checks the truncation at max_episode_steps and that a lava step ends
// the episode with nothing.
func TestTimeLimit(t *testing.T) {
	e := makeEnv(t, "MiniGrid-Empty-5x5-v0", map[string]any{"max_episode_steps": 3}, 3)
	for i := 1; i <= 3; i++ {
		r := step(e, actLeft)
		if r.Truncated != (i == 3) || r.Terminated {
			t.Fatalf("step %d: %+v", i, r)
		}
	}
	e = makeEnv(t, "MiniGrid-LavaGapS5-v0", nil, 2)
	e.set(2, 1, lava) // whatever the gap, lava ahead of the start
	if r := step(e, actForward); !r.Terminated || r.Reward != 0 || e.agent != (point{2, 1}) {
		t.Errorf("into lava: %+v, agent %v", r, e.agent)
	}
}

// TestSolveByPlanning solves tasks by planned walks and checks the success reward
// against the number of steps taken.
func TestSolveByPlanning(t *testing.T) {
	for _, id := range []string{"MiniGrid-LavaGapS7-v0", "MiniGrid-LavaCrossingS9N3-v0", "MiniGrid-SimpleCrossingS11N5-v0",
		"MiniGrid-FourRooms-v0", "MiniGrid-Empty-Random-6x6-v0", "MiniGrid-DistShift2-v0"} {
		for seed := range int64(20) {
			e := makeEnv(t, id, nil, seed)
			g := findAll(e, goal)
			if len(g) != 1 {
				t.Fatalf("%s seed %d: %d goals", id, seed, len(g))
			}
			acts := plan(e, at(g[0]))
			if acts == nil {
				t.Fatalf("%s seed %d: no path to the goal\n%s", id, seed, text(e))
			}
			if len(acts) > e.maxSteps {
				continue
			}
			if r := run(t, e, acts); !r.Terminated || r.Reward != want(len(acts), e.maxSteps) {
				t.Errorf("%s seed %d: %+v after %d steps", id, seed, r, len(acts))
			}
		}
	}
}

// TestDoorKeySolved fetches the key, unlocks the door and walks to the goal.
func TestDoorKeySolved(t *testing.T) {
	for seed := range int64(30) {
		e := makeEnv(t, "MiniGrid-DoorKey-8x8-v0", nil, seed)
		keys, doors := findAll(e, obj(objKey, yellow)), findKind(e, objDoor)
		if len(keys) != 1 || len(doors) != 1 || !e.at(doors[0]).locked || e.at(doors[0]).color != yellow {
			t.Fatalf("seed %d: keys %v doors %v\n%s", seed, keys, doors, text(e))
		}
		if keys[0].x >= doors[0].x || e.agent.x >= doors[0].x {
			t.Fatalf("seed %d: key %v or agent %v beyond the door %v", seed, keys[0], e.agent, doors[0])
		}
		var acts []int
		walk := func(goal func(point, int) bool, then ...int) {
			p := plan(e, goal)
			if p == nil {
				t.Fatalf("seed %d: no path\n%s", seed, text(e))
			}
			run(t, e, p)
			run(t, e, then)
			acts = append(append(acts, p...), then...)
		}
		walk(facing(keys[0]), actPickup)
		walk(facing(doors[0]), actToggle)
		p := plan(e, at(point{6, 6}))
		if p == nil {
			t.Fatalf("seed %d: goal unreachable through the open door", seed)
		}
		r := run(t, e, p)
		n := len(acts) + len(p)
		if !r.Terminated || r.Reward != want(n, 640) {
			t.Errorf("seed %d: %+v after %d steps", seed, r, n)
		}
	}
}

// findAll lists the squares holding c.
func findAll(e *Env, c cell) []point {
	var ps []point
	for y := range e.h {
		for x := range e.w {
			if e.get(x, y) == c {
				ps = append(ps, point{x, y})
			}
		}
	}
	return ps
}

// findKind lists the squares holding an object of a kind.
func findKind(e *Env, kind uint8) []point {
	var ps []point
	for y := range e.h {
		for x := range e.w {
			if e.get(x, y).kind == kind {
				ps = append(ps, point{x, y})
			}
		}
	}
	return ps
}

func text(e *Env) string {
	s, _ := e.RenderText()
	return s
}

// TestTextFrame checks the text frame of Empty-5x5 at its start.
func TestTextFrame(t *testing.T) {
	e := makeEnv(t, "MiniGrid-Empty-5x5-v0", nil, 1)
	wantText := strings.Join([]string{
		"WGWGWGWGWG",
		"WG>>    WG",
		"WG      WG",
		"WG    GGWG",
		"WGWGWGWGWG",
	}, "\n") + "\n"
	if got := text(e); got != wantText {
		t.Errorf("text frame:\n%s\nwant:\n%s", got, wantText)
	}
}
