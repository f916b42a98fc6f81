package mujoco

import (
	"image"
	"sync"
)

// Frames draws an env's pictures for people (Render, recordings): a square renderer of
// Size (FrameSize when 0) with 1024-texel shadows (frameOptions), made at the first
// picture, and the image it draws into, overwritten by each picture. The zero value is
// ready; the families on the binding (the control suite, the robotics families,
// MetaWorld) keep one per env and Close it with the env.
type Frames struct {
	// Size is the side of the pictures in pixels, fixed at the first picture; 0 means
	// FrameSize.
	Size int
	r    *Renderer
	img  *image.RGBA
	// View is the view the first picture was drawn from; later pictures keep it, as
	// Gymnasium's viewer keeps the camera it made at its first frame.
	View View
}

// Draw draws d's state, from view() the first time and from the same view after.
func (f *Frames) Draw(d *Data, view func() View) (*image.RGBA, error) {
	if f.r == nil {
		size := f.Size
		if size <= 0 {
			size = FrameSize
		}
		r, err := NewRendererWith(d.m, size, size, frameOptions)
		if err != nil {
			return nil, err
		}
		f.r, f.img, f.View = r, image.NewRGBA(image.Rect(0, 0, size, size)), view()
	}
	if err := f.r.RenderRGBA(d, f.View, f.img); err != nil {
		return nil, err
	}
	return f.img, nil
}

// Close frees the renderer, if a picture was drawn.
func (f *Frames) Close() {
	if f.r != nil {
		f.r.Close()
		f.r = nil
	}
}

// MedianView is the free camera Gymnasium's and Gymnasium-Robotics' renderers start
// from for a model without a tracking camera: MuJoCo's default view (azimuth 90,
// elevation -45) at distance stat.extent, looking at the median of the geoms' current
// positions, axis by axis. Tasks then set their own camera values on it.
func MedianView(d *Data) View {
	v := DefaultView()
	v.Distance = d.m.Extent()
	xpos := d.Float64s("geom_xpos")
	col := make([]float64, len(xpos)/3)
	for axis := range 3 {
		for i := range col {
			col[i] = xpos[3*i+axis]
		}
		v.Lookat[axis] = frameMedian(col)
	}
	return v
}

// sharedModels holds compiled models by key for CachedModel.
var sharedModels struct {
	sync.Mutex
	m map[string]*Model
}

// CachedModel returns the model compiled under key, compiling it with load the first
// time: compiling is done once per process, and the read-only model is shared by
// every env and pool of the tasks that use it. Keys are the families' own (a family
// prefix, the document or its name, the options that shape it).
func CachedModel(key string, load func() (*Model, error)) (*Model, error) {
	sharedModels.Lock()
	defer sharedModels.Unlock()
	if m, ok := sharedModels.m[key]; ok {
		return m, nil
	}
	m, err := load()
	if err != nil {
		return nil, err
	}
	if sharedModels.m == nil {
		sharedModels.m = map[string]*Model{}
	}
	sharedModels.m[key] = m
	return m, nil
}

// CopyWithData returns a copy of the model and a new mjData for the copy, what an env
// that edits its model per episode owns; on failure nothing is left allocated.
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
