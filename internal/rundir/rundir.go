// Package rundir lays out and writes a training run's directory:
//
//	runs/<name>-<date>-<time>-s<seed>/
//	  config.toml    the resolved config
//	  meta.json      version, commit, host, BLAS, network backend, times, status
//	  metrics.csv    one row per log interval
//	  episodes.csv   one row per finished episode
//	  checkpoints/   latest.ckpt and best.ckpt, written atomically
//	  curves.png     return against env steps and against wall time
//
// Files that must never be seen half-written (checkpoints, meta.json, curves.png) go
// through WriteAtomic: a temporary file in the same folder, synced, then renamed over
// the old one, so a crash leaves either the old file or the new one.
package rundir

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// Version is the project version recorded in meta.json.
const Version = "0.1.0-dev"

// Run statuses in meta.json.
const (
	StatusRunning     = "running"
	StatusFinished    = "finished"
	StatusInterrupted = "interrupted"
	StatusFailed      = "failed"
	// StatusQueued is a run prepared for a batch scheduler (`train submit`, a sweep on
	// Slurm): its directory and config exist, and `train -resume` starts it.
	StatusQueued = "queued"
)

// File names inside a run directory.
const (
	ConfigFile       = "config.toml"
	MetaFile         = "meta.json"
	MetricsFile      = "metrics.csv"
	EpisodesFile     = "episodes.csv"
	CurvesFile       = "curves.png"
	CheckpointsDir   = "checkpoints"
	LatestCheckpoint = "latest.ckpt"
	BestCheckpoint   = "best.ckpt"
	JobFile          = "job.json"
)

// Dir is one run directory.
type Dir struct {
	Path string
}

// Create makes a fresh run directory under base named <name>-<date>-<time>-s<seed>
// (with a -2, -3, ... suffix if that exists already).
func Create(base, name string, seed int64, now time.Time) (*Dir, error) {
	stem := fmt.Sprintf("%s-%s-s%d", name, now.Format("20060102-150405"), seed)
	if err := os.MkdirAll(base, 0o755); err != nil {
		return nil, fmt.Errorf("rundir: %w", err)
	}
	for i := 1; ; i++ {
		p := filepath.Join(base, stem)
		if i > 1 {
			p = fmt.Sprintf("%s-%d", p, i)
		}
		err := os.Mkdir(p, 0o755)
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("rundir: %w", err)
		}
		if err := os.Mkdir(filepath.Join(p, CheckpointsDir), 0o755); err != nil {
			return nil, fmt.Errorf("rundir: %w", err)
		}
		return &Dir{Path: p}, nil
	}
}

// Open returns an existing run directory (for -resume), checking that it has a config.
func Open(path string) (*Dir, error) {
	if _, err := os.Stat(filepath.Join(path, ConfigFile)); err != nil {
		return nil, fmt.Errorf("rundir: %s is not a run directory (no %s): %w", path, ConfigFile, err)
	}
	if err := os.MkdirAll(filepath.Join(path, CheckpointsDir), 0o755); err != nil {
		return nil, fmt.Errorf("rundir: %w", err)
	}
	return &Dir{Path: path}, nil
}

// File returns the path of a file in the run directory.
func (d *Dir) File(name string) string { return filepath.Join(d.Path, name) }

// Checkpoint returns the path of a checkpoint file.
func (d *Dir) Checkpoint(name string) string { return filepath.Join(d.Path, CheckpointsDir, name) }

// WriteAtomic writes path through write: into a temporary file in the same folder,
// synced to disk, then renamed over path. If write fails or the process dies, path
// keeps its previous content; a stale temporary may remain and is ignored.
func WriteAtomic(path string, write func(w io.Writer) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("rundir: %w", err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("rundir: write %s: %w", path, err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rundir: write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rundir: %w", err)
	}
	if df, err := os.Open(dir); err == nil {
		df.Sync() // make the rename durable; best effort
		df.Close()
	}
	return nil
}

// Meta is meta.json: what ran, where, with what, and how it ended.
type Meta struct {
	Version     string     `json:"version"`
	GitCommit   string     `json:"git_commit,omitempty"`
	GoVersion   string     `json:"go_version"`
	Host        string     `json:"host"`
	CPUs        int        `json:"cpus"`
	BLAS        string     `json:"blas"`
	Backend     string     `json:"network_backend,omitempty"`   // the network's kernels: onednn or go
	Precision   string     `json:"network_precision,omitempty"` // net.precision of a CNN torso: fp32 or bf16
	Command     []string   `json:"command"`
	Algo        string     `json:"algo"`
	Task        string     `json:"task"`
	Seed        int64      `json:"seed"`
	StartTime   time.Time  `json:"start_time"`
	EndTime     *time.Time `json:"end_time,omitempty"`
	Status      string     `json:"status"`
	Reason      string     `json:"reason,omitempty"`
	EnvSteps    int64      `json:"env_steps"`
	WallSeconds float64    `json:"wall_seconds"`
	// Target is the recent-mean return that counts as solved, TargetSuccess the
	// recent success rate (either or both); TargetStep and TargetWallSeconds say when
	// the run first reached them.
	Target            *float64    `json:"target_return,omitempty"`
	TargetSuccess     *float64    `json:"target_success,omitempty"`
	TargetStep        *int64      `json:"target_reached_step,omitempty"`
	TargetWallSeconds *float64    `json:"target_reached_wall_seconds,omitempty"`
	BestReturn        *float64    `json:"best_recent_return,omitempty"`
	Resumes           []time.Time `json:"resumes,omitempty"`
	Notes             []string    `json:"notes,omitempty"`
}

// SchedulerSlurm is Job.Scheduler for a run submitted to Slurm.
const SchedulerSlurm = "slurm"

// Job is job.json: the batch job of a run submitted to a scheduler. The submitter
// alone writes it (meta.json belongs to the running train).
type Job struct {
	Scheduler string    `json:"scheduler"` // SchedulerSlurm
	ID        string    `json:"id"`        // "123", or "123_4" for an array task
	Submitted time.Time `json:"submitted"`
	Script    string    `json:"script,omitempty"` // the batch script
	Log       string    `json:"log,omitempty"`    // where the job's output goes
}

// NewMeta fills the fields known at start.
func NewMeta(blas string, now time.Time) *Meta {
	host, _ := os.Hostname()
	return &Meta{
		Version: Version, GitCommit: gitCommit(), GoVersion: runtime.Version(), Host: host,
		CPUs: runtime.NumCPU(), BLAS: blas, Command: os.Args, StartTime: now, Status: StatusRunning,
	}
}

// gitCommit returns the commit the binary was built from, or the working tree's HEAD,
// or "" when neither is known.
func gitCommit() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" {
			if dirty {
				rev += "+dirty"
			}
			return rev
		}
	}
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// WriteMeta writes meta.json atomically.
func (d *Dir) WriteMeta(m *Meta) error { return writeJSON(d.File(MetaFile), m) }

// ReadMeta reads meta.json.
func (d *Dir) ReadMeta() (*Meta, error) {
	m := &Meta{}
	if err := readJSON(d.File(MetaFile), m); err != nil {
		return nil, err
	}
	return m, nil
}

// writeJSON writes v to path as indented JSON, atomically.
func writeJSON(path string, v any) error {
	return WriteAtomic(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	})
}

// readJSON decodes the JSON file at path into v. The error of a missing file wraps
// fs.ErrNotExist.
func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("rundir: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("rundir: %s: %w", path, err)
	}
	return nil
}

// Restart removes what an earlier start of the run wrote (logs, curves, TensorBoard
// events, checkpoints) so that the run starts over in its directory; config.toml and
// meta.json stay.
func (d *Dir) Restart() error {
	events, _ := filepath.Glob(d.File("events.out.tfevents.*"))
	for _, p := range append([]string{d.File(MetricsFile), d.File(EpisodesFile), d.File(CurvesFile),
		filepath.Join(d.Path, CheckpointsDir)}, events...) {
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("rundir: restarting %s: %w", d.Path, err)
		}
	}
	if err := os.Mkdir(filepath.Join(d.Path, CheckpointsDir), 0o755); err != nil {
		return fmt.Errorf("rundir: restarting %s: %w", d.Path, err)
	}
	return nil
}

// WriteJob writes job.json atomically.
func (d *Dir) WriteJob(j *Job) error { return writeJSON(d.File(JobFile), j) }

// ReadJob reads job.json; it returns nil and no error when the run has none.
func (d *Dir) ReadJob() (*Job, error) {
	j := &Job{}
	err := readJSON(d.File(JobFile), j)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return j, nil
}
