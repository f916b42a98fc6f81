package atari

import (
	"path/filepath"
	"strings"
	"testing"
)

// ramImage is a Memory of plain bytes: RIOT RAM plus a sparse map of other addresses.
type ramImage struct {
	ram   [128]byte
	other map[uint16]uint8
}

func (m *ramImage) RAM() *[128]byte { return &m.ram }

func (m *ramImage) Peek(addr uint16) uint8 {
	if addr >= 0x80 && addr <= 0xFF {
		return m.ram[addr-0x80]
	}
	return m.other[addr]
}

// set writes RAM at an ALE-style address ($80-$FF or an index 0-127).
func (m *ramImage) set(addr int, v byte) { m.ram[addr&0x7f] = v }

func TestDecimalScores(t *testing.T) {
	var m ramImage
	m.set(0xF8, 0x56)
	m.set(0xF9, 0x34)
	m.set(0xFA, 0x12)
	if got := decimalScore3(&m.ram, 0xF8, 0xF9, 0xFA); got != 123456 {
		t.Errorf("decimalScore3 = %d, want 123456", got)
	}
	if got := decimalScore2(&m.ram, 0xF8, 0xF9); got != 3456 {
		t.Errorf("decimalScore2 = %d, want 3456", got)
	}
	if readRAM(&m.ram, 0xF8) != readRAM(&m.ram, 0x78) {
		t.Error("readRAM does not mask like ALE's readRam")
	}
}

func TestPongReader(t *testing.T) {
	var m ramImage
	r := pongGame.NewReader()
	r.Reset()
	r.Step(&m)
	m.set(14, 1)
	r.Step(&m)
	if r.Reward() != 1 || r.Terminal() || r.Lives() != 0 {
		t.Errorf("player point: reward %d, terminal %v, lives %d", r.Reward(), r.Terminal(), r.Lives())
	}
	m.set(13, 21)
	r.Step(&m)
	if r.Reward() != -21 || !r.Terminal() {
		t.Errorf("CPU reaches 21: reward %d, terminal %v", r.Reward(), r.Terminal())
	}
}

func TestBreakoutReader(t *testing.T) {
	var m ramImage
	r := breakoutGame.NewReader()
	r.Reset()
	r.Step(&m) // lives 0 before the game has started: not over
	if r.Terminal() {
		t.Fatal("terminal before the game started")
	}
	m.set(57, 5)
	m.set(77, 0x42)
	m.set(76, 0x01)
	r.Step(&m)
	if r.Reward() != 142 || r.Lives() != 5 {
		t.Errorf("reward %d lives %d, want 142 and 5", r.Reward(), r.Lives())
	}
	m.set(57, 0)
	r.Step(&m)
	if !r.Terminal() || r.Lives() != 0 {
		t.Errorf("lives 0 after start: terminal %v lives %d", r.Terminal(), r.Lives())
	}
}

func TestSpaceInvadersScoreWrap(t *testing.T) {
	var m ramImage
	r := spaceInvadersGame.NewReader()
	r.Reset()
	m.set(0xC9, 3)
	m.set(0xE6, 0x99)
	m.set(0xE8, 0x90)
	r.Step(&m)
	m.set(0xE6, 0x00)
	m.set(0xE8, 0x20)
	r.Step(&m)
	if r.Reward() != 30 {
		t.Errorf("wrap from 9990 to 20: reward %d, want 30", r.Reward())
	}
	m.set(0x98, 0x80)
	r.Step(&m)
	if !r.Terminal() || r.Lives() != 0 {
		t.Errorf("bit 7 of $98: terminal %v lives %d", r.Terminal(), r.Lives())
	}
}

func TestRoadRunnerBlankDigits(t *testing.T) {
	var m ramImage
	r := roadRunnerGame.NewReader()
	r.Reset()
	m.set(0xC9, 0x0A)
	m.set(0xCA, 0x05)
	m.set(0xCB, 0x0A)
	m.set(0xCC, 0x0A)
	m.set(0xC4, 2)
	r.Step(&m)
	if r.Reward() != 5000 || r.Lives() != 3 {
		t.Errorf("reward %d lives %d, want 5000 and 3", r.Reward(), r.Lives())
	}
}

func TestKlaxReader(t *testing.T) {
	m := ramImage{other: map[uint16]uint8{0xF0B4: 0x50, 0xF0B5: 0x12, 0xF0B6: 0x01}}
	r := klaxGame.NewReader()
	r.Reset()
	r.Step(&m)
	if r.Reward() != 11250 || r.Terminal() || r.Lives() != 1 {
		t.Errorf("reward %d terminal %v lives %d", r.Reward(), r.Terminal(), r.Lives())
	}
	m.other[0xF0E9], m.other[0xF0EE] = 5, 5
	r.Step(&m)
	if !r.Terminal() || r.Lives() != 0 {
		t.Errorf("misses at maximum: terminal %v lives %d", r.Terminal(), r.Lives())
	}
	m.other[0xF0EE] = 0
	m.set(0xA8, 4)
	for i := range 25 {
		m.set(0xB3+i, 1)
	}
	r.Step(&m)
	if !r.Terminal() {
		t.Error("25 full bins while active: not terminal")
	}
	m.set(0xB3, 6) // a bonus filler does not count
	r.Step(&m)
	if r.Terminal() {
		t.Error("24 tiles and a filler: terminal")
	}
}

func TestPitfall2Reader(t *testing.T) {
	var m ramImage
	r := pitfall2Game.NewReader()
	r.Reset()
	m.set(0xC8, 0x40) // 4000, the starting score
	r.Step(&m)
	if r.Reward() != 0 || r.Lives() != 1 {
		t.Errorf("starting score: reward %d lives %d", r.Reward(), r.Lives())
	}
	m.set(0xC7, 0x19)
	m.set(0xC8, 0x90)
	r.Step(&m)
	if !r.Terminal() || r.Reward() != 195000 {
		t.Errorf("score 199000: terminal %v reward %d", r.Terminal(), r.Reward())
	}
}

// TestReadersAgainstTraces feeds each trace's recorded RAM to the game's reader and
// compares reward, lives and game over with what ALE reported, so the readers are
// checked against ALE without the emulator. After a reset the reader is fresh and
// sees only the first recorded frame (the reset's own frames are not in the trace),
// so the reward of that one frame is not compared.
func TestReadersAgainstTraces(t *testing.T) {
	traces, _, _ := traceDirs(t)
	for _, path := range traces {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".bin"), func(t *testing.T) {
			tr, err := readTraceFile(path)
			if err != nil {
				t.Fatal(err)
			}
			g, ok := GameByMD5(tr.MD5)
			if !ok {
				t.Fatalf("no game with md5 %s", tr.MD5)
			}
			var r Reader
			var m ramImage
			bad := 0
			for i := range tr.Records {
				rec := &tr.Records[i]
				m.ram = rec.RAM
				fresh := i == 0 || rec.Reset
				if fresh {
					r = g.NewReader()
					r.Reset()
				}
				r.Step(&m)
				gotReward := r.Reward()
				if i == 0 {
					gotReward = 0 // record 0 is not an act
				}
				if (!fresh && gotReward != int(rec.Reward)) || r.Lives() != int(rec.Lives) || r.Terminal() != rec.GameOver {
					if bad < 5 {
						t.Errorf("frame %d: reward/lives/game over = %d/%d/%v, ALE %d/%d/%v", i, gotReward, r.Lives(), r.Terminal(), rec.Reward, rec.Lives, rec.GameOver)
					}
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d frames differ", bad, len(tr.Records))
			}
		})
	}
}
