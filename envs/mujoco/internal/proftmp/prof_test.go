package proftmp

import (
	"os"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/rlpool/rlpool/agent"
	"github.com/rlpool/rlpool/agent/ppo"
	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	_ "github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/internal/blas"
)

func TestProfileAnt(t *testing.T) {
	t.Log(blas.Use())
	spec, factory, err := func() (envpool.Spec, envpool.Factory, error) {
		tk, _ := envs.Lookup("Ant-v4")
		return tk.New(nil)
	}()
	if err != nil {
		t.Fatal(err)
	}
	cfg := ppo.DefaultConfig()
	cfg.NumSteps, cfg.LearningRate, cfg.Gamma, cfg.NumMinibatches, cfg.UpdateEpochs = 128, 3e-4, 0.99, 4, 10
	cfg.EntCoef, cfg.ClipVLoss, cfg.NormObs, cfg.NormReward = 0, false, true, true
	net := agent.DefaultNetConfig()
	net.InitLogStd = -1
	if os.Getenv("BIG") != "" {
		net.Hidden, net.Activation, net.OrthoInit, net.InitLogStd = []int{256, 256}, "relu", false, -2
	}
	if os.Getenv("MID") != "" {
		net.Hidden, net.Activation, net.OrthoInit, net.InitLogStd = []int{128, 128}, "relu", false, -2
	}
	tr, err := ppo.New(ppo.Setup{Spec: spec, Factory: factory, Pool: envpool.Options{NumEnvs: 16, BatchSize: 8, NumThreads: 2},
		Net: net, PPO: cfg, Seed: 1, TotalSteps: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	f, _ := os.Create("/tmp/train_cpu.out")
	pprof.StartCPUProfile(f)
	start := time.Now()
	for range 10 {
		if _, _, err := tr.Iterate(); err != nil {
			t.Fatal(err)
		}
	}
	pprof.StopCPUProfile()
	t.Logf("%d steps in %v", tr.EnvSteps(), time.Since(start))
}
