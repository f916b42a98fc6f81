package atari

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Environment variables of the trace test.
const (
	testdataEnv = "RLPOOL_TESTDATA"  // reference data; traces in atari/traces/*.bin
	traceOutEnv = "RLPOOL_TRACE_OUT" // where mismatch PNGs go (default: t.TempDir())
)

// traceDirs returns the trace files and the ROM folder, or skips the test naming the
// variables to set.
func traceDirs(t *testing.T) (traces []string, romDir, testdata string) {
	t.Helper()
	testdata, romDir = os.Getenv(testdataEnv), os.Getenv(ROMEnv)
	if testdata == "" || romDir == "" {
		t.Skipf("set %s (reference data with atari/traces/*.bin) and %s (a folder of ALE's ROMs) to compare against ALE's traces", testdataEnv, ROMEnv)
	}
	traces, err := filepath.Glob(filepath.Join(testdata, "atari", "traces", "*.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if len(traces) == 0 {
		t.Skipf("no ALE traces in %s (from %s)", filepath.Join(testdata, "atari", "traces"), testdataEnv)
	}
	return traces, romDir, testdata
}

// TestALETraces replays every reference trace recorded from ALE and compares every
// frame: RAM, reward, lives, game over, the screen hash, and the full screen where the
// trace stores it. The target is 100%; the first mismatch of each game is reported in
// detail (RAM bytes, screen rows, PNGs of both screens) for debugging the emulator.
func TestALETraces(t *testing.T) {
	traces, romDir, _ := traceDirs(t)
	var (
		mu      sync.Mutex
		summary []string
	)
	for _, path := range traces {
		name := strings.TrimSuffix(filepath.Base(path), ".bin")
		t.Run(name, func(t *testing.T) {
			line := replayTrace(t, path, romDir)
			mu.Lock()
			summary = append(summary, line)
			mu.Unlock()
		})
	}
	t.Logf("ALE trace match per game:\n  %s", strings.Join(summary, "\n  "))
}

// frameState is what is compared on each frame.
type frameState struct {
	reward   int
	lives    int
	gameOver bool
	ram      [128]byte
	hash     uint64
}

// frameDiff says which parts of a frame differ.
type frameDiff struct{ reward, lives, gameOver, ram, screen bool }

func (d frameDiff) any() bool { return d.reward || d.lives || d.gameOver || d.ram || d.screen }

// compareFrame compares our state with a trace record.
func compareFrame(got *frameState, want *traceRecord) frameDiff {
	return frameDiff{
		reward:   got.reward != int(want.Reward),
		lives:    got.lives != int(want.Lives),
		gameOver: got.gameOver != want.GameOver,
		ram:      got.ram != want.RAM,
		screen:   got.hash != want.ScreenHash,
	}
}

// replayTrace replays one trace and returns its summary line; it fails the test on
// any mismatch.
func replayTrace(t *testing.T, path, romDir string) string {
	name := strings.TrimSuffix(filepath.Base(path), ".bin")
	tr, err := readTraceFile(path)
	if err != nil {
		t.Fatalf("reading trace: %v", err)
	}
	game, ok := GameByMD5(tr.MD5)
	if !ok {
		t.Fatalf("trace %s is for ROM md5 %s, which is not in the game table: add the game (game_<name>.go)", path, tr.MD5)
	}
	rom, ok := scanDirForMD5(romDir, tr.MD5)
	if !ok {
		t.Fatalf("no ROM with md5 %s (%s) in %s (%s); point %s at a folder holding ALE's ROMs", tr.MD5, game.Name, romDir, ROMEnv, ROMEnv)
	}
	if len(tr.Records) == 0 {
		t.Fatalf("trace %s has no records", path)
	}
	if tr.Width != ScreenWidth || tr.Height != game.Props.height() {
		t.Fatalf("trace screen is %dx%d but %s's screen is %dx%d", tr.Width, tr.Height, game.Name, ScreenWidth, game.Props.height())
	}

	ale, err := NewALE(rom.Data, Options{})
	if err != nil {
		t.Fatalf("NewALE: %v", err)
	}
	// The traces were recorded after loadROM's reset and one more reset_game.
	if err := ale.ResetGame(); err != nil {
		t.Fatalf("ResetGame: %v", err)
	}

	var (
		matched          int
		counts           struct{ reward, lives, gameOver, ram, screen int }
		first            string // the first mismatch, in detail
		firstScreen      string // the first screen mismatch at a frame with a stored screen
		firstScreenFrame = -1
		firstFrame       = -1
		got              frameState
		errAt            = -1
		actErr           error
	)
	for i := range tr.Records {
		rec := &tr.Records[i]
		if i > 0 {
			if rec.Reset {
				if err := ale.ResetGame(); err != nil {
					errAt, actErr = i, fmt.Errorf("ResetGame before the act: %w", err)
					break
				}
			}
			got.reward, err = ale.Act(int(rec.Action))
			if err != nil {
				errAt, actErr = i, fmt.Errorf("Act(%s): %w", Action(rec.Action), err)
				break
			}
		} else {
			got.reward = 0
		}
		got.lives = ale.Lives()
		got.gameOver = ale.GameOver()
		got.ram = *ale.RAM()
		screen := ale.Screen()
		got.hash = screenHash(screen)

		d := compareFrame(&got, rec)
		if !d.any() {
			matched++
			continue
		}
		counts.reward += b2i(d.reward)
		counts.lives += b2i(d.lives)
		counts.gameOver += b2i(d.gameOver)
		counts.ram += b2i(d.ram)
		counts.screen += b2i(d.screen)
		if firstFrame < 0 {
			firstFrame = i
			first = describeMismatch(t, name, i, rec, &got, d, screen, tr)
		}
		if d.screen && rec.Screen != nil && firstScreenFrame < 0 && i != firstFrame {
			firstScreenFrame = i
			firstScreen = describeScreenMismatch(t, name, i, screen, rec.Screen, tr.Width, tr.Height)
		}
	}

	total := len(tr.Records)
	pct := 100 * float64(matched) / float64(total)
	line := fmt.Sprintf("%-18s %4d/%d frames match (%6.2f%%)", name, matched, total, pct)
	if firstFrame >= 0 {
		line += fmt.Sprintf("; first mismatch at frame %d; frames differing in reward %d, lives %d, game over %d, RAM %d, screen %d",
			firstFrame, counts.reward, counts.lives, counts.gameOver, counts.ram, counts.screen)
	}
	if actErr != nil {
		line += fmt.Sprintf("; stopped at frame %d: %v", errAt, actErr)
	}
	t.Log(line)

	if actErr != nil {
		t.Errorf("%s: emulation failed at frame %d of %d (%d frames matched before): %v", name, errAt, total, matched, actErr)
	}
	if firstFrame >= 0 {
		msg := first
		if firstScreen != "" {
			msg += fmt.Sprintf("first screen mismatch at a frame with a stored screen (frame %d):\n%s", firstScreenFrame, firstScreen)
		}
		t.Errorf("%s: %d of %d frames differ from ALE (%.2f%% match)\n%s", name, total-matched, total, pct, msg)
	}
	return line
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// describeMismatch formats the first mismatching frame: what the frame was, every field
// that differs, the differing RAM bytes and, where the trace stores the screen, the
// differing rows and PNGs of both screens.
func describeMismatch(t *testing.T, name string, i int, rec *traceRecord, got *frameState, d frameDiff, screen []byte, tr *aleTrace) string {
	var b strings.Builder
	act := "none (state after the reset)"
	if i > 0 {
		act = fmt.Sprintf("%s (%d)", Action(rec.Action), rec.Action)
	}
	before := "no frame before it"
	if i > 0 {
		before = fmt.Sprintf("frames 0..%d", i-1)
	}
	fmt.Fprintf(&b, "first mismatch at frame %d: action %s, reset before the act: %v; %s matched\n", i, act, rec.Reset, before)
	if d.reward {
		fmt.Fprintf(&b, "  reward:    got %d, want %d\n", got.reward, rec.Reward)
	}
	if d.lives {
		fmt.Fprintf(&b, "  lives:     got %d, want %d\n", got.lives, rec.Lives)
	}
	if d.gameOver {
		fmt.Fprintf(&b, "  game over: got %v, want %v\n", got.gameOver, rec.GameOver)
	}
	if d.ram {
		var diffs []string
		for a := range got.ram {
			if got.ram[a] != rec.RAM[a] {
				diffs = append(diffs, fmt.Sprintf("$%02X: %02X/%02X", 0x80+a, got.ram[a], rec.RAM[a]))
			}
		}
		fmt.Fprintf(&b, "  RAM: %d bytes differ (address: got/want):\n", len(diffs))
		for len(diffs) > 0 {
			n := min(8, len(diffs))
			fmt.Fprintf(&b, "    %s\n", strings.Join(diffs[:n], "  "))
			diffs = diffs[n:]
		}
	}
	if d.screen {
		fmt.Fprintf(&b, "  screen: hash got %016x, want %016x\n", got.hash, rec.ScreenHash)
		if rec.Screen != nil {
			b.WriteString(describeScreenMismatch(t, name, i, screen, rec.Screen, tr.Width, tr.Height))
		} else {
			next := (i/100 + 1) * 100
			fmt.Fprintf(&b, "    the trace stores only the hash at this frame (full screens every 100 frames, next at %d)\n", next)
			if p := writeScreens(t, name, i, screen, nil, tr.Width, tr.Height); p != "" {
				fmt.Fprintf(&b, "    our screen: %s\n", p)
			}
		}
	}
	return b.String()
}

// describeScreenMismatch lists the differing rows of two screens and writes PNGs.
func describeScreenMismatch(t *testing.T, name string, i int, got, want []byte, w, h int) string {
	var b strings.Builder
	if len(got) != len(want) {
		fmt.Fprintf(&b, "    screen sizes differ: got %d bytes, want %d (%dx%d)\n", len(got), len(want), w, h)
		return b.String()
	}
	var rows []string
	for y := range h {
		n, lo, hi := 0, -1, -1
		for x := range w {
			if got[y*w+x] != want[y*w+x] {
				n++
				if lo < 0 {
					lo = x
				}
				hi = x
			}
		}
		if n > 0 {
			rows = append(rows, fmt.Sprintf("row %3d: %3d px differ in x %d..%d (x=%d: got $%02X want $%02X)", y, n, lo, hi, lo, got[y*w+lo], want[y*w+lo]))
		}
	}
	fmt.Fprintf(&b, "    %d of %d screen rows differ:\n", len(rows), h)
	const maxRows = 12
	for k, r := range rows {
		if k == maxRows {
			fmt.Fprintf(&b, "      ... and %d more rows\n", len(rows)-maxRows)
			break
		}
		fmt.Fprintf(&b, "      %s\n", r)
	}
	if p := writeScreens(t, name, i, got, want, w, h); p != "" {
		fmt.Fprintf(&b, "    images: %s\n", p)
	}
	return b.String()
}

// writeScreens writes our screen (and, given it, ALE's and a difference image) as PNGs
// and returns their paths for the failure message.
func writeScreens(t *testing.T, name string, frame int, got, want []byte, w, h int) string {
	pal := vcsPalette()
	dir := os.Getenv(traceOutEnv)
	note := ""
	if dir == "" {
		dir = t.TempDir()
		note = fmt.Sprintf(" (removed when the test ends; set %s=DIR to keep them)", traceOutEnv)
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Sprintf("(no PNGs: %v)", err)
	}
	base := filepath.Join(dir, fmt.Sprintf("%s_frame%04d", name, frame))
	var paths []string
	gotPath := base + "_got.png"
	if err := writePNG(gotPath, screenImage(got, w, h, pal)); err != nil {
		return fmt.Sprintf("(no PNGs: %v)", err)
	}
	paths = append(paths, "got "+gotPath)
	if want != nil {
		wantPath, diffPath := base+"_want.png", base+"_diff.png"
		if err := writePNG(wantPath, screenImage(want, w, h, pal)); err != nil {
			return fmt.Sprintf("(no PNGs: %v)", err)
		}
		if err := writePNG(diffPath, diffImage(got, want, w, h, pal)); err != nil {
			return fmt.Sprintf("(no PNGs: %v)", err)
		}
		paths = append(paths, "want "+wantPath, "diff "+diffPath)
	}
	return strings.Join(paths, ", ") + note
}
