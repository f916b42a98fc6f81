package vcs

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// newDriver builds a console for a test game and performs ALE's reset on it.
func newDriver(t *testing.T, game string) *aleDriver {
	t.Helper()
	cfg := gameConfig(game)
	c, err := NewConsole(loadROM(t, game+".bin"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	d := &aleDriver{c: c, game: game, paddles: cfg.Paddles}
	if err := d.resetGame(); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestStateBinaryRoundTrip saves mid-game and encodes the state, plays on, then decodes
// the bytes into a second console of the same ROM that has played differently and
// replays the same frames there: every frame (RAM, screen, scanlines) must equal the
// original's. The games cover every cartridge with state: plain 2K/4K, F8, Superchip,
// E0, FE and DPC.
func TestStateBinaryRoundTrip(t *testing.T) {
	romDir(t)
	all := []int{0, 1, 2, 3, 4, 5, 11, 12}
	for _, game := range []string{"pong", "breakout", "space_invaders", "ms_pacman", "elevator_action", "montezuma_revenge", "robotank", "pitfall2", "klax"} {
		t.Run(game, func(t *testing.T) {
			d := newDriver(t, game)
			runActions(t, d, randomActions(300, all, 7))
			var s State
			d.c.Save(&s)
			b, err := s.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			paddle := d.paddle
			after := randomActions(150, all, 99)
			want := runActions(t, d, after)

			other := newDriver(t, game)
			runActions(t, other, randomActions(77, all, 3))
			var s2 State
			if err := s2.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			if b2, err := s2.MarshalBinary(); err != nil || !bytes.Equal(b2, b) {
				t.Fatalf("re-encoding the decoded state gives different bytes (err %v)", err)
			}
			if err := other.c.Restore(&s2); err != nil {
				t.Fatal(err)
			}
			other.paddle = paddle
			got := runActions(t, other, after)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("frame %d after restoring the decoded state differs", i)
				}
			}
		})
	}
}

// fillRandom sets every number and flag reachable from v (through structs and arrays,
// unexported fields included) to random values. Pointers and slices are left alone.
func fillRandom(v reflect.Value, r *rand.Rand) {
	if !v.CanSet() {
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fillRandom(v.Field(i), r)
		}
	case reflect.Array:
		for i := range v.Len() {
			fillRandom(v.Index(i), r)
		}
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(r.Uint64()) >> (64 - 8*v.Type().Size()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(r.Uint64() >> (64 - 8*v.Type().Size()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(r.NormFloat64())
	}
}

// TestStateBinaryEveryField fills every field of a State with random values (then
// brings the few range-checked ones into range) and checks that decoding its encoding
// gives an equal State: a field the encoding forgets fails it.
func TestStateBinaryEveryField(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		var s State
		fillRandom(reflect.ValueOf(&s).Elem(), r)
		s.valid, s.scheme, s.romSize = true, "F8SC", 8192
		s.tia.framePtr = r.IntN(bufSize + 1)
		s.tia.cur, s.tia.cosmicCounter = r.IntN(2), r.IntN(4)
		for _, p := range []*int32{&s.tia.posp0, &s.tia.posp1, &s.tia.posm0, &s.tia.posm1, &s.tia.posbl} {
			*p = r.Int32N(160)
		}
		s.tia.p0Mask = playerMask(s.tia.posp0, uint8(r.IntN(8)), r.IntN(2))
		s.tia.p1Mask = playerMask(s.tia.posp1, uint8(r.IntN(8)), r.IntN(2))
		s.tia.m0Mask = missileMask(s.tia.posm0, uint8(r.IntN(256)))
		s.tia.m1Mask = hiddenMask()
		s.tia.blMask = ballMask(s.tia.posbl, uint8(r.IntN(256)))
		s.tia.pfMask = &pfMaskTab[r.IntN(2)]
		s.cart.Bank = r.IntN(8)
		for i := range s.cart.Seg {
			s.cart.Seg[i] = uint16(r.IntN(8))
		}
		for i := range s.cart.DPC.Counters {
			s.cart.DPC.Counters[i] &= 0x7FF
		}
		s.rng.idx = r.IntN(625)
		for i := range s.bufs {
			s.bufs[i] = make([]byte, bufSize)
			for j := range s.bufs[i] {
				s.bufs[i][j] = uint8(r.Uint32())
			}
		}
		b, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var got State
		if err := got.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, s) {
			t.Fatalf("decoded State differs from the encoded one:\n got %+v\nwant %+v", got.tia, s.tia)
		}
	}
}

// reseal replaces the CRC-32 trailer of an encoded state after a deliberate edit, so
// that the decoder's own checks, not the checksum, meet the edit.
func reseal(b []byte) []byte {
	n := len(b) - 4
	binary.LittleEndian.PutUint32(b[n:], crc32.ChecksumIEEE(b[:n]))
	return b
}

// TestStateBinaryErrors checks that bad encodings and states that do not fit the
// console are errors (never panics) that leave the State and console as they were.
func TestStateBinaryErrors(t *testing.T) {
	romDir(t)
	d := newDriver(t, "ms_pacman") // F8
	runActions(t, d, randomActions(50, []int{0, 2, 3}, 1))
	var s State
	d.c.Save(&s)
	good, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	mod := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	offTIA := 1 + 1 + len("F8") + 8 + 5 + 2 + 8 + 3 + 1 + 2 + 9*4 // the TIA's frame pointer
	cases := []struct {
		name, want string
		b          []byte
	}{
		{"empty", "truncated", nil},
		{"one byte", "truncated", good[:1]},
		{"truncated", "damaged", good[:len(good)/2]},
		{"cut at the end", "damaged", good[:len(good)-1]},
		{"flipped byte", "damaged", mod(func(b []byte) []byte { b[1000] ^= 0x10; return b })},
		{"extra byte", "damaged", append(bytes.Clone(good), 0)},
		{"future version", "format version 2", mod(func(b []byte) []byte { b[0] = 2; return reseal(b) })},
		{"unknown scheme", "unknown cartridge scheme", mod(func(b []byte) []byte { b[2] = 'Z'; return reseal(b) })},
		{"frame pointer", "frame pointer", mod(func(b []byte) []byte { b[offTIA+7] = 0x40; return reseal(b) })},
		{"short but sealed", "truncated", reseal(append(bytes.Clone(good[:len(good)/2]), 0, 0, 0, 0))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := s
			err := s.UnmarshalBinary(c.b)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one mentioning %q", err, c.want)
			}
			if !reflect.DeepEqual(before, s) {
				t.Fatal("a failed decode changed the State")
			}
		})
	}

	// A state of another ROM, and a bank the cartridge does not have.
	other := newDriver(t, "space_invaders") // 4K
	ram := *other.c.RAM()
	if err := other.c.Restore(&s); err == nil || !strings.Contains(err.Error(), "F8 cartridge of 8192 bytes") {
		t.Fatalf("restoring an F8 state into a 4K console: error %v", err)
	}
	bad := s
	bad.cart.Bank = 5
	if err := d.c.Restore(&bad); err == nil || !strings.Contains(err.Error(), "bank 5") {
		t.Fatalf("restoring bank 5 of an F8 cartridge: error %v", err)
	}
	if err := other.c.Restore(&State{}); err == nil {
		t.Fatal("restoring a State that was never saved gave no error")
	}
	if *other.c.RAM() != ram {
		t.Fatal("a refused Restore changed the console")
	}
	if _, err := new(State).MarshalBinary(); err == nil {
		t.Fatal("encoding a State that was never saved gave no error")
	}
}

// TestRandomBinary checks that a generator restored from its encoding continues the
// same sequence, and that a bad encoding is refused.
func TestRandomBinary(t *testing.T) {
	g := NewRandom(42)
	for range 1000 {
		g.Next()
	}
	b, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	h := NewRandom(7)
	if err := h.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		if x, y := g.Next(), h.Next(); x != y {
			t.Fatalf("draw %d: restored generator gives %d, original %d", i, y, x)
		}
	}
	if err := h.UnmarshalBinary(b[:100]); err == nil {
		t.Fatal("a truncated generator state gave no error")
	}
	binary.LittleEndian.PutUint64(b[len(b)-8:], 625) // the index after the last word is 624
	if err := h.UnmarshalBinary(b); err == nil {
		t.Fatal("a generator index beyond its 624 words gave no error")
	}
}

// TestInputBinary checks an input's round trip and a bad flag.
func TestInputBinary(t *testing.T) {
	in := Input{PaddleResistance: [4]int32{1, -2, 300000, 4}, Reset: true, RightDifficultyA: true}
	in.Fire[1], in.Left[0], in.PaddleFire[2] = true, true, true
	b, err := in.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Input
	if err := got.UnmarshalBinary(b); err != nil || got != in {
		t.Fatalf("round trip gives %+v (error %v), want %+v", got, err, in)
	}
	b[0] = 2
	if err := got.UnmarshalBinary(b); err == nil {
		t.Fatal("a flag byte of 2 gave no error")
	}
}
