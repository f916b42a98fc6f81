package minigrid

import (
	"math"

	"github.com/rlpool/rlpool/envpool"
)

// The one_hot observation is for policies without an embedding layer (an MLP): the
// same information as the byte observation, with no value whose size means nothing.
// Each view cell's object, colour and state index becomes a one-hot group, the
// direction a one-hot group of four, and the mission its word counts over the
// vocabulary of every MiniGrid and BabyAI mission. Word counts keep which objects and
// colours a mission names but not their order: enough to tell "go to the red ball"
// from "go to a grey box", not "put the red ball next to the blue key" from its
// converse.

// Groups of a view cell's one-hot features: minigrid's object indices (unseen to
// agent), its colours, and its states (open, closed, locked).
const (
	hotKinds  = int(objAgent) + 1
	hotStates = 3
	hotCell   = hotKinds + int(numColors) + hotStates
)

// missionWords is the vocabulary of the one_hot mission counts: every word of every
// mission the MiniGrid and BabyAI levels write, in order. A word outside it (a
// mission text no level writes) is counted in the last column.
var missionWords = []string{
	"a", "after", "and", "at", "avoid", "ball", "behind", "blue", "box", "door",
	"end", "fetch", "find", "from", "front", "get", "go", "goal", "green", "grey",
	"hallway", "in", "key", "lava", "left", "matching", "maze", "must", "near", "next",
	"object", "of", "on", "open", "opening", "pick", "purple", "put", "reach", "red",
	"right", "room", "rooms", "square", "the", "then", "to", "traverse", "unlock", "up",
	"use", "yellow", "you", "your",
}

// wordIndex maps a vocabulary word to its column.
var wordIndex = func() map[string]int {
	m := make(map[string]int, len(missionWords))
	for i, w := range missionWords {
		m[w] = i
	}
	return m
}()

// oneHotSpec is the spec of a one_hot task: the layout of spec's byte observation
// with each field widened to its features.
func (c *config) oneHotSpec(id string) envpool.Spec {
	img := c.viewSize * c.viewSize * hotCell
	nw := len(missionWords) + 1
	spec := c.byteSpec(id)
	spec.ObsSpace = envpool.UniformBox(0, 1, envpool.Float32, 4+img+nw)
	for i := 4 + img; i < 4+img+nw; i++ {
		spec.ObsSpace.High[i] = math.MaxFloat32 // word counts
	}
	spec.ObsLayout = []envpool.ObsField{
		{Name: "direction", Offset: 0, Size: 4},
		{Name: "image", Offset: 4, Size: img, Shape: []int{c.viewSize, c.viewSize, hotCell}},
		{Name: "mission", Offset: 4 + img, Size: nw},
	}
	return spec
}

// writeOneHot writes the one_hot features of the observation e.bytes holds (the byte
// observation, just written) into dst.
func (e *Env) writeOneHot(dst []float32) {
	clear(dst)
	b := e.bytes
	dst[b[0]] = 1
	n := e.viewSize * e.viewSize
	for k := range n {
		kind, color, state := b[1+3*k], b[2+3*k], b[3+3*k]
		f := dst[4+k*hotCell : 4+(k+1)*hotCell]
		f[kind] = 1
		if kind != objUnseen { // an unseen cell is all zeros in the byte view
			f[hotKinds+int(color)] = 1
			f[hotKinds+int(numColors)+int(state)] = 1
		}
	}
	copy(dst[4+n*hotCell:], e.missionCounts())
}

// missionCounts returns the counts of the mission's words by vocabulary column, and
// of the words outside the vocabulary in the last; it counts each mission once.
func (e *Env) missionCounts() []float32 {
	if e.wordsDone && e.wordsOf == e.mission {
		return e.words
	}
	if e.words == nil {
		e.words = make([]float32, len(missionWords)+1)
	}
	clear(e.words)
	forEachWord(e.mission, func(w string) {
		if i, ok := wordIndex[w]; ok {
			e.words[i]++
		} else {
			e.words[len(missionWords)]++
		}
	})
	e.wordsOf, e.wordsDone = e.mission, true
	return e.words
}

// forEachWord calls f with each word of s: its runs of letters, lower-cased (a
// mission's commas and capitals are not words).
func forEachWord(s string, f func(string)) {
	var buf []byte
	flush := func() {
		if len(buf) > 0 {
			f(string(buf))
			buf = buf[:0]
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
			buf = append(buf, c)
		case c >= 'A' && c <= 'Z':
			buf = append(buf, c+'a'-'A')
		default:
			flush()
		}
	}
	flush()
}
