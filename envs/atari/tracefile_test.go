package atari

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

// The ALE reference trace format (testdata/atari/README.md): a 52-byte header, then one
// record per frame, each 148 bytes plus the full screen on every 100th frame.
const (
	traceMagic      = "ALETRC01"
	traceHeaderSize = 8 + 32 + 4 + 4 + 4
	traceRecordSize = 1 + 1 + 4 + 4 + 1 + 128 + 8 + 1
	traceNoAction   = 0xFF // the action byte of record 0, which has no act
)

// aleTrace is a parsed trace file.
type aleTrace struct {
	MD5           string
	Width, Height int
	Records       []traceRecord
}

// traceRecord is ALE's state after one act (record 0: after the reset).
type traceRecord struct {
	Action     uint8 // ALE action id, traceNoAction for record 0
	Reset      bool  // the game was reset just before this record's act
	Reward     int32
	Lives      int32
	GameOver   bool
	RAM        [128]byte
	ScreenHash uint64 // FNV-1a 64 of the Width*Height screen bytes
	Screen     []byte // the screen itself, only on full records (every 100th frame)
}

// readTraceFile parses a trace file.
func readTraceFile(path string) (*aleTrace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tr, err := parseTrace(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return tr, nil
}

// parseTrace reads a whole trace and checks that nothing follows the last record.
func parseTrace(r io.Reader) (*aleTrace, error) {
	var hdr [traceHeaderSize]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, fmt.Errorf("reading trace header: %w", err)
	}
	if string(hdr[:8]) != traceMagic {
		return nil, fmt.Errorf("not an ALE trace: magic %q, want %q", hdr[:8], traceMagic)
	}
	tr := &aleTrace{
		MD5:    string(hdr[8:40]),
		Width:  int(binary.LittleEndian.Uint32(hdr[40:])),
		Height: int(binary.LittleEndian.Uint32(hdr[44:])),
	}
	n := int(binary.LittleEndian.Uint32(hdr[48:]))
	if tr.Width <= 0 || tr.Height <= 0 || tr.Width*tr.Height > 1<<20 {
		return nil, fmt.Errorf("implausible trace screen size %dx%d", tr.Width, tr.Height)
	}
	if n > 1<<24 {
		return nil, fmt.Errorf("implausible trace record count %d", n)
	}
	tr.Records = make([]traceRecord, n)
	var buf [traceRecordSize]byte
	for i := range tr.Records {
		if _, err := io.ReadFull(r, buf[:]); err != nil {
			return nil, fmt.Errorf("reading record %d of %d: %w", i, n, err)
		}
		rec := &tr.Records[i]
		rec.Action = buf[0]
		rec.Reset = buf[1] != 0
		rec.Reward = int32(binary.LittleEndian.Uint32(buf[2:]))
		rec.Lives = int32(binary.LittleEndian.Uint32(buf[6:]))
		rec.GameOver = buf[10] != 0
		copy(rec.RAM[:], buf[11:139])
		rec.ScreenHash = binary.LittleEndian.Uint64(buf[139:])
		if buf[147] != 0 {
			rec.Screen = make([]byte, tr.Width*tr.Height)
			if _, err := io.ReadFull(r, rec.Screen); err != nil {
				return nil, fmt.Errorf("reading the screen of record %d: %w", i, err)
			}
		}
	}
	var extra [1]byte
	if _, err := r.Read(extra[:]); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("data after the last of %d records", n)
	}
	return tr, nil
}

// screenHash is the trace's screen hash: FNV-1a 64 over the raw screen bytes.
func screenHash(screen []byte) uint64 {
	h := fnv.New64a()
	h.Write(screen)
	return h.Sum64()
}

// xorshift64 is the action generator of the trace recorder (testdata README).
type xorshift64 uint64

func (s *xorshift64) next() uint64 {
	x := uint64(*s)
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	*s = xorshift64(x)
	return x
}
