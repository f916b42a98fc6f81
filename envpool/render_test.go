package envpool

import (
	"errors"
	"image"
	"image/color"
	"math/rand/v2"
	"strings"
	"testing"
)

// drawEnv is a countEnv that draws its step count as the grey level of a 1 x 1
// picture, and refuses to draw when missing is set (a RenderChecker).
type drawEnv struct {
	countEnv
	missing error
}

func (d *drawEnv) Render() (image.Image, error) {
	img := image.NewGray(image.Rect(0, 0, 1, 1))
	img.Pix[0] = uint8(d.steps)
	return img, nil
}

func (d *drawEnv) CanRender() error { return d.missing }

func TestPoolRender(t *testing.T) {
	missing := errors.New("install the drawing library")
	p, err := New(countSpec(), func(i int, seed int64) (Env, error) {
		e := &drawEnv{countEnv: countEnv{seed: seed, rng: rand.New(rand.NewPCG(uint64(seed), 1))}}
		if i == 2 {
			e.missing = missing
		}
		return e, nil
	}, Options{NumEnvs: 3, NumThreads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Step([]float32{1}, []int32{0}); err != nil {
		t.Fatal(err)
	}
	img, err := p.Render(0)
	if err != nil {
		t.Fatal(err)
	}
	if g := img.At(0, 0).(color.Gray).Y; g != 1 {
		t.Fatalf("env 0 after one step drew grey %d; want 1", g)
	}
	if _, err := p.Render(2); !errors.Is(err, missing) {
		t.Fatalf("Render of an env that cannot draw: %v; want its CanRender error", err)
	}
	for _, id := range []int{-1, 3} {
		if _, err := p.Render(id); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Fatalf("Render(%d): %v; want out of range", id, err)
		}
	}
	if err := p.Send([]float32{1}, []int32{1}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Render(1); err == nil || !strings.Contains(err.Error(), "still running") {
		t.Fatalf("Render of an env in flight: %v; want still running", err)
	}
	if _, err := p.Recv(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Render(1); err != nil {
		t.Fatalf("Render after Recv: %v", err)
	}
}

func TestPoolRenderWithoutRenderer(t *testing.T) {
	p := newCountPool(t, Options{NumEnvs: 1})
	if _, err := p.Render(0); err == nil || !strings.Contains(err.Error(), "cannot draw") {
		t.Fatalf("Render of a task without a renderer: %v; want cannot draw", err)
	}
	p.Close()
	if _, err := p.Render(0); !errors.Is(err, ErrClosed) {
		t.Fatalf("Render after Close: %v; want ErrClosed", err)
	}
}
