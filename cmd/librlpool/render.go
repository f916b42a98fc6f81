//go:build cgo

package main

/*
#include <stdint.h>
*/
import "C"

import (
	"errors"
	"image"
	"strings"
	"unsafe"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/internal/render"
)

// rlp_render_size writes the frame size rlp_render gives when asked for no other to
// out_wh[0] and out_wh[1] (width, height): the task's default picture size
// (Spec.RenderWidth and RenderHeight, EnvPool's defaults), else the size env env_id
// draws, learnt by drawing it once. Returns 0 or -1.
//
//export rlp_render_size
func rlp_render_size(hid C.int64_t, envID C.int32_t, outWH *C.int32_t) (ret C.int) {
	failed := false
	defer func() {
		if failed {
			ret = -1
		}
	}()
	defer guard(int64(hid), &failed)
	if outWH == nil {
		err := valueErr("rlpool: render: the size buffer is NULL")
		fail(int64(hid), err)
		return -1
	}
	wh := unsafe.Slice((*int32)(unsafe.Pointer(outWH)), 2)
	return status(withHandle(int64(hid), func(h *handle) error {
		img, err := h.picture(int(envID))
		if err != nil {
			return err
		}
		wh[0], wh[1] = int32(img.Bounds().Dx()), int32(img.Bounds().Dy())
		if h.spec.RenderWidth > 0 && h.spec.RenderHeight > 0 {
			wh[0], wh[1] = int32(h.spec.RenderWidth), int32(h.spec.RenderHeight)
		}
		return nil
	}))
}

// rlp_render draws the n envs in env_ids (none of which may be in flight) into out:
// n frames of height x width RGB pixels (uint8, row-major, EnvPool's (n, H, W, 3)),
// each picture resampled to that size when the env draws another (nearest neighbour).
// A task whose envs cannot draw, or an env that cannot draw now (MuJoCo without its
// OpenGL library), fails with the reason. Returns 0 or -1.
//
//export rlp_render
func rlp_render(hid C.int64_t, envIDs *C.int32_t, n C.int64_t, width, height C.int32_t, out *C.uint8_t) (ret C.int) {
	failed := false
	defer func() {
		if failed {
			ret = -1
		}
	}()
	defer guard(int64(hid), &failed)
	if n < 0 || (envIDs == nil && n > 0) || width <= 0 || height <= 0 || (out == nil && n > 0) {
		err := valueErr("rlpool: render: bad arguments (%d ids, %d x %d frames, output %v)",
			int64(n), int(width), int(height), out != nil)
		fail(int64(hid), err)
		return -1
	}
	ids := int32s(envIDs, n)
	frame := int(width) * int(height) * 3
	var dst []byte
	if n > 0 {
		dst = unsafe.Slice((*byte)(unsafe.Pointer(out)), int(n)*frame)
	}
	return status(withHandle(int64(hid), func(h *handle) error {
		return h.render(ids, int(width), int(height), dst)
	}))
}

// render draws the envs in ids into dst, one width x height RGB frame each.
func (h *handle) render(ids []int32, width, height int, dst []byte) error {
	frame := width * height * 3
	for k, id := range ids {
		img, err := h.picture(int(id))
		if err != nil {
			return err
		}
		if err := render.RGBFrame(dst[k*frame:(k+1)*frame], img, width, height); err != nil {
			return runtimeErr("rlpool: render: env %d: %v", id, err)
		}
	}
	return nil
}

// picture returns env id's picture. An id out of range is a bad argument; an env in
// flight or a task that cannot draw is a runtime error.
func (h *handle) picture(id int) (image.Image, error) {
	if err := h.checkOpen(); err != nil {
		return nil, err
	}
	if id < 0 || id >= h.opts.NumEnvs {
		return nil, valueErr("rlpool: render: env id %d out of range [0, %d)", id, h.opts.NumEnvs)
	}
	img, err := h.pool.Render(id)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "envpool: Render: ")
		if errors.Is(err, envpool.ErrClosed) {
			msg = "the pool is closed"
		}
		return nil, runtimeErr("rlpool: render: %s", msg)
	}
	return img, nil
}
