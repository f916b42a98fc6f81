package vcs

import (
	"encoding/binary"
	"math/bits"
)

// updateFrame draws the display window from the last drawn clock up to target with the
// current register state: Stella's TIA::updateFrame
// (docs/design/emulator.md, Lazy drawing).
func (t *tia) updateFrame(target int32) {
	if target < t.displayStart || t.lastUpdate >= t.displayStop || t.lastUpdate >= target {
		return
	}
	if target > t.displayStop {
		target = t.displayStop
	}
	for {
		s := 228 - t.clocksToEOL
		var n int32
		if target > t.lastUpdate+t.clocksToEOL {
			n = t.clocksToEOL
			t.clocksToEOL = 228
			t.lastUpdate += n
		} else {
			n = target - t.lastUpdate
			t.clocksToEOL -= n
			t.lastUpdate = target
		}
		if s < hblank {
			skip := hblank - s
			if skip > n {
				skip = n
			}
			s += skip
			n -= skip
		}
		p0 := t.framePtr
		if n > 0 {
			t.drawPixels(int(s-hblank), int(n))
		}
		if t.hmoveBlank && s < hblank+8 {
			t.blankBar(p0, int(hblank+8-s))
			if n+s >= hblank+8 {
				t.hmoveBlank = false
			}
		}
		if t.clocksToEOL == 228 {
			t.endOfLine()
		}
		if t.lastUpdate >= target {
			return
		}
	}
}

// blankBar writes the HMOVE bar: n zero bytes from buffer index p.
func (t *tia) blankBar(p, n int) {
	buf := t.bufs[t.cur]
	if p >= len(buf) {
		return
	}
	if p+n > len(buf) {
		n = len(buf) - p
	}
	t.barEnd = max(t.barEnd, p+n) // drawn or not: it is part of the frame's extent
	if t.render {
		clear(buf[p : p+n])
	}
}

// endOfLine is the work Stella does when a drawn line completes: PF reflection from
// CTRLPF, player masks without copy suppression, and the Cosmic Ark missile bug.
func (t *tia) endOfLine() {
	t.pfMask = &pfMaskTab[t.ctrlpf&1]
	if t.suppressed {
		// Every other write leaves the masks as these calls would make them.
		t.p0Mask = playerMask(t.posp0, t.nusiz0, 0)
		t.p1Mask = playerMask(t.posp1, t.nusiz1, 0)
		t.suppressed = false
	}
	if t.cosmicArk {
		t.cosmicCounter = (t.cosmicCounter + 1) & 3
		move(&t.posm0, -[4]int8{18, 33, 0, 17}[t.cosmicCounter])
		switch t.cosmicCounter {
		case 1:
			t.m0Mask = missileMask(t.posm0, t.nusiz0|0x10)
		case 2:
			t.m0Mask = hiddenMask()
		default:
			t.m0Mask = missileMask(t.posm0, t.nusiz0)
		}
	}
}

// drawPixels draws n pixels of the current line starting at visible pixel x, updating
// the collision latches, and advances the frame pointer
// (docs/design/emulator.md, Lazy drawing). Spans that no movable object covers take the
// background/playfield fast path; only the covered span goes through the per-pixel
// object pipeline. Both give the same pixels and collisions.
func (t *tia) drawPixels(x, n int) {
	p := t.framePtr
	t.framePtr += n
	buf := t.bufs[t.cur]
	if p >= len(buf) {
		return
	}
	if p+n > len(buf) {
		n = len(buf) - p
	}
	out := buf[p : p+n]
	if t.vblank&2 != 0 {
		if t.render {
			clear(out)
		}
		return
	}
	en := t.enabled
	if en&^bitPF == 0 {
		if t.render {
			t.drawPF(out, x)
		}
		return
	}
	// cov bit j: some enabled movable object's shape covers pixel x+j.
	var cov [3]uint64
	var present uint8
	words := (n + 63) >> 6
	add := func(bit uint8, m *objMask) {
		if en&bit == 0 {
			return
		}
		var any uint64
		for k := 0; k < words; k++ {
			v := window64(m.bits, m.off+x+k<<6)
			cov[k] |= v
			any |= v
		}
		if any != 0 {
			present |= bit
		}
	}
	add(bitP0, &t.p0Mask)
	add(bitP1, &t.p1Mask)
	add(bitM0, &t.m0Mask)
	add(bitM1, &t.m1Mask)
	add(bitBL, &t.blMask)
	if n&63 != 0 {
		cov[words-1] &= 1<<(n&63) - 1
	}
	if present == 0 {
		if t.render {
			t.drawPF(out, x)
		}
		return
	}
	present |= en & bitPF
	// Alternate runs of uncovered pixels (fast path) and covered pixels (objects).
	for pos := 0; pos < n; {
		c := nextBit(&cov, pos, n, false)
		if c > pos && t.render {
			t.drawPF(out[pos:c], x+pos)
		}
		if c >= n {
			break
		}
		e := nextBit(&cov, c, n, true)
		t.drawObjects(out[c:e], x+c, present)
		pos = e
	}
}

// window64 returns 64 bits of a 320-bit row starting at bit start (zeros past the end).
func window64(b *[5]uint64, start int) uint64 {
	w, s := start>>6, uint(start&63)
	if w >= 5 {
		return 0
	}
	v := b[w] >> s
	if s != 0 && w+1 < 5 {
		v |= b[w+1] << (64 - s)
	}
	return v
}

// nextBit returns the first index >= from (below n) whose bit in cov is set (or clear,
// when clear is true), or n.
func nextBit(cov *[3]uint64, from, n int, clear bool) int {
	for w := from >> 6; w<<6 < n; w++ {
		v := cov[w]
		if clear {
			v = ^v
		}
		if w == from>>6 {
			v &= ^uint64(0) << uint(from&63)
		}
		if v != 0 {
			return min(w<<6+bits.TrailingZeros64(v), n)
		}
	}
	return n
}

// pfLineKey is everything a line of background and playfield depends on: the playfield
// bits, the reflection mask and the three colours. With no playfield only bk counts, so
// the other fields stay zero and every such line of one colour shares a key.
type pfLineKey struct {
	pf   uint32
	mask *[160]uint32
	bk   uint8
	pfc  [2]uint8
}

// pfLineCache holds the last two background-and-playfield lines drawPF built, with
// their keys; two because a line whose playfield changes at the centre (scores,
// asymmetric playfields) alternates between two keys. It is a cache, not machine
// state: the zero key's line is all zeros, as the zero value holds.
type pfLineCache struct {
	keys  [2]pfLineKey
	lines [2][160]byte
	mru   int
}

// pfCacheMinSpan is the shortest span drawn through the line cache. Shorter ones are
// drawn directly: they are the gaps between sprites (Space Invaders), cheaper to fill
// than to copy, and the passing states of a playfield rewritten register by register
// mid-line (Breakout's bricks), which would only evict the lines that repeat.
const pfCacheMinSpan = 80

// drawPF draws a span where no movable object is visible: background and playfield.
// PF pixels take the score colours (COLUP0 left, COLUP1 right) when the score bit is
// set and either priority is off or the playfield is the only enabled object (the C++
// fast path ignores priority in that case).
//
// Consecutive lines mostly repeat the same background and playfield, so the whole
// 160-pixel line for the current key is built once into pfLines and spans are copied
// out of it: one block copy instead of a lookup per four pixels.
func (t *tia) drawPF(out []byte, x int) {
	if len(out) < pfCacheMinSpan && t.enabled&bitPF == 0 {
		fill(out, t.colors[0])
		return
	}
	k := pfLineKey{bk: t.colors[0]}
	if t.enabled&bitPF != 0 {
		k.pf, k.mask = t.pf, t.pfMask
		k.pfc = [2]uint8{t.colors[1], t.colors[1]}
		if t.prioScore&2 != 0 && (t.prioScore&4 == 0 || t.enabled == bitPF) {
			k.pfc = [2]uint8{t.colors[2], t.colors[3]}
		}
	}
	if len(out) < pfCacheMinSpan {
		drawPFSpan(out, x, k)
		return
	}
	c := &t.pfLines
	i := c.mru
	if k != c.keys[i] {
		i ^= 1
		if k != c.keys[i] {
			c.keys[i] = k
			drawPFSpan(c.lines[i][:], 0, k)
		}
		c.mru = i
	}
	copy(out, c.lines[i][x:])
}

// drawPFSpan draws background and playfield for k into out, from pixel x.
func drawPFSpan(out []byte, x int, k pfLineKey) {
	if k.pf == 0 {
		fill(out, k.bk)
		return
	}
	// PF bits cover 4-pixel groups aligned on x % 4 == 0 (and the halves split at 80).
	for x&3 != 0 && len(out) > 0 {
		c := k.bk
		if k.pf&k.mask[x] != 0 {
			c = k.pfc[x/80]
		}
		out[0] = c
		out = out[1:]
		x++
	}
	bkw := uint32(k.bk) * 0x01010101
	pfw := [2]uint32{uint32(k.pfc[0]) * 0x01010101, uint32(k.pfc[1]) * 0x01010101}
	for len(out) >= 4 && x < 160 {
		w := bkw
		if k.pf&k.mask[x] != 0 {
			w = pfw[x/80]
		}
		binary.LittleEndian.PutUint32(out, w)
		out = out[4:]
		x += 4
	}
	for i := range out {
		c := k.bk
		if k.pf&k.mask[x+i] != 0 {
			c = k.pfc[(x+i)/80]
		}
		out[i] = c
	}
}

// fill writes colour c to every byte of out, eight bytes at a time.
func fill(out []byte, c uint8) {
	w := uint64(c) * 0x0101010101010101
	for len(out) >= 8 {
		binary.LittleEndian.PutUint64(out, w)
		out = out[8:]
	}
	for i := range out {
		out[i] = c
	}
}

// drawObjects is the per-pixel path for a span where the objects in present (and
// the playfield) may be visible: object code, collisions, priority encoder.
func (t *tia) drawObjects(out []byte, x int, present uint8) {
	if x < 80 && x+len(out) > 80 {
		k := 80 - x
		t.drawObjectsHalf(out[:k], x, present, 0)
		t.drawObjectsHalf(out[k:], 80, present, 1)
		return
	}
	t.drawObjectsHalf(out, x, present, x/80)
}

// drawObjectsHalf draws a span that lies within one half of the line.
func (t *tia) drawObjectsHalf(out []byte, x int, present uint8, half int) {
	n := len(out)
	var pf uint32
	if present&bitPF != 0 {
		pf = t.pf
	}
	var g0, g1, m0on, m1on, blon uint8
	if present&bitP0 != 0 {
		g0 = t.curGRP0
	}
	if present&bitP1 != 0 {
		g1 = t.curGRP1
	}
	if present&bitM0 != 0 {
		m0on = bitM0
	}
	if present&bitM1 != 0 {
		m1on = bitM1
	}
	if present&bitBL != 0 {
		blon = bitBL
	}
	pfm := t.pfMask[x : x+n]
	p0m := t.p0Mask.px[x : x+n]
	p1m := t.p1Mask.px[x : x+n]
	m0m := t.m0Mask.px[x : x+n]
	m1m := t.m1Mask.px[x : x+n]
	blm := t.blMask.px[x : x+n]
	col := t.collision
	prio := &priorityTab[half][t.prioScore]
	colors := t.colors
	render := t.render
	if present&(bitM0|bitM1|bitBL) == 0 && render {
		// Players and playfield only (most sprite spans): the same code without the
		// three movable-object lookups.
		for i := range out {
			code := uint8((uint64(pf&pfm[i])+0xFFFFFFFF)>>32) << 5
			code |= uint8((uint(g1&p1m[i])+0xFF)>>8) << 2
			code |= uint8((uint(g0&p0m[i]) + 0xFF) >> 8)
			col |= collisionTab[code]
			out[i] = colors[prio[code]&3]
		}
		t.collision = col
		return
	}
	for i := range out {
		// Branch-free object code: (v + 0xFF) >> 8 is 1 exactly when the byte v is
		// not zero (likewise with 32 bits for the playfield), so irregular sprite
		// bit patterns cost no mispredicted branches.
		code := blm[i]&blon | m1m[i]&m1on | m0m[i]&m0on
		code |= uint8((uint64(pf&pfm[i])+0xFFFFFFFF)>>32) << 5
		code |= uint8((uint(g1&p1m[i])+0xFF)>>8) << 2
		code |= uint8((uint(g0&p0m[i]) + 0xFF) >> 8)
		col |= collisionTab[code&63]
		if render {
			out[i] = colors[prio[code&63]&3]
		}
	}
	t.collision = col
}
