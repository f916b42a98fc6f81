// Package render records what an env pictures as animated GIFs for `train eval -gif`.
// It knows no env family: the envs draw themselves (envpool.Renderer), and render
// turns their pictures into the paletted frames a GIF holds (Frames) and writes them
// (Recorder). A paletted picture (classic control's drawings, the Atari console's
// colours) is kept exactly; a true-colour one (MuJoCo's scenes) is reduced to one
// palette per recording (Quantizer).
package render

import (
	"fmt"
	"image"
	"image/draw"
	"image/gif"
	"io"
	"slices"
)

// Frames turns the pictures of one recording into paletted frames: a paletted picture
// is copied as it is; any other is reduced to the palette a Quantizer chooses from the
// recording's first such picture, which keeps colours steady from frame to frame.
type Frames struct {
	q *Quantizer
}

// Paletted returns pic as a new paletted image, which the caller may keep: pic itself
// can be reused by the env afterwards.
func (f *Frames) Paletted(pic image.Image) *image.Paletted {
	switch p := pic.(type) {
	case *image.Paletted:
		out := *p
		out.Pix = slices.Clone(p.Pix)
		return &out
	case *image.RGBA:
		if f.q == nil {
			f.q = NewQuantizer(p)
		}
		return f.q.Paletted(p)
	}
	b := pic.Bounds()
	rgba := image.NewRGBA(b)
	draw.Draw(rgba, b, pic, b.Min, draw.Src)
	return f.Paletted(rgba)
}

// Recorder collects frames for an animated GIF, up to MaxFrames (later frames are
// dropped and counted, so a long episode cannot exhaust memory).
type Recorder struct {
	// Delay is each frame's display time in hundredths of a second.
	Delay     int
	MaxFrames int
	frames    []*image.Paletted
	Dropped   int
}

// NewRecorder returns a recorder showing each frame for delay hundredths of a second.
func NewRecorder(delay, maxFrames int) *Recorder {
	return &Recorder{Delay: max(delay, 2), MaxFrames: maxFrames}
}

// Add appends a frame (kept as given: do not reuse it).
func (r *Recorder) Add(f *image.Paletted) {
	if r.MaxFrames > 0 && len(r.frames) >= r.MaxFrames {
		r.Dropped++
		return
	}
	r.frames = append(r.frames, f)
}

// Len is the number of frames kept.
func (r *Recorder) Len() int { return len(r.frames) }

// Encode writes the frames as a looping animated GIF.
func (r *Recorder) Encode(w io.Writer) error {
	if len(r.frames) == 0 {
		return fmt.Errorf("render: no frames to write")
	}
	g := &gif.GIF{LoopCount: 0}
	for _, f := range r.frames {
		g.Image = append(g.Image, f)
		g.Delay = append(g.Delay, r.Delay)
	}
	g.Disposal = make([]byte, len(g.Image))
	return gif.EncodeAll(w, g)
}
