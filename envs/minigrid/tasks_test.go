package minigrid

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// taskIDs are the family's registered ids.
func taskIDs() []string {
	var ids []string
	for _, id := range envs.List() {
		if task, _ := envs.Lookup(id); task.Family == family {
			ids = append(ids, id)
		}
	}
	return ids
}

// makeEnv returns a reset env of a task.
func makeEnv(t *testing.T, id string, opts map[string]any, seed int64) *Env {
	t.Helper()
	env, _, err := envs.MakeEnv(id, opts, seed)
	if err != nil {
		t.Fatal(err)
	}
	e := env.(*Env)
	e.Reset()
	return e
}

// TestSpecs checks the ids, their time limits and spaces against EnvPool's
// registration.
func TestSpecs(t *testing.T) {
	mini, baby := 0, 0
	for _, id := range taskIDs() {
		switch {
		case strings.HasPrefix(id, "MiniGrid-"):
			mini++
		case strings.HasPrefix(id, "BabyAI-"):
			baby++
		}
	}
	if mini != 81 || baby != 96 {
		t.Errorf("%d MiniGrid and %d BabyAI ids, want EnvPool's 81 and 96", mini, baby)
	}
	for id, w := range map[string]struct{ maxSteps, actions int }{
		"MiniGrid-Empty-5x5-v0": {100, 7}, "MiniGrid-DoorKey-16x16-v0": {2560, 7}, "MiniGrid-FourRooms-v0": {100, 7},
		"MiniGrid-Dynamic-Obstacles-8x8-v0": {256, 3}, "MiniGrid-PutNear-8x8-N3-v0": {40, 7},
		"MiniGrid-ObstructedMaze-Full-v1": {3600, 7}, "MiniGrid-MultiRoom-N4-S5-v0": {120, 7},
		"MiniGrid-LockedRoom-v0": {190, 7}, "MiniGrid-KeyCorridorS6R3-v0": {1080, 7}, "MiniGrid-DistShift1-v0": {252, 7},
	} {
		spec, err := envs.SpecOf(id, nil)
		if err != nil {
			t.Fatal(err)
		}
		if spec.MaxEpisodeSteps != w.maxSteps || spec.ActionSpace.N != w.actions || spec.ObsSpace.Size() != 1+147+96 ||
			spec.ObsSpace.DType != envpool.Uint8 || spec.RenderFPS != 10 || spec.ObsSpace.High[0] != 3 {
			t.Errorf("%s: max %d actions %v obs %v fps %v", id, spec.MaxEpisodeSteps, spec.ActionSpace, spec.ObsSpace, spec.RenderFPS)
		}
		if task, _ := envs.Lookup(id); !task.EnvTimeLimit {
			t.Errorf("%s: the envs keep their own time limit", id)
		}
	}
	spec, err := envs.SpecOf("MiniGrid-Empty-5x5-v0", map[string]any{"agent_view_size": 5, "mission_bytes": 8})
	if err != nil {
		t.Fatal(err)
	}
	if spec.ObsSpace.Size() != 1+75+8 || spec.ObsLayout[1].Size != 75 || spec.ObsLayout[2].Offset != 76 {
		t.Errorf("view 5, mission 8: %v %+v", spec.ObsSpace, spec.ObsLayout)
	}
}

// TestFloatObs checks that float_obs observes the same values as float32.
func TestFloatObs(t *testing.T) {
	a := makeEnv(t, "MiniGrid-KeyCorridorS3R3-v0", nil, 4)
	b := makeEnv(t, "MiniGrid-KeyCorridorS3R3-v0", map[string]any{"float_obs": true}, 4)
	spec := b.config.spec("x")
	if spec.ObsSpace.DType != envpool.Float32 || spec.ObsSpace.Size() != 244 {
		t.Fatalf("float_obs space %v", spec.ObsSpace)
	}
	for i := range 50 {
		act := (i * 7) % numActions
		step(a, act)
		step(b, act)
		u8, _ := observation(a)
		f32 := make([]float32, 244)
		b.Observe(envpool.Obs{F32: f32}, nil)
		for k := range u8 {
			if float32(u8[k]) != f32[k] {
				t.Fatalf("step %d value %d: %v as float32, %d as a byte", i, k, f32[k], u8[k])
			}
		}
	}
}

// TestBadOptions checks that bad options are errors naming the option.
func TestBadOptions(t *testing.T) {
	for _, c := range []struct {
		id   string
		opts map[string]any
		want string
	}{
		{"MiniGrid-Empty-5x5-v0", map[string]any{"sise": 5}, "size"},
		{"MiniGrid-Empty-5x5-v0", map[string]any{"one_hot": true, "float_obs": true}, "one_hot"},
		{"MiniGrid-Empty-5x5-v0", map[string]any{"agent_view_size": 6}, "agent_view_size"},
		{"MiniGrid-Empty-5x5-v0", map[string]any{"agent_start_pos": []any{9, 1}}, "agent_start_pos"},
		{"MiniGrid-Empty-5x5-v0", map[string]any{"size": 2}, "size"},
		{"MiniGrid-LavaGapS5-v0", map[string]any{"obstacle_type": "water"}, "obstacle_type"},
		{"MiniGrid-LavaCrossingS9N1-v0", map[string]any{"size": 10}, "size"},
		{"MiniGrid-PutNear-6x6-N2-v0", map[string]any{"num_objs": 9}, "num_objs"},
		{"MiniGrid-MultiRoom-N6-v0", map[string]any{"min_num_rooms": 7}, "min_num_rooms"},
		{"MiniGrid-ObstructedMaze-1Q-v0", map[string]any{"agent_room": []any{3, 0}}, "agent_room"},
		{"MiniGrid-MemoryS7-v0", map[string]any{"size": 8}, "size"},
		{"MiniGrid-FourRooms-v0", map[string]any{"size": 8}, "size"},
		{"MiniGrid-DistShift1-v0", map[string]any{"strip2_row": 6}, "strip2_row"},
		{"BabyAI-GoTo-v0", map[string]any{"num_dist": 3}, "num_dist"},
		{"BabyAI-GoTo-v0", map[string]any{"num_dists": 200}, "num_dists"},
		{"BabyAI-GoTo-v0", map[string]any{"room_size": 3}, "room_size"},
		{"BabyAI-GoToLocal-v0", map[string]any{"num_rows": 2}, "num_rows"},
		{"BabyAI-Open-v0", map[string]any{"num_rows": 1, "num_cols": 1}, "num_rows"},
		{"BabyAI-BossLevel-v0", map[string]any{"max_episode_steps": -1}, "max_episode_steps"},
		{"BabyAI-BossLevel-v0", map[string]any{"agent_view_size": 4}, "agent_view_size"},
		{"BabyAI-OpenDoor-v0", map[string]any{"select_by": "size"}, "select_by"},
		{"BabyAI-OpenTwoDoors-v0", map[string]any{"first_color": "red", "second_color": "red"}, "first_color"},
		{"BabyAI-OpenTwoDoors-v0", map[string]any{"first_color": "pink"}, "first_color"},
		{"BabyAI-OpenDoorsOrderN2-v0", map[string]any{"num_doors": 5}, "num_doors"},
		{"BabyAI-PutNextS4N1-v0", map[string]any{"objs_per_room": 4}, "objs_per_room"},
		{"BabyAI-MoveTwoAcrossS5N2-v0", map[string]any{"objs_per_room": 1}, "objs_per_room"},
		{"BabyAI-MoveTwoAcrossS5N2-v0", map[string]any{"start_carrying": true}, "start_carrying"},
		{"BabyAI-KeyCorridor-v0", map[string]any{"obj_type": "door"}, "obj_type"},
		{"BabyAI-OneRoomS8-v0", map[string]any{"num_dists": 3}, "num_dists"},
	} {
		_, err := envs.SpecOf(c.id, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: error %v, want one naming %s", c.id, c.opts, err, c.want)
		}
	}
}

// TestRandomSteps makes every id, resets it and takes 10,000 random steps, resetting
// when an episode ends, and checks that every observation is well formed: the
// agent's square is one it may stand on, the view's indices are minigrid's, the
// mission is the env's.
func TestRandomSteps(t *testing.T) {
	steps := 10000
	if testing.Short() {
		steps = 1000
	}
	for _, id := range taskIDs() {
		env, spec, err := envs.MakeEnv(id, nil, 7)
		if err != nil {
			t.Fatal(err)
		}
		e := env.(*Env)
		obs := make([]uint8, spec.ObsSpace.Size())
		info := make([]float32, spec.InfoWidth())
		gen := newGen(99)
		e.Reset()
		episodes := 0
		for i := range steps {
			r := e.Step([]float32{float32(gen.randInt(0, spec.ActionSpace.N))})
			e.Observe(envpool.Obs{U8: obs}, info)
			if msg := checkObservation(e, obs, info); msg != "" {
				t.Fatalf("%s step %d: %s\n%s", id, i, msg, text(e))
			}
			if r.Reward < -1 || r.Reward > 1 || math.IsNaN(float64(r.Reward)) {
				t.Fatalf("%s step %d: reward %v", id, i, r.Reward)
			}
			if r.Terminated || r.Truncated {
				e.Reset()
				episodes++
			}
		}
		if episodes == 0 && e.maxSteps < steps { // the time limit alone ends one
			t.Errorf("%s: no episode ended in %d steps", id, steps)
		}
		img, err := e.Render()
		if err != nil || img.Bounds() != image.Rect(0, 0, e.w*32, e.h*32) {
			t.Errorf("%s: picture %v, %v", id, img.Bounds(), err)
		}
	}
}

// checkObservation says what is wrong with an observation, or "".
func checkObservation(e *Env, obs []uint8, info []float32) string {
	if !e.grid.in(e.agent.x, e.agent.y) || !e.get(e.agent.x, e.agent.y).canOverlap() {
		return "the agent stands where it may not"
	}
	if int(obs[0]) != e.dir || obs[0] > 3 {
		return "direction"
	}
	n := e.viewSize * e.viewSize * 3
	for k := 1; k < 1+n; k += 3 {
		if obs[k] > objLava || obs[k+1] >= numColors || obs[k+2] > stateLocked || obs[k] == objUnseen && (obs[k+1] != 0 || obs[k+2] != 0) {
			return "view cell out of minigrid's tables"
		}
	}
	if c := e.carrying; c.canPickup() || c.isEmpty() {
		k := 1 + ((e.viewSize/2)*e.viewSize+e.viewSize-1)*3
		if obs[k] != c.kind || obs[k+1] != c.color {
			return "the agent's cell does not show what it carries"
		}
	} else {
		return "carrying something that cannot be picked up"
	}
	m := obs[1+n:]
	if got := string(bytes.TrimRight(m, "\x00")); !strings.HasPrefix(e.mission, got) || m[len(m)-1] != 0 {
		return "mission bytes " + got
	}
	if info[0] != float32(e.agent.x) || info[1] != float32(e.agent.y) {
		return "info agent_pos"
	}
	return ""
}

// TestStateRoundTrip saves an env mid-episode, restores the state into a fresh env of
// the task and checks that both go on alike, and that a state of another task or a
// cut one is refused.
func TestStateRoundTrip(t *testing.T) {
	for _, id := range []string{"MiniGrid-Dynamic-Obstacles-8x8-v0", "MiniGrid-KeyCorridorS3R3-v0", "MiniGrid-PutNear-8x8-N3-v0",
		"MiniGrid-ObstructedMaze-1Dlhb-v0", "MiniGrid-MemoryS7-v0", "MiniGrid-RedBlueDoors-6x6-v0",
		"BabyAI-SynthSeq-v0", "BabyAI-PutNextS5N2Carrying-v0", "BabyAI-KeyInBox-v0", "BabyAI-OpenDoorsOrderN4-v0"} {
		a, b := makeEnv(t, id, nil, 5), makeEnv(t, id, nil, 6)
		gen := newGen(3)
		for range 40 {
			if r := step(a, gen.randInt(0, a.numActions)); r.Terminated || r.Truncated {
				a.Reset()
			}
		}
		state, err := a.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if err := b.UnmarshalBinary(state); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		for i := range 300 {
			act := gen.randInt(0, a.numActions)
			ra, rb := step(a, act), step(b, act)
			oa, _ := observation(a)
			ob, _ := observation(b)
			if ra != rb || !bytes.Equal(oa, ob) || text(a) != text(b) {
				t.Fatalf("%s: restored env differs at step %d", id, i)
			}
			if ra.Terminated || ra.Truncated {
				a.Reset()
				b.Reset()
			}
		}
		if err := b.UnmarshalBinary(state[:len(state)-3]); err == nil {
			t.Errorf("%s: a cut state was accepted", id)
		}
	}
	b := makeEnv(t, "MiniGrid-MemoryS7-v0", nil, 1)
	if err := b.UnmarshalBinary([]byte{9, 9, 9}); err == nil {
		t.Error("garbage accepted")
	}
}

// TestRender checks the picture's size and a few of minigrid's colours: a wall tile
// grey, the goal green, the agent's triangle red, and the agent's view lightened.
func TestRender(t *testing.T) {
	e := makeEnv(t, "MiniGrid-Empty-5x5-v0", map[string]any{"tile_size": 16}, 1)
	img, err := e.Render()
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != image.Rect(0, 0, 80, 80) {
		t.Fatalf("picture %v, want 80 x 80", img.Bounds())
	}
	rgbaAt := func(x, y int) color.RGBA { return img.(*image.RGBA).RGBAAt(x, y) }
	lit := func(c uint8) uint8 { return uint8(float64(c) + (255-float64(c))*0.3) }
	if got := rgbaAt(4*16+8, 8); got != (color.RGBA{lit(100), lit(100), lit(100), 255}) { // wall (4, 0), in view
		t.Errorf("wall pixel %v", got)
	}
	if got := rgbaAt(3*16+8, 3*16+8); got != (color.RGBA{lit(0), 255, lit(0), 255}) {
		t.Errorf("goal pixel %v", got)
	}
	if got := rgbaAt(8, 2*16+8); got != (color.RGBA{100, 100, 100, 255}) { // wall (0, 2), behind the agent: not lit
		t.Errorf("wall pixel out of view %v", got)
	}
	if got := rgbaAt(16+8, 16+8); got != (color.RGBA{255, lit(0), lit(0), 255}) {
		t.Errorf("agent pixel %v", got)
	}
	if got := rgbaAt(16+15, 16+8); got.G != lit(0) { // the agent points east: the tile's right edge is background
		t.Errorf("pixel right of the triangle's tip %v", got)
	}
}

// TestBadActions checks that a pool refuses actions outside the action space with an
// error naming the action, and that an env stepped directly takes the nearest valid
// action instead of failing: NaN and negatives turn left, too large ones are the last
// action (done, or forward for Dynamic-Obstacles).
func TestBadActions(t *testing.T) {
	refusesActions(t, "MiniGrid-Dynamic-Obstacles-5x5-v0", []float32{3, -1, float32(math.NaN()), 1.5}) // three actions: 0, 1, 2
	refusesActions(t, "BabyAI-GoToRedBall-v0", []float32{7, -1, float32(math.NaN())})                  // seven
	e := makeEnv(t, "MiniGrid-Empty-5x5-v0", nil, 1)
	for _, a := range []float32{float32(math.NaN()), -3} {
		e.Step([]float32{a})
	}
	if e.dir != 2 || e.agent != (point{1, 1}) {
		t.Errorf("NaN and -3 should turn left twice: dir %d at %v", e.dir, e.agent)
	}
	e.Step(nil)
	if e.dir != 1 {
		t.Errorf("no action should turn left: dir %d", e.dir)
	}
	d := makeEnv(t, "MiniGrid-Dynamic-Obstacles-5x5-v0", nil, 1)
	// Forward from (1, 1) facing east: onto (2, 1) unless a ball stands there (then
	// the agent stays; the episode ends with -1 when the ball stood there before).
	if r := d.Step([]float32{1e9}); d.dir != 0 || d.agent != (point{2, 1}) && d.get(2, 1) != obj(objBall, blue) {
		t.Errorf("a huge action should move forward: at %v facing %d, %+v", d.agent, d.dir, r)
	}
}

// refusesActions checks that a pool of two envs of a task refuses each bad action
// (given to the second env, the first taking action 0) with an error naming the
// action.
func refusesActions(t *testing.T, id string, bad []float32) {
	t.Helper()
	pool, err := envs.Make(id, envs.Options{Options: envpool.Options{NumEnvs: 2, Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Reset(); err != nil {
		t.Fatal(err)
	}
	for _, a := range bad {
		if _, err := pool.Step([]float32{0, a}, nil); err == nil || !strings.Contains(err.Error(), "action") {
			t.Errorf("%s action %v: error %v, want one naming the action", id, a, err)
		}
	}
	if _, err := pool.Step([]float32{0, 1}, nil); err != nil {
		t.Errorf("%s: valid actions refused: %v", id, err)
	}
}

// TestCorruptStates checks that states with impossible values are refused and leave
// the env as it was.
func TestCorruptStates(t *testing.T) {
	for _, id := range []string{"BabyAI-MoveTwoAcrossS5N2-v0", "BabyAI-SynthSeq-v0"} {
		e := makeEnv(t, id, nil, 2)
		good, _ := e.MarshalBinary()
		before := text(e)
		for i := range good {
			bad := bytes.Clone(good)
			bad[i] ^= 0xff
			if e.UnmarshalBinary(bad) == nil {
				for a := range numActions { // a state that was accepted must step
					step(e, a)
				}
			}
		}
		if err := e.UnmarshalBinary(good); err != nil || text(e) != before || e.baby == nil || e.baby.instr == nil {
			t.Fatalf("%s: the good state no longer restores: %v", id, err)
		}
	}
	e := makeEnv(t, "MiniGrid-Empty-5x5-v0", nil, 1)
	good, _ := e.MarshalBinary()
	before := text(e)
	for i := range good {
		bad := bytes.Clone(good)
		bad[i] ^= 0xff
		_ = e.UnmarshalBinary(bad) // must not panic; may or may not be refused
	}
	if err := e.UnmarshalBinary(good); err != nil || text(e) != before {
		t.Fatalf("the good state no longer restores: %v", err)
	}
	// A grid of 2^40 squares a side, whose area overflows.
	pcg := len(must(e.pcg.AppendBinary(nil)))
	huge := bytes.Clone(good[:1+pcg])
	for _, v := range []int64{1 << 40, 1 << 40, 1, 1, 0, 0, 0, 0, 0, 0, 0} {
		huge = binary.AppendVarint(huge, v)
	}
	for _, bad := range [][]byte{nil, {stateVersion}, good[:len(good)/2], append(bytes.Clone(good), 0), huge} {
		if err := e.UnmarshalBinary(bad); err == nil {
			t.Errorf("state of %d bytes accepted", len(bad))
		}
	}
	if text(e) != before {
		t.Error("a refused state changed the env")
	}
}

// BenchmarkStep times a step and its observation on a few tasks (BossLevel: BabyAI's
// largest layouts and instructions), random actions, resetting when an episode ends.
func BenchmarkStep(b *testing.B) {
	for _, id := range []string{"MiniGrid-Empty-8x8-v0", "MiniGrid-DoorKey-8x8-v0", "MiniGrid-ObstructedMaze-Full-v1", "BabyAI-BossLevel-v0"} {
		b.Run(id, func(b *testing.B) {
			env, spec, err := envs.MakeEnv(id, nil, 1)
			if err != nil {
				b.Fatal(err)
			}
			obs := make([]uint8, spec.ObsSpace.Size())
			info := make([]float32, spec.InfoWidth())
			g := newGen(2)
			env.Reset()
			for b.Loop() {
				if r := env.Step([]float32{float32(g.randInt(0, spec.ActionSpace.N))}); r.Terminated || r.Truncated {
					env.Reset()
				}
				env.Observe(envpool.Obs{U8: obs}, info)
			}
		})
	}
}
