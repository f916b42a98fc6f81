package rundir

import (
	"errors"
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
	if err := TruncateCSV(p, func(r []string) bool { return r[0] != "30" }); err != nil {
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
