package atari

import (
	"testing"

	"github.com/rlpool/rlpool/envs/atari/vcs"
)

func TestActionNames(t *testing.T) {
	for a, want := range map[Action]string{Noop: "NOOP", UpRightFire: "UPRIGHTFIRE", DownLeftFire: "DOWNLEFTFIRE", actionReset: "RESET", 99: "Action(99)"} {
		if got := a.String(); got != want {
			t.Errorf("Action(%d).String() = %q, want %q", int(a), got, want)
		}
	}
	if len(allActions) != NumActions {
		t.Fatalf("allActions has %d actions, want %d", len(allActions), NumActions)
	}
	for i, a := range allActions {
		if int(a) != i {
			t.Errorf("allActions[%d] = %d", i, a)
		}
	}
}

// TestJoystickMapping checks every action's joystick events against its name, the
// mapping of ALE's applyActionJoysticks.
func TestJoystickMapping(t *testing.T) {
	contains := func(name, part string) bool {
		for i := 0; i+len(part) <= len(name); i++ {
			if name[i:i+len(part)] == part {
				return true
			}
		}
		return false
	}
	for _, a := range allActions {
		for _, player := range []int{0, 1} {
			var in vcs.Input
			in.Up[1-player] = true // the other joystick is released by resetKeys
			var pa, pb Action
			if player == 0 {
				pa, pb = a, Noop
			} else {
				pa, pb = Noop, a
			}
			applyJoysticks(&in, 0, pa, pb)
			name := a.String()
			want := [5]bool{contains(name, "UP"), contains(name, "DOWN"), contains(name, "LEFT"), contains(name, "RIGHT"), contains(name, "FIRE")}
			got := [5]bool{in.Up[player], in.Down[player], in.Left[player], in.Right[player], in.Fire[player]}
			if got != want {
				t.Errorf("%s on joystick %d: up/down/left/right/fire = %v, want %v", name, player, got, want)
			}
			other := [5]bool{in.Up[1-player], in.Down[1-player], in.Left[1-player], in.Right[1-player], in.Fire[1-player]}
			if other != [5]bool{} {
				t.Errorf("%s on joystick %d also pressed joystick %d: %v", name, player, 1-player, other)
			}
			if in.Reset || in.Select {
				t.Errorf("%s pressed a console switch", name)
			}
		}
	}
	var in vcs.Input
	applyJoysticks(&in, 0, actionReset, Noop)
	if !in.Reset {
		t.Error("RESET did not press the console reset switch")
	}
	applyJoysticks(&in, 0, Noop, Noop)
	if in.Reset {
		t.Error("the reset switch stayed pressed after NOOP")
	}
}

func TestDifficultySwitches(t *testing.T) {
	for d, want := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
		var in vcs.Input
		resetKeys(&in, d)
		if got := [2]bool{in.LeftDifficultyA, in.RightDifficultyA}; got != want {
			t.Errorf("difficulty %d: left/right A = %v, want %v", d, got, want)
		}
	}
}

// TestPaddleMapping checks ALE's paddle events: RIGHT turns the resistance down by
// 23000 per frame, LEFT up, clamped to ALE's range; FIRE presses the player's paddle
// button; UP and DOWN do nothing.
func TestPaddleMapping(t *testing.T) {
	pos := [2]int32{PaddleDefault, PaddleDefault}
	var in vcs.Input
	applyPaddles(&in, 0, &pos, Right, Left)
	if pos != [2]int32{PaddleDefault - 23000, PaddleDefault + 23000} || in.PaddleResistance[0] != pos[0] || in.PaddleResistance[1] != pos[1] {
		t.Fatalf("after RIGHT/LEFT: positions %v, resistances %v", pos, in.PaddleResistance)
	}
	if in.PaddleFire[0] || in.PaddleFire[1] {
		t.Error("RIGHT/LEFT pressed a paddle button")
	}
	applyPaddles(&in, 0, &pos, UpFire, DownLeftFire)
	if pos != [2]int32{PaddleDefault - 23000, PaddleDefault + 46000} {
		t.Errorf("after UPFIRE/DOWNLEFTFIRE: positions %v", pos)
	}
	if !in.PaddleFire[0] || !in.PaddleFire[1] {
		t.Errorf("FIRE actions: paddle buttons %v, want both pressed", in.PaddleFire)
	}
	applyPaddles(&in, 0, &pos, Noop, Noop)
	if in.PaddleFire[0] || in.PaddleFire[1] {
		t.Error("NOOP left a paddle button pressed")
	}
	for range 100 {
		applyPaddles(&in, 0, &pos, UpRightFire, DownLeft)
	}
	if pos != [2]int32{PaddleMin, PaddleMax} || in.PaddleResistance[0] != PaddleMin || in.PaddleResistance[1] != PaddleMax {
		t.Errorf("after 100 frames of RIGHT/LEFT: positions %v, resistances %v; want clamped to [%d, %d]", pos, in.PaddleResistance, PaddleMin, PaddleMax)
	}
	applyPaddles(&in, 0, &pos, actionReset, Noop)
	if !in.Reset {
		t.Error("RESET in paddle mode did not press the reset switch")
	}
	if PaddleDefault != 408823 {
		t.Errorf("PaddleDefault = %d, want ALE's 408823", PaddleDefault)
	}
	// The joysticks are never touched in paddle mode.
	if in.Up != [2]bool{} || in.Fire != [2]bool{} || in.Right != [2]bool{} {
		t.Error("paddle mode pressed joystick events")
	}
}
