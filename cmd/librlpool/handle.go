//go:build cgo

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/option"
)

// errKind classifies errors for the Python side: bad arguments become ValueError,
// everything else RuntimeError.
type errKind int

const (
	kindNone    errKind = 0
	kindValue   errKind = 1
	kindRuntime errKind = 2
)

// apiError is an error with its kind.
type apiError struct {
	kind errKind
	msg  string
}

func (e *apiError) Error() string { return e.msg }

func valueErr(format string, args ...any) error {
	return &apiError{kindValue, fmt.Sprintf(format, args...)}
}

func runtimeErr(format string, args ...any) error {
	return &apiError{kindRuntime, fmt.Sprintf(format, args...)}
}

// kindOf returns the kind of err; errors without one are runtime errors.
func kindOf(err error) errKind {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.kind
	}
	return kindRuntime
}

// handle is one pool made through the C API. Its mutex serialises the C calls on it.
// A recv runs on the calling thread (the Python side releases the GIL) and waits at
// most its timeout: a batch not complete by then is returned by the next recv, so the
// caller can poll and stay responsive to Ctrl-C.
type handle struct {
	mu     sync.Mutex
	id     int64
	family string
	pool   *envpool.Pool
	spec   envpool.Spec
	opts   envpool.Options // resolved

	closed bool

	errMsg  string
	errKind errKind
}

var (
	regMu     sync.Mutex
	handles   = map[int64]*handle{}
	nextID    int64
	globalErr string
	globalKnd errKind
)

// setGlobalErr records err as the global last error.
func setGlobalErr(err error) {
	regMu.Lock()
	defer regMu.Unlock()
	if err == nil {
		globalErr, globalKnd = "", kindNone
		return
	}
	globalErr, globalKnd = err.Error(), kindOf(err)
}

// fail records err for handle h (when it exists) and globally.
func fail(hid int64, err error) {
	setGlobalErr(err)
	regMu.Lock()
	h := handles[hid]
	regMu.Unlock()
	if h != nil {
		h.setErr(err)
	}
}

// setErr records the handle's last error. It does not take h.mu: it is called with
// and without it held, so the fields are guarded by regMu instead.
func (h *handle) setErr(err error) {
	regMu.Lock()
	defer regMu.Unlock()
	h.errMsg, h.errKind = err.Error(), kindOf(err)
}

// lookup returns the open handle with that id, or an error saying why not.
func lookup(hid int64) (*handle, error) {
	regMu.Lock()
	h := handles[hid]
	regMu.Unlock()
	if h == nil {
		return nil, valueErr("rlpool: no pool with handle %d (rlp_make returns handles > 0)", hid)
	}
	return h, nil
}

// poolOptions are the option keys that configure the pool, EnvPool's names; every
// other key goes to the task's family, which rejects the ones it does not take.
type poolOptions struct {
	NumEnvs         int   `toml:"num_envs" help:"env instances"`
	BatchSize       int   `toml:"batch_size" help:"envs per batch; 0: num_envs (sync mode)"`
	NumThreads      int   `toml:"num_threads" help:"worker threads; 0: min(batch_size, cores)"`
	Seed            int64 `toml:"seed" help:"env i is seeded seed+i"`
	MaxEpisodeSteps int   `toml:"max_episode_steps" help:"time limit; 0: the task's (Atari's is its own option)"`
	ThreadAffinity  bool  `toml:"thread_affinity" help:"pin workers to cores"`
	// ThreadAffinityOffset follows EnvPool: -1 leaves threads unpinned, >= 0 pins them
	// from that core.
	ThreadAffinityOffset int    `toml:"thread_affinity_offset" range:"[-1,inf)" help:"first core to pin to; -1: no pinning"`
	AutoReset            string `toml:"auto_reset" oneof:"next_step|same_step" help:"when a finished env resets"`
}

// poolDecoder names the pool's keys in errors as options of rlpool.make.
var poolDecoder = option.Decoder{Noun: "option", Root: "rlpool.make"}

// parseOptions splits the options JSON into the pool's options and the family's.
// envTimeLimit (the task's envs.Task.EnvTimeLimit) sends max_episode_steps to the
// family, whose envs end episodes themselves.
func parseOptions(envTimeLimit bool, optionsJSON string) (envpool.Options, map[string]any, error) {
	var m map[string]any
	if strings.TrimSpace(optionsJSON) != "" {
		if err := json.Unmarshal([]byte(optionsJSON), &m); err != nil {
			return envpool.Options{}, nil, valueErr("rlpool: options are not a JSON object: %v", err)
		}
	}
	pool, fam := map[string]any{}, map[string]any{}
	poolKeys := option.Keys(&poolOptions{})
	for k, v := range m {
		if v == nil { // Python's None: the default
			continue
		}
		// A family that keeps its own time limit takes max_episode_steps (Atari's is
		// EnvPool's 27000): the env itself truncates and sets the spec's limit.
		if slices.Contains(poolKeys, k) && !(k == "max_episode_steps" && envTimeLimit) {
			pool[k] = v
		} else {
			fam[k] = v
		}
	}
	p := poolOptions{NumEnvs: 1, ThreadAffinityOffset: -1, AutoReset: "next_step"}
	if err := poolDecoder.Decode(pool, &p); err != nil {
		return envpool.Options{}, nil, valueErr("rlpool: %v", err)
	}
	o := envpool.Options{NumEnvs: p.NumEnvs, BatchSize: p.BatchSize, NumThreads: p.NumThreads, Seed: p.Seed,
		MaxEpisodeSteps: p.MaxEpisodeSteps, ThreadAffinity: p.ThreadAffinityOffset >= 0,
		ThreadAffinityOffset: max(p.ThreadAffinityOffset, 0)}
	if _, given := pool["thread_affinity"]; given {
		o.ThreadAffinity = p.ThreadAffinity
	}
	ar, err := envpool.ParseAutoReset(p.AutoReset)
	if err != nil {
		return o, nil, valueErr("rlpool: option %v", strings.TrimPrefix(err.Error(), "envpool: "))
	}
	o.AutoReset = ar
	return o, fam, nil
}

// configure looks up task id and checks the options against it: the task's spec and
// env factory, and the pool's options resolved for that spec. It builds no env.
func configure(id, optionsJSON string) (envs.Task, envpool.Spec, envpool.Factory, envpool.Options, error) {
	task, err := envs.Lookup(id)
	if err != nil {
		return task, envpool.Spec{}, nil, envpool.Options{}, valueErr("%v", err)
	}
	opts, fam, err := parseOptions(task.EnvTimeLimit, optionsJSON)
	if err != nil {
		return task, envpool.Spec{}, nil, opts, err
	}
	spec, factory, err := task.New(fam)
	if err != nil {
		return task, spec, nil, opts, valueErr("rlpool: %s: %v", id, err)
	}
	resolved, err := opts.Resolve(&spec)
	if err != nil {
		return task, spec, nil, opts, valueErr("%v", err)
	}
	return task, spec, factory, resolved, nil
}

// makeHandle builds a pool of task id with the given options and registers it.
func makeHandle(id, optionsJSON string) (int64, error) {
	task, spec, factory, resolved, err := configure(id, optionsJSON)
	if err != nil {
		return -1, err
	}
	h := &handle{family: task.Family, spec: spec, opts: resolved}
	pool, err := envpool.New(spec, factory, resolved)
	if err != nil {
		return -1, runtimeErr("rlpool: %s: %v", id, err)
	}
	h.pool = pool

	regMu.Lock()
	nextID++
	h.id = nextID
	handles[h.id] = h
	regMu.Unlock()
	return h.id, nil
}

func (h *handle) checkOpen() error {
	if h.closed {
		return runtimeErr("rlpool: pool %d (%s) is closed", h.id, h.spec.TaskID)
	}
	return nil
}

// send queues one step for the envs in ids (nil: every env). The pool checks the
// actions and ids; what it refuses is a bad argument.
func (h *handle) send(actions []float32, ids []int32) error {
	if err := h.checkOpen(); err != nil {
		return err
	}
	if err := h.pool.Send(actions, ids); err != nil {
		return valueErr("rlpool: %s", strings.TrimPrefix(err.Error(), "envpool: "))
	}
	return nil
}

// resetIDs queues a reset of the envs in ids only (EnvPool's reset(env_id)).
func (h *handle) resetIDs(ids []int32) error {
	if err := h.checkOpen(); err != nil {
		return err
	}
	if len(ids) == 0 {
		return valueErr("rlpool: reset: no env ids given")
	}
	if err := h.pool.SendReset(ids); err != nil {
		return valueErr("rlpool: reset: %s", strings.TrimPrefix(err.Error(), "envpool: SendReset: "))
	}
	return nil
}

// asyncReset queues a reset of every env; no env may be in flight.
func (h *handle) asyncReset() error {
	if err := h.checkOpen(); err != nil {
		return err
	}
	if err := h.pool.AsyncReset(); err != nil {
		return runtimeErr("rlpool: %s", strings.TrimPrefix(err.Error(), "envpool: "))
	}
	return nil
}

// outBufs are the caller's buffers for one recv, each BatchSize rows long (obs and
// finalObs in the observation dtype; finalObs may be nil).
type outBufs struct {
	obs, finalObs     unsafe.Pointer
	reward            []float32
	terminated, trunc []uint8
	envID, elapsed    []int32
	info              []float32
}

// recv waits up to timeout (negative: forever) for the next batch and copies it into
// out. It returns the number of rows, or 0 when the wait timed out (the batch is then
// returned by the next call).
func (h *handle) recv(timeout time.Duration, out func(rows int) outBufs) (int, error) {
	if err := h.checkOpen(); err != nil {
		return -1, err
	}
	var b *envpool.Batch
	var err error
	if timeout < 0 {
		b, err = h.pool.Recv()
	} else {
		var ok bool
		if b, ok, err = h.pool.RecvTimeout(timeout); !ok && err == nil {
			return 0, nil
		}
	}
	if b == nil {
		return -1, runtimeErr("%v", err)
	}
	rows := b.Size
	o := out(rows)
	if b.ObsU8 != nil {
		copy(unsafe.Slice((*uint8)(o.obs), len(b.ObsU8)), b.ObsU8)
		if o.finalObs != nil && b.FinalObsU8 != nil {
			copy(unsafe.Slice((*uint8)(o.finalObs), len(b.FinalObsU8)), b.FinalObsU8)
		}
	} else {
		copy(unsafe.Slice((*float32)(o.obs), len(b.ObsF32)), b.ObsF32)
		if o.finalObs != nil && b.FinalObsF32 != nil {
			copy(unsafe.Slice((*float32)(o.finalObs), len(b.FinalObsF32)), b.FinalObsF32)
		}
	}
	copy(o.reward, b.Reward[:rows])
	copy(o.terminated, boolBytes(b.Terminated[:rows]))
	copy(o.trunc, boolBytes(b.Truncated[:rows]))
	copy(o.envID, b.EnvID[:rows])
	copy(o.elapsed, b.ElapsedStep[:rows])
	if len(o.info) > 0 {
		copy(o.info, b.Info[:rows*b.InfoSize])
	}
	if err != nil {
		return -1, runtimeErr("%v", err)
	}
	return rows, nil
}

// boolBytes views a bool slice as bytes (Go stores bools as 0 or 1).
func boolBytes(b []bool) []uint8 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*uint8)(unsafe.Pointer(&b[0])), len(b))
}

// close closes the pool.
func (h *handle) close() error {
	if h.closed {
		return nil
	}
	h.closed = true
	err := h.pool.Close()
	h.pool = nil
	if err != nil {
		return runtimeErr("rlpool: close: %v", err)
	}
	return nil
}

// jsonFloat encodes a float for JSON, with infinities and NaN as strings.
func jsonFloat(v float32) any {
	f := float64(v)
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	return f
}

// bounds encodes per-element bounds: one number when they are all equal, else a list.
func bounds(xs []float32) any {
	if len(xs) == 0 {
		return nil
	}
	uniform := true
	for _, x := range xs[1:] {
		uniform = uniform && (x == xs[0] || (x != x && xs[0] != xs[0]))
	}
	if uniform {
		return jsonFloat(xs[0])
	}
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = jsonFloat(x)
	}
	return out
}

// specJSON describes the pool for the Python side.
func (h *handle) specJSON() (string, error) {
	if err := h.checkOpen(); err != nil {
		return "", err
	}
	return describe(h.family, &h.spec, h.opts)
}

// describe encodes a task's spec and a pool's resolved options as the JSON object the
// Python side reads (rlp_spec, rlp_task_spec).
func describe(family string, s *envpool.Spec, o envpool.Options) (string, error) {
	act := map[string]any{}
	if s.ActionSpace.Kind == envpool.Discrete {
		act["kind"], act["n"], act["shape"], act["dtype"] = "discrete", s.ActionSpace.N, []int{}, "int64"
	} else {
		act["kind"], act["shape"], act["dtype"] = "box", s.ActionSpace.Shape, "float32"
		act["low"], act["high"] = bounds(s.ActionSpace.Low), bounds(s.ActionSpace.High)
	}
	obsShape, obsLow, obsHigh := s.ObsSpace.Shape, bounds(s.ObsSpace.Low), bounds(s.ObsSpace.High)
	if s.ObsSpace.Kind == envpool.Discrete {
		// A discrete state (the toy-text tasks' default) is one value in [0, n): a
		// scalar per env, as EnvPool's observation is.
		obsShape, obsLow, obsHigh = []int{}, 0.0, float64(s.ObsSpace.N-1)
	}
	var threshold any
	if s.HasRewardThreshold() {
		threshold = s.RewardThreshold
	}
	var renderFPS any // null when the family declares no rate
	if s.RenderFPS > 0 {
		renderFPS = s.RenderFPS
	}
	infoKeys, infoLens := []string{}, []int{}
	for _, k := range s.InfoKeys {
		_, n := s.InfoSpan(k)
		infoKeys, infoLens = append(infoKeys, k), append(infoLens, n)
	}
	layout := []map[string]any{}
	for _, f := range s.ObsLayout {
		layout = append(layout, map[string]any{"name": f.Name, "offset": f.Offset, "size": f.Size, "scalar": f.Scalar, "frames": max(f.Frames, 1), "shape": f.Shape})
	}
	affinity := -1
	if o.ThreadAffinity {
		affinity = o.ThreadAffinityOffset
	}
	m := map[string]any{
		"task_id":                s.TaskID,
		"family":                 family,
		"obs_shape":              obsShape,
		"obs_dtype":              s.ObsSpace.DType.String(),
		"obs_low":                obsLow,
		"obs_high":               obsHigh,
		"obs_layout":             layout,
		"action_space":           act,
		"info_keys":              infoKeys,
		"info_lens":              infoLens,
		"options":                jsonOptions(s.Options),
		"num_envs":               o.NumEnvs,
		"batch_size":             o.BatchSize,
		"num_threads":            o.NumThreads,
		"seed":                   o.Seed,
		"max_episode_steps":      o.MaxEpisodeSteps,
		"frame_skip":             s.FrameSkip,
		"reward_threshold":       threshold,
		"render_fps":             renderFPS,
		"auto_reset":             o.AutoReset.String(),
		"thread_affinity_offset": affinity,
	}
	data, err := json.Marshal(m)
	return string(data), err
}

// listTasksJSON returns the registered task ids as a JSON array.
func listTasksJSON() string {
	ids := envs.List()
	sort.Strings(ids)
	data, _ := json.Marshal(ids)
	return string(data)
}

// jsonOptions returns the task's options that JSON can carry: a value it cannot (a
// non-finite number) is left out rather than failing the whole spec.
func jsonOptions(opts map[string]any) map[string]any {
	out := make(map[string]any, len(opts))
	for k, v := range opts {
		if _, err := json.Marshal(v); err == nil {
			out[k] = v
		}
	}
	return out
}
