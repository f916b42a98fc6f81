package rundir

import (
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

// TruncateCSV keeps the header and the rows for which keep returns true, rewriting
// the file atomically. A resumed run uses it to drop rows written after its checkpoint.
func TruncateCSV(path string, keep func(row []string) bool) error {
	header, rows, err := ReadCSV(path)
	if err != nil || header == nil {
		return err
	}
	return WriteAtomic(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write(header)
		for _, r := range rows {
			if keep(r) {
				cw.Write(r)
			}
		}
		cw.Flush()
		return cw.Error()
	})
}

// widenCSV rewrites the CSV file at path under header, which must hold every column
// the file has: each row keeps its values by column name and gets NaN in the new ones.
func widenCSV(path string, header []string) error {
	old, rows, err := ReadCSV(path)
	if err != nil {
		return err
	}
	at := make(map[string]int, len(header))
	for i, h := range header {
		at[h] = i
	}
	for _, h := range old {
		if _, ok := at[h]; !ok {
			return fmt.Errorf("rundir: %s has columns %q, want %q: column %s is gone, so it was written by a different version or learner", path, strings.Join(old, ","), strings.Join(header, ","), h)
		}
	}
	return WriteAtomic(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write(header)
		out := make([]string, len(header))
		for _, r := range rows {
			for i := range out {
				out[i] = "NaN"
			}
			for i, v := range r {
				if i < len(old) {
					out[at[old[i]]] = v
				}
			}
			cw.Write(out)
		}
		cw.Flush()
		return cw.Error()
	})
}
