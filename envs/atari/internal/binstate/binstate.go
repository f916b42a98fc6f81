// Package binstate encodes and decodes the saved states of the Atari envs and their
// emulator: fixed-size little-endian values written field by field, in an order the
// writer and the reader of each state agree on. A Decoder records the first problem
// (a truncated state, a value out of range) and reads zeros after it, so a decoding
// function reads every field and calls Finish once at the end.
package binstate

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
)

// Encoder appends values to a byte slice.
type Encoder struct {
	// B is the encoding so far.
	B []byte
}

// U8 appends one byte.
func (e *Encoder) U8(v uint8) { e.B = append(e.B, v) }

// Bool appends a bool as one byte, 0 or 1.
func (e *Encoder) Bool(v bool) {
	var b uint8
	if v {
		b = 1
	}
	e.B = append(e.B, b)
}

// U16 appends a 16-bit value.
func (e *Encoder) U16(v uint16) { e.B = binary.LittleEndian.AppendUint16(e.B, v) }

// U32 appends a 32-bit value.
func (e *Encoder) U32(v uint32) { e.B = binary.LittleEndian.AppendUint32(e.B, v) }

// U64 appends a 64-bit value.
func (e *Encoder) U64(v uint64) { e.B = binary.LittleEndian.AppendUint64(e.B, v) }

// I32 appends a signed 32-bit value.
func (e *Encoder) I32(v int32) { e.U32(uint32(v)) }

// Int appends an int as 64 bits, whatever the platform's int size.
func (e *Encoder) Int(v int) { e.U64(uint64(int64(v))) }

// F32 appends a float32's bits.
func (e *Encoder) F32(v float32) { e.U32(math.Float32bits(v)) }

// F64 appends a float64's bits.
func (e *Encoder) F64(v float64) { e.U64(math.Float64bits(v)) }

// Bytes appends b as it is; the decoder must know its length.
func (e *Encoder) Bytes(b []byte) { e.B = append(e.B, b...) }

// Blob appends b preceded by its length, for parts whose size the decoder learns
// from the encoding.
func (e *Encoder) Blob(b []byte) {
	e.U32(uint32(len(b)))
	e.Bytes(b)
}

// Seal appends the CRC-32 (IEEE) of everything from start on, so that Open can tell a
// damaged state from a valid one.
func (e *Encoder) Seal(start int) { e.U32(crc32.ChecksumIEEE(e.B[start:])) }

// Decoder reads values in the order an Encoder wrote them.
type Decoder struct {
	b    []byte
	what string // names the state in errors ("atari: Pong env state")
	err  error
}

// NewDecoder returns a decoder of b; what names the state in its errors.
func NewDecoder(b []byte, what string) *Decoder { return &Decoder{b: b, what: what} }

// Open checks the CRC-32 trailer that Encoder.Seal wrote at the end of b and returns
// a decoder of what precedes it; a damaged or truncated state is an error.
func Open(b []byte, what string) (*Decoder, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("%s of %d bytes is truncated", what, len(b))
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, fmt.Errorf("%s of %d bytes is damaged (checksum mismatch); it cannot be restored", what, len(b))
	}
	return NewDecoder(body, what), nil
}

// take returns the next n bytes, or nil once the state is exhausted or has failed.
func (d *Decoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if len(d.b) < n {
		d.err = fmt.Errorf("%s is truncated", d.what)
		d.b = nil
		return nil
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}

// Fail records a problem found in the decoded values (the first one is kept).
func (d *Decoder) Fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%s: %s", d.what, fmt.Sprintf(format, args...))
	}
}

// Check records a problem unless ok.
func (d *Decoder) Check(ok bool, format string, args ...any) {
	if !ok {
		d.Fail(format, args...)
	}
}

// U8 reads one byte.
func (d *Decoder) U8() uint8 {
	if p := d.take(1); p != nil {
		return p[0]
	}
	return 0
}

// Bool reads a bool; a byte other than 0 or 1 is an error.
func (d *Decoder) Bool() bool {
	v := d.U8()
	d.Check(v <= 1, "a flag holds %d, want 0 or 1", v)
	return v == 1
}

// U16 reads a 16-bit value.
func (d *Decoder) U16() uint16 {
	if p := d.take(2); p != nil {
		return binary.LittleEndian.Uint16(p)
	}
	return 0
}

// U32 reads a 32-bit value.
func (d *Decoder) U32() uint32 {
	if p := d.take(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

// U64 reads a 64-bit value.
func (d *Decoder) U64() uint64 {
	if p := d.take(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

// I32 reads a signed 32-bit value.
func (d *Decoder) I32() int32 { return int32(d.U32()) }

// Int reads an int written by Encoder.Int; a value this platform's int cannot hold
// is an error.
func (d *Decoder) Int() int {
	v := int64(d.U64())
	d.Check(int64(int(v)) == v, "value %d does not fit an int", v)
	return int(v)
}

// IntIn reads an int that must lie in [lo, hi]; name says what it is in the error.
func (d *Decoder) IntIn(name string, lo, hi int) int {
	v := d.Int()
	d.Check(lo <= v && v <= hi, "%s is %d, want %d..%d", name, v, lo, hi)
	return min(max(v, lo), hi)
}

// F32 reads a float32.
func (d *Decoder) F32() float32 { return math.Float32frombits(d.U32()) }

// F64 reads a float64.
func (d *Decoder) F64() float64 { return math.Float64frombits(d.U64()) }

// Bytes fills dst with the next len(dst) bytes.
func (d *Decoder) Bytes(dst []byte) { copy(dst, d.take(len(dst))) }

// Blob reads what Encoder.Blob wrote; the slice points into the decoded state.
func (d *Decoder) Blob() []byte {
	n := d.U32()
	if d.err == nil && uint64(n) > uint64(len(d.b)) {
		d.err = fmt.Errorf("%s is truncated (a part of %d bytes, %d left)", d.what, n, len(d.b))
	}
	return d.take(int(n))
}

// Err returns the first problem met so far, if any.
func (d *Decoder) Err() error { return d.err }

// Finish returns the first problem met, or an error if bytes are left over (the
// state was written by a different encoder). Call it once every field is read.
func (d *Decoder) Finish() error {
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("%s has %d unexpected bytes at its end", d.what, len(d.b))
	}
	return d.err
}
