package box2d

import (
	"encoding"
	"image"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// ids are the family's tasks, as EnvPool 1.2.4 registers them.
var ids = []string{
	"LunarLander-v2", "LunarLander-v3", "LunarLanderContinuous-v2", "LunarLanderContinuous-v3",
	"BipedalWalker-v3", "BipedalWalkerHardcore-v3", "CarRacing-v2", "CarRacing-v3",
}

func TestRegistered(t *testing.T) {
	for _, id := range ids {
		task, err := envs.Lookup(id)
		if err != nil || task.Family != family {
			t.Errorf("%s: %v, family %q", id, err, task.Family)
		}
	}
}

// randomAction draws an action from the spec's space.
func randomAction(r *rand.Rand, sp envpool.Space) []float32 {
	if sp.Kind == envpool.Discrete {
		return []float32{float32(r.IntN(sp.N))}
	}
	a := make([]float32, sp.Size())
	for i := range a {
		a[i] = sp.Low[i] + (sp.High[i]-sp.Low[i])*r.Float32()
	}
	return a
}

// obsOf reads an env's whole observation as bytes-comparable values.
func obsOf(env envpool.Env, spec envpool.Spec) ([]float32, []uint8) {
	n := spec.ObsSpace.Size()
	if spec.ObsSpace.DType == envpool.Uint8 {
		o := make([]uint8, n)
		env.Observe(envpool.Obs{U8: o}, nil)
		return nil, o
	}
	o := make([]float32, n)
	env.Observe(envpool.Obs{F32: o}, nil)
	return o, nil
}

// TestStateRoundTrip saves an env mid-episode, restores it into a fresh env of another
// seed, and requires both to continue identically under the same actions.
func TestStateRoundTrip(t *testing.T) {
	for _, id := range ids {
		a, spec := makeEnv(t, id, nil, 11)
		b, _ := makeEnv(t, id, nil, 99)
		r := rand.New(rand.NewPCG(1, 2))
		a.Reset()
		for range 40 {
			if a.Step(randomAction(r, spec.ActionSpace)).Terminated {
				a.Reset()
			}
		}
		data, err := a.(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil {
			t.Fatalf("%s: MarshalBinary: %v", id, err)
		}
		if err := b.(encoding.BinaryUnmarshaler).UnmarshalBinary(data); err != nil {
			t.Fatalf("%s: UnmarshalBinary: %v", id, err)
		}
		for step := range 60 {
			act := randomAction(r, spec.ActionSpace)
			ra, rb := a.Step(act), b.Step(act)
			fa, ua := obsOf(a, spec)
			fb, ub := obsOf(b, spec)
			if ra != rb || !equalF32(fa, fb) || string(ua) != string(ub) {
				t.Fatalf("%s: restored env departs at step %d: %+v vs %+v", id, step, ra, rb)
			}
			if ra.Terminated {
				a.Reset()
				b.Reset()
			}
		}
		if err := b.(encoding.BinaryUnmarshaler).UnmarshalBinary(data[:len(data)-3]); err == nil {
			t.Errorf("%s: a truncated state was accepted", id)
		}
		if err := b.(encoding.BinaryUnmarshaler).UnmarshalBinary([]byte("nonsense")); err == nil || !strings.Contains(err.Error(), "env state") {
			t.Errorf("%s: a foreign state gave %v", id, err)
		}
	}
}

func equalF32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRenderNotBlank draws every task after a few steps and requires a picture of the
// spec's size with more than one colour.
func TestRenderNotBlank(t *testing.T) {
	for _, id := range ids {
		env, spec := makeEnv(t, id, nil, 2)
		env.Reset()
		for range 5 {
			env.Step(randomAction(rand.New(rand.NewPCG(3, 4)), spec.ActionSpace))
		}
		img, err := env.(envpool.Renderer).Render()
		if err != nil {
			t.Fatalf("%s: Render: %v", id, err)
		}
		if b := img.Bounds(); b.Dx() != spec.RenderWidth || b.Dy() != spec.RenderHeight {
			t.Errorf("%s: picture %v, want %d x %d", id, b, spec.RenderWidth, spec.RenderHeight)
		}
		if n := colours(img); n < 3 {
			t.Errorf("%s: picture has %d colours, want a drawing", id, n)
		}
	}
}

// colours counts the distinct colours of a picture.
func colours(img image.Image) int {
	seen := map[[3]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r, g, bl}] = true
		}
	}
	return len(seen)
}

// TestSeedsDiffer checks that envs draw from their own seeded generators: equal seeds
// give equal first observations, different seeds different ones.
func TestSeedsDiffer(t *testing.T) {
	for _, id := range ids {
		a, spec := makeEnv(t, id, nil, 7)
		b, _ := makeEnv(t, id, nil, 7)
		c, _ := makeEnv(t, id, nil, 8)
		for _, e := range []envpool.Env{a, b, c} {
			e.Reset()
		}
		fa, ua := obsOf(a, spec)
		fb, ub := obsOf(b, spec)
		fc, uc := obsOf(c, spec)
		if !equalF32(fa, fb) || string(ua) != string(ub) {
			t.Errorf("%s: equal seeds gave different first observations", id)
		}
		if equalF32(fa, fc) && string(ua) == string(uc) {
			t.Errorf("%s: seeds 7 and 8 gave the same first observation", id)
		}
	}
}
