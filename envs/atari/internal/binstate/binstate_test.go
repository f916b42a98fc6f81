package binstate

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// sample is a state with one field of every kind the codec handles.
type sample struct {
	u8   uint8
	flag bool
	u16  uint16
	u32  uint32
	u64  uint64
	i32  int32
	n    int
	in   int // must lie in 0..9
	f32  float32
	f64  float64
	raw  [3]byte
	blob []byte
}

func (s *sample) fields(c *Codec) {
	c.U8(&s.u8)
	c.Bool(&s.flag)
	c.U16(&s.u16)
	c.U32(&s.u32)
	c.U64(&s.u64)
	c.I32(&s.i32)
	c.Int(&s.n)
	c.IntIn("digit", &s.in, 0, 9)
	c.F32(&s.f32)
	c.F64(&s.f64)
	c.Bytes(s.raw[:])
	c.Blob(&s.blob)
}

func encodeSample(s sample) []byte {
	c := NewWriter([]byte("prefix"))
	s.fields(c)
	c.Seal(len("prefix"))
	return c.Data()[len("prefix"):]
}

func decodeSample(b []byte) (sample, error) {
	var s sample
	c, err := Open(b, "test state")
	if err != nil {
		return s, err
	}
	s.fields(c)
	return s, c.Finish()
}

// TestRoundTrip checks that each kind of field reads back as written, with the
// layout spelled out: fixed little-endian sizes, a length before a blob, a CRC-32 last.
func TestRoundTrip(t *testing.T) {
	want := sample{u8: 0xAB, flag: true, u16: 0x1234, u32: 0xDEADBEEF, u64: 1<<63 | 5, i32: -2,
		n: -7, in: 9, f32: float32(math.Inf(-1)), f64: math.Pi, raw: [3]byte{1, 2, 3}, blob: []byte("xyz")}
	b := encodeSample(want)
	if n := 1 + 1 + 2 + 4 + 8 + 4 + 8 + 8 + 4 + 8 + 3 + 4 + 3 + 4; len(b) != n {
		t.Fatalf("encoding is %d bytes, want %d", len(b), n)
	}
	if !bytes.Equal(b[:4], []byte{0xAB, 1, 0x34, 0x12}) {
		t.Fatalf("encoding starts % x, want ab 01 34 12", b[:4])
	}
	got, err := decodeSample(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.u8 != want.u8 || got.flag != want.flag || got.u16 != want.u16 || got.u32 != want.u32 ||
		got.u64 != want.u64 || got.i32 != want.i32 || got.n != want.n || got.in != want.in ||
		got.f32 != want.f32 || got.f64 != want.f64 || got.raw != want.raw || string(got.blob) != string(want.blob) {
		t.Fatalf("decoded %+v, want %+v", got, want)
	}
}

// TestErrors checks the decoder's refusals: damage, truncation, range, bad flags and
// leftover bytes.
func TestErrors(t *testing.T) {
	good := encodeSample(sample{in: 3, blob: []byte("ab")})
	reseal := func(body []byte) []byte {
		c := NewWriter(bytes.Clone(body))
		c.Seal(0)
		return c.Data()
	}
	body := good[:len(good)-4]
	flag := bytes.Clone(body)
	flag[1] = 2
	digit := bytes.Clone(body)
	digit[1+1+2+4+8+4+8] = 10
	cases := []struct {
		name, want string
		b          []byte
	}{
		{"too short", "truncated", good[:3]},
		{"damaged", "damaged", append(bytes.Clone(body[:10]), good[11:]...)},
		{"cut before sealing", "truncated", reseal(body[:20])},
		{"blob longer than what is left", "a part of", reseal(body[:len(body)-1])},
		{"bad flag", "a flag holds 2", reseal(flag)},
		{"out of range", "digit is 10, want 0..9", reseal(digit)},
		{"leftover", "1 unexpected bytes", reseal(append(bytes.Clone(body), 0))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := decodeSample(c.b)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "test state") {
				t.Fatalf("error %v, want one naming the state and mentioning %q", err, c.want)
			}
		})
	}
}
