package mujoco

import (
	"image"
	"sync"
)

// CopyWithData returns an independent copy of the model (Copy) and an mjData for it,
// for an env that edits its own model per episode; on an error nothing is left open.
func (m *Model) CopyWithData() (*Model, *Data, error) {
	c, err := m.Copy()
	if err != nil {
		return nil, nil, err
	}
	d, err := NewData(c)
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	return c, d, nil
}

// Frames is an env's renderer for pictures meant for people (Render, the recordings
// of train eval -gif): a size x size renderer made at the first picture, on whichever
// goroutine asks, and freed by Close. The zero value is ready to use.
type Frames struct {
	r   *Renderer
	img *image.RGBA
}

// Draw renders d (of model m) from view into the frames' image and returns it; the
// image is overwritten by the next call. size is the picture's side, fixed at the
// first call.
func (f *Frames) Draw(m *Model, d *Data, view View, size int) (*image.RGBA, error) {
	if f.r == nil {
		r, err := NewRendererWith(m, size, size, RenderOptions{ShadowSize: 1024})
		if err != nil {
			return nil, err
		}
		f.r, f.img = r, image.NewRGBA(image.Rect(0, 0, size, size))
	}
	if err := f.r.RenderRGBA(d, view, f.img); err != nil {
		return nil, err
	}
	return f.img, nil
}

// Close frees the renderer, if one was made.
func (f *Frames) Close() {
	if f.r != nil {
		f.r.Close()
		f.r = nil
	}
}

// ModelCache holds compiled models by a key (a file name, a document), each compiled
// once per process and shared read-only by the envs, which copy a model they edit.
// The zero value is ready to use.
type ModelCache struct {
	mu sync.Mutex
	m  map[string]*Model
}

// Get returns the model cached under key, compiling it with load the first time.
func (c *ModelCache) Get(key string, load func() (*Model, error)) (*Model, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m, ok := c.m[key]; ok {
		return m, nil
	}
	m, err := load()
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]*Model{}
	}
	c.m[key] = m
	return m, nil
}
