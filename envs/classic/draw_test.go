package classic

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
)

// count returns how many pixels of img in the rectangle r have colour index col.
func count(img *image.Paletted, r image.Rectangle, col uint8) int {
	n := 0
	r = r.Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if img.ColorIndexAt(x, y) == col {
				n++
			}
		}
	}
	return n
}

// picture renders env through envpool.Renderer and returns the paletted picture.
func picture(t *testing.T, env envpool.Env) *image.Paletted {
	t.Helper()
	r, ok := env.(envpool.Renderer)
	if !ok {
		t.Fatalf("%T does not implement envpool.Renderer", env)
	}
	img, err := r.Render()
	if err != nil {
		t.Fatal(err)
	}
	p, ok := img.(*image.Paletted)
	if !ok {
		t.Fatalf("%T renders a %T, want an *image.Paletted", env, img)
	}
	return p
}

func TestCartPoleDrawing(t *testing.T) {
	// Cart at the centre (pixel x 150), pole leaning 0.5 rad to the right.
	e := newCartPole(1, false)
	e.state = [4]float64{0, 0, 0.5, 0}
	img := picture(t, e)
	left := count(img, image.Rect(0, 0, 145, 120), brown)
	right := count(img, image.Rect(155, 0, 300, 120), brown)
	if right < 100 || left != 0 {
		t.Errorf("pole pixels left %d right %d: want the pole leaning right only", left, right)
	}
	if n := count(img, image.Rect(135, 120, 165, 140), black); n < 200 {
		t.Errorf("cart pixels at the centre: %d", n)
	}
	// Moving the cart moves the cart.
	e.state = [4]float64{-2, 0, 0, 0}
	if n := count(picture(t, e), image.Rect(135, 120, 165, 140), black); n > 40 {
		t.Errorf("cart still drawn at the centre with x = -2 (%d pixels)", n)
	}
}

func TestOtherClassicDrawings(t *testing.T) {
	// Acrobot hanging straight down: links below the pivot (pixel 100, 100).
	img := picture(t, newAcrobot(1)) // a new env's state is all zeros: hanging down
	if below, above := count(img, image.Rect(90, 110, 110, 200), blue), count(img, image.Rect(0, 0, 200, 90), blue); below < 300 || above != 0 {
		t.Errorf("acrobot hanging down: %d link pixels below, %d above", below, above)
	}
	// Pendulum upright (theta 0): the rod is above the pivot.
	img = picture(t, newPendulum(1, 10))
	if above, below := count(img, image.Rect(80, 0, 120, 90), red), count(img, image.Rect(0, 110, 200, 200), red); above < 500 || below != 0 {
		t.Errorf("pendulum upright: %d rod pixels above, %d below", above, below)
	}
	// Mountain car at the valley bottom (about -0.52): the car is near pixel x 113.
	mc := newMountainCar(1, 0)
	mc.pos = -0.52
	if n := count(picture(t, mc), image.Rect(100, 0, 128, 200), black); n < 100 {
		t.Errorf("mountain car: %d body pixels near the valley bottom", n)
	}
}

// TestEnvsDrawTheirObservations plays every classic task for a few steps and checks
// that each picture is the drawing of the observation the agent got, in a new image
// each time, and that the task declares Gymnasium's render rate.
func TestEnvsDrawTheirObservations(t *testing.T) {
	fps := map[string]float64{"CartPole-v1": 50, "Acrobot-v1": 15, "MountainCar-v0": 30, "MountainCarContinuous-v0": 30, "Pendulum-v1": 30}
	draw := map[string]func([]float64) *image.Paletted{
		"CartPole-v1": drawCartPole, "Acrobot-v1": drawAcrobot, "MountainCar-v0": drawMountainCar,
		"MountainCarContinuous-v0": drawMountainCar, "Pendulum-v1": drawPendulum,
	}
	for id, want := range fps {
		env, spec, err := envs.MakeEnv(id, nil, 7)
		if err != nil {
			t.Fatal(err)
		}
		if spec.RenderFPS != want {
			t.Errorf("%s: RenderFPS %v, want %v", id, spec.RenderFPS, want)
		}
		obs := make([]float32, spec.ObsSpace.Size())
		act := make([]float32, max(spec.ActionSpace.Size(), 1))
		env.Reset()
		var prev *image.Paletted
		for step := range 5 {
			act[0] = float32(step % 2)
			env.Step(act)
			env.Observe(envpool.Obs{F32: obs}, nil)
			o := make([]float64, len(obs))
			for i, v := range obs {
				o[i] = float64(v)
			}
			got := picture(t, env)
			if !bytes.Equal(got.Pix, draw[id](o).Pix) {
				t.Fatalf("%s step %d: the picture is not the drawing of the observation %v", id, step, obs)
			}
			if prev != nil && &prev.Pix[0] == &got.Pix[0] {
				t.Fatalf("%s: Render reused its image", id)
			}
			prev = got
		}
	}
}

// TestWriteSamples writes one drawing of each classic task as PNG into
// $RLPOOL_RENDER_OUT, for a look; without the variable it is skipped.
func TestWriteSamples(t *testing.T) {
	out := os.Getenv("RLPOOL_RENDER_OUT")
	if out == "" {
		t.Skip("RLPOOL_RENDER_OUT is not set")
	}
	samples := map[string]*image.Paletted{
		"CartPole-v1":    drawCartPole([]float64{0.5, 0, -0.2, 0}),
		"Acrobot-v1":     drawAcrobot([]float64{0.5, 0.866, 0.707, -0.707, 0, 0}), // t1 = 60 deg, t2 = -45 deg
		"MountainCar-v0": drawMountainCar([]float64{-0.9, 0}),
		"Pendulum-v1":    drawPendulum([]float64{0.707, 0.707, 0}), // 45 deg counter-clockwise from upright
	}
	for task, img := range samples {
		f, err := os.Create(filepath.Join(out, task+".png"))
		if err != nil {
			t.Fatal(err)
		}
		png.Encode(f, img)
		f.Close()
	}
}
