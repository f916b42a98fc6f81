package play

import (
	"bytes"
	"image/gif"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// TestRandomAgentMuJoCoGIF records an Ant-v4 episode cut at 8 steps as `train eval
// -gif` does: rendered frames (the track camera, through mujoco.Env's FrameRGBA),
// reduced to render.RGBPalette and encoded; the GIF decodes to one frame per step plus
// the reset frame, at the task's frame rate, and the frames show motion.
func TestRandomAgentMuJoCoGIF(t *testing.T) {
	a, err := Random("Ant-v4", nil)
	if err != nil {
		t.Skipf("Ant-v4 unavailable (needs Debian's %s): %v", mujoco.LibraryPackage, err)
	}
	if err := a.CanRecord(); err != nil {
		if strings.Contains(err.Error(), mujoco.OSMesaPackage) {
			t.Skipf("no MuJoCo frames without Mesa's off-screen OpenGL: %v", err)
		}
		t.Fatal(err)
	}
	if d := a.FrameDelay(); d != 5 {
		t.Errorf("FrameDelay %d, want 5 (Ant-v4 renders at 20 fps)", d)
	}
	a.Config.Env.MaxEpisodeSteps = 8
	rec := recordEpisode(t, a, 4, 8)
	var buf bytes.Buffer
	if err := rec.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	size := buf.Len()
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 9 {
		t.Fatalf("%d frames, want 9", len(g.Image))
	}
	first, last := g.Image[0], g.Image[8]
	if first.Rect.Dx() != mujoco.FrameSize || first.Rect.Dy() != mujoco.FrameSize {
		t.Errorf("frames are %v, want %d pixels square", first.Rect, mujoco.FrameSize)
	}
	colours := map[uint8]bool{}
	changed := 0
	for i, p := range first.Pix {
		colours[p] = true
		if last.Pix[i] != p {
			changed++
		}
	}
	if len(colours) < 16 {
		t.Errorf("the first frame has %d colours: blank?", len(colours))
	}
	if changed < len(first.Pix)/100 {
		t.Errorf("only %d pixels changed in 8 steps of random actions", changed)
	}
	t.Logf("GIF of %d frames, %d bytes; %d colours in the first", len(g.Image), size, len(colours))
}
