package toytext

import (
	"fmt"
	"strings"

	"github.com/rlpool/rlpool/envpool"
)

// taxiMap is Gymnasium's taxi yard: a 5 x 5 grid whose cell (row, col) is character
// 2*col+1 of line row+1; a ':' beside a cell is a way through, a '|' a wall.
var taxiMap = [7]string{
	"+---------+",
	"|R: | : :G|",
	"| : | : : |",
	"| : : : : |",
	"| | : | : |",
	"|Y| : |B: |",
	"+---------+",
}

// taxiLocs are the four stands R, G, Y, B as (row, col).
var taxiLocs = [4][2]int{{0, 0}, {0, 4}, {4, 0}, {4, 3}}

// taxiStarts are the states an episode may start in, in state order: the passenger
// at a stand other than the destination (Gymnasium's initial_state_distrib).
var taxiStarts = func() []int {
	var s []int
	for i := range taxiStates {
		_, _, p, d := taxiDecode(i)
		if p < 4 && p != d {
			s = append(s, i)
		}
	}
	return s
}()

const taxiStates = 500

// taxiEncode numbers a state as Gymnasium does: ((row*5 + col)*5 + passenger)*4 + destination.
func taxiEncode(row, col, pass, dest int) int { return ((row*5+col)*5+pass)*4 + dest }

// taxiDecode splits a state into taxi row, taxi column, passenger (a stand, or 4 in
// the taxi) and destination.
func taxiDecode(s int) (row, col, pass, dest int) {
	return s / 100, s / 20 % 5, s / 4 % 5, s % 4
}

// taxiOptions are Taxi's options.
type taxiOptions struct {
	discreteOptions
	Factored bool `toml:"factored" help:"observe taxi row, taxi column, passenger and destination as four one-hot vectors (5+5+5+4 values) instead of the state number"`
}

// taxiFactors are the sizes of the factored observation's one-hot parts.
var taxiFactors = [4]int{5, 5, 5, 4}

func buildTaxi(o taxiOptions) (task, error) {
	if o.Factored && o.OneHot {
		return task{}, fmt.Errorf("options one_hot and factored: choose one encoding of the state")
	}
	obs := o.obsSpace(taxiStates)
	if o.Factored {
		obs = envpool.UniformBox(0, 1, envpool.Float32, 19)
	}
	spec := envpool.Spec{ObsSpace: obs, ActionSpace: envpool.DiscreteSpace(6), InfoKeys: []string{"prob"}}
	return task{spec: spec, make: func(seed int64) envpool.Env {
		return &Taxi{gen: newGen(seed), oneHot: o.OneHot, factored: o.Factored, last: -1}
	}}, nil
}

// Taxi is Taxi-v3: drive to the passenger, pick them up, and drop them off at their
// destination, one of the four stands.
type Taxi struct {
	gen
	s        int // the state, taxiEncode's number
	last     int // the last action, -1 after a reset
	oneHot   bool
	factored bool
}

// Reset draws a start state uniformly: the taxi anywhere, the passenger at a stand,
// the destination at another.
func (e *Taxi) Reset() {
	e.s, e.last = taxiStarts[e.rng.IntN(len(taxiStarts))], -1
}

// Step takes action 0 south, 1 north, 2 east, 3 west, 4 pick up, 5 drop off: -1 a
// step, -10 for a pickup or drop-off where none can be made, +20 (and the end) for
// delivering the passenger.
func (e *Taxi) Step(act []float32) envpool.StepResult {
	a := action(act, 6)
	row, col, pass, dest := taxiDecode(e.s)
	reward, terminated := float32(-1), false
	at := [2]int{row, col}
	switch a {
	case 0:
		row = min(row+1, 4)
	case 1:
		row = max(row-1, 0)
	case 2:
		if taxiMap[1+row][2*col+2] == ':' {
			col = min(col+1, 4)
		}
	case 3:
		if taxiMap[1+row][2*col] == ':' {
			col = max(col-1, 0)
		}
	case 4:
		if pass < 4 && at == taxiLocs[pass] {
			pass = 4
		} else {
			reward = -10
		}
	case 5:
		stand := taxiStand(at)
		switch {
		case pass == 4 && at == taxiLocs[dest]:
			pass, reward, terminated = dest, 20, true
		case pass == 4 && stand >= 0:
			pass = stand
		default:
			reward = -10
		}
	}
	e.s, e.last = taxiEncode(row, col, pass, dest), a
	return envpool.StepResult{Reward: reward, Terminated: terminated}
}

// taxiStand is the stand at a cell, or -1.
func taxiStand(at [2]int) int {
	for i, l := range taxiLocs {
		if l == at {
			return i
		}
	}
	return -1
}

// Observe writes the state (its number, one-hot, or factored); info "prob" is always
// 1 (the yard is dry).
func (e *Taxi) Observe(obs envpool.Obs, info []float32) {
	if e.factored {
		row, col, pass, dest := taxiDecode(e.s)
		dst := obs.F32[:19]
		clear(dst)
		at := 0
		for i, v := range [4]int{row, col, pass, dest} {
			dst[at+v] = 1
			at += taxiFactors[i]
		}
	} else {
		writeState(obs.F32, e.s, taxiStates, e.oneHot)
	}
	if len(info) > 0 {
		info[0] = 1
	}
}

// RenderText draws the yard as Gymnasium's ansi mode does: the taxi highlighted
// yellow (green, on an underscore when the yard is blank, with the passenger aboard),
// the passenger's stand blue and bold, the destination magenta, then the last action.
func (e *Taxi) RenderText() (string, error) {
	out := make([][]string, len(taxiMap))
	for i, line := range taxiMap {
		for _, c := range line {
			out[i] = append(out[i], string(c))
		}
	}
	row, col, pass, dest := taxiDecode(e.s)
	cell := func(r, c int) *string { return &out[1+r][2*c+1] }
	if pass < 4 {
		t := cell(row, col)
		*t = colorize(*t, "yellow", false, true)
		p := cell(taxiLocs[pass][0], taxiLocs[pass][1])
		*p = colorize(*p, "blue", true, false)
	} else {
		t := cell(row, col)
		if *t == " " {
			*t = "_"
		}
		*t = colorize(*t, "green", false, true)
	}
	d := cell(taxiLocs[dest][0], taxiLocs[dest][1])
	*d = colorize(*d, "magenta", false, false)
	var b strings.Builder
	for _, line := range out {
		b.WriteString(strings.Join(line, "") + "\n")
	}
	if e.last >= 0 {
		fmt.Fprintf(&b, "  (%s)\n", [6]string{"South", "North", "East", "West", "Pickup", "Dropoff"}[e.last])
	} else {
		b.WriteString("\n")
	}
	return b.String(), nil
}
