package vcs

// State is a snapshot of the whole machine: CPU, TIA (including both frame buffers),
// RIOT, cartridge banks and RAM, the system RNG, the data bus, inputs and switches.
// Reuse one State for repeated saves: only the first Save into it allocates.
type State struct {
	cpu      CPUState
	tia      tiaState
	riot     riotState
	cart     cartState
	rng      Random
	dataBus  uint8
	in       Input
	inputSet bool
	switches uint8
	bufs     [2][]byte
	valid    bool
	scheme   string // cartridge scheme and image size, checked by Load
	romSize  int
}

// Save copies the machine state into s.
func (c *Console) Save(s *State) {
	s.cpu = c.cpu.State()
	s.tia = c.tia.tiaState
	s.riot = c.riot.riotState
	c.cart.save(&s.cart)
	s.rng = c.rng
	s.dataBus = c.cpu.dataBus
	s.in, s.inputSet, s.switches = c.in, c.inputSet, c.switches
	for i := range s.bufs {
		if len(s.bufs[i]) != bufSize {
			s.bufs[i] = make([]byte, bufSize)
		}
		copy(s.bufs[i], c.tia.bufs[i])
	}
	s.valid = true
	s.scheme, s.romSize = c.cart.scheme(), c.romSize
}

// Load restores a state saved from this console (or one built from the same ROM and
// Config). Loading a State that was never saved does nothing; loading one saved from a
// different kind of cartridge is a programming error and panics (Restore reports it as
// an error instead, for states decoded from bytes).
func (c *Console) Load(s *State) {
	if !s.valid {
		return
	}
	if s.scheme != c.cart.scheme() || s.romSize != c.romSize {
		panic("vcs: Load of a State saved from a " + s.scheme + " cartridge into a " + c.cart.scheme() + " one")
	}
	c.setMachine(s.cpu, &s.tia, &s.riot, &s.cart, s.dataBus, s.in, s.inputSet, s.switches)
	c.rng = s.rng
	c.undrawn.unknown()
	for i := range s.bufs {
		copy(c.tia.bufs[i], s.bufs[i])
	}
}
