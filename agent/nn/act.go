package nn

import (
	"fmt"
	"math"
)

// Activation is the function a fused layer applies after its bias, as spelt in configs.
type Activation string

// The activations the fused layers support.
const (
	Linear Activation = ""     // none: the output layers of policy and value heads
	ReLU   Activation = "relu" // max(0, x): the Nature CNN and ReLU MLPs
	Tanh   Activation = "tanh" // the classic-control and MuJoCo MLPs
)

// ParseActivation checks a config's activation name ("" or "none" mean Linear).
func ParseActivation(s string) (Activation, error) {
	switch Activation(s) {
	case Linear, "none":
		return Linear, nil
	case ReLU, Tanh:
		return Activation(s), nil
	}
	return "", fmt.Errorf("activation %q: use tanh, relu or none", s)
}

// activate applies a to y in place.
func activate[T Float](y []T, a Activation) {
	switch a {
	case ReLU:
		for i, v := range y {
			y[i] = max(v, 0)
		}
	case Tanh:
		if y32, ok := any(y).([]float32); ok {
			for i, v := range y32 {
				y32[i] = Tanh32(v)
			}
			return
		}
		for i, v := range y {
			y[i] = T(math.Tanh(float64(v)))
		}
	}
}

// activationGrad writes into g the gradient gy taken back through a, given the
// activation's output y: masked by y > 0 for ReLU, times 1 - y^2 for tanh.
func activationGrad[T Float](g, gy, y []T, a Activation) {
	gy, y = gy[:len(g)], y[:len(g)]
	switch a {
	case ReLU:
		maskGrad(g, gy, y)
	case Tanh:
		for i, v := range gy {
			g[i] = v * (1 - y[i]*y[i])
		}
	default:
		copy(g, gy)
	}
}

// Tanh32 is tanh for float32, a rational approximation accurate to about 1e-7 that is
// several times faster than math.Tanh (the [13/6] minimax fit Eigen uses for float):
// with Gorgonia's float32 tanh, tanh and the garbage collector took about half of a PPO
// minibatch step of a 64-64 MLP.
func Tanh32(x float32) float32 {
	const clampAt = 7.90531110763549805
	if x > clampAt {
		x = clampAt
	} else if x < -clampAt {
		x = -clampAt
	}
	if x < 0.0004 && x > -0.0004 {
		return x
	}
	x2 := x * x
	p := float32(-2.76076847742355e-16)
	p = p*x2 + 2.00018790482477e-13
	p = p*x2 - 8.60467152213735e-11
	p = p*x2 + 5.12229709037114e-08
	p = p*x2 + 1.48572235717979e-05
	p = p*x2 + 6.37261928875436e-04
	p = p*x2 + 4.89352455891786e-03
	p *= x
	q := float32(1.19825839466702e-06)
	q = q*x2 + 1.18534705686654e-04
	q = q*x2 + 2.26843463243900e-03
	q = q*x2 + 4.89352518554385e-03
	return p / q
}
