package atari

import (
	"bytes"
	"image"
	"image/gif"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlpool/rlpool/envpool"
)

func TestScreenImagePalette(t *testing.T) {
	screen := []byte{0, 2, 0x1e, 254}
	img, err := ScreenImage(screen, 2, 2, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 4 || img.Bounds().Dy() != 2 {
		t.Fatalf("size %v", img.Bounds())
	}
	r, g, b, _ := img.At(2, 1).RGBA() // screen byte 254 -> palette 127
	want := Palette[127]
	wr, wg, wb, _ := want.RGBA()
	if r != wr || g != wg || b != wb || img.ColorIndexAt(3, 0) != 1 {
		t.Errorf("colours do not follow the NTSC palette")
	}
	if _, err := ScreenImage(screen, 4, 4, 1, 1); err == nil {
		t.Error("a short screen was accepted")
	}
}

func TestSpecRenderFPS(t *testing.T) {
	g, _ := GameByName("pong")
	for skip, want := range map[int]float64{4: 15, 1: 60, 2: 30} {
		cfg := DefaultEnvConfig()
		cfg.FrameSkip = skip
		if got := cfg.Spec("test", g).RenderFPS; got != want {
			t.Errorf("frame_skip %d: RenderFPS %v, want %v", skip, got, want)
		}
	}
}

// TestPongRender plays Pong with random actions and records the env's pictures: each
// is the emulator's screen in NTSC colours at twice its width; with RLPOOL_GIF_OUT set
// the GIF is kept there for a look.
func TestPongRender(t *testing.T) {
	e, _ := testEnv(t, "pong", 3, nil)
	var r envpool.Renderer = e
	e.Reset()
	g := &gif.GIF{}
	colours := map[uint8]bool{}
	for i := range 100 {
		e.Step([]float32{float32((i / 8) % 6)})
		img, err := r.Render()
		if err != nil {
			t.Fatal(err)
		}
		p, ok := img.(*image.Paletted)
		if !ok || p.Rect.Dx() != 2*ScreenWidth || p.Rect.Dy() != e.ALE().ScreenHeight() {
			t.Fatalf("picture %T of %v, want a paletted %d x %d", img, img.Bounds(), 2*ScreenWidth, e.ALE().ScreenHeight())
		}
		want, _ := ScreenImage(e.ALE().Screen(), ScreenWidth, e.ALE().ScreenHeight(), 2, 1)
		if !bytes.Equal(p.Pix, want.Pix) {
			t.Fatalf("step %d: the picture is not the emulator's screen", i)
		}
		for _, c := range p.Pix {
			colours[c] = true
		}
		g.Image, g.Delay = append(g.Image, p), append(g.Delay, 7)
	}
	// Pong's screen: orange field, green and orange paddles, white ball and score.
	if len(colours) < 4 {
		t.Errorf("Pong pictures use %d colours; the game shows at least 4", len(colours))
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
	if err := gif.EncodeAll(f, g); err != nil {
		t.Fatal(err)
	}
}
