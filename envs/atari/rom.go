package atari

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ROMEnv is the environment variable naming a folder of ROMs, searched after any
// folders given explicitly (the test suite points it at the shared test ROMs).
const ROMEnv = "RLPOOL_ROMS"

// maxROMSize is the largest file considered a ROM (Stella reads at most 512 KiB).
const maxROMSize = 512 << 10

// ROM is a ROM image found on disk and the game it was identified as.
type ROM struct {
	Path string // the file it was read from
	Data []byte // the whole image, to pass to NewALE
	Game Game   // the game its md5 identifies
}

// DefaultROMDir is the ROM folder used when neither a configured folder (the Atari
// tasks' roms_dir option, env.options.roms_dir in a run config) nor $RLPOOL_ROMS is
// given: ./roms, relative to the working directory.
const DefaultROMDir = "roms"

// ROMDir resolves the ROM folder: the configured folder if not empty, else
// $RLPOOL_ROMS if set, else DefaultROMDir. `train roms import` copies into it.
func ROMDir(configured string) string {
	if configured != "" {
		return configured
	}
	if d := os.Getenv(ROMEnv); d != "" {
		return d
	}
	return DefaultROMDir
}

// DefaultROMDirs are the folders FindROM searches when given none: ROMDir("").
func DefaultROMDirs() []string { return []string{ROMDir("")} }

// ErrROMNotFound is wrapped by FindROM's error when no folder holds the game's ROM.
var ErrROMNotFound = errors.New("ROM not found")

// FindROM finds the ROM of a game (ALE's name, e.g. "pong") in the given folders, or in
// DefaultROMDirs when none are given. A ROM is recognised by its md5 only, whatever
// its file name: "<game>.bin" and "<game>.a26" are tried first, then every file of
// each folder. A file named after the game whose md5 differs is not used (it is a
// different release of the game, which ALE's RAM addresses do not fit).
func FindROM(game string, dirs ...string) (ROM, error) {
	g, ok := gamesByName[game]
	if !ok {
		return ROM{}, fmt.Errorf("atari: unknown game %q; supported games: %s", game, strings.Join(GameNames(), ", "))
	}
	if len(dirs) == 0 {
		dirs = DefaultROMDirs()
	}
	var wrongMD5 []string
	for _, dir := range dirs {
		for _, name := range []string{game + ".bin", game + ".a26"} {
			path := filepath.Join(dir, name)
			data, err := readROMFile(path)
			if err != nil {
				continue
			}
			sum := MD5(data)
			if sum == g.MD5 {
				return ROM{Path: path, Data: data, Game: g.clone()}, nil
			}
			wrongMD5 = append(wrongMD5, fmt.Sprintf("%s has md5 %s", path, sum))
		}
	}
	for _, dir := range dirs {
		rom, ok := scanDirForMD5(dir, g.MD5)
		if ok {
			rom.Game = g.clone()
			return rom, nil
		}
	}
	detail := ""
	if len(wrongMD5) > 0 {
		detail = "; not the supported release: " + strings.Join(wrongMD5, ", ")
	}
	return ROM{}, fmt.Errorf("atari: %w for game %s (md5 %s); searched %s%s; run `train roms import DIR -to %s` on a folder (or zip) holding ALE's ROMs, or point the roms_dir option or %s at such a folder",
		ErrROMNotFound, game, g.MD5, describeDirs(dirs), detail, dirs[0], ROMEnv)
}

// LoadROM reads a ROM file and identifies its game. A file whose md5 is not one of the
// supported games' is reported as unknown and never run.
func LoadROM(path string) (ROM, error) {
	data, err := readROMFile(path)
	if err != nil {
		return ROM{}, fmt.Errorf("atari: reading ROM: %w", err)
	}
	g, ok := Identify(data)
	if !ok {
		return ROM{}, unknownROMError(path, data)
	}
	return ROM{Path: path, Data: data, Game: g}, nil
}

// unknownROMError says a ROM image is not one of the supported games.
func unknownROMError(path string, data []byte) error {
	where := "ROM image"
	if path != "" {
		where = path
	}
	return fmt.Errorf("atari: %s (md5 %s, %d bytes) is not a supported game's ROM: rlpool runs only the exact ROM releases ALE supports (%s); use the ROMs shipped with ALE", where, MD5(data), len(data), strings.Join(GameNames(), ", "))
}

// readROMFile reads a regular file no larger than a ROM can be.
func readROMFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if st.Size() > maxROMSize {
		return nil, fmt.Errorf("%s is %d bytes, larger than any Atari 2600 ROM (%d)", path, st.Size(), maxROMSize)
	}
	return os.ReadFile(path)
}

// scanDirForMD5 looks through the files of one folder (not its subfolders) for a ROM
// with the given md5.
func scanDirForMD5(dir, sum string) (ROM, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ROM{}, false
	}
	for _, e := range entries {
		// Regular files and symbolic links (readROMFile checks what a link points to).
		if !e.Type().IsRegular() && e.Type()&fs.ModeSymlink == 0 {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := readROMFile(path)
		if err != nil {
			continue
		}
		if MD5(data) == sum {
			return ROM{Path: path, Data: data}, true
		}
	}
	return ROM{}, false
}

// describeDirs lists the searched folders for an error message.
func describeDirs(dirs []string) string {
	if len(dirs) == 0 {
		return "no folders"
	}
	return strings.Join(dirs, ", ")
}
