package vcs

// Frames run without drawing (SetRenderEnabled(false)) leave their frame buffer as it
// was. That is harmless while every frame draws the whole display window, but a frame
// that draws only part of it shows, in the rest, what the frame two before left in the
// same buffer, and an unfinished frame shows it until the frame ends
// (docs/design/emulator.md, Pixels nobody looks at). So the console remembers, per
// buffer, the start of the frames it ran there without drawing, and when a drawn frame
// leaves untouched, at the end of a RunFrame, pixels that those frames would have
// drawn, it runs them again, drawn, underneath what the drawn frame has drawn. Games
// that always draw their whole window never need it and pay only for a copy of the
// machine state at the start of each undrawn frame.
//
// A frame draws its buffer from the start: pixels up to its frame pointer (and an
// HMOVE bar a few pixels past it). That prefix's end is the frame's extent. A frame
// overwrites every pixel of the frames before it whose extent is no longer than its
// own, so a buffer's record only keeps undrawn frames of decreasing extent, oldest
// first, and a drawn frame whose extent is at least the record's first needs nothing.

// maxRedo is the most undrawn frames recorded per buffer. Only a run of undrawn frames
// of strictly decreasing extent can exceed it; the pixels the oldest of them alone
// drew are then lost.
const maxRedo = 3

// frameStart is the machine state at the start of a frame, before its frame buffer is
// chosen, with the input it was run with. It leaves out the frame buffers and the
// system random generator (only resets draw from it).
type frameStart struct {
	cpu      CPUState
	tia      tiaState
	riot     riotState
	cart     cartState
	dataBus  uint8
	in       Input
	inputSet bool
	switches uint8
}

// undrawnFrames is the console's record of frames run without drawing. It is not
// machine state: a State does not carry it.
type undrawnFrames struct {
	// n[i] frames are recorded for buffer i, with their extents ext[i] (decreasing).
	n      [2]int
	ext    [2][maxRedo]int
	frames [2][maxRedo]frameStart
	// lost[i] is the end of the prefix of buffer i holding pixels no record can
	// redraw (0 when none); pixels past the recorded extents and below it are lost.
	lost [2]int
	// next is the start of the undrawn frame being run; now holds the machine while
	// recorded frames are run again.
	next, now frameStart
	// scratch keeps the drawn frame's pixels during a redraw (allocated on first use).
	scratch []byte
}

// clear forgets every recorded frame: both buffers are exact (after a reset cleared
// them).
func (u *undrawnFrames) clear() {
	u.n, u.lost = [2]int{}, [2]int{}
}

// unknown marks the whole of both buffers as of unknown exactness (after Load: the
// saved console may have skipped drawing); a drawn frame covering the window makes one
// exact again.
func (u *undrawnFrames) unknown() {
	u.n, u.lost = [2]int{}, [2]int{bufSize, bufSize}
}

// saveFrame copies the machine state, without frame buffers, into s.
func (c *Console) saveFrame(s *frameStart) {
	s.cpu, s.tia, s.riot, s.dataBus = c.cpu.State(), c.tia.tiaState, c.riot.riotState, c.cpu.dataBus
	c.cart.save(&s.cart)
	s.in, s.inputSet, s.switches = c.in, c.inputSet, c.switches
}

// restoreFrame returns the machine to s.
func (c *Console) restoreFrame(s *frameStart) {
	c.setMachine(s.cpu, &s.tia, &s.riot, &s.cart, s.dataBus, s.in, s.inputSet, s.switches)
}

// setMachine puts the CPU, TIA registers, RIOT, cartridge, data bus and input into the
// given state (Load and restoreFrame). The TIA's no-op write memo is cleared: it
// described the state being left.
func (c *Console) setMachine(cpu CPUState, tia *tiaState, riot *riotState, cart *cartState, dataBus uint8, in Input, inputSet bool, switches uint8) {
	c.cpu.SetState(cpu)
	c.tia.tiaState = *tia
	c.tia.noop = [64]uint16{}
	c.riot.riotState = *riot
	c.cart.load(cart)
	c.remapCart()
	c.cpu.dataBus = dataBus
	c.in, c.inputSet, c.switches = in, inputSet, switches
	c.applyInput()
}

// runDrawn starts a frame and runs it with drawing on, as update does.
func (t *tia) runDrawn() error {
	t.render = true
	t.startFrame()
	t.partial = true
	_, err := t.cpu.Run(25000)
	return err
}

// extent returns the end of the prefix of the current buffer the frame being run has
// drawn (or would have, undrawn); a frame that reached the end of the window counts as
// covering the whole buffer.
func (t *tia) extent() int {
	if t.framePtr >= screenWidth*int(t.height) {
		return bufSize
	}
	return min(max(t.framePtr, t.barEnd), bufSize)
}

// settleScreen updates the current buffer's record after a RunFrame and, when a drawn
// frame has left untouched pixels that recorded undrawn frames would have drawn, makes
// the buffer exact by running those frames again underneath.
func (c *Console) settleScreen() {
	t, u := c.tia, &c.undrawn
	i := t.cur
	e := t.extent()
	n := u.n[i]
	for n > 0 && u.ext[i][n-1] <= e {
		n-- // overwritten by this frame
	}
	if !t.render {
		// An undrawn frame always ends within its RunFrame (update reruns one that
		// does not, drawn).
		if n == maxRedo {
			u.lost[i] = max(u.lost[i], u.ext[i][0])
			copy(u.frames[i][:], u.frames[i][1:])
			copy(u.ext[i][:], u.ext[i][1:])
			n--
		}
		if u.lost[i] <= e {
			u.lost[i] = 0
		}
		u.frames[i][n], u.ext[i][n] = u.next, e
		u.n[i] = n + 1
		return
	}
	if n > 0 {
		c.redrawUnder(i, n)
		e = u.ext[i][0]
	}
	u.n[i] = 0
	if u.lost[i] <= e {
		u.lost[i] = 0
	}
}

// redrawUnder runs buffer i's first n recorded undrawn frames again, drawn, then puts
// back what the current frame has drawn so far.
func (c *Console) redrawUnder(i, n int) {
	t, u := c.tia, &c.undrawn
	drawn := min(max(t.framePtr, t.barEnd), bufSize)
	if u.scratch == nil {
		u.scratch = make([]byte, bufSize)
	}
	copy(u.scratch, t.bufs[i][:drawn])
	render, barEnd := t.render, t.barEnd
	c.saveFrame(&u.now)
	for k := range n {
		c.restoreFrame(&u.frames[i][k])
		_ = t.runDrawn() // it ended the first time; the same run ends the same way
	}
	c.restoreFrame(&u.now)
	t.render, t.barEnd = render, barEnd
	copy(t.bufs[i], u.scratch[:drawn])
}

// ScreenExact reports whether the current screen is what drawing every frame would
// have shown (ALE's screen). It is false after a frame run without drawing, and after
// a drawn frame that left untouched pixels the console could not redraw (more than
// maxRedo undrawn frames in a row over its buffer, each drawing less of it than the
// one before); a caller that sees that should draw every frame from then on.
func (c *Console) ScreenExact() bool {
	u := &c.undrawn
	return u.n[c.tia.cur] == 0 && u.lost[c.tia.cur] == 0
}
