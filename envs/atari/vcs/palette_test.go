package vcs

import "testing"

// TestGrayscaleScreen checks the grayscale conversion against the palette table, on
// pixels that change every byte and on runs of one colour (of lengths that straddle the
// 8-byte groups the conversion takes whole).
func TestGrayscaleScreen(t *testing.T) {
	scr := make([]byte, 2011)
	for i := range scr[:1003] {
		scr[i] = byte(i*7) &^ 1
	}
	for i := 1003; i < len(scr); i++ {
		scr[i] = byte((i/13)*22+(i/200)) &^ 1
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
