package toytext

import (
	"bytes"
	"encoding"
	"fmt"
	"image"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// ids are the tasks of EnvPool 1.2.4's envpool/toy_text/registration.py.
var ids = []string{"Catch-v0", "FrozenLake-v1", "FrozenLake8x8-v1", "Taxi-v3", "NChain-v0",
	"CliffWalking-v0", "CliffWalking-v1", "CliffWalkingSlippery-v1", "Blackjack-v1"}

// newEnv builds one env of a task with options, failing the test on an error.
func newEnv(t *testing.T, id string, opts map[string]any, seed int64) (envpool.Env, envpool.Spec) {
	t.Helper()
	env, spec, err := envs.MakeEnv(id, opts, seed)
	if err != nil {
		t.Fatalf("%s %v: %v", id, opts, err)
	}
	return env, spec
}

// observe returns an env's observation and info row.
func observe(env envpool.Env, spec envpool.Spec) ([]float32, []float32) {
	obs := make([]float32, spec.ObsSpace.Size())
	info := make([]float32, len(spec.InfoKeys))
	env.Observe(envpool.Obs{F32: obs}, info)
	return obs, info
}

func TestSpecs(t *testing.T) {
	type want struct {
		obs              string
		actions, maxStep int
		threshold        float64
	}
	for id, w := range map[string]want{
		"Catch-v0":                {"Box([10 5], float32)", 3, 0, math.NaN()},
		"FrozenLake-v1":           {"Discrete(16)", 4, 100, 0.70},
		"FrozenLake8x8-v1":        {"Discrete(64)", 4, 200, 0.85},
		"Taxi-v3":                 {"Discrete(500)", 6, 200, 8},
		"NChain-v0":               {"Discrete(5)", 2, 1000, math.NaN()},
		"CliffWalking-v0":         {"Discrete(48)", 4, 0, math.NaN()},
		"CliffWalking-v1":         {"Discrete(48)", 4, 0, math.NaN()},
		"CliffWalkingSlippery-v1": {"Discrete(48)", 4, 0, math.NaN()},
		"Blackjack-v1":            {"Box([3], float32)", 2, 0, math.NaN()},
	} {
		spec, err := envs.SpecOf(id, nil)
		if err != nil {
			t.Fatal(err)
		}
		th := spec.RewardThreshold
		if spec.ObsSpace.String() != w.obs || spec.ActionSpace.N != w.actions || spec.MaxEpisodeSteps != w.maxStep ||
			!(th == w.threshold || math.IsNaN(th) && math.IsNaN(w.threshold)) || spec.RenderFPS != 4 {
			t.Errorf("%s: spec %v %v max %d threshold %v fps %v; want %+v", id, spec.ObsSpace, spec.ActionSpace,
				spec.MaxEpisodeSteps, th, spec.RenderFPS, w)
		}
	}
	if got := len(ids); got != 9 {
		t.Fatalf("%d ids", got)
	}
	for _, id := range ids {
		if task, err := envs.Lookup(id); err != nil || task.Family != family {
			t.Errorf("%s: %v, family %q", id, err, task.Family)
		}
	}
}

// refLake is Gymnasium's FrozenLake transition rule, written from its documentation:
// the outcomes (probability, next tile, reward, terminated) of action a on tile s.
type refOutcome struct {
	p      float64
	next   int
	reward float32
	term   bool
}

func refLake(desc []string, slippery bool, s, a int) []refOutcome {
	nrow, ncol := len(desc), len(desc[0])
	r, c := s/ncol, s%ncol
	if desc[r][c] == 'G' || desc[r][c] == 'H' {
		return []refOutcome{{1, s, 0, true}}
	}
	// left, down, right, up as (dr, dc)
	dirs := [][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}
	one := func(d int, p float64) refOutcome {
		nr, nc := r+dirs[d][0], c+dirs[d][1]
		if nr < 0 || nr >= nrow {
			nr = r
		}
		if nc < 0 || nc >= ncol {
			nc = c
		}
		o := refOutcome{p: p, next: nr*ncol + nc}
		switch desc[nr][nc] {
		case 'G':
			o.reward, o.term = 1, true
		case 'H':
			o.term = true
		}
		return o
	}
	if !slippery {
		return []refOutcome{one(a, 1)}
	}
	// Slipping: the intended move or either perpendicular one, each 1/3, listed as
	// Gymnasium lists them: counter-clockwise neighbour, intended, clockwise.
	return []refOutcome{one((a+3)%4, 1.0/3), one(a, 1.0/3), one((a+1)%4, 1.0/3)}
}

// TestFrozenLakeTable checks every transition of both lakes, slippery and not,
// against refLake: the table's outcomes, and the outcomes Step reaches.
func TestFrozenLakeTable(t *testing.T) {
	maps := map[string][]string{
		"FrozenLake-v1":    {"SFFF", "FHFH", "FFFH", "HFFG"},
		"FrozenLake8x8-v1": {"SFFFFFFF", "FFFFFFFF", "FFFHFFFF", "FFFFFHFF", "FFFHFFFF", "FHHFFFHF", "FHFFHFHF", "FFFHFFFG"},
	}
	for id, desc := range maps {
		for _, slippery := range []bool{true, false} {
			env, spec := newEnv(t, id, map[string]any{"is_slippery": slippery}, 7)
			e := env.(*FrozenLake)
			n := len(desc) * len(desc[0])
			for s := range n {
				for a := range 4 {
					want := refLake(desc, slippery, s, a)
					got := e.table[s][a]
					if len(got) != len(want) {
						t.Fatalf("%s slippery=%v P[%d][%d] has %d outcomes, want %d", id, slippery, s, a, len(got), len(want))
					}
					for i, o := range got {
						w := want[i]
						if math.Abs(o.p-w.p) > 1e-15 || o.next != w.next || o.reward != w.reward || o.terminated != w.term {
							t.Errorf("%s slippery=%v P[%d][%d][%d] = %+v, want %+v", id, slippery, s, a, i, o, w)
						}
					}
					// Step from s reaches exactly the outcomes' next tiles.
					seen := map[int]bool{}
					for range 60 {
						e.Reset()
						e.s = s
						res := e.Step([]float32{float32(a)})
						obs, info := observe(e, spec)
						i := slices.IndexFunc(want, func(w refOutcome) bool { return w.next == int(obs[0]) })
						if i < 0 || res.Reward != want[i].reward || res.Terminated != want[i].term || float64(info[0]) != float64(float32(want[i].p)) {
							t.Fatalf("%s slippery=%v: step %d from %d gave %v %+v info %v; want one of %+v", id, slippery, a, s, obs, res, info, want)
						}
						seen[want[i].next] = true
					}
					for _, w := range want {
						if !seen[w.next] {
							t.Errorf("%s slippery=%v: step %d from %d never reached %d in 60 tries", id, slippery, a, s, w.next)
						}
					}
				}
			}
		}
	}
}

// TestFrozenLakeOptions checks a custom lake, success_rate and reward_schedule.
func TestFrozenLakeOptions(t *testing.T) {
	env, spec := newEnv(t, "FrozenLake-v1", map[string]any{"desc": []any{"SFG", "HFF"}, "is_slippery": false,
		"reward_schedule": []any{5, -2, 0.5}, "one_hot": true}, 1)
	if spec.ObsSpace.String() != "Box([6], float32)" {
		t.Fatalf("one-hot space %v", spec.ObsSpace)
	}
	env.Reset()
	for _, c := range []struct {
		a      float32
		obs    int
		reward float32
		term   bool
	}{{0, 0, 0.5, false}, {2, 1, 0.5, false}, {1, 4, 0.5, false}, {0, 3, -2, true}} {
		res := env.Step([]float32{c.a})
		obs, _ := observe(env, spec)
		want := make([]float32, 6)
		want[c.obs] = 1
		if !slices.Equal(obs, want) || res.Reward != c.reward || res.Terminated != c.term {
			t.Errorf("action %v: obs %v %+v, want tile %d reward %v terminated %v", c.a, obs, res, c.obs, c.reward, c.term)
		}
	}
	// success_rate 1 on a slippery lake never slips; 0 always does.
	e, _ := newEnv(t, "FrozenLake-v1", map[string]any{"success_rate": 1.0}, 1)
	for range 50 {
		e.Reset()
		if e.Step([]float32{2}); e.(*FrozenLake).s != 1 {
			t.Fatal("success_rate 1 slipped")
		}
	}
	e, _ = newEnv(t, "FrozenLake-v1", map[string]any{"success_rate": 0.0}, 1)
	for range 50 {
		e.Reset()
		if e.Step([]float32{2}); e.(*FrozenLake).s == 1 {
			t.Fatal("success_rate 0 moved as chosen")
		}
	}
}

// refTaxi is Taxi's rule written from EnvPool's taxi.h: walls as its compressed map,
// where row r's character c+1 (east of cell c) or c (west of it) is ':' when open.
func refTaxi(s, a int) (int, float32, bool) {
	walls := []string{"|:|::|", "|:|::|", "|::::|", "||:|:|", "||:|:|"}
	stands := [][2]int{{0, 0}, {0, 4}, {4, 0}, {4, 3}}
	dest := s % 4
	pass := s / 4 % 5
	y := s / 20 % 5
	x := s / 100
	reward, done := float32(-1), false
	switch a {
	case 0:
		if x < 4 {
			x++
		}
	case 1:
		if x > 0 {
			x--
		}
	case 2:
		if walls[x][y+1] == ':' {
			y++
		}
	case 3:
		if walls[x][y] == ':' {
			y--
		}
	case 4:
		if pass < 4 && stands[pass] == [2]int{x, y} {
			pass = 4
		} else {
			reward = -10
		}
	case 5:
		at := slices.Index(stands, [2]int{x, y})
		switch {
		case pass == 4 && stands[dest] == [2]int{x, y}:
			pass, done, reward = dest, true, 20
		case pass == 4 && at >= 0:
			pass = at
		default:
			reward = -10
		}
	}
	return ((x*5+y)*5+pass)*4 + dest, reward, done
}

// TestTaxiTable checks all 500 x 6 transitions against refTaxi.
func TestTaxiTable(t *testing.T) {
	env, spec := newEnv(t, "Taxi-v3", nil, 3)
	e := env.(*Taxi)
	for s := range 500 {
		for a := range 6 {
			e.s = s
			res := e.Step([]float32{float32(a)})
			obs, info := observe(e, spec)
			next, r, done := refTaxi(s, a)
			if int(obs[0]) != next || res.Reward != r || res.Terminated != done || res.Truncated || info[0] != 1 {
				t.Errorf("state %d action %d: %v %+v, want %d %v %v", s, a, obs, res, next, r, done)
			}
		}
	}
	// Resets start with the passenger at a stand other than the destination, and
	// reach every such state.
	starts := map[int]bool{}
	for range 20000 {
		e.Reset()
		obs, _ := observe(e, spec)
		s := int(obs[0])
		if pass, dest := s/4%5, s%4; pass == 4 || pass == dest {
			t.Fatalf("reset to state %d: passenger %d, destination %d", s, pass, dest)
		}
		starts[s] = true
	}
	if len(starts) != 300 {
		t.Errorf("resets reached %d start states, want 300", len(starts))
	}
	// The factored observation: one-hot row, column, passenger, destination.
	env, spec = newEnv(t, "Taxi-v3", map[string]any{"factored": true}, 3)
	env.Reset()
	env.(*Taxi).s = ((2*5+1)*5+4)*4 + 3 // row 2, column 1, passenger aboard, destination B
	obs, _ := observe(env, spec)
	want := make([]float32, 19)
	want[2], want[5+1], want[10+4], want[15+3] = 1, 1, 1, 1
	if spec.ObsSpace.String() != "Box([19], float32)" || !slices.Equal(obs, want) {
		t.Errorf("factored: %v %v, want %v", spec.ObsSpace, obs, want)
	}
}

// TestCliffWalking checks the cliff's reset to the start, the rewards and the goal.
func TestCliffWalking(t *testing.T) {
	for _, id := range []string{"CliffWalking-v0", "CliffWalking-v1"} {
		env, spec := newEnv(t, id, nil, 1)
		env.Reset()
		if obs, info := observe(env, spec); obs[0] != 36 || info[0] != 1 {
			t.Fatalf("%s reset: %v %v, want 36 and prob 1", id, obs, info)
		}
		// Right from the start falls off the cliff: -100, back to the start, not over.
		if res := env.Step([]float32{1}); res.Reward != -100 || res.Terminated {
			t.Errorf("%s into the cliff: %+v", id, res)
		}
		if obs, _ := observe(env, spec); obs[0] != 36 {
			t.Errorf("%s after the cliff at %v, want 36", id, obs[0])
		}
		// Left and down at the start stay put for -1.
		for _, a := range []float32{3, 2} {
			if res := env.Step([]float32{a}); res.Reward != -1 || res.Terminated {
				t.Errorf("%s action %v at the start: %+v", id, a, res)
			}
		}
		// Up, 11 right, down: the goal, -1 a step, over on the last.
		path := append([]float32{0}, slices.Repeat([]float32{1}, 11)...)
		path = append(path, 2)
		total := float32(0)
		for i, a := range path {
			res := env.Step([]float32{a})
			total += res.Reward
			if res.Terminated != (i == len(path)-1) {
				t.Fatalf("%s step %d: terminated %v", id, i, res.Terminated)
			}
		}
		if obs, _ := observe(env, spec); obs[0] != 47 || total != -13 {
			t.Errorf("%s: at %v with %v, want 47 and -13", id, obs[0], total)
		}
	}
	// Slippery: each step goes the chosen way or a perpendicular one, prob 1/3.
	env, spec := newEnv(t, "CliffWalkingSlippery-v1", nil, 5)
	moved := map[float32]int{}
	for range 3000 {
		env.Reset()
		env.(*CliffWalking).s = 13 // row 1, column 1
		env.Step([]float32{0})     // up: up, left (3) or right (1)
		obs, info := observe(env, spec)
		if info[0] != float32(1.0/3) {
			t.Fatalf("slippery prob %v", info[0])
		}
		moved[obs[0]]++
	}
	if len(moved) != 3 || moved[1] < 900 || moved[12] < 900 || moved[14] < 900 {
		t.Errorf("slippery moves up from 13: %v, want about 1000 each of 1, 12, 14", moved)
	}
}

// stick gives a Blackjack env hands of known cards and sticks.
func stick(e *Blackjack, player, dealer []int) envpool.StepResult {
	e.player, e.dealer, e.over = slices.Clone(player), slices.Clone(dealer), false
	return e.Step([]float32{0})
}

func TestBlackjackScoring(t *testing.T) {
	env, spec := newEnv(t, "Blackjack-v1", map[string]any{"sab": false}, 1)
	e := env.(*Blackjack)
	for _, c := range []struct {
		hand          []int
		sum, ace      int
		score         int
		natural, bust bool
	}{
		{[]int{1, 10}, 21, 1, 21, true, false},
		{[]int{10, 1}, 21, 1, 21, true, false},
		{[]int{1, 5, 10}, 16, 0, 16, false, false},
		{[]int{1, 1}, 12, 1, 12, false, false},
		{[]int{1, 1, 9}, 21, 1, 21, false, false},
		{[]int{10, 10, 2}, 22, 0, 0, false, true},
		{[]int{5, 6, 10}, 21, 0, 21, false, false},
	} {
		ace := 0
		if usableAce(c.hand) {
			ace = 1
		}
		if sumHand(c.hand) != c.sum || ace != c.ace || score(c.hand) != c.score || isNatural(c.hand) != c.natural {
			t.Errorf("hand %v: sum %d ace %d score %d natural %v", c.hand, sumHand(c.hand), ace, score(c.hand), isNatural(c.hand))
		}
		e.player, e.dealer = c.hand, []int{7, 3}
		if obs, _ := observe(e, spec); !slices.Equal(obs, []float32{float32(c.sum), 7, float32(c.ace)}) {
			t.Errorf("hand %v observed %v", c.hand, obs)
		}
	}
	// The dealer stands on 17 or more: hands already there draw nothing.
	for _, d := range [][]int{{10, 7}, {1, 6}, {10, 10}} {
		res := stick(e, []int{10, 8}, d)
		if len(e.dealer) != 2 || !res.Terminated {
			t.Errorf("dealer %v drew to %v", d, e.dealer)
		}
	}
	// A dealer under 17 draws until 17 or more.
	for range 200 {
		stick(e, []int{10, 8}, []int{2, 3})
		if s := sumHand(e.dealer); s < 17 || sumHand(e.dealer[:len(e.dealer)-1]) >= 17 {
			t.Fatalf("dealer drew to %v (sum %d)", e.dealer, s)
		}
	}
	rules := []struct {
		natural, sab bool
		player       []int
		dealer       []int
		want         float32
	}{
		{false, false, []int{10, 9}, []int{10, 8}, 1},
		{false, false, []int{10, 7}, []int{10, 8}, -1},
		{false, false, []int{10, 8}, []int{10, 8}, 0},
		{false, false, []int{10, 5, 10}, []int{10, 8}, -1}, // bust player scores 0
		{false, false, []int{1, 10}, []int{10, 8}, 1},      // natural pays 1 without natural=True
		{true, false, []int{1, 10}, []int{10, 8}, 1.5},     // natural=True pays 1.5
		{true, false, []int{1, 10}, []int{10, 1}, 0},       // natural against natural: a tie
		{true, false, []int{5, 6, 10}, []int{10, 8}, 1},    // three-card 21 is no natural
		{false, true, []int{1, 10}, []int{10, 8}, 1},       // sab: a natural wins 1
		{true, true, []int{1, 10}, []int{10, 8}, 1},        // sab overrides natural
		{false, true, []int{1, 10}, []int{1, 10}, 0},       // sab: both naturals tie
		{false, true, []int{5, 6, 10}, []int{1, 10}, 0},    // three-card 21 against a natural: both 21, a tie
		{true, false, []int{1, 1}, []int{10, 8}, -1},       // soft 12 against 18
	}
	for _, c := range rules {
		env, _ := newEnv(t, "Blackjack-v1", map[string]any{"natural": c.natural, "sab": c.sab}, 1)
		if res := stick(env.(*Blackjack), c.player, c.dealer); res.Reward != c.want || !res.Terminated {
			t.Errorf("natural=%v sab=%v player %v dealer %v: %+v, want %v", c.natural, c.sab, c.player, c.dealer, res, c.want)
		}
	}
	// Hitting: a bust ends the hand with -1; otherwise 0 and on.
	for range 200 {
		e.player, e.dealer, e.over = []int{10, 10}, []int{5, 5}, false
		res := e.Step([]float32{1})
		if bust := sumHand(e.player) > 21; res.Terminated != bust || (bust && res.Reward != -1) || (!bust && res.Reward != 0) {
			t.Fatalf("hit to %v: %+v", e.player, res)
		}
	}
}

// TestCatch follows EnvPool's catch.h: the ball falls height-1 rows; the paddle under
// it at the end wins 1, else -1.
func TestCatch(t *testing.T) {
	env, spec := newEnv(t, "Catch-v0", nil, 2)
	for _, follow := range []bool{true, false} {
		env.Reset()
		obs, _ := observe(env, spec)
		ball := slices.Index(obs[:5], 1)
		if paddle := slices.Index(obs[45:], 1); ball < 0 || paddle != 2 {
			t.Fatalf("reset board %v", obs)
		}
		for i := range 9 {
			paddle := slices.Index(obs[45:], 1)
			a := float32(1)
			if d := ball - paddle; follow && d != 0 {
				a = float32(1 + d/max(d, -d))
			} else if !follow {
				a = 0
				if ball == 0 || paddle == 0 && ball == 0 {
					a = 2
				}
			}
			res := env.Step([]float32{a})
			obs, _ = observe(env, spec)
			if row := slices.Index(obs, 1) / 5; i < 8 && (row != i+1 || res.Terminated || res.Reward != 0) {
				t.Fatalf("step %d: ball row %d, %+v", i, row, res)
			}
			if i == 8 {
				want := float32(1)
				if !follow && slices.Index(obs[45:], 1) != ball {
					want = -1
				}
				if !res.Terminated || res.Reward != want {
					t.Errorf("follow=%v: end %+v, want reward %v", follow, res, want)
				}
			}
		}
	}
	// The paddle stops at the walls.
	env.Reset()
	for range 5 {
		env.Step([]float32{0})
	}
	if obs, _ := observe(env, spec); obs[45] != 1 {
		t.Errorf("paddle left of the wall: %v", obs[45:])
	}
	if _, err := envs.SpecOf("Catch-v0", map[string]any{"height": 1}); err == nil {
		t.Error("height 1 accepted")
	}
}

// TestNChain follows EnvPool's nchain.h: forward (0) moves on, reaching 10 a step at
// the end; back (1) returns to the start for 2; each is swapped with probability 0.2.
func TestNChain(t *testing.T) {
	env, spec := newEnv(t, "NChain-v0", nil, 4)
	e := env.(*NChain)
	var swapped, n int
	for range 5000 {
		for s := range 5 {
			e.s = s
			res := e.Step([]float32{0})
			obs, _ := observe(e, spec)
			n++
			switch {
			case obs[0] == 0 && res.Reward == 2: // swapped to back
				swapped++
			case s < 4 && obs[0] == float32(s+1) && res.Reward == 0:
			case s == 4 && obs[0] == 4 && res.Reward == 10:
			default:
				t.Fatalf("forward from %d: %v %+v", s, obs, res)
			}
			if res.Terminated {
				t.Fatal("NChain terminated; its end is the time limit")
			}
		}
	}
	if f := float64(swapped) / float64(n); f < 0.18 || f > 0.22 {
		t.Errorf("swapped %.3f of the actions, want 0.2", f)
	}
}

// TestBadOptions checks that wrong options are named errors.
func TestBadOptions(t *testing.T) {
	for _, c := range []struct {
		id   string
		opts map[string]any
		want string
	}{
		{"FrozenLake-v1", map[string]any{"is_slipery": true}, "is_slippery"},
		{"FrozenLake-v1", map[string]any{"map_name": "5x5"}, "map_name"},
		{"FrozenLake-v1", map[string]any{"desc": []any{"SFF", "FG"}}, "row 1"},
		{"FrozenLake-v1", map[string]any{"desc": []any{"SFX", "FFG"}}, `'X'`},
		{"FrozenLake-v1", map[string]any{"desc": []any{"FFF", "FFG"}}, "start (S)"},
		{"FrozenLake-v1", map[string]any{"desc": []any{"SFF", "FFF"}}, "goal (G)"},
		{"FrozenLake-v1", map[string]any{"desc": []any{}}, "no rows"},
		{"FrozenLake-v1", map[string]any{"success_rate": 1.5}, "success_rate"},
		{"Taxi-v3", map[string]any{"is_rainy": true}, "is_rainy"},
		{"Blackjack-v1", map[string]any{"natural": "yes"}, "natural"},
		{"Catch-v0", map[string]any{"width": 0}, "width"},
		{"CliffWalking-v1", map[string]any{"one_hot": 1}, "one_hot"},
		{"Taxi-v3", map[string]any{"one_hot": true, "factored": true}, "factored"},
	} {
		_, err := envs.SpecOf(c.id, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: error %v, want one naming %s", c.id, c.opts, err, c.want)
		}
	}
}

// TestBadActions checks that the pool refuses actions out of range or NaN with named
// errors, and that an env stepped directly with one does not panic.
func TestBadActions(t *testing.T) {
	for _, id := range ids {
		pool, err := envs.Make(id, envs.Options{Options: envpool.Options{NumEnvs: 1, Seed: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if err := pool.SendReset(nil); err != nil {
			t.Fatal(err)
		}
		if _, err := pool.Recv(); err != nil {
			t.Fatal(err)
		}
		n := pool.Spec().ActionSpace.N
		for _, a := range []float32{float32(math.NaN()), -1, float32(n), 0.5} {
			if err := pool.Send([]float32{a}, nil); err == nil || !strings.Contains(err.Error(), "action") {
				t.Errorf("%s: Send(%v) error %v", id, a, err)
			}
		}
		pool.Close()
		env, _ := newEnv(t, id, nil, 1)
		for _, a := range []float32{float32(math.NaN()), -1, float32(n), 1e9} {
			env.Reset()
			env.Step([]float32{a})
		}
		env.Step(nil)
	}
}

// TestStateRoundTrip saves every env mid-episode, plays on, restores the state into a
// fresh env of another seed, and checks that it plays on exactly the same.
func TestStateRoundTrip(t *testing.T) {
	for _, id := range ids {
		env, spec := newEnv(t, id, nil, 11)
		env.Reset()
		for i := range 3 {
			if env.Step([]float32{float32(i % spec.ActionSpace.N)}).Terminated {
				env.Reset()
			}
		}
		saved, err := env.(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		play := func(e envpool.Env) string {
			var b strings.Builder
			for i := range 40 {
				res := e.Step([]float32{float32(i * 7 % spec.ActionSpace.N)})
				obs, info := observe(e, spec)
				fmt.Fprintln(&b, obs, info, res)
				if res.Terminated {
					e.Reset()
				}
			}
			return b.String()
		}
		want := play(env)
		other, _ := newEnv(t, id, nil, 99)
		other.Reset()
		if err := other.(encoding.BinaryUnmarshaler).UnmarshalBinary(saved); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if got := play(other); got != want {
			t.Errorf("%s: restored env played\n%s\nwant\n%s", id, got, want)
		}
		// Truncated or foreign states are refused.
		if err := other.(encoding.BinaryUnmarshaler).UnmarshalBinary(saved[:len(saved)/2]); err == nil {
			t.Errorf("%s: half a state accepted", id)
		}
	}
	taxi, _ := newEnv(t, "Taxi-v3", nil, 1)
	taxi.Reset()
	saved, _ := taxi.(encoding.BinaryMarshaler).MarshalBinary()
	lake, _ := newEnv(t, "FrozenLake-v1", nil, 1)
	if err := lake.(encoding.BinaryUnmarshaler).UnmarshalBinary(saved); err == nil {
		t.Error("a lake took a taxi's state")
	}
}

// TestTextFrames checks the text of known states against Gymnasium's ansi frames.
func TestTextFrames(t *testing.T) {
	for _, c := range []struct {
		id   string
		opts map[string]any
		set  func(e envpool.Env) // puts the env in the known state
		want string
	}{
		{"FrozenLake-v1", map[string]any{"is_slippery": false}, func(envpool.Env) {},
			"\n\x1b[41mS\x1b[0mFFF\nFHFH\nFFFH\nHFFG\n"},
		{"FrozenLake-v1", map[string]any{"is_slippery": false}, func(e envpool.Env) { e.Step([]float32{1}) },
			"  (Down)\nSFFF\n\x1b[41mF\x1b[0mHFH\nFFFH\nHFFG\n"},
		// Taxi at (2, 1), passenger at R, going to B.
		{"Taxi-v3", nil, func(e envpool.Env) { e.(*Taxi).s = taxiEncode(2, 1, 0, 3) },
			"+---------+\n|\x1b[34;1mR\x1b[0m: | : :G|\n| : | : : |\n| :\x1b[43m \x1b[0m: : : |\n" +
				"| | : | : |\n|Y| : |\x1b[35mB\x1b[0m: |\n+---------+\n\n"},
		// The same, passenger aboard, then south.
		{"Taxi-v3", nil, func(e envpool.Env) { e.(*Taxi).s = taxiEncode(2, 1, 4, 3); e.Step([]float32{0}) },
			"+---------+\n|R: | : :G|\n| : | : : |\n| : : : : |\n| |\x1b[42m_\x1b[0m: | : |\n" +
				"|Y| : |\x1b[35mB\x1b[0m: |\n+---------+\n  (South)\n"},
		{"CliffWalking-v1", nil, func(e envpool.Env) { e.Step([]float32{0}) },
			"o  o  o  o  o  o  o  o  o  o  o  o\no  o  o  o  o  o  o  o  o  o  o  o\n" +
				"x  o  o  o  o  o  o  o  o  o  o  o\no  C  C  C  C  C  C  C  C  C  C  T\n\n"},
		{"Blackjack-v1", nil, func(e envpool.Env) {
			b := e.(*Blackjack)
			b.player, b.dealer, b.over = []int{1, 6}, []int{10, 7}, false
		}, "Player: A 6 (sum 17, usable ace)\nDealer: 10 ?\n"},
		{"Blackjack-v1", nil, func(e envpool.Env) {
			b := e.(*Blackjack)
			b.player, b.dealer, b.over = []int{10, 1, 5}, []int{10, 7}, true
		}, "Player: 10 A 5 (sum 16)\nDealer: 10 7 (sum 17)\n"},
		{"NChain-v0", nil, func(envpool.Env) {}, "[x][ ][ ][ ][ ]\n"},
		{"Catch-v0", map[string]any{"height": 3, "width": 3}, func(e envpool.Env) {
			c := e.(*Catch)
			c.ballRow, c.ballCol, c.paddle = 1, 0, 1
		}, "...\no..\n.=.\n"},
	} {
		env, _ := newEnv(t, c.id, c.opts, 1)
		env.Reset()
		c.set(env)
		got, err := env.(envpool.TextRenderer).RenderText()
		if err != nil || got != c.want {
			t.Errorf("%s:\n%q (%v)\nwant\n%q", c.id, got, err, c.want)
		}
	}
}

// TestPictures checks that every env draws a paletted picture of a fixed size that
// changes when the agent moves.
func TestPictures(t *testing.T) {
	sizes := map[string]image.Point{"Catch-v0": {40, 80}, "FrozenLake-v1": {64, 64}, "FrozenLake8x8-v1": {128, 128},
		"Taxi-v3": {80, 80}, "NChain-v0": {80, 16}, "CliffWalking-v0": {192, 64}, "CliffWalking-v1": {192, 64},
		"CliffWalkingSlippery-v1": {192, 64}, "Blackjack-v1": {292, 72}}
	for _, id := range ids {
		env, spec := newEnv(t, id, nil, 3)
		env.Reset()
		img, err := env.(envpool.Renderer).Render()
		if err != nil {
			t.Fatal(err)
		}
		p, ok := img.(*image.Paletted)
		if !ok || p.Rect.Size() != sizes[id] {
			t.Fatalf("%s: picture %T of %v, want paletted %v", id, img, img.Bounds().Size(), sizes[id])
		}
		before := slices.Clone(p.Pix)
		changed := false
		for i := range 20 {
			if env.Step([]float32{float32(i % spec.ActionSpace.N)}).Terminated {
				env.Reset()
			}
			img, _ = env.(envpool.Renderer).Render()
			changed = changed || !bytes.Equal(img.(*image.Paletted).Pix, before)
		}
		if !changed {
			t.Errorf("%s: 20 steps left the picture unchanged", id)
		}
	}
}
