package envpool

import (
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// TestOptionsDefaults checks the defaults New fills in, as Pool.Options reports them.
func TestOptionsDefaults(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	spec := countSpec()
	spec.MaxEpisodeSteps = 500
	tests := []struct {
		name string
		in   Options
		want Options
	}{
		{
			"batch size defaults to num_envs (sync mode)",
			Options{NumEnvs: 3, NumThreads: 2},
			Options{NumEnvs: 3, BatchSize: 3, NumThreads: 2, MaxEpisodeSteps: 500},
		},
		{
			"threads default to min(batch size, cores): batch size 1",
			Options{NumEnvs: 4, BatchSize: 1},
			Options{NumEnvs: 4, BatchSize: 1, NumThreads: 1, MaxEpisodeSteps: 500},
		},
		{
			"threads default to min(batch size, cores): many envs",
			Options{NumEnvs: 64},
			Options{NumEnvs: 64, BatchSize: 64, NumThreads: min(64, procs), MaxEpisodeSteps: 500},
		},
		{
			"explicit values are kept",
			Options{NumEnvs: 5, BatchSize: 2, NumThreads: 7, Seed: 9, MaxEpisodeSteps: 30, AutoReset: SameStep},
			Options{NumEnvs: 5, BatchSize: 2, NumThreads: 7, Seed: 9, MaxEpisodeSteps: 30, AutoReset: SameStep},
		},
		{
			"negative time limit disables the spec's",
			Options{NumEnvs: 2, NumThreads: 1, MaxEpisodeSteps: -1},
			Options{NumEnvs: 2, BatchSize: 2, NumThreads: 1, MaxEpisodeSteps: 0},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(spec, countFactory(0), tc.in)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if got := p.Options(); got != tc.want {
				t.Fatalf("New(%+v).Options() = %+v, want %+v", tc.in, got, tc.want)
			}
			if p.NumEnvs() != tc.want.NumEnvs || p.BatchSize() != tc.want.BatchSize {
				t.Fatalf("NumEnvs %d BatchSize %d, want %d and %d", p.NumEnvs(), p.BatchSize(), tc.want.NumEnvs, tc.want.BatchSize)
			}
		})
	}
}

// TestOptionsDefaultTimeLimitTruncates checks that the spec's limit, filled in as the
// default, is the one the pool applies.
func TestOptionsDefaultTimeLimitTruncates(t *testing.T) {
	spec := countSpec()
	spec.MaxEpisodeSteps = 2 // every countEnv episode lasts at least 3 steps
	p, err := New(spec, countFactory(0), Options{NumEnvs: 2, NumThreads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	for step := 1; step <= 2; step++ {
		b, err := p.Step([]float32{0, 0}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			if b.Truncated[i] != (step == 2) || b.Terminated[i] {
				t.Fatalf("step %d row %d: truncated %v terminated %v, want truncation at step 2 only",
					step, i, b.Truncated[i], b.Terminated[i])
			}
		}
	}
}

// TestOptionsErrorsNameTheField checks that every rejected option is reported by its
// config name, with the value and what is allowed, and that no pool is built.
func TestOptionsErrorsNameTheField(t *testing.T) {
	tests := []struct {
		name string
		in   Options
		want []string // substrings of the error
	}{
		{"no envs", Options{}, []string{"num_envs", "= 0", "at least 1"}},
		{"negative envs", Options{NumEnvs: -2}, []string{"num_envs", "= -2"}},
		{"batch larger than envs", Options{NumEnvs: 2, BatchSize: 3}, []string{"batch_size", "= 3", "num_envs (2)"}},
		{"negative batch", Options{NumEnvs: 2, BatchSize: -1}, []string{"batch_size", "= -1"}},
		{"negative threads", Options{NumEnvs: 2, NumThreads: -1}, []string{"num_threads", "= -1"}},
		{"negative affinity offset", Options{NumEnvs: 2, ThreadAffinity: true, ThreadAffinityOffset: -1}, []string{"thread_affinity_offset", "= -1"}},
		{"unknown auto-reset mode", Options{NumEnvs: 2, AutoReset: 7}, []string{"auto_reset", "7", "NextStep or SameStep"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var built atomic.Int32
			factory := func(i int, seed int64) (Env, error) {
				built.Add(1)
				return countFactory(0)(i, seed)
			}
			p, err := New(countSpec(), factory, tc.in)
			if err == nil {
				p.Close()
				t.Fatalf("New(%+v) succeeded", tc.in)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if p != nil || built.Load() != 0 {
				t.Errorf("failed New returned pool %v after building %d envs", p, built.Load())
			}
		})
	}
}

func TestAutoResetSpelling(t *testing.T) {
	tests := []struct {
		in      string
		want    AutoReset
		wantErr bool
	}{
		{"next_step", NextStep, false},
		{"same_step", SameStep, false},
		{"", NextStep, false}, // unset takes EnvPool's default
		{"same-step", 0, true},
		{"NextStep", 0, true},
	}
	for _, tc := range tests {
		got, err := ParseAutoReset(tc.in)
		if tc.wantErr {
			if err == nil || !strings.Contains(err.Error(), "auto_reset") || !strings.Contains(err.Error(), "next_step or same_step") {
				t.Errorf("ParseAutoReset(%q) = %v, %v; want an error naming auto_reset and its values", tc.in, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseAutoReset(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if tc.in != "" && got.String() != tc.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tc.in)
		}
	}
	if s := AutoReset(5).String(); s != "AutoReset(5)" {
		t.Errorf("AutoReset(5).String() = %q", s)
	}
}
