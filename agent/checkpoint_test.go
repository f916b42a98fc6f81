package agent

import (
	"testing"

	"github.com/rlpool/rlpool/agent/model"
	"github.com/rlpool/rlpool/agent/nn"
	"github.com/rlpool/rlpool/envpool"
)

// The small torso and the Nature CNN name their layers alike, but a checkpoint of one
// does not load into the other: the shapes differ and GetParams says so.
func TestCheckpointTorsosDoNotMix(t *testing.T) {
	spec := envpool.Spec{TaskID: "Pix-v0", ObsSpace: envpool.UniformBox(0, 255, envpool.Uint8, 4, 84, 84),
		ActionSpace: envpool.DiscreteSpace(6)}
	small, err := model.NewCNNPolicy(&spec, model.DefaultNetConfig(), &nn.SmallArch)
	if err != nil {
		t.Fatal(err)
	}
	nature, err := model.NewCNNPolicy(&spec, model.DefaultNetConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ck := &Checkpoint{F32: map[string][]float32{}}
	ck.PutParams("", nature.Params())
	if err := ck.GetParams("", small.Params()); err == nil {
		t.Error("a Nature CNN checkpoint loaded into the small torso")
	}
	ck = &Checkpoint{F32: map[string][]float32{}}
	ck.PutParams("", small.Params())
	if err := ck.GetParams("", nature.Params()); err == nil {
		t.Error("a small torso's checkpoint loaded into the Nature CNN")
	}
}
