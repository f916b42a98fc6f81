package rundir

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCreateNamesRunDirectories(t *testing.T) {
	base := t.TempDir()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	d1, err := Create(base, "cartpole", 3, now)
	if err != nil {
		t.Fatal(err)
	}
	d2, err := Create(base, "cartpole", 3, now)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(d1.Path) != "cartpole-20260102-030405-s3" || filepath.Base(d2.Path) != "cartpole-20260102-030405-s3-2" {
		t.Errorf("names %s, %s", d1.Path, d2.Path)
	}
	if st, err := os.Stat(filepath.Join(d1.Path, CheckpointsDir)); err != nil || !st.IsDir() {
		t.Error("no checkpoints folder")
	}
	if _, err := Open(d1.Path); err == nil {
		t.Error("Open accepted a directory without config.toml")
	}
}

// A write that fails half way leaves the old file and no temporary behind.
func TestWriteAtomicKeepsOldFileOnFailure(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.ckpt")
	if err := WriteAtomic(p, func(w io.Writer) error { _, err := w.Write([]byte("old")); return err }); err != nil {
		t.Fatal(err)
	}
	err := WriteAtomic(p, func(w io.Writer) error {
		w.Write([]byte("new but torn"))
		return errors.New("disk on fire")
	})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("error %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("file holds %q after a failed write", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestCSVAppendAndTruncate(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.csv")
	c, err := OpenCSV(p, []string{"env_step", "v"})
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]string{"10", "a"})
	c.Close()
	c, err = OpenCSV(p, []string{"env_step", "v"})
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]string{"20", "b"})
	c.Write([]string{"30", "c"})
	c.Close()
	if _, err := OpenCSV(p, []string{"other"}); err == nil {
		t.Error("reopening with another header: no error")
	}
	if err := TruncateCSV(p, func(c Columns, r []string) bool { return c.Field(r, "env_step") != "30" }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "env_step,v\n10,a\n20,b\n" {
		t.Errorf("file:\n%s", b)
	}
}

// A resumed run whose learner logs a new metric widens its file: old rows keep their
// values by column name and get NaN in the new column; a header that drops a column
// is still refused, and the file is left as it was.
func TestCSVWidensForNewColumn(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.csv")
	c, err := OpenCSV(p, []string{"env_step", "loss", "fps"})
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]string{"10", "0.5", "300"})
	c.Close()
	c, err = OpenCSV(p, []string{"env_step", "loss", "ev", "fps"})
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]string{"20", "0.4", "0.1", "310"})
	c.Close()
	want := "env_step,loss,ev,fps\n10,0.5,NaN,300\n20,0.4,0.1,310\n"
	if b, _ := os.ReadFile(p); string(b) != want {
		t.Errorf("widened file:\n%s\nwant:\n%s", b, want)
	}
	if _, err := OpenCSV(p, []string{"env_step", "ev", "fps"}); err == nil || !strings.Contains(err.Error(), "column loss is gone") {
		t.Errorf("dropping a column: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != want {
		t.Errorf("a refused header changed the file:\n%s", b)
	}
}

func TestCurvesPNG(t *testing.T) {
	p := filepath.Join(t.TempDir(), CurvesFile)
	c := Curves{Title: "Test-v0", Window: 3, Target: 5}
	for i := range 50 {
		c.Episodes = append(c.Episodes, CurvePoint{X: float64(100 * i), Y: math.Sqrt(float64(i))})
	}
	c.ByWall = []CurvePoint{{1, math.NaN()}, {2, 3}, {3, 6}}
	if err := c.WritePNG(p); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || len(b) < 1000 || string(b[1:4]) != "PNG" {
		t.Errorf("curves.png: %d bytes, %v", len(b), err)
	}
	// No episodes yet still draws (empty axes) rather than failing.
	if err := (&Curves{Title: "empty", Target: math.NaN()}).WritePNG(p); err != nil {
		t.Errorf("empty curves: %v", err)
	}
}

// A CSV file whose last line was cut short (no trailing newline, or fewer fields than
// the header) loses that line with a notice, and reopens and appends cleanly; a whole
// file is untouched, and a real header mismatch is still refused.
func TestDropTornLine(t *testing.T) {
	dir := t.TempDir()
	header := []string{"env_step", "loss", "fps"}
	cases := []struct {
		name, file, want string
		dropped          bool
	}{
		{"no newline", "env_step,loss,fps\n10,0.5,300\n20,0.4,31", "env_step,loss,fps\n10,0.5,300\n", true},
		{"short row", "env_step,loss,fps\n10,0.5,300\n20,0.4\n", "env_step,loss,fps\n10,0.5,300\n", true},
		{"short row, no newline", "env_step,loss,fps\n10,0.5,300\n20", "env_step,loss,fps\n10,0.5,300\n", true},
		{"torn header", "env_step,lo", "", true},
		{"whole", "env_step,loss,fps\n10,0.5,300\n", "env_step,loss,fps\n10,0.5,300\n", false},
		{"header only", "env_step,loss,fps\n", "env_step,loss,fps\n", false},
		{"empty", "", "", false},
	}
	for i, c := range cases {
		p := filepath.Join(dir, fmt.Sprintf("m%d.csv", i))
		if err := os.WriteFile(p, []byte(c.file), 0o644); err != nil {
			t.Fatal(err)
		}
		note, err := DropTornLine(p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if (note != "") != c.dropped || strings.Contains(note, "\n") {
			t.Errorf("%s: notice %q, want one line: %v", c.name, note, c.dropped)
		}
		if c.dropped && !strings.Contains(note, "torn") {
			t.Errorf("%s: notice %q does not say the line was torn", c.name, note)
		}
		if b, _ := os.ReadFile(p); string(b) != c.want {
			t.Errorf("%s: file %q, want %q", c.name, b, c.want)
		}
		w, err := OpenCSV(p, header)
		if err != nil {
			t.Fatalf("%s: reopening: %v", c.name, err)
		}
		w.Write([]string{"30", "0.3", "320"})
		w.Close()
		h, rows, err := ReadCSV(p)
		if err != nil || strings.Join(h, ",") != "env_step,loss,fps" || rows[len(rows)-1][0] != "30" {
			t.Errorf("%s: after appending: %v, %v, %v", c.name, h, rows, err)
		}
	}
	if note, err := DropTornLine(filepath.Join(dir, "absent.csv")); note != "" || err != nil {
		t.Errorf("absent file: %q, %v", note, err)
	}
	// A header that differs is no torn line: still refused by OpenCSV.
	p := filepath.Join(dir, "other.csv")
	os.WriteFile(p, []byte("env_step,gone,fps\n10,1,300\n"), 0o644)
	if note, _ := DropTornLine(p); note != "" {
		t.Errorf("whole file with another header: notice %q", note)
	}
	if _, err := OpenCSV(p, header); err == nil || !strings.Contains(err.Error(), "column gone is gone") {
		t.Errorf("another header: %v", err)
	}
	// A short row before the last is not a torn write: left for the reader to refuse.
	p = filepath.Join(dir, "mid.csv")
	os.WriteFile(p, []byte("env_step,loss,fps\n10,0.5\n20,0.4,310\n"), 0o644)
	if note, _ := DropTornLine(p); note != "" {
		t.Errorf("short middle row: notice %q", note)
	}
	if _, _, err := ReadCSV(p); err == nil {
		t.Error("short middle row read without error")
	}
}

// job.json round-trips, a run without one reads as nil, and a damaged one is an error
// that names the file.
func TestJobRoundTripAndMissing(t *testing.T) {
	d := &Dir{Path: t.TempDir()}
	if j, err := d.ReadJob(); j != nil || err != nil {
		t.Fatalf("ReadJob without job.json = %v, %v; want nil, nil", j, err)
	}
	want := &Job{Scheduler: SchedulerSlurm, ID: "123_4", Submitted: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Log: "slurm.out"}
	if err := d.WriteJob(want); err != nil {
		t.Fatal(err)
	}
	got, err := d.ReadJob()
	if err != nil || *got != *want {
		t.Fatalf("ReadJob = %+v, %v; want %+v", got, err, want)
	}
	if err := os.WriteFile(d.File(JobFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ReadJob(); err == nil || !strings.Contains(err.Error(), d.File(JobFile)) {
		t.Errorf("ReadJob of a damaged job.json: error %v, want one naming the file", err)
	}
	if _, err := d.ReadMeta(); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadMeta without meta.json: error %v, want a not-exist error", err)
	}
}
