package toytext

import (
	"fmt"
	"strings"
)

// ansiColours are the terminal colour codes of Gymnasium's utils.colorize.
var ansiColours = map[string]int{"gray": 30, "red": 31, "green": 32, "yellow": 33, "blue": 34, "magenta": 35, "cyan": 36, "white": 37, "crimson": 38}

// colorize wraps s in the ANSI escapes Gymnasium's utils.colorize writes: the colour
// (its background when highlight), then bold, then a reset after s.
func colorize(s, colour string, bold, highlight bool) string {
	n := ansiColours[colour]
	if highlight {
		n += 10
	}
	attrs := fmt.Sprint(n)
	if bold {
		attrs += ";1"
	}
	return "\x1b[" + attrs + "m" + s + "\x1b[0m"
}

// cardName is a card's face in text: A for an ace, else its value.
func cardName(c int) string {
	if c == 1 {
		return "A"
	}
	return fmt.Sprint(c)
}

// RenderText describes the hands (Gymnasium draws Blackjack only as a picture): the
// player's cards, sum and usable ace, and the dealer's cards, the hidden second card
// shown as ? until the player sticks.
func (e *Blackjack) RenderText() (string, error) {
	var b strings.Builder
	b.WriteString("Player:")
	for _, c := range e.player {
		b.WriteString(" " + cardName(c))
	}
	fmt.Fprintf(&b, " (sum %d", sumHand(e.player))
	if usableAce(e.player) {
		b.WriteString(", usable ace")
	}
	b.WriteString(")\nDealer:")
	for i, c := range e.dealer {
		if i == 1 && !e.over {
			b.WriteString(" ?")
			continue
		}
		b.WriteString(" " + cardName(c))
	}
	if e.over {
		fmt.Fprintf(&b, " (sum %d)", sumHand(e.dealer))
	}
	b.WriteString("\n")
	return b.String(), nil
}

// RenderText draws the board: . for empty cells, o for the ball, = for the paddle on
// the bottom row (* when the ball is on it).
func (e *Catch) RenderText() (string, error) {
	var b strings.Builder
	for r := range e.height {
		for c := range e.width {
			ch := byte('.')
			switch {
			case r == e.height-1 && c == e.paddle && r == e.ballRow && c == e.ballCol:
				ch = '*'
			case r == e.height-1 && c == e.paddle:
				ch = '='
			case r == e.ballRow && c == e.ballCol:
				ch = 'o'
			}
			b.WriteByte(ch)
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// RenderText draws the chain with the current state marked: [ ][x][ ][ ][ ].
func (e *NChain) RenderText() (string, error) {
	var b strings.Builder
	for i := range nchainStates {
		if i == e.s {
			b.WriteString("[x]")
		} else {
			b.WriteString("[ ]")
		}
	}
	b.WriteString("\n")
	return b.String(), nil
}
