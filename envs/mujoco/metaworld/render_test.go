package metaworld

import (
	"image"
	"testing"

	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
)

// TestRender: Render draws a FrameSize square picture of the scene through the mujoco
// package's off-screen renderer (skipped without libOSMesa): not one flat colour, and
// the arm's move between two states changes it.
func TestRender(t *testing.T) {
	requireMuJoCo(t)
	if err := mujoco.LoadOSMesa(); err != nil {
		t.Skipf("rendering tests need Mesa's off-screen OpenGL (apt-get install %s): %v", mujoco.OSMesaPackage, err)
	}
	env, _, err := envs.MakeEnv("MetaWorld/DrawerOpen-v3", nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	e := env.(*Env)
	defer e.Close()
	if err := e.CanRender(); err != nil {
		t.Fatal(err)
	}
	e.Reset()
	img, err := e.Render()
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != FrameSize || b.Dy() != FrameSize {
		t.Fatalf("picture of %v", b)
	}
	first := image.NewRGBA(img.Bounds())
	copy(first.Pix, img.(*image.RGBA).Pix)
	colours := map[[3]uint8]bool{}
	for i := 0; i < len(first.Pix); i += 4 {
		colours[[3]uint8(first.Pix[i:i+3])] = true
	}
	if len(colours) < 50 {
		t.Fatalf("the picture has %d colours", len(colours))
	}
	for range 40 {
		e.Step([]float32{1, -1, 1, 1})
	}
	img, err = e.Render()
	if err != nil {
		t.Fatal(err)
	}
	if mean, _ := mujoco.PictureDiff(first, img.(*image.RGBA)); mean < 0.5 {
		t.Errorf("moving the arm changed the picture by %v on average", mean)
	}
}
