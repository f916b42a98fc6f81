package vcs

import "testing"

// TestGrayscaleScreen checks the grayscale conversion against the palette table.
func TestGrayscaleScreen(t *testing.T) {
	scr := make([]byte, 1003)
	for i := range scr {
		scr[i] = byte(i*7) &^ 1
	}
	dst := make([]byte, len(scr))
	GrayscaleScreen(dst, scr)
	for i, p := range scr {
		if dst[i] != NTSCGray[p>>1] {
			t.Fatalf("pixel %d: %d, want %d", i, dst[i], NTSCGray[p>>1])
		}
	}
	if NTSCGray[1] != 74 || NTSCPalette[127] != [3]uint8{252, 224, 112} {
		t.Errorf("palette table does not match palette.tsv")
	}
}
