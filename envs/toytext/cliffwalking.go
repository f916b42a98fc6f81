package toytext

import (
	"strings"

	"github.com/rlpool/rlpool/envpool"
)

// The cliff world is 4 rows of 12 columns: the player starts at the bottom left, the
// goal is at the bottom right, and the cells between them are the cliff.
const (
	cliffRows   = 4
	cliffCols   = 12
	cliffStates = cliffRows * cliffCols
	cliffStart  = (cliffRows - 1) * cliffCols
	cliffGoal   = cliffStates - 1
)

// cliffOptions are CliffWalking's options.
type cliffOptions struct {
	discreteOptions
	IsSlippery bool `toml:"is_slippery" help:"the player moves as chosen or perpendicular to it, each with probability 1/3"`
}

func buildCliffWalking(o cliffOptions) (task, error) {
	spec := envpool.Spec{ObsSpace: o.obsSpace(cliffStates), ActionSpace: envpool.DiscreteSpace(4), InfoKeys: []string{"prob"}}
	return task{spec: spec, make: func(seed int64) envpool.Env {
		return &CliffWalking{gen: newGen(seed), slippery: o.IsSlippery, oneHot: o.OneHot, prob: 1}
	}}, nil
}

// CliffWalking is CliffWalking-v0, CliffWalking-v1 and CliffWalkingSlippery-v1: walk
// from the start to the goal along the cliff's edge; a step into the cliff costs 100
// and sends the player back to the start.
type CliffWalking struct {
	gen
	s        int // the player's cell, row*12 + col
	prob     float64
	slippery bool
	oneHot   bool
}

// Reset puts the player on the start cell.
func (e *CliffWalking) Reset() { e.s, e.prob = cliffStart, 1 }

// cliffMoves are (row, col) steps of the actions 0 up, 1 right, 2 down, 3 left.
var cliffMoves = [4][2]int{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}

// Step moves the player: -1 a step, -100 for falling off the cliff (back to the
// start, the episode goes on); reaching the goal ends the episode.
func (e *CliffWalking) Step(act []float32) envpool.StepResult {
	a := action(act, 4)
	e.prob = 1
	if e.slippery {
		a = (a + 3 + e.categorical([]float64{1.0 / 3, 1.0 / 3, 1.0 / 3})) % 4
		e.prob = 1.0 / 3
	}
	r := min(max(e.s/cliffCols+cliffMoves[a][0], 0), cliffRows-1)
	c := min(max(e.s%cliffCols+cliffMoves[a][1], 0), cliffCols-1)
	if r == cliffRows-1 && c > 0 && c < cliffCols-1 {
		e.s = cliffStart
		return envpool.StepResult{Reward: -100}
	}
	e.s = r*cliffCols + c
	return envpool.StepResult{Reward: -1, Terminated: e.s == cliffGoal}
}

// Observe writes the player's cell and the transition's probability.
func (e *CliffWalking) Observe(obs envpool.Obs, info []float32) {
	writeState(obs.F32, e.s, cliffStates, e.oneHot)
	if len(info) > 0 {
		info[0] = float32(e.prob)
	}
}

// RenderText draws the world as Gymnasium's ansi mode does: x the player, T the goal,
// C the cliff, o the rest, then a blank line.
func (e *CliffWalking) RenderText() (string, error) {
	var b strings.Builder
	for s := range cliffStates {
		r, c := s/cliffCols, s%cliffCols
		cell := " o "
		switch {
		case s == e.s:
			cell = " x "
		case s == cliffGoal:
			cell = " T "
		case r == cliffRows-1 && c > 0 && c < cliffCols-1:
			cell = " C "
		}
		if c == 0 {
			cell = strings.TrimLeft(cell, " ")
		}
		if c == cliffCols-1 {
			cell = strings.TrimRight(cell, " ") + "\n"
		}
		b.WriteString(cell)
	}
	b.WriteString("\n")
	return b.String(), nil
}
