package envpool

import (
	"fmt"
	"image"
)

// Renderer is an env that pictures its current state, for people to watch (`train
// eval -gif` records one picture per step). It is an optional capability beside Env:
// a caller asks an env for it with a type assertion and needs to know nothing of the
// family that drew it.
//
// Render returns the picture of the state after the last Reset or Step. A family that
// draws in a fixed palette (classic control's drawings, the Atari console's NTSC
// colours) returns an *image.Paletted, which a GIF stores without loss; a family with
// true-colour pictures (MuJoCo's rendered scenes) returns an *image.RGBA. The image
// may be the env's own buffer, overwritten by the next call: a caller copies or
// converts what it keeps.
type Renderer interface {
	Render() (image.Image, error)
}

// RenderChecker is implemented by a Renderer whose pictures need something that may
// be missing at run time, such as a system library (MuJoCo's offscreen renderer needs
// libOSMesa). CanRender returns nil when Render can draw, else an error that says what
// to install, so that a caller can refuse before playing an episode for nothing.
type RenderChecker interface {
	CanRender() error
}

// Render returns env i's picture of its current state: the env must be a Renderer
// that can draw (a RenderChecker's CanRender error is returned as it is) and must not
// be in flight, since a worker may be stepping it. The image may be the env's own
// buffer (see Renderer): copy what you keep before the env is sent again.
func (p *Pool) Render(i int) (image.Image, error) {
	if p.closed {
		return nil, ErrClosed
	}
	if i < 0 || i >= p.opts.NumEnvs {
		return nil, fmt.Errorf("envpool: Render: env id %d out of range [0, %d)", i, p.opts.NumEnvs)
	}
	if p.busy[i] {
		return nil, fmt.Errorf("envpool: Render: env %d is still running; Recv its result first", i)
	}
	r, ok := p.envs[i].(Renderer)
	if !ok {
		return nil, fmt.Errorf("envpool: Render: task %s cannot draw its envs (no renderer)", p.spec.TaskID)
	}
	if c, ok := r.(RenderChecker); ok {
		if err := c.CanRender(); err != nil {
			return nil, err
		}
	}
	return r.Render()
}
