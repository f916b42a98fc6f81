package play

import (
	"math"
	"os"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rlpool/rlpool/agent/model"
	_ "github.com/rlpool/rlpool/envs/atari"
)

// A PPO Pong checkpoint (net.network auto, the Nature CNN, or small_cnn) loads for
// playing, and the player's logits are the trained policy's: the same as agent's CNN
// policy computes from the checkpoint's weights.
func TestPPONatureCNN(t *testing.T) {
	roms := os.Getenv("RLPOOL_ROMS")
	if roms == "" {
		t.Skip("RLPOOL_ROMS is not set: no Pong ROM")
	}
	for _, network := range []string{model.NetworkAuto, model.NetworkSmallCNN} {
		t.Run(network, func(t *testing.T) {
			sets := []string{"run.dir=" + t.TempDir(), "run.name=pong", "run.total_steps=16", "run.threads=1",
				"run.log_interval=16", "run.checkpoint_interval=0", "env.task=Pong-v5", "env.num_envs=2",
				"env.options.roms_dir=" + roms, "ppo.num_steps=8", "ppo.num_minibatches=1", "ppo.update_epochs=1",
				"net.network=" + network}
			a, dir := trainCNN(t, sets)
			obs, got := patternOutput(t, a, 13)
			ck := latestCheckpoint(t, dir)
			resolved, err := model.ResolveNetwork(network, &a.Spec)
			if err != nil {
				t.Fatal(err)
			}
			p, err := model.NewCNNPolicy(&a.Spec, a.Config.Net, model.CNNArch(resolved))
			if err != nil {
				t.Fatal(err)
			}
			g := G.NewGraph()
			x, in := p.ObsInput(g, tensor.Float32, "obs", 1)
			pn, err := p.Build(g, x)
			if err != nil {
				t.Fatal(err)
			}
			var out G.Value
			G.Read(pn.Out, &out)
			m := G.NewTapeMachine(g)
			defer m.Close()
			if err := ck.GetParams("", p.Params()); err != nil {
				t.Fatal(err)
			}
			copy(in.Data().([]uint8), obs)
			if err := m.RunAll(); err != nil {
				t.Fatal(err)
			}
			want := out.Data().([]float32)
			for i := range want {
				if math.Abs(float64(got[i]-want[i])) > 1e-4 {
					t.Fatalf("player logits %v, policy logits %v", got, want)
				}
			}
		})
	}
}
