package atari

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
)

// stepRecord is everything an env reports for one step (or for the reset after it).
type stepRecord struct {
	res  envpool.StepResult
	obs  string
	info string
}

// playRecorded plays actions, resetting after each episode end as the pool does, and
// records every step's result, observation and info.
func playRecorded(e *Env, spec envpool.Spec, actions []int) []stepRecord {
	var out []stepRecord
	for _, a := range actions {
		res := e.Step([]float32{float32(a)})
		obs, info := observe(e, spec)
		out = append(out, stepRecord{res, string(obs), string(float32Bytes(info))})
		if res.Terminated || res.Truncated {
			e.Reset()
			obs, info := observe(e, spec)
			out = append(out, stepRecord{obs: string(obs), info: string(float32Bytes(info))})
		}
	}
	return out
}

// float32Bytes returns the bits of xs, so that records compare bit for bit.
func float32Bytes(xs []float32) []byte {
	var b []byte
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// randomActionList draws n actions below k.
func randomActionList(r *rand.Rand, n, k int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = r.IntN(k)
	}
	return out
}

// TestEnvStateRoundTrip plays a game with sticky actions, noop starts and episodic
// life, saves the env, records the following steps (across episode ends: lives lost,
// games over, time limits), then restores the state into a fresh env built with
// another seed that has played differently and replays the same actions: every step's
// result, observation and info must be bit-identical. The games cover plain, F8, E0,
// FE, DPC and Superchip cartridges, paddles and joysticks, and readers with their own
// bookkeeping (Breakout's).
func TestEnvStateRoundTrip(t *testing.T) {
	cases := []struct {
		game     string
		mutate   func(*EnvConfig)
		wantTerm bool // a life loss or game over must fall in the recorded steps
	}{
		{game: "pong"},
		{game: "breakout", wantTerm: true},
		{game: "ms_pacman", wantTerm: true},
		{game: "montezuma_revenge", wantTerm: true},
		{game: "robotank"},
		{game: "pitfall2"},
		{game: "elevator_action"},
		{game: "road_runner"},
		{game: "klax"},
		{game: "space_invaders", mutate: func(c *EnvConfig) {
			c.GrayScale, c.StackNum, c.FrameSkip, c.RewardClip, c.ZeroDiscountOnLifeLoss = false, 2, 3, true, true
		}},
	}
	const before, after = 300, 500
	for i, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			mutate := func(cfg *EnvConfig) {
				cfg.RepeatActionProbability, cfg.NoopMax, cfg.EpisodicLife = 0.25, 30, true
				cfg.MaxEpisodeSteps = before + after/2 // a time limit falls in the recorded steps
				if c.mutate != nil {
					c.mutate(cfg)
				}
			}
			e, spec := testEnv(t, c.game, int64(i+1), mutate)
			r := rand.New(rand.NewPCG(uint64(i), 7))
			e.Reset()
			playRecorded(e, spec, randomActionList(r, before, spec.ActionSpace.N))
			state, err := e.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			acts := randomActionList(r, after, spec.ActionSpace.N)
			want := playRecorded(e, spec, acts)
			terms := 0
			for _, w := range want {
				terms += b2i(w.res.Terminated)
			}
			if c.wantTerm && terms == 0 {
				t.Fatalf("no life loss or game over in the %d recorded steps; the test does not cover one", after)
			}

			f, _ := testEnv(t, c.game, 999, mutate)
			f.Reset()
			playRecorded(f, spec, randomActionList(r, 77, spec.ActionSpace.N))
			if err := f.UnmarshalBinary(state); err != nil {
				t.Fatal(err)
			}
			again, err := f.MarshalBinary()
			if err != nil || !bytes.Equal(again, state) {
				t.Fatalf("the restored env saves a different state (err %v)", err)
			}
			got := playRecorded(f, spec, acts)
			if len(got) != len(want) {
				t.Fatalf("restored env gave %d records, the original %d", len(got), len(want))
			}
			for k := range want {
				if got[k] != want[k] {
					t.Fatalf("record %d after restoring differs: result %+v, want %+v (observation equal: %v, info equal: %v)",
						k, got[k].res, want[k].res, got[k].obs == want[k].obs, got[k].info == want[k].info)
				}
			}
			t.Logf("%d bytes of state; %d records compared, %d terminations", len(state), len(want), terms)
		})
	}
}

// TestEnvStateErrors checks that damaged states, states of other versions, games and
// configurations are errors, never panics, and leave the env as it was.
func TestEnvStateErrors(t *testing.T) {
	e, spec := testEnv(t, "breakout", 1, nil)
	e.Reset()
	playRecorded(e, spec, []int{1, 2, 3, 2, 1})
	good, err := e.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	reseal := func(f func(b []byte)) []byte {
		b := bytes.Clone(good)
		f(b)
		n := len(b) - 4
		binary.LittleEndian.PutUint32(b[n:], crc32.ChecksumIEEE(b[:n]))
		return b
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 1
	other, _ := testEnv(t, "pong", 1, nil)
	other.Reset()
	pong, err := other.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	stacked, _ := testEnv(t, "breakout", 1, func(c *EnvConfig) { c.StackNum = 2 })
	stacked.Reset()
	two, err := stacked.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, want string
		b          []byte
	}{
		{"empty", "truncated", nil},
		{"cut", "damaged", good[:len(good)-100]},
		{"flipped bit", "damaged", flipped},
		{"future version", "format version 9", reseal(func(b []byte) { b[0] = 9 })},
		{"another game", "saved from pong", pong},
		{"another stack", "stack_num 2", two},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := e.UnmarshalBinary(c.b)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one mentioning %q", err, c.want)
			}
			if now, err := e.MarshalBinary(); err != nil || !bytes.Equal(now, good) {
				t.Fatal("a refused state changed the env")
			}
		})
	}
}

// TestReaderStateFields checks, for every game, that the reader lists each of its
// int and bool fields exactly once for saving: as many pointers as the struct has
// such fields, all different and all inside the reader.
func TestReaderStateFields(t *testing.T) {
	for _, g := range supportedGames {
		r := g.NewReader()
		sr, ok := r.(savedReader)
		if !ok {
			t.Errorf("%s: reader %T cannot save its state", g.Name, r)
			continue
		}
		v := reflect.ValueOf(r)
		base, size := v.Pointer(), v.Elem().Type().Size()
		ints, bools := sr.stateFields()
		seen := map[uintptr]bool{}
		var ptrs []uintptr
		for _, p := range ints {
			ptrs = append(ptrs, reflect.ValueOf(p).Pointer())
		}
		for _, p := range bools {
			ptrs = append(ptrs, reflect.ValueOf(p).Pointer())
		}
		for _, p := range ptrs {
			if p < base || p >= base+size || seen[p] {
				t.Errorf("%s: reader %T lists a field twice or one outside it", g.Name, r)
			}
			seen[p] = true
		}
		if want := countLeaves(v.Elem().Type()); len(ptrs) != want {
			t.Errorf("%s: reader %T lists %d fields for saving, it has %d", g.Name, r, len(ptrs), want)
		}
	}
}

// countLeaves counts the ints and bools of a type, through structs and arrays; any
// other kind counts as a field no state list can hold.
func countLeaves(typ reflect.Type) int {
	switch typ.Kind() {
	case reflect.Struct:
		n := 0
		for i := range typ.NumField() {
			n += countLeaves(typ.Field(i).Type)
		}
		return n
	case reflect.Array:
		return typ.Len() * countLeaves(typ.Elem())
	case reflect.Int, reflect.Bool:
		return 1
	}
	return 1 << 20
}
