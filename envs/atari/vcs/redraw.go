package vcs

// Frames run without drawing (SetRenderEnabled(false)) leave their frame buffer as it
// was. That is harmless while every frame draws the whole display window, but a frame
// that draws only part of it shows, in the rest, what the frame two before left in the
// same buffer, and an unfinished frame shows it until the frame ends
// (docs/design/emulator.md, Pixels nobody looks at). So the console remembers, per
// buffer, the start of the frames it ran there without drawing, and when a drawn frame
// leaves part of its window untouched at the end of a RunFrame, it runs those frames
// again, drawn, underneath what the drawn frame has drawn. Games that always draw
// their whole window never need it and pay only for a copy of the machine state at the
// start of each undrawn frame.

// bufStatus says how a frame buffer's content relates to what drawing every frame
// would have left in it.
type bufStatus uint8

const (
	// bufExact: the content is what drawing every frame gives.
	bufExact bufStatus = iota
	// bufRedo: the content is exact once the buffer's recorded undrawn frames are
	// run again, drawn, in order.
	bufRedo
	// bufLost: more undrawn frames than maxRedo left parts of the window untouched;
	// the content can no longer be made exact.
	bufLost
)

// maxRedo is the most undrawn frames recorded per buffer. A frame that draws the whole
// window replaces the record, so only a run of frames that each draw part of the window
// can exceed it.
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
	status [2]bufStatus
	n      [2]int
	frames [2][maxRedo]frameStart
	// next is the start of the undrawn frame being run; now holds the machine while
	// recorded frames are run again.
	next, now frameStart
	// scratch keeps the drawn frame's pixels during a redraw (allocated on first use).
	scratch []byte
}

// clear forgets every recorded frame: both buffers are exact (after a reset cleared
// them).
func (u *undrawnFrames) clear() {
	u.status = [2]bufStatus{}
	u.n = [2]int{}
}

// unknown marks both buffers as of unknown exactness (after Load: the saved console
// may have skipped drawing); a drawn frame that covers the window makes one exact.
func (u *undrawnFrames) unknown() {
	u.status = [2]bufStatus{bufLost, bufLost}
	u.n = [2]int{}
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

// settleScreen updates the current buffer's record after a RunFrame and, when a drawn
// frame has left part of its window untouched over a buffer that undrawn frames went
// through, makes the buffer exact by running those frames again underneath.
func (c *Console) settleScreen() {
	t, u := c.tia, &c.undrawn
	i := t.cur
	covered := t.framePtr >= screenWidth*int(t.height)
	if !t.render {
		// An undrawn frame always ends within its RunFrame (update reruns one that
		// does not, drawn).
		switch {
		case covered:
			u.n[i] = 0
		case u.status[i] == bufLost || u.n[i] == maxRedo:
			u.status[i] = bufLost
			return
		}
		u.frames[i][u.n[i]] = u.next
		u.n[i]++
		u.status[i] = bufRedo
		return
	}
	switch {
	case covered:
	case u.status[i] == bufRedo:
		c.redrawUnder(i)
	default:
		return // exact already, or lost for good
	}
	u.status[i], u.n[i] = bufExact, 0
}

// redrawUnder runs buffer i's recorded undrawn frames again, drawn, then puts back what
// the current frame has drawn so far (its pixels up to the frame pointer and any HMOVE
// bar written past it).
func (c *Console) redrawUnder(i int) {
	t, u := c.tia, &c.undrawn
	drawn := min(max(t.framePtr, t.barEnd), len(t.bufs[i]))
	if u.scratch == nil {
		u.scratch = make([]byte, bufSize)
	}
	copy(u.scratch, t.bufs[i][:drawn])
	render, barEnd := t.render, t.barEnd
	c.saveFrame(&u.now)
	for k := range u.n[i] {
		c.restoreFrame(&u.frames[i][k])
		_ = t.runDrawn() // it ended the first time; the same run ends the same way
	}
	c.restoreFrame(&u.now)
	t.render, t.barEnd = render, barEnd
	copy(t.bufs[i], u.scratch[:drawn])
}

// ScreenExact reports whether the current screen is what drawing every frame would
// have shown (ALE's screen). It is false after a frame run without drawing, and after
// a drawn frame that left part of its window untouched over a buffer whose content
// could not be made exact (more than maxRedo undrawn frames in a row over it, each
// drawing part of the window); a caller that sees that should draw every frame from
// then on.
func (c *Console) ScreenExact() bool { return c.undrawn.status[c.tia.cur] == bufExact }
