package model

import (
	"strings"
	"testing"

	"github.com/rlpool/rlpool/agent/nn"
	"github.com/rlpool/rlpool/envpool"
)

// Resolve decides each setting once: auto becomes a network from the observations,
// an MLP policy runs on the Go kernels whatever net.backend says (and its line says
// why), a CNN torso runs on the backend asked for, and the decided section resolves
// to itself.
func TestResolve(t *testing.T) {
	pix := envpool.Spec{TaskID: "Pix-v0", ObsSpace: envpool.UniformBox(0, 255, envpool.Uint8, 4, 84, 84), ActionSpace: envpool.DiscreteSpace(6)}
	vec := envpool.Spec{TaskID: "Vec-v0", ObsSpace: envpool.UniformBox(-1, 1, envpool.Float32, 4), ActionSpace: envpool.DiscreteSpace(2)}
	for _, c := range []struct {
		spec             *envpool.Spec
		network, backend string
		wantNet          string
		wantLine         string
	}{
		{&vec, "auto", "go", NetworkMLP, "an MLP policy"},
		{&vec, "mlp", "auto", NetworkMLP, "whatever net.backend says"},
		{&pix, "auto", "go", NetworkNatureCNN, "net.backend = go"},
		{&pix, "small_cnn", "go", NetworkSmallCNN, "the pure-Go fused ops"},
	} {
		cfg := DefaultNetConfig()
		cfg.Network, cfg.Backend = c.network, c.backend
		ch, err := Resolve(cfg, c.spec)
		if err != nil {
			t.Errorf("%s %s: %v", c.spec.TaskID, c.network, err)
			continue
		}
		if ch.Network != c.wantNet || ch.Backend != nn.BackendGo || ch.Precision != nn.PrecisionFP32 || !strings.Contains(ch.Line, c.wantLine) {
			t.Errorf("%s %s: %+v, want network %s on go in fp32, a line saying %q", c.spec.TaskID, c.network, ch, c.wantNet, c.wantLine)
		}
		again, err := Resolve(ch.Config(), c.spec)
		if err != nil || again.Network != ch.Network || again.Backend != ch.Backend || again.Precision != ch.Precision {
			t.Errorf("%s %s: the decided section resolves to %+v (%v), want %+v", c.spec.TaskID, c.network, again, err, ch)
		}
	}
}

// Check refuses a backend the build does not have, naming the key and the backends
// there are, and an unknown precision, without loading a library.
func TestNetConfigCheck(t *testing.T) {
	for _, c := range []struct {
		backend, precision, wantErr string
	}{
		{"", "", ""},
		{"auto", "fp32", ""},
		{"onednn", "bf16", ""},
		{"go", "fp32", ""},
		{"cuda", "fp32", `net.backend = "cuda": use auto, onednn or go`},
		{"go", "fp16", `net.precision = "fp16": use fp32 or bf16`},
	} {
		cfg := DefaultNetConfig()
		cfg.Backend, cfg.Precision = c.backend, c.precision
		err := cfg.Check()
		if (c.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.wantErr)) {
			t.Errorf("backend %q precision %q: err = %v, want %q", c.backend, c.precision, err, c.wantErr)
		}
	}
}
