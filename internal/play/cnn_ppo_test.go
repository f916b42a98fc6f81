package play

import (
	"os"
	"testing"

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
			if err := ck.GetParams("", p.Params()); err != nil {
				t.Fatal(err)
			}
			requireClose(t, "player logits", got, "policy logits", graphOutput(t, p, obs), 1e-4)
		})
	}
}
