package toytext

import (
	"image"
	"image/color"
)

// The envs draw themselves (envpool.Renderer) as small pixel art in a fixed palette:
// one square per grid cell in the tile's colour, the agent a square inside its cell,
// Blackjack's hands as cards with their values. A GIF stores the pictures as they are.

// Colour indices of the drawings in palette.
const (
	white uint8 = iota
	black
	gray
	ice
	hole
	green
	red
	yellow
	blue
	magenta
	brown
	felt
)

// palette is the colour table of the drawings, in the order of the indices above.
var palette = rgbPalette(
	0xffffff, // white
	0x000000, // black
	0x969696, // gray: the start, the yard
	0xc8e6fa, // ice
	0x1e3c78, // hole
	0x28aa46, // green: goals
	0xdc2828, // red: the agent
	0xf0c81e, // yellow: the taxi
	0x2850dc, // blue
	0xc832c8, // magenta: the destination
	0x6e4628, // brown: the cliff
	0x146e32, // felt: the card table
)

// rgbPalette makes a palette of opaque colours given as 0xRRGGBB.
func rgbPalette(hex ...uint32) color.Palette {
	p := make(color.Palette, len(hex))
	for i, h := range hex {
		p[i] = color.RGBA{uint8(h >> 16), uint8(h >> 8), uint8(h), 255}
	}
	return p
}

// cell is the side of a grid cell in pixels.
const cell = 16

// picture is a paletted image with the drawing operations of the family.
type picture struct{ *image.Paletted }

// newPicture returns a w x h picture filled with colour bg.
func newPicture(w, h int, bg uint8) picture {
	p := picture{image.NewPaletted(image.Rect(0, 0, w, h), palette)}
	p.fill(0, 0, w, h, bg)
	return p
}

// fill paints the rectangle [x0, x1) x [y0, y1), clipped to the picture.
func (p picture) fill(x0, y0, x1, y1 int, col uint8) {
	r := image.Rect(x0, y0, x1, y1).Intersect(p.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := p.Pix[p.PixOffset(r.Min.X, y):p.PixOffset(r.Max.X, y)]
		for i := range row {
			row[i] = col
		}
	}
}

// square paints grid cell (r, c) with a margin of m pixels left unpainted.
func (p picture) square(r, c, m int, col uint8) {
	p.fill(c*cell+m, r*cell+m, (c+1)*cell-m, (r+1)*cell-m, col)
}

// glyphs are 3 x 5 bitmaps of the characters cards show, one row of three bits per
// byte, top row first.
var glyphs = map[byte][5]uint8{
	'0': {7, 5, 5, 5, 7}, '1': {2, 6, 2, 2, 7}, '2': {7, 1, 7, 4, 7}, '3': {7, 1, 7, 1, 7},
	'4': {5, 5, 7, 1, 1}, '5': {7, 4, 7, 1, 7}, '6': {7, 4, 7, 5, 7}, '7': {7, 1, 1, 2, 2},
	'8': {7, 5, 7, 5, 7}, '9': {7, 5, 7, 1, 7}, 'A': {2, 5, 7, 5, 5}, '?': {7, 1, 3, 0, 2},
}

// text writes s at (x, y) in the 3 x 5 glyphs scaled by s, a glyph's width apart.
func (p picture) text(x, y, scale int, s string, col uint8) {
	for _, ch := range []byte(s) {
		g := glyphs[ch]
		for r, bits := range g {
			for c := range 3 {
				if bits&(4>>c) != 0 {
					p.fill(x+c*scale, y+r*scale, x+(c+1)*scale, y+(r+1)*scale, col)
				}
			}
		}
		x += 4 * scale
	}
}

// Render draws the lake (envpool.Renderer): ice, holes dark blue, the start gray, the
// goal green, the player red; 16 pixels a tile.
func (e *FrozenLake) Render() (image.Image, error) {
	p := newPicture(e.ncol*cell, e.nrow*cell, ice)
	for r, row := range e.desc {
		for c := range row {
			col := map[byte]uint8{'S': gray, 'F': ice, 'H': hole, 'G': green}[row[c]]
			p.square(r, c, 1, col)
		}
	}
	p.square(e.s/e.ncol, e.s%e.ncol, 4, red)
	return p.Paletted, nil
}

// taxiStandColours are the colours of the stands R, G, Y, B.
var taxiStandColours = [4]uint8{red, green, yellow, blue}

// Render draws the yard (envpool.Renderer): the four stands in their colours, the
// walls black, the destination framed magenta, the passenger a small square at their
// stand, the taxi yellow (green with the passenger aboard); 16 pixels a cell.
func (e *Taxi) Render() (image.Image, error) {
	p := newPicture(5*cell, 5*cell, gray)
	row, col, pass, dest := taxiDecode(e.s)
	d := taxiLocs[dest]
	p.square(d[0], d[1], 0, magenta)
	for i, l := range taxiLocs {
		p.square(l[0], l[1], 2, taxiStandColours[i])
	}
	for r := range 5 {
		for c := 1; c < 5; c++ {
			if taxiMap[1+r][2*c] == '|' {
				p.fill(c*cell-1, r*cell, c*cell+1, (r+1)*cell, black)
			}
		}
	}
	taxi := yellow
	if pass == 4 {
		taxi = green
	} else {
		l := taxiLocs[pass]
		p.square(l[0], l[1], 6, white)
	}
	p.square(row, col, 4, taxi)
	p.fill(col*cell+4, row*cell+4, (col+1)*cell-4, row*cell+5, black) // the roof
	return p.Paletted, nil
}

// Render draws the cliff world (envpool.Renderer): grass, the cliff brown, the start
// gray, the goal green, the player red; 16 pixels a cell.
func (e *CliffWalking) Render() (image.Image, error) {
	p := newPicture(cliffCols*cell, cliffRows*cell, white)
	for s := range cliffStates {
		r, c := s/cliffCols, s%cliffCols
		col := ice
		switch {
		case s == cliffStart:
			col = gray
		case s == cliffGoal:
			col = green
		case r == cliffRows-1:
			col = brown
		}
		p.square(r, c, 1, col)
	}
	p.square(e.s/cliffCols, e.s%cliffCols, 4, red)
	return p.Paletted, nil
}

// blackjackSlots is how many cards a row of the Blackjack picture shows.
const blackjackSlots = 12

// Render draws the table (envpool.Renderer): the dealer's cards above, the
// player's below, each a white card with its value (A for an ace); the dealer's second
// card is face down until the hand is over. At most 12 cards a hand are shown.
func (e *Blackjack) Render() (image.Image, error) {
	const cw, ch, gap = 20, 28, 4
	p := newPicture(gap+blackjackSlots*(cw+gap), 2*(ch+2*gap), felt)
	for row, hand := range [2][]int{e.dealer, e.player} {
		y := gap + row*(ch+2*gap)
		for i, c := range hand[:min(len(hand), blackjackSlots)] {
			x := gap + i*(cw+gap)
			if row == 0 && i == 1 && !e.over {
				p.fill(x, y, x+cw, y+ch, blue)
				continue
			}
			p.fill(x, y, x+cw, y+ch, white)
			s := cardName(c)
			p.text(x+cw/2-(4*len(s)-1)*2/2, y+ch/2-5, 2, s, black)
		}
	}
	return p.Paletted, nil
}

// Render draws the board (envpool.Renderer): the ball red, the paddle black; 8
// pixels a cell.
func (e *Catch) Render() (image.Image, error) {
	const s = 8
	p := newPicture(e.width*s, e.height*s, white)
	p.fill(e.ballCol*s+1, e.ballRow*s+1, (e.ballCol+1)*s-1, (e.ballRow+1)*s-1, red)
	p.fill(e.paddle*s, (e.height-1)*s+s/2, (e.paddle+1)*s, e.height*s, black)
	return p.Paletted, nil
}

// Render draws the chain (envpool.Renderer): five cells, the last green, the
// walker's red.
func (e *NChain) Render() (image.Image, error) {
	p := newPicture(nchainStates*cell, cell, white)
	for i := range nchainStates {
		col := ice
		if i == nchainStates-1 {
			col = green
		}
		if i == e.s {
			col = red
		}
		p.square(0, i, 1, col)
	}
	return p.Paletted, nil
}
