package tensorboard

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The reader below is written from the format descriptions (TFRecord framing in
// tensorflow/core/lib/io/record_writer.cc, the Event and Summary messages in
// event.proto and summary.proto, protobuf's wire format) without using any of the
// writer's code: its own bitwise CRC32C, its own varint and field decoding.

// crc32cBitwise is CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), bit by bit.
func crc32cBitwise(b []byte) uint32 {
	crc := ^uint32(0)
	for _, x := range b {
		crc ^= uint32(x)
		for range 8 {
			if crc&1 != 0 {
				crc = crc>>1 ^ 0x82F63B78
			} else {
				crc >>= 1
			}
		}
	}
	return ^crc
}

func maskRef(c uint32) uint32 { return (c>>15 | c<<17) + 0xa282ead8 }

type refValue struct {
	tag       string
	simple    float32
	hasSimple bool
	tensor    string // serialized TensorProto, decoded by the plugin tests
	metadata  string // serialized SummaryMetadata
}

type refEvent struct {
	wallTime    float64
	step        int64
	fileVersion string
	values      []refValue
}

// readRecords splits an event file into record payloads, checking both CRCs.
func readRecords(b []byte) ([][]byte, error) {
	var out [][]byte
	for len(b) > 0 {
		if len(b) < 12 {
			return nil, fmt.Errorf("truncated header: %d bytes left", len(b))
		}
		n := binary.LittleEndian.Uint64(b[:8])
		if got, want := binary.LittleEndian.Uint32(b[8:12]), maskRef(crc32cBitwise(b[:8])); got != want {
			return nil, fmt.Errorf("length crc %08x, want %08x", got, want)
		}
		if uint64(len(b)-12) < n+4 {
			return nil, fmt.Errorf("truncated record: length %d, %d bytes left", n, len(b)-12)
		}
		data := b[12 : 12+n]
		if got, want := binary.LittleEndian.Uint32(b[12+n:16+n]), maskRef(crc32cBitwise(data)); got != want {
			return nil, fmt.Errorf("data crc %08x, want %08x", got, want)
		}
		out = append(out, data)
		b = b[16+n:]
	}
	return out, nil
}

func uvarint(b []byte) (uint64, int, error) {
	var x uint64
	for i := 0; i < len(b) && i < 10; i++ {
		x |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			return x, i + 1, nil
		}
	}
	return 0, 0, errors.New("bad varint")
}

// fields walks a protobuf message, calling f with each field's number, wire type and
// raw payload (varint value in v, fixed or length-delimited bytes in p).
func fields(b []byte, f func(num, wire int, v uint64, p []byte) error) error {
	for len(b) > 0 {
		key, n, err := uvarint(b)
		if err != nil {
			return err
		}
		b = b[n:]
		num, wire := int(key>>3), int(key&7)
		switch wire {
		case 0:
			v, n, err := uvarint(b)
			if err != nil {
				return err
			}
			b = b[n:]
			if err := f(num, wire, v, nil); err != nil {
				return err
			}
		case 1, 5: // fixed64, fixed32
			size := 8
			if wire == 5 {
				size = 4
			}
			if len(b) < size {
				return fmt.Errorf("short fixed%d", 8*size)
			}
			if err := f(num, wire, 0, b[:size]); err != nil {
				return err
			}
			b = b[size:]
		case 2:
			l, n, err := uvarint(b)
			if err != nil {
				return err
			}
			b = b[n:]
			if uint64(len(b)) < l {
				return errors.New("short bytes field")
			}
			if err := f(num, wire, 0, b[:l]); err != nil {
				return err
			}
			b = b[l:]
		default:
			return fmt.Errorf("unexpected wire type %d", wire)
		}
	}
	return nil
}

func decodeEvent(b []byte) (refEvent, error) {
	var e refEvent
	err := fields(b, func(num, wire int, v uint64, p []byte) error {
		switch {
		case num == 1 && wire == 1:
			e.wallTime = math.Float64frombits(binary.LittleEndian.Uint64(p))
		case num == 2 && wire == 0:
			e.step = int64(v)
		case num == 3 && wire == 2:
			e.fileVersion = string(p)
		case num == 5 && wire == 2:
			return fields(p, func(num, wire int, _ uint64, p []byte) error {
				if num != 1 || wire != 2 {
					return fmt.Errorf("summary field %d wire %d", num, wire)
				}
				var val refValue
				err := fields(p, func(num, wire int, _ uint64, p []byte) error {
					switch {
					case num == 1 && wire == 2:
						val.tag = string(p)
					case num == 2 && wire == 5:
						val.simple = math.Float32frombits(binary.LittleEndian.Uint32(p))
						val.hasSimple = true
					case num == 8 && wire == 2:
						val.tensor = string(p)
					case num == 9 && wire == 2:
						val.metadata = string(p)
					default:
						return fmt.Errorf("value field %d wire %d", num, wire)
					}
					return nil
				})
				e.values = append(e.values, val)
				return err
			})
		default:
			return fmt.Errorf("event field %d wire %d", num, wire)
		}
		return nil
	})
	return e, err
}

func readEventFile(t *testing.T, path string) []refEvent {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := readRecords(b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var evs []refEvent
	for i, r := range recs {
		e, err := decodeEvent(r)
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		evs = append(evs, e)
	}
	return evs
}

func TestReferenceCRC32C(t *testing.T) {
	// The check value of CRC-32C (RFC 3720, "123456789").
	if got := crc32cBitwise([]byte("123456789")); got != 0xE3069283 {
		t.Fatalf("reference crc32c = %08x, want e3069283", got)
	}
	if got, want := MaskedCRC([]byte("123456789")), maskRef(0xE3069283); got != want {
		t.Fatalf("MaskedCRC = %08x, want %08x", got, want)
	}
}

func TestWriterRoundTrip(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(w.Path()), "events.out.tfevents.") {
		t.Fatalf("file name %s: TensorBoard only reads events.out.tfevents.*", w.Path())
	}
	if err := w.AddScalarsAt(1700000000.25, 1000, []Scalar{{"episode/return_mean", 21.5}, {"train/approx_kl", 0.0125}}); err != nil {
		t.Fatal(err)
	}
	// NaN is dropped; a long tag and a huge step exercise multi-byte varints.
	long := strings.Repeat("x", 300)
	if err := w.AddScalarsAt(1700000001.5, 1<<40, []Scalar{{long, -3}, {"nan", float32(math.NaN())}}); err != nil {
		t.Fatal(err)
	}
	if err := w.AddCSVRow([]string{"env_steps", "wall_s", "return_mean", "note"}, []string{"2048", "3.5", "NaN", "abc"}, "env_steps"); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	evs := readEventFile(t, w.Path())
	if len(evs) != 4 {
		t.Fatalf("%d events, want 4 (version + 3)", len(evs))
	}
	if evs[0].fileVersion != FileVersion || len(evs[0].values) != 0 {
		t.Fatalf("first event %+v, want file_version %q only", evs[0], FileVersion)
	}
	e := evs[1]
	if e.wallTime != 1700000000.25 || e.step != 1000 || len(e.values) != 2 {
		t.Fatalf("event 1 = %+v", e)
	}
	if e.values[0] != (refValue{"episode/return_mean", 21.5, true, "", ""}) || e.values[1] != (refValue{"train/approx_kl", 0.0125, true, "", ""}) {
		t.Fatalf("event 1 values = %+v", e.values)
	}
	e = evs[2]
	if e.step != 1<<40 || len(e.values) != 1 || e.values[0].tag != long || e.values[0].simple != -3 {
		t.Fatalf("event 2 = step %d values %d", e.step, len(e.values))
	}
	e = evs[3]
	if e.step != 2048 || len(e.values) != 1 || e.values[0] != (refValue{"perf/wall_s", 3.5, true, "", ""}) {
		t.Fatalf("csv row event = %+v", e)
	}
}

func TestReaderRejectsCorruption(t *testing.T) {
	rec := Frame(encodeEvent(1, 2, "", []Scalar{{"a", 1}}))
	if _, err := readRecords(rec); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 9, 13, len(rec) - 1} {
		bad := append([]byte(nil), rec...)
		bad[i] ^= 0x10
		if _, err := readRecords(bad); err == nil {
			t.Errorf("flipping byte %d went unnoticed", i)
		}
	}
}

func TestNilWriterIsANoOp(t *testing.T) {
	var w *Writer
	if err := w.AddScalars(1, []Scalar{{"a", 1}}); err != nil {
		t.Fatal(err)
	}
	if err := w.AddCSVRow([]string{"env_steps"}, []string{"1"}, "env_steps"); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestCreateInMissingDirFails(t *testing.T) {
	if _, err := Create(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Fatal("Create in a missing folder succeeded")
	}
}

// TestDecodeFile decodes the event file named by RLPOOL_TB_FILE with the reference
// reader and logs its scalars (run with -v to see them); without the variable it is
// skipped. It checks a real run's file, which the other tests cannot name.
func TestDecodeFile(t *testing.T) {
	path := os.Getenv("RLPOOL_TB_FILE")
	if path == "" {
		t.Skip("RLPOOL_TB_FILE is not set: no run's event file to decode")
	}
	evs := readEventFile(t, path)
	if len(evs) == 0 || evs[0].fileVersion != FileVersion {
		t.Fatalf("%s: no file_version event first", path)
	}
	for _, e := range evs[1:] {
		var parts []string
		for _, v := range e.values {
			if !v.hasSimple {
				t.Errorf("step %d: value %s has no simple_value", e.step, v.tag)
			}
			parts = append(parts, fmt.Sprintf("%s=%g", v.tag, v.simple))
		}
		t.Logf("step %d wall %.3f: %s", e.step, e.wallTime, strings.Join(parts, " "))
	}
}

// pluginOf decodes SummaryMetadata: the plugin name, its content and data_class.
func pluginOf(t *testing.T, meta string) (name, content string, dataClass uint64) {
	t.Helper()
	err := fields([]byte(meta), func(num, wire int, v uint64, p []byte) error {
		switch {
		case num == 1 && wire == 2:
			return fields(p, func(num, wire int, _ uint64, p []byte) error {
				switch num {
				case 1:
					name = string(p)
				case 2:
					content = string(p)
				}
				return nil
			})
		case num == 4 && wire == 0:
			dataClass = v
		}
		return nil
	})
	if err != nil {
		t.Fatalf("metadata: %v", err)
	}
	return name, content, dataClass
}

func TestTextAndHParams(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	config := "```toml\n[run]\nalgo = \"ppo\"\nseed = 1\n```"
	if err := w.AddText(0, "config", config); err != nil {
		t.Fatal(err)
	}
	hp := map[string]any{"run.algo": "ppo", "ppo.lr": 2.5e-4, "run.seed": int64(1),
		"ppo.norm_adv": true, "ppo.clip_vloss": false, "run.name": "", "net.hidden": []int{64, 64}}
	if err := w.AddHParams(hp); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	evs := readEventFile(t, w.Path())
	if len(evs) != 3 || len(evs[1].values) != 1 || len(evs[2].values) != 1 {
		t.Fatalf("events %+v, want version, text, hparams", evs)
	}

	// The text summary: plugin "text", a scalar DT_STRING tensor holding the config.
	tv := evs[1].values[0]
	if name, _, dc := pluginOf(t, tv.metadata); tv.tag != "config" || name != "text" || dc != 2 {
		t.Fatalf("text value tag %q plugin %q data_class %d", tv.tag, name, dc)
	}
	var dtype uint64
	var strs []string
	hasShape := false
	if err := fields([]byte(tv.tensor), func(num, wire int, v uint64, p []byte) error {
		switch num {
		case 1:
			dtype = v
		case 2:
			hasShape = len(p) == 0
		case 8:
			strs = append(strs, string(p))
		default:
			return fmt.Errorf("tensor field %d", num)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if dtype != 7 || !hasShape || len(strs) != 1 || strs[0] != config {
		t.Fatalf("text tensor dtype %d scalar shape %v strings %q", dtype, hasShape, strs)
	}

	// The hparams summary: plugin "hparams", content HParamsPluginData whose
	// session_start_info (field 3) maps each name to a google.protobuf.Value.
	hv := evs[2].values[0]
	name, content, _ := pluginOf(t, hv.metadata)
	// The tensor is TensorBoard's NULL_TENSOR: dtype DT_FLOAT, shape {dim {size 0}}.
	nullTensor := "\x08\x01\x12\x02\x12\x00"
	if hv.tag != "_hparams_/session_start_info" || name != "hparams" || hv.hasSimple || hv.tensor != nullTensor {
		t.Fatalf("hparams value %+v plugin %q", hv, name)
	}
	got := map[string]any{}
	var order []string
	var startTime float64
	err = fields([]byte(content), func(num, wire int, _ uint64, p []byte) error {
		if num != 3 || wire != 2 {
			return fmt.Errorf("plugin data field %d", num)
		}
		return fields(p, func(num, wire int, _ uint64, p []byte) error {
			switch num {
			case 5:
				startTime = math.Float64frombits(binary.LittleEndian.Uint64(p))
				return nil
			case 1:
			default:
				return fmt.Errorf("session_start_info field %d", num)
			}
			var key string
			var val any
			err := fields(p, func(num, wire int, _ uint64, p []byte) error {
				if num == 1 {
					key = string(p)
					return nil
				}
				return fields(p, func(num, wire int, v uint64, p []byte) error {
					switch {
					case num == 2 && wire == 1:
						val = math.Float64frombits(binary.LittleEndian.Uint64(p))
					case num == 3 && wire == 2:
						val = string(p)
					case num == 4 && wire == 0:
						val = v != 0
					default:
						return fmt.Errorf("value field %d wire %d", num, wire)
					}
					return nil
				})
			})
			got[key] = val
			order = append(order, key)
			return err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"run.algo": "ppo", "ppo.lr": 2.5e-4, "run.seed": 1.0,
		"ppo.norm_adv": true, "ppo.clip_vloss": false, "run.name": "", "net.hidden": "[64 64]"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("hparams %v, want %v", got, want)
	}
	if !slices.IsSorted(order) || startTime < 1.7e9 {
		t.Fatalf("hparams order %v start time %v", order, startTime)
	}
}

func TestNilWriterTextAndHParams(t *testing.T) {
	var w *Writer
	if w.AddText(0, "a", "b") != nil || w.AddHParams(map[string]any{"a": 1}) != nil {
		t.Fatal("nil writer returned an error")
	}
}

// Every Go numeric type encodes as the protobuf number of its float64 value, and a
// type of another kind (here a named integer type) as its fmt.Sprint string.
func TestEncodePBValueNumbers(t *testing.T) {
	for _, c := range []struct {
		x    any
		want float64
	}{
		{float32(0.5), 0.5}, {int(-3), -3}, {int8(-128), -128}, {int16(300), 300},
		{int32(-70000), -70000}, {int64(1) << 40, 1 << 40}, {uint(7), 7}, {uint8(255), 255},
		{uint16(65535), 65535}, {uint32(1) << 31, 1 << 31}, {uint64(math.MaxUint64), 1 << 64},
	} {
		if got, want := encodePBValue(c.x), encodePBValue(c.want); !bytes.Equal(got, want) {
			t.Errorf("encodePBValue(%T %v) = %x, want %x (the number %g)", c.x, c.x, got, want, c.want)
		}
	}
	type level int
	if got, want := encodePBValue(level(2)), encodePBValue("2"); !bytes.Equal(got, want) {
		t.Errorf("encodePBValue(level(2)) = %x, want the string \"2\" %x", got, want)
	}
}
