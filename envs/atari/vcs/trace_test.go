package vcs

import (
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// traceRecord is one frame of an ALE reference trace (testdata/atari/README.md).
type traceRecord struct {
	action uint8
	reset  bool
	ram    [128]byte
	hash   uint64
	screen []byte // only every 100th frame
}

// readTrace parses a trace file: the ROM md5 and its records.
func readTrace(t testing.TB, path string) (string, []traceRecord) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b[:8]) != "ALETRC01" {
		t.Fatalf("%s: bad magic", path)
	}
	md5hex := string(b[8:40])
	w, h := binary.LittleEndian.Uint32(b[40:]), binary.LittleEndian.Uint32(b[44:])
	n := int(binary.LittleEndian.Uint32(b[48:]))
	size := int(w * h)
	p := 52
	recs := make([]traceRecord, n)
	for i := range recs {
		r := &recs[i]
		r.action = b[p]
		r.reset = b[p+1] != 0
		copy(r.ram[:], b[p+11:p+139])
		r.hash = binary.LittleEndian.Uint64(b[p+139:])
		full := b[p+147] != 0
		p += 148
		if full {
			r.screen = b[p : p+size]
			p += size
		}
	}
	return md5hex, recs
}

// fnv1a64 is the trace's screen hash.
func fnv1a64(b []byte) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, c := range b {
		h ^= uint64(c)
		h *= 0x100000001b3
	}
	return h
}

// aleDriver replays ALE's environment procedures on a Console
// (docs/design/atari.md, Driving a game as ALE does).
type aleDriver struct {
	c       *Console
	game    string
	paddles bool
	paddle  [2]int32
}

const (
	paddleMin = 27450
	paddleMax = 790196
	actReset  = 40
)

func (d *aleDriver) input(a int) Input {
	var in Input
	if a == actReset {
		in.Reset = true
	}
	up := a == 2 || a == 6 || a == 7 || a == 10 || a == 14 || a == 15
	down := a == 5 || a == 8 || a == 9 || a == 13 || a == 16 || a == 17
	right := a == 3 || a == 6 || a == 8 || a == 11 || a == 14 || a == 16
	left := a == 4 || a == 7 || a == 9 || a == 12 || a == 15 || a == 17
	fire := a == 1 || (a >= 10 && a <= 17)
	if d.paddles {
		if right {
			d.paddle[0] -= 23000
		}
		if left {
			d.paddle[0] += 23000
		}
		d.paddle[0] = min(max(d.paddle[0], paddleMin), paddleMax)
		in.PaddleResistance[0], in.PaddleResistance[1] = d.paddle[0], d.paddle[1]
		in.PaddleFire[0] = fire
		return in
	}
	in.Up[0], in.Down[0], in.Left[0], in.Right[0], in.Fire[0] = up, down, left, right, fire
	return in
}

// emulate runs n frames with player A action a (B is NOOP).
func (d *aleDriver) emulate(a, n int) error {
	for i := 0; i < n; i++ {
		d.c.SetInput(d.input(a))
		if err := d.c.RunFrame(); err != nil {
			return err
		}
	}
	return nil
}

func (d *aleDriver) softReset() error { return d.emulate(actReset, 4) }

func (d *aleDriver) pressSelect(k int) error {
	for i := 0; i < k; i++ {
		in := d.input(0)
		in.Select = true
		d.c.SetInput(in)
		if err := d.c.RunFrame(); err != nil {
			return err
		}
	}
	return d.emulate(0, 1)
}

func (d *aleDriver) ram(addr uint16) uint8 { return d.c.Peek(addr) }

// setMode is the default-mode setMode of the traced games.
func (d *aleDriver) setMode() error {
	sel := func(addr uint16, k int) error {
		for n := 0; d.ram(addr) != 0; n++ {
			if n > 100 {
				return fmt.Errorf("mode select does not converge")
			}
			if err := d.pressSelect(k); err != nil {
				return err
			}
		}
		return d.softReset()
	}
	switch d.game {
	case "pong":
		return sel(0x96, 2)
	case "breakout":
		return sel(0xB2, 1)
	case "space_invaders":
		return sel(0xDC, 2)
	case "ms_pacman":
		for n := 0; d.ram(0x99) != 1 || d.ram(0xA1) != 1; n++ {
			if n > 100 {
				return fmt.Errorf("mode select does not converge")
			}
			if err := d.pressSelect(10); err != nil {
				return err
			}
		}
		return d.softReset()
	}
	return nil
}

// resetGame is StellaEnvironment::reset.
func (d *aleDriver) resetGame() error {
	d.paddle = [2]int32{(paddleMin + paddleMax) / 2, (paddleMin + paddleMax) / 2}
	d.c.Reset()
	if err := d.emulate(0, 60); err != nil {
		return err
	}
	if err := d.softReset(); err != nil {
		return err
	}
	if err := d.setMode(); err != nil {
		return err
	}
	if err := d.softReset(); err != nil {
		return err
	}
	if d.game == "pitfall2" {
		return d.emulate(2, 1)
	}
	return nil
}

// findROM returns the ROM in dir whose md5 is sum.
func findROM(t testing.TB, dir, sum string) []byte {
	files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s := md5.Sum(b)
		if hex.EncodeToString(s[:]) == sum {
			return b
		}
	}
	t.Fatalf("no ROM with md5 %s in %s", sum, dir)
	return nil
}

// replayTrace replays one trace and returns the matched frame count, the total and
// a description of the first mismatch ("" if none).
func replayTrace(t testing.TB, game string) (int, int, string) {
	td := os.Getenv("RLPOOL_TESTDATA")
	if td == "" {
		t.Skip("set RLPOOL_TESTDATA and RLPOOL_ROMS (make test sets them when ../shared exists)")
	}
	sum, recs := readTrace(t, filepath.Join(td, "atari", "traces", game+".bin"))
	rom := findROM(t, romDir(t), sum)
	cfg := gameConfig(game)
	c, err := NewConsole(rom, cfg)
	if err != nil {
		t.Fatal(err)
	}
	d := &aleDriver{c: c, game: game, paddles: cfg.Paddles}
	if err := d.resetGame(); err != nil {
		t.Fatal(err)
	}
	matched, first := 0, ""
	for i, r := range recs {
		if i > 0 {
			if r.reset {
				if err := d.resetGame(); err != nil {
					return matched, len(recs), fmt.Sprintf("frame %d reset: %v", i, err)
				}
			}
			if err := d.emulate(int(r.action), 1); err != nil {
				return matched, len(recs), fmt.Sprintf("frame %d: %v", i, err)
			}
		} else if err := d.resetGame(); err != nil {
			t.Fatal(err)
		}
		scr := c.Screen()
		ramOK := *c.RAM() == r.ram
		scrOK := fnv1a64(scr) == r.hash
		if ramOK && scrOK {
			matched++
			continue
		}
		if first == "" {
			first = fmt.Sprintf("frame %d (action %d reset %v): ram ok %v screen ok %v", i, r.action, r.reset, ramOK, scrOK)
			if !ramOK {
				for k := range r.ram {
					if c.RAM()[k] != r.ram[k] {
						first += fmt.Sprintf("\n  ram[%02X] got %02X want %02X", 0x80+k, c.RAM()[k], r.ram[k])
					}
				}
			}
			if !scrOK && r.screen != nil {
				nd := 0
				for k := range r.screen {
					if scr[k] != r.screen[k] {
						if nd < 20 {
							first += fmt.Sprintf("\n  pixel row %d x %d got %02X want %02X", k/160, k%160, scr[k], r.screen[k])
						}
						nd++
					}
				}
				first += fmt.Sprintf("\n  %d pixels differ", nd)
			}
		}
	}
	return matched, len(recs), first
}

var traceGames = []string{"pong", "breakout", "space_invaders", "ms_pacman", "montezuma_revenge", "road_runner", "robotank", "pitfall2"}

// TestTraces replays all ALE reference traces and reports the match rate per game.
func TestTraces(t *testing.T) {
	for _, g := range traceGames {
		t.Run(g, func(t *testing.T) {
			m, n, first := replayTrace(t, g)
			t.Logf("%s: %d/%d frames match (%.2f%%)", g, m, n, 100*float64(m)/float64(n))
			if first != "" {
				t.Errorf("first mismatch: %s", first)
			}
		})
	}
}
