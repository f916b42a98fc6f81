package blas
import ("testing"; "fmt"; "math/rand/v2")
func BenchmarkExp(b *testing.B) {
	Load()
	r := rand.New(rand.NewPCG(1, 1))
	type sh struct{ name string; tA, tB bool; m, n, k, calls int }
	shapes := []sh{
		{"c1 A rows x Cout (W^T)", false, true, 12800, 32, 256, 1},
		{"c1 A rows x Cout (WT stored)", false, false, 12800, 32, 256, 1},
		{"c1 B per img W x colT", false, false, 32, 400, 256, 32},
		{"c2 A", false, true, 2592, 64, 512, 1},
		{"c2 A WT stored", false, false, 2592, 64, 512, 1},
		{"c2 B", false, false, 64, 81, 512, 32},
		{"c3 A", false, true, 1568, 64, 576, 1},
		{"c3 B", false, false, 64, 49, 576, 32},
		{"c1 dW A: gzT x col", true, false, 32, 256, 12800, 1},
		{"c2 dW A", true, false, 64, 512, 2592, 1},
		{"c2 dcol A: gz x W", false, false, 2592, 512, 64, 1},
		{"c2 dcolT B per img", true, false, 512, 81, 64, 32},
		{"c2 dW B per img", false, true, 64, 512, 81, 32},
		{"dense fwd 128x512x3136", false, false, 128, 512, 3136, 1},
		{"dense dX 128x3136x512", false, true, 128, 3136, 512, 1},
	}
	for _, s := range shapes {
		a := randSlice(r, s.m*s.k); bb := randSlice(r, s.k*s.n); c := make([]float32, s.m*s.n)
		lda, ldb := s.k, s.n
		if s.tA { lda = s.m }
		if s.tB { ldb = s.k }
		b.Run(fmt.Sprintf("%s", s.name), func(b *testing.B) {
			for b.Loop() { for i := 0; i < s.calls; i++ { Sgemm(s.tA, s.tB, s.m, s.n, s.k, 1, a, lda, bb, ldb, 0, c, s.n) } }
			reportGFLOPs(b, 2*float64(s.m*s.n*s.k*s.calls))
		})
	}
}
