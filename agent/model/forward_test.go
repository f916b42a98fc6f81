package model

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"

	"github.com/rlpool/rlpool/envpool"
)

// The acting pass computes what the training graph computes on the same weights and
// observations (up to float32 rounding), puts batch rows where SetObs says, and keeps
// weights set before it was built.
func TestForwardMatchesTrainingGraph(t *testing.T) {
	spec := envpool.Spec{TaskID: "Vec-v0", ObsSpace: envpool.UniformBox(-1, 1, envpool.Float32, 3), ActionSpace: envpool.DiscreteSpace(2)}
	cfg := DefaultNetConfig()
	cfg.Hidden, cfg.Backend = []int{5}, "go"
	p, err := New(cfg, &spec)
	if err != nil {
		t.Fatal(err)
	}
	p.Init(rand.New(rand.NewPCG(1, 2)))
	before := append([]float32(nil), p.Actor.Params[0].F32()...)
	f, err := NewForward(p, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range p.Actor.Params[0].F32() {
		if w != before[i] {
			t.Fatalf("building the acting pass changed weight %d from %v to %v", i, before[i], w)
		}
	}
	// Batch rows 1 and 0 go to inputs 0 and 1.
	b := &envpool.Batch{ObsSize: 3, ObsF32: []float32{0.5, -0.25, 1, -1, 0.75, 0.125}}
	f.SetObs(0, b, 1)
	f.SetObs(1, b, 0)
	out, value, err := f.Run()
	if err != nil {
		t.Fatal(err)
	}

	g := G.NewGraph()
	x, in := Input(g, p.Actor.Params[0].T.Dtype(), "obs", 2, 3)
	copy(in.Data().([]float32), []float32{-1, 0.75, 0.125, 0.5, -0.25, 1})
	pn, err := p.Build(g, x)
	if err != nil {
		t.Fatal(err)
	}
	var wantOut, wantValue G.Value
	G.Read(pn.Out, &wantOut)
	G.Read(pn.Value, &wantValue)
	m := G.NewTapeMachine(g)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	for name, pair := range map[string][2][]float32{"logits": {out, wantOut.Data().([]float32)}, "values": {value, wantValue.Data().([]float32)}} {
		got, want := pair[0], pair[1]
		if len(got) != len(want) {
			t.Fatalf("%s: %d values, want %d", name, len(got), len(want))
		}
		for i := range want {
			if math.Abs(float64(got[i]-want[i])) > 1e-6 {
				t.Errorf("%s: acting pass %v, training graph %v", name, got, want)
				break
			}
		}
	}
}
