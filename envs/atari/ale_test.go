package atari

import (
	"errors"
	"fmt"
	"testing"

	"github.com/rlpool/rlpool/envs/atari/vcs"
)

// fakeMachine is a scripted console: it records the input of every frame and lets a
// test decide what RAM shows after each frame.
type fakeMachine struct {
	ramImage
	in      vcs.Input
	frames  []vcs.Input // the input in force during each frame
	resets  int
	onFrame func(f *fakeMachine) // runs after each frame
	failAt  int                  // RunFrame fails on this frame (0: never)
	screen  [160 * 210]byte
}

func (f *fakeMachine) Reset()                { f.resets++ }
func (f *fakeMachine) SetInput(in vcs.Input) { f.in = in }
func (f *fakeMachine) Screen() []byte        { return f.screen[:] }

func (f *fakeMachine) RunFrame() error {
	f.frames = append(f.frames, f.in)
	if f.failAt > 0 && len(f.frames) == f.failAt {
		return errors.New("fake JAM")
	}
	if f.onFrame != nil {
		f.onFrame(f)
	}
	return nil
}

// countFrames counts frames by kind: RESET held, SELECT held, other.
func countFrames(frames []vcs.Input) (reset, sel, other int) {
	for _, in := range frames {
		switch {
		case in.Reset:
			reset++
		case in.Select:
			sel++
		default:
			other++
		}
	}
	return
}

func newFakeALE(t *testing.T, name string, opts Options, f *fakeMachine) *ALE {
	t.Helper()
	g, ok := GameByName(name)
	if !ok {
		t.Fatalf("no game %s", name)
	}
	if err := checkOptions(g, opts); err != nil {
		t.Fatal(err)
	}
	return newALE(g, f, opts)
}

// TestResetSequence checks the frames of ALE's reset for games with and without a mode
// step and starting actions (testdata/atari/README.md "ALE's reset": 72 frames with a
// mode step, 68 without, plus one per starting action).
func TestResetSequence(t *testing.T) {
	tests := []struct {
		game                     string
		reset, sel, other, total int
		last                     func(in vcs.Input) bool // the last frame's input
	}{
		{"pong", 12, 0, 60, 72, nil},
		{"breakout", 12, 0, 60, 72, nil},
		{"space_invaders", 12, 0, 60, 72, nil},
		{"montezuma_revenge", 8, 0, 60, 68, nil},
		{"pitfall2", 8, 0, 61, 69, func(in vcs.Input) bool { return in.Up[0] && !in.Fire[0] }},
		{"elevator_action", 8, 0, 76, 84, func(in vcs.Input) bool { return in.Fire[0] }},
	}
	for _, tc := range tests {
		t.Run(tc.game, func(t *testing.T) {
			f := &fakeMachine{}
			a := newFakeALE(t, tc.game, Options{}, f)
			if err := a.ResetGame(); err != nil {
				t.Fatal(err)
			}
			reset, sel, other := countFrames(f.frames)
			if f.resets != 1 || reset != tc.reset || sel != tc.sel || other != tc.other || len(f.frames) != tc.total {
				t.Errorf("system resets %d, frames %d: RESET %d, SELECT %d, other %d; want 1, %d: %d, %d, %d",
					f.resets, len(f.frames), reset, sel, other, tc.total, tc.reset, tc.sel, tc.other)
			}
			// 60 NOOP frames come first, then RESET frames.
			for i, in := range f.frames[:60] {
				if in.Reset || in.Select || in.Fire[0] || in.PaddleFire[0] {
					t.Fatalf("frame %d of the 60 NOOP frames has input %+v", i, in)
				}
			}
			if !f.frames[60].Reset {
				t.Error("frame 60 is not a soft-reset frame")
			}
			if tc.last != nil && !tc.last(f.frames[len(f.frames)-1]) {
				t.Errorf("last reset frame %+v is not the starting action", f.frames[len(f.frames)-1])
			}
			if a.EpisodeFrame() != 0 || a.Frame() != 0 {
				t.Errorf("frame counters after reset: %d, %d", a.Frame(), a.EpisodeFrame())
			}
		})
	}
}

// TestModeSelection checks ALE's pressSelect loop: SELECT held k frames per press,
// one NOOP frame the reader sees, the counters advanced, until RAM shows the mode.
func TestModeSelection(t *testing.T) {
	// Ms. Pac-Man: the default mode needs $99 = 1 and $A1 = 1; our fake gets there
	// after the second SELECT press.
	f := &fakeMachine{}
	presses := 0
	f.onFrame = func(f *fakeMachine) {
		in := f.frames[len(f.frames)-1]
		if in.Select && len(f.frames) >= 2 && !f.frames[len(f.frames)-2].Select {
			presses++
			if presses == 2 {
				f.set(0x99, 1)
				f.set(0xA1, 1)
			}
		}
	}
	a := newFakeALE(t, "ms_pacman", Options{}, f)
	if err := a.ResetGame(); err != nil {
		t.Fatal(err)
	}
	reset, sel, other := countFrames(f.frames)
	if reset != 12 || sel != 20 || other != 62 {
		t.Errorf("ms_pacman reset: RESET %d, SELECT %d, other %d frames; want 12, 20, 62", reset, sel, other)
	}
	if a.Frame() != 2 || a.EpisodeFrame() != 2 {
		t.Errorf("after 2 SELECT presses the frame counters are %d, %d; want 2, 2 (ALE counts pressSelect)", a.Frame(), a.EpisodeFrame())
	}

	// Pong mode 1: SELECT held 2 frames per press until $96 = 1.
	f = &fakeMachine{}
	f.onFrame = func(f *fakeMachine) {
		if f.frames[len(f.frames)-1].Select {
			f.set(0x96, 1)
		}
	}
	one := 1
	a = newFakeALE(t, "pong", Options{Mode: &one}, f)
	if err := a.ResetGame(); err != nil {
		t.Fatal(err)
	}
	if _, sel, _ := countFrames(f.frames); sel != 2 {
		t.Errorf("pong mode 1: %d SELECT frames, want 2", sel)
	}

	// A game that never reaches its mode fails instead of hanging.
	f = &fakeMachine{}
	f.set(0xDC, 0x55)
	a = newFakeALE(t, "space_invaders", Options{}, f)
	if err := a.ResetGame(); err == nil {
		t.Error("mode selection that never succeeds did not fail")
	}

	// Klax reads its mode from cartridge RAM.
	f = &fakeMachine{ramImage: ramImage{other: map[uint16]uint8{0xF0EA: 1}}}
	f.onFrame = func(f *fakeMachine) {
		if f.frames[len(f.frames)-1].Select {
			f.other[0xF0EA] = 0
		}
	}
	a = newFakeALE(t, "klax", Options{}, f)
	if err := a.ResetGame(); err != nil {
		t.Fatal(err)
	}
	if _, sel, _ := countFrames(f.frames); sel != 2 {
		t.Errorf("klax: %d SELECT frames, want 2", sel)
	}
}

// TestActPaddles checks Pong's per-frame paddle events through Act.
func TestActPaddles(t *testing.T) {
	f := &fakeMachine{}
	a := newFakeALE(t, "pong", Options{}, f)
	if err := a.ResetGame(); err != nil {
		t.Fatal(err)
	}
	for _, in := range f.frames {
		if in.PaddleResistance[0] != PaddleDefault || in.PaddleResistance[1] != PaddleDefault {
			t.Fatalf("reset frame with paddles %v, want both %d", in.PaddleResistance, PaddleDefault)
		}
	}
	steps := []struct {
		action Action
		pos    int32
		fire   bool
	}{
		{Right, PaddleDefault - 23000, false},
		{RightFire, PaddleDefault - 46000, true},
		{Fire, PaddleDefault - 46000, true},
		{LeftFire, PaddleDefault - 23000, true},
		{Noop, PaddleDefault - 23000, false},
	}
	for _, s := range steps {
		if _, err := a.Act(int(s.action)); err != nil {
			t.Fatal(err)
		}
		in := f.frames[len(f.frames)-1]
		if in.PaddleResistance[0] != s.pos || in.PaddleFire[0] != s.fire || in.PaddleResistance[1] != PaddleDefault || in.PaddleFire[1] {
			t.Errorf("%s: paddle 0 %d fire %v (paddle 1 %d fire %v); want %d %v", s.action, in.PaddleResistance[0], in.PaddleFire[0], in.PaddleResistance[1], in.PaddleFire[1], s.pos, s.fire)
		}
	}
	// A new reset centres the paddles again.
	if err := a.ResetGame(); err != nil {
		t.Fatal(err)
	}
	if in := f.frames[len(f.frames)-1]; in.PaddleResistance[0] != PaddleDefault {
		t.Errorf("after reset paddle 0 is %d, want %d", in.PaddleResistance[0], PaddleDefault)
	}
}

// TestActJoystickAndTerminal checks joystick events, rewards and that nothing is
// emulated once the game is over.
func TestActJoystickAndTerminal(t *testing.T) {
	f := &fakeMachine{}
	f.set(0xC9, 3) // three lives
	a := newFakeALE(t, "space_invaders", Options{}, f)
	if err := a.ResetGame(); err != nil {
		t.Fatal(err)
	}
	if a.Lives() != 3 || a.GameOver() {
		t.Fatalf("after reset: lives %d, game over %v", a.Lives(), a.GameOver())
	}
	f.onFrame = func(f *fakeMachine) { f.set(0xE8, 0x15) }
	r, err := a.Act(int(UpRightFire))
	if err != nil {
		t.Fatal(err)
	}
	in := f.frames[len(f.frames)-1]
	if !in.Up[0] || !in.Right[0] || !in.Fire[0] || in.Left[0] || in.Down[0] || in.Reset {
		t.Errorf("UPRIGHTFIRE input %+v", in)
	}
	if r != 15 || a.Frame() != 1 || a.EpisodeFrame() != 1 {
		t.Errorf("reward %d, frames %d/%d; want 15, 1/1", r, a.Frame(), a.EpisodeFrame())
	}
	f.onFrame = func(f *fakeMachine) { f.set(0x98, 0x80) }
	if _, err := a.Act(int(Noop)); err != nil {
		t.Fatal(err)
	}
	if !a.GameOver() || a.Lives() != 0 {
		t.Fatalf("game over %v lives %d", a.GameOver(), a.Lives())
	}
	n := len(f.frames)
	if r, err := a.Act(int(Fire)); err != nil || r != 0 || len(f.frames) != n {
		t.Errorf("Act after game over: reward %d, err %v, %d frames emulated", r, err, len(f.frames)-n)
	}
	for _, bad := range []int{-1, NumActions, int(actionReset)} {
		if _, err := a.Act(bad); err == nil {
			t.Errorf("Act(%d) accepted", bad)
		}
	}
	if got := a.MinimalActionSet(); fmt.Sprint(got) != "[NOOP FIRE RIGHT LEFT RIGHTFIRE LEFTFIRE]" {
		t.Errorf("MinimalActionSet() = %v", got)
	}
}

// TestStickyActions checks ALE's sticky actions: two environment-RNG draws per frame,
// the previous action kept when a draw is below the probability, deterministic per
// seed, and the held action forgotten by a reset.
func TestStickyActions(t *testing.T) {
	const p = 0.25
	f := &fakeMachine{}
	f.set(0xC9, 3) // lives, so the game is not over
	a := newFakeALE(t, "space_invaders", Options{RepeatActionProbability: p, Seed: 7}, f)
	if err := a.ResetGame(); err != nil {
		t.Fatal(err)
	}
	var rng vcs.Random
	rng.Seed(7)
	held := Noop
	kept := 0
	for i := range 400 {
		action := []Action{Left, Right}[i%2]
		if rng.NextDouble() >= p {
			held = action
		} else {
			kept++
		}
		rng.NextDouble() // player B's draw
		n := len(f.frames)
		if _, err := a.Act(int(action)); err != nil || len(f.frames) != n+1 {
			t.Fatalf("Act: %v, %d frames", err, len(f.frames)-n)
		}
		in := f.frames[len(f.frames)-1]
		if in.Left[0] != (held == Left) || in.Right[0] != (held == Right) {
			t.Fatalf("frame %d: sent %s, input left %v right %v, want %s", i, action, in.Left[0], in.Right[0], held)
		}
	}
	if kept < 60 || kept > 140 {
		t.Errorf("%d of 400 actions were sticky, want about 100", kept)
	}
	// Probability 1 never takes a new action: NOOP after the reset forever.
	f = &fakeMachine{}
	f.set(0xC9, 3)
	a = newFakeALE(t, "space_invaders", Options{RepeatActionProbability: 1}, f)
	if err := a.ResetGame(); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		n := len(f.frames)
		if _, err := a.Act(int(Fire)); err != nil || len(f.frames) != n+1 {
			t.Fatalf("Act: %v, %d frames", err, len(f.frames)-n)
		}
		if f.frames[len(f.frames)-1].Fire[0] {
			t.Fatal("probability 1 took a new action")
		}
	}
	g, _ := GameByName("pong")
	if err := checkOptions(g, Options{RepeatActionProbability: 1.5}); err == nil {
		t.Error("probability 1.5 accepted")
	}
	two := 2
	if err := checkOptions(g, Options{Mode: &two}); err == nil {
		t.Error("pong mode 2 accepted")
	}
	four := 4
	if err := checkOptions(g, Options{Difficulty: &four}); err == nil {
		t.Error("pong difficulty 4 accepted")
	}
}

// TestEmulatorErrors checks that an emulator failure comes back as an error naming the
// game.
func TestEmulatorErrors(t *testing.T) {
	f := &fakeMachine{failAt: 10}
	a := newFakeALE(t, "pong", Options{}, f)
	err := a.ResetGame()
	if err == nil || !containsAll(err.Error(), "pong", "fake JAM") {
		t.Errorf("ResetGame with a failing frame: %v", err)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		found := false
		for i := 0; i+len(p) <= len(s); i++ {
			if s[i:i+len(p)] == p {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
