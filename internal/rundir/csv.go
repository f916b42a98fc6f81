package rundir

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strings"
)

// CSV appends rows to a CSV file with a fixed header. Rows are buffered; Flush writes
// them out (the runner flushes at every log interval and on exit).
type CSV struct {
	f *os.File
	w *csv.Writer
}

// OpenCSV opens path for appending, writing the header when the file is new. An
// existing file (a resumed run appends to its own files) must have the same header, or
// one whose columns the new header all keeps: a run written before a metric was added
// is rewritten with the new columns, NaN in its old rows, and resumes.
func OpenCSV(path string, header []string) (*CSV, error) {
	if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
		first, _, _ := strings.Cut(string(b), "\n")
		if first != strings.Join(header, ",") {
			if err := widenCSV(path, header); err != nil {
				return nil, err
			}
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, fmt.Errorf("rundir: %w", err)
		}
		return &CSV{f: f, w: csv.NewWriter(f)}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("rundir: %w", err)
	}
	c := &CSV{f: f, w: csv.NewWriter(f)}
	if err := c.w.Write(header); err != nil {
		f.Close()
		return nil, err
	}
	return c, nil
}

// Write adds one row.
func (c *CSV) Write(row []string) error { return c.w.Write(row) }

// Flush writes buffered rows to the file.
func (c *CSV) Flush() error {
	c.w.Flush()
	return c.w.Error()
}

// Close flushes and closes the file.
func (c *CSV) Close() error {
	err := c.Flush()
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ReadCSV reads a whole CSV file: its header and rows.
func ReadCSV(path string) (header []string, rows [][]string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil && err != io.EOF {
		return nil, nil, fmt.Errorf("rundir: %s: %w", path, err)
	}
	if len(all) == 0 {
		return nil, nil, nil
	}
	return all[0], all[1:], nil
}

// DropTornLine removes a torn last line from the CSV file at path, the trace of a write
// cut short (power lost, the process killed): a final line without its trailing
// newline, or one with fewer fields than the header. A torn header empties the file.
// It returns a one-line notice of what it dropped, or "" when the file is whole or
// absent. Only the last line is looked at: a short row anywhere else, or a header that
// differs from the one expected, is still an error where the file is read or opened.
// The run's CSV files hold numbers, never quoted newlines, so lines are records.
func DropTornLine(path string) (string, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) || err == nil && len(b) == 0 {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("rundir: %w", err)
	}
	torn := b[len(b)-1] != '\n'
	body := bytes.TrimSuffix(b, []byte("\n"))
	start := bytes.LastIndexByte(body, '\n') + 1
	last := body[start:]
	if !torn && start > 0 {
		header, _, _ := bytes.Cut(b, []byte("\n"))
		torn = csvFields(last) < csvFields(header)
	}
	if !torn {
		return "", nil
	}
	if err := os.Truncate(path, int64(start)); err != nil {
		return "", fmt.Errorf("rundir: dropping the torn last line of %s: %w", path, err)
	}
	shown := string(last)
	if len(shown) > 60 {
		shown = shown[:60] + "..."
	}
	what := "last line"
	if start == 0 {
		what = "header"
	}
	return fmt.Sprintf("%s: dropped a torn %s %q (a write cut short)", path, what, shown), nil
}

// csvFields counts the fields of one CSV line; an unparsable line counts as none.
func csvFields(line []byte) int {
	r := csv.NewReader(bytes.NewReader(line))
	r.FieldsPerRecord = -1
	rec, err := r.Read()
	if err != nil {
		return 0
	}
	return len(rec)
}

// TruncateCSV keeps the header and the rows for which keep returns true, rewriting
// the file atomically; keep reads a row's fields by name through the file's columns.
// A resumed run uses it to drop rows written after its checkpoint.
func TruncateCSV(path string, keep func(cols Columns, row []string) bool) error {
	header, rows, err := ReadCSV(path)
	if err != nil || header == nil {
		return err
	}
	cols := NewColumns(header)
	var kept [][]string
	for _, r := range rows {
		if keep(cols, r) {
			kept = append(kept, r)
		}
	}
	return rewriteCSV(path, header, kept)
}

// widenCSV rewrites the CSV file at path under header, which must hold every column
// the file has: each row keeps its values by column name and gets NaN in the new ones.
func widenCSV(path string, header []string) error {
	old, rows, err := ReadCSV(path)
	if err != nil {
		return err
	}
	at := NewColumns(header)
	for _, h := range old {
		if at.Index(h) < 0 {
			return fmt.Errorf("rundir: %s has columns %q, want %q: column %s is gone, so it was written by a different version or learner", path, strings.Join(old, ","), strings.Join(header, ","), h)
		}
	}
	wide := make([][]string, len(rows))
	for j, r := range rows {
		out := make([]string, len(header))
		for i := range out {
			out[i] = "NaN"
		}
		for i, v := range r {
			if i < len(old) {
				out[at.Index(old[i])] = v
			}
		}
		wide[j] = out
	}
	return rewriteCSV(path, header, wide)
}

// rewriteCSV replaces the CSV file at path, atomically, with header and rows.
func rewriteCSV(path string, header []string, rows [][]string) error {
	return WriteAtomic(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write(header)
		cw.WriteAll(rows)
		return cw.Error()
	})
}
