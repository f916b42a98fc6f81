package atari

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"
)

func TestXorshiftVectors(t *testing.T) {
	s := xorshift64(12345)
	for _, want := range []uint64{13289605635609, 11245129090807876197} {
		if got := s.next(); got != want {
			t.Errorf("xorshift64 = %d, want %d", got, want)
		}
	}
}

// TestParseTraceSynthetic round-trips a small hand-made trace.
func TestParseTraceSynthetic(t *testing.T) {
	var buf bytes.Buffer
	buf.WriteString(traceMagic)
	buf.WriteString("60e0ea3cbe0913d39803477945e9e5ec")
	for _, v := range []uint32{2, 3, 2} {
		binary.Write(&buf, binary.LittleEndian, v)
	}
	screen := []byte{0, 2, 4, 6, 8, 10}
	rec := func(action, reset byte, reward, lives int32, over byte, ram byte, full bool) {
		buf.WriteByte(action)
		buf.WriteByte(reset)
		binary.Write(&buf, binary.LittleEndian, reward)
		binary.Write(&buf, binary.LittleEndian, lives)
		buf.WriteByte(over)
		buf.Write(bytes.Repeat([]byte{ram}, 128))
		binary.Write(&buf, binary.LittleEndian, screenHash(screen))
		if full {
			buf.WriteByte(1)
			buf.Write(screen)
		} else {
			buf.WriteByte(0)
		}
	}
	rec(traceNoAction, 1, 0, 5, 0, 0xAA, true)
	rec(12, 0, -1, 4, 1, 0x55, false)
	tr, err := parseTrace(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if tr.MD5 != "60e0ea3cbe0913d39803477945e9e5ec" || tr.Width != 2 || tr.Height != 3 || len(tr.Records) != 2 {
		t.Fatalf("header: %+v", tr)
	}
	r0, r1 := tr.Records[0], tr.Records[1]
	if r0.Action != traceNoAction || !r0.Reset || r0.Lives != 5 || r0.RAM[127] != 0xAA || !bytes.Equal(r0.Screen, screen) {
		t.Errorf("record 0: %+v", r0)
	}
	if r1.Action != 12 || r1.Reset || r1.Reward != -1 || r1.Lives != 4 || !r1.GameOver || r1.Screen != nil || r1.ScreenHash != screenHash(screen) {
		t.Errorf("record 1: %+v", r1)
	}
	// Truncated and over-long files are errors.
	if _, err := parseTrace(bytes.NewReader(buf.Bytes()[:buf.Len()-1])); err == nil {
		t.Error("truncated trace parsed")
	}
	if _, err := parseTrace(bytes.NewReader(append(buf.Bytes(), 0))); err == nil {
		t.Error("trace with trailing data parsed")
	}
	if _, err := parseTrace(strings.NewReader("NOTATRACE")); err == nil {
		t.Error("bad magic parsed")
	}
}

// TestTraceFiles checks the reference traces themselves and, through the recorder's
// action generator, the minimal action sets: the recorded actions are
// minimal_action_set[xorshift % n], so they match only if our set has ALE's size and
// order.
func TestTraceFiles(t *testing.T) {
	traces, _, _ := traceDirs(t)
	for _, path := range traces {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".bin"), func(t *testing.T) {
			tr, err := readTraceFile(path)
			if err != nil {
				t.Fatal(err)
			}
			g, ok := GameByMD5(tr.MD5)
			if !ok {
				t.Fatalf("md5 %s is not in the game table", tr.MD5)
			}
			if tr.Width != ScreenWidth || tr.Height != DefaultHeight || len(tr.Records) != 3001 {
				t.Errorf("header %dx%d, %d records", tr.Width, tr.Height, len(tr.Records))
			}
			s, hold, idx := xorshift64(12345), uint64(0), uint64(0)
			n := uint64(len(g.MinimalActions))
			for i := range tr.Records {
				rec := &tr.Records[i]
				if (rec.Screen != nil) != (i%100 == 0) {
					t.Errorf("record %d: full screen stored = %v", i, rec.Screen != nil)
				}
				if rec.Screen != nil && screenHash(rec.Screen) != rec.ScreenHash {
					t.Errorf("record %d: stored screen does not match its hash", i)
				}
				if i == 0 {
					if rec.Action != traceNoAction || !rec.Reset {
						t.Errorf("record 0: action %d reset %v", rec.Action, rec.Reset)
					}
					continue
				}
				if hold == 0 {
					idx = s.next() % n
					hold = 1 + s.next()%8
				}
				hold--
				if want := g.MinimalActions[idx]; Action(rec.Action) != want {
					t.Fatalf("record %d: action %s, the generator with our minimal set %v gives %s", i, Action(rec.Action), g.MinimalActions, want)
				}
			}
		})
	}
}
