package atari

import (
	"fmt"

	"github.com/rlpool/rlpool/envs/atari/vcs"
)

// Action is an ALE player-A action id (0..17). The ids are ALE's own
// (common/Constants.h), so recorded ALE actions and action sets carry over as is.
type Action int

// ALE's 18 player-A actions, in ALE's numbering.
const (
	Noop Action = iota
	Fire
	Up
	Right
	Left
	Down
	UpRight
	UpLeft
	DownRight
	DownLeft
	UpFire
	RightFire
	LeftFire
	DownFire
	UpRightFire
	UpLeftFire
	DownRightFire
	DownLeftFire
)

// NumActions is the size of ALE's full (legal) action set.
const NumActions = 18

// actionReset is ALE's RESET pseudo-action (40): the console RESET switch held for the
// frame. Only the environment's soft reset uses it; agents never send it.
const actionReset Action = 40

var actionNames = [NumActions]string{
	"NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT", "DOWNRIGHT",
	"DOWNLEFT", "UPFIRE", "RIGHTFIRE", "LEFTFIRE", "DOWNFIRE", "UPRIGHTFIRE",
	"UPLEFTFIRE", "DOWNRIGHTFIRE", "DOWNLEFTFIRE",
}

// String returns ALE's name for the action (NOOP, UPRIGHTFIRE, ...), as Gymnasium's
// get_action_meanings shows it without the PLAYER_A_ prefix.
func (a Action) String() string {
	if a >= 0 && a < NumActions {
		return actionNames[a]
	}
	if a == actionReset {
		return "RESET"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// allActions is the full action set in ALE's order, the minimal set of games that
// use every joystick combination.
var allActions = []Action{
	Noop, Fire, Up, Right, Left, Down, UpRight, UpLeft, DownRight, DownLeft,
	UpFire, RightFire, LeftFire, DownFire, UpRightFire, UpLeftFire, DownRightFire,
	DownLeftFire,
}

// The direction and button content of each action, indexed by id: these encode the
// switch statements of ALE's ALEState::applyActionJoysticks/applyActionPaddles.
var (
	actionUp    = [NumActions]bool{Up: true, UpRight: true, UpLeft: true, UpFire: true, UpRightFire: true, UpLeftFire: true}
	actionDown  = [NumActions]bool{Down: true, DownRight: true, DownLeft: true, DownFire: true, DownRightFire: true, DownLeftFire: true}
	actionLeft  = [NumActions]bool{Left: true, UpLeft: true, DownLeft: true, LeftFire: true, UpLeftFire: true, DownLeftFire: true}
	actionRight = [NumActions]bool{Right: true, UpRight: true, DownRight: true, RightFire: true, UpRightFire: true, DownRightFire: true}
	actionFire  = [NumActions]bool{Fire: true, UpFire: true, RightFire: true, LeftFire: true, DownFire: true, UpRightFire: true, UpLeftFire: true, DownRightFire: true, DownLeftFire: true}
)

// Paddle geometry as ALE drives it (common/Constants.h, ale_state.cpp): the resistance
// range, the per-frame change for a LEFT or RIGHT action at strength 1.0, and the
// centre the paddles return to at every reset ((min+max)/2, integer division).
const (
	PaddleMin     = 27450
	PaddleMax     = 790196
	PaddleDelta   = 23000
	PaddleDefault = (PaddleMin + PaddleMax) / 2
)

// resetKeys releases every key ALE's ALEState::resetKeys releases (console RESET and
// SELECT, both joysticks, the fire buttons of paddles 0 and 1) and sets the difficulty
// switches from ALE's difficulty setting (bit 0: left A, bit 1: right A). Paddle
// resistances are left alone.
func resetKeys(in *vcs.Input, difficulty int) {
	in.Reset, in.Select = false, false
	in.Up, in.Down, in.Left, in.Right, in.Fire = [2]bool{}, [2]bool{}, [2]bool{}, [2]bool{}, [2]bool{}
	in.PaddleFire[0], in.PaddleFire[1] = false, false
	in.LeftDifficultyA = difficulty&1 != 0
	in.RightDifficultyA = difficulty&2 != 0
}

// setJoystick presses joystick `player`'s directions and button for action a, the
// events of ALE's applyActionJoysticks. RESET presses the console reset switch.
func setJoystick(in *vcs.Input, player int, a Action) {
	if a == actionReset {
		in.Reset = true
		return
	}
	if a < 0 || a >= NumActions {
		return
	}
	in.Up[player] = actionUp[a]
	in.Down[player] = actionDown[a]
	in.Left[player] = actionLeft[a]
	in.Right[player] = actionRight[a]
	in.Fire[player] = actionFire[a]
}

// applyJoysticks sets the events for one emulate() call of a joystick game: player A's
// action on joystick 0, player B's (in player-A numbering) on joystick 1.
func applyJoysticks(in *vcs.Input, difficulty int, a, b Action) {
	resetKeys(in, difficulty)
	setJoystick(in, 0, a)
	setJoystick(in, 1, b)
}

// paddleDelta is the change of a paddle's resistance for action a at strength 1.0:
// RIGHT-containing actions turn it one way (-23000), LEFT-containing ones the other.
func paddleDelta(a Action) int32 {
	if a < 0 || a >= NumActions {
		return 0
	}
	switch {
	case actionRight[a]:
		return -PaddleDelta
	case actionLeft[a]:
		return PaddleDelta
	}
	return 0
}

// clampPaddle keeps a paddle resistance inside ALE's range.
func clampPaddle(v int32) int32 {
	return min(max(v, PaddleMin), PaddleMax)
}

// applyPaddles sets the events for one frame of a paddle game, as ALE's
// applyActionPaddles does before every frame: keys released, both paddle positions
// moved by their player's action and written as resistances 0 and 1, RESET from
// either player, and each player's fire button on paddle 0 or 1. pos holds the
// players' paddle positions and is updated.
func applyPaddles(in *vcs.Input, difficulty int, pos *[2]int32, a, b Action) {
	resetKeys(in, difficulty)
	pos[0] = clampPaddle(pos[0] + paddleDelta(a))
	pos[1] = clampPaddle(pos[1] + paddleDelta(b))
	in.PaddleResistance[0] = pos[0]
	in.PaddleResistance[1] = pos[1]
	if a == actionReset || b == actionReset {
		in.Reset = true
	}
	if a >= 0 && a < NumActions && actionFire[a] {
		in.PaddleFire[0] = true
	}
	if b >= 0 && b < NumActions && actionFire[b] {
		in.PaddleFire[1] = true
	}
}
