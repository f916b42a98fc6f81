// Package binstate encodes and decodes the saved states of the Atari envs and their
// emulator: fixed-size little-endian values, field by field. One function walks a
// state's fields for both directions (a Codec writes them when encoding and reads them
// back into place when decoding), so the two can never disagree on the order. A
// decoding Codec records the first problem (a truncated state, a value out of range)
// and leaves the remaining fields alone; call Finish once every field is read.
package binstate

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
)

// Codec writes or reads the fields of a state.
type Codec struct {
	writing bool
	b       []byte // the encoding so far, or what is left to read
	what    string // names the state in errors ("atari: Pong env state")
	err     error
}

// NewWriter returns a codec that appends the fields it is given to b.
func NewWriter(b []byte) *Codec { return &Codec{writing: true, b: b} }

// NewReader returns a codec that reads fields from b; what names the state in errors.
func NewReader(b []byte, what string) *Codec { return &Codec{b: b, what: what} }

// Open checks the CRC-32 trailer that Seal wrote at the end of b and returns a reader
// of what precedes it; a damaged or truncated state is an error.
func Open(b []byte, what string) (*Codec, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("%s of %d bytes is truncated", what, len(b))
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, fmt.Errorf("%s of %d bytes is damaged (checksum mismatch); it cannot be restored", what, len(b))
	}
	return NewReader(body, what), nil
}

// Writing reports whether the codec encodes.
func (c *Codec) Writing() bool { return c.writing }

// Data returns a writer's encoding.
func (c *Codec) Data() []byte { return c.b }

// Seal appends the CRC-32 (IEEE) of a writer's encoding from start on, so that Open can
// tell a damaged state from a valid one.
func (c *Codec) Seal(start int) {
	c.b = binary.LittleEndian.AppendUint32(c.b, crc32.ChecksumIEEE(c.b[start:]))
}

// take returns a reader's next n bytes, or nil once the state is exhausted or has
// failed.
func (c *Codec) take(n int) []byte {
	if c.err != nil {
		return nil
	}
	if len(c.b) < n {
		c.err = fmt.Errorf("%s is truncated", c.what)
		c.b = nil
		return nil
	}
	p := c.b[:n]
	c.b = c.b[n:]
	return p
}

// Fail records a problem found in the decoded values (the first one is kept).
func (c *Codec) Fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("%s: %s", c.what, fmt.Sprintf(format, args...))
	}
}

// Check records a problem unless ok; a writer ignores it.
func (c *Codec) Check(ok bool, format string, args ...any) {
	if !ok && !c.writing {
		c.Fail(format, args...)
	}
}

// Err returns the first problem met so far, if any.
func (c *Codec) Err() error { return c.err }

// Finish returns a reader's first problem, or an error if bytes are left over (the
// state was written by a different encoder).
func (c *Codec) Finish() error {
	if c.err == nil && !c.writing && len(c.b) != 0 {
		c.err = fmt.Errorf("%s has %d unexpected bytes at its end", c.what, len(c.b))
	}
	return c.err
}

// U8 writes or reads one byte.
func (c *Codec) U8(p *uint8) {
	if c.writing {
		c.b = append(c.b, *p)
	} else if q := c.take(1); q != nil {
		*p = q[0]
	}
}

// Bool writes or reads a flag as one byte, 0 or 1; any other byte is an error.
func (c *Codec) Bool(p *bool) {
	var v uint8
	if *p {
		v = 1
	}
	c.U8(&v)
	c.Check(v <= 1, "a flag holds %d, want 0 or 1", v)
	*p = v == 1
}

// U16 writes or reads a 16-bit value.
func (c *Codec) U16(p *uint16) {
	if c.writing {
		c.b = binary.LittleEndian.AppendUint16(c.b, *p)
	} else if q := c.take(2); q != nil {
		*p = binary.LittleEndian.Uint16(q)
	}
}

// U32 writes or reads a 32-bit value.
func (c *Codec) U32(p *uint32) {
	if c.writing {
		c.b = binary.LittleEndian.AppendUint32(c.b, *p)
	} else if q := c.take(4); q != nil {
		*p = binary.LittleEndian.Uint32(q)
	}
}

// U64 writes or reads a 64-bit value.
func (c *Codec) U64(p *uint64) {
	if c.writing {
		c.b = binary.LittleEndian.AppendUint64(c.b, *p)
	} else if q := c.take(8); q != nil {
		*p = binary.LittleEndian.Uint64(q)
	}
}

// I32 writes or reads a signed 32-bit value.
func (c *Codec) I32(p *int32) {
	v := uint32(*p)
	c.U32(&v)
	*p = int32(v)
}

// Int writes or reads an int as 64 bits, whatever the platform's int size; a value
// this platform's int cannot hold is an error.
func (c *Codec) Int(p *int) {
	v := uint64(int64(*p))
	c.U64(&v)
	c.Check(int64(int(int64(v))) == int64(v), "value %d does not fit an int", int64(v))
	*p = int(int64(v))
}

// IntIn is Int for a value that must lie in [lo, hi]; name says what it is in the
// error. Out of range, the value read is clamped into it.
func (c *Codec) IntIn(name string, p *int, lo, hi int) {
	c.Int(p)
	c.Check(lo <= *p && *p <= hi, "%s is %d, want %d..%d", name, *p, lo, hi)
	*p = min(max(*p, lo), hi)
}

// F32 writes or reads a float32's bits.
func (c *Codec) F32(p *float32) {
	v := math.Float32bits(*p)
	c.U32(&v)
	*p = math.Float32frombits(v)
}

// F64 writes or reads a float64's bits.
func (c *Codec) F64(p *float64) {
	v := math.Float64bits(*p)
	c.U64(&v)
	*p = math.Float64frombits(v)
}

// Bytes writes b as it is, or fills it with the next len(b) bytes.
func (c *Codec) Bytes(b []byte) {
	if c.writing {
		c.b = append(c.b, b...)
	} else {
		copy(b, c.take(len(b)))
	}
}

// Blob writes *p preceded by its length, or reads such a part into *p (pointing into
// the decoded state), for parts whose size the reader learns from the encoding.
func (c *Codec) Blob(p *[]byte) {
	n := uint32(len(*p))
	c.U32(&n)
	if c.writing {
		c.Bytes(*p)
		return
	}
	if c.err == nil && uint64(n) > uint64(len(c.b)) {
		c.err = fmt.Errorf("%s is truncated (a part of %d bytes, %d left)", c.what, n, len(c.b))
	}
	*p = c.take(int(n))
}

// What names the state being read, for errors.
func (c *Codec) What() string { return c.what }
