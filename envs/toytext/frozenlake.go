package toytext

import (
	"fmt"
	"strings"

	"github.com/rlpool/rlpool/envpool"
)

// frozenLakeMaps are Gymnasium's predefined lakes, by map_name.
var frozenLakeMaps = map[string][]string{
	"4x4": {"SFFF", "FHFH", "FFFH", "HFFG"},
	"8x8": {"SFFFFFFF", "FFFFFFFF", "FFFHFFFF", "FFFFFHFF", "FFFHFFFF", "FHHFFFHF", "FHFFHFHF", "FFFHFFFG"},
}

// frozenLakeOptions are Gymnasium's FrozenLakeEnv keyword arguments (render_mode
// aside) and one_hot.
type frozenLakeOptions struct {
	discreteOptions
	MapName        string     `toml:"map_name" oneof:"4x4|8x8" help:"which predefined lake (ignored when desc is given)"`
	Desc           []string   `toml:"desc" help:"a lake of your own, one string per row of S (start), F (frozen), H (hole), G (goal), e.g. [\"SFF\", \"FHG\"]"`
	IsSlippery     bool       `toml:"is_slippery" help:"the player may slide perpendicular to the move it chose"`
	SuccessRate    float64    `toml:"success_rate" range:"[0,1]" help:"probability of moving as chosen on a slippery lake (the rest split between the two perpendicular moves)"`
	RewardSchedule [3]float64 `toml:"reward_schedule" help:"rewards for reaching the goal, a hole, and a frozen tile (start included)"`
}

// The moves of FrozenLake, as Gymnasium numbers them.
const (
	flLeft = iota
	flDown
	flRight
	flUp
)

// lakeOutcome is one possible result of a move on the lake.
type lakeOutcome struct {
	p          float64
	next       int
	reward     float32
	terminated bool
}

// lake is a FrozenLake task's map and transition table, shared by its envs.
type lake struct {
	desc       []string
	nrow, ncol int
	starts     []int              // the S tiles, drawn uniformly at reset
	table      [][4][]lakeOutcome // table[s][a]: Gymnasium's P[s][a]
	oneHot     bool
}

// parseLake checks a lake's rows: equal lengths, only the letters SFHG, at least one
// start and one goal.
func parseLake(desc []string) error {
	if len(desc) == 0 {
		return fmt.Errorf("option desc: the lake has no rows; give rows like [\"SFFF\", \"FHFH\", \"FFFH\", \"HFFG\"]")
	}
	var starts, goals int
	for i, row := range desc {
		if len(row) != len(desc[0]) || len(row) == 0 {
			return fmt.Errorf("option desc: row %d (%q) has %d tiles, row 0 has %d; every row needs the same number", i, row, len(row), len(desc[0]))
		}
		for j, c := range row {
			switch c {
			case 'S':
				starts++
			case 'G':
				goals++
			case 'F', 'H':
			default:
				return fmt.Errorf("option desc: row %d column %d is %q; tiles are S (start), F (frozen), H (hole), G (goal)", i, j, c)
			}
		}
	}
	if starts == 0 || goals == 0 {
		return fmt.Errorf("option desc: the lake needs at least one start (S) and one goal (G); it has %d and %d", starts, goals)
	}
	return nil
}

// newLake builds the transition table of a lake as Gymnasium's FrozenLakeEnv does.
func newLake(o frozenLakeOptions) (*lake, error) {
	desc := o.Desc
	if desc == nil {
		desc = frozenLakeMaps[o.MapName]
	}
	if err := parseLake(desc); err != nil {
		return nil, err
	}
	l := &lake{desc: desc, nrow: len(desc), ncol: len(desc[0]), oneHot: o.OneHot}
	l.table = make([][4][]lakeOutcome, l.nrow*l.ncol)
	fail := (1 - o.SuccessRate) / 2
	for r, row := range desc {
		for c := range row {
			s := r*l.ncol + c
			if row[c] == 'S' {
				l.starts = append(l.starts, s)
			}
			for a := range 4 {
				switch {
				case row[c] == 'G' || row[c] == 'H':
					l.table[s][a] = []lakeOutcome{{p: 1, next: s, terminated: true}}
				case o.IsSlippery:
					for _, b := range [3]int{(a + 3) % 4, a, (a + 1) % 4} {
						p := fail
						if b == a {
							p = o.SuccessRate
						}
						l.table[s][a] = append(l.table[s][a], l.move(r, c, b, p, o.RewardSchedule))
					}
				default:
					l.table[s][a] = []lakeOutcome{l.move(r, c, a, 1, o.RewardSchedule)}
				}
			}
		}
	}
	return l, nil
}

// move is the outcome, with probability p, of moving from (r, c) in direction a.
func (l *lake) move(r, c, a int, p float64, rewards [3]float64) lakeOutcome {
	switch a {
	case flLeft:
		c = max(c-1, 0)
	case flDown:
		r = min(r+1, l.nrow-1)
	case flRight:
		c = min(c+1, l.ncol-1)
	case flUp:
		r = max(r-1, 0)
	}
	out := lakeOutcome{p: p, next: r*l.ncol + c, reward: float32(rewards[2])}
	switch l.desc[r][c] {
	case 'G':
		out.reward, out.terminated = float32(rewards[0]), true
	case 'H':
		out.reward, out.terminated = float32(rewards[1]), true
	}
	return out
}

func buildFrozenLake(o frozenLakeOptions) (task, error) {
	l, err := newLake(o)
	if err != nil {
		return task{}, err
	}
	n := l.nrow * l.ncol
	spec := envpool.Spec{ObsSpace: o.obsSpace(n), ActionSpace: envpool.DiscreteSpace(4), InfoKeys: []string{"prob"}}
	return task{spec: spec, make: func(seed int64) envpool.Env {
		return &FrozenLake{gen: newGen(seed), lake: l, last: -1, prob: 1}
	}}, nil
}

// FrozenLake is FrozenLake-v1 and FrozenLake8x8-v1: walk from the start to the goal
// across a lake without falling into a hole, perhaps sliding on the ice.
type FrozenLake struct {
	gen
	*lake
	s    int     // the player's tile, row*ncol + col
	last int     // the last action, -1 after a reset
	prob float64 // the probability of the last transition (info "prob")
}

// Reset puts the player on a start tile (drawn uniformly when there are several).
func (e *FrozenLake) Reset() {
	e.s = e.starts[e.categoricalUniform(len(e.starts))]
	e.last, e.prob = -1, 1
}

// categoricalUniform draws one of n equally likely choices as Gymnasium draws from a
// uniform initial-state distribution (one draw, even for one choice).
func (g *gen) categoricalUniform(n int) int {
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	return g.categorical(p)
}

// Step moves the player: 0 left, 1 down, 2 right, 3 up.
func (e *FrozenLake) Step(act []float32) envpool.StepResult {
	a := action(act, 4)
	outs := e.table[e.s][a]
	var ps [3]float64 // one draw per step, as Gymnasium's categorical_sample
	for i, x := range outs {
		ps[i] = x.p
	}
	o := outs[e.categorical(ps[:len(outs)])]
	e.s, e.last, e.prob = o.next, a, o.p
	return envpool.StepResult{Reward: o.reward, Terminated: o.terminated}
}

// Observe writes the player's tile and the transition's probability.
func (e *FrozenLake) Observe(obs envpool.Obs, info []float32) {
	writeState(obs.F32, e.s, e.nrow*e.ncol, e.oneHot)
	if len(info) > 0 {
		info[0] = float32(e.prob)
	}
}

// RenderText draws the lake as Gymnasium's ansi mode does: the last move in
// parentheses, then the rows with the player's tile highlighted in red.
func (e *FrozenLake) RenderText() (string, error) {
	var b strings.Builder
	if e.last >= 0 {
		fmt.Fprintf(&b, "  (%s)\n", [4]string{"Left", "Down", "Right", "Up"}[e.last])
	} else {
		b.WriteString("\n")
	}
	r, c := e.s/e.ncol, e.s%e.ncol
	for i, row := range e.desc {
		if i == r {
			row = row[:c] + colorize(row[c:c+1], "red", false, true) + row[c+1:]
		}
		b.WriteString(row + "\n")
	}
	return b.String(), nil
}
