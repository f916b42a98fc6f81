// Package envs is the table of task ids: envs.Make("CartPole-v1", opts) builds a pool of
// that task's envs. Each family (classic, mujoco, atari) registers its tasks from its
// own package's init; importing rlpool/envs/all links every family in.
package envs

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/option"
)

// Options configure Make: the pool's options plus the family's own settings (from a
// config's env.options table), e.g. {"frame_skip": 4} for Atari.
type Options struct {
	envpool.Options
	Family map[string]any
}

// Task is one registered task id.
type Task struct {
	ID     string
	Family string
	// New returns the task's spec and a factory for its envs, configured by the
	// family options. It reports unknown or invalid options as errors naming them.
	New func(family map[string]any) (envpool.Spec, envpool.Factory, error)
	// EnvTimeLimit is set by a family whose envs end episodes at a time limit of their
	// own, the family option max_episode_steps (Atari: EnvPool's 27000 steps), which
	// also sets the spec's limit. A caller that takes pool and family options from one
	// table (the Python package's make) then hands max_episode_steps to the family
	// instead of the pool.
	EnvTimeLimit bool
}

var (
	mu    sync.RWMutex
	tasks = map[string]Task{}
)

// Register adds a task; families call it from init. Registering an id twice panics,
// since that is a programming error found at start.
func Register(t Task) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := tasks[t.ID]; dup {
		panic("envs: task " + t.ID + " registered twice")
	}
	tasks[t.ID] = t
}

// List returns the registered task ids, sorted.
func List() []string {
	mu.RLock()
	defer mu.RUnlock()
	ids := make([]string, 0, len(tasks))
	for id := range tasks {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Lookup returns the registered task with that id.
func Lookup(id string) (Task, error) {
	mu.RLock()
	t, ok := tasks[id]
	mu.RUnlock()
	if !ok {
		return Task{}, unknownTaskError(id, List())
	}
	return t, nil
}

// unknownTaskError names the known ids closest to a mistyped one (by case-insensitive
// edit distance, at most three) and points at the full list.
func unknownTaskError(id string, known []string) error {
	msg := fmt.Sprintf("envs: unknown task %q", id)
	if near := nearestIDs(id, known, 3); len(near) > 0 {
		msg += "; did you mean " + strings.Join(near, ", ") + "?"
	}
	return fmt.Errorf("%s (`train bench -list` lists the %d known tasks)", msg, len(known))
}

// nearestIDs returns up to n ids of known close to id, by option.SuggestFunc: within
// an edit distance of max(2, len(id)/3) ignoring case, nearest first (ties in list
// order). An id's name without its version suffix counts as one edit away.
func nearestIDs(id string, known []string, n int) []string {
	return option.SuggestFunc(id, known, n, func(id, k string) int {
		want, lk := strings.ToLower(id), strings.ToLower(k)
		d := option.Distance(want, lk)
		// A name without its version ("pong", "cartpole") is one edit from the id.
		if i := strings.LastIndex(lk, "-v"); i > 0 {
			d = min(d, option.Distance(want, lk[:i])+1)
		}
		return d
	})
}

// SpecOf returns the spec of a task under the given family options without building envs.
func SpecOf(id string, family map[string]any) (envpool.Spec, error) {
	t, err := Lookup(id)
	if err != nil {
		return envpool.Spec{}, err
	}
	spec, _, err := t.New(family)
	return spec, err
}

// Make builds a pool of the task's envs.
func Make(id string, opts Options) (*envpool.Pool, error) {
	t, err := Lookup(id)
	if err != nil {
		return nil, err
	}
	spec, factory, err := t.New(opts.Family)
	if err != nil {
		return nil, fmt.Errorf("envs: %s: %w", id, err)
	}
	return envpool.New(spec, factory, opts.Options)
}

// MakeEnv builds a single env of the task with the given seed, outside any pool: the
// plain-loop baseline of benchmarks and tools such as evaluation use it.
func MakeEnv(id string, family map[string]any, seed int64) (envpool.Env, envpool.Spec, error) {
	t, err := Lookup(id)
	if err != nil {
		return nil, envpool.Spec{}, err
	}
	spec, factory, err := t.New(family)
	if err != nil {
		return nil, spec, fmt.Errorf("envs: %s: %w", id, err)
	}
	env, err := factory(0, seed)
	return env, spec, err
}

// TaskInfo is what RegisterStruct sets in a task's spec besides what its build gives.
type TaskInfo struct {
	ID, Family      string
	MaxEpisodeSteps int     // the task's time limit; 0: none
	RewardThreshold float64 // the solved score; NaN: none
	RenderFPS       float64 // the rate its pictures play at (Gymnasium's metadata["render_fps"])
}

// RegisterStruct adds a task whose options are the tagged struct type O (see
// DecodeOptions), the shape of most families' tasks: each make decodes the family
// option table into a copy of defaults, build makes the spec and the envs'
// constructor under those options (or says why it cannot), and the spec gets info's
// id, threshold and frame rate and the options it was made with (Spec.Options); its
// time limit and frame skip are info's limit and 1 unless build set them (a task whose
// options make a step several frames counts its limit in those steps).
func RegisterStruct[O any](info TaskInfo, defaults O, build func(o O) (envpool.Spec, func(seed int64) envpool.Env, error)) {
	Register(Task{ID: info.ID, Family: info.Family, New: func(m map[string]any) (envpool.Spec, envpool.Factory, error) {
		o := defaults
		if err := DecodeOptions(m, &o); err != nil {
			return envpool.Spec{}, nil, err
		}
		spec, mk, err := build(o)
		if err != nil {
			return envpool.Spec{}, nil, err
		}
		spec.TaskID, spec.RewardThreshold = info.ID, info.RewardThreshold
		if spec.MaxEpisodeSteps == 0 { // the build may count the limit in its own steps
			spec.MaxEpisodeSteps = info.MaxEpisodeSteps
		}
		spec.FrameSkip = max(spec.FrameSkip, 1)
		spec.RenderFPS, spec.Options = info.RenderFPS, option.Values(&o)
		return spec, func(_ int, seed int64) (envpool.Env, error) { return mk(seed), nil }, nil
	}})
}
