package vcs

import "testing"

// skipProgram builds a kernel whose frames differ from one another and do not always
// draw the whole display window. A frame counter in $80 counts kernel passes; the
// background of each line is the line's index plus the counter. A pass draws 250 lines,
// except that with long set, a pass whose counter is 1 mod 16 first computes for about
// 4,000 lines without touching the TIA (a frame that ends only after several RunFrames,
// forced by the line limit; rare enough that the console stays NTSC), and a pass whose
// counter is 2 mod shortEvery (a power of two; 1 means never) draws only 150 lines (a
// short frame: rows near the bottom stay as they were).
func skipProgram(long bool, shortEvery byte) []byte {
	p := &prog{}
	p.emit(0xA2, 0xFF, 0x9A) // LDX #$FF; TXS
	frame := 0xF000 + len(p.b)
	p.sta(0x00, 2).emit(0x85, 0x02, 0x85, 0x02, 0x85, 0x02).sta(0x00, 0) // VSYNC 3 lines
	p.emit(0xE6, 0x80)                                                   // INC $80
	if long {
		p.emit(0xA5, 0x80, 0x29, 0x0F, 0xC9, 0x01) // LDA $80; AND #15; CMP #1
		p.emit(0xD0, 0x0A)                         // BNE past the loops
		p.emit(0xA0, 0x00)                         // LDY #0
		p.emit(0xA2, 0x00)                         // outer: LDX #0
		p.emit(0xCA, 0xD0, 0xFD)                   // inner: DEX; BNE inner
		p.emit(0x88, 0xD0, 0xF8)                   // DEY; BNE outer
	}
	p.emit(0xA5, 0x80, 0x29, shortEvery-1, 0xC9, 0x02) // LDA $80; AND #n-1; CMP #2
	p.emit(0xD0, 0x04, 0xA0, 150, 0xD0, 0x02)          // BNE +4; LDY #150; BNE +2
	p.emit(0xA0, 250)                                  // LDY #250
	p.emit(0x98, 0x18, 0x65, 0x80)                     // lines: TYA; CLC; ADC $80
	p.emit(0x85, 0x02, 0x85, 0x09)                     // STA WSYNC; STA COLUBK
	p.emit(0x88, 0xD0, 0xF5)                           // DEY; BNE lines
	p.emit(0x4C, byte(frame), byte(frame>>8))          // JMP frame
	return p.rom()
}

// TestUndrawnFramesRedrawn runs frames that span several RunFrames and frames that
// end short, on one console drawing every frame and one drawing only some (in the
// patterns the Atari layer uses), and requires the same machine after every frame and
// the same screen, reported exact, after every drawn one.
func TestUndrawnFramesRedrawn(t *testing.T) {
	patterns := map[string]func(i int) bool{
		"skip4":     func(i int) bool { return i%4 >= 2 },
		"skip3":     func(i int) bool { return i%3 == 2 },
		"every5th":  func(i int) bool { return i%5 == 4 },
		"alternate": func(i int) bool { return i%2 == 0 },
	}
	for name, drawn := range patterns {
		t.Run(name, func(t *testing.T) {
			rom := skipProgram(true, 4)
			all, err := NewConsole(rom, DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			some, _ := NewConsole(rom, DefaultConfig())
			unfinished, short := 0, 0
			for i := range 300 {
				some.SetRenderEnabled(drawn(i))
				if err := all.RunFrame(); err != nil {
					t.Fatal(err)
				}
				if err := some.RunFrame(); err != nil {
					t.Fatal(err)
				}
				if all.tia.partial {
					unfinished++
				} else if all.Scanlines() < 34+210 {
					short++
				}
				if all.cpu.State() != some.cpu.State() || *all.RAM() != *some.RAM() || all.tia.collision != some.tia.collision || all.tia.partial != some.tia.partial {
					t.Fatalf("frame %d: the machine differs when some frames are not drawn", i)
				}
				if !drawn(i) {
					continue
				}
				if !some.ScreenExact() {
					t.Fatalf("frame %d: screen reported inexact", i)
				}
				if string(all.Screen()) != string(some.Screen()) {
					t.Fatalf("frame %d (scanlines %d, unfinished %v): screens differ", i, all.Scanlines(), all.tia.partial)
				}
			}
			if unfinished < 10 || short < 10 {
				t.Fatalf("%d unfinished and %d short frames: the program no longer exercises both", unfinished, short)
			}
		})
	}
}

// shrinkingProgram builds a kernel whose every frame is one line shorter than the one
// before, starting near 204 lines: each frame draws less of the window than the last
// (its background is its length in lines, so the frames differ).
func shrinkingProgram() []byte {
	p := &prog{}
	p.emit(0xA2, 0xFF, 0x9A).sta(0x81, 200) // LDX #$FF; TXS; $81 = 200
	frame := 0xF000 + len(p.b)
	p.sta(0x00, 2).emit(0x85, 0x02, 0x85, 0x02, 0x85, 0x02).sta(0x00, 0) // VSYNC 3 lines
	p.emit(0xC6, 0x81, 0xA4, 0x81, 0xA5, 0x81)                           // DEC $81; LDY $81; LDA $81
	p.emit(0x85, 0x02, 0x85, 0x09, 0x88, 0xD0, 0xF9)                     // lines: STA WSYNC; STA COLUBK; DEY; BNE lines
	p.emit(0x4C, byte(frame), byte(frame>>8))                            // JMP frame
	return p.rom()
}

// TestUndrawnFramesLost checks the one case the console cannot make exact: more than
// maxRedo undrawn frames over one buffer, each drawing less of it than the one before.
// After 2*maxRedo undrawn frames (maxRedo per buffer) a drawn one is exact; after
// 2*maxRedo+2 it is reported inexact, and it is: the oldest frame's bottom rows are
// missing.
func TestUndrawnFramesLost(t *testing.T) {
	for _, tc := range []struct {
		undrawn int
		exact   bool
	}{{2 * maxRedo, true}, {2*maxRedo + 2, false}} {
		all, err := NewConsole(shrinkingProgram(), DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		some, _ := NewConsole(shrinkingProgram(), DefaultConfig())
		_, _ = all.RunFrame(), some.RunFrame() // the few lines from reset to the first VSYNC
		for i := range tc.undrawn + 1 {
			some.SetRenderEnabled(i == tc.undrawn)
			_ = all.RunFrame()
			_ = some.RunFrame()
		}
		if all.Scanlines() >= 34+210 {
			t.Fatalf("%d scanlines: the frames are not short", all.Scanlines())
		}
		if some.ScreenExact() != tc.exact {
			t.Errorf("after %d undrawn shrinking frames: ScreenExact %v, want %v", tc.undrawn, some.ScreenExact(), tc.exact)
		}
		if same := string(all.Screen()) == string(some.Screen()); same != tc.exact {
			t.Errorf("after %d undrawn shrinking frames: screens equal %v, want %v", tc.undrawn, same, tc.exact)
		}
	}
}

// TestLoadForgetsExactness checks that after Load the screen is not claimed exact (the
// saved buffers may come from skipped frames) until a drawn frame covers the window.
func TestLoadForgetsExactness(t *testing.T) {
	c, err := NewConsole(skipProgram(false, 1), DefaultConfig()) // every pass 250 lines
	if err != nil {
		t.Fatal(err)
	}
	_ = c.RunFrame()
	if !c.ScreenExact() {
		t.Fatal("a console drawing every frame reports an inexact screen")
	}
	var s State
	c.Save(&s)
	c.Load(&s)
	if c.ScreenExact() {
		t.Error("screen reported exact right after Load")
	}
	_ = c.RunFrame()
	if !c.ScreenExact() {
		t.Error("screen still reported inexact after drawn frames covering the window")
	}
}
