package impala

import (
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent"
)

// testdata/legacy-nature-cnn.ckpt.gz is a checkpoint of the pixel guessing task written
// by a build that named the Nature CNN's heads policy_w, policy_b, value_w and value_b
// (two learner steps, RMSProp state included); the JSON beside it holds what that
// build's network computed on a fixed observation.
type legacyFacts struct {
	Logits   []float32 `json:"logits"`
	Version  int64     `json:"version"`
	EnvSteps int64     `json:"env_steps"`
}

func readLegacy(t *testing.T) (*agent.Checkpoint, legacyFacts) {
	t.Helper()
	f, err := os.Open("testdata/legacy-nature-cnn.ckpt.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	c, err := agent.ReadCheckpoint(zr)
	if err != nil {
		t.Fatal(err)
	}
	var facts legacyFacts
	b, err := os.ReadFile("testdata/legacy-nature-cnn.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &facts); err != nil {
		t.Fatal(err)
	}
	return c, facts
}

// An old checkpoint resumes: weights and optimiser state load under the new names, the
// counters carry on, and training continues.
func TestLegacyCheckpointResumes(t *testing.T) {
	c, facts := readLegacy(t)
	l, err := newLearner(guessSetup(true, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Load(c); err != nil {
		t.Fatalf("Load: %v", err)
	}
	if l.Version() != facts.Version || l.EnvSteps() != facts.EnvSteps {
		t.Fatalf("version %d, env steps %d; the checkpoint has %d and %d", l.Version(), l.EnvSteps(), facts.Version, facts.EnvSteps)
	}
	if l.pendingOpt == nil || len(l.pendingOpt.S1) != len(l.net.params) {
		t.Fatal("the optimiser state did not load under the new names")
	}
	if _, _, err := l.Iterate(); err != nil {
		t.Fatal(err)
	}
}

// An old checkpoint evaluates: the policy restored for `train eval` computes the logits
// the old build computed.
func TestLegacyCheckpointEvaluates(t *testing.T) {
	c, facts := readLegacy(t)
	s := guessSetup(true, nil)
	tr, err := Algorithm.Policy(&s.IMPALA, s.Net, &s.Spec, c)
	if err != nil {
		t.Fatal(err)
	}
	g := G.NewGraph()
	x, in := tr.Policy.ObsInput(g, tensor.Float32, "obs", 1)
	pn, err := tr.Policy.Build(g, x)
	if err != nil {
		t.Fatal(err)
	}
	var out G.Value
	G.Read(pn.Out, &out)
	saved := make([][]float32, 0)
	for _, p := range tr.Policy.Params() {
		saved = append(saved, append([]float32(nil), p.F32()...))
	}
	m := G.NewTapeMachine(g)
	defer m.Close()
	for i, p := range tr.Policy.Params() {
		copy(p.F32(), saved[i])
	}
	obs := in.Data().([]uint8)
	for i := range obs {
		obs[i] = uint8(i * 13)
	}
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	got := out.Data().([]float32)
	for i, want := range facts.Logits {
		if math.Abs(float64(got[i]-want)) > 1e-5 {
			t.Fatalf("logits %v, the old build computed %v", got, facts.Logits)
		}
	}
}
