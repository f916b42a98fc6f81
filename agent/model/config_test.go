package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/agent/nn"
	"github.com/rlpool/rlpool/envpool"
)

// Test specs: pixels (uint8 4 x 84 x 84, six actions) and vectors (four float32s, two
// actions).
var (
	pixSpec = envpool.Spec{TaskID: "Pix-v0", ObsSpace: envpool.UniformBox(0, 255, envpool.Uint8, 4, 84, 84), ActionSpace: envpool.DiscreteSpace(6)}
	vecSpec = envpool.Spec{TaskID: "Vec-v0", ObsSpace: envpool.UniformBox(-1, 1, envpool.Float32, 4), ActionSpace: envpool.DiscreteSpace(2)}
)

// Resolve decides each setting once: auto becomes a network from the observations,
// an MLP policy runs on the Go kernels whatever net.backend says (and its line says
// why), a CNN torso runs on the backend asked for, and the decided section resolves
// to itself. bf16 is refused, with the reason, for an MLP policy and on the go
// backend, and so is an unknown precision; New builds what Resolve decides.
func TestResolve(t *testing.T) {
	for _, c := range []struct {
		spec                        *envpool.Spec
		network, backend, precision string
		wantNet, wantLine, wantErr  string
	}{
		{&vecSpec, "auto", "go", "fp32", NetworkMLP, "an MLP policy", ""},
		{&vecSpec, "mlp", "auto", "", NetworkMLP, "whatever net.backend says", ""},
		{&pixSpec, "auto", "go", "fp32", NetworkNatureCNN, "net.backend = go", ""},
		{&pixSpec, "small_cnn", "go", "fp32", NetworkSmallCNN, "the pure-Go fused ops", ""},
		{&vecSpec, "mlp", "auto", "bf16", "", "", "MLP"},
		{&pixSpec, "small_cnn", "go", "bf16", "", "", "onednn backend"},
		{&pixSpec, "small_cnn", "go", "fp16", "", "", "use fp32 or bf16"},
		{&vecSpec, "nature_cnn", "go", "fp32", "", "", "net.network = nature_cnn needs uint8 image observations"},
	} {
		cfg := DefaultNetConfig()
		cfg.Network, cfg.Backend, cfg.Precision = c.network, c.backend, c.precision
		ch, err := Resolve(cfg, c.spec)
		p, newErr := New(cfg, c.spec)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) || newErr == nil || newErr.Error() != err.Error() {
				t.Errorf("%s %s %s: Resolve err = %v, New err = %v, want one containing %q", c.spec.TaskID, c.backend, c.precision, err, newErr, c.wantErr)
			}
			continue
		}
		if err != nil || newErr != nil {
			t.Errorf("%s %s: %v / %v", c.spec.TaskID, c.network, err, newErr)
			continue
		}
		if ch.Network != c.wantNet || ch.Backend != nn.BackendGo || ch.Precision != nn.PrecisionFP32 || !strings.Contains(ch.Line, c.wantLine) {
			t.Errorf("%s %s: %+v, want network %s on go in fp32, a line saying %q", c.spec.TaskID, c.network, ch, c.wantNet, c.wantLine)
		}
		if p.Backend != ch.Backend || p.Precision != ch.Precision || (p.Torso == nil) != (ch.Torso() == nil) {
			t.Errorf("%s %s: New built a policy on %s in %s (torso %v), Resolve decided %+v", c.spec.TaskID, c.network, p.Backend, p.Precision, p.Torso != nil, ch)
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

// net.channels and net.features resize a CNN torso, keeping its kernels and strides:
// New builds parameters of the new sizes, the line says what was built, the decided
// section resolves to the same torso, and sizes that do not fit are refused by name.
func TestResizedTorso(t *testing.T) {
	cfg := DefaultNetConfig()
	cfg.Network, cfg.Backend, cfg.Channels, cfg.Features = NetworkSmallCNN, "go", []int{8, 12}, 64
	ch, err := Resolve(cfg, &pixSpec)
	if err != nil {
		t.Fatal(err)
	}
	want := nn.CNNArch{Convs: []nn.ConvLayer{{Out: 8, Kernel: 8, Stride: 4}, {Out: 12, Kernel: 4, Stride: 2}}, Features: 64}
	if got := ch.Torso(); got == nil || fmt.Sprint(*got) != fmt.Sprint(want) {
		t.Errorf("torso %v, want %v", got, want)
	}
	if !strings.Contains(ch.Line, "conv 8 8x8/4, conv 12 4x4/2, dense 64") {
		t.Errorf("line %q does not spell the resized torso", ch.Line)
	}
	if nn.SmallArch.Convs[0].Out != 16 || nn.SmallArch.Features != 256 {
		t.Errorf("resizing changed nn.SmallArch: %v", nn.SmallArch)
	}
	p, err := New(cfg, &pixSpec)
	if err != nil {
		t.Fatal(err)
	}
	shapes := map[string]string{}
	for _, q := range p.Params() {
		shapes[q.Name] = fmt.Sprint(q.T.Shape())
	}
	for name, sh := range map[string]string{"conv1_w": "(8, 4, 8, 8)", "conv2_w": "(12, 8, 4, 4)", "dense_w": "(972, 64)", "actor.w0": "(64, 6)"} {
		if shapes[name] != sh {
			t.Errorf("%s: shape %s, want %s", name, shapes[name], sh)
		}
	}
	if again, err := Resolve(ch.Config(), &pixSpec); err != nil || fmt.Sprint(*again.Torso()) != fmt.Sprint(want) {
		t.Errorf("the decided section resolves to torso %v (%v)", again.Torso(), err)
	}
	for _, c := range []struct {
		network  string
		channels []int
		features int
		spec     *envpool.Spec
		wantErr  string
	}{
		{NetworkSmallCNN, []int{16, 32, 64}, 0, &pixSpec, "small_cnn has 2 convolutions, so give 2 sizes"},
		{NetworkNatureCNN, []int{32, 0, 64}, 0, &pixSpec, "net.channels[1] = 0"},
		{NetworkMLP, nil, 128, &vecSpec, "mlp has none"},
	} {
		cfg := DefaultNetConfig()
		cfg.Network, cfg.Backend, cfg.Channels, cfg.Features = c.network, "go", c.channels, c.features
		if _, err := Resolve(cfg, c.spec); err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s %v %d: err %v, want one containing %q", c.network, c.channels, c.features, err, c.wantErr)
		}
	}
}
