package render

import (
	"bytes"
	"image"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlpool/rlpool/envs/atari"
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

func TestCartPoleDrawing(t *testing.T) {
	// Cart at the centre (pixel x 150), pole leaning 0.5 rad to the right.
	img, err := Classic("CartPole-v1", []float32{0, 0, 0.5, 0})
	if err != nil {
		t.Fatal(err)
	}
	left := count(img, image.Rect(0, 0, 145, 120), Brown)
	right := count(img, image.Rect(155, 0, 300, 120), Brown)
	if right < 100 || left != 0 {
		t.Errorf("pole pixels left %d right %d: want the pole leaning right only", left, right)
	}
	if n := count(img, image.Rect(135, 120, 165, 140), Black); n < 200 {
		t.Errorf("cart pixels at the centre: %d", n)
	}
	// Moving the cart moves the cart.
	img, _ = Classic("CartPole-v1", []float32{-2, 0, 0, 0})
	if n := count(img, image.Rect(135, 120, 165, 140), Black); n > 40 {
		t.Errorf("cart still drawn at the centre with x = -2 (%d pixels)", n)
	}
}

func TestOtherClassicDrawings(t *testing.T) {
	// Acrobot hanging straight down: links below the pivot (pixel 100, 100).
	img, err := Classic("Acrobot-v1", []float32{1, 0, 1, 0, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	if below, above := count(img, image.Rect(90, 110, 110, 200), Blue), count(img, image.Rect(0, 0, 200, 90), Blue); below < 300 || above != 0 {
		t.Errorf("acrobot hanging down: %d link pixels below, %d above", below, above)
	}
	// Pendulum upright (theta 0): the rod is above the pivot.
	img, _ = Classic("Pendulum-v1", []float32{1, 0, 0})
	if above, below := count(img, image.Rect(80, 0, 120, 90), Red), count(img, image.Rect(0, 110, 200, 200), Red); above < 500 || below != 0 {
		t.Errorf("pendulum upright: %d rod pixels above, %d below", above, below)
	}
	// Mountain car at the valley bottom (about -0.52): the car is near pixel x 113.
	img, _ = Classic("MountainCar-v0", []float32{-0.52, 0})
	if n := count(img, image.Rect(100, 0, 128, 200), Black); n < 100 {
		t.Errorf("mountain car: %d body pixels near the valley bottom", n)
	}
	if _, err := Classic("Pong-v5", []float32{1}); err == nil {
		t.Error("drawing an unknown task succeeded")
	}
	if _, err := Classic("CartPole-v1", []float32{1}); err == nil {
		t.Error("drawing a short observation succeeded")
	}
}

func TestRecorderWritesAnimatedGIF(t *testing.T) {
	r := NewRecorder(2, 3)
	for i := range 5 {
		img, _ := Classic("CartPole-v1", []float32{float32(i) * 0.2, 0, 0, 0})
		r.Add(img)
	}
	if r.Len() != 3 || r.Dropped != 2 {
		t.Fatalf("kept %d dropped %d, want 3 and 2", r.Len(), r.Dropped)
	}
	var buf bytes.Buffer
	if err := r.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 3 || g.Delay[0] != 2 || g.Image[0].Bounds().Dx() != 300 {
		t.Fatalf("decoded %d frames, delay %v, width %d", len(g.Image), g.Delay, g.Image[0].Bounds().Dx())
	}
	if bytes.Equal(g.Image[0].Pix, g.Image[2].Pix) {
		t.Error("frames of a moving cart are identical")
	}
	if err := NewRecorder(2, 0).Encode(&buf); err == nil {
		t.Error("encoding no frames succeeded")
	}
}

func TestAtariPalette(t *testing.T) {
	screen := []byte{0, 2, 0x1e, 254}
	img, err := Atari(screen, 2, 2, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 4 || img.Bounds().Dy() != 2 {
		t.Fatalf("size %v", img.Bounds())
	}
	r, g, b, _ := img.At(2, 1).RGBA() // screen byte 254 -> palette 127
	want := AtariPalette[127]
	wr, wg, wb, _ := want.RGBA()
	if r != wr || g != wg || b != wb || img.ColorIndexAt(3, 0) != 1 {
		t.Errorf("colours do not follow the NTSC palette")
	}
	if _, err := Atari(screen, 4, 4, 1, 1); err == nil {
		t.Error("a short screen was accepted")
	}
}

// TestPongGIF plays Pong with random actions for a few hundred frames on the emulator
// and records it; with RLPOOL_GIF_OUT set the GIF is kept there for a look.
func TestPongGIF(t *testing.T) {
	dir := os.Getenv("RLPOOL_ROMS")
	if dir == "" {
		t.Skip("RLPOOL_ROMS is not set: no Pong ROM to record")
	}
	rom, err := atari.FindROM("pong", dir)
	if err != nil {
		t.Skipf("no Pong ROM in RLPOOL_ROMS: %v", err)
	}
	ale, err := atari.NewALE(rom.Data, atari.Options{})
	if err != nil {
		t.Fatal(err)
	}
	acts := ale.MinimalActionSet()
	rec := NewRecorder(7, 0)
	colours := map[uint8]bool{}
	for i := range 400 {
		if _, err := ale.Act(int(acts[(i/8)%len(acts)])); err != nil {
			t.Fatal(err)
		}
		if i%4 == 3 {
			img, err := Atari(ale.Screen(), atari.ScreenWidth, ale.ScreenHeight(), 2, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range img.Pix {
				colours[p] = true
			}
			rec.Add(img)
		}
	}
	// Pong's screen: orange field, green and orange paddles, white ball and score.
	if len(colours) < 4 {
		t.Errorf("Pong frames use %d colours; the game shows at least 4", len(colours))
	}
	out := filepath.Join(t.TempDir(), "pong.gif")
	if d := os.Getenv("RLPOOL_GIF_OUT"); d != "" {
		out = filepath.Join(d, "pong-random.gif")
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := rec.Encode(f); err != nil {
		t.Fatal(err)
	}
}

// TestWriteSamples writes one drawing of each classic task as PNG into
// $RLPOOL_RENDER_OUT, for a look; without the variable it is skipped.
func TestWriteSamples(t *testing.T) {
	out := os.Getenv("RLPOOL_RENDER_OUT")
	if out == "" {
		t.Skip("RLPOOL_RENDER_OUT is not set")
	}
	samples := map[string][]float32{
		"CartPole-v1":    {0.5, 0, -0.2, 0},
		"Acrobot-v1":     {0.5, 0.866, 0.707, -0.707, 0, 0}, // t1 = 60 deg, t2 = -45 deg
		"MountainCar-v0": {-0.9, 0},
		"Pendulum-v1":    {0.707, 0.707, 0}, // 45 deg counter-clockwise from upright
	}
	for task, obs := range samples {
		img, err := Classic(task, obs)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(out, task+".png"))
		if err != nil {
			t.Fatal(err)
		}
		png.Encode(f, img)
		f.Close()
	}
}
