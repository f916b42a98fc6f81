package minigrid

import "testing"

// goFace walks an env until the agent faces square q, failing when it cannot.
func goFace(t *testing.T, e *Env, q point) int {
	t.Helper()
	acts := plan(e, facing(q))
	if acts == nil {
		t.Fatalf("cannot reach %v\n%s", q, text(e))
	}
	run(t, e, acts)
	return len(acts)
}

// TestFetchRules: picking up the named object wins, any other ends with nothing.
func TestFetchRules(t *testing.T) {
	solved := 0
	for seed := range int64(20) {
		e := makeEnv(t, "MiniGrid-Fetch-8x8-N3-v0", nil, seed)
		var right, wrong []point
		for y := range e.h {
			for x := range e.w {
				if c := e.get(x, y); c.canPickup() && c.same(e.want) {
					right = append(right, point{x, y})
				} else if c.canPickup() {
					wrong = append(wrong, point{x, y})
				}
			}
		}
		if len(wrong) > 0 && plan(e, facing(wrong[0])) != nil {
			w := newEnvCopy(t, e)
			goFace(t, w, wrong[0])
			if r := step(w, actPickup); !r.Terminated || r.Reward != 0 {
				t.Errorf("seed %d: wrong object %+v", seed, r)
			}
		}
		if plan(e, facing(right[0])) == nil {
			continue // hemmed in by the other objects
		}
		n := goFace(t, e, right[0])
		if r := step(e, actPickup); !r.Terminated || r.Reward != want(n+1, e.maxSteps) {
			t.Errorf("seed %d: right object %+v after %d steps", seed, r, n+1)
		}
		solved++
	}
	if solved < 10 {
		t.Errorf("only %d of 20 layouts solved", solved)
	}
}

// newEnvCopy returns an env in the same state as e (through its saved state).
func newEnvCopy(t *testing.T, e *Env) *Env {
	t.Helper()
	s, err := e.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	c := newEnv(e.config, 0)
	if err := c.UnmarshalBinary(s); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestGoToRules: done next to the target wins, done elsewhere or toggle ends with
// nothing.
func TestGoToRules(t *testing.T) {
	for _, id := range []string{"MiniGrid-GoToDoor-8x8-v0", "MiniGrid-GoToObject-8x8-N2-v0"} {
		solved := 0
		for seed := range int64(10) {
			e := makeEnv(t, id, nil, seed)
			if r := step(newEnvCopy(t, e), actToggle); !r.Terminated || r.Reward != 0 {
				t.Errorf("%s: toggle %+v", id, r)
			}
			if abs(e.agent.x-e.target.x)+abs(e.agent.y-e.target.y) != 1 {
				if r := step(newEnvCopy(t, e), actDone); !r.Terminated || r.Reward != 0 {
					t.Errorf("%s: done away from the target %+v", id, r)
				}
			}
			acts := plan(e, func(p point, _ int) bool { return abs(p.x-e.target.x)+abs(p.y-e.target.y) == 1 })
			if acts == nil {
				continue
			}
			run(t, e, acts)
			if r := step(e, actDone); !r.Terminated || r.Reward != want(len(acts)+1, e.maxSteps) {
				t.Errorf("%s seed %d: done beside the target %+v", id, seed, r)
			}
			solved++
		}
		if solved < 5 {
			t.Errorf("%s: only %d of 10 layouts solved", id, solved)
		}
	}
}

// TestPutNearRules: the named object dropped beside the target wins; picking up
// another object, or dropping it away from the target, ends with nothing.
func TestPutNearRules(t *testing.T) {
	solved := 0
	for seed := range int64(20) {
		e := makeEnv(t, "MiniGrid-PutNear-8x8-N3-v0", nil, seed)
		var other point
		for y := range e.h {
			for x := range e.w {
				if p := (point{x, y}); e.get(x, y).canPickup() && p != e.other {
					other = p
				}
			}
		}
		if w := newEnvCopy(t, e); plan(w, facing(other)) != nil {
			goFace(t, w, other)
			if r := step(w, actPickup); !r.Terminated || r.Reward != 0 {
				t.Errorf("seed %d: picking up the wrong object %+v", seed, r)
			}
		}
		if plan(e, facing(e.other)) == nil {
			continue
		}
		n := goFace(t, e, e.other)
		if r := step(e, actPickup); r.Terminated || e.carrying != e.want {
			t.Fatalf("seed %d: picking up the object to move %+v", seed, r)
		}
		n++
		// Drop it on a free square beside the target.
		near := func(p point, dir int) bool {
			f := p.add(dirVecs[dir])
			return e.get(f.x, f.y).isEmpty() && f != p && abs(f.x-e.target.x) <= 1 && abs(f.y-e.target.y) <= 1
		}
		acts := plan(e, near)
		if acts == nil {
			continue
		}
		run(t, e, acts)
		n += len(acts) + 1
		if r := step(e, actDrop); !r.Terminated || r.Reward != want(n, e.maxSteps) {
			t.Errorf("seed %d: dropped beside the target %+v after %d steps", seed, r, n)
		}
		solved++
	}
	if solved < 10 {
		t.Errorf("only %d of 20 layouts solved", solved)
	}
}

// TestRedBlueDoorsRules: the blue door first ends with nothing; red then blue wins.
func TestRedBlueDoorsRules(t *testing.T) {
	for seed := range int64(10) {
		e := makeEnv(t, "MiniGrid-RedBlueDoors-8x8-v0", nil, seed)
		w := newEnvCopy(t, e)
		goFace(t, w, w.other)
		if r := step(w, actToggle); !r.Terminated || r.Reward != 0 {
			t.Errorf("seed %d: blue first %+v", seed, r)
		}
		n := goFace(t, e, e.target)
		if r := step(e, actToggle); r.Terminated || !e.at(e.target).open {
			t.Fatalf("seed %d: opening the red door %+v", seed, r)
		}
		n += 1 + goFace(t, e, e.other)
		if r := step(e, actToggle); !r.Terminated || r.Reward != want(n+1, e.maxSteps) {
			t.Errorf("seed %d: red then blue %+v", seed, r)
		}
	}
}

// TestDynamicObstaclesRules: moving into anything but free squares and the goal costs
// -1 and ends the episode; the balls move a square at most each step.
func TestDynamicObstaclesRules(t *testing.T) {
	e := makeEnv(t, "MiniGrid-Dynamic-Obstacles-8x8-v0", nil, 4)
	before := append([]point(nil), e.obstacles...)
	step(e, actLeft) // face the top wall from (1, 1)
	for i, p := range e.obstacles {
		if abs(p.x-before[i].x) > 1 || abs(p.y-before[i].y) > 1 || e.get(p.x, p.y) != obj(objBall, blue) {
			t.Fatalf("obstacle %d moved from %v to %v", i, before[i], p)
		}
	}
	if r := step(e, actForward); !r.Terminated || r.Reward != -1 {
		t.Errorf("into the wall: %+v", r)
	}
	if got := len(findAll(e, obj(objBall, blue))); got != 4 {
		t.Errorf("%d obstacles on the grid, want 4", got)
	}
}

// TestMemoryRules: standing beside the matching object wins, beside the other ends
// with nothing; pick up acts as toggle.
func TestMemoryRules(t *testing.T) {
	for seed := range int64(10) {
		e := makeEnv(t, "MiniGrid-MemoryS9-v0", nil, seed)
		w := newEnvCopy(t, e)
		acts := plan(w, at(w.other))
		if r := run(t, w, acts); !r.Terminated || r.Reward != 0 {
			t.Errorf("seed %d: the wrong end %+v", seed, r)
		}
		acts = plan(e, at(e.target))
		if r := run(t, e, acts); !r.Terminated || r.Reward != want(len(acts), e.maxSteps) {
			t.Errorf("seed %d: the right end %+v", seed, r)
		}
	}
}

// TestUnlockAndPickupRules: Unlock is won by opening its door with the key, the
// pick-up tasks by picking up the named object (teleporting to it after the door).
func TestUnlockAndPickupRules(t *testing.T) {
	for seed := range int64(10) {
		e := makeEnv(t, "MiniGrid-Unlock-v0", nil, seed)
		key := findKind(e, objKey)[0]
		n := goFace(t, e, key)
		step(e, actPickup)
		n += 1 + goFace(t, e, e.target)
		if r := step(e, actToggle); !r.Terminated || r.Reward != want(n+1, e.maxSteps) {
			t.Errorf("seed %d: unlock %+v", seed, r)
		}
	}
	for _, id := range []string{"MiniGrid-UnlockPickup-v0", "MiniGrid-KeyCorridorS4R3-v0", "MiniGrid-ObstructedMaze-1Dlhb-v0"} {
		e := makeEnv(t, id, nil, 2)
		p := findAll(e, e.want)[0]
		// Stand beside the object, facing it.
		for d, v := range dirVecs {
			if s := (point{p.x - v.x, p.y - v.y}); e.get(s.x, s.y).isEmpty() {
				e.agent, e.dir = s, d
				break
			}
		}
		e.carrying = obj(objKey, purple)
		if r := step(e, actPickup); r.Terminated {
			t.Errorf("%s: picked up with full hands %+v", id, r)
		}
		e.carrying = empty
		if r := step(e, actPickup); !r.Terminated || r.Reward != want(2, e.maxSteps) {
			t.Errorf("%s: pickup %+v", id, r)
		}
	}
}
