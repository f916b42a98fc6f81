package atari

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ImportStatus is what ImportROMs did with one file it found.
type ImportStatus int

const (
	// Imported: the file is a supported game's ROM and was copied into the ROM
	// folder under the game's canonical name (<name>.bin).
	Imported ImportStatus = iota
	// AlreadyPresent: the ROM folder already holds this game's ROM (or an earlier
	// file of this import was it).
	AlreadyPresent
	// Unknown: the file's md5 is none of the supported games' (another release, a
	// corrupt copy, or not a ROM); it is not copied and never run.
	Unknown
	// Skipped: the file was not read (larger than any ROM, or unreadable).
	Skipped
)

// String names the status as `train roms import` prints it.
func (s ImportStatus) String() string {
	switch s {
	case Imported:
		return "imported"
	case AlreadyPresent:
		return "already present"
	case Unknown:
		return "unknown"
	case Skipped:
		return "skipped"
	}
	return fmt.Sprintf("ImportStatus(%d)", int(s))
}

// ImportResult is one file ImportROMs looked at.
type ImportResult struct {
	Source string // the file, or "archive.zip:member" inside a zip file
	MD5    string // empty when the file was skipped
	Game   string // the game's ROM name, for Imported and AlreadyPresent
	Status ImportStatus
	Dest   string // the ROM folder's file for the game, for Imported and AlreadyPresent
	Detail string // why a file was skipped
}

// ImportROMs scans the folder tree src (or a single file; zip archives are opened and
// their members scanned too), identifies ROMs by md5 against the game table, and
// copies each supported game's ROM into dst as <name>.bin. A game already in dst
// (found by md5, whatever its file name) is not copied again; a <name>.bin in dst with
// the wrong md5 is replaced. The results are sorted by source path.
func ImportROMs(src, dst string) ([]ImportResult, error) {
	if _, err := os.Stat(src); err != nil {
		return nil, fmt.Errorf("atari: import: %w", err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return nil, fmt.Errorf("atari: import: creating the ROM folder: %w", err)
	}
	present := presentGames(dst)
	var results []ImportResult
	consider := func(source string, data []byte) {
		sum := MD5(data)
		g, ok := gamesByMD5[sum]
		if !ok {
			results = append(results, ImportResult{Source: source, MD5: sum, Status: Unknown})
			return
		}
		res := ImportResult{Source: source, MD5: sum, Game: g.Name}
		if path, ok := present[g.Name]; ok {
			res.Status, res.Dest = AlreadyPresent, path
			results = append(results, res)
			return
		}
		dest := filepath.Join(dst, g.Name+".bin")
		if err := writeFileAtomic(dest, data); err != nil {
			res.Status, res.Detail = Skipped, err.Error()
			results = append(results, res)
			return
		}
		res.Status, res.Dest = Imported, dest
		present[g.Name] = dest
		results = append(results, res)
	}
	absDst, _ := filepath.Abs(dst)
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			results = append(results, ImportResult{Source: path, Status: Skipped, Detail: err.Error()})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			// Do not re-scan the ROM folder itself when it lies inside the tree.
			if abs, _ := filepath.Abs(path); abs == absDst && path != src {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		if strings.EqualFold(filepath.Ext(path), ".zip") {
			scanZip(path, consider, &results)
			return nil
		}
		data, err := readROMFile(path)
		if err != nil {
			results = append(results, ImportResult{Source: path, Status: Skipped, Detail: err.Error()})
			return nil
		}
		consider(path, data)
		return nil
	})
	sort.SliceStable(results, func(i, j int) bool { return results[i].Source < results[j].Source })
	return results, err
}

// scanZip passes every member of a zip archive that could be a ROM to consider.
func scanZip(path string, consider func(string, []byte), results *[]ImportResult) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		*results = append(*results, ImportResult{Source: path, Status: Skipped, Detail: "not a readable zip archive: " + err.Error()})
		return
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		source := path + ":" + f.Name
		if f.UncompressedSize64 > maxROMSize {
			*results = append(*results, ImportResult{Source: source, Status: Skipped,
				Detail: fmt.Sprintf("%d bytes, larger than any Atari 2600 ROM", f.UncompressedSize64)})
			continue
		}
		rc, err := f.Open()
		if err != nil {
			*results = append(*results, ImportResult{Source: source, Status: Skipped, Detail: err.Error()})
			continue
		}
		data, err := io.ReadAll(io.LimitReader(rc, maxROMSize+1))
		rc.Close()
		if err != nil || len(data) > maxROMSize {
			*results = append(*results, ImportResult{Source: source, Status: Skipped, Detail: fmt.Sprint("reading: ", err)})
			continue
		}
		consider(source, data)
	}
}

// presentGames returns the games whose ROMs the folder already holds (by md5), with
// their files.
func presentGames(dir string) map[string]string {
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return out
	}
	for _, e := range entries {
		if !e.Type().IsRegular() && e.Type()&fs.ModeSymlink == 0 {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := readROMFile(path)
		if err != nil {
			continue
		}
		if g, ok := gamesByMD5[MD5(data)]; ok {
			if _, seen := out[g.Name]; !seen || e.Name() == g.Name+".bin" {
				out[g.Name] = path
			}
		}
	}
	return out
}

// writeFileAtomic writes data to path through a temporary file and a rename, so an
// interrupted import never leaves a truncated ROM under a game's name.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".import-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// GameStatus is one game of the table and whether a ROM folder holds its ROM.
type GameStatus struct {
	Game   Game
	TaskID string
	Path   string // the ROM's file, empty when missing
}

// ROMStatus lists every supported game, sorted by name, with the file of its ROM in
// dir (found by md5) or none.
func ROMStatus(dir string) []GameStatus {
	present := presentGames(dir)
	var out []GameStatus
	for _, g := range Games() {
		out = append(out, GameStatus{Game: g, TaskID: g.TaskID(), Path: present[g.Name]})
	}
	return out
}
