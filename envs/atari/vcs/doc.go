// Package vcs is an Atari 2600 (Video Computer System) in pure Go. It behaves like the
// Stella core that the Arcade Learning Environment (ALE 0.12.1) embeds, frame for
// frame, including where that core departs from real hardware: every score, screen
// and RAM byte that published Atari results rest on came out of that core. Package
// atari builds ALE's game layer and EnvPool's Atari tasks on it; the rules the
// emulator follows are described in docs/design/emulator.md.
//
// # The machine
//
// A Console is the whole machine, one chip per file:
//
//   - the 6507 CPU (CPU, cpu*.go), modelled as ALE's M6502Low: each instruction's base
//     cycles are charged right after its opcode fetch, decimal mode and the
//     undocumented opcodes are Stella's, and a JAM opcode halts it with an error
//     wrapping ErrJAM (a *JAMError);
//   - the TIA (tia*.go): the picture, drawn lazily up to each register access, the
//     collision latches and the controller input pins;
//   - the RIOT, a 6532 (riot.go): 128 bytes of RAM, the interval timer, and the I/O
//     ports that read the joysticks and the console switches;
//   - the cartridge (cart*.go): the bank-switching schemes in SupportedSchemes,
//     detected from the ROM image as Stella detects them (DetectScheme);
//   - the palette (palette.go): screen bytes are colour register values with bit 0
//     cleared, and NTSCPalette and NTSCGray map byte>>1 to RGB and to ALE's gray;
//   - the system random generator (Random, an MT19937), seeded from Config.Seed, which
//     fills RIOT RAM, the RIOT timer and Superchip RAM in ALE's order.
//
// # Using it
//
// NewConsole builds a console from a ROM image and a Config. Start from DefaultConfig
// (ALE's default properties) and set what the game's properties entry changes: the
// scheme, the screen window (YStart, Height), paddles instead of joysticks, the
// difficulty switches. NewConsole performs ALE's construction, including the frames
// it runs to tell NTSC from PAL, so the console is ready to run.
//
// Then, once per frame: SetInput with the events held during the frame (joystick
// directions and fire for players A and B, paddle resistances, the Reset and Select
// switches), RunFrame, and read the results: Screen (160 x Height bytes, not a copy),
// RAM (the live 128 bytes a game keeps its score and lives in), or any bus address
// through Peek.
//
//	con, err := vcs.NewConsole(rom, vcs.DefaultConfig())
//	if err != nil {
//		return err // unknown scheme or bad ROM size
//	}
//	con.SetInput(vcs.Input{Fire: [2]bool{true, false}}) // player A holds FIRE
//	for range 4 {
//		if err := con.RunFrame(); err != nil {
//			return err // errors.Is(err, vcs.ErrJAM): the CPU jammed; Reset recovers
//		}
//	}
//	gray := make([]byte, 160*con.Height())
//	vcs.GrayscaleScreen(gray, con.Screen())
//	rgb := vcs.NTSCPalette[con.Screen()[0]>>1] // the top-left pixel's colour
//	lives := con.RAM()[0xBA-0x80]              // RAM address $BA, if the game keeps lives there
//
// Reset is Stella's System::reset, not the console's Reset switch (that is
// Input.Reset): it resets the RIOT, TIA and cartridge, then the CPU; RIOT RAM keeps
// its contents, Superchip RAM is drawn afresh from the system random generator.
//
// Save copies the whole machine into a State and Load restores it; reuse one State,
// since only its first Save allocates. SetRenderEnabled(false) skips writing pixels
// for frames nobody looks at; the frames still run exactly, collisions included, and
// the screens of drawn frames stay those of drawing every frame (ScreenExact).
//
// A Console is not safe for concurrent use. Consoles share no mutable state, so
// separate goroutines may each run their own.
package vcs
