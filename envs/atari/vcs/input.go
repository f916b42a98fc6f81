package vcs

// Input is the set of Stella events for the next frame(s), as ALE sets them.
type Input struct {
	// Up, Down, Left, Right and Fire are the JoystickZero/JoystickOne events
	// (index 0 = ALE player A).
	Up, Down, Left, Right, Fire [2]bool
	// PaddleResistance holds the PaddleZero..Three resistance events.
	PaddleResistance [4]int32
	// PaddleFire holds PaddleZeroFire..PaddleThreeFire.
	PaddleFire [4]bool
	// Reset and Select are the console switches (held while true).
	Reset, Select bool
	// LeftDifficultyA and RightDifficultyA select difficulty A (false = B event).
	LeftDifficultyA, RightDifficultyA bool
}

// SetInput sets the events for the following frames.
func (c *Console) SetInput(in Input) {
	c.in = in
	c.inputSet = true
	c.applyInput()
}

// applyInput derives SWCHA, INPT4/5 and the analog pins from the events.
func (c *Console) applyInput() {
	var swcha uint8
	for slot := 0; slot < 2; slot++ {
		pins := c.digitalPins(slot)
		nib := pins & 0x0F
		if slot == 0 {
			swcha |= nib << 4
		} else {
			swcha |= nib
		}
		c.inpt[slot] = 0
		if pins&0x20 != 0 {
			c.inpt[slot] = 0x80
		}
		c.potResistance[slot*2], c.potResistance[slot*2+1] = c.analogPins(slot)
	}
	c.swchaVal = swcha
}

// jack returns which controller (0 = left property, 1 = right) sits in slot, and
// whether it is a paddle controller.
func (c *Console) jack(slot int) (int, bool) {
	j := slot
	if c.cfg.SwapPorts {
		j ^= 1
	}
	if j == 0 {
		return j, c.cfg.Paddles
	}
	return j, c.cfg.RightPaddles
}

// digitalPins returns pins 1-4 in bits 0-3 and pin 6 in bit 5 for the controller in
// slot; a set bit means the pin reads 1 (not pressed).
func (c *Console) digitalPins(slot int) uint8 {
	j, paddles := c.jack(slot)
	in := &c.in
	if !paddles {
		var v uint8 = 0x2F
		if in.Up[j] {
			v &^= 1
		}
		if in.Down[j] {
			v &^= 2
		}
		if in.Left[j] {
			v &^= 4
		}
		if in.Right[j] {
			v &^= 8
		}
		if in.Fire[j] {
			v &^= 0x20
		}
		return v
	}
	a, b := 2*j, 2*j+1 // pin 4 and pin 3 fire events without swap
	if c.cfg.SwapPaddles {
		a, b = b, a
	}
	var v uint8 = 0x2F
	if in.PaddleFire[b] {
		v &^= 4 // pin 3
	}
	if in.PaddleFire[a] {
		v &^= 8 // pin 4
	}
	return v
}

// analogPins returns the pin 9 and pin 5 resistances of the controller in slot.
func (c *Console) analogPins(slot int) (pin9, pin5 int32) {
	j, paddles := c.jack(slot)
	if !paddles {
		return maxResistance, maxResistance
	}
	a, b := 2*j, 2*j+1
	if c.cfg.SwapPaddles {
		a, b = b, a
	}
	return c.in.PaddleResistance[a], c.in.PaddleResistance[b]
}

// swcha is the RIOT port A read: controller pins 1-4.
func (c *Console) swcha() uint8 { return c.swchaVal }

// swchb is the RIOT port B read: console switches with the current events applied
// (Stella's Switches::read).
func (c *Console) swchb() uint8 {
	if c.inputSet {
		if c.in.RightDifficultyA {
			c.switches |= 0x80
		} else {
			c.switches &^= 0x80
		}
		if c.in.LeftDifficultyA {
			c.switches |= 0x40
		} else {
			c.switches &^= 0x40
		}
	}
	if c.in.Select {
		c.switches &^= 0x02
	} else {
		c.switches |= 0x02
	}
	if c.in.Reset {
		c.switches &^= 0x01
	} else {
		c.switches |= 0x01
	}
	return c.switches
}
