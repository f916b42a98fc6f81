package trainer

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/internal/rundir"
)

// A run prepared for a scheduler is queued until `train -resume` starts it; it then
// writes what a run started directly writes. A run stopped before its first
// checkpoint (a requeued job that was killed) starts over in its directory, with a
// notice.
func TestPreparedRunStartsOnResume(t *testing.T) {
	dir := t.TempDir()
	full := runOnce(t, context.Background(), Options{Config: testConfig(t, dir)})
	want := readFile(t, filepath.Join(full.Dir, rundir.EpisodesFile))

	d, err := Prepare(testConfig(t, dir), "test")
	if err != nil {
		t.Fatal(err)
	}
	meta, err := d.ReadMeta()
	if err != nil || meta.Status != rundir.StatusQueued || meta.Task != corridorTask {
		t.Fatalf("prepared meta.json: %+v, %v", meta, err)
	}
	var errb bytes.Buffer
	res := runOnce(t, context.Background(), Options{Resume: d.Path, Stderr: &errb})
	if res.Status != rundir.StatusFinished || res.EnvSteps != full.EnvSteps {
		t.Fatalf("started prepared run: %+v", res)
	}
	if got := readFile(t, filepath.Join(d.Path, rundir.EpisodesFile)); got != want {
		t.Errorf("the prepared run's episodes.csv differs from a run started directly:\n%s\n---\n%s", got, want)
	}
	if strings.Contains(errb.String(), "no checkpoint yet") {
		t.Errorf("a queued run's start was announced as a restart: %s", errb.String())
	}

	// Killed before its first checkpoint: the run's logs hold rows, meta.json says
	// running, and there is no checkpoint.
	os.RemoveAll(d.Checkpoint(rundir.LatestCheckpoint))
	meta, _ = d.ReadMeta()
	meta.Status = rundir.StatusRunning
	d.WriteMeta(meta)
	errb.Reset()
	res = runOnce(t, context.Background(), Options{Resume: d.Path, Stderr: &errb})
	if res.Status != rundir.StatusFinished || !strings.Contains(errb.String(), "no checkpoint yet: starting it from the beginning") {
		t.Fatalf("restart: %+v, stderr %q", res, errb.String())
	}
	if got := readFile(t, filepath.Join(d.Path, rundir.EpisodesFile)); got != want {
		t.Errorf("the restarted run's episodes.csv differs from a run started directly")
	}
	if ev, _ := filepath.Glob(filepath.Join(d.Path, "events.out.tfevents.*")); len(ev) != 1 {
		t.Errorf("%d TensorBoard event files after the restart, want 1", len(ev))
	}
}
