package toytext

import (
	"fmt"

	"github.com/rlpool/rlpool/envpool"
)

// catchOptions are Catch's board size (EnvPool's config).
type catchOptions struct {
	Height int `toml:"height" range:"[2,1000]" help:"rows of the board: the ball falls height-1 rows"`
	Width  int `toml:"width" range:"[1,1000]" help:"columns of the board"`
}

func buildCatch(o catchOptions) (task, error) {
	if o.Height*o.Width > 1<<20 {
		return task{}, fmt.Errorf("option height x width: a board of %d x %d cells is too large; keep it under 2^20 cells", o.Height, o.Width)
	}
	spec := envpool.Spec{ObsSpace: envpool.UniformBox(0, 1, envpool.Float32, o.Height, o.Width), ActionSpace: envpool.DiscreteSpace(3)}
	return task{spec: spec, make: func(seed int64) envpool.Env {
		return &Catch{gen: newGen(seed), height: o.Height, width: o.Width}
	}}, nil
}

// Catch is EnvPool's Catch-v0 (after bsuite's): a ball falls one row a step from a
// random column of the top row; move the paddle on the bottom row to catch it.
type Catch struct {
	gen
	height, width    int
	ballRow, ballCol int
	paddle           int
}

// Reset puts the ball in a random column of the top row and the paddle in the middle.
func (e *Catch) Reset() {
	e.ballRow, e.ballCol, e.paddle = 0, e.rng.IntN(e.width), e.width/2
}

// Step moves the paddle (0 left, 1 stay, 2 right) and the ball down a row; when the
// ball reaches the bottom row the episode ends, +1 if the paddle is under it, else -1.
func (e *Catch) Step(act []float32) envpool.StepResult {
	e.paddle = min(max(e.paddle+action(act, 3)-1, 0), e.width-1)
	e.ballRow++
	if e.ballRow < e.height-1 {
		return envpool.StepResult{}
	}
	reward := float32(-1)
	if e.ballCol == e.paddle {
		reward = 1
	}
	return envpool.StepResult{Reward: reward, Terminated: true}
}

// Observe writes the height x width board: 1 at the ball and the paddle, 0 elsewhere.
func (e *Catch) Observe(obs envpool.Obs, _ []float32) {
	board := obs.F32[:e.height*e.width]
	clear(board)
	board[e.ballRow*e.width+e.ballCol] = 1
	board[(e.height-1)*e.width+e.paddle] = 1
}
