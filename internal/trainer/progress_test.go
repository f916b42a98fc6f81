package trainer

import (
	"bytes"
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestRenderProgress(t *testing.T) {
	for _, c := range []struct {
		p    progressInfo
		want string
	}{
		{progressInfo{Steps: 0, Total: 10_000_000, Recent: math.NaN(), Best: math.NaN()},
			"0/10000000 steps (0%) | 0 steps/s | elapsed 0s | ETA ? | return - | best -"},
		{progressInfo{Steps: 2_500_000, Total: 10_000_000, Elapsed: 754*time.Second + 400*time.Millisecond,
			StepsPerSec: 2000, Recent: -20.25, Best: -19.5},
			"2500000/10000000 steps (25%) | 2000 steps/s | elapsed 12m34s | ETA 1h02m30s | return -20.2 | best -19.5"},
		{progressInfo{Steps: 100_352, Total: 100_000, Elapsed: 59600 * time.Millisecond, StepsPerSec: 1683.7,
			Recent: 500, Best: 500},
			"100352/100000 steps (100%) | 1684 steps/s | elapsed 1m00s | ETA 0s | return 500.0 | best 500.0"},
	} {
		if got := renderProgress(c.p); got != c.want {
			t.Errorf("renderProgress(%+v)\n got %q\nwant %q", c.p, got, c.want)
		}
	}
}

func TestFitWidth(t *testing.T) {
	for _, c := range []struct {
		line  string
		width int
		want  string
	}{{"abcdef", 0, "abcdef"}, {"abcdef", 7, "abcdef"}, {"abcdef", 6, "abcde"}, {"abcdef", 4, "abc"}} {
		if got := fitWidth(c.line, c.width); got != c.want {
			t.Errorf("fitWidth(%q, %d) = %q, want %q", c.line, c.width, got, c.want)
		}
	}
}

func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var nilFile *os.File
	for name, w := range map[string]io.Writer{"buffer": &bytes.Buffer{}, "file": f, "nil file": nilFile} {
		if isTerminal(w) {
			t.Errorf("isTerminal(%s) = true", name)
		}
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !isTerminal(tty) {
			t.Error("isTerminal(/dev/tty) = false")
		}
	}
}

// With Stderr not a terminal the progress lines are plain lines: no carriage
// returns or escapes, the early-feedback lines first and a final line at the end.
func TestPlainProgressLines(t *testing.T) {
	var stdout, stderr bytes.Buffer
	cfg := testConfig(t, t.TempDir())
	runOnce(t, context.Background(), Options{Config: cfg, Stdout: &stdout, Stderr: &stderr, Progress: true})
	out := stderr.String()
	if strings.ContainsAny(out, "\r\x1b") {
		t.Fatalf("plain progress has terminal control characters: %q", out)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(l, "train: ") && !strings.HasPrefix(l, "train: network backend") {
			lines = append(lines, l)
		}
	}
	if len(lines) < 3 || !strings.Contains(lines[0], "4 envs of "+corridorTask+" created") ||
		!strings.Contains(lines[1], "first iteration done: 256 env steps") ||
		!strings.HasPrefix(lines[len(lines)-1], "train: 2048/2048 steps (100%) | ") ||
		!strings.Contains(lines[len(lines)-1], "| ETA 0s | return ") {
		t.Fatalf("progress lines:\n%s", strings.Join(lines, "\n"))
	}
	// The summary on stdout ends with PPO's time by phase.
	if sum := stdout.String(); !regexp.MustCompile(`time by phase in this process: collect [0-9.]+ s \([0-9]+%\)( at [0-9]+% CPU)?, learn `).MatchString(sum) {
		t.Fatalf("no time by phase in the summary:\n%s", sum)
	}
	// Progress off: nothing but the backend line.
	stderr.Reset()
	runOnce(t, context.Background(), Options{Config: testConfig(t, t.TempDir()), Stdout: &stdout, Stderr: &stderr})
	if strings.Count(stderr.String(), "\n") != 1 {
		t.Fatalf("stderr without progress: %q", stderr.String())
	}
}
