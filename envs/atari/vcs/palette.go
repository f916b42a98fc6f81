package vcs

import (
	"encoding/binary"
	"math/bits"
)

// NTSCPalette is ALE's NTSC palette as R, G, B. The index is a screen byte >> 1 (screen
// bytes are colour register values with bit 0 cleared). Transcribed from
// testdata/atari/palette.tsv so observations can be converted to RGB without ALE.
var NTSCPalette = [128][3]uint8{
	{0, 0, 0},
	{74, 74, 74},
	{111, 111, 111},
	{142, 142, 142},
	{170, 170, 170},
	{192, 192, 192},
	{214, 214, 214},
	{236, 236, 236},
	{72, 72, 0},
	{105, 105, 15},
	{134, 134, 29},
	{162, 162, 42},
	{187, 187, 53},
	{210, 210, 64},
	{232, 232, 74},
	{252, 252, 84},
	{124, 44, 0},
	{144, 72, 17},
	{162, 98, 33},
	{180, 122, 48},
	{195, 144, 61},
	{210, 164, 74},
	{223, 183, 85},
	{236, 200, 96},
	{144, 28, 0},
	{163, 57, 21},
	{181, 83, 40},
	{198, 108, 58},
	{213, 130, 74},
	{227, 151, 89},
	{240, 170, 103},
	{252, 188, 116},
	{148, 0, 0},
	{167, 26, 26},
	{184, 50, 50},
	{200, 72, 72},
	{214, 92, 92},
	{228, 111, 111},
	{240, 128, 128},
	{252, 144, 144},
	{132, 0, 100},
	{151, 25, 122},
	{168, 48, 143},
	{184, 70, 162},
	{198, 89, 179},
	{212, 108, 195},
	{224, 124, 210},
	{236, 140, 224},
	{80, 0, 132},
	{104, 25, 154},
	{125, 48, 173},
	{146, 70, 192},
	{164, 89, 208},
	{181, 108, 224},
	{197, 124, 238},
	{212, 140, 252},
	{20, 0, 144},
	{51, 26, 163},
	{78, 50, 181},
	{104, 72, 198},
	{127, 92, 213},
	{149, 111, 227},
	{169, 128, 240},
	{188, 144, 252},
	{0, 0, 148},
	{24, 26, 167},
	{45, 50, 184},
	{66, 72, 200},
	{84, 92, 214},
	{101, 111, 228},
	{117, 128, 240},
	{132, 144, 252},
	{0, 28, 136},
	{24, 59, 157},
	{45, 87, 176},
	{66, 114, 194},
	{84, 138, 210},
	{101, 160, 225},
	{117, 181, 239},
	{132, 200, 252},
	{0, 48, 100},
	{24, 80, 128},
	{45, 109, 152},
	{66, 136, 176},
	{84, 160, 197},
	{101, 183, 217},
	{117, 204, 235},
	{132, 224, 252},
	{0, 64, 48},
	{24, 98, 78},
	{45, 129, 105},
	{66, 158, 130},
	{84, 184, 153},
	{101, 209, 174},
	{117, 231, 194},
	{132, 252, 212},
	{0, 68, 0},
	{26, 102, 26},
	{50, 132, 50},
	{72, 160, 72},
	{92, 186, 92},
	{111, 210, 111},
	{128, 232, 128},
	{144, 252, 144},
	{20, 60, 0},
	{53, 95, 24},
	{82, 126, 45},
	{110, 156, 66},
	{135, 183, 84},
	{158, 208, 101},
	{180, 231, 117},
	{200, 252, 132},
	{48, 56, 0},
	{80, 89, 22},
	{109, 118, 43},
	{136, 146, 62},
	{160, 171, 79},
	{183, 194, 95},
	{204, 216, 110},
	{224, 236, 124},
	{72, 44, 0},
	{105, 77, 20},
	{134, 106, 38},
	{162, 134, 56},
	{187, 159, 71},
	{210, 182, 86},
	{232, 204, 99},
	{252, 224, 112},
}

// NTSCGray is ALE's grayscale value of each palette entry,
// round(0.2989 R + 0.5870 G + 0.1140 B), indexed like NTSCPalette.
var NTSCGray = [128]uint8{
	0, 74, 111, 142, 170, 192, 214, 236, 64, 95, 122, 148, 172, 193, 214, 233,
	63, 87, 110, 131, 150, 167, 184, 199, 59, 85, 107, 129, 148, 167, 183, 199,
	44, 68, 90, 110, 128, 146, 161, 176, 51, 74, 95, 115, 132, 149, 164, 178,
	39, 63, 85, 107, 125, 143, 159, 174, 22, 49, 73, 96, 116, 136, 153, 169,
	17, 41, 64, 85, 104, 121, 137, 153, 32, 60, 85, 109, 130, 150, 168, 186,
	40, 69, 95, 120, 141, 162, 182, 200, 43, 74, 101, 127, 151, 173, 193, 212,
	40, 71, 98, 124, 147, 169, 189, 207, 41, 74, 104, 132, 157, 181, 203, 223,
	47, 79, 107, 133, 157, 179, 200, 220, 47, 79, 107, 133, 157, 179, 200, 220,
}

// grayLUT maps a screen byte (colour value) to ALE's grayscale value.
var grayLUT = func() (t [256]uint8) {
	for i := range t {
		t[i] = NTSCGray[i>>1]
	}
	return t
}()

// gray8LUT maps a screen byte to eight copies of its grayscale value.
var gray8LUT = func() (t [256]uint64) {
	for i := range t {
		t[i] = uint64(grayLUT[i]) * 0x0101010101010101
	}
	return t
}()

// gray4 converts four pixels, taking a one-colour group (an object's edge leaves one
// half of its 8-pixel group plain) with one lookup.
func gray4(w uint32) uint64 {
	if bits.RotateLeft32(w, 8) == w {
		return gray8LUT[uint8(w)] & 0xFFFFFFFF
	}
	lut := &grayLUT
	return uint64(lut[uint8(w)]) | uint64(lut[uint8(w>>8)])<<8 | uint64(lut[uint8(w>>16)])<<16 | uint64(lut[uint8(w>>24)])<<24
}

// GrayscaleScreen writes the grayscale value of each byte of screen into dst (ALE's
// getScreenGrayscale), eight pixels per step. dst must be at least as long as screen.
// Most 8-pixel groups of a 2600 frame are one colour (background, playfield blocks;
// 98% of a Pong frame, 86% of a Space Invaders one): those take one lookup and one
// 8-byte store, and the others are taken four pixels at a time the same way.
func GrayscaleScreen(dst, screen []byte) {
	dst = dst[:len(screen)]
	lut := &grayLUT
	n := len(screen) / 8
	for i := 0; i < n; i++ {
		w := binary.LittleEndian.Uint64(screen[i*8 : i*8+8])
		var g uint64
		if bits.RotateLeft64(w, 8) == w {
			g = gray8LUT[uint8(w)]
		} else {
			g = gray4(uint32(w)) | gray4(uint32(w>>32))<<32
		}
		binary.LittleEndian.PutUint64(dst[i*8:i*8+8], g)
	}
	for i := n * 8; i < len(screen); i++ {
		dst[i] = lut[screen[i]]
	}
}
