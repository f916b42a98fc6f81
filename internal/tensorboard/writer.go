// Package tensorboard writes TensorBoard event files: scalar summaries that
// `tensorboard --logdir runs` (or any TFRecord reader) shows as learning curves.
//
// An event file is a sequence of TFRecords. Each record is
//
//	uint64 length (little-endian)
//	uint32 masked CRC32C of the 8 length bytes
//	length bytes of data: one serialized tensorflow.Event protobuf
//	uint32 masked CRC32C of the data
//
// where masked(c) = ((c >> 15) | (c << 17)) + 0xa282ead8 and CRC32C is the
// Castagnoli polynomial. The first event carries file_version "brain.Event:2"; every
// other event carries wall_time, step and a Summary with one Value{tag, simple_value}
// per scalar. The protobuf is encoded by hand (a few varints and fixed-width fields),
// so the package needs no protobuf library.
//
// Besides scalars the writer emits the two plugin summaries a run's settings need:
// a text summary (plugin "text", a DT_STRING tensor; AddText) and the hparams
// plugin's session-start summary (plugin "hparams", content a serialized
// HParamsPluginData; AddHParams). TensorBoard's Text and HParams tabs and
// `wandb sync --sync-tensorboard` read both.
package tensorboard

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/rlpool/rlpool/internal/rundir"
)

// FileVersion is the file_version string of an event file's first event.
const FileVersion = "brain.Event:2"

// Scalar is one named value of a summary.
type Scalar struct {
	Tag   string
	Value float32
}

// Writer appends scalar events to one event file. A nil *Writer accepts every call
// and does nothing, so a caller can keep logging when the file could not be opened.
// Methods are safe for concurrent use.
type Writer struct {
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer
	path string
	err  error // first write error; later calls return it
}

// Create starts a new event file in dir, named as TensorFlow names them
// (events.out.tfevents.<unix seconds>.<host>.<pid>) so that TensorBoard finds it;
// a resumed run gets a second file beside the first, which TensorBoard merges.
func Create(dir string) (*Writer, error) {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	name := fmt.Sprintf("events.out.tfevents.%d.%s.%d", time.Now().Unix(), host, os.Getpid())
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("tensorboard: create event file: %w", err)
	}
	w := &Writer{f: f, w: bufio.NewWriter(f), path: path}
	if err := w.writeRecord(encodeEvent(nowSeconds(), 0, FileVersion, nil)); err != nil {
		f.Close()
		return nil, err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// Path returns the event file's path ("" for a nil Writer).
func (w *Writer) Path() string {
	if w == nil {
		return ""
	}
	return w.path
}

// AddScalars writes one event at step (and the current wall time) holding the given
// scalars. Non-finite values are skipped: TensorBoard would draw them as gaps at best.
func (w *Writer) AddScalars(step int64, scalars []Scalar) error {
	return w.AddScalarsAt(nowSeconds(), step, scalars)
}

// AddScalarsAt is AddScalars with an explicit wall time in seconds since the epoch.
func (w *Writer) AddScalarsAt(wallTime float64, step int64, scalars []Scalar) error {
	if w == nil {
		return nil
	}
	kept := scalars[:0:0]
	for _, s := range scalars {
		if !math.IsNaN(float64(s.Value)) && !math.IsInf(float64(s.Value), 0) {
			kept = append(kept, s)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writeRecord(encodeEvent(wallTime, step, "", kept))
}

// AddCSVRow writes a metrics.csv row as scalars: the column named stepColumn gives the
// step, every other column that parses as a number becomes a scalar tagged by Tag.
// It lets a CSV logger mirror its rows into TensorBoard with one call.
func (w *Writer) AddCSVRow(header, row []string, stepColumn string) error {
	if w == nil {
		return nil
	}
	var step int64
	var scalars []Scalar
	for i, name := range header {
		if i >= len(row) {
			break
		}
		if name == stepColumn {
			n, err := strconv.ParseInt(row[i], 10, 64)
			if err != nil {
				f, ferr := strconv.ParseFloat(row[i], 64)
				if ferr != nil {
					return fmt.Errorf("tensorboard: step column %s = %q is not a number", stepColumn, row[i])
				}
				n = int64(f)
			}
			step = n
			continue
		}
		v, err := strconv.ParseFloat(row[i], 64)
		if err != nil {
			continue
		}
		scalars = append(scalars, Scalar{Tag: Tag(name), Value: float32(v)})
	}
	return w.AddScalars(step, scalars)
}

// Tag groups a metrics.csv column into a TensorBoard section, as CleanRL does:
// episode statistics under "episode/", throughput under "perf/", the learner's
// statistics under "train/". TensorBoard draws one panel group per prefix.
func Tag(column string) string {
	return rundir.MetricsGroup(column) + "/" + column
}

// AddText writes a text summary under tag at step: TensorBoard's Text tab renders it
// as Markdown (wrap preformatted text in a fenced block).
func (w *Writer) AddText(step int64, tag, text string) error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writeRecord(encodeSummaryEvent(nowSeconds(), step, encodeTextValue(tag, text)))
}

// HParamsTag is the tag of the hparams plugin's session-start summary.
const HParamsTag = "_hparams_/session_start_info"

// AddHParams writes the hparams plugin's session-start summary: one session whose
// hyperparameters are hp's entries, written in name order. A value is a bool, a
// string or a number (any Go integer or float type); anything else is written as
// its fmt.Sprint string. TensorBoard's HParams tab infers the experiment (the
// columns) from the session-start summaries of the runs it finds.
func (w *Writer) AddHParams(hp map[string]any) error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writeRecord(encodeSummaryEvent(nowSeconds(), 0, encodeHParamsValue(hp, nowSeconds())))
}

// Flush writes buffered events to the file, so that a running TensorBoard sees them.
func (w *Writer) Flush() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if err := w.w.Flush(); err != nil {
		w.err = fmt.Errorf("tensorboard: %s: %w", w.path, err)
	}
	return w.err
}

// Close flushes and closes the file. Further calls are no-ops returning the first error.
func (w *Writer) Close() error {
	if w == nil {
		return nil
	}
	err := w.Flush()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f != nil {
		if cerr := w.f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("tensorboard: %s: %w", w.path, cerr)
		}
		w.f = nil
	}
	return err
}

func nowSeconds() float64 { return float64(time.Now().UnixNano()) / 1e9 }

// writeRecord frames data as one TFRecord. The caller holds mu (or owns w).
func (w *Writer) writeRecord(data []byte) error {
	if w.err != nil {
		return w.err
	}
	if w.f == nil {
		return fmt.Errorf("tensorboard: %s: write after Close", w.path)
	}
	if _, err := w.w.Write(Frame(data)); err != nil {
		w.err = fmt.Errorf("tensorboard: %s: %w", w.path, err)
	}
	return w.err
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// MaskedCRC returns TFRecord's masked CRC32C of b. Masking keeps a CRC of data that
// itself contains CRCs from being degenerate.
func MaskedCRC(b []byte) uint32 {
	c := crc32.Checksum(b, castagnoli)
	return ((c >> 15) | (c << 17)) + 0xa282ead8
}

// Frame returns data framed as one TFRecord: length, masked CRC of the length, data,
// masked CRC of the data.
func Frame(data []byte) []byte {
	out := make([]byte, 12, 16+len(data))
	binary.LittleEndian.PutUint64(out[0:8], uint64(len(data)))
	binary.LittleEndian.PutUint32(out[8:12], MaskedCRC(out[0:8]))
	out = append(out, data...)
	return binary.LittleEndian.AppendUint32(out, MaskedCRC(data))
}

// Protobuf wire types and the field numbers of tensorflow.Event, Summary and
// Summary.Value (tensorflow/core/util/event.proto, framework/summary.proto).
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5

	eventWallTime    = 1 // double
	eventStep        = 2 // int64
	eventFileVersion = 3 // string
	eventSummary     = 5 // Summary
	summaryValue     = 1 // repeated Summary.Value
	valueTag         = 1 // string
	valueSimple      = 2 // float
	valueTensor      = 8 // TensorProto
	valueMetadata    = 9 // SummaryMetadata

	metaPluginData  = 1 // SummaryMetadata.PluginData
	metaDataClass   = 4 // DataClass enum
	pluginName      = 1 // string
	pluginContent   = 2 // bytes
	dataClassTensor = 2 // DATA_CLASS_TENSOR

	tensorDtype  = 1 // DataType enum
	tensorShape  = 2 // TensorShapeProto (empty: a scalar)
	tensorString = 8 // repeated bytes string_val
	dtString     = 7 // DT_STRING

	// tensorboard/plugins/hparams/plugin_data.proto and api.proto.
	hpDataVersion    = 1 // int32 version (0)
	hpDataSession    = 3 // SessionStartInfo
	sessionHParams   = 1 // map<string, google.protobuf.Value>
	sessionStartTime = 5 // double start_time_secs
	mapKey           = 1
	mapValue         = 2
	pbNumberValue    = 2 // google.protobuf.Value.number_value, double
	pbStringValue    = 3 // string_value
	pbBoolValue      = 4 // bool_value
)

// encodeSummaryEvent serializes an Event at step holding a Summary with the given
// (already encoded) Summary.Value messages.
func encodeSummaryEvent(wallTime float64, step int64, values ...[]byte) []byte {
	b := encodeEvent(wallTime, step, "", nil)
	var sum []byte
	for _, v := range values {
		sum = appendBytes(sum, summaryValue, v)
	}
	return appendBytes(b, eventSummary, sum)
}

// encodeMetadata serializes SummaryMetadata{plugin_data{plugin_name, content}, data_class}.
func encodeMetadata(plugin string, content []byte, dataClass int) []byte {
	var pd []byte
	pd = appendBytes(pd, pluginName, []byte(plugin))
	if len(content) > 0 {
		pd = appendBytes(pd, pluginContent, content)
	}
	m := appendBytes(nil, metaPluginData, pd)
	if dataClass != 0 {
		m = appendTag(m, metaDataClass, wireVarint)
		m = binary.AppendUvarint(m, uint64(dataClass))
	}
	return m
}

// encodeTextValue is the Summary.Value of the text plugin: a scalar string tensor.
func encodeTextValue(tag, text string) []byte {
	var t []byte
	t = appendTag(t, tensorDtype, wireVarint)
	t = binary.AppendUvarint(t, dtString)
	t = appendBytes(t, tensorShape, nil)
	t = appendBytes(t, tensorString, []byte(text))
	var v []byte
	v = appendBytes(v, valueTag, []byte(tag))
	v = appendBytes(v, valueTensor, t)
	return appendBytes(v, valueMetadata, encodeMetadata("text", nil, dataClassTensor))
}

// nullTensor is TensorBoard's hparams NULL_TENSOR, an empty float vector
// (dtype DT_FLOAT, shape [0]): the data provider needs a tensor in every value,
// and this is the shortest valid one.
var nullTensor = []byte{tensorDtype<<3 | wireVarint, 1, tensorShape<<3 | wireBytes, 2, 2<<3 | wireBytes, 0}

// encodeHParamsValue is the Summary.Value of the hparams plugin's session-start
// summary: the plugin data in its metadata and, as TensorBoard's own writer does,
// the null tensor.
func encodeHParamsValue(hp map[string]any, startTime float64) []byte {
	var ssi []byte
	names := make([]string, 0, len(hp))
	for k := range hp {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		entry := appendBytes(nil, mapKey, []byte(k))
		entry = appendBytes(entry, mapValue, encodePBValue(hp[k]))
		ssi = appendBytes(ssi, sessionHParams, entry)
	}
	ssi = appendTag(ssi, sessionStartTime, wireFixed64)
	ssi = binary.LittleEndian.AppendUint64(ssi, math.Float64bits(startTime))
	// version 0 is proto3's default and is omitted.
	content := appendBytes(nil, hpDataSession, ssi)
	var v []byte
	v = appendBytes(v, valueTag, []byte(HParamsTag))
	v = appendBytes(v, valueTensor, nullTensor)
	return appendBytes(v, valueMetadata, encodeMetadata("hparams", content, 0))
}

// float64Type is the type every numeric hyperparameter is converted to.
var float64Type = reflect.TypeFor[float64]()

// encodePBValue serializes x as a google.protobuf.Value (number, string or bool).
func encodePBValue(x any) []byte {
	num := func(f float64) []byte {
		b := appendTag(nil, pbNumberValue, wireFixed64)
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	switch v := x.(type) {
	case bool:
		b := appendTag(nil, pbBoolValue, wireVarint)
		if v {
			return append(b, 1)
		}
		return append(b, 0)
	case string:
		return appendBytes(nil, pbStringValue, []byte(v))
	case float64:
		return num(v)
	case float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		// One of Go's numeric types, so the conversion is float64(v).
		return num(reflect.ValueOf(v).Convert(float64Type).Float())
	}
	return appendBytes(nil, pbStringValue, []byte(fmt.Sprint(x)))
}

// encodeEvent serializes an Event with wall_time, step (omitted when 0, as proto3
// does), and either file_version or a summary of scalars.
func encodeEvent(wallTime float64, step int64, fileVersion string, scalars []Scalar) []byte {
	var b []byte
	b = appendTag(b, eventWallTime, wireFixed64)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(wallTime))
	if step != 0 {
		b = appendTag(b, eventStep, wireVarint)
		b = binary.AppendUvarint(b, uint64(step))
	}
	if fileVersion != "" {
		b = appendBytes(b, eventFileVersion, []byte(fileVersion))
	}
	if len(scalars) > 0 {
		var sum []byte
		for _, s := range scalars {
			var v []byte
			v = appendBytes(v, valueTag, []byte(s.Tag))
			v = appendTag(v, valueSimple, wireFixed32)
			v = binary.LittleEndian.AppendUint32(v, math.Float32bits(s.Value))
			sum = appendBytes(sum, summaryValue, v)
		}
		b = appendBytes(b, eventSummary, sum)
	}
	return b
}

func appendTag(b []byte, field, wire int) []byte {
	return binary.AppendUvarint(b, uint64(field<<3|wire))
}

func appendBytes(b []byte, field int, data []byte) []byte {
	b = appendTag(b, field, wireBytes)
	b = binary.AppendUvarint(b, uint64(len(data)))
	return append(b, data...)
}
