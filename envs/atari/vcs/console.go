package vcs

import "fmt"

// Config holds the ROM properties ALE takes from its properties table that affect
// emulation (docs/design/emulator.md, ROM properties). Start from DefaultConfig and
// change what the game needs.
type Config struct {
	// Scheme is the cartridge scheme; "" auto-detects as Stella does
	// (docs/design/emulator.md, Cartridges).
	Scheme string
	// YStart is the first frame line shown on screen (default 34).
	YStart int
	// Height is the number of screen rows (default 210; 250 if PAL is detected).
	Height int
	// HmoveBlanks enables the HMOVE bar (property HmoveBlanks, default true).
	HmoveBlanks bool
	// Paddles puts paddles in the left port (else a joystick).
	Paddles bool
	// RightPaddles puts paddles in the right port (Pong has paddles in both).
	RightPaddles bool
	// SwapPaddles swaps paddle 0/1 (and 2/3) within a port (Pong).
	SwapPaddles bool
	// SwapPorts stores the left controller in the right slot and vice versa.
	SwapPorts bool
	// LeftDifficultyA and RightDifficultyA are the property defaults of the
	// difficulty switches (false = B).
	LeftDifficultyA, RightDifficultyA bool
	// Seed seeds the system RNG (ALE's system_random_seed, default 4753849).
	Seed uint32
	// Format is the property Display.Format: "" auto-detects NTSC or PAL by running
	// 60 frames, as Stella does for every ROM whose properties leave it unset; "NTSC"
	// or "PAL" fixes the format and skips those frames (Maze Craze's entry says PAL).
	Format string
}

// DefaultConfig returns ALE's default properties: auto-detected scheme, YStart 34,
// Height 210, HMOVE blanks on, joysticks, difficulty B/B, seed 4753849.
func DefaultConfig() Config {
	return Config{YStart: 34, Height: 210, HmoveBlanks: true, Seed: 4753849}
}

// Console is a whole Atari 2600 as ALE's Stella core builds it: CPU, RIOT, TIA and
// cartridge on the 13-bit bus, plus controllers, switches and the system RNG.
type Console struct {
	cfg    Config
	cpu    *CPU
	tia    *tia
	riot   *riot
	cart   cartridge
	rng    Random
	height int
	pal    bool
	// romSize is the size of the cartridge image (States check it).
	romSize int

	in       Input
	inputSet bool
	switches uint8

	// Controller values derived from the input events.
	swchaVal      uint8
	inpt          [2]uint8 // INPT4, INPT5 bit 7
	potResistance [4]int32 // INPT0..INPT3 analog pins

	// undrawn records the frames run without drawing (see redraw.go).
	undrawn undrawnFrames
}

// NewConsole builds the console for rom in ALE's order
// (docs/design/emulator.md, Construction, reset and randomness): system RNG, CPU, RIOT
// (randomised RAM), TIA, cartridge; unless Config.Format fixes the format, a System
// reset and the 60 PAL-detection frames; and a final System reset. Wrong sizes or unknown schemes return an error that names the
// supported schemes.
func NewConsole(rom []byte, cfg Config) (*Console, error) {
	c, err := buildConsole(rom, cfg)
	if err != nil {
		return nil, err
	}
	pal := cfg.Format == "PAL"
	if cfg.Format == "" {
		c.Reset()
		palFrames := 0
		for i := 0; i < 60; i++ {
			_ = c.tia.update() // a JAM here is reported by the caller's first RunFrame
			if i >= 30 && c.tia.scanlines() > 285 {
				palFrames++
			}
		}
		pal = palFrames >= 15
	}
	if pal {
		if c.height == 210 {
			c.height = 250
		}
		c.setDisplay(true)
	}
	c.Reset()
	return c, nil
}

// buildConsole creates the devices in ALE's order (RNG, CPU, RIOT, TIA, cartridge)
// without resetting or running anything. Tests use it to poke the bus directly.
func buildConsole(rom []byte, cfg Config) (*Console, error) {
	if cfg.Height <= 0 || cfg.Height > maxRows || cfg.YStart < 0 || cfg.YStart > 400 {
		return nil, fmt.Errorf("vcs: bad screen geometry YStart %d Height %d", cfg.YStart, cfg.Height)
	}
	if cfg.Format != "" && cfg.Format != "NTSC" && cfg.Format != "PAL" {
		return nil, fmt.Errorf("vcs: display format %q: use \"NTSC\", \"PAL\" or \"\" to auto-detect", cfg.Format)
	}
	cart, err := newCartridge(rom, cfg.Scheme)
	if err != nil {
		return nil, err
	}
	c := &Console{cfg: cfg, cart: cart, height: cfg.Height, romSize: len(rom)}
	c.rng.Seed(cfg.Seed)
	c.cpu = NewCPU(c)
	c.cart.attach(c)
	c.riot = newRIOT(c)
	c.tia = newTIA(c)
	c.tia.allowHmoveBlanks = cfg.HmoveBlanks
	c.mapPages()
	c.setDisplay(false)
	c.switches = 0xFF
	if !cfg.LeftDifficultyA {
		c.switches &^= 0x40
	}
	if !cfg.RightDifficultyA {
		c.switches &^= 0x80
	}
	c.applyInput()
	return c, nil
}

// setDisplay sets the TIA's display window and the NTSC/PAL line limit.
func (c *Console) setDisplay(pal bool) {
	c.pal = pal
	c.tia.yStart = int32(c.cfg.YStart)
	c.tia.height = int32(c.height)
	c.tia.maxLines = 290
	c.tia.colorLoss = pal
	if pal {
		c.tia.maxLines = 342
	}
}

// Reset is System::reset (docs/design/emulator.md, Construction, reset and randomness):
// rebase and zero the cycle counter, reset the RIOT, TIA and cartridge in attach order,
// then the CPU.
func (c *Console) Reset() {
	c.resetCycles()
	c.riot.reset()
	c.tia.reset()
	c.undrawn.clear() // the TIA's reset cleared both buffers
	c.cart.reset(c)
	c.cpu.Reset()
}

// resetCycles tells every device to rebase its cycle stamps, then zeroes the counter.
func (c *Console) resetCycles() {
	cyc := uint32(c.cpu.Cycles)
	c.riot.rebase(cyc)
	c.tia.rebase(cyc)
	c.cart.rebase(cyc)
	c.cpu.Cycles = 0
}

// cycles returns the system cycle counter as Stella's uint32.
func (c *Console) cycles() uint32 { return uint32(c.cpu.Cycles) }

// RunFrame runs one TIA frame update (docs/design/emulator.md, Frames). A jammed CPU
// returns an error wrapping ErrJAM (the frame is then partial and greyed, as in ALE).
func (c *Console) RunFrame() error { return c.tia.update() }

// Screen returns the current frame buffer's 160 x Height bytes (colour values & 0xFE,
// ALE's getScreen). It is not a copy: it changes with the next frame.
func (c *Console) Screen() []byte { return c.tia.bufs[c.tia.cur][:screenWidth*c.height] }

// RAM returns the live 128 bytes of RIOT RAM ($80-$FF).
func (c *Console) RAM() *[128]byte { return &c.riot.RAM }

// Peek performs a system bus read as ALE's RAM wrappers do (it updates the data-bus
// value and any device side effects). It is the API's ReadByte, renamed because go vet
// reserves the name ReadByte for io.ByteReader's signature.
func (c *Console) Peek(addr uint16) uint8 { return c.Read(addr) }

// Scanlines returns the scanline count of the frame just run (the current frame
// position, as ALE's PAL detection reads it).
func (c *Console) Scanlines() int { return int(c.tia.scanlines()) }

// Random returns the system random generator (MT19937).
func (c *Console) Random() *Random { return &c.rng }

// Scheme returns the cartridge scheme in use.
func (c *Console) Scheme() string { return c.cart.scheme() }

// Height returns the number of screen rows.
func (c *Console) Height() int { return c.height }

// PAL reports whether the console runs as PAL: as Config.Format says, or as the 60
// detection frames classified the ROM.
func (c *Console) PAL() bool { return c.pal }

// CPU returns the console's CPU (for tests and debugging).
func (c *Console) CPU() *CPU { return c.cpu }

// SetRenderEnabled turns pixel colour writes on or off for the frames that start from
// now on. When off, frames still run exactly (collisions are still computed) but the
// screen buffer is not written; use it for frames nobody looks at. Screens shown with
// it on are those of drawing every frame (see ScreenExact): a frame that does not end
// within one RunFrame is drawn whole, and frames that leave part of the window
// untouched get the pixels the undrawn frames before them would have left there.
func (c *Console) SetRenderEnabled(on bool) {
	c.tia.wantRender = on
	c.tia.render = on || c.tia.partial
}

// Read is the system bus read (docs/design/emulator.md, The bus): 13-bit decode to TIA,
// RIOT RAM, RIOT I/O or cartridge, with the full address passed to devices. It records
// the data-bus value.
func (c *Console) Read(addr uint16) uint8 {
	if p := c.cpu.rpages[(addr>>6)&127]; p != nil {
		v := p[addr&63]
		c.cpu.dataBus = v
		return v
	}
	return c.readDevice(addr)
}

// readDevice is the slow path of Read for pages without direct access.
func (c *Console) readDevice(addr uint16) uint8 {
	a := addr & 0x1FFF
	var v uint8
	switch {
	case a&0x1000 != 0:
		v = c.cart.read(addr)
	case a&0x80 == 0:
		v = c.tia.read(addr)
	case a&0x200 == 0:
		v = c.riot.RAM[a&0x7F]
	default:
		v = c.riot.read(addr)
	}
	c.cpu.dataBus = v
	return v
}

// mapPages rebuilds the direct-access page tables: RIOT RAM pages (read and write),
// then the cartridge's read pages.
func (c *Console) mapPages() {
	for p := 0; p < 64; p++ {
		a := p << 6
		c.cpu.rpages[p], c.cpu.wpages[p] = nil, nil
		if a&0x80 != 0 && a&0x200 == 0 {
			ram := (*[64]byte)(c.riot.RAM[a&0x40:])
			c.cpu.rpages[p], c.cpu.wpages[p] = ram, ram
		}
	}
	c.cart.mapPages(c.cpu.rpages[64:])
}

// remapCart refreshes the cartridge pages after a bank switch.
func (c *Console) remapCart() { c.cart.mapPages(c.cpu.rpages[64:]) }

// Write is the system bus write; it records the data-bus value after the device call.
func (c *Console) Write(addr uint16, v uint8) {
	a := addr & 0x1FFF
	switch {
	case a&0x1000 != 0:
		c.cart.write(addr, v)
	case a&0x80 == 0:
		c.tia.write(addr, v)
	case a&0x200 == 0:
		c.riot.RAM[a&0x7F] = v
	default:
		c.riot.write(addr, v)
	}
	c.cpu.dataBus = v
}

// String describes the console briefly (scheme, geometry).
func (c *Console) String() string {
	return fmt.Sprintf("vcs.Console{%s, YStart %d, Height %d, PAL %v}",
		c.cart.scheme(), c.cfg.YStart, c.height, c.pal)
}
