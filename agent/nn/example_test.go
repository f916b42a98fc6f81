package nn_test

import (
	"fmt"

	"github.com/rlpool/rlpool/agent/blas"
	"github.com/rlpool/rlpool/agent/nn"
	"github.com/rlpool/rlpool/agent/optim"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// A training step with the fused Nature CNN: uint8 observations in, features out, a
// stand-in loss, gradients, and the in-place Adam with global-norm clipping.
func ExampleNatureCNN() {
	blas.Use() // OpenBLAS behind Gorgonia and the fused ops (gonum if missing)

	const batch = 2
	g := G.NewGraph()
	obs := G.NewTensor(g, tensor.Uint8, 4, G.WithShape(batch, 4, 84, 84), G.WithName("obs"),
		G.WithValue(tensor.New(tensor.WithShape(batch, 4, 84, 84), tensor.Of(tensor.Uint8))))
	feat, params := nn.NatureCNN(g, obs, nn.NatureOpts{Fast: true, Seed: 1})
	loss := G.Must(G.Mean(feat))
	if _, err := G.Grad(loss, params...); err != nil {
		panic(err)
	}
	vm := G.NewTapeMachine(g, G.BindDualValues(params...)) // create every machine before any runs
	defer vm.Close()
	adam := optim.NewAdam(params, optim.AdamConfig{LR: 2.5e-4, Eps: 1e-5, MaxGradNorm: 0.5})

	// Each step: overwrite obs.Value()'s backing array in place, then:
	if err := vm.RunAll(); err != nil {
		panic(err)
	}
	vm.Reset()
	if _, err := adam.Step(); err != nil {
		panic(err)
	}
	fmt.Println(feat.Shape(), len(params))
	// Output: (2, 512) 8
}
