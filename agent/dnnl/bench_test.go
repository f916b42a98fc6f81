package dnnl

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// BenchmarkNatureCNN times the Nature CNN on this package's layers: train-b256 is a
// forward and backward pass of every layer (both heads included, no optimiser) at
// batch 256, infer-b16 a forward pass at batch 16 with inference-only layers, both with
// the convolutions exchanging activations in oneDNN's layouts; the -plain variants
// convert to plain NCHW between layers. All report ms/op.
func BenchmarkNatureCNN(b *testing.B) {
	requireLib(b)
	for _, c := range []struct {
		name          string
		batch         int
		train, native bool
	}{
		{"train-b256", 256, true, true},
		{"infer-b16", 16, false, true},
		// The same with plain NCHW between the convolutions, to measure what the
		// activation reorders cost.
		{"train-b256-plain", 256, true, false},
		{"infer-b16-plain", 16, false, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			n := newNatureNet(b, c.batch, c.train, c.native)
			defer n.close()
			step := n.forward
			if c.train {
				step = func() error {
					if err := n.forward(); err != nil {
						return err
					}
					return n.backward()
				}
			}
			benchSteps(b, step)
		})
	}
}

// benchSteps runs step b.N times after two warm-up steps and reports the mean
// (ms/op), the median (median-ms) and the fastest (min-ms) step: the machine is
// shared, and the median and minimum are less disturbed by other processes.
func benchSteps(b *testing.B, step func() error) {
	b.ReportAllocs()
	for i := 0; i < 2; i++ {
		if err := step(); err != nil {
			b.Fatal(err)
		}
	}
	times := make([]float64, 0, b.N)
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if err := step(); err != nil {
			b.Fatal(err)
		}
		times = append(times, float64(time.Since(t0).Microseconds())/1000)
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/op")
	sort.Float64s(times)
	b.ReportMetric(times[len(times)/2], "median-ms")
	b.ReportMetric(times[0], "min-ms")
}

// BenchmarkConv1 times the Nature CNN's first layer (uint8 input, 8x8 stride 4, 32
// filters, batch 256) forward + backward with and without space-to-depth and with the
// output in oneDNN's layout or plain NCHW.
func BenchmarkConv1(b *testing.B) {
	requireLib(b)
	for _, s2d := range []bool{true, false} {
		for _, native := range []bool{true, false} {
			b.Run(fmt.Sprintf("s2d%v_native%v", s2d, native), func(b *testing.B) {
				c, err := NewConv(ConvConfig{Batch: 256, Cin: 4, H: 84, W: 84, Cout: 32, K: 8, Stride: 4, ReLU: true, SpaceToDepth: s2d, NativeOut: native})
				if err != nil {
					b.Fatal(err)
				}
				defer c.Close()
				r := rand.New(rand.NewPCG(1, 2))
				x := randU8(r, 256*4*84*84)
				w, bb := randF32(r, 32*4*64, 0.05), randF32(r, 32, 0.1)
				y, dy := make([]float32, c.OutLen()), randF32(r, c.OutLen(), 1)
				dw, db := make([]float32, len(w)), make([]float32, 32)
				benchSteps(b, func() error {
					if err := c.Forward(x, 1.0/255, w, bb, y); err != nil {
						return err
					}
					return c.Backward(x, 1.0/255, w, y, dy, dw, db, nil)
				})
			})
		}
	}
}

// BenchmarkInferenceConv times the Nature CNN's convolutions alone at batch 16, as
// inference primitives in float32 and in bfloat16 (the layers' own time, without the
// conversions from and to the Go layouts): what net.precision = bf16 can gain on
// this CPU at most. Sub-benchmarks are named layer/precision; bf16 ones are skipped
// where oneDNN has no fast bf16 kernel.
func BenchmarkInferenceConv(b *testing.B) {
	requireLib(b)
	layers := []struct {
		name string
		cfg  ConvConfig
	}{
		{"conv1-s2d", ConvConfig{Batch: 16, Cin: 64, H: 21, W: 21, Cout: 32, K: 2, Stride: 1}},
		{"conv2", ConvConfig{Batch: 16, Cin: 32, H: 20, W: 20, Cout: 64, K: 4, Stride: 2}},
		{"conv3", ConvConfig{Batch: 16, Cin: 64, H: 9, W: 9, Cout: 64, K: 3, Stride: 1}},
	}
	for _, l := range layers {
		for _, bf := range []bool{false, true} {
			name := l.name + "/fp32"
			if bf {
				name = l.name + "/bf16"
			}
			b.Run(name, func(b *testing.B) {
				cfg := l.cfg
				cfg.ReLU, cfg.InferenceOnly, cfg.BF16 = true, true, bf
				c, err := NewConv(cfg)
				if err != nil {
					if bf && strings.Contains(err.Error(), "no fast bfloat16") {
						b.Skip(err)
					}
					b.Fatal(err)
				}
				defer c.Close()
				// The primitive alone, on buffers already in its layouts.
				src := alignedF32(f32Len(c.srcMD))
				wei := alignedF32(f32Len(c.weiMD))
				bias := alignedF32(cfg.Cout)
				dst := alignedF32(f32Len(c.dstMD))
				unlock := lockThread()
				defer unlock()
				benchSteps(b, func() error {
					return c.fwd.run(unsafe.Pointer(&src[0]), unsafe.Pointer(&wei[0]), unsafe.Pointer(&bias[0]), unsafe.Pointer(&dst[0]))
				})
			})
		}
	}
}
