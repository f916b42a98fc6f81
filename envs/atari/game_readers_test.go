package atari

import (
	"fmt"
	"testing"

	"github.com/rlpool/rlpool/envs/atari/vcs"
)

func TestBCDHelpers(t *testing.T) {
	for _, tc := range []struct{ v, want int }{
		{0x00, 0}, {0x09, 9}, {0x10, 10}, {0x42, 42}, {0x99, 99},
		{0xAB, 111}, // not validated: 10*10 + 11, as ALE computes it
	} {
		if got := bcd(tc.v); got != tc.want {
			t.Errorf("bcd(%#x) = %d, want %d", tc.v, got, tc.want)
		}
	}
	var m ramImage
	for _, tc := range []struct {
		lo, mid, hi byte
		two, three  int
	}{
		{0x56, 0x34, 0x12, 3456, 123456},
		{0x01, 0x00, 0x00, 1, 1},
		{0x00, 0x01, 0x00, 100, 100},
		{0x00, 0x00, 0x10, 0, 100000},
		{0x99, 0x99, 0x99, 9999, 999999},
	} {
		m.set(0xE0, tc.lo)
		m.set(0xE1, tc.mid)
		m.set(0xE2, tc.hi)
		if got := decimalScore2(&m.ram, 0xE0, 0xE1); got != tc.two {
			t.Errorf("decimalScore2(%02x %02x) = %d, want %d", tc.lo, tc.mid, got, tc.two)
		}
		if got := decimalScore3(&m.ram, 0xE0, 0xE1, 0xE2); got != tc.three {
			t.Errorf("decimalScore3(%02x %02x %02x) = %d, want %d", tc.lo, tc.mid, tc.hi, got, tc.three)
		}
	}
}

func TestDigitHelpers(t *testing.T) {
	var m ramImage
	for _, tc := range []struct {
		v    byte
		want int
	}{{0x00, 0}, {0x7F, 127}, {0x80, -128}, {0xFE, -2}, {0xFF, -1}} {
		m.set(0x90, tc.v)
		if got := signedRAM(&m.ram, 0x90); got != tc.want {
			t.Errorf("signedRAM(%#x) = %d, want %d", tc.v, got, tc.want)
		}
	}
	for _, tc := range []struct{ d, want int }{{0, 0}, {5, 5}, {9, 9}, {0xA, 0}, {0xB, 11}} {
		if got := blankDigit(tc.d); got != tc.want {
			t.Errorf("blankDigit(%#x) = %d, want %d", tc.d, got, tc.want)
		}
	}

	m = ramImage{}
	m.set(0x82, 3)
	m.set(0x83, 2)
	m.set(0x84, 1)
	if got := digitsScore(&m.ram, 1, 0x82, 0x83, 0x84, 0x85); got != 123 {
		t.Errorf("digitsScore = %d, want 123", got)
	}
	if got := digitsScore(&m.ram, 100, 0x84, 0x82); got != 100+3*1000 {
		t.Errorf("digitsScore(unit 100) = %d, want 3100", got)
	}

	m = ramImage{}
	for i, v := range []byte{0x05, 0xFA, 0x03, 0x0A, 0x19, 0x00} {
		m.set(0x9C+i, v)
	}
	if got := lowNibbleDigits(&m.ram, 0x9C, 4); got != 305 {
		t.Errorf("lowNibbleDigits(4) = %d, want 305 ($A is a blank, high nibbles ignored)", got)
	}
	if got := lowNibbleDigits(&m.ram, 0x9C, 6); got != 90305 {
		t.Errorf("lowNibbleDigits(6) = %d, want 90305", got)
	}

	for _, tc := range []struct{ v, want int }{{0x80, 0}, {0x00, 0}, {0x08, 1}, {0x48, 9}} {
		if got := alienDigit(tc.v); got != tc.want {
			t.Errorf("alienDigit(%#x) = %d, want %d", tc.v, got, tc.want)
		}
	}
	for _, tc := range []struct{ v, want int }{{0, 0}, {8, 1}, {40, 5}, {72, 9}, {80, 0}, {12, 0}, {0x58, 0}} {
		if got := riverraidDigit(tc.v); got != tc.want {
			t.Errorf("riverraidDigit(%d) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

func TestSetWrappedScore(t *testing.T) {
	r := scoreReader{score: 99990}
	r.setWrappedScore(10, 100000)
	if r.reward != 20 || r.score != 10 {
		t.Errorf("wrap 99990 -> 10: reward %d score %d, want 20, 10", r.reward, r.score)
	}
	r.setWrappedScore(50, 100000)
	if r.reward != 40 {
		t.Errorf("no wrap 10 -> 50: reward %d, want 40", r.reward)
	}
}

// readerStep is one frame of a synthetic-RAM reader test: the RAM writes made before
// the frame and what the reader must report after it.
type readerStep struct {
	set      map[int]byte
	reward   int
	terminal bool
	lives    int
}

// runReader steps a fresh reader of the game through the frames, the RAM persisting
// between frames, as in the emulator.
func runReader(t *testing.T, name string, steps []readerStep) {
	t.Helper()
	g, ok := GameByName(name)
	if !ok {
		t.Fatalf("no game %s", name)
	}
	r := g.NewReader()
	r.Reset()
	var m ramImage
	for i, s := range steps {
		for addr, v := range s.set {
			m.set(addr, v)
		}
		r.Step(&m)
		if r.Reward() != s.reward || r.Terminal() != s.terminal || r.Lives() != s.lives {
			t.Errorf("%s frame %d: reward %d, terminal %v, lives %d; want %d, %v, %d",
				name, i, r.Reward(), r.Terminal(), r.Lives(), s.reward, s.terminal, s.lives)
		}
	}
}

func TestReadersOnSyntheticRAM(t *testing.T) {
	type b = map[int]byte
	tests := map[string][]readerStep{
		"asterix": {
			{b{0xE0: 0x50, 0xDF: 0x12, 0xD3: 0x03}, 1250, false, 3},
			{b{0xD3: 0x01, 0xC7: 0x01}, 0, true, 0}, // last life and death counter 1
		},
		"atlantis": {
			{b{0xA2: 0x01, 0xF1: 5}, 100, false, 5},
			{b{0xA1: 0x99, 0xF1: 0xFF}, 0, true, 0}, // garbage score on the last frame
		},
		"chopper_command": {
			{b{0xE4: 0x00}, 0, false, 0}, // no lives, but not started
			{b{0xE4: 0x03, 0xC2: 0x01, 0xEE: 0x12}, 1200, false, 3},
			{b{0xE4: 0x00, 0xC2: 0x00}, 0, true, 0},
		},
		"qbert": {
			{b{0x88: 0x02, 0xDB: 0x25}, 25, false, 4},
			{b{0x88: 0x01}, 0, false, 3},
			{b{0x88: 0xFF}, 0, false, 3},
			{b{0x88: 0x02, 0xDB: 0x99}, 0, true, 0}, // death and restart in one frame
		},
		"tennis": {
			{b{0xC7: 1}, 1, false, 0},                    // a game won
			{b{0xC5: 1}, 1, false, 0},                    // a point won
			{b{0xC5: 0, 0xC7: 2}, 1, false, 0},           // games change wins over points
			{b{0xC7: 6, 0xC8: 4}, 0, true, 0},            // 6-4
			{b{0xC7: 6, 0xC8: 6, 0xC5: 3}, -2, false, 0}, // 6-6 is not over
			{b{0xC7: 6, 0xC8: 7, 0xC5: 3}, -1, true, 0},  // 6-7 is
		},
		"freeway": {
			{b{103: 0x05}, 1, false, 0}, // clamped to 1
			{b{103: 0x00}, 0, false, 0}, // clamped to 0
			{b{22: 1}, 0, true, 0},
		},
		"gopher": {
			{b{0xB4: 0x05, 0xB2: 0x20}, 20, false, 2},
			{b{0xB4: 0x00}, 0, true, 0},
		},
		"et": {
			{b{0xE5: 0x02, 0xE1: 0x01}, 1, false, 3},
			{b{0xE5: 0x80}, 0, false, -127}, // signed char, as in ALE
			{b{0xE5: 0xFF}, 0, false, 0},    // 0 lives, not on the title screen
			{b{0x80: 8}, 0, true, 0},
		},
		"riverraid": {
			{b{87: 8, 85: 16}, 21, false, 4}, // $C0 = 0: 0/8+1 lives... see below
			{b{0xC0: 0x18}, 0, false, 4},
			{b{0xC0: 0x59}, 0, false, 1},
			{b{0xC0: 0x58}, 0, true, 0},
		},
		"casino": {
			{b{0x8C: 0x10}, 1000, false, 1},
			{b{0x8C: 0x09, 0x95: 0x50, 0xD3: 0x80}, 1000, false, 1}, // input disabled: reward kept
			{b{0x9E: 0x05}, 1000, true, 0},                          // a bet and input disabled
		},
		"berzerk": {
			{b{0xDA: 2, 93: 0x01}, 10000, false, 3},
			{b{0xDA: 0xFF}, 0, true, 0},
		},
		"skiing": {
			{b{0xE8: 1, 0xEA: 0x50, 0xE9: 0x01}, -6150, false, 0},
			{b{0xEA: 0x60}, -10, false, 0},
			{b{0x91: 0xFF}, 0, true, 0},
		},
		"enduro": {
			{b{0xAD: 1, 0xAC: 0x02}, 0, false, 0},               // 200 cars to pass
			{b{0xAB: 0x99, 0xAC: 0x01}, 1, false, 0},            // 199
			{b{0xAD: 2, 0xAB: 0x00, 0xAC: 0x03}, 199, false, 0}, // day 2: 200 + 0
			{b{0xAF: 0xFF}, 0, true, 0},
		},
		"beam_rider": {
			{b{0x85: 2, 9: 0x44}, 44, false, 3},
			{b{0x85: 1}, 0, false, 3}, // one life lost, but the death animation runs
			{b{0x8C: 1}, 0, false, 2},
			{b{5: 0xFF}, 0, true, 0},
		},
		"star_gunner": {
			{b{0x87: 6, 0x83: 0x0A, 0x84: 0x02}, 2000, false, 5}, // not started yet
			{b{0x87: 5}, 0, false, 5},
			{b{0x87: 4}, 0, false, 4},
			{b{0x87: 0}, 0, true, 0},
		},
		"wizard_of_wor": {
			{b{0x88: 0x80, 0x8D: 3}, 0, false, 3}, // 8000 counts as 0
			{b{0x88: 0x81, 0xD7: 1, 0x8D: 2}, 10000, false, 3},
			{b{0xD7: 0}, 0, false, 2},
		},
		"adventure": {
			{b{0xE0: 1}, 0, false, 1},
			{b{0xB9: 0x12}, 1, true, 1}, // ALE's lives stay 1
		},
		"backgammon": {
			{b{0x80: 0xF1, 0x81: 0x0F}, 1, true, 0}, // 15 player pieces off, 15 computer pieces on
		},
		"tic_tac_toe_3d": {
			{b{0xFF: 0xF3}, 0, false, 1},
			{b{0xFE: 0x10, 0xE1: 0x08}, 1, true, 0},
		},
		"miniature_golf": {
			{b{0xAF: 0x01, 0x88: 0x03, 0x87: 0x01}, 0, false, 1},  // lobby of hole 1, par 3
			{b{0x88: 0x00, 0x87: 0x04}, 0, false, 1},              // 4 strokes
			{b{0xAF: 0x02, 0x88: 0x04, 0x87: 0x02}, -1, false, 1}, // hole 1 done: 3 - 4
			{b{0xAF: 0x00}, 0, true, 0},
		},
		"hangman": {
			{b{0xF1: 0xFF}, 0, false, 1},
			{b{0xF1: 0x00}, 0, true, 0}, // the game timer wrapped
		},
		"video_chess": {
			{b{0xEE: 0x00}, 0, false, 1}, // black's turn: ignored
			{b{0xE1: 0x82}, 1, true, 0},
		},
		"superman": {
			{b{0xE3: 0x01, 0xE2: 0x30}, 0, false, 1},
			{b{0x80: 0xAC, 0x81: 0xF2, 0x9F: 0x40}, 99*60 + 59 - 90, true, 0},
		},
		"word_zapper": {
			{b{0xDC: 0x02, 0xDE: 0x10}, 0, false, 1}, // clock stopped: nothing read
			{b{0xCF: 0x01, 0xDC: 0x01}, 1, false, 1},
			{b{0xDC: 0xFF}, 2, true, 0},
		},
		"phoenix": {
			{b{0xC8: 0x12, 0xC9: 0x00, 0xC7: 0x30, 0xCB: 4}, 1230, false, 4},
			{b{0xCC: 0x80}, 0, true, 0},
		},
		"video_pinball": {
			{b{0xB0: 0x10, 0x99: 1, 0xA8: 1}, 10, false, 4},
			{b{0xAF: 0x01}, 0, true, 0},
		},
	}
	// River Raid's first frame: $C0 is 0, which is neither $58 nor $59: 0/8 + 1 = 1 life.
	tests["riverraid"][0].lives = 1
	for name, steps := range tests {
		t.Run(name, func(t *testing.T) { runReader(t, name, steps) })
	}
}

func TestDemonAttackLevelChange(t *testing.T) {
	r := &demonAttackReader{}
	r.Reset()
	var m ramImage
	m.set(0xF2, 0)
	m.set(0xF1, 0xBD)
	r.levelChange = true
	r.Step(&m)
	if r.Terminal() {
		t.Error("terminal on a level-change frame")
	}
	r.Step(&m)
	if !r.Terminal() || r.Lives() != 0 {
		t.Errorf("terminal %v lives %d after the level-change frame", r.Terminal(), r.Lives())
	}
}

func TestVideoCheckersReverse(t *testing.T) {
	for _, reverse := range []bool{false, true} {
		r := &videoCheckersReader{reverse: reverse}
		r.Reset()
		var m ramImage
		m.set(0x80, 0x10) // a black piece
		m.set(0xA2, 0xA0) // a white king
		r.Step(&m)
		if r.Terminal() {
			t.Fatal("terminal with pieces of both colours")
		}
		m.set(0x80, 0)
		r.Step(&m)
		want := -1
		if reverse {
			want = 1
		}
		if !r.Terminal() || r.Reward() != want {
			t.Errorf("reverse %v, black wiped out: reward %d terminal %v; want %d", reverse, r.Reward(), r.Terminal(), want)
		}
	}
}

// TestModeSelectionSteps checks the mode-selection steps of the new games that do
// more than press SELECT, on the scripted console.
func TestModeSelectionSteps(t *testing.T) {
	t.Run("berzerk waits 20 NOOP steps", func(t *testing.T) {
		f := &fakeMachine{}
		f.onFrame = func(f *fakeMachine) {
			if f.frames[len(f.frames)-1].Select {
				f.set(0x80, 1)
			}
		}
		a := newFakeALE(t, "berzerk", Options{}, f)
		if err := a.ResetGame(); err != nil {
			t.Fatal(err)
		}
		firstSelect := -1
		for i, in := range f.frames {
			if in.Select {
				firstSelect = i
				break
			}
		}
		// 60 NOOP + 4 RESET + 20 NOOP steps come before the first SELECT frame.
		if firstSelect != 84 || a.Frame() != 21 {
			t.Errorf("first SELECT frame %d, frame counter %d; want 84, 21", firstSelect, a.Frame())
		}
	})
	t.Run("keystone_kapers starts with RESET", func(t *testing.T) {
		f := &fakeMachine{}
		a := newFakeALE(t, "keystone_kapers", Options{}, f)
		if err := a.ResetGame(); err != nil {
			t.Fatal(err)
		}
		if last := f.frames[len(f.frames)-1]; !last.Reset || len(f.frames) != 69 {
			t.Errorf("%d reset frames, last %+v; want 69 ending with RESET", len(f.frames), last)
		}
	})
	t.Run("video_cube picks the cube with RIGHT", func(t *testing.T) {
		f := &fakeMachine{}
		f.onFrame = func(f *fakeMachine) {
			if f.frames[len(f.frames)-1].Right[0] {
				f.set(0x9F, 0x03)
			}
		}
		mode := 302       // cube 3, variation 2 (the cartridge's game 9)
		f.set(0xFB, 0xE8) // game 9 - 1 in the low 5 bits
		f.set(0xA1, 1)    // a face of two colours: the game is not over
		a := newFakeALE(t, "video_cube", Options{Mode: &mode}, f)
		if err := a.ResetGame(); err != nil {
			t.Fatal(err)
		}
		if _, sel, _ := countFrames(f.frames); sel != 0 || a.Frame() != 1 {
			t.Errorf("%d SELECT frames, frame counter %d; want 0 and one RIGHT step", sel, a.Frame())
		}
	})
	t.Run("adventure holds SELECT a random time", func(t *testing.T) {
		f := &fakeMachine{}
		f.onFrame = func(f *fakeMachine) {
			if f.frames[len(f.frames)-1].Select {
				f.set(0xDD, 2<<1)
			}
		}
		mode := 2
		a := newFakeALE(t, "adventure", Options{Mode: &mode, Seed: 7}, f)
		if err := a.ResetGame(); err != nil {
			t.Fatal(err)
		}
		var rng vcs.Random
		rng.Seed(7)
		want := 2 + int(rng.Next()%256)
		if _, sel, _ := countFrames(f.frames); sel != want || a.Frame() != 2 {
			t.Errorf("%d SELECT frames, frame counter %d; want %d and 2 (the press and a NOOP step)", sel, a.Frame(), want)
		}
	})
	t.Run("double_dunk sets menu options", func(t *testing.T) {
		// The fake menu: DOWN moves the cursor $B0; RIGHT/LEFT set/clear the option
		// bit of $80 under it (entries 2..5 are the four options ALE sets).
		bits := map[byte]byte{2: 0x08, 3: 0x10, 4: 0x04, 5: 0x20}
		f := &fakeMachine{}
		f.onFrame = func(f *fakeMachine) {
			in := f.frames[len(f.frames)-1]
			cur := f.ram[0xB0&0x7f]
			switch {
			case in.Down[0]:
				f.set(0xB0, cur+1)
			case in.Right[0] && !in.Up[0]:
				f.set(0x80, f.ram[0]|bits[cur])
			case in.Left[0]:
				f.set(0x80, f.ram[0]&^bits[cur])
			}
		}
		mode := 5 // 3-point shots and the 3-second rule
		a := newFakeALE(t, "double_dunk", Options{Mode: &mode}, f)
		if err := a.ResetGame(); err != nil {
			t.Fatal(err)
		}
		if got := f.ram[0]; got != 0x0C {
			t.Errorf("option bits $%02X, want $0C", got)
		}
		// 1 SELECT press + 5 moves down and 2 options set (2 steps each) + UPFIRE, NOOP.
		if a.Frame() != 1+10+4+2 {
			t.Errorf("frame counter %d, want 17", a.Frame())
		}
		if last := f.frames[len(f.frames)-1]; !last.Up[0] || !last.Fire[0] {
			t.Errorf("last reset frame %+v is not the UPFIRE starting action", last)
		}
	})
}

func ExampleGame_TaskID() {
	for _, name := range []string{"pong", "ms_pacman", "tic_tac_toe_3d"} {
		g, _ := GameByName(name)
		fmt.Println(g.TaskID())
	}
	// Output:
	// Pong-v5
	// MsPacman-v5
	// TicTacToe3d-v5
}
