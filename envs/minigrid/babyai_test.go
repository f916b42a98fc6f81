package minigrid

import (
	"regexp"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envs"
)

// babyEnv returns a reset env of a BabyAI level laid out by hand in one 9 x 9 room:
// build places the objects and the agent and sets the instruction; the level's
// machinery numbers the objects, validates the instruction and writes the mission.
// The step limit is the instruction's navigations times 81.
func babyEnv(t *testing.T, build func(g *babyGen)) *Env {
	t.Helper()
	lv := babyLevel{roomSize: 9, rows: 1, cols: 1, mission: build}
	c := &config{lv: lv, viewSize: 7, missionBytes: 512, numActions: numActions, tileSize: 8}
	e := newEnv(c, 1)
	e.Reset()
	if e.baby == nil || e.baby.instr == nil {
		t.Fatalf("the hand-built layout was rejected\n%s", text(e))
	}
	return e
}

// put places objects on the hand-built grid and the agent at (4, 4) facing east.
func put(g *babyGen, objs map[point]cell) {
	for p, c := range objs {
		g.e.set(p.x, p.y, c)
	}
	g.e.agent, g.e.dir = point{4, 4}, 0
}

var (
	redBall = obj(objBall, red)
	blueKey = obj(objKey, blue)
	blueBox = obj(objBox, blue)
)

// expectEnd steps through acts and checks that only the last one ends the episode,
// with the reward r.
func expectEnd(t *testing.T, e *Env, acts []int, r float32) {
	t.Helper()
	got := run(t, e, acts)
	if !got.Terminated || got.Reward != r {
		t.Fatalf("mission %q after %v: %+v, want the end with reward %v\n%s", e.mission, acts, got, r, text(e))
	}
}

const (
	L = actLeft
	R = actRight
	F = actForward
	P = actPickup
	D = actDrop
	T = actToggle
)

// TestBabyGoTo: GoTo is carried out when the agent faces the object, not when it
// stands beside it facing elsewhere.
func TestBabyGoTo(t *testing.T) {
	e := babyEnv(t, func(g *babyGen) {
		put(g, map[point]cell{{5, 5}: redBall})
		g.instr = goTo(desc(objBall, red))
	})
	if e.mission != "go to the red ball" || e.limit != 81 {
		t.Fatalf("mission %q limit %d", e.mission, e.limit)
	}
	// Forward to (5, 4): the ball is beside the agent, south, but it faces east.
	if r := step(e, F); r.Terminated || e.agent != (point{5, 4}) {
		t.Fatalf("beside the ball but not facing it: %+v at %v", r, e.agent)
	}
	expectEnd(t, e, []int{R}, want(2, 81))
}

// TestBabyPickup: Pickup is carried out by picking up the object; a strict one
// fails on picking up another, a lenient one goes on.
func TestBabyPickup(t *testing.T) {
	layout := func(strict bool) func(g *babyGen) {
		return func(g *babyGen) {
			put(g, map[point]cell{{5, 4}: redBall, {4, 5}: blueKey})
			g.instr = pickup(desc(objBall, red), strict)
		}
	}
	e := babyEnv(t, layout(true))
	if e.mission != "pick up the red ball" {
		t.Fatalf("mission %q", e.mission)
	}
	expectEnd(t, e, []int{R, P}, 0)
	e = babyEnv(t, layout(false))
	expectEnd(t, e, []int{R, P, D, L, P}, want(5, 81))
	if e.carrying != redBall {
		t.Fatalf("carrying %v", e.carrying)
	}
}

// TestBabyOpen: Open is carried out by toggling the door open; a locked door does
// not open without its key, and a strict Open fails on toggling another door.
func TestBabyOpen(t *testing.T) {
	layout := func(strict bool) func(g *babyGen) {
		return func(g *babyGen) {
			put(g, map[point]cell{{5, 4}: door(red, false), {4, 5}: door(blue, true), {4, 3}: door(green, false)})
			g.instr = openInstr(desc(objDoor, red), strict)
		}
	}
	e := babyEnv(t, layout(false))
	if e.mission != "open the red door" {
		t.Fatalf("mission %q", e.mission)
	}
	// The locked blue door stays shut; the green one opens but is not the red one.
	for _, a := range []int{R, T, L, L, T, R} {
		if r := step(e, a); r.Terminated {
			t.Fatalf("ended early: %+v", r)
		}
	}
	if e.get(4, 5).open || !e.get(4, 3).open {
		t.Fatal("the locked door opened or the green one did not")
	}
	expectEnd(t, e, []int{T}, want(7, 81))
	expectEnd(t, babyEnv(t, layout(true)), []int{L, T}, 0)
}

// TestBabyPutNext: PutNext is carried out by dropping the object beside the other,
// not by dropping it elsewhere.
func TestBabyPutNext(t *testing.T) {
	e := babyEnv(t, func(g *babyGen) {
		put(g, map[point]cell{{5, 4}: redBall, {6, 6}: blueBox})
		g.instr = putNext(desc(objBall, red), desc(objBox, blue))
	})
	if e.mission != "put the red ball next to the blue box" || e.limit != 2*81 {
		t.Fatalf("mission %q limit %d", e.mission, e.limit)
	}
	// Pick up, forward, drop at (5, 5), diagonal to the box: not next to it.
	for _, a := range []int{P, F, R, D} {
		if r := step(e, a); r.Terminated {
			t.Fatalf("ended early: %+v", r)
		}
	}
	if e.get(5, 5) != redBall {
		t.Fatalf("the ball is not at (5, 5)\n%s", text(e))
	}
	// Pick it up again and drop it at (6, 5), above the box.
	expectEnd(t, e, []int{P, L, F, R, D}, want(9, 162))
}

// TestBabyPutNextRejected: a layout whose object already lies next to its target is
// rejected, as minigrid rejects it; the hand layout then never succeeds.
func TestBabyPutNextRejected(t *testing.T) {
	lv := babyLevel{roomSize: 9, rows: 1, cols: 1, mission: func(g *babyGen) {
		put(g, map[point]cell{{5, 4}: redBall, {6, 4}: blueBox})
		g.instr = putNext(desc(objBall, red), desc(objBox, blue))
	}}
	e := newEnv(&config{lv: lv, viewSize: 7, missionBytes: 512, numActions: numActions, tileSize: 8}, 1)
	if e.tryGenerate() {
		t.Fatal("a PutNext whose objects touch was accepted")
	}
}

// TestBabySequences: Before needs its parts in order, After in the reverse order,
// And in either.
func TestBabySequences(t *testing.T) {
	// The ball lies east of the agent, the key west. Facing the key takes three
	// actions, then the ball four more, then the key four more.
	toKey, toBall, backToKey := []int{L, L, F}, []int{R, R, F, F}, []int{L, L, F, F}
	for _, c := range []struct {
		op      uint8
		mission string
		acts    []int
	}{
		{opBefore, "go to the red ball, then go to the blue key", append(append(append([]int{}, toKey...), toBall...), backToKey...)},
		{opAfter, "go to the red ball after you go to the blue key", append(append([]int{}, toKey...), toBall...)},
		{opAnd, "go to the red ball and go to the blue key", append(append([]int{}, toKey...), toBall...)},
	} {
		e := babyEnv(t, func(g *babyGen) {
			put(g, map[point]cell{{6, 4}: redBall, {2, 4}: blueKey})
			g.instr = seq(c.op, goTo(desc(objBall, red)), goTo(desc(objKey, blue)))
		})
		if e.mission != c.mission || e.limit != 162 {
			t.Fatalf("mission %q limit %d, want %q", e.mission, e.limit, c.mission)
		}
		expectEnd(t, e, c.acts, want(len(c.acts), 162))
	}
	// The second part is judged on the step the first succeeds, by what it last saw
	// carried (nothing): one pickup does both, as in minigrid.
	e := babyEnv(t, func(g *babyGen) {
		put(g, map[point]cell{{5, 4}: redBall})
		g.instr = seq(opBefore, pickup(desc(objBall, anyColor), false), pickup(desc(objBall, red), false))
	})
	if e.mission != "pick up the ball, then pick up the red ball" {
		t.Fatalf("mission %q", e.mission)
	}
	expectEnd(t, e, []int{P}, want(1, 162))
}

// TestBabyLocations: a description naming a location matches only the objects on
// that side of the agent when the episode began, in words and in the verifier.
func TestBabyLocations(t *testing.T) {
	objs := map[point]cell{{6, 4}: redBall, {2, 4}: redBall, {4, 2}: blueKey, {4, 6}: door(blue, false), {7, 6}: door(red, false)}
	for _, c := range []struct {
		d    objDesc
		want string
	}{
		{objDesc{kind: objBall, color: anyColor, loc: locFront}, "the ball in front of you"},
		{objDesc{kind: objBall, color: red, loc: locBehind}, "the red ball behind you"},
		{objDesc{kind: objBall, color: anyColor}, "a ball"},
		{objDesc{kind: objKey, color: anyColor, loc: locLeft}, "the key on your left"},
		{objDesc{kind: objKey, color: anyColor, loc: locRight}, ""},
		{objDesc{kind: objDoor, color: anyColor, loc: locRight}, "a door on your right"},
		{objDesc{kind: anyKind, color: grey, loc: locBehind}, "a grey object behind you"},
		{objDesc{kind: anyKind, color: blue, loc: locLeft}, "the blue object on your left"},
	} {
		e := babyEnv(t, func(g *babyGen) { put(g, objs); g.instr = goTo(desc(objBall, anyColor)) })
		d := c.d
		e.find(&d, true, 9)
		if got := d.surface(); len(d.set) == 0 && c.want != "" || len(d.set) > 0 && got != c.want {
			t.Errorf("%+v: %q (%d objects), want %q", c.d, got, len(d.set), c.want)
		}
	}
	// Picking up the ball behind does not carry out "pick up the ball in front of
	// you", though it is of the same kind and colour; the one in front does.
	e := babyEnv(t, func(g *babyGen) {
		put(g, objs)
		g.instr = pickup(objDesc{kind: objBall, color: red, loc: locFront}, false)
	})
	if e.mission != "pick up the red ball in front of you" {
		t.Fatalf("mission %q", e.mission)
	}
	for _, a := range []int{L, L, F, P, D, R, R, F} {
		if r := step(e, a); r.Terminated {
			t.Fatalf("the ball behind counted: %+v", r)
		}
	}
	expectEnd(t, e, []int{F, P}, want(10, 81))
}

// TestBabyMissionGrammar: the brief's example surfaces, and every mission of many
// generated levels parses by minigrid's grammar, with "the" exactly when one object
// matches.
func TestBabyMissionGrammar(t *testing.T) {
	e := babyEnv(t, func(g *babyGen) {
		put(g, map[point]cell{{4, 6}: door(blue, false), {7, 6}: door(red, false), {2, 2}: blueKey})
		g.instr = seq(opAnd, openInstr(desc(objDoor, anyColor), false), pickup(desc(objKey, blue), false))
	})
	if e.mission != "open a door and pick up the blue key" {
		t.Errorf("mission %q", e.mission)
	}
	d := `(?:the|a) (?:(?:red|green|blue|purple|yellow|grey) )?(?:door|key|ball|box|object)(?: on your left| on your right| in front of you| behind you)?`
	nd := `(?:the|a) (?:(?:red|green|blue|purple|yellow|grey) )?(?:key|ball|box|object)(?: on your left| on your right| in front of you| behind you)?`
	door := `(?:the|a) (?:(?:red|green|blue|purple|yellow|grey) )?door(?: on your left| on your right| in front of you| behind you)?`
	action := `(?:go to ` + d + `|pick up ` + nd + `|open ` + door + `|put ` + nd + ` next to ` + d + `)`
	and := action + `(?: and ` + action + `)?`
	grammar := regexp.MustCompile(`^` + and + `(?:(?:, then | after you )` + and + `)?$`)
	for _, id := range []string{"BabyAI-BossLevel-v0", "BabyAI-SynthSeq-v0", "BabyAI-MiniBossLevel-v0", "BabyAI-GoToSeq-v0",
		"BabyAI-PickupLoc-v0", "BabyAI-OpenDoorLoc-v0", "BabyAI-PickupDist-v0", "BabyAI-ActionObjDoor-v0", "BabyAI-OpenDoorsOrderN4-v0"} {
		forSeeds(t, id, 30, func(e *Env) string {
			if !grammar.MatchString(e.mission) {
				return "mission outside the grammar: " + e.mission
			}
			return checkDescs(e, e.baby.instr)
		})
	}
}

// checkDescs says what is wrong with a generated instruction's descriptions: each
// matches an object, every object it matched is there (on the grid or carried) and
// of its kind and colour, and without a location it matched all of them.
func checkDescs(e *Env, in *instr) string {
	if in.isSeq() {
		return checkDescs(e, in.a) + checkDescs(e, in.b)
	}
	descs := []objDesc{in.obj}
	if in.op == opPutNext {
		descs = append(descs, in.fixed)
	}
	for _, d := range descs {
		if len(d.set) == 0 {
			return "a description matches nothing; "
		}
		n := 0
		for i, c := range e.cells {
			if !c.isEmpty() && (d.kind == anyKind || c.kind == d.kind) && (d.color == anyColor || c.color == d.color) {
				n++
				continue
			}
			if containsID(d.set, e.baby.uids[i]) && e.baby.uids[i] != 0 {
				return "a matched object is not of the description; "
			}
		}
		if c := e.carrying; containsID(d.set, e.baby.carried) && e.baby.carried != 0 {
			if d.kind != anyKind && c.kind != d.kind || d.color != anyColor && c.color != d.color {
				return "the carried object is not of the description; "
			}
			n++
		}
		if d.loc == locNone && n != len(d.set) {
			return "a description without location missed objects; "
		}
	}
	return ""
}

// TestBabyLayouts checks every BabyAI id's layouts: the grid is the level's rooms,
// the agent stands on a free square, the mission is the instruction's words and its
// objects exist, and the step limit is minigrid's.
func TestBabyLayouts(t *testing.T) {
	n := 0
	for _, id := range taskIDs() {
		if !strings.HasPrefix(id, "BabyAI-") {
			continue
		}
		n++
		forSeeds(t, id, 10, func(e *Env) string {
			l := e.lv.(babyLevel)
			if e.w != (l.roomSize-1)*l.cols+1 || e.h != (l.roomSize-1)*l.rows+1 {
				return "the grid is not the level's rooms"
			}
			if !e.get(e.agent.x, e.agent.y).isEmpty() {
				return "the agent does not stand on a free square"
			}
			in := e.baby.instr
			if e.mission != in.surface() || e.mission == "" {
				return "the mission is not the instruction's surface"
			}
			limit := l.fixedSteps
			if limit == 0 {
				limit = in.navs() * l.roomSize * l.roomSize * l.rows * l.cols
			}
			if e.limit != limit {
				return "step limit"
			}
			return checkDescs(e, in)
		})
	}
	if n != 96 {
		t.Fatalf("%d BabyAI ids", n)
	}
}

// TestBabyLevelDetails checks what particular levels promise.
func TestBabyLevelDetails(t *testing.T) {
	for id, limit := range map[string]int{"BabyAI-PutNextS5N2-v0": 200, "BabyAI-UnlockPickup-v0": 72, "BabyAI-OpenTwoDoors-v0": 720,
		"BabyAI-KeyCorridorS3R1-v0": 270, "BabyAI-BlockedUnlockPickup-v0": 576, "BabyAI-FindObjS5-v0": 500, "BabyAI-GoToObjS4-v0": 16} {
		if e := makeEnv(t, id, nil, 1); e.limit != limit {
			t.Errorf("%s: limit %d, want %d", id, e.limit, limit)
		}
	}
	if e := makeEnv(t, "BabyAI-BossLevel-v0", map[string]any{"max_episode_steps": 33}, 1); e.limit != 33 {
		t.Errorf("max_episode_steps 33: limit %d", e.limit)
	}
	// Locked doors: a key of the door's colour lies where the agent reaches it
	// without passing a locked door (moving objects out of the way where the level
	// allows blocking). UnlockToUnlock promises it for one door: the other's key lies
	// behind it.
	pass := func(c cell) bool { return throughDoors(c) || c.canPickup() }
	for _, id := range []string{"BabyAI-Unlock-v0", "BabyAI-GoToImpUnlock-v0", "BabyAI-BossLevel-v0", "BabyAI-MiniBossLevel-v0",
		"BabyAI-SynthSeq-v0", "BabyAI-UnlockLocal-v0", "BabyAI-UnlockPickupDist-v0", "BabyAI-KeyCorridorS4R3-v0", "BabyAI-UnlockToUnlock-v0",
		"BabyAI-BlockedUnlockPickup-v0"} {
		forSeeds(t, id, 20, func(e *Env) string {
			seen := reach(e, e.agent, pass)
			doors, keyed := 0, 0
			for _, c := range e.cells {
				if c.kind != objDoor || !c.locked {
					continue
				}
				doors++
				for j, k := range e.cells {
					if k == obj(objKey, c.color) && beside(seen, point{j % e.w, j / e.w}) {
						keyed++
						break
					}
				}
			}
			if doors == 0 && id != "BabyAI-BossLevel-v0" && id != "BabyAI-MiniBossLevel-v0" && id != "BabyAI-SynthSeq-v0" {
				return "no locked door"
			}
			if keyed < doors && (id != "BabyAI-UnlockToUnlock-v0" || keyed != 1) {
				return "a locked door without a reachable key"
			}
			return ""
		})
	}
	forSeeds(t, "BabyAI-GoToRedBallGrey-v0", 10, func(e *Env) string {
		for _, c := range e.cells {
			if c.canPickup() && c != redBall && c.color != grey {
				return "a distractor that is not grey"
			}
		}
		return ""
	})
	forSeeds(t, "BabyAI-UnblockPickup-v0", 10, func(e *Env) string {
		seen := reach(e, e.agent, func(c cell) bool { return open(c) || c.kind == objDoor })
		for i, c := range e.cells {
			if c.canPickup() && !beside(seen, point{i % e.w, i / e.w}) {
				return ""
			}
		}
		return "every object is in reach"
	})
	forSeeds(t, "BabyAI-PutNextS6N3Carrying-v0", 10, func(e *Env) string {
		in := e.baby.instr
		if e.carrying.isEmpty() || !containsID(in.obj.set, e.baby.carried) || e.carrying.kind != in.obj.kind || e.carrying.color != in.obj.color {
			return "the agent does not hold the object to move"
		}
		return ""
	})
	forSeeds(t, "BabyAI-GoToOpen-v0", 5, func(e *Env) string {
		for _, c := range e.cells {
			if c.kind == objDoor && !c.open {
				return "a closed door"
			}
		}
		return ""
	})
}

// TestBabySolved walks the shortest way to OneRoom's ball and picks it up: the
// success reward after that many steps of the level's 64.
func TestBabySolved(t *testing.T) {
	for seed := range int64(10) {
		e := makeEnv(t, "BabyAI-OneRoomS8-v0", nil, seed)
		ball := findKind(e, objBall)[0]
		n := goFace(t, e, ball)
		expectEnd(t, e, []int{P}, want(n+1, 64))
	}
}

// TestBabyAISpecs checks the BabyAI spec: EnvPool's 512 mission bytes, minigrid's
// seven actions, a time limit the level's own (none in the spec when it depends on
// the instruction).
func TestBabyAISpecs(t *testing.T) {
	spec, err := envs.SpecOf("BabyAI-GoToRedBall-v0", nil)
	if err != nil || spec.ObsSpace.Size() != 1+147+512 || spec.MaxEpisodeSteps != 0 || spec.ActionSpace.N != numActions {
		t.Errorf("BabyAI spec: %v %+v", err, spec)
	}
	if spec, _ := envs.SpecOf("BabyAI-PutNextS5N2-v0", nil); spec.MaxEpisodeSteps != 200 {
		t.Errorf("PutNextS5N2's limit %d, want 200", spec.MaxEpisodeSteps)
	}
}

// TestBabyFailedLayouts: a level whose every layout is rejected starts its episode on
// the last grid with no instruction; its steps judge nothing and the episode ends at
// one navigation's limit.
func TestBabyFailedLayouts(t *testing.T) {
	lv := babyLevel{roomSize: 5, rows: 1, cols: 1, mission: func(g *babyGen) { fail("always") }}
	e := newEnv(&config{lv: lv, viewSize: 7, missionBytes: 512, numActions: numActions, tileSize: 8}, 1)
	e.Reset()
	if e.baby.instr != nil || e.mission != "" || e.limit != 25 {
		t.Fatalf("instruction %v mission %q limit %d", e.baby.instr, e.mission, e.limit)
	}
	for i := range 25 {
		r := step(e, i%numActions)
		if r.Terminated || r.Truncated != (i == 24) {
			t.Fatalf("step %d: %+v", i, r)
		}
	}
}
