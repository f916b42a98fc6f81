//go:build !linux

package trainer

import "os"

// fileIsTerminal falls back to asking whether f is a character device.
func fileIsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// terminalWidth is unknown here: the line is not cut.
func terminalWidth(*os.File) int { return 0 }
