package trainer

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/internal/rundir"
)

// A run whose metrics.csv and episodes.csv end in a line cut short by an interrupted
// write resumes: each torn line is dropped with a one-line warning and the run
// finishes as the uninterrupted one does.
func TestResumeDropsTornLastLine(t *testing.T) {
	dir := t.TempDir()
	full := runOnce(t, context.Background(), Options{Config: testConfig(t, dir)})
	cut := runInterrupted(t, dir, 1280)
	d := &rundir.Dir{Path: cut.Dir}
	for _, torn := range []struct{ name, tail string }{
		{rundir.MetricsFile, "1536,12.5,0.1"}, // no newline
		{rundir.EpisodesFile, "1400,1\n"},     // fewer fields than the header
	} {
		f, err := os.OpenFile(d.File(torn.name), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(torn.tail)
		f.Close()
	}
	var stderr bytes.Buffer
	resumed, err := Run(context.Background(), Options{Resume: cut.Dir, Stderr: &stderr})
	if err != nil {
		t.Fatalf("resume after a torn line: %v\n%s", err, stderr.String())
	}
	if resumed.Status != rundir.StatusFinished || resumed.EnvSteps != full.EnvSteps {
		t.Fatalf("resumed run: %+v, want finished at %d", resumed, full.EnvSteps)
	}
	for _, name := range []string{rundir.MetricsFile, rundir.EpisodesFile} {
		n := 0
		for _, line := range strings.Split(stderr.String(), "\n") {
			if strings.Contains(line, name) && strings.Contains(line, "torn") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d warnings of a torn line of %s in:\n%s", n, name, stderr.String())
		}
	}
	if got, want := readFile(t, d.File(rundir.EpisodesFile)), readFile(t, (&rundir.Dir{Path: full.Dir}).File(rundir.EpisodesFile)); got != want {
		t.Errorf("episodes.csv after resume differs from the uninterrupted run:\n%s\n---\n%s", got, want)
	}
	if a, b := dropTimingColumns(t, (&rundir.Dir{Path: full.Dir}).File(rundir.MetricsFile)), dropTimingColumns(t, d.File(rundir.MetricsFile)); a != b {
		t.Errorf("metrics.csv after resume differs:\n%s\n---\n%s", b, a)
	}
}
